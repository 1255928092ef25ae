//! Sixel: the picture (opaque: composite it first, [`super::flatten`]) reduced to a palette
//! of at most 256 colours, sent in bands of six pixel rows with run-length encoding.
//!
//! The palette is exact when the picture has 256 colours or fewer; otherwise it is the mean
//! colours of the most populated cells of a 32x32x32 colour grid, each pixel mapped to the
//! nearest of them. Sixel palettes are in percent, so a channel comes back within 1.3 of
//! 255-scale of the palette colour.

use super::{Placement, Rgba, cursor_to};
use std::collections::HashMap;

/// Colours in a sixel palette, at most.
pub const MAX_COLORS: usize = 256;

/// A picture reduced to a palette: the colours and each pixel's index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Indexed {
    pub width: u32,
    pub height: u32,
    pub palette: Vec<[u8; 3]>,
    pub indices: Vec<u8>,
}

fn key5(c: [u8; 3]) -> usize {
    (usize::from(c[0] >> 3) << 10) | (usize::from(c[1] >> 3) << 5) | usize::from(c[2] >> 3)
}

fn dist(a: [u8; 3], b: [u8; 3]) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs();
    // Weights for how strongly the eye tells the channels apart.
    2 * d(a[0], b[0]).pow(2) + 4 * d(a[1], b[1]).pow(2) + 3 * d(a[2], b[2]).pow(2)
}

/// Reduces the picture's colours (alpha ignored) to at most [`MAX_COLORS`].
pub fn quantize(img: &Rgba) -> Indexed {
    let rgb = |p: &[u8]| [p[0], p[1], p[2]];
    let mut exact: HashMap<[u8; 3], u8> = HashMap::new();
    let mut palette = Vec::new();
    for p in img.pixels.chunks_exact(4) {
        let c = rgb(p);
        if let std::collections::hash_map::Entry::Vacant(e) = exact.entry(c) {
            if palette.len() == MAX_COLORS {
                palette.clear();
                break;
            }
            e.insert(palette.len() as u8);
            palette.push(c);
        }
    }
    if !palette.is_empty() || img.pixels.is_empty() {
        let indices = img
            .pixels
            .chunks_exact(4)
            .map(|p| exact.get(&rgb(p)).copied().unwrap_or(0))
            .collect();
        return Indexed {
            width: img.width,
            height: img.height,
            palette,
            indices,
        };
    }
    // Popularity of the cells of a 32x32x32 grid, with their colour sums.
    let mut cells = vec![(0u64, [0u64; 3]); 1 << 15];
    for p in img.pixels.chunks_exact(4) {
        let c = rgb(p);
        let cell = &mut cells[key5(c)];
        cell.0 += 1;
        for (sum, v) in cell.1.iter_mut().zip(c) {
            *sum += u64::from(v);
        }
    }
    let mut used: Vec<usize> = (0..cells.len()).filter(|&i| cells[i].0 > 0).collect();
    used.sort_by_key(|&i| std::cmp::Reverse(cells[i].0));
    used.truncate(MAX_COLORS);
    let palette: Vec<[u8; 3]> = used
        .iter()
        .map(|&i| {
            let (n, s) = cells[i];
            [(s[0] / n) as u8, (s[1] / n) as u8, (s[2] / n) as u8]
        })
        .collect();
    // The nearest palette colour, per grid cell (pixels of one cell are alike).
    let mut nearest: Vec<Option<u8>> = vec![None; 1 << 15];
    let indices = img
        .pixels
        .chunks_exact(4)
        .map(|p| {
            let c = rgb(p);
            let k = key5(c);
            *nearest[k].get_or_insert_with(|| {
                let centre = [c[0] | 4, c[1] | 4, c[2] | 4];
                (0..palette.len())
                    .min_by_key(|&i| dist(palette[i], centre))
                    .unwrap_or(0) as u8
            })
        })
        .collect();
    Indexed {
        width: img.width,
        height: img.height,
        palette,
        indices,
    }
}

/// A 0-255 channel as the percent a sixel palette takes.
fn percent(v: u8) -> u32 {
    (u32::from(v) * 100 + 127) / 255
}

