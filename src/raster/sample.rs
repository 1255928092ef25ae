//! Texture sampling: bilinear, clamped to the page edge, no mipmaps.

use crate::format::atlas::PageImage;

/// The premultiplied colour (0..1 channels) of `page` at normalised `(u, v)` (v down), with
/// texel centres at half-integers.
pub fn bilinear(page: &PageImage, u: f64, v: f64) -> [f32; 4] {
    let (w, h) = (page.width as usize, page.height as usize);
    if w == 0 || h == 0 || !u.is_finite() || !v.is_finite() {
        return [0.0; 4];
    }
    let x = (u * w as f64 - 0.5).clamp(0.0, (w - 1) as f64);
    let y = (v * h as f64 - 0.5).clamp(0.0, (h - 1) as f64);
    let (x0, y0) = (x.floor() as usize, y.floor() as usize);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = ((x - x0 as f64) as f32, (y - y0 as f64) as f32);
    let px = |x: usize, y: usize| {
        let i = (y * w + x) * 4;
        &page.rgba[i..i + 4]
    };
    let (a, b, c, d) = (px(x0, y0), px(x1, y0), px(x0, y1), px(x1, y1));
    let mut out = [0.0f32; 4];
    for k in 0..4 {
        let top = f32::from(a[k]) * (1.0 - fx) + f32::from(b[k]) * fx;
        let bottom = f32::from(c[k]) * (1.0 - fx) + f32::from(d[k]) * fx;
        out[k] = (top * (1.0 - fy) + bottom * fy) / 255.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolates_between_texel_centres_and_clamps() {
        let page = PageImage {
            width: 2,
            height: 1,
            rgba: vec![0, 0, 0, 255, 255, 255, 255, 255],
        };
        assert_eq!(bilinear(&page, 0.25, 0.5)[0], 0.0);
        assert_eq!(bilinear(&page, 0.5, 0.5)[0], 0.5);
        assert_eq!(bilinear(&page, 0.75, 0.5)[0], 1.0);
        assert_eq!(bilinear(&page, -3.0, 9.0)[0], 0.0);
        assert_eq!(bilinear(&page, 3.0, 0.5)[3], 1.0);
    }
}
