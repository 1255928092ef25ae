//! Colors and styles. Selection and focus never rely on color alone (reverse video and bold),
//! so the UI works with `NO_COLOR`; truecolor is used only when `COLORTERM` says so. Plot
//! series and notification kinds also differ by marker or label (see the Curves panel).

use ratatui::style::{Color, Modifier, Style};

/// How much color the terminal gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorMode {
    /// No color at all (`NO_COLOR` or `--color never`).
    None,
    /// The 16 ANSI colors (safe everywhere).
    Ansi,
    /// 24-bit colors (`COLORTERM=truecolor|24bit`).
    TrueColor,
}

impl ColorMode {
    /// Picks the mode from the environment (`NO_COLOR`, `COLORTERM`, `TERM`; see
    /// [`crate::tui::capabilities`]).
    pub fn from_env() -> ColorMode {
        crate::tui::capabilities::Capabilities::from_env().color
    }
}

/// The styles every view uses.
#[derive(Clone, Debug)]
pub struct Theme {
    pub mode: ColorMode,
    /// The terminal shows UTF-8 (box drawing, symbols); false: everything is ASCII.
    pub unicode: bool,
}

impl Theme {
    /// A theme for a UTF-8 terminal.
    pub fn new(mode: ColorMode) -> Theme {
        Theme {
            mode,
            unicode: true,
        }
    }

    /// A theme for a terminal as [`crate::tui::capabilities`] found it.
    pub fn for_terminal(mode: ColorMode, unicode: bool) -> Theme {
        Theme { mode, unicode }
    }

    /// Whether the screen is ASCII with `marker` (the terminal cannot show more, or the
    /// ASCII marker, which covers the whole screen).
    pub fn ascii(&self, marker: crate::tui::views::MarkerKind) -> bool {
        !self.unicode || marker == crate::tui::views::MarkerKind::Ascii
    }

    fn fg(&self, ansi: Color, rgb: (u8, u8, u8)) -> Style {
        match self.mode {
            ColorMode::None => Style::default(),
            ColorMode::Ansi => Style::default().fg(ansi),
            ColorMode::TrueColor => Style::default().fg(Color::Rgb(rgb.0, rgb.1, rgb.2)),
        }
    }

    /// Plain text.
    pub fn text(&self) -> Style {
        Style::default()
    }

    /// Secondary text (labels, units).
    pub fn dim(&self) -> Style {
        match self.mode {
            ColorMode::None => Style::default(),
            _ => Style::default().add_modifier(Modifier::DIM),
        }
    }

    /// The selected row or item: reverse video, visible without color.
    pub fn selected(&self) -> Style {
        Style::default().add_modifier(Modifier::REVERSED)
    }

    /// A panel border; the focused one is bold (and colored when colors are on).
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.fg(Color::Cyan, (120, 200, 255))
                .add_modifier(Modifier::BOLD)
        } else {
            self.dim()
        }
    }

    /// A panel title.
    pub fn title(&self, focused: bool) -> Style {
        if focused {
            Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
        } else {
            Style::default().add_modifier(Modifier::BOLD)
        }
    }

    /// The playhead.
    pub fn playhead(&self) -> Style {
        self.fg(Color::Yellow, (255, 210, 80))
            .add_modifier(Modifier::BOLD)
    }

    /// Keyframe markers.
    pub fn key(&self) -> Style {
        self.fg(Color::Magenta, (230, 120, 230))
    }

    /// Errors and warnings.
    pub fn error(&self) -> Style {
        self.fg(Color::Red, (255, 90, 90))
            .add_modifier(Modifier::BOLD)
    }

    /// Something highlighted in a plot or the preview (the selected bone).
    pub fn highlight(&self) -> Style {
        self.fg(Color::Yellow, (255, 210, 80))
            .add_modifier(Modifier::BOLD)
    }

    /// Colors for plot series, cycled by channel index.
    pub fn series(&self, i: usize) -> Style {
        self.cycled(&SERIES, i)
    }

    /// Notification kinds in the event log (start, interrupt, end, complete, dispose, event).
    pub fn notification(&self, kind: usize) -> Style {
        self.cycled(&NOTIFICATION, kind)
    }

    /// Geometry layers in the preview: bones, regions, meshes, bounding boxes, paths,
    /// points, clipping.
    pub fn layer(&self, layer: usize) -> Style {
        self.cycled(&LAYER, layer)
    }

    fn cycled(&self, palette: &[Swatch], i: usize) -> Style {
        let (ansi, rgb) = palette[i % palette.len()];
        self.fg(ansi, rgb)
    }
}

/// A color as ANSI and as truecolor.
type Swatch = (Color, (u8, u8, u8));

const SERIES: [Swatch; 6] = [
    (Color::Cyan, (100, 200, 255)),
    (Color::Green, (120, 220, 120)),
    (Color::Magenta, (230, 120, 230)),
    (Color::Yellow, (255, 210, 80)),
    (Color::Blue, (120, 140, 255)),
    (Color::Red, (255, 110, 110)),
];

/// The series colors but none of them red, which is for errors.
const NOTIFICATION: [Swatch; 6] = {
    let mut palette = SERIES;
    palette[5] = (Color::LightGreen, (170, 255, 170));
    palette
};

const LAYER: [Swatch; 7] = [
    (Color::White, (230, 230, 230)),
    (Color::Cyan, (100, 200, 255)),
    (Color::Green, (120, 220, 120)),
    (Color::Yellow, (240, 240, 0)),
    (Color::Magenta, (255, 127, 0)),
    (Color::Red, (241, 241, 0)),
    (Color::Blue, (206, 58, 58)),
];
