//! Filling one textured triangle: its covered rows ([`spans`]), the texel position stepped
//! along each row, bilinear sampling, the slot's tint and the blend, per pixel.
//!
//! This is the renderer's inner loop, so it avoids what the per-pixel version paid for: the
//! bounding box's uncovered pixels, barycentric weights per pixel, float-to-index casts (texel
//! positions step in fixed point, bilinear weights are 8-bit, as GPUs' are), and the tint and
//! blend of texels that are fully transparent (premultiplied `[0, 0, 0, 0]`, which changes no
//! destination in any blend mode).

use super::blend::blend;
use super::draw::shade;
use super::triangle::spans;
use crate::core::color::Color;
use crate::core::model::BlendMode;
use crate::format::atlas::PageImage;

/// The premultiplied RGBA destination (0..1 channels), with an optional clip mask.
pub struct Target<'a> {
    pub pixels: &'a mut [[f32; 4]],
    pub width: usize,
    pub height: usize,
    /// Pixels a clipping attachment lets through (same size as `pixels`).
    pub mask: Option<&'a [bool]>,
}

/// A slot's colours: light (premultiplied by nothing; alpha included), dark and DragonBones
/// colour offset.
#[derive(Clone, Copy)]
pub struct Tint {
    pub light: [f32; 4],
    pub dark: Option<[f32; 3]>,
    pub offset: Option<Color>,
}

/// Draws the triangle `p` (pixel coordinates) textured from `page` at the normalised page
/// coordinates `uv` of its corners.
pub fn fill_triangle(
    target: &mut Target<'_>,
    page: &PageImage,
    p: [(f64, f64); 3],
    uv: [(f64, f64); 3],
    tint: &Tint,
    mode: BlendMode,
) {
    // One monomorphic loop per blend mode, so the mode is not matched per pixel.
    match mode {
        BlendMode::Normal => fill(target, page, p, uv, tint, |d, s| {
            blend(d, s, BlendMode::Normal)
        }),
        BlendMode::Additive => fill(target, page, p, uv, tint, |d, s| {
            blend(d, s, BlendMode::Additive)
        }),
        BlendMode::Multiply => fill(target, page, p, uv, tint, |d, s| {
            blend(d, s, BlendMode::Multiply)
        }),
        BlendMode::Screen => fill(target, page, p, uv, tint, |d, s| {
            blend(d, s, BlendMode::Screen)
        }),
    }
}

/// 1.0 in the 32.32 fixed point of texel positions.
const ONE: f64 = 4_294_967_296.0;

#[inline(always)]
fn fill(
    target: &mut Target<'_>,
    page: &PageImage,
    p: [(f64, f64); 3],
    uv: [(f64, f64); 3],
    tint: &Tint,
    op: impl Fn(&mut [f32; 4], [f32; 4]),
) {
    let (pw, ph) = (page.width as usize, page.height as usize);
    if pw == 0 || ph == 0 || page.rgba.len() < pw * ph * 4 {
        return;
    }
    let [a, b, c] = p;
    let area = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    if area == 0.0 || !area.is_finite() {
        return;
    }
    // Texel coordinates (texel centres at integers) of the corners.
    let t = uv.map(|(u, v)| (u * pw as f64 - 0.5, v * ph as f64 - 0.5));
    let edge = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    // Barycentric weights are affine in x: their x steps give the texel step along a row.
    let dw = [(b.1 - c.1) / area, (c.1 - a.1) / area, (a.1 - b.1) / area];
    let du = dw[0] * t[0].0 + dw[1] * t[1].0 + dw[2] * t[2].0;
    let dv = dw[0] * t[0].1 + dw[1] * t[1].1 + dw[2] * t[2].1;
    // Texel positions step along a row in 32.32 fixed point (exact enough for any row of
    // at most `MAX_SIDE` pixels), sampled with 8-bit bilinear weights.
    let fixed = |v: f64| (v * ONE) as i64;
    let (du, dv) = (fixed(du), fixed(dv));
    let (max_x, max_y) = (((pw - 1) as i64) << 32, ((ph - 1) as i64) << 32);
    let width = target.width;
    let rgba = page.rgba.as_slice();
    // A texel as one word (little-endian RGBA), so that "all four transparent" and "all four
    // equal" are single compares; out of range (never, by the clamps) reads as transparent.
    let word = |i: usize| -> u32 {
        rgba.get(i * 4..i * 4 + 4)
            .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    spans(target.width, target.height, p, |y, s, e| {
        let r = (s as f64 + 0.5, y as f64 + 0.5);
        let w = [
            edge(b, c, r) / area,
            edge(c, a, r) / area,
            edge(a, b, r) / area,
        ];
        let mut u = fixed(w[0] * t[0].0 + w[1] * t[1].0 + w[2] * t[2].0);
        let mut v = fixed(w[0] * t[0].1 + w[1] * t[1].1 + w[2] * t[2].1);
        let row = y * width;
        let mask = target.mask.map(|m| &m[row + s..row + e]);
        for (k, dst) in target.pixels[row + s..row + e].iter_mut().enumerate() {
            // Clamped to the page: outside it the edge texels repeat.
            let (x, yy) = (u.clamp(0, max_x), v.clamp(0, max_y));
            u = u.saturating_add(du);
            v = v.saturating_add(dv);
            if mask.is_some_and(|m| !m[k]) {
                continue;
            }
            let (x0, y0) = ((x >> 32) as usize, (yy >> 32) as usize);
            let (x1, y1) = ((x0 + 1).min(pw - 1), (y0 + 1).min(ph - 1));
            let (i00, i10, i01, i11) = (y0 * pw + x0, y0 * pw + x1, y1 * pw + x0, y1 * pw + x1);
            let (t00, t10, t01, t11) = (word(i00), word(i10), word(i01), word(i11));
            if t00 | t10 | t01 | t11 == 0 {
                continue;
            }
            let texel = if t00 == t10 && t00 == t01 && t00 == t11 {
                t00.to_le_bytes().map(|c| f32::from(c) / 255.0)
            } else {
                let fx = ((x >> 24) & 0xff) as u32;
                let fy = ((yy >> 24) & 0xff) as u32;
                let wt = [
                    (256 - fx) * (256 - fy),
                    fx * (256 - fy),
                    (256 - fx) * fy,
                    fx * fy,
                ];
                let (c00, c10, c01, c11) = (
                    t00.to_le_bytes(),
                    t10.to_le_bytes(),
                    t01.to_le_bytes(),
                    t11.to_le_bytes(),
                );
                let mut out = [0.0f32; 4];
                for ch in 0..4 {
                    let sum = wt[0] * u32::from(c00[ch])
                        + wt[1] * u32::from(c10[ch])
                        + wt[2] * u32::from(c01[ch])
                        + wt[3] * u32::from(c11[ch]);
                    out[ch] = sum as f32 * (1.0 / (255.0 * 65536.0));
                }
                out
            };
            op(dst, shade(texel, tint.light, tint.dark, tint.offset));
        }
    });
}
