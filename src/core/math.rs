//! Small numeric helpers shared by the runtime.
//!
//! The runtime stores keyed data as `f32` and computes in `f64`, which is what the reference
//! runtimes do; [`f32r`] is the single place where a value is rounded to storage precision.

/// Degrees to radians.
pub const DEG_RAD: f64 = std::f64::consts::PI / 180.0;
/// Radians to degrees.
pub const RAD_DEG: f64 = 180.0 / std::f64::consts::PI;

/// The Spine 4.x runtimes' pi: the rounded literal 3.1415927, not `PI` (their degree/radian
/// factors and physics angle wraps use it, and long rotations show the difference).
#[allow(clippy::approx_constant)]
pub const SPINE_PI: f64 = 3.1415927;

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
    // Most angles wrapped are differences well inside half a turn, where the formula gives
    // `r` back bit for bit: for |r| < 179 the truncated value lies strictly between 16384 and
    // 16385 (so it is 16384), and `r - 0.0` is `r`, -0.0 included. Skipping the division
    // there is exact; everything else (NaN too) takes the formula.
    if r.abs() < 179.0 {
        return r;
    }
    wrap_degrees_38_formula(r)
}

/// The Spine 3.8 wrap exactly as the runtime writes it (see [`wrap_degrees_38`]).
#[inline]
fn wrap_degrees_38_formula(r: f64) -> f64 {
    r - (16384.0 - trunc(16384.499999999996 - r / 360.0)) * 360.0
}

/// Exactly `v.trunc()`, but inline: on baseline x86-64 (no SSE4.1 `roundsd`) `f64::trunc` is a
/// library call, and wrapping angles is on every rotation's hot path. Below 2^52 in magnitude
/// the round trip through `i64` truncates (the sign is copied back so -0.5 gives -0.0); from
/// 2^52 on every `f64` is already an integer, and infinities and NaN pass through as `trunc`
/// passes them.
#[inline]
pub fn trunc(v: f64) -> f64 {
    const INTEGRAL: f64 = 4_503_599_627_370_496.0; // 2^52
    if v.abs() < INTEGRAL {
        (v as i64 as f64).copysign(v)
    } else {
        v
    }
}

/// Exactly `x % y` (IEEE `fmod`), returning `x` at once when `|x| < |y|`, where `fmod` gives
/// `x` itself (signed zeros included); `%` on `f64` is a library call. A positive `x` less
/// than 16 `y` (a looping track's time in its first loops) is reduced inline: subtracting
/// `y * 2^k` from a remainder in `[y * 2^k, y * 2^(k+1))` is exact (Sterbenz), so the
/// result is the exact remainder `fmod` gives.
#[inline]
pub fn rem(x: f64, y: f64) -> f64 {
    if x.abs() < y.abs() {
        return x;
    }
    if x >= 0.0 && y > 0.0 && x < y * 16.0 {
        let mut d = y;
        while d * 2.0 <= x {
            d *= 2.0;
        }
        let mut r = x;
        loop {
            if r >= d {
                r -= d;
            }
            if d == y {
                return r;
            }
            d *= 0.5;
        }
    }
    x % y
}

/// Exactly `v.ceil()`, inline (see [`trunc`]).
#[inline]
pub fn ceil(v: f64) -> f64 {
    let t = trunc(v);
    if t < v { t + 1.0 } else { t }
}

