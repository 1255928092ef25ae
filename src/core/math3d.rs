//! Small 3D helpers for joints with a 3D pose: vectors as `[x, y, z]`, quaternions as
//! `[x, y, z, w]` (Unity's component order). Frames follow Unity: x right, y up, z forward
//! (left-handed). Pure math, no allocation.

/// A 3D vector.
pub type Vec3 = [f64; 3];
/// A rotation quaternion `[x, y, z, w]`; not necessarily of unit length.
pub type Quat = [f64; 4];

/// The identity rotation.
pub const IDENTITY: Quat = [0.0, 0.0, 0.0, 1.0];

/// Magnitudes at or below this count as zero (Unity's `Vector3.Normalize` threshold).
const TINY: f64 = 1e-5;

/// `a · b`.
pub fn dot3(a: Vec3, b: Vec3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The length of `v`.
pub fn length3(v: Vec3) -> f64 {
    dot3(v, v).sqrt()
}

/// `v` scaled to unit length; zero when it is (nearly) zero or not finite, as Unity's
/// `Ray` does with a gaze direction.
pub fn normalize3(v: Vec3) -> Vec3 {
    let m = length3(v);
    if m > TINY && m.is_finite() {
        v.map(|c| c / m)
    } else {
        [0.0; 3]
    }
}

/// `a + b * s`.
pub fn add_scaled3(a: Vec3, b: Vec3, s: f64) -> Vec3 {
    [a[0] + b[0] * s, a[1] + b[1] * s, a[2] + b[2] * s]
}

/// The four-component dot product of two quaternions.
pub fn dot4(a: Quat, b: Quat) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// `q` at unit length; the identity when `q` is zero or not finite (an unkeyed MRTK rotation
/// evaluates to all zeros).
pub fn normalize_quat(q: Quat) -> Quat {
    let m = dot4(q, q).sqrt();
    if m > 1e-12 && m.is_finite() {
        q.map(|c| c / m)
    } else {
        IDENTITY
    }
}

/// The Hamilton product `a * b` (rotate by `b`, then by `a`).
pub fn mul_quat(a: Quat, b: Quat) -> Quat {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The inverse rotation of a unit quaternion.
pub fn conjugate(q: Quat) -> Quat {
    [-q[0], -q[1], -q[2], q[3]]
}

/// `v` rotated by `q` (normalised first, so raw interpolated quaternions rotate without
/// scaling).
pub fn rotate(q: Quat, v: Vec3) -> Vec3 {
    let [x, y, z, w] = normalize_quat(q);
    // v + 2w(u × v) + 2u × (u × v), u = (x, y, z).
    let u = [x, y, z];
    let t = cross(u, v).map(|c| 2.0 * c);
    let ut = cross(u, t);
    [
        v[0] + w * t[0] + ut[0],
        v[1] + w * t[1] + ut[1],
        v[2] + w * t[2] + ut[2],
    ]
}

/// `a × b` (the usual formula; in Unity's left-handed frame it follows the left-hand rule).
pub fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Interpolation from `from` toward `to` by `alpha`: both normalised, `from` taken on the
/// same hemisphere as `to` (q and -q are the same rotation) so the blend goes the short
/// way, then lerped component-wise (a normalised lerp once normalised). `alpha == 1` gives
/// `to` exactly, unnormalised as it is.
pub fn nlerp_toward(from: Quat, to: Quat, alpha: f64) -> Quat {
    if alpha == 1.0 {
        return to;
    }
    let (from, to) = (normalize_quat(from), normalize_quat(to));
    let from = if dot4(from, to) < 0.0 {
        from.map(|c| -c)
    } else {
        from
    };
    [
        from[0] + (to[0] - from[0]) * alpha,
        from[1] + (to[1] - from[1]) * alpha,
        from[2] + (to[2] - from[2]) * alpha,
        from[3] + (to[3] - from[3]) * alpha,
    ]
}

/// Unity's Euler angles of a rotation, in degrees `[x, y, z]` each in [0, 360): the rotation
/// is z first, then x, then y (Unity's `Quaternion.eulerAngles` convention).
pub fn euler_degrees(q: Quat) -> Vec3 {
    let [x, y, z, w] = normalize_quat(q);
    // Rotation matrix terms of R = Ry * Rx * Rz.
    let m12 = 2.0 * (y * z - w * x);
    let sin_x = (-m12).clamp(-1.0, 1.0);
    let ex = sin_x.asin();
    let (ey, ez) = if sin_x.abs() < 0.999_999 {
        let m02 = 2.0 * (x * z + w * y);
        let m22 = 1.0 - 2.0 * (x * x + y * y);
        let m10 = 2.0 * (x * y + w * z);
        let m11 = 1.0 - 2.0 * (x * x + z * z);
        (m02.atan2(m22), m10.atan2(m11))
    } else {
        // Gimbal lock (looking straight up or down): no z turn, all of it in y.
        let m20 = 2.0 * (x * z - w * y);
        let m00 = 1.0 - 2.0 * (y * y + z * z);
        ((-m20).atan2(m00), 0.0)
    };
    [ex, ey, ez].map(|r| {
        let d = r.to_degrees().rem_euclid(360.0);
        // rem_euclid can round up to exactly 360
        // (and -0.0 prints as "-0"): both become 0.
        if d >= 360.0 { 0.0 } else { d + 0.0 }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis_angle(axis: Vec3, degrees: f64) -> Quat {
        let h = degrees.to_radians() / 2.0;
        let a = normalize3(axis);
        [a[0] * h.sin(), a[1] * h.sin(), a[2] * h.sin(), h.cos()]
    }

    fn close3(a: Vec3, b: Vec3) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    #[test]
    fn rotation_follows_unity_axes() {
        // Unity: +90 about y turns forward (z) toward right (x).
        let q = axis_angle([0.0, 1.0, 0.0], 90.0);
        assert!(close3(rotate(q, [0.0, 0.0, 1.0]), [1.0, 0.0, 0.0]));
        // +90 about x turns forward down (left-handed: y toward z, z toward -y).
        let q = axis_angle([1.0, 0.0, 0.0], 90.0);
        assert!(close3(rotate(q, [0.0, 0.0, 1.0]), [0.0, -1.0, 0.0]));
        // A raw (unnormalised) quaternion rotates the same way.
        let raw = q.map(|c| c * 3.0);
        assert!(close3(
            rotate(raw, [0.0, 1.0, 0.0]),
            rotate(q, [0.0, 1.0, 0.0])
        ));
        // Zero quaternion: identity.
        assert!(close3(rotate([0.0; 4], [1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]));
    }

    #[test]
    fn products_and_inverses() {
        let a = axis_angle([0.0, 1.0, 0.0], 30.0);
        let b = axis_angle([0.0, 1.0, 0.0], 60.0);
        let ab = mul_quat(a, b);
        assert!(close3(
            rotate(ab, [0.0, 0.0, 1.0]),
            rotate(axis_angle([0.0, 1.0, 0.0], 90.0), [0.0, 0.0, 1.0])
        ));
        let back = mul_quat(conjugate(a), a);
        assert!((back[3] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn nlerp_takes_the_short_way_and_is_exact_at_one() {
        let to = axis_angle([0.0, 0.0, 1.0], 10.0);
        let from = IDENTITY.map(|c| -c); // the identity, on the other hemisphere
        let half = normalize_quat(nlerp_toward(from, to, 0.5));
        let e = euler_degrees(half);
        assert!((e[2] - 5.0).abs() < 1e-6, "{e:?}");
        assert_eq!(nlerp_toward(from, to, 1.0), to);
        // At 0 the start, normalised and possibly negated (the same rotation).
        assert_eq!(nlerp_toward(to, from, 0.0), to.map(|c| -c));
        let long = nlerp_toward(to.map(|c| c * 4.0), IDENTITY, 0.5);
        assert!(
            (euler_degrees(long)[2] - 5.0).abs() < 1e-6,
            "unnormalised inputs weigh alike"
        );
    }

    #[test]
    fn euler_angles_in_unity_order() {
        let q = axis_angle([0.0, 1.0, 0.0], 30.0);
        assert!(close3(euler_degrees(q), [0.0, 30.0, 0.0]));
        let q = axis_angle([1.0, 0.0, 0.0], -20.0);
        assert!(close3(euler_degrees(q), [340.0, 0.0, 0.0]));
        // z first, then x, then y.
        let q = mul_quat(
            axis_angle([0.0, 1.0, 0.0], 40.0),
            mul_quat(
                axis_angle([1.0, 0.0, 0.0], 10.0),
                axis_angle([0.0, 0.0, 1.0], 25.0),
            ),
        );
        let e = euler_degrees(q);
        assert!(close3(e, [10.0, 40.0, 25.0]), "{e:?}");
        // Looking straight down (gimbal lock) still gives a finite answer.
        let q = axis_angle([1.0, 0.0, 0.0], 90.0);
        let e = euler_degrees(q);
        assert!(
            (e[0] - 90.0).abs() < 1e-6 && e.iter().all(|v| v.is_finite()),
            "{e:?}"
        );
    }

    #[test]
    fn normalising_degenerate_vectors() {
        assert_eq!(normalize3([0.0, 0.0, 1e-6]), [0.0; 3]);
        assert_eq!(normalize3([f64::NAN, 0.0, 1.0]), [0.0; 3]);
        assert_eq!(normalize3([0.0, 3.0, 4.0]), [0.0, 0.6, 0.8]);
        assert_eq!(normalize_quat([f64::INFINITY, 0.0, 0.0, 1.0]), IDENTITY);
    }
}
