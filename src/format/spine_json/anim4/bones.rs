//! 4.x bone timelines: rotate, translate, scale, shear (both axes or one) and inherit.

use crate::core::animation::{BoneProperty, BoneTimeline as Bone, InheritTimeline, Timeline};
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim4::{BoneTimeline, BoneTimelines, ValueKey, XyKey};
use crate::format::spine_json::setup::inherit_mode;

use super::keys::{curve_keys4, or, plain};
use Seg::{Entry, Key};

pub fn bones(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &OrderedMap<BoneTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key("bones")]))?;
    for (i, (name, timelines)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let bone_at = join(anim, &[Key("bones"), Entry(i, name)]);
        let bone = lookup(ctx, &names.bones, name, "bone", &bone_at)?;
        for (kind, t) in &timelines.0 {
            let at = join(&bone_at, &[Key(kind)]);
            let one = |keys: &[ValueKey], default: f64| {
                curve_keys4(
                    ctx,
                    &at,
                    keys,
                    |k| k.curve.as_ref(),
                    |_, k| Ok(plain(k.time, [or(k.value, default)])),
                )
            };
            let two = |keys: &[XyKey], default: f64| {
                curve_keys4(
                    ctx,
                    &at,
                    keys,
                    |k| k.curve.as_ref(),
                    |_, k| Ok(plain(k.time, [or(k.x, default), or(k.y, default)])),
                )
            };
            let (property, keys) = match t {
                BoneTimeline::Inherit(keys) => {
                    if keys.is_empty() {
                        continue;
                    }
                    if ctx.version < crate::format::spine_json::SpineVersion::V42 {
                        return Err(ctx.err(&at, "inherit timelines are new in Spine 4.2"));
                    }
                    let mut times: Vec<f32> = Vec::with_capacity(keys.len());
                    for (k, key) in keys.iter().enumerate() {
                        let time = key.time.f32();
                        crate::format::spine_json::anim::keys::check_time(
                            ctx,
                            &at,
                            k,
                            time,
                            times.last().copied(),
                        )?;
                        times.push(time);
                    }
                    out.push(Timeline::Inherit(InheritTimeline {
                        bone,
                        times,
                        modes: keys.iter().map(|k| inherit_mode(k.inherit)).collect(),
                    }));
                    continue;
                }
                BoneTimeline::Rotate(k) => (BoneProperty::Rotate, one(k, 0.0)),
                BoneTimeline::Translate(k) => (BoneProperty::Translate, two(k, 0.0)),
                BoneTimeline::TranslateX(k) => (BoneProperty::TranslateX, one(k, 0.0)),
                BoneTimeline::TranslateY(k) => (BoneProperty::TranslateY, one(k, 0.0)),
                BoneTimeline::Scale(k) => (BoneProperty::Scale, two(k, 1.0)),
                BoneTimeline::ScaleX(k) => (BoneProperty::ScaleX, one(k, 1.0)),
                BoneTimeline::ScaleY(k) => (BoneProperty::ScaleY, one(k, 1.0)),
                BoneTimeline::Shear(k) => (BoneProperty::Shear, two(k, 0.0)),
                BoneTimeline::ShearX(k) => (BoneProperty::ShearX, one(k, 0.0)),
                BoneTimeline::ShearY(k) => (BoneProperty::ShearY, one(k, 0.0)),
            };
            let keys = keys?;
            if keys.is_empty() {
                continue;
            }
            out.push(Timeline::Bone(Bone {
                bone,
                property,
                keys,
                // 4.x keys carry the turning direction in their values.
                shortest: false,
            }));
        }
    }
    Ok(())
}
