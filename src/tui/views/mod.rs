//! The panels. Each panel is a struct holding only its own view state (scroll, cursor) with
//! a `render` and a `handle_key`; everything it shows comes from [`ViewCtx`], and everything
//! it wants changed goes back to the app as a [`PanelAction`].

pub mod bones;
pub mod curves;
pub mod events;
pub mod filtered_list;
pub mod held;
pub mod help;
pub mod message_log;
pub mod picker;
pub mod preview;
pub mod prompt;
pub mod skin_picker;
pub mod status;
pub mod tab_strip;
pub mod tracks;

use crate::inspect::TimelineInfo;
use crate::session::Session;
use crate::tui::theme::Theme;
use ratatui::crossterm::event::KeyEvent;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, BorderType, Borders};

/// The five panels, in `tab` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PanelId {
    Tracks,
    Curves,
    Bones,
    Events,
    Preview,
}

impl PanelId {
    /// Every panel in focus order.
    pub const ALL: [PanelId; 5] = [
        PanelId::Tracks,
        PanelId::Curves,
        PanelId::Bones,
        PanelId::Events,
        PanelId::Preview,
    ];

    /// The panel's title (tests and users find panels by it).
    pub fn title(self) -> &'static str {
        match self {
            PanelId::Tracks => "Tracks",
            PanelId::Curves => "Curves",
            PanelId::Bones => "Bones",
            PanelId::Events => "Events",
            PanelId::Preview => "Preview",
        }
    }
}

/// What the user has selected; kept by names where it must survive reloads (the app maps).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The animation shown in the dopesheet and curves (index into the skeleton data).
    pub animation: Option<usize>,
    /// The selected timeline of that animation (index into its timelines).
    pub timeline: Option<usize>,
    /// The selected bone.
    pub bone: Option<usize>,
}

/// Which point marker plots and the preview draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    /// 2x4 solid dots per cell (Unicode 16 octants; few terminals draw them).
    Octant,
    /// 2x3 solid dots per cell (Unicode 13 sextants).
    Sextant,
    /// 2x4 dots per cell (braille; every UTF-8 terminal font has it).
    Braille,
    /// 1x2 per cell (half blocks).
    HalfBlock,
    /// One `*` per cell; the whole screen is then ASCII.
    Ascii,
}

impl MarkerKind {
    /// Every marker, in the order the `M` key cycles them.
    pub const ALL: [MarkerKind; 5] = [
        MarkerKind::Octant,
        MarkerKind::Sextant,
        MarkerKind::Braille,
        MarkerKind::HalfBlock,
        MarkerKind::Ascii,
    ];

    /// The ratatui marker.
    pub fn marker(self) -> ratatui::symbols::Marker {
        match self {
            MarkerKind::Octant => ratatui::symbols::Marker::Octant,
            MarkerKind::Sextant => ratatui::symbols::Marker::Sextant,
            MarkerKind::Braille => ratatui::symbols::Marker::Braille,
            MarkerKind::HalfBlock => ratatui::symbols::Marker::HalfBlock,
            MarkerKind::Ascii => ratatui::symbols::Marker::Custom('*'),
        }
    }

    /// Its name as the `--marker` option spells it.
    pub fn name(self) -> &'static str {
        match self {
            MarkerKind::Octant => "octant",
            MarkerKind::Sextant => "sextant",
            MarkerKind::Braille => "braille",
            MarkerKind::HalfBlock => "halfblock",
            MarkerKind::Ascii => "ascii",
        }
    }

    /// The next marker in the `M` cycle.
    pub fn next(self) -> MarkerKind {
        let i = MarkerKind::ALL.iter().position(|&m| m == self).unwrap_or(0);
        MarkerKind::ALL[(i + 1) % MarkerKind::ALL.len()]
    }
}

/// Everything a panel may read while rendering or handling a key.
pub struct ViewCtx<'a> {
    pub session: &'a Session,
    pub selection: &'a Selection,
    /// Descriptions of the selected animation's timelines (same order as its timelines).
    pub timelines: &'a [TimelineInfo],
    pub theme: &'a Theme,
    pub marker: MarkerKind,
    /// Whether this panel has the keyboard focus.
    pub focused: bool,
    /// The time within the selected animation at the playhead (seconds), if it is playing on
    /// some track; else the session time.
    pub playhead: f64,
    /// Whether the viewer is playing (views may draw less that moves every frame).
    pub playing: bool,
}

impl ViewCtx<'_> {
    /// Whether the screen is ASCII (the terminal cannot show more, or the ASCII marker).
    pub fn ascii(&self) -> bool {
        self.theme.ascii(self.marker)
    }
}

/// What a panel asks the app to do after a key.
#[derive(Clone, Debug, PartialEq)]
pub enum PanelAction {
    /// The key is not for this panel: the app handles it globally.
    Ignored,
    /// Handled; the panel's view state changed (redraw).
    Handled,
    /// Select a timeline of the selected animation (also selects its bone, if any).
    SelectTimeline(usize),
    /// Select a bone.
    SelectBone(usize),
    /// Show a message in the status bar.
    Message(String),
    /// Move the session to this frame (the event log's Enter).
    SeekFrame(u64),
}

/// Panel borders on an ASCII screen.
const ASCII_BORDER: ratatui::symbols::border::Set = ratatui::symbols::border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// The focused panel's borders on an ASCII screen.
const ASCII_FOCUSED: ratatui::symbols::border::Set = ratatui::symbols::border::Set {
    horizontal_top: "=",
    horizontal_bottom: "=",
    ..ASCII_BORDER
};

/// A bordered block titled with the panel's name (plus an optional suffix).
pub fn panel_block<'a>(id: PanelId, suffix: &str, ctx: &ViewCtx<'_>) -> Block<'a> {
    let title = if suffix.is_empty() {
        format!(" {} ", id.title())
    } else {
        format!(" {} {} ", id.title(), suffix)
    };
    let block = Block::default().borders(Borders::ALL);
    let block = if ctx.ascii() {
        // The focused panel stands out by its `=` edges (and bold).
        block.border_set(if ctx.focused {
            ASCII_FOCUSED
        } else {
            ASCII_BORDER
        })
    } else {
        block.border_type(if ctx.focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
    };
    block
        .border_style(ctx.theme.border(ctx.focused))
        .title(Span::styled(title, ctx.theme.title(ctx.focused)))
}

/// The style for a list row: reversed when selected.
pub fn row_style(ctx: &ViewCtx<'_>, selected: bool) -> Style {
    if selected {
        ctx.theme.selected()
    } else {
        ctx.theme.text()
    }
}

/// Common shape of the five panels.
pub trait Panel {
    /// Draws the panel into `area` (including its border).
    fn render(
        &mut self,
        frame: &mut ratatui::Frame<'_>,
        area: ratatui::layout::Rect,
        ctx: &ViewCtx<'_>,
    );
    /// Handles a key while focused.
    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction;
    /// Whether the next render may draw the panel's readout text as last drawn exact
    /// ([`held`]); panels without readouts ignore it.
    fn hold_readouts(&mut self, _hold: bool) {}
}
