//! A small terminal emulator for the viewer's byte stream: the tests replay what the backend
//! sent and compare the screen it leaves with the frame that was drawn.

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
    let screen = replay_styled(bytes, area.width.into(), area.height.into());
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

/// A terminal emulator for the sequences the viewer's backend sends: cursor moves (CUP,
/// CUU/CUD/CUF/CUB, CHA, LF, CR, BS, RI), scroll margins (DECSTBM; a line feed on the bottom
/// margin scrolls the band up, a reverse index on the top margin scrolls it down, the rows
/// scrolled in blank; setting or resetting the margins homes the cursor; CUU/CUD stop at the
/// margins from inside the band), erase display, attributes (SGR: an empty parameter is 0;
/// blank cells take the current background) and modes (ignored).
pub fn replay_styled(bytes: &[u8], w: usize, h: usize) -> Vec<Vec<Shown>> {
    let default = Shown {
        ch: ' ',
        fg: None,
        bg: None,
        modifier: Modifier::empty(),
    };
    let mut pen = default;
    let blank = |pen: &Shown| Shown {
        bg: pen.bg,
        ..default
    };
    let mut grid = vec![vec![default; w]; h];
    let (mut x, mut y) = (0usize, 0usize);
    let (mut top, mut bottom) = (0usize, h - 1);
    let text = String::from_utf8(bytes.to_vec()).expect("the stream is UTF-8");
    let mut it = text.chars().peekable();
    let scroll = |grid: &mut Vec<Vec<Shown>>, top: usize, bottom: usize, up: bool, b: Shown| {
        if up {
            grid[top..=bottom].rotate_left(1);
            grid[bottom] = vec![b; w];
        } else {
            grid[top..=bottom].rotate_right(1);
            grid[top] = vec![b; w];
        }
    };
    while let Some(c) = it.next() {
        match c {
            '\x1b' if it.peek() == Some(&'M') => {
                it.next();
                if y == top {
                    scroll(&mut grid, top, bottom, false, blank(&pen));
                } else {
                    y = y.checked_sub(1).expect("RI at the top row");
                }
            }
            '\x1b' => {
                assert_eq!(it.next(), Some('['), "only CSI and RI are sent");
                let mut params = String::new();
                let fin = loop {
                    let c = it.next().expect("a final byte");
                    if c.is_ascii_alphabetic() {
                        break c;
                    }
                    params.push(c);
                };
                if params.starts_with('?') {
                    continue;
                }
                let nums: Vec<usize> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
                let n = nums[0].max(1);
                match fin {
                    'H' => {
                        y = nums[0].max(1) - 1;
                        x = nums.get(1).copied().unwrap_or(1).max(1) - 1;
                    }
                    'A' if y >= top => y = y.saturating_sub(n).max(top),
                    'A' => y = y.checked_sub(n).expect("CUU off the screen"),
                    'B' if y <= bottom => y = (y + n).min(bottom),
                    'B' => y = (y + n).min(h - 1),
                    'C' => x += n,
                    'D' => x -= n,
                    'G' => x = n - 1,
                    'J' => grid = vec![vec![blank(&pen); w]; h],
                    'm' => sgr(&mut pen, &params),
                    'r' => {
                        let t = nums[0].max(1);
                        let b = nums.get(1).copied().filter(|&b| b > 0).unwrap_or(h);
                        assert!(t < b && b <= h, "bad margins {params}");
                        (top, bottom) = (t - 1, b - 1);
                        (x, y) = (0, 0);
                    }
                    other => panic!("unexpected CSI {params}{other}"),
                }
            }
            '\n' if y == bottom => scroll(&mut grid, top, bottom, true, blank(&pen)),
            '\n' => {
                assert!(y + 1 < h, "a line feed scrolling the whole screen");
                y += 1;
            }
            '\r' => x = 0,
            '\x08' => x -= 1,
            c => {
                assert!(x < w && y < h, "printing outside the screen at {x},{y}");
                grid[y][x] = Shown { ch: c, ..pen };
                x += 1;
            }
        }
    }
    assert_eq!((top, bottom), (0, h - 1), "margins left set");
    grid
}

/// Applies one SGR sequence's parameters to `pen` (16 colours only).
fn sgr(pen: &mut Shown, params: &str) {
    for p in params.split(';') {
        let n: u8 = if p.is_empty() {
            0
        } else {
            p.parse().unwrap_or_else(|_| panic!("SGR parameter {p:?}"))
        };
        let m = &mut pen.modifier;
        match n {
            0 => {
                (pen.fg, pen.bg, *m) = (None, None, Modifier::empty());
            }
            1 => m.insert(Modifier::BOLD),
            2 => m.insert(Modifier::DIM),
            3 => m.insert(Modifier::ITALIC),
            4 => m.insert(Modifier::UNDERLINED),
            5 => m.insert(Modifier::SLOW_BLINK),
            6 => m.insert(Modifier::RAPID_BLINK),
            7 => m.insert(Modifier::REVERSED),
            8 => m.insert(Modifier::HIDDEN),
            9 => m.insert(Modifier::CROSSED_OUT),
            22 => m.remove(Modifier::BOLD | Modifier::DIM),
            23 => m.remove(Modifier::ITALIC),
            24 => m.remove(Modifier::UNDERLINED),
            25 => m.remove(Modifier::SLOW_BLINK | Modifier::RAPID_BLINK),
            27 => m.remove(Modifier::REVERSED),
            28 => m.remove(Modifier::HIDDEN),
            29 => m.remove(Modifier::CROSSED_OUT),
            30..=37 => pen.fg = Some(n - 30),
            39 => pen.fg = None,
            40..=47 => pen.bg = Some(n - 40),
            49 => pen.bg = None,
            90..=97 => pen.fg = Some(n - 90 + 8),
            100..=107 => pen.bg = Some(n - 100 + 8),
            other => panic!("unexpected SGR parameter {other} in {params:?}"),
        }
    }
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
