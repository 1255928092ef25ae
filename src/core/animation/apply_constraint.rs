//! Applying constraint timelines (IK, transform, path).

use super::timeline::{At, channels, span};
use super::timeline::{SliderProperty, Timeline};
use super::{
    IkTimeline, MixBlend, MixDirection, PathProperty, PathTimeline, PhysicsProperty,
    PhysicsResetTimeline, PhysicsTimeline, TransformTimeline,
};
use crate::core::curve::Span;
use crate::core::skeleton::Skeleton;

/// Blends `current` toward `value` the way continuous constraint channels do.
#[inline]
fn mix_value(current: &mut f64, setup: f64, value: f64, alpha: f64, blend: MixBlend) {
    if blend == MixBlend::Setup {
        *current = setup + (value - setup) * alpha;
    } else {
        *current += (value - *current) * alpha;
    }
}

/// Like `mix_value`, but an additive blend adds the keyed value when the rules say so (4.3).
#[inline]
fn mix_or_add(current: &mut f64, setup: f64, value: f64, alpha: f64, blend: MixBlend, add: bool) {
    if add && blend == MixBlend::Add {
        *current += value * alpha;
    } else {
        mix_value(current, setup, value, alpha, blend);
    }
}

/// 4.3 additive entries: a constraint timeline that honours `add` and is the first to key its
/// value starts from the setup value (`s + v·α`, not `s + (v − s)·α`). Puts the values it keys
/// back to setup and returns whether it did, so the caller applies it with `MixBlend::Add`.
pub(crate) fn setup_for_additive(tl: &Timeline, sk: &mut Skeleton) -> bool {
    if !sk.data.rules.additive_constraints {
        return false;
    }
    let data = &*sk.data;
    match tl {
        Timeline::Transform(t) => {
            let (Some(d), Some(c)) = (
                data.transform_constraints.get(t.constraint),
                sk.transforms.get_mut(t.constraint),
            ) else {
                return false;
            };
            c.mix_rotate = d.mix_rotate;
            c.mix_x = d.mix_x;
            c.mix_y = d.mix_y;
            c.mix_scale_x = d.mix_scale_x;
            c.mix_scale_y = d.mix_scale_y;
            c.mix_shear_y = d.mix_shear_y;
            true
        }
        Timeline::Path(t) => {
            let (Some(d), Some(c)) = (
                data.path_constraints.get(t.constraint),
                sk.paths.get_mut(t.constraint),
            ) else {
                return false;
            };
            match t.property {
                PathProperty::Position => c.position = d.position,
                PathProperty::Mix => {
                    c.mix_rotate = d.mix_rotate;
                    c.mix_x = d.mix_x;
                    c.mix_y = d.mix_y;
                }
                PathProperty::Spacing => return false,
            }
            true
        }
        Timeline::Physics(t) => {
            if !matches!(t.property, PhysicsProperty::Wind | PhysicsProperty::Gravity) {
                return false;
            }
            for (i, d) in data.physics_constraints.iter().enumerate() {
                let ours = t
                    .constraint
                    .map_or(follows_global(d, t.property), |c| c == i);
                if let (true, Some(c)) = (ours, sk.physics.get_mut(i)) {
                    match t.property {
                        PhysicsProperty::Wind => c.wind = d.wind,
                        _ => c.gravity = d.gravity,
                    }
                }
            }
            true
        }
        Timeline::Slider(t) => {
            let (Some(d), Some(c)) = (
                data.slider_constraints.get(t.constraint),
                sk.sliders.get_mut(t.constraint),
            ) else {
                return false;
            };
            match t.property {
                SliderProperty::Time => c.time = d.time,
                SliderProperty::Mix => c.mix = d.mix,
            }
            true
        }
        _ => false,
    }
}

/// The key whose discrete channels hold at this span.
#[inline]
fn held_key(sp: Span) -> usize {
    match sp {
        Span::Last(i) | Span::Between { key: i, .. } => i,
        Span::Before => 0,
    }
}

