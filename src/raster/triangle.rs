//! Triangle coverage: a pixel is drawn when its centre is inside the triangle (no
//! antialiasing). Centres exactly on an edge belong to top and left edges only, so triangles
//! sharing an edge never draw a pixel twice.

/// Calls `f(x, y, [w0, w1, w2])` for every pixel of a `width` x `height` image whose centre
/// the triangle `p` (pixel coordinates) covers, with the centre's barycentric weights.
pub fn cover(
    width: usize,
    height: usize,
    p: [(f64, f64); 3],
    mut f: impl FnMut(usize, usize, [f64; 3]),
) {
    let [a, b, c] = p;
    let area = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    if area == 0.0 || !area.is_finite() {
        return;
    }
    // Orient counter-clockwise in pixel space (y down) so inside is positive.
    let (b, c, swap) = if area < 0.0 {
        (c, b, true)
    } else {
        (b, c, false)
    };
    let area = area.abs();
    let (x_start, x_end, y_start, y_end) = pixel_bounds(width, height, [a, b, c]);
    // Edge function of (p, q) at r; positive inside.
    let edge = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    // Top-left rule for y-down, counter-clockwise-positive orientation.
    let owns = |p: (f64, f64), q: (f64, f64)| {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        (dy == 0.0 && dx > 0.0) || dy < 0.0
    };
    let (o0, o1, o2) = (owns(b, c), owns(c, a), owns(a, b));
    for y in y_start..y_end {
        let cy = y as f64 + 0.5;
        for x in x_start..x_end {
            let r = (x as f64 + 0.5, cy);
            let w0 = edge(b, c, r);
            let w1 = edge(c, a, r);
            let w2 = edge(a, b, r);
            let inside = |w: f64, own: bool| w > 0.0 || (w == 0.0 && own);
            if inside(w0, o0) && inside(w1, o1) && inside(w2, o2) {
                let (w0, w1, w2) = (w0 / area, w1 / area, w2 / area);
                f(x, y, if swap { [w0, w2, w1] } else { [w0, w1, w2] });
            }
        }
    }
}

/// `v` as a pixel index in `0..=hi` (NaN gives 0).
fn clamp_index(v: f64, hi: usize) -> usize {
    v.clamp(0.0, hi as f64) as usize
}

/// The pixels (`x_start..x_end`, `y_start..y_end`, clamped to the image) whose centres the
/// triangle's bounding box holds.
fn pixel_bounds(width: usize, height: usize, p: [(f64, f64); 3]) -> (usize, usize, usize, usize) {
    let [a, b, c] = p;
    let (min_x, max_x) = (a.0.min(b.0).min(c.0), a.0.max(b.0).max(c.0));
    let (min_y, max_y) = (a.1.min(b.1).min(c.1), a.1.max(b.1).max(c.1));
    (
        clamp_index((min_x - 0.5).ceil(), width),
        clamp_index((max_x - 0.5).floor() + 1.0, width),
        clamp_index((min_y - 0.5).ceil(), height),
        clamp_index((max_y - 0.5).floor() + 1.0, height),
    )
}

