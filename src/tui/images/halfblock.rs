//! The fallback without an image protocol: two pixels a cell, the upper as the foreground of
//! `▀` and the lower as its background. A picture for `cols` x `rows` cells is `cols` pixels
//! wide and `2 * rows` high. Colours go out as 24-bit; the backend turns them into what the
//! terminal takes (the 16 ANSI colours, or none).

use super::{Rgba, over};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;

/// The upper half block.
pub const UPPER: &str = "▀";

/// One cell: the colours of its upper and lower pixel (`None`: transparent there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfCell {
    pub upper: Option<[u8; 3]>,
    pub lower: Option<[u8; 3]>,
}

/// A pixel as a cell colour: `None` when (nearly) transparent, else over `bg`.
fn colour(p: [u8; 4], bg: [u8; 3]) -> Option<[u8; 3]> {
    (p[3] >= 16).then(|| over(p, bg))
}

/// The cells of `img`, row-major, `img.width` a row and `ceil(img.height / 2)` rows.
/// Partly transparent pixels are blended over `bg`.
pub fn cells(img: &Rgba, bg: [u8; 3]) -> Vec<HalfCell> {
    let rows = img.height.div_ceil(2);
    let mut out = Vec::with_capacity(img.width as usize * rows as usize);
    for r in 0..rows {
        for x in 0..img.width {
            let lower = if 2 * r + 1 < img.height {
                colour(img.get(x, 2 * r + 1), bg)
            } else {
                None
            };
            out.push(HalfCell {
                upper: colour(img.get(x, 2 * r), bg),
                lower,
            });
        }
    }
    out
}

fn rgb(c: [u8; 3]) -> Color {
    Color::Rgb(c[0], c[1], c[2])
}

/// Draws `img` (sized `area.width` x `2 * area.height` pixels; larger is cropped) into the
/// buffer. Cells transparent in both halves are left as they are, so markers drawn before
/// stay visible there; a cell with one transparent half shows the default background there
/// (`▀` or `▄` chosen so the transparent half is the cell's background).
pub fn render(img: &Rgba, bg: [u8; 3], area: Rect, buf: &mut Buffer) {
    let w = img.width as usize;
    let cells = cells(img, bg);
    for y in 0..area.height {
        for x in 0..area.width {
            let Some(c) = cells.get(usize::from(y) * w + usize::from(x)) else {
                continue;
            };
            if usize::from(x) >= w {
                continue;
            }
            let Some(cell) = buf.cell_mut((area.x + x, area.y + y)) else {
                continue;
            };
            match (c.upper, c.lower) {
                (None, None) => {}
                (Some(u), Some(l)) => {
                    cell.set_symbol(UPPER).set_fg(rgb(u)).set_bg(rgb(l));
                }
                (Some(u), None) => {
                    cell.set_symbol(UPPER).set_fg(rgb(u)).set_bg(Color::Reset);
                }
                (None, Some(l)) => {
                    cell.set_symbol("▄").set_fg(rgb(l)).set_bg(Color::Reset);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::images::test_images::sample;

    /// Reads the buffer's cells back into pixels (transparent where a half shows the
    /// default background).
    fn decode(buf: &Buffer, area: Rect) -> Rgba {
        let mut img =
            Rgba::filled(u32::from(area.width), 2 * u32::from(area.height), [0; 4]).expect("size");
        let px = |c: Color| match c {
            Color::Rgb(r, g, b) => [r, g, b, 255],
            _ => [0; 4],
        };
        for y in 0..area.height {
            for x in 0..area.width {
                let cell = &buf[(area.x + x, area.y + y)];
                let (up, low) = match cell.symbol() {
                    "▀" => (px(cell.fg), px(cell.bg)),
                    "▄" => (px(cell.bg), px(cell.fg)),
                    _ => ([0; 4], [0; 4]),
                };
                img.set(u32::from(x), 2 * u32::from(y), up);
                img.set(u32::from(x), 2 * u32::from(y) + 1, low);
            }
        }
        img
    }

    #[test]
    fn cells_decode_back_to_the_pixels() {
        let img = sample(30, 20);
        let area = Rect::new(2, 1, 30, 10);
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 12));
        render(&img, [0, 0, 0], area, &mut buf);
        let back = decode(&buf, area);
        // The sample is opaque but for a transparent corner, which stays transparent.
        let mut expected = img.clone();
        for p in expected.pixels.chunks_exact_mut(4) {
            if p[3] == 0 {
                p.copy_from_slice(&[0; 4]);
            }
        }
        assert_eq!(back, expected);
    }

    #[test]
    fn translucent_pixels_blend_over_the_background_and_odd_heights_work() {
        let mut img = Rgba::filled(2, 3, [255, 0, 0, 128]).expect("size");
        img.set(1, 2, [0, 0, 255, 255]);
        let c = cells(&img, [0, 0, 255]);
        assert_eq!(c.len(), 4);
        assert_eq!(c[0].upper, Some([128, 0, 127]));
        assert_eq!(
            c[3],
            HalfCell {
                upper: Some([0, 0, 255]),
                lower: None
            }
        );
    }

    #[test]
    fn transparent_cells_keep_what_was_drawn() {
        let img = Rgba::filled(4, 4, [0; 4]).expect("size");
        let area = Rect::new(0, 0, 4, 2);
        let mut buf = Buffer::empty(area);
        buf[(1, 1)].set_symbol("x");
        render(&img, [0, 0, 0], area, &mut buf);
        assert_eq!(buf[(1, 1)].symbol(), "x");
    }
}