pub(super) fn apply_ik(
    t: &IkTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let data = &sk.data.ik_constraints[t.constraint];
    let c = &mut sk.ik[t.constraint];
    if !c.active {
        return;
    }
    let sp = span(&t.keys, at);
    if sp == Span::Before {
        match blend {
            MixBlend::Setup => c.set_to_setup(data),
            MixBlend::First => {
                c.mix += (data.mix - c.mix) * alpha;
                c.softness += (data.softness - c.softness) * alpha;
                c.bend_direction = data.bend_direction;
                c.compress = data.compress;
                c.stretch = data.stretch;
            }
            _ => {}
        }
        return;
    }
    let [mix, softness] = channels::<2>(&t.keys, sp);
    mix_value(&mut c.mix, data.mix, mix, alpha, blend);
    mix_value(&mut c.softness, data.softness, softness, alpha, blend);
    if direction == MixDirection::Out {
        if blend == MixBlend::Setup {
            c.bend_direction = data.bend_direction;
            c.compress = data.compress;
            c.stretch = data.stretch;
        }
    } else {
        let k = held_key(sp);
        c.bend_direction = t.keys.value(k, 2) as i32;
        c.compress = t.keys.value(k, 3) != 0.0;
        c.stretch = t.keys.value(k, 4) != 0.0;
    }
}

pub(super) fn apply_transform(
    t: &TransformTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    let data = &sk.data.transform_constraints[t.constraint];
    let add = sk.data.rules.additive_constraints;
    let c = &mut sk.transforms[t.constraint];
    if !c.active {
        return;
    }
    let sp = span(&t.keys, at);
    let setup = [
        data.mix_rotate,
        data.mix_x,
        data.mix_y,
        data.mix_scale_x,
        data.mix_scale_y,
        data.mix_shear_y,
    ];
    let mut cur = [
        c.mix_rotate,
        c.mix_x,
        c.mix_y,
        c.mix_scale_x,
        c.mix_scale_y,
        c.mix_shear_y,
    ];
    if sp == Span::Before {
        match blend {
            MixBlend::Setup => cur = setup,
            MixBlend::First => {
                for (v, s) in cur.iter_mut().zip(setup) {
                    *v += (s - *v) * alpha;
                }
            }
            _ => return,
        }
    } else {
        let values = if t.keys.channels() == 4 {
            // 3.8: one translate and one scale mix for both axes.
            let [r, tr, s, sh] = channels::<4>(&t.keys, sp);
            [r, tr, tr, s, s, sh]
        } else {
            channels::<6>(&t.keys, sp)
        };
        for ((v, s), x) in cur.iter_mut().zip(setup).zip(values) {
            mix_or_add(v, s, x, alpha, blend, add);
        }
    }
    [
        c.mix_rotate,
        c.mix_x,
        c.mix_y,
        c.mix_scale_x,
        c.mix_scale_y,
        c.mix_shear_y,
    ] = cur;
}

pub(super) fn apply_path(
    t: &PathTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    let data = &sk.data.path_constraints[t.constraint];
    let add = sk.data.rules.additive_constraints && t.property != PathProperty::Spacing;
    let c = &mut sk.paths[t.constraint];
    if !c.active {
        return;
    }
    let sp = span(&t.keys, at);
    // One channel toward `value` (`None` before the first key: toward the setup value).
    let apply = |v: &mut f64, setup: f64, value: Option<f64>| match value {
        None => match blend {
            MixBlend::Setup => *v = setup,
            MixBlend::First => *v += (setup - *v) * alpha,
            _ => {}
        },
        Some(x) => mix_or_add(v, setup, x, alpha, blend, add),
    };
    let keyed = sp != Span::Before;
    match t.property {
        PathProperty::Position => {
            let [x] = channels::<1>(&t.keys, sp);
            apply(&mut c.position, data.position, keyed.then_some(x));
        }
        PathProperty::Spacing => {
            let [x] = channels::<1>(&t.keys, sp);
            apply(&mut c.spacing, data.spacing, keyed.then_some(x));
        }
        PathProperty::Mix => {
            let [rotate, x, y] = if t.keys.channels() == 2 {
                // 3.8: one translate mix for both axes.
                let [r, tr] = channels::<2>(&t.keys, sp);
                [r, tr, tr]
            } else {
                channels::<3>(&t.keys, sp)
            };
            apply(&mut c.mix_rotate, data.mix_rotate, keyed.then_some(rotate));
            apply(&mut c.mix_x, data.mix_x, keyed.then_some(x));
            apply(&mut c.mix_y, data.mix_y, keyed.then_some(y));
        }
    }
}

