//! The ratatui backend bonescope draws through: it writes as few bytes as a frame needs, which
//! is what makes playback cheap over SSH.
//!
//! It remembers what the terminal shows (each cell, the cursor, the current attributes) across
//! frames, so for every changed cell it sends only
//! - the cheapest cursor move (relative, absolute, or re-printing a few unchanged cells that
//!   look the same in the current attributes; line feed and backspace move the cursor, as in
//!   raw mode, where the viewer draws),
//! - the attributes that differ from the current ones, in one SGR sequence (or a reset and
//!   what the cell needs, when shorter; a reset alone as `ESC [ m`), never a reset at the
//!   end of a frame,
//! - colours as the terminal takes them: the 16 ANSI colours as SGR 30-37/90-97 (never a
//!   `38;5` escape), 24-bit colours only in true-colour mode, none without colour;
//! - ASCII only when the screen is ASCII (box drawing, symbols and names from files are
//!   transliterated, cell for cell);
//! - nothing for a cell that already shows what it should (ratatui's diff is against its own
//!   buffer: transliterated or restyled-back cells can already be right on the terminal);
//! - a scroll of a band of rows (margins set with DECSTBM, line feeds or reverse indexes at
//!   the margin, margins reset) when the rows' content moved up or down and that is cheaper
//!   than repainting them, as when the event log scrolls (terminals that take the margins
//!   only: see [`LeanBackend::set_scroll_regions`]).
//!
//! The changed cells are printed in the cheapest of a few orders (each tried, measured and
//! rolled back; the winner is printed again from the sequence it chose, not searched
//! again): greedy by cursor move and attribute change, and
//! row order; with [`LeanBackend::set_order_search`], also
//! orders found by local search over a table of what going from each run of cells to each
//! other costs (`LeanBackend::optimised_orders`). The search is off by default: on
//! spineboy-pro playing at 120x40 it saved under 2 % of the bytes for about 60 % of the
//! viewer's CPU (docs/PERFORMANCE.md, "Viewer cost").

use crate::tui::theme::ColorMode;
use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use std::io::{self, Write};
use unicode_width::UnicodeWidthStr;

mod ascii;
mod escapes;
mod glyphs;
mod run_order;
mod scroll;
#[cfg(test)]
mod tests;

pub use ascii::ascii_symbol;
use ascii::sanitize_symbol;
use escapes::{csi_n, csi_n_len, cup, cup_len, pen_bytes, to_ansi};
use glyphs::{Glyph, blank_alike, shows};

/// Unchanged cells re-printed instead of moving the cursor over them, at most.
const MAX_BRIDGE: u16 = 8;

/// The attributes a cell is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pen {
    fg: Color,
    bg: Color,
    modifier: Modifier,
}

impl Pen {
    const DEFAULT: Pen = Pen {
        fg: Color::Reset,
        bg: Color::Reset,
        modifier: Modifier::empty(),
    };
}

/// What one screen cell shows, as far as the backend knows.
#[derive(Clone, Debug, PartialEq)]
struct Shown {
    /// The bytes printed for the cell (already transliterated in ASCII mode).
    text: String,
    pen: Pen,
    /// [`scroll::look`] of the two, worked out once: the scroll search compares every
    /// cell of the screen each frame.
    look: u64,
}

impl Shown {
    fn new(text: String, pen: Pen) -> Shown {
        let look = scroll::look(&text, pen);
        Shown { text, pen, look }
    }
}

/// A backend writing minimal escape sequences to `W` (see the module docs).
pub struct LeanBackend<W: Write> {
    out: W,
    /// Queued output, written on `flush`.
    queue: Vec<u8>,
    /// A fixed size (off-screen, tests); `None` asks the real terminal.
    fixed: Option<Size>,
    color: ColorMode,
    ascii: bool,
    /// The terminal's cells as drawn by this backend (`None`: unknown), row-major.
    screen: Vec<Option<Shown>>,
    width: u16,
    height: u16,
    /// The cursor position, when known.
    cursor: Option<(u16, u16)>,
    /// The current attributes, when known.
    pen: Option<Pen>,
    cursor_visible: Option<bool>,
    /// Whether the terminal takes scroll margins (DECSTBM).
    scroll_regions: bool,
    /// Whether large frames are wrapped in synchronized-update markers.
    synchronized: bool,
    /// Cells overwritten while trying an order of output (index, what it showed before).
    undo: Vec<(usize, Option<Shown>)>,
    /// Whether orders found by local search are tried too (off by default: see the module
    /// docs).
    order_search: bool,
    /// SGR sequences worked out before (from, to, bytes): a screen uses a handful of
    /// attribute pairs, and each frame tries several orders.
    sgr_cache: Vec<(Option<Pen>, Pen, Vec<u8>)>,
}

