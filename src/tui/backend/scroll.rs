//! Band scrolling: when rows' content moved up or down (the event log), a scroll of that band
//! (DECSTBM margins, line feeds or reverse indexes) plus the repaint of what still differs,
//! when that is cheaper than repainting the band.

use super::glyphs::{Glyph, looks_like};
use super::{LeanBackend, Pen, Shown};
use ratatui::style::Modifier;
use std::io::Write;
use unicode_width::UnicodeWidthStr;

/// Rows a band may scroll by at once, at most.
pub(super) const MAX_SCROLL: usize = 3;
/// What [`scroll_bytes`] is at least (margins set and reset, a move, one line feed).
const MIN_SCROLL_BYTES: usize = 19;
/// Fewer changed cells than this never pay for a scroll.
pub(super) const MIN_SCROLL_CELLS: usize = 24;

impl<W: Write> LeanBackend<W> {
    /// Scrolls a band of rows when the frame shows their content moved up or down and a
    /// scroll plus the repaint of what still differs is cheaper than repainting the band;
    /// returns the glyphs left to print (all of the frame's cells that the terminal does
    /// not show after the scroll).
    pub(super) fn scroll_if_cheaper(&mut self, glyphs: Vec<Glyph>) -> Vec<Glyph> {
        let (w, h) = (usize::from(self.width), usize::from(self.height));
        if !self.scroll_regions || glyphs.len() < MIN_SCROLL_CELLS || h < 2 {
            return glyphs;
        }
        // Every cell as its look (equal looks: `looks_like`) and bytes, before and after the
        // frame (comparing looks, not texts and attributes, keeps this a small part of a
        // frame's cost).
        let old: Vec<u64> = self
            .screen
            .iter()
            .map(|c| c.as_ref().map_or(UNKNOWN, |s| s.look))
            .collect();
        let mut next = old.clone();
        let mut bytes: Vec<usize> = self
            .screen
            .iter()
            .map(|c| c.as_ref().map_or(0, |s| s.text.len()))
            .collect();
        for g in &glyphs {
            if let Some(i) = self.index(g.x, g.y) {
                next[i] = look(&g.text, g.pen);
                bytes[i] = g.text.len();
                for k in 1..g.width {
                    if let Some(j) = self.index(g.x + k, g.y) {
                        next[j] = UNKNOWN;
                    }
                }
            }
        }
        let blanks = vec![look(" ", Pen::DEFAULT); w];
        let row = |y: usize| y * w..(y + 1) * w;
        let stay: Vec<usize> = (0..h)
            .map(|y| repaint_cost(&next[row(y)], &bytes[row(y)], &old[row(y)]))
            .collect();
        // Rows that gain nothing by a scroll need no more work until a band is tried:
        // repainting a row the frame does not change costs nothing already.
        let gain_rows: Vec<usize> = (0..h).filter(|&y| stay[y] > 0).collect();
        // cleared[y]: repainting row y after it was scrolled in blank; worked out for the
        // rows that gain first, for every row once a band is tried (`all_cleared`).
        let mut cleared = vec![0usize; h];
        for &y in &gain_rows {
            cleared[y] = repaint_cost(&next[row(y)], &bytes[row(y)], &blanks);
        }
        let mut all_cleared = false;
        // Rows whose every cell is known before and after: a band with an unknown cell
        // (never drawn, or covered by a wide character) would keep what scrolls into it.
        let known: Vec<bool> = (0..h)
            .map(|y| row(y).all(|i| next[i] != UNKNOWN && old[i] != UNKNOWN))
            .collect();
        // Prefix sums: a band's cost is then a difference, not a sum over its rows.
        let prefix = |v: &[usize]| -> Vec<usize> {
            std::iter::once(0)
                .chain(v.iter().scan(0usize, |acc, &c| {
                    *acc = acc.saturating_add(c);
                    Some(*acc)
                }))
                .collect()
        };
        let sum = |p: &[usize], rows: std::ops::RangeInclusive<usize>| {
            p[rows.end() + 1].saturating_sub(p[*rows.start()])
        };
        // known_from[y]: how many rows from y on are known.
        let mut known_from = vec![0usize; h + 1];
        for y in (0..h).rev() {
            known_from[y] = if known[y] { known_from[y + 1] + 1 } else { 0 };
        }
        let stay_sum = prefix(&stay);
        // Filled in with `cleared` once a band is tried.
        let mut cleared_sum: Vec<usize> = Vec::new();
        // (saving, top, bottom, shift: > 0 content moves up).
        let mut best: Option<(usize, usize, usize, isize)> = None;
        for k in 1..=MAX_SCROLL.min(h - 1) {
            for up in [true, false] {
                // moved[y]: repainting row y when it shows the old row it moved from.
                let moved_row = |y: usize| {
                    let from = if up { y + k } else { y.wrapping_sub(k) };
                    if from >= h {
                        return NEVER;
                    }
                    repaint_cost(&next[row(y)], &bytes[row(y)], &old[row(from)])
                };
                // A band saves what its kept rows gain by the move, plus what its k fresh
                // rows gain by the clearing, less the scroll itself (`MIN_SCROLL_BYTES` at
                // least): when even the rows that gain, all together, cannot pay for it, no
                // band can (most frames: this skips the bands, and the rest of the rows).
                let mut moved = vec![0usize; h];
                let mut kept_gain = 0usize;
                for &y in &gain_rows {
                    moved[y] = moved_row(y);
                    if moved[y] != NEVER {
                        kept_gain += stay[y].saturating_sub(moved[y]);
                    }
                }
                let fresh_gain = (0..h.saturating_sub(k - 1))
                    .map(|y| {
                        (y..y + k)
                            .map(|r| stay[r].saturating_sub(cleared[r]))
                            .sum::<usize>()
                    })
                    .max()
                    .unwrap_or(0);
                if kept_gain.saturating_add(fresh_gain) <= MIN_SCROLL_BYTES {
                    continue;
                }
                for y in (0..h).filter(|&y| stay[y] == 0) {
                    moved[y] = moved_row(y);
                }
                if !all_cleared {
                    for y in (0..h).filter(|&y| stay[y] == 0) {
                        cleared[y] = repaint_cost(&next[row(y)], &bytes[row(y)], &blanks);
                    }
                    all_cleared = true;
                    cleared_sum = prefix(&cleared);
                }
                let moved_sum = prefix(&moved);
                for (top, &run) in known_from[..h].iter().enumerate() {
                    // Every row of the band known.
                    for bottom in top + k..(top + run).min(h) {
                        let before = sum(&stay_sum, top..=bottom);
                        // Rows taking old content, then the rows scrolled in blank.
                        let (kept, fresh) = if up {
                            (top..=bottom - k, bottom + 1 - k..=bottom)
                        } else {
                            (top + k..=bottom, top..=top + k - 1)
                        };
                        let after = scroll_bytes(top, bottom, k)
                            .saturating_add(sum(&moved_sum, kept))
                            .saturating_add(sum(&cleared_sum, fresh));
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
        // What each cell should show: the frame's glyph, else what it showed before.
        let mut want: Vec<Option<Shown>> = self.screen.clone();
        for g in glyphs {
            if let Some(i) = self.index(g.x, g.y) {
                for k in 1..g.width {
                    if let Some(j) = self.index(g.x + k, g.y) {
                        want[j] = None;
                    }
                }
                want[i] = Some(Shown::new(g.text, g.pen));
            }
        }
        self.scroll_band(top, bottom, shift);
        // Everything of the frame the terminal does not show now.
        let mut out = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let i = y * w + x;
                if let Some(n) = &want[i]
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
    pub(super) fn scroll_band(&mut self, top: usize, bottom: usize, shift: isize) {
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
        let blank = Some(Shown::new(" ".into(), Pen::DEFAULT));
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

/// The cost of a row that cannot take old content (its source is off the band): more than
/// any repaint, yet summable over a screen's rows without overflow.
const NEVER: usize = 1 << 40;

/// The look of a cell not known (never drawn, or covered by a wide character).
const UNKNOWN: u64 = u64::MAX;

/// A cell's look: two cells get the same one exactly when one [`looks_like`] the other (a
/// blank shows only its background, unless reversed, underlined or struck through).
pub(super) fn look(text: &str, pen: Pen) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = Fx(0);
    let shows = Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT;
    if text == " " && !pen.modifier.intersects(shows) {
        (0u8, pen.bg).hash(&mut h);
    } else {
        (1u8, text, pen.fg, pen.bg, pen.modifier.bits()).hash(&mut h);
    }
    h.finish().min(UNKNOWN - 1)
}

/// A fast multiplicative hasher for [`look`] (its inputs are a few bytes; no untrusted
/// keys reach a table through it).
struct Fx(u64);

impl std::hash::Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// What repainting a row costs, roughly: the bytes of each cell that differs from what
/// `shown` says is there, and a cursor move for each run of them (`row`: the looks the
/// cells should have, `bytes`: theirs; unknown cells are skipped). Branch-free: it runs
/// over every cell of the screen several times a frame.
pub(super) fn repaint_cost(row: &[u64], bytes: &[usize], shown: &[u64]) -> usize {
    let n = row.len().min(bytes.len()).min(shown.len());
    let (row, bytes, shown) = (&row[..n], &bytes[..n], &shown[..n]);
    if !row.contains(&UNKNOWN) {
        // Every cell known (the common case): a run starts where the previous cell did not
        // differ, which the compiler can vectorise.
        let mut cost = 0;
        let mut before = false;
        for x in 0..n {
            let differs = shown[x] != row[x];
            cost += usize::from(differs) * (bytes[x] + 3 * usize::from(!before));
            before = differs;
        }
        return cost;
    }
    let mut cost = 0;
    let mut in_run = false;
    for x in 0..n {
        let cell = row[x];
        let known = cell != UNKNOWN;
        let differs = known & (shown[x] != cell);
        cost += usize::from(differs) * (bytes[x] + 3 * usize::from(!in_run));
        // An unknown cell neither starts nor ends a run.
        in_run = if known { differs } else { in_run };
    }
    cost
}

/// The bytes of scrolling rows `top..=bottom` by `k`, roughly: margins set and reset, a
/// move to the margin, `k` line feeds or reverse indexes, and a move back.
#[inline]
pub(super) fn scroll_bytes(top: usize, bottom: usize, k: usize) -> usize {
    // Rows are numbered from 1 on the wire.
    let digits = |n: usize| match n + 1 {
        0..=9 => 1,
        10..=99 => 2,
        100..=999 => 3,
        m => m.ilog10() as usize + 1,
    };
    4 + digits(top) + digits(bottom) + 3 + (3 + digits(bottom)) + 2 * k + 4
}
