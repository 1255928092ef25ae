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
//! rolled back): greedy by cursor move and attribute change, greedy sticking to attributes,
//! greedy by cursor move alone, row order, and orders found by local search over a table of
//! what going from each run of cells to each other costs (`LeanBackend::optimised_orders`).

use crate::tui::theme::ColorMode;
use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use std::io::{self, Write};
use unicode_width::UnicodeWidthStr;

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
}

/// Where output and the screen model were, to roll a trial back to.
struct Checkpoint {
    queue: usize,
    cursor: Option<(u16, u16)>,
    pen: Option<Pen>,
    undo: usize,
}

/// The orders a frame's runs can be printed in (none wins every frame: attribute-heavy
/// frames favour sticking to attributes, scattered ones the nearest run).
#[derive(Clone, Copy, Debug)]
enum Order {
    /// Always the run that costs least to reach; attribute bytes weigh `pen_weight` times.
    Greedy { pen_weight: usize },
    /// Row-major, as the cells come.
    Rows,
    /// An order improved by moving runs elsewhere where that costs fewer bytes
    /// (`LeanBackend::optimised_orders`): from the start [`STARTS`]`[k]`, or, for
    /// `k == STARTS.len()`, the cheapest of those improved further by kicks.
    Optimised(usize),
}

/// Where [`Order::Optimised`] starts from (local search finds different orders from
/// different starts).
#[derive(Clone, Copy, Debug)]
enum Start {
    /// The nearest run first.
    Nearest,
    /// Row-major.
    Rows,
}

const ORDERS: [Order; 7] = [
    Order::Greedy { pen_weight: 1 },
    Order::Greedy { pen_weight: 3 },
    Order::Greedy { pen_weight: 0 },
    Order::Rows,
    Order::Optimised(0),
    Order::Optimised(1),
    Order::Optimised(2),
];

/// The starts of [`Order::Optimised`], in the order it indexes them.
const STARTS: [Start; 2] = [Start::Nearest, Start::Rows];

/// More runs than this are not ordered by [`Order::Optimised`] (its cost table grows with
/// the square of the runs).
const MAX_OPTIMISED_RUNS: usize = 160;
/// Passes of [`or_opt`] over the route, at most (it stops when a pass finds nothing).
const MAX_PASSES: usize = 20;
/// Runs moved together by one step of [`or_opt`], at most (the dopesheet's playhead column
/// is a dozen runs that move as one).
const MAX_SEGMENT: usize = 16;
/// Runs after which [`or_opt`] tries to insert a segment: the ones cheapest to come from.
const NEAR: usize = 8;
/// Kicks of the iterated local search in `LeanBackend::optimised_orders`.
const KICKS: usize = 20;

/// Frames of fewer bytes than this go out without synchronized-update markers: one write
/// of that size reaches the terminal in one piece (one SSH packet, one read of the pty), so
/// the terminal never shows half of it, and the 16 bytes of markers would be a tenth of a
/// typical playback frame.
const SYNC_MIN_BYTES: usize = 1024;
/// Begin and end of a synchronized update (mode 2026; terminals without it ignore them).
const SYNC_BEGIN: &[u8] = b"\x1b[?2026h";
const SYNC_END: &[u8] = b"\x1b[?2026l";