/// Attribute changes remembered by [`LeanBackend::set_pen`], at most (then it starts over).
const SGR_CACHE: usize = 64;

/// A cursor move as [`LeanBackend::plan_move`] chose it.
#[derive(Clone, Copy, Debug)]
struct Move {
    /// `CUP` to the target (else the vertical then the horizontal part).
    absolute: bool,
    vertical: Vertical,
    horizontal: Horizontal,
    /// Bytes.
    len: usize,
}

impl Move {
    const NONE: Move = Move {
        absolute: false,
        vertical: Vertical::None,
        horizontal: Horizontal::None,
        len: 0,
    };
}

#[derive(Clone, Copy, Debug)]
enum Vertical {
    None,
    LineFeeds(u16),
    Down(u16),
    ReverseIndex,
    Up(u16),
}

#[derive(Clone, Copy, Debug)]
enum Horizontal {
    None,
    CarriageReturn,
    Backspaces(u16),
    Forward(u16),
    Back(u16),
    /// `CHA` to the target column.
    Column,
    /// Re-printing the cells from this column up to the target.
    Bridge(u16),
}

/// Where output and the screen model were, to roll a trial back to.
struct Checkpoint {
    queue: usize,
    cursor: Option<(u16, u16)>,
    pen: Option<Pen>,
    undo: usize,
}

/// Frames of fewer bytes than this go out without synchronized-update markers: one write
/// of that size reaches the terminal in one piece (one SSH packet, one read of the pty), so
/// the terminal never shows half of it, and the 16 bytes of markers would be a tenth of a
/// typical playback frame.
const SYNC_MIN_BYTES: usize = 1024;
/// Begin and end of a synchronized update (mode 2026; terminals without it ignore them).
const SYNC_BEGIN: &[u8] = b"\x1b[?2026h";
const SYNC_END: &[u8] = b"\x1b[?2026l";

impl<W: Write> LeanBackend<W> {
    /// A backend for the real terminal behind `out` (its size asked from the terminal).
    pub fn new(out: W, color: ColorMode, ascii: bool) -> LeanBackend<W> {
        let mut b = LeanBackend::new_unsized(out, color, ascii);
        // Room for a large frame's escapes up front.
        b.queue = Vec::with_capacity(16 * 1024);
        if let Ok((w, h)) = ratatui::crossterm::terminal::size() {
            b.reshape(w, h);
        }
        b
    }

    /// A backend of a fixed size (off-screen rendering, byte counting, tests).
    pub fn with_size(
        out: W,
        width: u16,
        height: u16,
        color: ColorMode,
        ascii: bool,
    ) -> LeanBackend<W> {
        let mut b = LeanBackend::new_unsized(out, color, ascii);
        b.fixed = Some(Size::new(width, height));
        b.reshape(width, height);
        b
    }

    fn new_unsized(out: W, color: ColorMode, ascii: bool) -> LeanBackend<W> {
        LeanBackend {
            out,
            queue: Vec::new(),
            fixed: None,
            color,
            ascii,
            screen: Vec::new(),
            width: 0,
            height: 0,
            cursor: None,
            pen: None,
            cursor_visible: None,
            scroll_regions: true,
            synchronized: true,
            undo: Vec::new(),
            order_search: false,
            sgr_cache: Vec::new(),
        }
    }

    /// Whether frames are also tried in orders found by local search (off by default: it
    /// costs far more CPU than the bytes it saves; kept for measuring that).
    pub fn set_order_search(&mut self, on: bool) {
        self.order_search = on;
    }

    /// Whether bands of rows may be scrolled with scroll margins (DECSTBM, a VT100
    /// feature; on by default). Terminals without cursor addressing proper (`dumb`) do not
    /// take them. Only bands whose every cell is known are scrolled: a cell never drawn
    /// would keep what scrolled into it.
    pub fn set_scroll_regions(&mut self, on: bool) {
        self.scroll_regions = on;
    }

    /// Whether frames of `SYNC_MIN_BYTES` or more are wrapped in synchronized-update
    /// markers, so that a slow link never shows half a frame (on by default).
    pub fn set_synchronized(&mut self, on: bool) {
        self.synchronized = on;
    }

