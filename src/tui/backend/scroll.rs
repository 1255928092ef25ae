//! Band scrolling: when rows' content moved up or down (the event log), a scroll of that band
//! (DECSTBM margins, line feeds or reverse indexes) plus the repaint of what still differs,
//! when that is cheaper than repainting the band.

use super::glyphs::{Glyph, looks_like};
use super::{LeanBackend, Pen, Shown};
use std::io::Write;
use unicode_width::UnicodeWidthStr;

/// Rows a band may scroll by at once, at most.
pub(super) const MAX_SCROLL: usize = 3;
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

/// What repainting a row costs, roughly: the bytes of each cell that differs from what
/// `shown(x)` says is there, and a cursor move for each run of them.
pub(super) fn repaint_cost<'a>(
    row: &[Option<Shown>],
    shown: impl Fn(usize) -> Option<&'a Shown>,
) -> usize {
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
pub(super) fn scroll_bytes(top: usize, bottom: usize, k: usize) -> usize {
    let digits = |n: usize| (n + 1).to_string().len();
    4 + digits(top) + digits(bottom) + 3 + (3 + digits(bottom)) + 2 * k + 4
}
