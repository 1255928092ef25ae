//! Applying bone timelines (rotate, translate, scale, shear).

use super::timeline::span;
use super::{BoneProperty, BoneTimeline, MixBlend, MixDirection};
use crate::core::curve::Span;
use crate::core::math::{signum, wrap_degrees_38 as wrap};
use crate::core::skeleton::Skeleton;

pub(crate) fn apply(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    time: f64,
    alpha: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    if !sk.bones[t.bone].active {
        return;
    }
    let data = &sk.data.bones[t.bone];
    let (dx, dy, drot, dsx, dsy, dshx, dshy) = (
        data.x,
        data.y,
        data.rotation,
        data.scale_x,
        data.scale_y,
        data.shear_x,
        data.shear_y,
    );
    let pose = &mut sk.bones[t.bone].pose;
    let keys = &t.keys;
    let sp = span(keys, time);
    match t.property {
        BoneProperty::Rotate => {
            let r = match sp {
                Span::Before => {
                    match blend {
                        MixBlend::Setup => pose.rotation = drot,
                        MixBlend::First => {
                            pose.rotation += wrap(drot - pose.rotation) * alpha;
                        }
                        _ => {}
                    }
                    return;
                }
                Span::Last(i) => {
                    let r = keys.value(i, 0);
                    match blend {
                        MixBlend::Setup => pose.rotation = drot + r * alpha,
                        MixBlend::First | MixBlend::Replace => {
                            pose.rotation += wrap(r + drot - pose.rotation) * alpha;
                        }
                        MixBlend::Add => pose.rotation += r * alpha,
                    }
                    return;
                }
                // Keys turn the shortest way between each other.
                Span::Between { key, percent } => {
                    let prev = keys.value(key, 0);
                    let diff = wrap(keys.value(key + 1, 0) - prev);
                    prev + diff * keys.curve_percent(key, percent)
                }
            };
            match blend {
                MixBlend::Setup => pose.rotation = drot + wrap(r) * alpha,
                MixBlend::First | MixBlend::Replace => {
                    pose.rotation += wrap(r + drot - pose.rotation) * alpha;
                }
                MixBlend::Add => pose.rotation += wrap(r) * alpha,
            }
        }
        BoneProperty::Translate | BoneProperty::Shear => {
            let (sx, sy) = if t.property == BoneProperty::Translate {
                (dx, dy)
            } else {
                (dshx, dshy)
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
                    (keys.lerp(key, 0, percent), keys.lerp(key, 1, percent))
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
        BoneProperty::Scale => {
            let (x, y) = match sp {
                Span::Before => {
                    match blend {
                        MixBlend::Setup => (pose.scale_x, pose.scale_y) = (dsx, dsy),
                        MixBlend::First => {
                            pose.scale_x += (dsx - pose.scale_x) * alpha;
                            pose.scale_y += (dsy - pose.scale_y) * alpha;
                        }
                        _ => {}
                    }
                    return;
                }
                Span::Last(i) => (keys.value(i, 0) * dsx, keys.value(i, 1) * dsy),
                Span::Between { key, percent } => (
                    keys.lerp(key, 0, percent) * dsx,
                    keys.lerp(key, 1, percent) * dsy,
                ),
            };
            if alpha == 1.0 {
                if blend == MixBlend::Add {
                    pose.scale_x += x - dsx;
                    pose.scale_y += y - dsy;
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
                            (dsx, dsy)
                        } else {
                            (pose.scale_x, pose.scale_y)
                        };
                        pose.scale_x = bx + (x.abs() * signum(bx) - bx) * alpha;
                        pose.scale_y = by + (y.abs() * signum(by) - by) * alpha;
                    }
                    MixBlend::Add => {
                        let (bx, by) = (pose.scale_x, pose.scale_y);
                        pose.scale_x = bx + (x.abs() * signum(bx) - dsx) * alpha;
                        pose.scale_y = by + (y.abs() * signum(by) - dsy) * alpha;
                    }
                }
            } else {
                match blend {
                    MixBlend::Setup | MixBlend::First | MixBlend::Replace => {
                        let (ax, ay) = if blend == MixBlend::Setup {
                            (dsx.abs(), dsy.abs())
                        } else {
                            (pose.scale_x.abs(), pose.scale_y.abs())
                        };
                        let (bx, by) = (ax * signum(x), ay * signum(y));
                        pose.scale_x = bx + (x - bx) * alpha;
                        pose.scale_y = by + (y - by) * alpha;
                    }
                    MixBlend::Add => {
                        let (bx, by) = (signum(x), signum(y));
                        pose.scale_x = pose.scale_x.abs() * bx + (x - dsx.abs() * bx) * alpha;
                        pose.scale_y = pose.scale_y.abs() * by + (y - dsy.abs() * by) * alpha;
                    }
                }
            }
        }
    }
}