    /// The writer.
    pub fn writer(&self) -> &W {
        &self.out
    }

    /// Whether the screen is ASCII.
    pub fn ascii(&self) -> bool {
        self.ascii
    }

    /// Switches ASCII on or off. What is on screen is forgotten: the caller clears the
    /// terminal (`Terminal::clear`) so the next frame repaints everything.
    pub fn set_ascii(&mut self, ascii: bool) {
        if ascii != self.ascii {
            self.ascii = ascii;
            self.forget();
        }
    }

    /// Forgets what the terminal shows (after another program used it, a suspend, a resize):
    /// the next output re-establishes the cursor and attributes from scratch.
    pub fn forget(&mut self) {
        self.screen.iter_mut().for_each(|c| *c = None);
        self.cursor = None;
        self.pen = None;
        self.cursor_visible = None;
    }

    /// Writes `bytes` (a picture's escapes, [`crate::tui::images`]) straight after what is
    /// queued, outside the cell model: the cells under a picture keep what the model says,
    /// and the cursor is unknown afterwards (pictures may move it).
    pub fn write_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        Backend::flush(self)?;
        self.out.write_all(bytes)?;
        self.cursor = None;
        self.out.flush()
    }

    /// Changes the size of a fixed-size backend, as a terminal window resize does (tests and
    /// off-screen rendering replay resizes through it).
    pub fn set_fixed_size(&mut self, width: u16, height: u16) {
        self.fixed = Some(Size::new(width, height));
    }

    /// Takes the size ratatui sees before anything is drawn or cleared, so that cells are
    /// addressed in the grid the frame was laid out for. (Following it only at `flush`, after
    /// ratatui's resize had already cleared and redrawn, dropped every cell of a grown area and
    /// indexed the rest in the old width.)
    fn follow_size(&mut self) {
        let size = match self.fixed {
            Some(s) => Some((s.width, s.height)),
            None => ratatui::crossterm::terminal::size().ok(),
        };
        if let Some((w, h)) = size {
            self.reshape(w, h);
        }
    }

    fn reshape(&mut self, w: u16, h: u16) {
        if (w, h) != (self.width, self.height) {
            self.width = w;
            self.height = h;
            self.screen = vec![None; usize::from(w) * usize::from(h)];
            self.cursor = None;
        }
    }

    /// Moves the cursor to `(x, y)` by the shortest sequence.
    fn move_to(&mut self, x: u16, y: u16) {
        let plan = self.plan_move(self.cursor, self.pen, x, y);
        let mut queue = std::mem::take(&mut self.queue);
        self.write_move(&mut queue, plan, x, y);
        self.queue = queue;
        self.cursor = Some((x, y));
    }

    /// The shortest sequence moving the cursor to `(x, y)`.
    #[cfg(test)]
    fn move_bytes(&self, x: u16, y: u16) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_move(&mut out, self.plan_move(self.cursor, self.pen, x, y), x, y);
        out
    }

    /// The shortest way from `from` (with the attributes `pen`) to `(x, y)` and its length
    /// in bytes; [`Self::move_len`] and [`Self::move_to`] both follow it, so the length
    /// the orders are chosen by is the length printed.
    fn plan_move(&self, from: Option<(u16, u16)>, pen: Option<Pen>, x: u16, y: u16) -> Move {
        if from == Some((x, y)) {
            return Move::NONE;
        }
        let absolute = Move {
            absolute: true,
            len: cup_len(x, y),
            ..Move::NONE
        };
        let Some((cx, cy)) = from else {
            return absolute;
        };
        use std::cmp::Ordering::{Equal, Greater, Less};
        // Line feeds move straight down in raw mode (no output processing), and never
        // scroll here: the target row is on screen. Reverse index moves up; it scrolls
        // only from the top row, which the cursor is not on when moving up.
        let (vertical, vlen) = match y.cmp(&cy) {
            Greater if y - cy <= 3 => (Vertical::LineFeeds(y - cy), usize::from(y - cy)),
            Greater => (Vertical::Down(y - cy), csi_n_len(y - cy)),
            Less if cy - y == 1 => (Vertical::ReverseIndex, 2),
            Less => (Vertical::Up(cy - y), csi_n_len(cy - y)),
            Equal => (Vertical::None, 0),
        };
        let (mut horizontal, mut hlen) = if x == cx {
            (Horizontal::None, 0)
        } else if x == 0 {
            (Horizontal::CarriageReturn, 1)
        } else if x < cx && cx - x <= 3 {
            (Horizontal::Backspaces(cx - x), usize::from(cx - x))
        } else {
            let relative = csi_n_len(x.abs_diff(cx));
            let column = csi_n_len(x + 1);
            if column < relative {
                (Horizontal::Column, column)
            } else if x > cx {
                (Horizontal::Forward(x - cx), relative)
            } else {
                (Horizontal::Back(cx - x), relative)
            }
        };
        // Re-printing a few unchanged cells of the target row can beat any horizontal
        // move (after a vertical one too). A bridge is a byte per cell at least: only
        // shorter ones can win.
        if x > cx
            && x - cx <= MAX_BRIDGE
            && usize::from(x - cx) < hlen
            && let Some(b) = self.bridge_len(pen, cx, x, y)
            && b < hlen
        {
            (horizontal, hlen) = (Horizontal::Bridge(cx), b);
        }
        if vlen + hlen < absolute.len {
            Move {
                absolute: false,
                vertical,
                horizontal,
                len: vlen + hlen,
            }
        } else {
            absolute
        }
    }

    /// Appends the bytes of `plan`, a move to `(x, y)`, to `out`.
    fn write_move(&self, out: &mut Vec<u8>, plan: Move, x: u16, y: u16) {
        if plan.absolute {
            cup(out, x, y);
            return;
        }
        match plan.vertical {
            Vertical::None => {}
            Vertical::LineFeeds(n) => out.extend(std::iter::repeat_n(b'\n', n.into())),
            Vertical::Down(n) => csi_n(out, n, b'B'),
            Vertical::ReverseIndex => out.extend_from_slice(b"\x1bM"),
            Vertical::Up(n) => csi_n(out, n, b'A'),
        }
        match plan.horizontal {
            Horizontal::None => {}
            Horizontal::CarriageReturn => out.push(b'\r'),
            Horizontal::Backspaces(n) => out.extend(std::iter::repeat_n(b'\x08', n.into())),
            Horizontal::Forward(n) => csi_n(out, n, b'C'),
            Horizontal::Back(n) => csi_n(out, n, b'D'),
            Horizontal::Column => csi_n(out, x + 1, b'G'),
            Horizontal::Bridge(from) => {
                for bx in from..x {
                    if let Some(i) = self.index(bx, y)
                        && let Some(shown) = &self.screen[i]
                    {
                        out.extend_from_slice(shown.text.as_bytes());
                    }
                }
            }
        }
    }

    /// The length of the bytes re-printing the known cells `from..to` of row `y`, when each
    /// is one single-width character in the attributes `pen` (so printing them changes
    /// nothing on screen).
    fn bridge_len(&self, pen: Option<Pen>, from: u16, to: u16, y: u16) -> Option<usize> {
        (from..to).try_fold(0, |n, x| Some(n + self.bridge_cell(pen, x, y)?.len()))
    }

    /// The text of cell `(x, y)` when re-printing it in `pen` changes nothing.
    fn bridge_cell(&self, pen: Option<Pen>, x: u16, y: u16) -> Option<&str> {
        let pen = pen?;
        let shown = self.screen.get(self.index(x, y)?)?.as_ref()?;
        let mut chars = shown.text.chars();
        let single = chars.next().is_some() && chars.next().is_none();
        let same = shown.pen == pen || (shown.text == " " && blank_alike(shown.pen, pen));
        (same && single && shown.text.width() == 1).then_some(shown.text.as_str())
    }

    /// The length of the sequence [`Self::move_to`] would send to move from `from` (with
    /// the attributes `pen`) to `(x, y)`.
    fn move_len(&self, from: Option<(u16, u16)>, pen: Option<Pen>, x: u16, y: u16) -> usize {
        self.plan_move(from, pen, x, y).len
    }

    /// At most what [`Self::move_len`] says, and cheaper to work out (no bridge is looked
    /// at): the greedy orders skip a candidate run when even this cannot beat the best one.
    fn move_len_at_least(&self, from: Option<(u16, u16)>, x: u16, y: u16) -> usize {
        let absolute = cup_len(x, y);
        let Some((cx, cy)) = from else {
            return absolute;
        };
        let vertical = match y.cmp(&cy) {
            std::cmp::Ordering::Greater if y - cy <= 3 => usize::from(y - cy),
            std::cmp::Ordering::Greater => csi_n_len(y - cy),
            std::cmp::Ordering::Less if cy - y == 1 => 2,
            std::cmp::Ordering::Less => csi_n_len(cy - y),
            std::cmp::Ordering::Equal => 0,
        };
        absolute.min(vertical + usize::from(x != cx))
    }

    /// Where the cursor is after printing `g` (`None`: not known for sure).
    fn cursor_after(&self, g: &Glyph) -> Option<(u16, u16)> {
        let next = g.x.saturating_add(g.width);
        // Past the last column the terminal's cursor waits to wrap: position it afresh.
        // Text that is not plain ASCII may be measured differently by the terminal.
        if next >= self.width || g.width == 0 || (g.width != 1 && !g.text.is_ascii()) {
            None
        } else {
            Some((next, g.y))
        }
    }

    fn index(&self, x: u16, y: u16) -> Option<usize> {
        (x < self.width && y < self.height)
            .then(|| usize::from(y) * usize::from(self.width) + usize::from(x))
    }

    /// A cell's attributes as this terminal gets them.
    fn pen_of(&self, cell: &Cell) -> Pen {
        let (fg, bg) = match self.color {
            ColorMode::None => (Color::Reset, Color::Reset),
            ColorMode::Ansi => (to_ansi(cell.fg), to_ansi(cell.bg)),
            ColorMode::TrueColor => (cell.fg, cell.bg),
        };
        Pen {
            fg,
            bg,
            modifier: cell.modifier,
        }
    }

    /// Switches the attributes to `to` with the shortest SGR sequence.
    fn set_pen(&mut self, to: Pen) {
        if self.pen == Some(to) {
            return;
        }
        let from = self.pen;
        match self.sgr_cache.iter().find(|c| c.0 == from && c.1 == to) {
            Some(c) => self.queue.extend_from_slice(&c.2),
            None => {
                let seq = self.pen_bytes(to);
                self.queue.extend_from_slice(&seq);
                if self.sgr_cache.len() >= SGR_CACHE {
                    self.sgr_cache.clear();
                }
                self.sgr_cache.push((from, to, seq));
            }
        }
        self.pen = Some(to);
    }

    /// The shortest SGR sequence switching the attributes to `to`.
    fn pen_bytes(&self, to: Pen) -> Vec<u8> {
        pen_bytes(self.pen, to)
    }

    /// What printing `cell` sends: its text (transliterated on an ASCII screen), width and
    /// attributes.
    fn glyph(&self, x: u16, y: u16, cell: &Cell) -> Glyph {
        let sym = cell.symbol();
        let width = sym.width();
        let text = if self.ascii && !sym.is_ascii() {
            ascii_symbol(sym, width)
        } else {
            sanitize_symbol(sym)
        };
        Glyph {
            x,
            y,
            width: width as u16,
            text,
            pen: self.pen_of(cell),
        }
    }

    /// Prints one run of glyphs (one row, adjacent, same attributes).
    fn put_run(&mut self, run: &[Glyph]) {
        let Some(first) = run.first() else {
            return;
        };
        self.move_to(first.x, first.y);
        let pen = self.run_pen(run);
        self.set_pen(pen);
        for g in run {
            self.queue.extend_from_slice(g.text.as_bytes());
            self.cursor = self.cursor_after(g);
            if let Some(i) = self.index(g.x, g.y) {
                self.set_shown(i, Some(Shown::new(g.text.clone(), pen)));
                // A wide character covers the cells after it.
                for k in 1..g.width {
                    if let Some(j) = self.index(g.x + k, g.y) {
                        self.set_shown(j, None);
                    }
                }
            }
        }
    }

    /// The attributes `run` is printed with: its own, or the current ones when it is blank
    /// and looks the same with them.
    fn run_pen(&self, run: &[Glyph]) -> Pen {
        let own = run.first().map_or(Pen::DEFAULT, |g| g.pen);
        match self.pen {
            Some(p) if run.iter().all(Glyph::blank) && blank_alike(p, own) => p,
            _ => own,
        }
    }

    /// Records what cell `i` shows, keeping what it showed for a rollback.
    fn set_shown(&mut self, i: usize, shown: Option<Shown>) {
        let old = std::mem::replace(&mut self.screen[i], shown);
        self.undo.push((i, old));
    }

    fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            queue: self.queue.len(),
            cursor: self.cursor,
            pen: self.pen,
            undo: self.undo.len(),
        }
    }

    fn rollback(&mut self, c: &Checkpoint) {
        self.queue.truncate(c.queue);
        self.cursor = c.cursor;
        self.pen = c.pen;
        while self.undo.len() > c.undo {
            if let Some((i, old)) = self.undo.pop() {
                self.screen[i] = old;
            }
        }
    }
}

