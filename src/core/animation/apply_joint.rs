//! Timelines of 3D joint channels: Unity curves (one per component) evaluated with
//! [`crate::core::unity_curve`] and blended into a bone's [`Joint3Pose`].
//!
//! Blending follows the bone timelines' rules with absolute values: positions and ray
//! directions lerp, rotations nlerp the short way (component-wise toward the key, from the
//! same hemisphere). At full alpha the curve values are copied exactly, so a recording plays
//! back its raw (unnormalised) components, as MRTK passes them on.
//!
//! [`Joint3Pose`]: crate::core::skeleton::Joint3Pose

use super::MixBlend;
use crate::core::math3d::{Quat, conjugate, mul_quat, nlerp_toward, normalize_quat};
use crate::core::skeleton::Skeleton;
use crate::core::unity_curve::{UnityCurve, WrapMode};

/// Which 3D channel group a joint timeline keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Joint3Channel {
    /// Components x, y, z (world position; a ray's origin).
    Position,
    /// Components x, y, z, w (world rotation quaternion).
    Rotation,
    /// Components x, y, z (a ray's direction).
    Direction,
}

impl Joint3Channel {
    /// Number of components.
    pub fn count(self) -> usize {
        match self {
            Joint3Channel::Rotation => 4,
            Joint3Channel::Position | Joint3Channel::Direction => 3,
        }
    }

    /// Component names.
    pub fn components(self) -> &'static [&'static str] {
        match self {
            Joint3Channel::Rotation => &["x", "y", "z", "w"],
            Joint3Channel::Position | Joint3Channel::Direction => &["x", "y", "z"],
        }
    }
}

/// Unity curves for one channel group of one bone's 3D pose.
#[derive(Clone, Debug, PartialEq)]
pub struct JointTimeline {
    pub bone: usize,
    pub channel: Joint3Channel,
    /// One curve per component, `Joint3Channel::len` of them.
    pub curves: Vec<UnityCurve>,
    /// The curves' finite key times, sorted and distinct (for dopesheets and key jumps).
    pub times: Vec<f32>,
}

impl JointTimeline {
    /// A timeline from per-component curves. Missing components get an empty curve (which
    /// evaluates to 0, like an unkeyed Unity curve); extra ones are dropped.
    pub fn new(bone: usize, channel: Joint3Channel, mut curves: Vec<UnityCurve>) -> JointTimeline {
        let empty = UnityCurve::new(Vec::new(), WrapMode::ClampForever, WrapMode::ClampForever);
        curves.resize(channel.count(), empty);
        let mut times: Vec<f32> = curves
            .iter()
            .flat_map(|c| c.keys.iter().map(|k| k.time))
            .filter(|t| t.is_finite())
            .collect();
        times.sort_by(f32::total_cmp);
        times.dedup();
        JointTimeline {
            bone,
            channel,
            curves,
            times,
        }
    }

    /// Component `c`'s curve value at `time` (0 for a component that does not exist).
    pub fn value(&self, c: usize, time: f64) -> f64 {
        self.curves.get(c).map_or(0.0, |k| k.evaluate(time))
    }

    /// Every component at `time` (unused trailing entries are 0).
    pub fn values(&self, time: f64) -> [f64; 4] {
        let mut out = [0.0; 4];
        for (c, v) in out.iter_mut().enumerate().take(self.curves.len()) {
            *v = self.value(c, time);
        }
        out
    }
}

/// Blends `value` into `current` with `alpha` (absolute values; `setup` for the setup blends).
fn blend_linear<const N: usize>(
    current: &mut [f64; N],
    setup: [f64; N],
    value: [f64; N],
    alpha: f64,
    blend: MixBlend,
) {
    for i in 0..N {
        current[i] = match blend {
            _ if alpha == 1.0 && blend != MixBlend::Add => value[i],
            MixBlend::Setup => setup[i] + (value[i] - setup[i]) * alpha,
            MixBlend::First | MixBlend::Replace => current[i] + (value[i] - current[i]) * alpha,
            MixBlend::Add => current[i] + (value[i] - setup[i]) * alpha,
        };
    }
}

/// Blends rotation `value` into `current`: nlerp from the setup or current rotation; `Add`
/// applies the key's turn away from setup, scaled by `alpha`, on top of the current rotation.
fn blend_rotation(current: &mut Quat, setup: Quat, value: Quat, alpha: f64, blend: MixBlend) {
    *current = match blend {
        MixBlend::Setup => nlerp_toward(setup, value, alpha),
        MixBlend::First | MixBlend::Replace => nlerp_toward(*current, value, alpha),
        MixBlend::Add => {
            let turn = mul_quat(normalize_quat(value), conjugate(normalize_quat(setup)));
            let scaled = normalize_quat(nlerp_toward(crate::core::math3d::IDENTITY, turn, alpha));
            mul_quat(scaled, normalize_quat(*current))
        }
    };
}