/// Rows a band may scroll by at once, at most.
const MAX_SCROLL: usize = 3;
/// Fewer changed cells than this never pay for a scroll.
const MIN_SCROLL_CELLS: usize = 24;

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
        }
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
        let seq = self.move_bytes(x, y);
        self.queue.extend_from_slice(&seq);
        self.cursor = Some((x, y));
    }

    /// The shortest sequence moving the cursor to `(x, y)`.
    fn move_bytes(&self, x: u16, y: u16) -> Vec<u8> {
        if self.cursor == Some((x, y)) {
            return Vec::new();
        }
        let mut best = cup(x, y);
        if let Some((cx, cy)) = self.cursor {
            let mut rel = Vec::new();
            match y.cmp(&cy) {
                // Line feeds move straight down in raw mode (no output processing), and
                // never scroll here: the target row is on screen.
                std::cmp::Ordering::Greater if y - cy <= 3 => {
                    rel.extend(std::iter::repeat_n(b'\n', usize::from(y - cy)))
                }
                std::cmp::Ordering::Greater => csi_n(&mut rel, y - cy, b'B'),
                // Reverse index moves up; it scrolls only from the top row, which the
                // cursor is not on when moving up.
                std::cmp::Ordering::Less if cy - y == 1 => rel.extend_from_slice(b"\x1bM"),
                std::cmp::Ordering::Less => csi_n(&mut rel, cy - y, b'A'),
                std::cmp::Ordering::Equal => {}
            }
            let mut horizontal = if x == cx {
                Vec::new()
            } else if x == 0 {
                b"\r".to_vec()
            } else if x < cx && cx - x <= 3 {
                vec![b'\x08'; usize::from(cx - x)]
            } else {
                let mut h = Vec::new();
                if x > cx {
                    csi_n(&mut h, x - cx, b'C');
                } else {
                    csi_n(&mut h, cx - x, b'D');
                }
                let mut cha = Vec::new();
                csi_n(&mut cha, x + 1, b'G');
                if cha.len() < h.len() { cha } else { h }
            };
            // Re-printing a few unchanged cells of the target row can beat any horizontal
            // move (after a vertical one too).
            if x > cx
                && x - cx <= MAX_BRIDGE
                && let Some(bridge) = self.bridge(self.pen, cx, x, y)
                && bridge.len() < horizontal.len()
            {
                horizontal = bridge;
            }
            rel.extend_from_slice(&horizontal);
            if rel.len() < best.len() {
                best = rel;
            }
        }
        best
    }

    /// The bytes of the known cells `from..to` of row `y` when each is one single-width
    /// character in the attributes `pen` (so printing them changes nothing on screen).
    fn bridge(&self, pen: Option<Pen>, from: u16, to: u16, y: u16) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for x in from..to {
            out.extend_from_slice(self.bridge_cell(pen, x, y)?.as_bytes());
        }
        Some(out)
    }

    /// The length of [`Self::bridge`], without building it.
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

    /// The length of the sequence [`Self::move_bytes`] would send to move from `from` (with
    /// the attributes `pen`) to `(x, y)`, computed without building it.
    fn move_len(&self, from: Option<(u16, u16)>, pen: Option<Pen>, x: u16, y: u16) -> usize {
        if from == Some((x, y)) {
            return 0;
        }
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
        let mut horizontal = if x == cx {
            0
        } else if x == 0 {
            1
        } else if x < cx && cx - x <= 3 {
            usize::from(cx - x)
        } else {
            csi_n_len(x.abs_diff(cx)).min(csi_n_len(x + 1))
        };
        if x > cx
            && x - cx <= MAX_BRIDGE
            && let Some(b) = self.bridge_len(pen, cx, x, y)
        {
            horizontal = horizontal.min(b);
        }
        absolute.min(vertical + horizontal)
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
        let seq = self.pen_bytes(to);
        self.queue.extend_from_slice(&seq);
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
            let g = &Glyph { pen, ..g.clone() };
            self.queue.extend_from_slice(g.text.as_bytes());
            self.cursor = self.cursor_after(g);
            if let Some(i) = self.index(g.x, g.y) {
                self.set_shown(
                    i,
                    Some(Shown {
                        text: g.text.clone(),
                        pen: g.pen,
                    }),
                );
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

/// One cell to print.
#[derive(Clone, Debug)]
struct Glyph {
    x: u16,
    y: u16,
    width: u16,
    text: String,
    pen: Pen,
}

impl Glyph {
    /// A single blank cell: only some of its attributes show ([`blank_alike`]).
    fn blank(&self) -> bool {
        self.text == " "
    }
}

/// Whether a blank cell looks the same drawn with `a` as with `b`: the foreground colour,
/// bold, dim, italics and blinking do not show on a space; the background does, and so do
/// reverse video, underline and strike-through (which draw in the foreground colour).
fn blank_alike(a: Pen, b: Pen) -> bool {
    let shows = Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT;
    a == b || (a.bg == b.bg && !a.modifier.intersects(shows) && !b.modifier.intersects(shows))
}

/// Whether a cell showing `shown` already looks as `want` does.
fn looks_like(shown: &Shown, want: &Shown) -> bool {
    shown.text == want.text
        && (shown.pen == want.pen || (want.text == " " && blank_alike(shown.pen, want.pen)))
}

/// Splits glyphs (in row-major order) into runs: same row, adjacent, same attributes
/// (blank cells take their neighbours' attributes when they look the same with them).
fn runs(glyphs: Vec<Glyph>) -> Vec<Vec<Glyph>> {
    let mut out: Vec<Vec<Glyph>> = Vec::new();
    for mut g in glyphs {
        if let Some(run) = out.last_mut()
            && let Some(last) = run.last()
            && last.y == g.y
            && last.x.saturating_add(last.width) == g.x
        {
            let pen = last.pen;
            if pen == g.pen {
                run.push(g);
                continue;
            }
            if g.blank() && blank_alike(g.pen, pen) {
                g.pen = pen;
                run.push(g);
                continue;
            }
            if run.iter().all(Glyph::blank) && blank_alike(pen, g.pen) {
                run.iter_mut().for_each(|b| b.pen = g.pen);
                run.push(g);
                continue;
            }
        }
        out.push(vec![g]);
    }
    out
}

/// More runs than this in one frame (a full repaint) are printed in row order: the greedy
/// ordering costs a number of steps that grows with the square of the runs.
const MAX_ORDERED_RUNS: usize = 400;

impl<W: Write> LeanBackend<W> {
    /// Prints a frame's changed cells. Cells are independent, so the runs go out in the
    /// cheapest of [`ORDERS`]: each is tried and rolled back, then the best one printed.
    fn put_frame(&mut self, glyphs: Vec<Glyph>) {
        let runs = runs(glyphs);
        if runs.len() > MAX_ORDERED_RUNS {
            self.put_runs(&runs, Order::Rows, &[]);
            self.undo.clear();
            return;
        }
        let planned = self.optimised_orders(&runs);
        let mut best = (usize::MAX, Order::Rows);
        for order in ORDERS {
            // An optimised order missing, or the same as one tried before (the kicks found
            // nothing cheaper), would print the same bytes again.
            if let Order::Optimised(k) = order
                && planned.get(k).is_none_or(|p| planned[..k].contains(p))
            {
                continue;
            }
            let start = self.checkpoint();
            self.put_runs(&runs, order, &planned);
            let cost = self.queue.len() - start.queue;
            self.rollback(&start);
            if cost < best.0 {
                best = (cost, order);
            }
        }
        self.put_runs(&runs, best.1, &planned);
        self.undo.clear();
    }

    /// Prints `runs` in `order` (`planned`: the orders of [`Order::Optimised`]). Greedy
    /// orders keep the cursor in one panel and the attributes unchanged as long as they can.
    fn put_runs(&mut self, runs: &[Vec<Glyph>], order: Order, planned: &[Vec<usize>]) {
        let pen_weight = match order {
            Order::Greedy { pen_weight } => pen_weight,
            Order::Rows => {
                runs.iter().for_each(|run| self.put_run(run));
                return;
            }
            Order::Optimised(k) => {
                for &i in planned.get(k).into_iter().flatten() {
                    self.put_run(&runs[i]);
                }
                return;
            }
        };
        let mut pending: Vec<&Vec<Glyph>> = runs.iter().collect();
        // SGR lengths seen so far (a frame has few distinct attributes).
        let mut lens: Vec<(Option<Pen>, Pen, usize)> = Vec::new();
        while !pending.is_empty() {
            let mut best = 0;
            let mut best_cost = usize::MAX;
            for (i, run) in pending.iter().enumerate() {
                let Some(g) = run.first() else { continue };
                let mut cost = self.move_len(self.cursor, self.pen, g.x, g.y);
                if pen_weight > 0 {
                    let (from, to) = (self.pen, self.run_pen(run));
                    let len = match lens.iter().find(|l| l.0 == from && l.1 == to) {
                        Some(l) => l.2,
                        None => {
                            let len = pen_bytes(from, to).len();
                            lens.push((from, to, len));
                            len
                        }
                    };
                    cost += pen_weight * len;
                }
                if cost < best_cost {
                    best = i;
                    best_cost = cost;
                    if cost == 0 {
                        break;
                    }
                }
            }
            let run = pending.swap_remove(best);
            self.put_run(run);
        }
    }

    /// Orders of `runs` costing few bytes of cursor moves and attribute changes (one for
    /// each of [`STARTS`], then the cheapest of them improved by kicks; none when there are
    /// too many runs): from the start, segments of up to [`MAX_SEGMENT`] runs moved to
    /// wherever they cost less ([`or_opt`]), from a table of what going from each run's end
    /// to each run's start costs. The table takes the screen as it is before the frame (re-printed cells may
    /// differ by then): it guides the search, the bytes are measured by printing.
    fn optimised_orders(&self, runs: &[Vec<Glyph>]) -> Vec<Vec<usize>> {
        let n = runs.len();
        if n > MAX_OPTIMISED_RUNS || runs.iter().any(Vec::is_empty) {
            return Vec::new();
        }
        // A blank run is printed in the current attributes when they look the same on it
        // (`run_pen`): count it in those of the nearest run it can join, as it will most
        // often be printed next to that one.
        let model: Vec<Pen> = runs
            .iter()
            .map(|r| {
                let own = r[0].pen;
                if !r.iter().all(Glyph::blank) {
                    return own;
                }
                runs.iter()
                    .filter(|o| !o.iter().all(Glyph::blank) && blank_alike(o[0].pen, own))
                    .min_by_key(|o| {
                        usize::from(o[0].x.abs_diff(r[0].x))
                            + 4 * usize::from(o[0].y.abs_diff(r[0].y))
                    })
                    .map_or(own, |o| o[0].pen)
            })
            .collect();
        // The distinct attributes and what switching between them costs.
        let mut pens: Vec<Pen> = Vec::new();
        let pen_of: Vec<usize> = model
            .iter()
            .map(|&p| {
                pens.iter().position(|&q| q == p).unwrap_or_else(|| {
                    pens.push(p);
                    pens.len() - 1
                })
            })
            .collect();
        let m = pens.len();
        let mut sgr = vec![0usize; m * m];
        for (a, &pa) in pens.iter().enumerate() {
            for (b, &pb) in pens.iter().enumerate() {
                sgr[a * m + b] = pen_bytes(Some(pa), pb).len();
            }
        }
        let first_sgr: Vec<usize> = pens.iter().map(|&p| pen_bytes(self.pen, p).len()).collect();
        // cost[i * n + j]: from the end of run i (i == n: from where the cursor is) to run j.
        let mut cost = vec![0usize; (n + 1) * n];
        for i in 0..=n {
            let (from, pen) = match runs.get(i) {
                Some(r) => (r.last().and_then(|g| self.cursor_after(g)), Some(model[i])),
                None => (self.cursor, self.pen),
            };
            for (j, run) in runs.iter().enumerate() {
                let switch = match runs.get(i) {
                    Some(_) => sgr[pen_of[i] * m + pen_of[j]],
                    None => first_sgr[pen_of[j]],
                };
                cost[i * n + j] = self.move_len(from, pen, run[0].x, run[0].y) + switch;
            }
        }
        // near[j]: the runs (or the cursor, n) cheapest to come to run j from.
        let near: Vec<Vec<usize>> = (0..n)
            .map(|j| {
                let mut from: Vec<usize> = (0..=n).filter(|&i| i != j).collect();
                from.sort_by_key(|&i| cost[i * n + j]);
                from.truncate(NEAR);
                from
            })
            .collect();
        let mut routes: Vec<Vec<usize>> = STARTS
            .iter()
            .map(|&start| {
                let mut route = vec![n];
                match start {
                    Start::Nearest => {
                        let mut left: Vec<usize> = (0..n).collect();
                        while !left.is_empty() {
                            let a = route[route.len() - 1];
                            let k = (0..left.len())
                                .min_by_key(|&k| cost[a * n + left[k]])
                                .unwrap_or(0);
                            route.push(left.swap_remove(k));
                        }
                    }
                    Start::Rows => route.extend(0..n),
                }
                or_opt(&mut route, &cost, &near, &mut vec![true; n + 1]);
                route
            })
            .collect();
        // Kicks: the cheapest route, two of its pieces swapped (a double bridge), improved
        // again, kept when cheaper (iterated local search, seeded: the output is the same
        // every time).
        let total = |r: &[usize]| -> usize { r.windows(2).map(|w| cost[w[0] * n + w[1]]).sum() };
        let mut best = routes
            .iter()
            .min_by_key(|r| total(r))
            .cloned()
            .unwrap_or_default();
        let mut best_cost = total(&best);
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        if n >= 8 {
            for _ in 0..KICKS {
                let mut cuts = [0usize; 3];
                for c in &mut cuts {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    *c = 1 + (seed % n as u64) as usize;
                }
                cuts.sort_unstable();
                let [p, q, r] = cuts;
                if p == q || q == r {
                    continue;
                }
                let mut next = best[..p].to_vec();
                next.extend_from_slice(&best[q..r]);
                next.extend_from_slice(&best[p..q]);
                next.extend_from_slice(&best[r..]);
                let mut active = vec![false; n + 1];
                for k in [p - 1, p, q - 1, q, r - 1, r] {
                    if let Some(&x) = next.get(k) {
                        active[x] = true;
                    }
                }
                or_opt(&mut next, &cost, &near, &mut active);
                let c = total(&next);
                if c < best_cost {
                    best = next;
                    best_cost = c;
                }
            }
        }
        routes.push(best);
        routes.iter_mut().for_each(|r| {
            r.remove(0);
        });
        routes
    }

    /// Drops the glyphs whose cells already show them (same text, same attributes).
    fn drop_shown(&self, glyphs: Vec<Glyph>) -> Vec<Glyph> {
        glyphs
            .into_iter()
            .filter(|g| {
                g.width != 1
                    || self.index(g.x, g.y).is_none_or(|i| {
                        self.screen[i].as_ref().is_none_or(|s| {
                            !looks_like(
                                s,
                                &Shown {
                                    text: g.text.clone(),
                                    pen: g.pen,
                                },
                            )
                        })
                    })
            })
            .collect()
    }

    /// Scrolls a band of rows when the frame shows their content moved up or down and a
    /// scroll plus the repaint of what still differs is cheaper than repainting the band;
    /// returns the glyphs left to print (all of the frame's cells that the terminal does
    /// not show after the scroll).
    fn scroll_if_cheaper(&mut self, glyphs: Vec<Glyph>) -> Vec<Glyph> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        if !self.scroll_regions || glyphs.len() < MIN_SCROLL_CELLS || h < 2 {
            return glyphs;
        }
        // The frame as a whole: what the terminal shows, with the changes on top.
        let mut next = self.screen.clone();
        for g in &glyphs {
            if let Some(i) = self.index(g.x, g.y) {
                next[i] = Some(Shown {
                    text: g.text.clone(),
                    pen: g.pen,
                });
                for k in 1..g.width {
                    if let Some(j) = self.index(g.x + k, g.y) {
                        next[j] = None;
                    }
                }
            }
        }
        let blank = Shown {
            text: " ".into(),
            pen: Pen::DEFAULT,
        };
        let stay: Vec<usize> = (0..h)
            .map(|y| {
                repaint_cost(&next[y * w..(y + 1) * w], |x| {
                    self.screen[y * w + x].as_ref()
                })
            })
            .collect();
        let cleared: Vec<usize> = (0..h)
            .map(|y| repaint_cost(&next[y * w..(y + 1) * w], |_| Some(&blank)))
            .collect();
        // Rows whose every cell is known before and after: a band with an unknown cell
        // (never drawn, or covered by a wide character) would keep what scrolls into it.
        let known: Vec<bool> = (0..h)
            .map(|y| (y * w..(y + 1) * w).all(|i| next[i].is_some() && self.screen[i].is_some()))
            .collect();
        // (saving, top, bottom, shift: > 0 content moves up).
        let mut best: Option<(usize, usize, usize, isize)> = None;
        for k in 1..=MAX_SCROLL.min(h - 1) {
            for up in [true, false] {
                // moved[y]: repainting row y when it shows the old row it moved from.
                let moved: Vec<usize> = (0..h)
                    .map(|y| {
                        let from = if up { y + k } else { y.wrapping_sub(k) };
                        if from >= h {
                            return usize::MAX;
                        }
                        repaint_cost(&next[y * w..(y + 1) * w], |x| {
                            self.screen[from * w + x].as_ref()
                        })
                    })
                    .collect();
                for top in 0..h {
                    for bottom in top + k..h {
                        if !known[bottom] {
                            break;
                        }
                        if !known[top..bottom].iter().all(|&k| k) {
                            break;
                        }
                        let before: usize = stay[top..=bottom].iter().sum();
                        // Rows taking old content, then the rows scrolled in blank.
                        let (kept, fresh) = if up {
                            (top..=bottom - k, bottom + 1 - k..=bottom)
                        } else {
                            (top + k..=bottom, top..=top + k - 1)
                        };
                        let mut after = scroll_bytes(top, bottom, k);
                        for y in kept {
                            after = after.saturating_add(moved[y]);
                        }
                        for y in fresh {
                            after += cleared[y];
                        }
                        if after < before && best.is_none_or(|b| before - after > b.0) {
                            let shift = if up { k as isize } else { -(k as isize) };
                            best = Some((before - after, top, bottom, shift));
                        }
                    }
                }
            }
        }
        let Some((_, top, bottom, shift)) = best else {
            return glyphs;
        };
        self.scroll_band(top, bottom, shift);
        // Everything of the frame the terminal does not show now.
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if let Some(n) = &next[i]
                    && !self.screen[i].as_ref().is_some_and(|s| looks_like(s, n))
                {
                    out.push(Glyph {
                        x: x as u16,
                        y: y as u16,
                        width: n.text.width() as u16,
                        text: n.text.clone(),
                        pen: n.pen,
                    });
                }
            }
        }
        out
    }

    /// Scrolls rows `top..=bottom` by `shift` rows (> 0: up) with scroll margins, and
    /// updates the screen model. The cursor ends at the top left (resetting the margins
    /// homes it).
    fn scroll_band(&mut self, top: usize, bottom: usize, shift: isize) {
        let w = usize::from(self.width);
        // Scrolled-in rows are blank in the current background: the default one.
        self.set_pen(Pen::DEFAULT);
        self.queue
            .extend_from_slice(format!("\x1b[{};{}r", top + 1, bottom + 1).as_bytes());
        // Setting the margins homes the cursor.
        self.cursor = Some((0, 0));
        let k = shift.unsigned_abs();
        if shift > 0 {
            // A line feed on the bottom margin scrolls the band up.
            self.move_to(0, bottom as u16);
            self.queue.extend(std::iter::repeat_n(b'\n', k));
        } else {
            // A reverse index on the top margin scrolls it down.
            self.move_to(0, top as u16);
            self.queue
                .extend(std::iter::repeat_n(*b"\x1bM", k).flatten());
        }
        self.queue.extend_from_slice(b"\x1b[r");
        self.cursor = Some((0, 0));
        let blank = Some(Shown {
            text: " ".into(),
            pen: Pen::DEFAULT,
        });
        let old: Vec<Option<Shown>> = self.screen[top * w..(bottom + 1) * w].to_vec();
        for y in top..=bottom {
            let from = y as isize + shift;
            let src = if (top as isize..=bottom as isize).contains(&from) {
                Some((from as usize - top) * w)
            } else {
                None
            };
            for x in 0..w {
                self.screen[y * w + x] = match src {
                    Some(s) => old[s + x].clone(),
                    None => blank.clone(),
                };
            }
        }
    }
}

