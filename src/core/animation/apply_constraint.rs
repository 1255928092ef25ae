//! Applying constraint timelines (IK, transform, path).

use super::timeline::span;
use super::{IkTimeline, MixBlend, MixDirection, PathProperty, PathTimeline, TransformTimeline};
use crate::core::curve::{Keys, Span};
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

/// The interpolated value of channel `ch` (the span is not `Before`).
#[inline]
fn value(keys: &Keys, sp: Span, ch: usize) -> f64 {
    match sp {
        Span::Last(i) => keys.value(i, ch),
        Span::Between { key, percent } => keys.lerp(key, ch, percent),
        Span::Before => 0.0,
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
    time: f64,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let data = &sk.data.ik_constraints[t.constraint];
    let c = &mut sk.ik[t.constraint];
    if !c.active {
        return;
    }
    let sp = span(&t.keys, time);
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
    mix_value(&mut c.mix, data.mix, value(&t.keys, sp, 0), alpha, blend);
    mix_value(
        &mut c.softness,
        data.softness,
        value(&t.keys, sp, 1),
        alpha,
        blend,
    );
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
    time: f64,
    alpha: f64,
    blend: MixBlend,
) {
    let data = &sk.data.transform_constraints[t.constraint];
    let c = &mut sk.transforms[t.constraint];
    if !c.active {
        return;
    }
    let sp = span(&t.keys, time);
    let setup = [
        data.rotate_mix,
        data.translate_mix,
        data.scale_mix,
        data.shear_mix,
    ];
    let mut cur = [c.rotate_mix, c.translate_mix, c.scale_mix, c.shear_mix];
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
        for (ch, (v, s)) in cur.iter_mut().zip(setup).enumerate() {
            mix_value(v, s, value(&t.keys, sp, ch), alpha, blend);
        }
    }
    [c.rotate_mix, c.translate_mix, c.scale_mix, c.shear_mix] = cur;
}

pub(super) fn apply_path(
    t: &PathTimeline,
    sk: &mut Skeleton,
    time: f64,
    alpha: f64,
    blend: MixBlend,
) {
    let data = &sk.data.path_constraints[t.constraint];
    let c = &mut sk.paths[t.constraint];
    if !c.active {
        return;
    }
    let (targets, setup): (Vec<&mut f64>, Vec<f64>) = match t.property {
        PathProperty::Position => (vec![&mut c.position], vec![data.position]),
        PathProperty::Spacing => (vec![&mut c.spacing], vec![data.spacing]),
        PathProperty::Mix => (
            vec![&mut c.rotate_mix, &mut c.translate_mix],
            vec![data.rotate_mix, data.translate_mix],
        ),
    };
    let sp = span(&t.keys, time);
    for (ch, (v, s)) in targets.into_iter().zip(setup).enumerate() {
        if sp == Span::Before {
            match blend {
                MixBlend::Setup => *v = s,
                MixBlend::First => *v += (s - *v) * alpha,
                _ => {}
            }
        } else {
            mix_value(v, s, value(&t.keys, sp, ch), alpha, blend);
        }
    }
}