/// Applies a joint timeline at `time`. Bones without a 3D pose are left alone.
// Never inlined: inside `Timeline::apply_other` its frame and register saves would be paid
// by every slot and constraint timeline that dispatch passes through.
#[inline(never)]
pub(crate) fn apply(
    t: &JointTimeline,
    skeleton: &mut Skeleton,
    time: f64,
    alpha: f64,
    blend: MixBlend,
) {
    let Some(setup) = skeleton
        .data
        .bones
        .get(t.bone)
        .and_then(|b| b.joint3.as_ref())
    else {
        return;
    };
    let (sp, sr, sd) = (setup.position, setup.rotation, setup.direction);
    let Some(pose) = skeleton
        .bones
        .get_mut(t.bone)
        .and_then(|b| b.joint3.as_mut())
    else {
        return;
    };
    let v = t.values(time);
    match t.channel {
        Joint3Channel::Position => {
            blend_linear(&mut pose.position, sp, [v[0], v[1], v[2]], alpha, blend)
        }
        Joint3Channel::Direction => {
            blend_linear(&mut pose.direction, sd, [v[0], v[1], v[2]], alpha, blend)
        }
        Joint3Channel::Rotation => blend_rotation(&mut pose.rotation, sr, v, alpha, blend),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::math3d::{IDENTITY, euler_degrees};
    use crate::core::model::{BoneData, Joint3Kind, Joint3Setup, SkeletonData};
    use crate::core::unity_curve::UnityKey;
    use std::sync::Arc;

    fn line(a: f32, b: f32) -> UnityCurve {
        UnityCurve::new(
            vec![UnityKey::new(0.0, a), UnityKey::new(1.0, b)],
            WrapMode::ClampForever,
            WrapMode::ClampForever,
        )
    }

    fn skeleton() -> Skeleton {
        let mut data = SkeletonData::default();
        let mut b = BoneData::new("j", None);
        let mut setup = Joint3Setup::new(Joint3Kind::Joint);
        setup.position = [1.0, 2.0, 3.0];
        b.joint3 = Some(setup);
        data.bones.push(b);
        data.bones.push(BoneData::new("flat", None));
        data.finish();
        Skeleton::new(Arc::new(data))
    }

    #[test]
    fn times_are_the_union_of_the_components_keys() {
        let mut c = line(0.0, 1.0);
        c.keys.push(UnityKey::new(f32::NAN, 0.0));
        let t = JointTimeline::new(
            0,
            Joint3Channel::Position,
            vec![
                c,
                line(0.0, 2.0),
                UnityCurve::new(
                    vec![UnityKey::new(0.5, 7.0)],
                    WrapMode::Loop,
                    WrapMode::Loop,
                ),
            ],
        );
        assert_eq!(t.times, vec![0.0, 0.5, 1.0]);
        // Missing components are empty curves (0); extras are dropped.
        let short = JointTimeline::new(0, Joint3Channel::Rotation, vec![line(0.0, 1.0)]);
        assert_eq!(short.curves.len(), 4);
        assert_eq!(short.values(0.5), [0.5, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn positions_blend_from_setup_or_current() {
        let mut sk = skeleton();
        let t = JointTimeline::new(
            0,
            Joint3Channel::Position,
            vec![line(0.0, 10.0), line(0.0, 10.0), line(0.0, 10.0)],
        );
        apply(&t, &mut sk, 0.5, 1.0, MixBlend::Setup);
        assert_eq!(
            sk.bones[0].joint3.as_ref().unwrap().position,
            [5.0, 5.0, 5.0]
        );
        apply(&t, &mut sk, 1.0, 0.5, MixBlend::Replace);
        assert_eq!(
            sk.bones[0].joint3.as_ref().unwrap().position,
            [7.5, 7.5, 7.5]
        );
        apply(&t, &mut sk, 1.0, 0.5, MixBlend::Setup);
        assert_eq!(
            sk.bones[0].joint3.as_ref().unwrap().position,
            [5.5, 6.0, 6.5]
        );
        apply(&t, &mut sk, 1.0, 0.5, MixBlend::Add);
        assert_eq!(
            sk.bones[0].joint3.as_ref().unwrap().position,
            [10.0, 10.0, 10.0]
        );
        // A bone without a 3D pose is not touched.
        let other = JointTimeline::new(1, Joint3Channel::Position, vec![line(0.0, 1.0)]);
        apply(&other, &mut sk, 1.0, 1.0, MixBlend::Setup);
        assert!(sk.bones[1].joint3.is_none());
    }

    #[test]
    fn rotations_copy_raw_values_at_full_alpha_and_nlerp_below() {
        let mut sk = skeleton();
        let h = 45f64.to_radians();
        // 90 degrees about y, stored negated (the other hemisphere) and unnormalised.
        let (s, c) = (-(h.sin() * 2.0) as f32, -(h.cos() * 2.0) as f32);
        let t = JointTimeline::new(
            0,
            Joint3Channel::Rotation,
            vec![line(0.0, 0.0), line(s, s), line(0.0, 0.0), line(c, c)],
        );
        apply(&t, &mut sk, 0.0, 1.0, MixBlend::First);
        assert_eq!(
            sk.bones[0].joint3.as_ref().unwrap().rotation,
            [0.0, s as f64, 0.0, c as f64]
        );
        apply(&t, &mut sk, 0.0, 0.5, MixBlend::Setup);
        let e = euler_degrees(sk.bones[0].joint3.as_ref().unwrap().rotation);
        assert!((e[1] - 45.0).abs() < 1e-4, "half way the short way: {e:?}");
        sk.bones[0].joint3.as_mut().unwrap().rotation = IDENTITY;
        apply(&t, &mut sk, 0.0, 0.5, MixBlend::Add);
        let e = euler_degrees(sk.bones[0].joint3.as_ref().unwrap().rotation);
        assert!((e[1] - 45.0).abs() < 1e-4, "{e:?}");
    }
}