/// Improves `route` (the cursor `n` first, then runs `0..n`) by moving segments of up to
/// [`MAX_SEGMENT`] runs, forwards or backwards, to wherever they cost fewer bytes (Or-opt):
/// `cost[i * n + j]` is what going from the end of run `i` (or the cursor) to run `j`
/// costs, the path ends anywhere. A segment is only tried after one of the [`NEAR`] runs
/// cheapest to come to its first (or last, backwards) run: far moves rarely pay. Only
/// segments starting or ending at an `active` run are tried; a run whose segments all
/// failed rests until a move changes its neighbourhood ("don't look" bits).
fn or_opt(route: &mut [usize], cost: &[usize], near: &[Vec<usize>], active: &mut [bool]) {
    let n = route.len() - 1;
    let c = |a: usize, b: Option<usize>| b.map_or(0, |b| cost[a * n + b] as isize);
    let place = |route: &[usize], pos: &mut [usize]| {
        for (k, &r) in route.iter().enumerate() {
            pos[r] = k;
        }
    };
    let mut pos = vec![0usize; n + 1];
    place(route, &mut pos);
    let mut ks: Vec<usize> = Vec::with_capacity(2 * NEAR + 1);
    for _ in 0..MAX_PASSES {
        let mut improved = false;
        let mut x = 1;
        while x < route.len() {
            if !active[route[x]] {
                x += 1;
                continue;
            }
            let mut moved = false;
            'segments: for len in 1..=MAX_SEGMENT.min(route.len() - 1) {
                // The segments starting and ending at x.
                for i in [x, (x + 1).saturating_sub(len)] {
                    if i < 1 || i + len > route.len() || (len == 1 && i != x) {
                        continue;
                    }
                    let (a, s, e) = (route[i - 1], route[i], route[i + len - 1]);
                    let b = route.get(i + len).copied();
                    let saved = c(a, Some(s)) + c(e, b) - c(a, b);
                    // What the segment costs more inside when turned backwards.
                    let turned: isize = (i..i + len - 1)
                        .map(|t| c(route[t + 1], Some(route[t])) - c(route[t], Some(route[t + 1])))
                        .sum();
                    // Insertion points: after a near run of either end, or at the end
                    // (edges touching the segment excluded: inserting there changes
                    // nothing).
                    ks.clear();
                    ks.extend(near[s].iter().chain(&near[e]).map(|&p| pos[p] + 1));
                    ks.push(route.len());
                    let mut best: Option<(isize, usize, bool)> = None;
                    for &k in ks.iter().filter(|&&k| k < i || k > i + len) {
                        let (p, q) = (route[k - 1], route.get(k).copied());
                        let added = c(p, Some(s)) + c(e, q) - c(p, q);
                        if added < saved && best.is_none_or(|(d, _, _)| added < d) {
                            best = Some((added, k, false));
                        }
                        let added = c(p, Some(e)) + c(s, q) - c(p, q) + turned;
                        if added < saved && best.is_none_or(|(d, _, _)| added < d) {
                            best = Some((added, k, true));
                        }
                    }
                    if let Some((_, k, backwards)) = best {
                        let (p, q) = (route[k - 1], route.get(k).copied());
                        for r in [Some(a), Some(s), Some(e), b, Some(p), q]
                            .into_iter()
                            .flatten()
                        {
                            active[r] = true;
                        }
                        if backwards {
                            route[i..i + len].reverse();
                        }
                        if k < i {
                            route[k..i + len].rotate_right(len);
                        } else {
                            route[i..k].rotate_left(len);
                        }
                        place(route, &mut pos);
                        moved = true;
                        break 'segments;
                    }
                }
            }
            if moved {
                improved = true;
            } else {
                active[route[x]] = false;
                x += 1;
            }
        }
        if !improved {
            break;
        }
    }
}

