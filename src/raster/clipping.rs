//! Clipping attachments as pixel masks.
//!
//! A pixel of a clipped slot is drawn when its centre is inside both a triangle and the clip
//! polygon; that is exactly what clipping the triangles against the polygon and covering the
//! pieces draws, without having to split concave polygons into convex parts.

/// Which pixel centres of a `width` x `height` image the polygon `points` (pixel
/// coordinates) covers, by the even-odd rule.
pub fn polygon_mask(width: usize, height: usize, points: &[(f64, f64)]) -> Vec<bool> {
    let mut mask = vec![false; width * height];
    if points.len() < 3 {
        return mask;
    }
    let mut xs: Vec<f64> = Vec::new();
    for y in 0..height {
        let cy = y as f64 + 0.5;
        xs.clear();
        for i in 0..points.len() {
            let (a, b) = (points[i], points[(i + 1) % points.len()]);
            // Half-open in y so a vertex on the scanline counts once.
            if (a.1 <= cy) != (b.1 <= cy) {
                xs.push(a.0 + (cy - a.1) / (b.1 - a.1) * (b.0 - a.0));
            }
        }
        xs.sort_by(f64::total_cmp);
        for pair in xs.chunks_exact(2) {
            let start = (pair[0] - 0.5).ceil().clamp(0.0, width as f64) as usize;
            let end = (pair[1] - 0.5).ceil().clamp(0.0, width as f64) as usize;
            mask[y * width + start..y * width + end.max(start)].fill(true);
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_a_concave_polygon() {
        // A U shape: the notch between the arms stays out.
        let u = [
            (0.0, 0.0),
            (2.0, 0.0),
            (2.0, 4.0),
            (4.0, 4.0),
            (4.0, 0.0),
            (6.0, 0.0),
            (6.0, 6.0),
            (0.0, 6.0),
        ];
        let m = polygon_mask(6, 6, &u);
        assert!(m[0] && m[1] && !m[2] && !m[3] && m[4] && m[5]);
        assert!(m[5 * 6 + 3]);
        assert_eq!(m.iter().filter(|&&b| b).count(), 36 - 8);
    }
}
