//! Applying bone timelines (rotate, translate, scale, shear).

use super::timeline::{At, span};
use super::{BoneProperty, BoneTimeline, MixBlend, MixDirection};
use crate::core::curve::Span;
use crate::core::math::{signum, wrap_degrees_38 as wrap};
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
    match t.property {
        BoneProperty::Rotate => rotate(t, sk, at, alpha, blend),
        BoneProperty::Translate | BoneProperty::Shear => {
            translate_or_shear(t, sk, at, alpha, blend)
        }
        BoneProperty::Scale => scale(t, sk, at, alpha, blend, direction),
    }
}

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
        Span::Between { key, percent } => t.rotation_between(key, keys.curve_percent(key, percent)),
    };
    match blend {
        MixBlend::Setup => pose.rotation = setup.rotation + wrap(r) * alpha,
        MixBlend::First | MixBlend::Replace => {
            pose.rotation += wrap(r + setup.rotation - pose.rotation) * alpha;
        }
        MixBlend::Add => pose.rotation += wrap(r) * alpha,
    }
}

fn translate_or_shear(
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
    let keys = &t.keys;
    let sp = span(keys, at);
    let (sx, sy) = if t.property == BoneProperty::Translate {
        (setup.x, setup.y)
    } else {
        (setup.shear_x, setup.shear_y)
    };
    let (px, py) = if t.property == BoneProperty::Translate {
        (&mut pose.x, &mut pose.y)
    } else {
        (&mut pose.shear_x, &mut pose.shear_y)
    };
    let (x, y) = match sp {
        Span::Before => {
            match blend {
                MixBlend::Setup => (*px, *py) = (sx, sy),
                MixBlend::First => {
                    *px += (sx - *px) * alpha;
                    *py += (sy - *py) * alpha;
                }
                _ => {}
            }
            return;
        }
        Span::Last(i) => (keys.value(i, 0), keys.value(i, 1)),
        Span::Between { key, percent } => {
            let p = keys.curve_percent(key, percent);
            (keys.between(key, 0, p), keys.between(key, 1, p))
        }
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
    let bone = &mut sk.bones[t.bone];
    if !bone.active {
        return;
    }
    let pose = &mut bone.pose;
    let setup = &sk.data.bones[t.bone];
    let keys = &t.keys;
    let sp = span(keys, at);
    let (x, y) = match sp {
        Span::Before => {
            match blend {
                MixBlend::Setup => (pose.scale_x, pose.scale_y) = (setup.scale_x, setup.scale_y),
                MixBlend::First => {
                    pose.scale_x += (setup.scale_x - pose.scale_x) * alpha;
                    pose.scale_y += (setup.scale_y - pose.scale_y) * alpha;
                }
                _ => {}
            }
            return;
        }
        Span::Last(i) => (
            keys.value(i, 0) * setup.scale_x,
            keys.value(i, 1) * setup.scale_y,
        ),
        Span::Between { key, percent } => {
            let p = keys.curve_percent(key, percent);
            (
                keys.between(key, 0, p) * setup.scale_x,
                keys.between(key, 1, p) * setup.scale_y,
            )
        }
    };
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            pose.scale_x += x - setup.scale_x;
            pose.scale_y += y - setup.scale_y;
        } else {
            pose.scale_x = x;
            pose.scale_y = y;
        }
        return;
    }
    // Blend magnitudes while keeping the sign of the side being mixed toward.
    if direction == MixDirection::Out {
        match blend {
            MixBlend::Setup | MixBlend::First | MixBlend::Replace => {
                let (bx, by) = if blend == MixBlend::Setup {
                    (setup.scale_x, setup.scale_y)
                } else {
                    (pose.scale_x, pose.scale_y)
                };
                pose.scale_x = bx + (x.abs() * signum(bx) - bx) * alpha;
                pose.scale_y = by + (y.abs() * signum(by) - by) * alpha;
            }
            MixBlend::Add => {
                let (bx, by) = (pose.scale_x, pose.scale_y);
                pose.scale_x = bx + (x.abs() * signum(bx) - setup.scale_x) * alpha;
                pose.scale_y = by + (y.abs() * signum(by) - setup.scale_y) * alpha;
            }
        }
    } else {
        match blend {
            MixBlend::Setup | MixBlend::First | MixBlend::Replace => {
                let (ax, ay) = if blend == MixBlend::Setup {
                    (setup.scale_x.abs(), setup.scale_y.abs())
                } else {
                    (pose.scale_x.abs(), pose.scale_y.abs())
                };
                let (bx, by) = (ax * signum(x), ay * signum(y));
                pose.scale_x = bx + (x - bx) * alpha;
                pose.scale_y = by + (y - by) * alpha;
            }
            MixBlend::Add => {
                let (bx, by) = (signum(x), signum(y));
                pose.scale_x = pose.scale_x.abs() * bx + (x - setup.scale_x.abs() * bx) * alpha;
                pose.scale_y = pose.scale_y.abs() * by + (y - setup.scale_y.abs() * by) * alpha;
            }
        }
    }
}
