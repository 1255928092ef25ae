//! Small numeric helpers shared by the runtime.
//!
//! The runtime stores keyed data as `f32` and computes in `f64`, which is what the reference
//! runtimes do; [`f32r`] is the single place where a value is rounded to storage precision.

/// Degrees to radians.
pub const DEG_RAD: f64 = std::f64::consts::PI / 180.0;
/// Radians to degrees.
pub const RAD_DEG: f64 = 180.0 / std::f64::consts::PI;

/// Rounds an `f64` to `f32` storage precision and back.
#[inline]
pub fn f32r(v: f64) -> f64 {
    v as f32 as f64
}

/// Cosine of an angle in degrees.
#[inline]
pub fn cos_deg(deg: f64) -> f64 {
    (deg * DEG_RAD).cos()
}

/// Sine of an angle in degrees.
#[inline]
pub fn sin_deg(deg: f64) -> f64 {
    (deg * DEG_RAD).sin()
}

/// `atan2` in degrees.
#[inline]
pub fn atan2_deg(y: f64, x: f64) -> f64 {
    y.atan2(x) * RAD_DEG
}

/// Wraps an angle in degrees into [-180, 180) the way Spine 3.8 does.
///
/// The runtime computes `r - (16384 - trunc(16384.499999999996 - r / 360)) * 360`; the odd
/// constant decides the result at exactly ±180 (it gives -180) and goldens depend on it.
#[inline]
pub fn wrap_degrees_38(r: f64) -> f64 {
    r - (16384.0 - (16384.499999999996 - r / 360.0).trunc()) * 360.0
}

/// Clamps `v` into `[lo, hi]` (NaN passes through).
#[inline]
pub fn clamp(v: f64, lo: f64, hi: f64) -> f64 {
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

/// Sign of `v` as -1, 0 or 1.
#[inline]
pub fn signum(v: f64) -> f64 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_38_keeps_range_and_edges() {
        assert_eq!(wrap_degrees_38(0.0), 0.0);
        assert_eq!(wrap_degrees_38(190.0), -170.0);
        assert_eq!(wrap_degrees_38(-190.0), 170.0);
        assert_eq!(wrap_degrees_38(180.0), -180.0);
        assert_eq!(wrap_degrees_38(-180.0), -180.0);
        assert_eq!(wrap_degrees_38(720.0 + 45.0), 45.0);
    }

    #[test]
    fn f32r_rounds() {
        assert_eq!(f32r(0.1), 0.10000000149011612);
    }
}