/// What repainting a row costs, roughly: the bytes of each cell that differs from what
/// `shown(x)` says is there, and a cursor move for each run of them.
fn repaint_cost<'a>(row: &[Option<Shown>], shown: impl Fn(usize) -> Option<&'a Shown>) -> usize {
    let mut cost = 0;
    let mut in_run = false;
    for (x, cell) in row.iter().enumerate() {
        let Some(cell) = cell else {
            continue;
        };
        if shown(x).is_some_and(|s| looks_like(s, cell)) {
            in_run = false;
        } else {
            cost += cell.text.len() + if in_run { 0 } else { 3 };
            in_run = true;
        }
    }
    cost
}

/// The bytes of scrolling rows `top..=bottom` by `k`, roughly: margins set and reset, a
/// move to the margin, `k` line feeds or reverse indexes, and a move back.
fn scroll_bytes(top: usize, bottom: usize, k: usize) -> usize {
    let digits = |n: usize| (n + 1).to_string().len();
    4 + digits(top) + digits(bottom) + 3 + (3 + digits(bottom)) + 2 * k + 4
}

/// The shortest SGR sequence switching the attributes from `from` (`None`: unknown) to `to`.
fn pen_bytes(from: Option<Pen>, to: Pen) -> Vec<u8> {
    if from == Some(to) {
        return Vec::new();
    }
    let full = sgr_from_reset(to).join(";");
    let params = match from {
        Some(from) => {
            let inc = sgr_incremental(from, to).join(";");
            if inc.len() <= full.len() { inc } else { full }
        }
        None => full,
    };
    if params.is_empty() {
        return Vec::new();
    }
    // A reset alone needs no parameter: `ESC [ m` (terminfo's `sgr0` for xterm, screen
    // and tmux).
    if params == "0" {
        return b"\x1b[m".to_vec();
    }
    let mut out = Vec::with_capacity(params.len() + 3);
    out.extend_from_slice(b"\x1b[");
    out.extend_from_slice(params.as_bytes());
    out.push(b'm');
    out
}

