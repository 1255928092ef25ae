//! The cells a frame prints and the runs they form (same row, adjacent, same attributes).

use super::{Pen, Shown};
use ratatui::style::Modifier;

/// One cell to print.
#[derive(Clone, Debug)]
pub(super) struct Glyph {
    pub(super) x: u16,
    pub(super) y: u16,
    pub(super) width: u16,
    pub(super) text: String,
    pub(super) pen: Pen,
}

impl Glyph {
    /// A single blank cell: only some of its attributes show ([`blank_alike`]).
    pub(super) fn blank(&self) -> bool {
        self.text == " "
    }
}

/// Whether a blank cell looks the same drawn with `a` as with `b`: the foreground colour,
/// bold, dim, italics and blinking do not show on a space; the background does, and so do
/// reverse video, underline and strike-through (which draw in the foreground colour).
pub(super) fn blank_alike(a: Pen, b: Pen) -> bool {
    let shows = Modifier::REVERSED | Modifier::UNDERLINED | Modifier::CROSSED_OUT;
    a == b || (a.bg == b.bg && !a.modifier.intersects(shows) && !b.modifier.intersects(shows))
}

/// Whether a cell showing `shown` already looks as `want` does.
pub(super) fn looks_like(shown: &Shown, want: &Shown) -> bool {
    shows(shown, &want.text, want.pen)
}

/// Whether a cell showing `shown` already looks as `text` drawn in `pen` does.
pub(super) fn shows(shown: &Shown, text: &str, pen: Pen) -> bool {
    shown.text == text && (shown.pen == pen || (text == " " && blank_alike(shown.pen, pen)))
}

/// Splits glyphs (in row-major order) into runs: same row, adjacent, same attributes
/// (blank cells take their neighbours' attributes when they look the same with them).
pub(super) fn runs(glyphs: Vec<Glyph>) -> Vec<Vec<Glyph>> {
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
