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
    let min_x = a.0.min(b.0).min(c.0);
    let max_x = a.0.max(b.0).max(c.0);
    let min_y = a.1.min(b.1).min(c.1);
    let max_y = a.1.max(b.1).max(c.1);
    let clampi = |v: f64, hi: usize| -> usize { v.clamp(0.0, hi as f64) as usize };
    let x_start = clampi((min_x - 0.5).ceil(), width);
    let x_end = clampi((max_x - 0.5).floor() + 1.0, width);
    let y_start = clampi((min_y - 0.5).ceil(), height);
    let y_end = clampi((max_y - 0.5).floor() + 1.0, height);
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(px.contains(&(0, 0)) && px.contains(&(3, 0)) && px.contains(&(0, 3)));
        assert!(!px.contains(&(3, 3)) && !px.contains(&(4, 0)));
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