/// Exactly `v.floor()`, inline (see [`trunc`]).
#[inline]
pub fn floor(v: f64) -> f64 {
    let t = trunc(v);
    if t > v { t - 1.0 } else { t }
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
    fn wrap_38_shortcut_matches_the_formula_bit_for_bit() {
        let mut values = vec![0.0, -0.0, 1e-300, -1e-300, f64::MIN_POSITIVE];
        for base in [
            0.0, 90.0, 178.0, 179.0, 180.0, 181.0, 359.0, 360.0, 540.0, 720.0,
        ] {
            for sign in [1.0, -1.0] {
                let b: f64 = base * sign;
                values.push(b);
                // The neighbours of each edge, a few ulps either way.
                let (mut up, mut down) = (b, b);
                for _ in 0..4 {
                    up = f64::from_bits(if up >= 0.0 {
                        up.to_bits() + 1
                    } else {
                        up.to_bits() - 1
                    });
                    down = f64::from_bits(if down > 0.0 {
                        down.to_bits() - 1
                    } else {
                        down.to_bits() + 1
                    });
                    values.push(up);
                    values.push(down);
                }
            }
        }
        // A sweep through +-400 degrees in steps that are not round numbers.
        let mut r = -400.0;
        while r < 400.0 {
            values.push(r);
            r += 0.012_345_678_9;
        }
        for v in values {
            assert_eq!(
                wrap_degrees_38(v).to_bits(),
                wrap_degrees_38_formula(v).to_bits(),
                "{v:e}"
            );
        }
        assert!(wrap_degrees_38(f64::NAN).is_nan());
    }

    #[test]
    fn rem_matches_the_operator_bit_for_bit() {
        let xs = [
            0.0,
            -0.0,
            1.5,
            -1.5,
            359.999,
            -359.999,
            360.0,
            -360.0,
            725.25,
            -725.25,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        let ys = [360.0, -360.0, 0.5, 1e-300, 0.0, -0.0, f64::INFINITY, 1e300];
        // Quotients around the inline reduction's bound (16) and at its power-of-two steps.
        let mut xs = xs.to_vec();
        let mut q = 0.75;
        while q < 40.0 {
            for y in [0.3, 1.0 / 3.0, 2.5, 360.0, 5e-324, 1e-310] {
                let x: f64 = q * y;
                xs.extend([x, f64::from_bits(x.to_bits() + 1), -x]);
                if x > 0.0 {
                    xs.push(f64::from_bits(x.to_bits() - 1));
                }
            }
            q += 0.25;
        }
        let ys: Vec<f64> = ys
            .iter()
            .copied()
            .chain([0.3, 1.0 / 3.0, 2.5, 5e-324, 1e-310])
            .collect();
        for &x in &xs {
            for &y in &ys {
                let (a, b) = (rem(x, y), x % y);
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{x} % {y}"
                );
            }
        }
        assert!(rem(f64::NAN, 360.0).is_nan() && rem(1.0, f64::NAN).is_nan());
    }

    #[test]
    fn trunc_matches_std_bit_for_bit() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            0.999_999_999_999_999_9,
            -0.999_999_999_999_999_9,
            1.0,
            -1.0,
            1.5,
            -1.5,
            16384.499999999996,
            -16384.499999999996,
            4_503_599_627_370_495.5,
            -4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            9_007_199_254_740_993.0,
            1e300,
            -1e300,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
            f64::MAX,
            f64::MIN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        // A spread of magnitudes from 2^-30 to 2^70, both signs, off-integer and integer.
        let mut x = 1.0f64 / 1_073_741_824.0;
        while x < 1.2e21 {
            for v in [x, x * 1.37, x + 0.5, (x * 3.1).floor()] {
                values.push(v);
                values.push(-v);
            }
            x *= 1.9;
        }
        for v in values {
            assert_eq!(trunc(v).to_bits(), v.trunc().to_bits(), "{v:e}");
            assert_eq!(ceil(v).to_bits(), v.ceil().to_bits(), "ceil {v:e}");
            assert_eq!(floor(v).to_bits(), v.floor().to_bits(), "floor {v:e}");
        }
        assert!(ceil(f64::NAN).is_nan() && floor(f64::NAN).is_nan());
        assert!(trunc(f64::NAN).is_nan());
    }

    #[test]
    fn f32r_rounds() {
        assert_eq!(f32r(0.1), 0.10000000149011612);
    }
}
