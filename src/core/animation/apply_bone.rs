//! Applying bone timelines (rotate, translate, scale, shear; 4.x also per axis).

use super::timeline::{At, span};
use super::{BoneProperty, BoneTimeline, InheritTimeline, MixBlend, MixDirection, discrete_key};
use crate::core::curve::Span;
use crate::core::math::{signum, wrap_degrees_38 as wrap};
use crate::core::model::BoneBlendRule;
use crate::core::skeleton::Skeleton;

/// Applies a bone timeline. Each property has its own function: small ones, so a call saves
/// and restores only the registers its own property needs.
#[inline]
pub(crate) fn apply(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let rule = sk.data.rules.bone_blend;
    apply_ruled(t, sk, at, alpha, blend, direction, rule);
}

/// [`apply`] with the skeleton's bone blend rule read by the caller (once for all the
/// timelines of an animation rather than once per rotate timeline).
#[inline(always)]
pub(crate) fn apply_ruled(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
    rule: BoneBlendRule,
) {
    match t.property {
        BoneProperty::Rotate => match rule {
            BoneBlendRule::V38 => rotate(t, sk, at, alpha, blend),
            BoneBlendRule::V4 => rotate_4(t, sk, at, alpha, blend),
        },
        BoneProperty::Translate => translate_or_shear::<false>(t, sk, at, alpha, blend),
        BoneProperty::Shear => translate_or_shear::<true>(t, sk, at, alpha, blend),
        BoneProperty::Scale => scale(t, sk, at, alpha, blend, direction),
        _ => one_channel(t, sk, at, alpha, blend, direction),
    }
}

/// The 3.8 rotate timeline: keys turn the shortest way, blends wrap into one turn.
fn rotate(t: &BoneTimeline, sk: &mut Skeleton, at: At<'_>, alpha: f64, blend: MixBlend) {
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    let pose = &mut bone.pose;
    let setup = &sk.data.bones[t.bone];
    let keys = &t.keys;
    let sp = span(keys, at);
    let r = match sp {
        Span::Before => {
            match blend {
                MixBlend::Setup => pose.rotation = setup.rotation,
                MixBlend::First => {
                    pose.rotation += wrap(setup.rotation - pose.rotation) * alpha;
                }
                _ => {}
            }
            return;
        }
        Span::Last(i) => {
            let r = keys.value(i, 0);
            match blend {
                MixBlend::Setup => pose.rotation = setup.rotation + r * alpha,
                MixBlend::First | MixBlend::Replace => {
                    pose.rotation += wrap(r + setup.rotation - pose.rotation) * alpha;
                }
                MixBlend::Add => pose.rotation += r * alpha,
            }
            return;
        }
        // Keys turn the shortest way between each other.
        Span::Between { key, percent, .. } => {
            t.rotation_between(key, keys.curve_percent(key, percent))
        }
    };
    match blend {
        MixBlend::Setup => pose.rotation = setup.rotation + wrap(r) * alpha,
        MixBlend::First | MixBlend::Replace => {
            pose.rotation += wrap(r + setup.rotation - pose.rotation) * alpha;
        }
        MixBlend::Add => pose.rotation += wrap(r) * alpha,
    }
}

/// The 4.x rotate timeline: the [`relative`] rule on the rotation, without [`one_channel`]'s
/// dispatch on the property (rotate is the most common timeline of most rigs).
fn rotate_4(t: &BoneTimeline, sk: &mut Skeleton, at: At<'_>, alpha: f64, blend: MixBlend) {
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    let v = t.keys.value_from(at.time, at.hint, 0);
    relative(
        &mut bone.pose.rotation,
        sk.data.bones[t.bone].rotation,
        v,
        alpha,
        blend,
    );
}

/// The 4.x relative rule on one pose field `c` with setup value `s`: keyed value `v` (none
/// before the first key) added to the setup pose, mixed by `alpha` as `blend` says.
#[inline(always)]
fn relative(c: &mut f64, s: f64, v: Option<f64>, alpha: f64, blend: MixBlend) {
    let Some(v) = v else {
        match blend {
            MixBlend::Setup => *c = s,
            MixBlend::First => *c += (s - *c) * alpha,
            _ => {}
        }
        return;
    };
    *c = match blend {
        MixBlend::Setup => s + v * alpha,
        MixBlend::First | MixBlend::Replace => *c + (v + (s - *c)) * alpha,
        MixBlend::Add => *c + v * alpha,
    };
}