/// Appends the sixel character for `bits` repeated `n` times.
fn run(out: &mut Vec<u8>, bits: u8, n: usize) {
    let c = 0x3f + bits;
    if n >= 4 {
        out.extend_from_slice(format!("!{n}").as_bytes());
        out.push(c);
    } else {
        out.extend(std::iter::repeat_n(c, n));
    }
}

/// The sixel data of an indexed picture (`ESC P q ... ESC \`).
pub fn encode_indexed(img: &Indexed) -> Vec<u8> {
    let w = img.width as usize;
    let h = img.height as usize;
    let mut out = Vec::with_capacity(w * h / 2 + 4096);
    // P2=1: pixels not painted keep what is behind them; raster attributes: 1:1 pixels.
    out.extend_from_slice(format!("\x1bP0;1;0q\"1;1;{w};{h}").as_bytes());
    for (i, c) in img.palette.iter().enumerate() {
        out.extend_from_slice(
            format!(
                "#{i};2;{};{};{}",
                percent(c[0]),
                percent(c[1]),
                percent(c[2])
            )
            .as_bytes(),
        );
    }
    let mut present = vec![false; img.palette.len()];
    let mut row_bits = vec![0u8; w];
    for band in (0..h).step_by(6) {
        let rows = (h - band).min(6);
        present.iter_mut().for_each(|p| *p = false);
        for y in band..band + rows {
            for &i in &img.indices[y * w..(y + 1) * w] {
                if let Some(p) = present.get_mut(usize::from(i)) {
                    *p = true;
                }
            }
        }
        let mut first = true;
        for (colour, _) in present.iter().enumerate().filter(|(_, p)| **p) {
            for (x, bits) in row_bits.iter_mut().enumerate() {
                *bits = 0;
                for dy in 0..rows {
                    if usize::from(img.indices[(band + dy) * w + x]) == colour {
                        *bits |= 1 << dy;
                    }
                }
            }
            if !first {
                out.push(b'$');
            }
            first = false;
            out.extend_from_slice(format!("#{colour}").as_bytes());
            // Trailing empty columns need not be sent.
            let end = row_bits.iter().rposition(|&b| b != 0).map_or(0, |e| e + 1);
            let mut x = 0;
            while x < end {
                let bits = row_bits[x];
                let n = row_bits[x..end].iter().take_while(|&&b| b == bits).count();
                run(&mut out, bits, n);
                x += n;
            }
        }
        if band + 6 < h {
            out.push(b'-');
        }
    }
    out.extend_from_slice(b"\x1b\\");
    out
}

