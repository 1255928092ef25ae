//! Thin anti-aliased lines (and round dots) over the premultiplied frame: the outlines of
//! attachments drawn without a texture, and bones.
//!
//! A pixel's coverage is `clamp(half + 0.5 - d, 0, 1)` for the distance `d` from its centre to
//! the segment, so a line with `half` 0.5 lays one pixel's worth of colour across its width,
//! spread over the two pixels it passes between; the ends are round. Only the pixels within
//! reach of the segment are visited (one column or row of a few pixels per step along its
//! longer axis), so a line costs its length, whatever its slope.

use super::blend::blend;
use super::fill::Target;
use crate::core::model::BlendMode;

/// Draws the segment `a`-`b` (pixel coordinates) `half` pixels either side of its centre
/// line in the straight colour `rgba` (alpha included), blended normally under the target's
/// clip mask. A segment whose ends are equal is a dot of radius `half + 0.5`. Segments with a
/// non-finite coordinate are not drawn.
pub fn line(target: &mut Target<'_>, a: (f64, f64), b: (f64, f64), half: f64, rgba: [f32; 4]) {
    if ![a.0, a.1, b.0, b.1, half].iter().all(|v| v.is_finite()) || rgba[3] <= 0.0 {
        return;
    }
    let half = half.clamp(0.0, 16.0);
    let reach = half + 0.5;
    // Only the part within reach of the image matters; cutting the rest off also keeps the
    // distances below exact for segments that reach far out.
    let margin = reach + 1.0;
    let (w, h) = (target.width as f64, target.height as f64);
    let Some((a, b)) = clip_segment(a, b, (-margin, -margin), (w + margin, h + margin)) else {
        return;
    };
    // Walk the longer axis ("major"); `swap` when that is y.
    let swap = (b.1 - a.1).abs() > (b.0 - a.0).abs();
    let (mut p, mut q) = if swap {
        ((a.1, a.0), (b.1, b.0))
    } else {
        (a, b)
    };
    if p.0 > q.0 {
        std::mem::swap(&mut p, &mut q);
    }
    let (major_len, minor_len) = if swap {
        (target.height, target.width)
    } else {
        (target.width, target.height)
    };
    let index = |v: f64, len: usize| v.clamp(0.0, len as f64) as usize;
    let start = index((p.0 - reach).floor(), major_len);
    let end = index((q.0 + reach).ceil(), major_len);
    // How far from the centre line's crossing a covered pixel can be along the minor axis
    // (the slope is at most 1): reach * sqrt(2), and half a pixel for the centres.
    let spread = reach * std::f64::consts::SQRT_2 + 0.5;
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let len2 = dx * dx + dy * dy;
    let straight = [rgba[0], rgba[1], rgba[2]];
    for i in start..end {
        let c = i as f64 + 0.5;
        let m = if dx > 0.0 {
            p.1 + dy * ((c.clamp(p.0, q.0) - p.0) / dx)
        } else {
            p.1
        };
        let lo = index((m - spread).floor(), minor_len);
        let hi = index((m + spread).ceil(), minor_len);
        for j in lo..hi {
            let r = (c, j as f64 + 0.5);
            // Distance from the pixel centre to the segment.
            let t = if len2 > 0.0 {
                (((r.0 - p.0) * dx + (r.1 - p.1) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (ex, ey) = (p.0 + dx * t - r.0, p.1 + dy * t - r.1);
            let coverage = (reach - (ex * ex + ey * ey).sqrt()).clamp(0.0, 1.0) as f32;
            if coverage <= 0.0 {
                continue;
            }
            let (x, y) = if swap { (j, i) } else { (i, j) };
            let k = y * target.width + x;
            if target
                .mask
                .is_some_and(|m| !m.get(k).copied().unwrap_or(false))
            {
                continue;
            }
            let Some(dst) = target.pixels.get_mut(k) else {
                continue;
            };
            let alpha = rgba[3] * coverage;
            blend(
                dst,
                [
                    straight[0] * alpha,
                    straight[1] * alpha,
                    straight[2] * alpha,
                    alpha,
                ],
                BlendMode::Normal,
            );
        }
    }
}

/// The part of the segment `a`-`b` inside the rectangle `lo`-`hi` (Liang-Barsky), if any.
fn clip_segment(
    a: (f64, f64),
    b: (f64, f64),
    lo: (f64, f64),
    hi: (f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - lo.0),
        (dx, hi.0 - a.0),
        (-dy, a.1 - lo.1),
        (dy, hi.1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    if t0 > t1 {
        return None;
    }
    let at = |t: f64| (a.0 + dx * t, a.1 + dy * t);
    // Ends inside stay exactly where they were.
    Some((
        if t0 > 0.0 { at(t0) } else { a },
        if t1 < 1.0 { at(t1) } else { b },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: [f32; 4] = [1.0; 4];

    fn canvas(w: usize, h: usize) -> Vec<[f32; 4]> {
        vec![[0.0, 0.0, 0.0, 1.0]; w * h]
    }

    fn draw(
        px: &mut [[f32; 4]],
        w: usize,
        h: usize,
        mask: Option<&[bool]>,
        a: (f64, f64),
        b: (f64, f64),
    ) {
        let mut t = Target {
            pixels: px,
            width: w,
            height: h,
            mask,
        };
        line(&mut t, a, b, 0.5, WHITE);
    }

    /// The sum of red over the pixels: the colour the line laid down.
    fn ink(px: &[[f32; 4]]) -> f32 {
        px.iter().map(|p| p[0]).sum()
    }

    #[test]
    fn a_line_between_pixel_centres_is_one_pixel_wide() {
        let (w, h) = (16, 8);
        let mut px = canvas(w, h);
        draw(&mut px, w, h, None, (2.5, 3.5), (12.5, 3.5));
        for x in 2..=12 {
            assert_eq!(px[3 * w + x][0], 1.0, "x {x}");
            assert_eq!(px[2 * w + x][0], 0.0);
            assert_eq!(px[4 * w + x][0], 0.0);
        }
        // Round ends: half a pixel past each end centre, nothing further.
        assert_eq!(px[3 * w + 1][0], 0.0);
        assert_eq!(px[3 * w + 13][0], 0.0);
        assert!((ink(&px) - 11.0).abs() < 1e-4, "{}", ink(&px));
    }

    #[test]
    fn a_line_between_rows_spreads_over_both_and_keeps_its_weight() {
        let (w, h) = (32, 32);
        let mut px = canvas(w, h);
        // A diagonal (either way round) and a steep line: about one pixel of ink per
        // pixel of length, the ends adding a little.
        for (a, b) in [
            ((4.0, 4.0), (24.0, 24.0)),
            ((24.0, 24.0), (4.0, 4.0)),
            ((10.2, 2.0), (14.7, 29.0)),
        ] {
            px.fill([0.0, 0.0, 0.0, 1.0]);
            draw(&mut px, w, h, None, a, b);
            let len = ((b.0 - a.0) as f32).hypot((b.1 - a.1) as f32);
            let total = ink(&px);
            // (The sum wavers with where the line crosses the pixel grid: up to an eighth
            // more along a diagonal through pixel corners.)
            assert!(
                total > len * 0.9 && total < len * 1.2 + 2.0,
                "{a:?}-{b:?}: {total} for {len}"
            );
            assert!(px.iter().all(|p| p[0] <= 1.0 && p[3] == 1.0));
        }
    }

    #[test]
    fn masks_clip_and_nothing_strays_out_of_the_image() {
        let (w, h) = (8, 8);
        let mut px = canvas(w, h);
        let mask: Vec<bool> = (0..w * h).map(|i| i % w < 4).collect();
        draw(&mut px, w, h, Some(&mask), (0.5, 4.5), (7.5, 4.5));
        assert_eq!(px[4 * w + 2][0], 1.0);
        assert_eq!(px[4 * w + 6][0], 0.0, "masked out");
        // Far outside, huge, or not finite: no panic, and what is inside is drawn.
        let mut px = canvas(w, h);
        draw(&mut px, w, h, None, (-1e12, 4.5), (1e12, 4.5));
        assert_eq!(px[4 * w + 3][0], 1.0);
        draw(&mut px, w, h, None, (f64::NAN, 0.0), (3.0, 3.0));
        draw(&mut px, w, h, None, (-50.0, -50.0), (-40.0, -45.0));
        assert_eq!(px.iter().filter(|p| p[0] > 0.0).count(), w);
    }

    #[test]
    fn equal_ends_make_a_round_dot() {
        let (w, h) = (9, 9);
        let mut px = canvas(w, h);
        let mut t = Target {
            pixels: &mut px,
            width: w,
            height: h,
            mask: None,
        };
        line(&mut t, (4.5, 4.5), (4.5, 4.5), 1.5, [1.0, 0.0, 0.0, 0.5]);
        let at = |x: usize, y: usize| px[y * w + x];
        assert_eq!(at(4, 4), [0.5, 0.0, 0.0, 1.0], "half red over black");
        assert_eq!(at(5, 4), at(4, 5));
        assert_eq!(at(0, 0)[0], 0.0);
        assert_eq!(at(7, 4)[0], 0.0, "radius 2: three pixels away is outside");
    }
}