/// The rows of pixels whose centres the triangle `p` covers, as `f(y, x_start, x_end)` with
/// `x_end` excluded: the same pixels as [`cover`], found per row from the edges' crossings
/// (refined with the exact edge test at the span's ends) instead of testing every pixel of
/// the bounding box.
pub fn spans(
    width: usize,
    height: usize,
    p: [(f64, f64); 3],
    mut f: impl FnMut(usize, usize, usize),
) {
    let [a, b, c] = p;
    let area = (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    if area == 0.0 || !area.is_finite() {
        return;
    }
    let (b, c) = if area < 0.0 { (c, b) } else { (b, c) };
    let (x_start, x_end, y_start, y_end) = pixel_bounds(width, height, [a, b, c]);
    if x_start >= x_end {
        return;
    }
    let edge = |p: (f64, f64), q: (f64, f64), r: (f64, f64)| {
        (q.0 - p.0) * (r.1 - p.1) - (q.1 - p.1) * (r.0 - p.0)
    };
    let owns = |p: (f64, f64), q: (f64, f64)| {
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        (dy == 0.0 && dx > 0.0) || dy < 0.0
    };
    let edges = [(b, c, owns(b, c)), (c, a, owns(c, a)), (a, b, owns(a, b))];
    for y in y_start..y_end {
        let cy = y as f64 + 0.5;
        // The exact test of `cover`, used only at the ends of the estimated span.
        let inside = |x: usize| {
            let r = (x as f64 + 0.5, cy);
            edges.iter().all(|&(p, q, own)| {
                let w = edge(p, q, r);
                w > 0.0 || (w == 0.0 && own)
            })
        };
        // Estimate: each edge bounds x on one side where it crosses the row.
        let (mut lo, mut hi) = (x_start as f64, x_end as f64);
        for &(p, q, _) in &edges {
            let slope = p.1 - q.1; // d edge / d x
            if slope == 0.0 {
                continue;
            }
            let cross = p.0 + (q.0 - p.0) * (cy - p.1) / (q.1 - p.1) - 0.5;
            if slope > 0.0 {
                lo = lo.max(cross.ceil());
            } else {
                hi = hi.min(cross.ceil());
            }
        }
        // Refine within one pixel of the estimate (f64::max/min ignore a NaN estimate).
        let lo = clamp_index(lo - 1.0, x_end).max(x_start);
        let hi = clamp_index(hi + 1.0, x_end).max(lo);
        let mut s = lo;
        while s < hi && !inside(s) {
            s += 1;
        }
        let mut e = hi;
        while e > s && !inside(e - 1) {
            e -= 1;
        }
        if s < e {
            f(y, s, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span_pixels(w: usize, h: usize, p: [(f64, f64); 3]) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        spans(w, h, p, |y, s, e| v.extend((s..e).map(|x| (x, y))));
        v
    }

    #[test]
    fn spans_cover_the_same_pixels_as_the_per_pixel_test() {
        // A small deterministic generator: coordinates on a fine grid (many exact ties with
        // pixel centres), and off it, partly outside the image.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |scale: f64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % 10_000) as f64 / 10_000.0 * scale - scale * 0.2
        };
        for i in 0..4000 {
            let grid = i % 3 == 0;
            let mut pt = || {
                let (x, y) = (next(40.0), next(30.0));
                if grid {
                    ((x * 2.0).round() / 2.0, (y * 4.0).round() / 4.0)
                } else {
                    (x, y)
                }
            };
            let p = [pt(), pt(), pt()];
            let mut expected = Vec::new();
            cover(32, 24, p, |x, y, _| expected.push((x, y)));
            assert_eq!(span_pixels(32, 24, p), expected, "{p:?}");
        }
        // Thin slivers and nearly horizontal edges.
        for p in [
            [(0.6, 0.0), (0.9, 0.0), (0.75, 8.0)],
            [(0.0, 3.5), (31.0, 3.5000001), (15.0, 3.6)],
            [(-1e9, 0.0), (1e9, 1.0), (0.0, 20.0)],
        ] {
            let mut expected = Vec::new();
            cover(32, 24, p, |x, y, _| expected.push((x, y)));
            assert_eq!(span_pixels(32, 24, p), expected, "{p:?}");
        }
    }

    fn count(p: [(f64, f64); 3]) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        cover(8, 8, p, |x, y, _| v.push((x, y)));
        v
    }

    #[test]
    fn covers_pixel_centres_only() {
        // A right triangle over [0,4]x[0,4]: centres with x + y < 4 strictly, plus the owned
        // diagonal ties.
        let px = count([(0.0, 0.0), (4.0, 0.0), (0.0, 4.0)]);
        assert!(px.contains(&(0, 0)) && px.contains(&(2, 0)) && px.contains(&(0, 2)));
        assert!(!px.contains(&(3, 3)) && !px.contains(&(4, 0)) && !px.contains(&(2, 2)));
        // 6 centres strictly inside, and the 4 on the diagonal belong to one side only.
        assert!(px.len() == 6 || px.len() == 10, "{}", px.len());
        // A sliver between centres covers nothing.
        assert!(count([(0.6, 0.0), (0.9, 0.0), (0.75, 8.0)]).is_empty());
    }

    #[test]
    fn shared_edges_draw_each_pixel_once() {
        let a = count([(0.0, 0.0), (8.0, 0.0), (8.0, 8.0)]);
        let b = count([(0.0, 0.0), (8.0, 8.0), (0.0, 8.0)]);
        let mut all: Vec<_> = a.iter().chain(&b).copied().collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!((n, all.len()), (64, 64));
    }

    #[test]
    fn weights_interpolate_the_corners() {
        let mut seen = None;
        cover(8, 8, [(0.0, 0.0), (8.0, 0.0), (0.0, 8.0)], |x, y, w| {
            if (x, y) == (0, 0) {
                seen = Some(w);
            }
        });
        let w = seen.unwrap();
        assert!((w[0] - 0.875).abs() < 1e-12 && (w[1] - 0.0625).abs() < 1e-12);
    }
}
