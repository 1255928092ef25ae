//! DragonBones transforms (y-down, degrees clockwise) and their core (y-up) equivalents.

use std::f64::consts::PI;

use super::dto;

/// `-v` for the y-down to y-up flip, without turning 0 into -0 (which would print as "-0").
pub fn flip(v: f64) -> f64 {
    0.0 - v
}

/// `r` in (-pi, pi], the runtime's `normalizeRadian`.
pub fn normalize(r: f64) -> f64 {
    let r = (r + PI) % (2.0 * PI);
    if r > 0.0 { r - PI } else { r + PI }
}

/// A parsed transform in DragonBones terms: rotation = skY and skew = skX - skY (radians,
/// each normalised first, as the runtime stores them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DbTransform {
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub skew: f64,
    pub scale_x: f64,
    pub scale_y: f64,
}

impl DbTransform {
    pub fn parse(t: &dto::Transform) -> DbTransform {
        let rotation = normalize(t.sk_y.or(0.0).to_radians());
        DbTransform {
            x: t.x.or(0.0),
            y: t.y.or(0.0),
            rotation,
            skew: normalize(t.sk_x.or(0.0).to_radians()) - rotation,
            scale_x: t.sc_x.or(1.0),
            scale_y: t.sc_y.or(1.0),
        }
    }

    /// The matrix `[a, b, c, d, tx, ty]` with `x' = a x + c y + tx`, `y' = b x + d y + ty`.
    pub fn matrix(&self) -> Matrix {
        let (sr, cr) = self.rotation.sin_cos();
        let (ss, cs) = (self.rotation + self.skew).sin_cos();
        Matrix([
            cr * self.scale_x,
            sr * self.scale_x,
            -ss * self.scale_y,
            cs * self.scale_y,
            self.x,
            self.y,
        ])
    }

    /// Core rotation (degrees, y-up).
    pub fn core_rotation(&self) -> f64 {
        flip(self.rotation.to_degrees())
    }

    /// Core shear of the y axis (degrees, y-up).
    pub fn core_shear_y(&self) -> f64 {
        flip(self.skew.to_degrees())
    }
}

/// A DragonBones 2D affine matrix (see [`DbTransform::matrix`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Matrix(pub [f64; 6]);

impl Matrix {
    pub const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// From six numbers, if there are six.
    pub fn from_slice(v: &[f64]) -> Option<Matrix> {
        Some(Matrix(v.get(..6)?.try_into().ok()?))
    }

    pub fn apply(&self, x: f64, y: f64) -> (f64, f64) {
        let [a, b, c, d, tx, ty] = self.0;
        (a * x + c * y + tx, b * x + d * y + ty)
    }

    /// The linear part only (for offsets).
    pub fn apply_delta(&self, x: f64, y: f64) -> (f64, f64) {
        let [a, b, c, d, ..] = self.0;
        (a * x + c * y, b * x + d * y)
    }

    /// The inverse, or `None` for a singular matrix.
    pub fn invert(&self) -> Option<Matrix> {
        let [a, b, c, d, tx, ty] = self.0;
        let det = a * d - b * c;
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det);
        Some(Matrix([
            ia,
            ib,
            ic,
            id,
            -(ia * tx + ic * ty),
            -(ib * tx + id * ty),
        ]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_into_half_open_range() {
        assert!((normalize(3.0 * PI) - PI).abs() < 1e-12);
        assert!((normalize(-PI) - PI).abs() < 1e-12);
        assert!((normalize(0.5) - 0.5).abs() < 1e-12);
        assert!((normalize(-3.5 * PI) - 0.5 * PI).abs() < 1e-12);
    }

    #[test]
    fn inverse_undoes_the_matrix() {
        let m = DbTransform {
            x: 3.0,
            y: -2.0,
            rotation: 0.7,
            skew: 0.2,
            scale_x: 1.5,
            scale_y: -0.5,
        }
        .matrix();
        let inv = m.invert().unwrap();
        let (x, y) = m.apply(4.0, 5.0);
        let (bx, by) = inv.apply(x, y);
        assert!((bx - 4.0).abs() < 1e-9 && (by - 5.0).abs() < 1e-9);
    }
}
