//! Memoised trigonometry. Each memo keeps the last argument of one call site (for one bone or
//! constraint) and its result; between frames most bones and many constraints see exactly the
//! same inputs again (everything that is not animated at the moment), and then get the same
//! result back without the library call. Arguments are compared by their bits, so -0.0 and
//! 0.0 stay apart and a NaN never matches; the result is always what the call would return.

use crate::core::model::SkeletonData;

/// A memoised `f64::sin_cos`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SinCos {
    arg: u64,
    sin: f64,
    cos: f64,
}

impl SinCos {
    /// Holds `sin_cos(0.0)`, which is exactly (0, 1).
    pub(crate) const ZERO: SinCos = SinCos {
        arg: 0,
        sin: 0.0,
        cos: 1.0,
    };

    /// `radians.sin_cos()`.
    #[inline]
    pub(crate) fn sin_cos(&mut self, radians: f64) -> (f64, f64) {
        if radians.to_bits() != self.arg {
            (self.sin, self.cos) = radians.sin_cos();
            self.arg = radians.to_bits();
        }
        (self.sin, self.cos)
    }
}

/// The memos of one bone's local axes: the x axis, and the y axis (or its turn from the x
/// axis) where it is computed on its own (the 4.x runtimes' rounded pi, or a shear that
/// differs between the axes). Bones that do not inherit rotation or scale use `x`, `y` and
/// `z` for the three angles of their own formulas.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxesTrig {
    pub x: SinCos,
    pub y: SinCos,
    pub z: SinCos,
    /// The parent's world rotation, for bones that do not inherit rotation or reflection (it
    /// is unchanged while the parent is not animated).
    pub parent: Atan2,
}

impl AxesTrig {
    /// Every memo holds `sin_cos(0.0)` (and `parent` holds `atan2(0.0, 0.0)`).
    pub(crate) const ZERO: AxesTrig = AxesTrig {
        x: SinCos::ZERO,
        y: SinCos::ZERO,
        z: SinCos::ZERO,
        parent: Atan2::ZERO,
    };
}

/// A memoised `f64::atan2`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Atan2 {
    y: u64,
    x: u64,
    angle: f64,
}

impl Atan2 {
    /// Holds `atan2(0.0, 0.0)`, which is exactly 0.
    pub(crate) const ZERO: Atan2 = Atan2 {
        y: 0,
        x: 0,
        angle: 0.0,
    };

    /// `y.atan2(x)`.
    #[inline]
    pub(crate) fn atan2(&mut self, y: f64, x: f64) -> f64 {
        if y.to_bits() != self.y || x.to_bits() != self.x {
            self.angle = y.atan2(x);
            (self.y, self.x) = (y.to_bits(), x.to_bits());
        }
        self.angle
    }
}

/// A memoised `f64::powf`. Equal to every other (a memo is not part of the state it sits in).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pow {
    base: u64,
    exp: u64,
    value: f64,
}

impl Pow {
    /// Holds `powf(1.0, 0.0)`, which is exactly 1.
    pub(crate) const ONE: Pow = Pow {
        base: 0x3ff0_0000_0000_0000,
        exp: 0,
        value: 1.0,
    };

    /// `base.powf(exp)`.
    #[inline]
    pub(crate) fn powf(&mut self, base: f64, exp: f64) -> f64 {
        if base.to_bits() != self.base || exp.to_bits() != self.exp {
            self.value = base.powf(exp);
            (self.base, self.exp) = (base.to_bits(), exp.to_bits());
        }
        self.value
    }
}

impl PartialEq for Pow {
    fn eq(&self, _: &Pow) -> bool {
        true
    }
}

/// The memos of one bone moved by a path constraint.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PathBoneMemo {
    /// Direction from this bone's point on the path to the next.
    pub direction: Atan2,
    /// The bone's world rotation before the constraint.
    pub bone: Atan2,
    /// The rotation applied.
    pub turn: SinCos,
}

/// The memos of one transform constraint.
#[derive(Clone, Debug)]
pub(crate) struct TransformMemo {
    /// The target's world rotation.
    pub target: Atan2,
    /// Per constrained bone: its world rotation before the constraint, and the rotation
    /// applied.
    pub bones: Vec<(Atan2, SinCos)>,
}

/// Every constraint memo of a skeleton, indexed like the constraints and their bones.
#[derive(Clone, Debug)]
pub(crate) struct ConstraintMemos {
    /// Per IK constraint: the angle of a two-bone chain's child from its parent's x axis
    /// (it changes only when the child's position does).
    pub ik_child: Vec<Atan2>,
    pub paths: Vec<Vec<PathBoneMemo>>,
    pub transforms: Vec<TransformMemo>,
}

impl ConstraintMemos {
    pub(crate) fn new(data: &SkeletonData) -> ConstraintMemos {
        let path_bone = PathBoneMemo {
            direction: Atan2::ZERO,
            bone: Atan2::ZERO,
            turn: SinCos::ZERO,
        };
        ConstraintMemos {
            ik_child: vec![Atan2::ZERO; data.ik_constraints.len()],
            paths: data
                .path_constraints
                .iter()
                .map(|c| vec![path_bone; c.bones.len()])
                .collect(),
            transforms: data
                .transform_constraints
                .iter()
                .map(|c| TransformMemo {
                    target: Atan2::ZERO,
                    bones: vec![(Atan2::ZERO, SinCos::ZERO); c.bones.len()],
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memos_return_what_the_calls_return() {
        let (mut sc, mut at, mut pw) = (SinCos::ZERO, Atan2::ZERO, Pow::ONE);
        assert_eq!(0.0f64.sin_cos(), (0.0, 1.0));
        assert_eq!(1.0f64.powf(0.0), 1.0);
        for (b, e) in [
            (1.0, 0.0),
            (0.9, 1.0),
            (0.9, 1.0),
            (0.5, 1.0),
            (0.5, -0.0),
            (2.0, 0.5),
        ] {
            assert_eq!(pw.powf(b, e).to_bits(), b.powf(e).to_bits(), "{b} {e}");
        }
        assert_eq!(0.0f64.atan2(0.0).to_bits(), 0.0f64.to_bits());
        for v in [0.0, -0.0, 0.0, 1.0, 1.0, -2.5, 3.0e10, -0.0, 0.0] {
            let (s, c) = sc.sin_cos(v);
            let (es, ec) = v.sin_cos();
            assert_eq!(
                (s.to_bits(), c.to_bits()),
                (es.to_bits(), ec.to_bits()),
                "{v}"
            );
            for x in [0.0, -0.0, 1.0, -1.0] {
                assert_eq!(at.atan2(v, x).to_bits(), v.atan2(x).to_bits(), "{v} {x}");
            }
        }
        assert!(sc.sin_cos(f64::NAN).0.is_nan() && at.atan2(f64::NAN, 1.0).is_nan());
    }
}