/// The length of [`cup`].
fn cup_len(x: u16, y: u16) -> usize {
    match (x, y) {
        (0, 0) => 3,
        (0, y) => 3 + digits(y + 1),
        (x, y) => 4 + digits(y + 1) + digits(x + 1),
    }
}

/// The length of [`csi_n`].
fn csi_n_len(n: u16) -> usize {
    3 + if n == 1 { 0 } else { digits(n) }
}

fn digits(n: u16) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// `ESC [ row ; col H` (1-based), shortened where the defaults allow.
fn cup(x: u16, y: u16) -> Vec<u8> {
    match (x, y) {
        (0, 0) => b"\x1b[H".to_vec(),
        (0, y) => format!("\x1b[{}H", y + 1).into_bytes(),
        (x, y) => format!("\x1b[{};{}H", y + 1, x + 1).into_bytes(),
    }
}

/// `ESC [ n <final>`, the count left out when it is 1.
fn csi_n(out: &mut Vec<u8>, n: u16, fin: u8) {
    out.extend_from_slice(b"\x1b[");
    if n != 1 {
        out.extend_from_slice(n.to_string().as_bytes());
    }
    out.push(fin);
}

/// SGR parameters setting `pen` from the default state.
fn sgr_from_reset(pen: Pen) -> Vec<String> {
    let mut p = vec!["0".to_string()];
    p.extend(modifier_on(pen.modifier));
    if pen.fg != Color::Reset {
        p.push(color_param(pen.fg, false));
    }
    if pen.bg != Color::Reset {
        p.push(color_param(pen.bg, true));
    }
    p
}

/// SGR parameters changing only what differs from `from` to `to`.
fn sgr_incremental(from: Pen, to: Pen) -> Vec<String> {
    let mut p = Vec::new();
    let removed = from.modifier - to.modifier;
    let mut keep = from.modifier & to.modifier;
    // Bold and dim share one "off" (22): turning either off turns both off.
    if removed.intersects(Modifier::BOLD | Modifier::DIM) {
        p.push("22".to_string());
        keep.remove(Modifier::BOLD | Modifier::DIM);
    }
    for (m, off) in [
        (Modifier::ITALIC, "23"),
        (Modifier::UNDERLINED, "24"),
        (Modifier::SLOW_BLINK | Modifier::RAPID_BLINK, "25"),
        (Modifier::REVERSED, "27"),
        (Modifier::HIDDEN, "28"),
        (Modifier::CROSSED_OUT, "29"),
    ] {
        if removed.intersects(m) {
            p.push(off.to_string());
            keep.remove(m);
        }
    }
    p.extend(modifier_on(to.modifier - keep));
    if from.fg != to.fg {
        p.push(color_param(to.fg, false));
    }
    if from.bg != to.bg {
        p.push(color_param(to.bg, true));
    }
    p
}

fn modifier_on(m: Modifier) -> Vec<String> {
    [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ]
    .iter()
    .filter(|(f, _)| m.contains(*f))
    .map(|(_, s)| s.to_string())
    .collect()
}

/// One colour's SGR parameter (foreground or background).
fn color_param(c: Color, bg: bool) -> String {
    let base = |n: u8| {
        // 30-37 / 90-97, backgrounds 40-47 / 100-107.
        let code = if n < 8 { 30 + n } else { 90 + n - 8 };
        (u16::from(code) + if bg { 10 } else { 0 }).to_string()
    };
    match c {
        Color::Reset => (if bg { "49" } else { "39" }).to_string(),
        Color::Indexed(n) if n < 16 => base(n),
        Color::Indexed(n) => format!("{};5;{n}", if bg { 48 } else { 38 }),
        Color::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", if bg { 48 } else { 38 }),
        named => base(ansi_index(named).unwrap_or(7)),
    }
}

/// The ANSI palette index (0-15) of a named colour.
fn ansi_index(c: Color) -> Option<u8> {
    Some(match c {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Indexed(n) if n < 16 => n,
        _ => return None,
    })
}