/// The 4.x one-value timelines (rotate, translatex/y, scalex/y, shearx/y): the relative rule
/// or, for scales, the scale rule, on the one pose field the property names.
fn one_channel(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    let pose = &mut bone.pose;
    let setup = &sk.data.bones[t.bone];
    let (c, s) = match t.property {
        BoneProperty::Rotate => (&mut pose.rotation, setup.rotation),
        BoneProperty::TranslateX => (&mut pose.x, setup.x),
        BoneProperty::TranslateY => (&mut pose.y, setup.y),
        BoneProperty::ScaleX => (&mut pose.scale_x, setup.scale_x),
        BoneProperty::ScaleY => (&mut pose.scale_y, setup.scale_y),
        BoneProperty::ShearX => (&mut pose.shear_x, setup.shear_x),
        BoneProperty::ShearY => (&mut pose.shear_y, setup.shear_y),
        BoneProperty::Translate | BoneProperty::Scale | BoneProperty::Shear => return,
    };
    let v = t.keys.value_from(at.time, at.hint, 0);
    match v {
        Some(v) if matches!(t.property, BoneProperty::ScaleX | BoneProperty::ScaleY) => {
            *c = scale_channel(*c, s, v * s, alpha, blend, direction, BoneBlendRule::V4);
        }
        _ => relative(c, s, v, alpha, blend),
    }
}

/// Translate or (`SHEAR`) shear keys: one function each, so neither tests the property.
fn translate_or_shear<const SHEAR: bool>(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    let pose = &mut bone.pose;
    let setup = &sk.data.bones[t.bone];
    let (sx, sy) = if SHEAR {
        (setup.shear_x, setup.shear_y)
    } else {
        (setup.x, setup.y)
    };
    let (px, py) = if SHEAR {
        (&mut pose.shear_x, &mut pose.shear_y)
    } else {
        (&mut pose.x, &mut pose.y)
    };
    let Some((x, y)) = t.keys.values2_from(at.time, at.hint) else {
        match blend {
            MixBlend::Setup => (*px, *py) = (sx, sy),
            MixBlend::First => {
                *px += (sx - *px) * alpha;
                *py += (sy - *py) * alpha;
            }
            _ => {}
        }
        return;
    };
    match blend {
        MixBlend::Setup => {
            *px = sx + x * alpha;
            *py = sy + y * alpha;
        }
        MixBlend::First | MixBlend::Replace => {
            *px += (sx + x - *px) * alpha;
            *py += (sy + y - *py) * alpha;
        }
        MixBlend::Add => {
            *px += x * alpha;
            *py += y * alpha;
        }
    }
}

fn scale(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let rule = sk.data.rules.bone_blend;
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    let pose = &mut bone.pose;
    let setup = &sk.data.bones[t.bone];
    let Some((x, y)) = t.keys.values2_from(at.time, at.hint) else {
        match blend {
            MixBlend::Setup => (pose.scale_x, pose.scale_y) = (setup.scale_x, setup.scale_y),
            MixBlend::First => {
                pose.scale_x += (setup.scale_x - pose.scale_x) * alpha;
                pose.scale_y += (setup.scale_y - pose.scale_y) * alpha;
            }
            _ => {}
        }
        return;
    };
    let (x, y) = (x * setup.scale_x, y * setup.scale_y);
    pose.scale_x = scale_channel(
        pose.scale_x,
        setup.scale_x,
        x,
        alpha,
        blend,
        direction,
        rule,
    );
    pose.scale_y = scale_channel(
        pose.scale_y,
        setup.scale_y,
        y,
        alpha,
        blend,
        direction,
        rule,
    );
}

/// The scale rule for one channel: current `c`, setup `s`, keyed value `v` (already a
/// multiple of the setup scale). Mixing blends magnitudes while keeping the sign of the side
/// being mixed toward.
#[inline]
fn scale_channel(
    c: f64,
    s: f64,
    v: f64,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
    rule: BoneBlendRule,
) -> f64 {
    if alpha == 1.0 {
        return if blend == MixBlend::Add { c + v - s } else { v };
    }
    if blend == MixBlend::Add {
        return match (rule, direction) {
            (BoneBlendRule::V4, _) => c + (v - s) * alpha,
            (BoneBlendRule::V38, MixDirection::Out) => c + (v.abs() * signum(c) - s) * alpha,
            (BoneBlendRule::V38, MixDirection::In) => {
                let b = signum(v);
                c.abs() * b + (v - s.abs() * b) * alpha
            }
        };
    }
    let base = if blend == MixBlend::Setup { s } else { c };
    if direction == MixDirection::Out {
        base + (v.abs() * signum(base) - base) * alpha
    } else {
        let b = base.abs() * signum(v);
        b + (v - b) * alpha
    }
}

/// 4.2 inherit keys: the bone's inherit mode is the held key's (setup before the first key).
pub(crate) fn apply_inherit(
    t: &InheritTimeline,
    sk: &mut Skeleton,
    time: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let setup = sk.data.bones[t.bone].inherit;
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    if direction == MixDirection::Out {
        if blend == MixBlend::Setup {
            bone.inherit = setup;
        }
        return;
    }
    match discrete_key(&t.times, time) {
        None => {
            if matches!(blend, MixBlend::Setup | MixBlend::First) {
                bone.inherit = setup;
            }
        }
        Some(i) => bone.inherit = t.modes[i],
    }
}