impl<W: Write> LeanBackend<W> {
    /// Drops the glyphs whose cells already show them (same text, same attributes).
    fn drop_shown(&self, glyphs: Vec<Glyph>) -> Vec<Glyph> {
        glyphs
            .into_iter()
            .filter(|g| {
                g.width != 1
                    || self.index(g.x, g.y).is_none_or(|i| {
                        self.screen[i]
                            .as_ref()
                            .is_none_or(|s| !shows(s, &g.text, g.pen))
                    })
            })
            .collect()
    }
}

impl<W: Write> Write for LeanBackend<W> {
    /// Queues raw bytes. Only for sequences that neither move the cursor nor change
    /// attributes; anything else must call [`Self::forget`].
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.queue.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(self)
    }
}

impl<W: Write> Backend for LeanBackend<W> {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.follow_size();
        let glyphs: Vec<Glyph> = content
            .filter(|(x, y, _)| *x < self.width && *y < self.height)
            .map(|(x, y, cell)| self.glyph(x, y, cell))
            .collect();
        let glyphs = self.drop_shown(glyphs);
        let glyphs = self.scroll_if_cheaper(glyphs);
        self.put_frame(glyphs);
        Ok(())
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        if self.cursor_visible != Some(false) {
            self.queue.extend_from_slice(b"\x1b[?25l");
            self.cursor_visible = Some(false);
        }
        Ok(())
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        if self.cursor_visible != Some(true) {
            self.queue.extend_from_slice(b"\x1b[?25h");
            self.cursor_visible = Some(true);
        }
        Ok(())
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        if let Some((x, y)) = self.cursor {
            return Ok(Position { x, y });
        }
        if self.fixed.is_some() {
            return Ok(Position::ORIGIN);
        }
        Backend::flush(self)?;
        let (x, y) = ratatui::crossterm::cursor::position()?;
        self.cursor = Some((x, y));
        Ok(Position { x, y })
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        let Position { x, y } = position.into();
        self.move_to(x, y);
        Ok(())
    }

    fn clear(&mut self) -> io::Result<()> {
        self.follow_size();
        // Erasing paints with the current background: reset first.
        self.queue.extend_from_slice(b"\x1b[0m\x1b[2J");
        self.pen = Some(Pen::DEFAULT);
        let blank = Shown::new(" ".into(), Pen::DEFAULT);
        self.screen
            .iter_mut()
            .for_each(|c| *c = Some(blank.clone()));
        Ok(())
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        let seq: &[u8] = match clear_type {
            ClearType::All => return self.clear(),
            ClearType::AfterCursor => b"\x1b[0m\x1b[J",
            ClearType::BeforeCursor => b"\x1b[0m\x1b[1J",
            ClearType::CurrentLine => b"\x1b[0m\x1b[2K",
            ClearType::UntilNewLine => b"\x1b[0m\x1b[K",
        };
        self.follow_size();
        self.queue.extend_from_slice(seq);
        self.pen = Some(Pen::DEFAULT);
        // Rarely used (inline viewports): forget the cells rather than track each region.
        self.screen.iter_mut().for_each(|c| *c = None);
        Ok(())
    }

    fn size(&self) -> io::Result<Size> {
        match self.fixed {
            Some(s) => Ok(s),
            None => {
                let (w, h) = ratatui::crossterm::terminal::size()?;
                Ok(Size::new(w, h))
            }
        }
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        match self.fixed {
            Some(s) => Ok(WindowSize {
                columns_rows: s,
                pixels: Size::new(0, 0),
            }),
            None => {
                let ws = ratatui::crossterm::terminal::window_size()?;
                Ok(WindowSize {
                    columns_rows: Size::new(ws.columns, ws.rows),
                    pixels: Size::new(ws.width, ws.height),
                })
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        if self.synchronized && self.queue.len() >= SYNC_MIN_BYTES {
            // One write: the markers travel with the frame.
            let mut frame =
                Vec::with_capacity(self.queue.len() + SYNC_BEGIN.len() + SYNC_END.len());
            frame.extend_from_slice(SYNC_BEGIN);
            frame.extend_from_slice(&self.queue);
            frame.extend_from_slice(SYNC_END);
            self.out.write_all(&frame)?;
            self.queue.clear();
        } else if !self.queue.is_empty() {
            self.out.write_all(&self.queue)?;
            self.queue.clear();
        }
        self.out.flush()
    }
}