/// A colour for a 16-colour terminal: named colours as they are, others the nearest of the
/// 16 (so no 256-colour or 24-bit escape is ever sent).
fn to_ansi(c: Color) -> Color {
    let rgb = match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(n) if n >= 16 => indexed_rgb(n),
        other => return other,
    };
    const PALETTE: [(Color, (u8, u8, u8)); 16] = [
        (Color::Black, (0, 0, 0)),
        (Color::Red, (205, 0, 0)),
        (Color::Green, (0, 205, 0)),
        (Color::Yellow, (205, 205, 0)),
        (Color::Blue, (0, 0, 238)),
        (Color::Magenta, (205, 0, 205)),
        (Color::Cyan, (0, 205, 205)),
        (Color::Gray, (229, 229, 229)),
        (Color::DarkGray, (127, 127, 127)),
        (Color::LightRed, (255, 0, 0)),
        (Color::LightGreen, (0, 255, 0)),
        (Color::LightYellow, (255, 255, 0)),
        (Color::LightBlue, (92, 92, 255)),
        (Color::LightMagenta, (255, 0, 255)),
        (Color::LightCyan, (0, 255, 255)),
        (Color::White, (255, 255, 255)),
    ];
    let d = |(r, g, b): (u8, u8, u8)| {
        let (dr, dg, db) = (
            i32::from(r) - i32::from(rgb.0),
            i32::from(g) - i32::from(rgb.1),
            i32::from(b) - i32::from(rgb.2),
        );
        dr * dr + dg * dg + db * db
    };
    PALETTE
        .iter()
        .min_by_key(|(_, p)| d(*p))
        .map_or(Color::Reset, |(c, _)| *c)
}

/// The RGB value of a 256-colour palette entry (16-255).
fn indexed_rgb(n: u8) -> (u8, u8, u8) {
    if n >= 232 {
        let v = 8 + 10 * (n - 232);
        return (v, v, v);
    }
    let i = n - 16;
    let level = |k: u8| if k == 0 { 0 } else { 55 + 40 * k };
    (level(i / 36), level((i / 6) % 6), level(i % 6))
}

/// A cell's text with control characters (which no widget should produce) made harmless.
fn sanitize_symbol(sym: &str) -> String {
    if sym.chars().any(char::is_control) {
        sym.chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect()
    } else {
        sym.to_string()
    }
}

/// The ASCII stand-in for a cell's symbol, `width` cells wide.
pub fn ascii_symbol(sym: &str, width: usize) -> String {
    let mut chars = sym.chars();
    let c = match (chars.next(), chars.next()) {
        (Some(c), None) => ascii_char(c),
        _ => None,
    };
    match c {
        Some(c) if width <= 1 => c.to_string(),
        _ => "?".repeat(width.max(usize::from(!sym.is_empty()))),
    }
}

