//! The tests' one terminal model (the `vt100` crate) for the viewer's byte stream: the tests
//! replay what the backend sent and compare the screen it leaves with the frame that was drawn.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

/// What one cell of the emulated terminal shows: a character and the attributes it was
/// printed with (colours as ANSI palette indices 0-15, `None` the terminal's default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shown {
    pub ch: char,
    pub fg: Option<u8>,
    pub bg: Option<u8>,
    pub modifier: Modifier,
}

/// The text of the screen [`replay_styled`] rebuilds, row by row.
pub fn replay(bytes: &[u8], w: usize, h: usize) -> Vec<String> {
    replay_styled(bytes, w, h)
        .into_iter()
        .map(|r| r.into_iter().map(|c| c.ch).collect())
        .collect()
}

/// Checks that a terminal fed `bytes` shows `frame`: the same text in every cell, in the
/// attributes it was drawn with (as the terminal gets them: no colour when `colour` is
/// false). `what` names the case in the failure.
pub fn assert_replays_to(bytes: &[u8], frame: &Buffer, colour: bool, what: &str) {
    let area = frame.area;
    let mut terminal = ResizableTerminal::new(area.width, area.height);
    terminal.feed(bytes);
    let frame = &terminal.as_shown(frame);
    let screen = terminal.cells();
    let text: String = screen
        .iter()
        .map(|r| r.iter().map(|c| c.ch).collect::<String>() + "\n")
        .collect();
    assert_eq!(
        text,
        bonescope::tui::offscreen::buffer_text(frame),
        "{what}: the replayed screen differs"
    );
    let wrong = attribute_differences(&screen, frame, colour);
    assert!(
        wrong.is_empty(),
        "{what}: {} cells shown in other attributes than drawn, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// The screen a `w` x `h` terminal shows after `bytes` (the `vt100` crate's model: cursor
/// moves, scroll margins, erases, attributes).
pub fn replay_styled(bytes: &[u8], w: usize, h: usize) -> Vec<Vec<Shown>> {
    let side = |n: usize| u16::try_from(n).expect("a terminal side fits u16");
    let mut screen = ResizableTerminal::new(side(w), side(h));
    screen.feed(bytes);
    screen.cells()
}

/// The cells of `screen` whose attributes differ from `frame`'s (as the backend's terminal
/// gets them: no colour at all when `colour` is false). A blank cell shows only its
/// background, reverse video, underline and strike-through, so only those count there.
pub fn attribute_differences(screen: &[Vec<Shown>], frame: &Buffer, colour: bool) -> Vec<String> {
    const NAMED: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];
    let index = |c: Color| -> Result<Option<u8>, String> {
        match c {
            _ if !colour => Ok(None),
            Color::Reset => Ok(None),
            Color::Indexed(n) if n < 16 => Ok(Some(n)),
            named => NAMED
                .iter()
                .position(|&k| k == named)
                .map(|i| Some(i as u8))
                .ok_or(format!("{named:?} is not one of the 16 colours")),
        }
    };
    let shows = Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT;
    let mut out = Vec::new();
    let area = frame.area;
    for y in 0..area.height {
        for x in 0..area.width {
            let cell = &frame[(x, y)];
            let Some(got) = screen
                .get(usize::from(y))
                .and_then(|r| r.get(usize::from(x)))
            else {
                continue;
            };
            let (fg, bg) = match (index(cell.fg), index(cell.bg)) {
                (Ok(fg), Ok(bg)) => (fg, bg),
                (Err(e), _) | (_, Err(e)) => {
                    out.push(format!("{x},{y}: {e}"));
                    continue;
                }
            };
            let exact = (got.fg, got.bg, got.modifier) == (fg, bg, cell.modifier);
            // (A blank's text is compared by the callers; ASCII screens show blank braille
            // as a space.)
            let same = exact
                || (got.ch == ' '
                    && got.bg == bg
                    && !got.modifier.intersects(shows)
                    && !cell.modifier.intersects(shows));
            if !same {
                out.push(format!(
                    "{x},{y} {:?}: shown {:?} {:?} {:?}, drawn {fg:?} {bg:?} {:?}",
                    cell.symbol(),
                    got.fg,
                    got.bg,
                    got.modifier,
                    cell.modifier
                ));
            }
        }
    }
    out
}

/// A terminal that can change size, for replaying resizes: the `vt100` crate's model (a
/// well-kept emulator, resizes included), read back as [`Shown`] cells.
pub struct ResizableTerminal {
    parser: vt100::Parser,
}

impl ResizableTerminal {
    /// A `w` x `h` terminal with a blank screen.
    pub fn new(w: u16, h: u16) -> ResizableTerminal {
        ResizableTerminal {
            parser: vt100::Parser::new(nonzero(h), nonzero(w), 0),
        }
    }

    /// The window changes size (the program learns it on its next frame, as after SIGWINCH).
    pub fn resize(&mut self, w: u16, h: u16) {
        self.parser.set_size(nonzero(h), nonzero(w));
    }

    /// Feeds what the program sent.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
    }

    /// Every cell of the screen (a wide character's second cell is skipped, as
    /// `buffer_text` skips it).
    pub fn cells(&self) -> Vec<Vec<Shown>> {
        let screen = self.parser.screen();
        let (rows, cols) = screen.size();
        let index = |c: vt100::Color| match c {
            vt100::Color::Default => None,
            vt100::Color::Idx(n) => Some(n),
            vt100::Color::Rgb(r, g, b) => panic!("a 24-bit colour {r},{g},{b} in 16-colour mode"),
        };
        (0..rows.get())
            .map(|y| {
                (0..cols.get())
                    .map(|x| {
                        let cell = screen.cell(y, x).expect("a cell inside the screen");
                        let mut modifier = Modifier::empty();
                        for (on, m) in [
                            (cell.bold(), Modifier::BOLD),
                            (cell.dim(), Modifier::DIM),
                            (cell.italic(), Modifier::ITALIC),
                            (cell.underline(), Modifier::UNDERLINED),
                            (cell.inverse(), Modifier::REVERSED),
                        ] {
                            if on {
                                modifier.insert(m);
                            }
                        }
                        Shown {
                            ch: cell.contents().chars().next().unwrap_or(' '),
                            fg: index(cell.fgcolor()),
                            bg: index(cell.bgcolor()),
                            modifier,
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// `frame` as this model can show it: `vt100` keeps one intensity (bold or dim, the one
    /// set last), so a cell drawn bold and dim at once is expected with the one the screen
    /// shows; everything else is unchanged.
    pub fn as_shown(&self, frame: &Buffer) -> Buffer {
        let both = Modifier::BOLD | Modifier::DIM;
        let cells = self.cells();
        let mut out = frame.clone();
        let area = out.area;
        for y in 0..area.height {
            for x in 0..area.width {
                let cell = &mut out[(x, y)];
                let shown = cells
                    .get(usize::from(y))
                    .and_then(|r| r.get(usize::from(x)))
                    .map(|c| c.modifier & both);
                if cell.modifier.contains(both)
                    && let Some(one) = shown.filter(|m| *m == Modifier::BOLD || *m == Modifier::DIM)
                {
                    cell.modifier = (cell.modifier - both) | one;
                }
            }
        }
        out
    }

    /// The screen's text, row by row (as `buffer_text` writes a frame).
    pub fn text(&self) -> String {
        let screen = self.parser.screen();
        let (rows, cols) = screen.size();
        let mut out = String::new();
        for y in 0..rows.get() {
            for x in 0..cols.get() {
                let cell = screen.cell(y, x).expect("a cell inside the screen");
                if cell.is_wide_continuation() {
                    continue;
                }
                out.push_str(if cell.has_contents() {
                    cell.contents()
                } else {
                    " "
                });
            }
            out.push('\n');
        }
        out
    }
}

fn nonzero(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a terminal is at least 1 x 1")
}