/// Physics parameter keys (Spine 4.2), by the absolute rule; the global timeline drives every
/// active constraint that follows the global value of the parameter.
pub(super) fn apply_physics(
    t: &PhysicsTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    let sp = span(&t.keys, at);
    // The keyed value (a global timeline evaluates it once; 0 before the first key).
    let keyed = (sp != Span::Before).then(|| channels::<1>(&t.keys, sp)[0]);
    // Borrowed field by field, not through an `Arc` clone and a list of targets: this runs
    // for every physics timeline of every entry each frame (the list's allocation and free
    // were 12 % of sack-pro's mixing frame).
    let (data, physics) = (&*sk.data, &mut sk.physics);
    let add = data.rules.additive_constraints
        && matches!(t.property, PhysicsProperty::Wind | PhysicsProperty::Gravity);
    let targets = match t.constraint {
        Some(c) => c..c + 1,
        None => 0..data.physics_constraints.len(),
    };
    for i in targets {
        let d = &data.physics_constraints[i];
        if t.constraint.is_none() && !follows_global(d, t.property) {
            continue;
        }
        let c = &mut physics[i];
        if !c.active {
            continue;
        }
        let (cur, setup) = match t.property {
            PhysicsProperty::Inertia => (&mut c.inertia, d.inertia),
            PhysicsProperty::Strength => (&mut c.strength, d.strength),
            PhysicsProperty::Damping => (&mut c.damping, d.damping),
            PhysicsProperty::Wind => (&mut c.wind, d.wind),
            PhysicsProperty::Gravity => (&mut c.gravity, d.gravity),
            PhysicsProperty::Mix => (&mut c.mix, d.mix),
            PhysicsProperty::Mass => {
                // Keys are masses; the constraint keeps the inverse.
                let mut mass = 1.0 / c.mass_inverse;
                blend_absolute(&mut mass, 1.0 / d.mass_inverse, keyed, alpha, blend);
                c.mass_inverse = 1.0 / mass;
                continue;
            }
        };
        match keyed {
            // 4.3: only wind and gravity honour an additive entry.
            Some(v) if add => mix_or_add(cur, setup, v, alpha, blend, true),
            _ => blend_absolute(cur, setup, keyed, alpha, blend),
        }
    }
}

/// Whether a constraint follows the global timeline of `property`.
fn follows_global(d: &crate::core::model::PhysicsConstraintData, p: PhysicsProperty) -> bool {
    match p {
        PhysicsProperty::Inertia => d.inertia_global,
        PhysicsProperty::Strength => d.strength_global,
        PhysicsProperty::Damping => d.damping_global,
        PhysicsProperty::Mass => d.mass_global,
        PhysicsProperty::Wind => d.wind_global,
        PhysicsProperty::Gravity => d.gravity_global,
        PhysicsProperty::Mix => d.mix_global,
    }
}

/// The absolute rule: before the first key (`keyed` is `None`) back toward setup as `blend`
/// says, else toward the keyed value by `alpha`.
fn blend_absolute(cur: &mut f64, setup: f64, keyed: Option<f64>, alpha: f64, blend: MixBlend) {
    match keyed {
        None => match blend {
            MixBlend::Setup => *cur = setup,
            MixBlend::First => *cur += (setup - *cur) * alpha,
            _ => {}
        },
        Some(v) => mix_value(cur, setup, v, alpha, blend),
    }
}

/// Physics reset keys: reset the simulation when the time passes a key (like events, also
/// while the entry mixes out; alpha and blend do not matter).
pub(super) fn apply_physics_reset(
    t: &PhysicsResetTimeline,
    sk: &mut Skeleton,
    mut last_time: f64,
    time: f64,
) {
    let times = &t.times;
    let Some(&last_key) = times.last() else {
        return;
    };
    if last_time.is_nan() || time.is_nan() {
        return;
    }
    if last_time > time {
        // Wrapped: fire the tail, then go on from the start.
        apply_physics_reset(t, sk, last_time, f64::MAX);
        last_time = -1.0;
    } else if last_time >= last_key as f64 {
        return;
    }
    if time < times[0] as f64 {
        return;
    }
    let next = times.partition_point(|&k| (k as f64) <= last_time);
    let fires = last_time < times[0] as f64 || times.get(next).is_some_and(|&k| time >= k as f64);
    if !fires {
        return;
    }
    let now = sk.time;
    match t.constraint {
        Some(c) => {
            if sk.physics[c].active {
                sk.physics[c].reset(now);
            }
        }
        None => {
            for c in sk.physics.iter_mut().filter(|c| c.active) {
                c.reset(now);
            }
        }
    }
}