/// The ASCII look-alike of one character, if there is one.
fn ascii_char(c: char) -> Option<char> {
    if c.is_ascii() {
        return Some(if c.is_ascii_control() { '?' } else { c });
    }
    Some(match c {
        // Box drawing: lines, then corners, tees and crosses.
        '─' | '━' | '┄' | '┅' | '┈' | '┉' | '╌' | '╍' | '╴' | '╶' | '╸' | '╺' => {
            '-'
        }
        '═' => '=',
        '│' | '┃' | '┆' | '┇' | '┊' | '┋' | '╎' | '╏' | '║' | '╵' | '╷' | '╹' | '╻' => {
            '|'
        }
        '\u{2500}'..='\u{257f}' => '+',
        // Braille: a dot or nothing.
        '\u{2800}' => ' ',
        '\u{2801}'..='\u{28ff}' => '*',
        // Block elements, sextants, octants and other legacy computing cells.
        '\u{2580}'..='\u{259f}' | '\u{1fb00}'..='\u{1fbff}' | '\u{1cc00}'..='\u{1cebf}' => '#',
        '…' | '≈' | '∼' => '~',
        '·' | '•' | '∙' | '⋅' => '.',
        '◆' | '◇' | '◦' | '○' | '♦' => 'o',
        '●' | '◉' => '@',
        '▶' | '►' | '▸' | '▹' | '→' | '⟶' | '»' | '›' => '>',
        '◀' | '◄' | '◂' | '◃' | '←' | '«' | '‹' => '<',
        '▼' | '▾' | '▽' | '↓' => 'v',
        '▲' | '▴' | '△' | '↑' => '^',
        '⏸' | '‖' | '¦' => '|',
        '—' | '–' | '‐' | '‑' | '−' => '-',
        '×' => 'x',
        'α' => 'a',
        '°' => 'd',
        '⚠' | '❗' => '!',
        '✓' | '✔' => 'v',
        '✗' | '✘' => 'x',
        '“' | '”' | '„' => '"',
        '‘' | '’' | '‚' => '\'',
        '\u{a0}' => ' ',
        _ => return None,
    })
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
        let blank = Shown {
            text: " ".into(),
            pen: Pen::DEFAULT,
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::style::Style;
    use ratatui::text::Line;
    use ratatui::widgets::{Block, Borders, Paragraph};

    #[derive(Clone, Default)]
    struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn take(&self) -> Vec<u8> {
            std::mem::take(&mut *self.0.borrow_mut())
        }
    }

    fn term(color: ColorMode, ascii: bool) -> (Terminal<LeanBackend<Sink>>, Sink) {
        let sink = Sink::default();
        let t = Terminal::new(LeanBackend::with_size(sink.clone(), 20, 4, color, ascii))
            .expect("terminal");
        (t, sink)
    }

    fn show(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).replace('\x1b', "\\e")
    }

    /// A tiny terminal emulator: applies the sequences this backend emits to a grid,
    /// scroll margins included (a line feed on the bottom margin scrolls the band up, a
    /// reverse index on the top margin scrolls it down; margins home the cursor).
    fn emulate(bytes: &[u8], w: usize, h: usize) -> Vec<String> {
        let mut grid = vec![vec![' '; w]; h];
        let (mut x, mut y) = (0usize, 0usize);
        let (mut top, mut bottom) = (0usize, h - 1);
        let s = String::from_utf8(bytes.to_vec()).expect("utf-8");
        let mut it = s.chars().peekable();
        while let Some(c) = it.next() {
            match c {
                '\x1b' if it.peek() == Some(&'M') => {
                    it.next();
                    if y == top {
                        grid[top..=bottom].rotate_right(1);
                        grid[top] = vec![' '; w];
                    } else {
                        y -= 1;
                    }
                }
                '\n' if y == bottom => {
                    grid[top..=bottom].rotate_left(1);
                    grid[bottom] = vec![' '; w];
                }
                '\n' => y += 1,
                '\x1b' => {
                    assert_eq!(it.next(), Some('['));
                    let mut params = String::new();
                    let fin = loop {
                        let c = it.next().expect("final");
                        if c.is_ascii_alphabetic() {
                            break c;
                        }
                        params.push(c);
                    };
                    let nums: Vec<usize> = params
                        .trim_start_matches('?')
                        .split(';')
                        .map(|p| p.parse().unwrap_or(0))
                        .collect();
                    let n = nums[0].max(1);
                    match fin {
                        'H' => {
                            y = nums[0].max(1) - 1;
                            x = nums.get(1).copied().unwrap_or(1).max(1) - 1;
                        }
                        'A' => y -= n,
                        'B' => y += n,
                        'C' => x += n,
                        'D' => x -= n,
                        'G' => x = n - 1,
                        'J' if nums[0] == 2 => grid = vec![vec![' '; w]; h],
                        'r' => {
                            top = nums[0].max(1) - 1;
                            bottom = nums.get(1).copied().filter(|&b| b > 0).unwrap_or(h) - 1;
                            (x, y) = (0, 0);
                        }
                        'm' | 'l' | 'h' => {}
                        other => panic!("unexpected sequence {other}"),
                    }
                }
                '\r' => x = 0,
                '\x08' => x -= 1,
                c => {
                    grid[y][x] = c;
                    x += 1;
                }
            }
        }
        assert_eq!((top, bottom), (0, h - 1), "margins left set");
        grid.into_iter().map(|r| r.into_iter().collect()).collect()
    }

    fn log_line(i: usize) -> String {
        let what = [
            "start walk",
            "footstep left i=1",
            "lantern-creak",
            "footstep right f=0.5",
            "complete",
            "interrupt idle",
            "end jump",
            "dispose",
            "event wave",
            "start run",
            "hit ground",
            "blink",
        ];
        format!("{i:>2} {}", what[i % what.len()])
    }

    /// Draws a log of `lines` (the last `rows` of them) above a fixed footer, frame after
    /// frame with one more line each time; returns the stream of each frame after the first
    /// and checks each replays to the frame.
    fn scrolling_log(scroll: bool) -> Vec<Vec<u8>> {
        let sink = Sink::default();
        let mut backend = LeanBackend::with_size(sink.clone(), 30, 8, ColorMode::Ansi, false);
        backend.set_scroll_regions(scroll);
        let mut t = Terminal::new(backend).expect("terminal");
        // As the viewer does: every cell known from the start (bands with unknown cells
        // are never scrolled).
        t.clear().expect("clear");
        let mut all = Vec::new();
        let mut frames = Vec::new();
        for n in 6..12 {
            let lines: Vec<Line> = (n - 6..n)
                .map(|i| Line::styled(log_line(i), Style::default().fg(Color::Cyan)))
                .collect();
            t.draw(|f| {
                f.render_widget(
                    Paragraph::new("header"),
                    ratatui::layout::Rect::new(0, 0, 30, 1),
                );
                f.render_widget(
                    Paragraph::new(lines.clone()),
                    ratatui::layout::Rect::new(0, 1, 30, 6),
                );
                f.render_widget(
                    Paragraph::new(format!("frame {n}")),
                    ratatui::layout::Rect::new(0, 7, 30, 1),
                );
            })
            .expect("draw");
            let bytes = sink.take();
            all.extend_from_slice(&bytes);
            let grid = emulate(&all, 30, 8);
            assert_eq!(grid[0].trim_end(), "header");
            for (r, i) in (n - 6..n).enumerate() {
                assert_eq!(grid[1 + r].trim_end(), log_line(i));
            }
            assert_eq!(grid[7].trim_end(), format!("frame {n}"));
            frames.push(bytes);
        }
        frames.split_off(1)
    }

    #[test]
    fn a_scrolling_log_is_scrolled_not_repainted() {
        let scrolled = scrolling_log(true);
        let painted = scrolling_log(false);
        for (s, p) in scrolled.iter().zip(&painted) {
            // Margins around the band of the log only, a line feed, margins reset, and
            // the new line and the footer's digit.
            assert!(show(s).contains("\\e[2;7r"), "{}", show(s));
            assert!(!show(p).contains("\\e[2;7r"), "{}", show(p));
            assert!(s.len() * 2 < p.len(), "{} vs {}", show(s), show(p));
        }
    }

    #[test]
    fn cells_already_shown_are_not_sent_again() {
        // Braille patterns that differ but show as the same ASCII dot.
        let (mut t, sink) = term(ColorMode::None, true);
        t.draw(|f| f.render_widget(Paragraph::new("⣿⡇x"), f.area()))
            .expect("draw");
        sink.take();
        t.draw(|f| f.render_widget(Paragraph::new("⠁⢸y"), f.area()))
            .expect("draw");
        // The cursor stayed after the `x`: back one, and the `y`, nothing else.
        assert_eq!(show(&sink.take()), "\x08y");
    }

    #[test]
    fn frames_replay_to_the_same_screen() {
        let (mut t, sink) = term(ColorMode::Ansi, false);
        let mut all = Vec::new();
        for (i, text) in ["hello world", "hello there", "jello there ok", "x"]
            .iter()
            .enumerate()
        {
            t.draw(|f| {
                let style = Style::default().fg(if i % 2 == 0 { Color::Cyan } else { Color::Red });
                f.render_widget(Paragraph::new(Line::styled(*text, style)), f.area());
                f.render_widget(
                    Paragraph::new(format!("row {i} {text}")),
                    ratatui::layout::Rect::new(2, 2, 18, 1),
                );
            })
            .expect("draw");
            all.extend(sink.take());
            let grid = emulate(&all, 20, 4);
            assert_eq!(grid[0].trim_end(), *text, "{}", show(&all));
            let row: String = format!("  row {i} {text}").chars().take(20).collect();
            assert_eq!(grid[2].trim_end(), row.trim_end());
        }
    }

    #[test]
    fn only_changed_attributes_are_sent_and_no_reset_per_frame() {
        let (mut t, sink) = term(ColorMode::Ansi, false);
        let draw = |t: &mut Terminal<LeanBackend<Sink>>, n: u32| {
            t.draw(|f| {
                f.render_widget(
                    Paragraph::new(Line::styled(
                        format!("{n:>3}"),
                        Style::default().fg(Color::Cyan).bg(Color::Reset),
                    )),
                    f.area(),
                )
            })
            .expect("draw");
        };
        draw(&mut t, 100);
        let first = sink.take();
        assert!(show(&first).contains("\\e[0;36m100"), "{}", show(&first));
        draw(&mut t, 101);
        // Same row, same colour: one backspace and one digit, nothing else.
        assert_eq!(show(&sink.take()), "\x081");
    }

    #[test]
    fn sixteen_colours_never_send_256_colour_escapes() {
        for color in [ColorMode::Ansi, ColorMode::None] {
            let (mut t, sink) = term(color, false);
            t.draw(|f| {
                for (i, c) in [
                    Color::Rgb(250, 10, 10),
                    Color::Indexed(200),
                    Color::LightBlue,
                    Color::Yellow,
                ]
                .into_iter()
                .enumerate()
                {
                    f.render_widget(
                        Paragraph::new(Line::styled("ab", Style::default().fg(c).bg(c))),
                        ratatui::layout::Rect::new(0, i as u16, 20, 1),
                    );
                }
            })
            .expect("draw");
            let out = show(&sink.take());
            assert!(!out.contains("38;5") && !out.contains("48;5"), "{out}");
            assert!(!out.contains("38;2") && !out.contains("48;2"), "{out}");
            if color == ColorMode::Ansi {
                assert!(out.contains("94") && out.contains("33"), "{out}");
            } else {
                let sgr: Vec<&str> = out.split("\\e[").filter(|s| s.contains('m')).collect();
                // Resets only (`ESC [ m`, a reset without its parameter).
                assert!(
                    sgr.iter()
                        .all(|s| s.starts_with("0m") || s.starts_with('m')),
                    "{out}"
                );
            }
        }
        let (mut t, sink) = term(ColorMode::TrueColor, false);
        t.draw(|f| {
            f.render_widget(
                Paragraph::new(Line::styled("ab", Style::default().fg(Color::Rgb(1, 2, 3)))),
                f.area(),
            )
        })
        .expect("draw");
        assert!(show(&sink.take()).contains("38;2;1;2;3"));
    }

    #[test]
    fn ascii_mode_sends_only_ascii_of_the_same_width() {
        let (mut t, sink) = term(ColorMode::None, true);
        t.draw(|f| {
            let block = Block::default().borders(Borders::ALL).title("▶ ok…");
            let inner = block.inner(f.area());
            f.render_widget(block, f.area());
            f.render_widget(Paragraph::new("⣿◆·腕x"), inner);
        })
        .expect("draw");
        let out = sink.take();
        assert!(out.iter().all(|&b| b < 0x80), "{}", show(&out));
        let grid = emulate(&out, 20, 4);
        assert_eq!(grid[0], "+> ok~-------------+");
        assert_eq!(grid[1], "|*o.??x            |");
        assert_eq!(grid[3], "+------------------+");
    }

    #[test]
    fn cursor_moves_are_short() {
        let mut b = LeanBackend::with_size(Sink::default(), 80, 24, ColorMode::None, false);
        b.cursor = Some((10, 5));
        // Each move starts where the one before it left the cursor.
        for ((x, y), sent) in [
            ((10, 6), "\n"),
            ((8, 7), "\n\x08\x08"),
            ((0, 8), "\n\r"),
            ((0, 7), "\\eM"),
            ((0, 16), "\\e[9B"),
            ((70, 20), "\\e[21;71H"),
        ] {
            b.move_to(x, y);
            assert_eq!(show(&b.queue), sent, "to ({x}, {y})");
            b.queue.clear();
        }
        b.move_to(70, 20);
        assert!(b.queue.is_empty());
    }

    #[test]
    fn move_lengths_match_the_moves_sent() {
        let mut b = LeanBackend::with_size(Sink::default(), 40, 6, ColorMode::None, false);
        Backend::clear(&mut b).expect("clear");
        // Unchanged cells to re-print: ASCII on row 2, braille (3 bytes each) on row 3.
        for x in 0..40 {
            b.screen[2 * 40 + x] = Some(Shown {
                text: "a".into(),
                pen: Pen::DEFAULT,
            });
            b.screen[3 * 40 + x] = Some(Shown {
                text: "⣿".into(),
                pen: Pen::DEFAULT,
            });
        }
        let mut bridged = 0;
        for (cx, cy) in [(0, 0), (5, 1), (12, 2), (39, 5), (20, 3)] {
            b.cursor = Some((cx, cy));
            for y in 0..6 {
                for x in 0..40 {
                    let sent = b.move_bytes(x, y);
                    assert_eq!(
                        b.move_len(b.cursor, b.pen, x, y),
                        sent.len(),
                        "from {cx},{cy} to {x},{y}: {}",
                        show(&sent)
                    );
                    bridged += usize::from(sent.first().is_some_and(|&c| c == b'a'));
                }
            }
        }
        assert!(bridged > 0, "no move re-printed cells");
        // After a line feed, re-printing the cells of the next row beats a cursor move.
        b.cursor = Some((10, 1));
        assert_eq!(show(&b.move_bytes(12, 2)), "\naa");
        assert_eq!(b.move_len(None, b.pen, 12, 2), 7);
    }

    #[test]
    fn only_large_frames_are_synchronized() {
        let (mut t, sink) = term(ColorMode::None, false);
        t.draw(|f| f.render_widget(Paragraph::new("small"), f.area()))
            .expect("draw");
        let out = sink.take();
        assert!(!show(&out).contains("2026"), "{}", show(&out));
        let big = "⣿".repeat(20);
        let sink = Sink::default();
        let mut t = Terminal::new(LeanBackend::with_size(
            sink.clone(),
            20,
            30,
            ColorMode::None,
            false,
        ))
        .expect("terminal");
        t.draw(|f| {
            let lines: Vec<Line> = (0..30).map(|_| Line::raw(big.clone())).collect();
            f.render_widget(Paragraph::new(lines), f.area());
        })
        .expect("draw");
        let out = show(&sink.take());
        assert!(
            out.starts_with("\\e[?2026h") && out.ends_with("\\e[?2026l"),
            "{out}"
        );
        t.backend_mut().set_synchronized(false);
        t.draw(|f| {
            let lines: Vec<Line> = (0..30).map(|_| Line::raw("⣀".repeat(20))).collect();
            f.render_widget(Paragraph::new(lines), f.area());
        })
        .expect("draw");
        assert!(!show(&sink.take()).contains("2026"));
    }

    #[test]
    fn sgr_changes_are_minimal() {
        let p = |fg, m| Pen {
            fg,
            bg: Color::Reset,
            modifier: m,
        };
        let seq = |a, b| sgr_incremental(a, b).join(";");
        assert_eq!(
            seq(
                p(Color::Reset, Modifier::empty()),
                p(Color::Reset, Modifier::BOLD)
            ),
            "1"
        );
        assert_eq!(
            seq(
                p(Color::Reset, Modifier::BOLD | Modifier::DIM),
                p(Color::Reset, Modifier::DIM)
            ),
            "22;2"
        );
        assert_eq!(
            seq(
                p(Color::Cyan, Modifier::REVERSED),
                p(Color::Red, Modifier::REVERSED)
            ),
            "31"
        );
        assert_eq!(
            sgr_from_reset(p(Color::White, Modifier::BOLD)).join(";"),
            "0;1;97"
        );
        assert_eq!(to_ansi(Color::Rgb(255, 90, 90)), Color::LightRed);
        assert_eq!(to_ansi(Color::Indexed(21)), Color::Blue);
    }
}