/// The bytes that draw the (opaque) picture with its top-left corner at `at`'s cell. The
/// picture must fit on screen above the last row, or the terminal scrolls.
pub fn encode(img: &Rgba, at: Placement) -> Vec<u8> {
    let mut out = Vec::new();
    cursor_to(&mut out, at.col, at.row);
    out.extend_from_slice(&encode_indexed(&quantize(img)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::images::test_images::sample;
    use crate::tui::images::{flatten, over};

    /// A sixel decoder: the picture a terminal would show (unpainted pixels transparent).
    fn decode(bytes: &[u8]) -> Rgba {
        let start = bytes.windows(2).position(|w| w == b"\x1bP").expect("DCS");
        let q = start + bytes[start..].iter().position(|&b| b == b'q').expect("q");
        let end = bytes.len() - 2;
        assert_eq!(&bytes[end..], b"\x1b\\");
        let data = &bytes[q + 1..end];
        let mut i = 0;
        let number = |i: &mut usize| {
            let s = *i;
            while *i < data.len() && data[*i].is_ascii_digit() {
                *i += 1;
            }
            std::str::from_utf8(&data[s..*i])
                .expect("digits")
                .parse::<usize>()
                .expect("number")
        };
        assert_eq!(data[0], b'"');
        i += 1;
        let mut args = Vec::new();
        loop {
            args.push(number(&mut i));
            if data[i] != b';' {
                break;
            }
            i += 1;
        }
        let (w, h) = (args[2] as u32, args[3] as u32);
        let mut img = Rgba::filled(w, h, [0; 4]).expect("size");
        let mut palette: HashMap<usize, [u8; 3]> = HashMap::new();
        let (mut x, mut band, mut colour) = (0u32, 0u32, 0usize);
        while i < data.len() {
            match data[i] {
                b'#' => {
                    i += 1;
                    colour = number(&mut i);
                    if data.get(i) == Some(&b';') {
                        i += 1;
                        assert_eq!(number(&mut i), 2, "RGB colour space");
                        let mut c = [0u8; 3];
                        for v in &mut c {
                            assert_eq!(data[i], b';');
                            i += 1;
                            *v = ((number(&mut i) * 255 + 50) / 100) as u8;
                        }
                        palette.insert(colour, c);
                    }
                }
                b'$' => {
                    x = 0;
                    i += 1;
                }
                b'-' => {
                    x = 0;
                    band += 6;
                    i += 1;
                }
                b'!' => {
                    i += 1;
                    let n = number(&mut i);
                    let bits = data[i] - 0x3f;
                    for _ in 0..n {
                        paint(&mut img, x, band, bits, palette[&colour]);
                        x += 1;
                    }
                    i += 1;
                }
                c @ 0x3f..=0x7e => {
                    paint(&mut img, x, band, c - 0x3f, palette[&colour]);
                    x += 1;
                    i += 1;
                }
                c => panic!("unexpected byte {c:#x} at {i}"),
            }
        }
        img
    }

    fn paint(img: &mut Rgba, x: u32, band: u32, bits: u8, c: [u8; 3]) {
        for dy in 0..6 {
            if bits & (1 << dy) != 0 {
                assert!(x < img.width && band + dy < img.height, "pixel outside");
                img.set(x, band + dy, [c[0], c[1], c[2], 255]);
            }
        }
    }

    #[test]
    fn few_colours_come_back_within_the_percent_rounding() {
        // 4 colours: the palette is exact; only the percent steps change values.
        let mut img = Rgba::filled(31, 17, [255, 0, 0, 255]).expect("size");
        for y in 0..17 {
            for x in 0..31 {
                let c = match (x / 5 + y / 3) % 4 {
                    0 => [255, 0, 0, 255],
                    1 => [0, 128, 255, 255],
                    2 => [20, 20, 20, 255],
                    _ => [250, 250, 250, 255],
                };
                img.set(x, y, c);
            }
        }
        let back = decode(&encode(
            &img,
            Placement {
                col: 0,
                row: 0,
                cols: 4,
                rows: 2,
            },
        ));
        assert_eq!((back.width, back.height), (31, 17));
        for (a, b) in img.pixels.iter().zip(&back.pixels) {
            assert!(a.abs_diff(*b) <= 2, "{a} vs {b}");
        }
    }

    #[test]
    fn many_colours_come_back_close() {
        let img = flatten(&sample(120, 80), [0, 0, 0]);
        let q = quantize(&img);
        assert!(q.palette.len() <= MAX_COLORS);
        let back = decode(&encode_indexed(&q));
        let mut total = 0u64;
        let mut worst = 0u8;
        for (a, b) in img.pixels.iter().zip(&back.pixels) {
            total += u64::from(a.abs_diff(*b));
            worst = worst.max(a.abs_diff(*b));
        }
        let mean = total as f64 / img.pixels.len() as f64;
        assert!(mean < 6.0, "mean error {mean}");
        assert!(worst < 48, "worst error {worst}");
    }

    #[test]
    fn runs_are_compressed_and_every_pixel_is_painted() {
        let img = Rgba::filled(300, 13, [0, 0, 0, 255]).expect("size");
        let out = encode_indexed(&quantize(&img));
        assert!(out.len() < 80, "{}", String::from_utf8_lossy(&out));
        let back = decode(&out);
        assert!(back.pixels.chunks(4).all(|p| p == [0, 0, 0, 255]));
        // A transparent pixel flattened over a background gets the background.
        assert_eq!(over([9, 9, 9, 0], [1, 2, 3]), [1, 2, 3]);
    }
}
