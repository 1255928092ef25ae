//! Recovers the control points of a bezier from the table the model keeps.
//!
//! The model stores every bezier as the runtimes do, sampled at nine even parameter steps
//! (`s = 0.1 .. 0.9`), not its control points. A cubic with known end points is linear in its
//! two inner control points, so each coordinate is solved by least squares over the nine
//! samples, then refined float step by float step until the table they make is the stored
//! one bit for bit (the points were `f32`s in the file), so the reloaded curve is the same.

use crate::core::curve::{BEZIER_SAMPLES, bezier_table, bezier4_table, percent_bezier4_table};

/// How a table is made from a pair of inner control points of one coordinate.
#[derive(Clone, Copy)]
pub enum Kind {
    /// 4.x: absolute (time, value) from (`p0`) to (`p3`).
    Absolute,
    /// 4.x deform: time absolute, value the percent 0..1.
    Percent,
    /// 3.8: both normalised 0..1.
    Normalised,
}

/// The inner control points of one coordinate from its samples, given the end points.
fn solve(samples: impl Iterator<Item = f64>, p0: f64, p3: f64) -> (f64, f64) {
    let (mut bb, mut bc, mut cc, mut br, mut cr) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, x) in samples.enumerate() {
        let s = (i + 1) as f64 / 10.0;
        let u = 1.0 - s;
        let (a, b, c, d) = (u * u * u, 3.0 * u * u * s, 3.0 * u * s * s, s * s * s);
        let r = x - a * p0 - d * p3;
        bb += b * b;
        bc += b * c;
        cc += c * c;
        br += b * r;
        cr += c * r;
    }
    let det = bb * cc - bc * bc;
    ((br * cc - cr * bc) / det, (bb * cr - bc * br) / det)
}

/// One coordinate (`y`: 1, else 0) of the table `kind` makes from the points `c1`, `c2`.
fn coordinate(kind: Kind, y: bool, p0: f64, p3: f64, c1: f32, c2: f32) -> [f32; BEZIER_SAMPLES] {
    let (c1, c2) = (as_read(c1), as_read(c2));
    let t = match (kind, y) {
        (Kind::Normalised, false) => bezier_table(c1, 0.0, c2, 0.0),
        (Kind::Normalised, true) => bezier_table(0.0, c1, 0.0, c2),
        (Kind::Percent, true) => percent_bezier4_table(0.0, 0.0, c1, 0.0, c2, 1.0),
        (_, false) => bezier4_table(p0, 0.0, c1, 0.0, c2, 0.0, p3, 0.0),
        (Kind::Absolute, true) => bezier4_table(0.0, p0, 0.0, c1, 0.0, c2, 1.0, p3),
    };
    std::array::from_fn(|i| t[i * 2 + usize::from(y)])
}

/// The `f64` a JSON reader gets for `v` (written as the `f64` of the `f32`, see
/// [`super::json::Json::f64`]).
fn as_read(v: f32) -> f64 {
    v as f64
}

/// Steps `f32` ulps.
fn step(v: f32, n: i32) -> f32 {
    if v == 0.0 && n != 0 {
        let tiny = f32::from_bits(n.unsigned_abs());
        return if n > 0 { tiny } else { -tiny };
    }
    let bits = v.to_bits() as i64 + if v < 0.0 { -(n as i64) } else { n as i64 };
    u32::try_from(bits).map_or(v, f32::from_bits)
}

/// The points `(c1, c2)` of one coordinate: least squares, then the nearest `f32`s that
/// reproduce `target` exactly (or as nearly as a bounded search finds).
fn points(kind: Kind, y: bool, p0: f64, p3: f64, target: &[f32; BEZIER_SAMPLES]) -> (f32, f32) {
    let (c1, c2) = solve(target.iter().map(|&v| v as f64), p0, p3);
    let miss = |a: f32, b: f32| -> f64 {
        let t = coordinate(kind, y, p0, p3, a, b);
        t.iter()
            .zip(target)
            .map(|(&x, &y)| (x as f64 - y as f64).abs())
            .sum()
    };
    let mut best = (c1 as f32, c2 as f32);
    let mut err = miss(best.0, best.1);
    for _ in 0..400 {
        if err == 0.0 {
            break;
        }
        let mut improved = false;
        for n in [1, -1, 4, -4, 16, -16, 64, -64, 256, -256] {
            for which in 0..2 {
                let cand = if which == 0 {
                    (step(best.0, n), best.1)
                } else {
                    (best.0, step(best.1, n))
                };
                let e = miss(cand.0, cand.1);
                if e < err {
                    (best, err, improved) = (cand, e, true);
                }
            }
        }
        if !improved {
            break;
        }
    }
    best
}

/// `[cx1, cy1, cx2, cy2]` of the curve from (`t1`, `v1`) to (`t2`, `v2`) sampled in `table`
/// (for [`Kind::Percent`] `v1`, `v2` are ignored; for [`Kind::Normalised`] all four).
pub fn control_points(
    table: &[f32; BEZIER_SAMPLES * 2],
    kind: Kind,
    t1: f64,
    v1: f64,
    t2: f64,
    v2: f64,
) -> [f32; 4] {
    let xs: [f32; BEZIER_SAMPLES] = std::array::from_fn(|i| table[i * 2]);
    let ys: [f32; BEZIER_SAMPLES] = std::array::from_fn(|i| table[i * 2 + 1]);
    let ((t1, t2), (v1, v2)) = match kind {
        Kind::Absolute => ((t1, t2), (v1, v2)),
        Kind::Percent => ((t1, t2), (0.0, 1.0)),
        Kind::Normalised => ((0.0, 1.0), (0.0, 1.0)),
    };
    let (cx1, cx2) = points(kind, false, t1, t2, &xs);
    let (cy1, cy2) = points(kind, true, v1, v2, &ys);
    [cx1, cy1, cx2, cy2]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_what_made_the_table() {
        let f = |v: f32| v as f64;
        let (t1, v1, t2, v2) = (8.7f32, 410.37f32, 9.5333f32, 388.1f32);
        let cp = [8.93f32, 400.12, 9.2, 391.5];
        let r = |v: f32| as_read(v);
        let t = bezier4_table(
            f(t1),
            f(v1),
            r(cp[0]),
            r(cp[1]),
            r(cp[2]),
            r(cp[3]),
            f(t2),
            f(v2),
        );
        let p = control_points(&t, Kind::Absolute, f(t1), f(v1), f(t2), f(v2));
        let back = bezier4_table(
            f(t1),
            f(v1),
            r(p[0]),
            r(p[1]),
            r(p[2]),
            r(p[3]),
            f(t2),
            f(v2),
        );
        assert_eq!(back, t, "{p:?}");
        let t = bezier_table(0.25, f(0.1), 0.75, f(0.9));
        let p = control_points(&t, Kind::Normalised, 0.0, 0.0, 1.0, 1.0);
        // Several f32 points can make the same table: the table is what must come back.
        assert_eq!(bezier_table(r(p[0]), r(p[1]), r(p[2]), r(p[3])), t, "{p:?}");
        let t = percent_bezier4_table(2.0, f(2.1), f(0.2), f(2.4), f(0.8), 2.5);
        let p = control_points(&t, Kind::Percent, 2.0, 0.0, 2.5, 1.0);
        let back = percent_bezier4_table(2.0, r(p[0]), r(p[1]), r(p[2]), r(p[3]), 2.5);
        assert_eq!(back, t, "{p:?}");
    }
}
