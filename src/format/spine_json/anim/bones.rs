//! Bone timelines: rotate, translate, scale, shear.

use crate::core::animation::{BoneProperty, BoneTimeline, Timeline};
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, lookup};
use crate::format::spine_json::dto_anim::{BoneTimelinesDto, XyKey};

use super::keys::curve_keys;

pub fn bones(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<BoneTimelinesDto>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry(anim, "bones", dtos, |at, name, t| {
        let bone = lookup(ctx, &names.bones, name, "bone", at)?;
        let mut push = |property, keys| {
            out.push(Timeline::Bone(BoneTimeline {
                bone,
                property,
                keys,
                shortest: true,
            }))
        };
        if let Some(keys) = t.rotate.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, at, Some("rotate"), keys, |k| {
                Ok([k.angle.map_or(0.0, |v| v.0)])
            })?;
            push(BoneProperty::Rotate, keys);
        }
        let xy = [
            ("translate", &t.translate, BoneProperty::Translate, 0.0),
            ("scale", &t.scale, BoneProperty::Scale, 1.0),
            ("shear", &t.shear, BoneProperty::Shear, 0.0),
        ];
        for (field, keys, property, default) in xy {
            let Some(keys) = keys.as_deref().filter(|k| !k.is_empty()) else {
                continue;
            };
            let keys = curve_keys(ctx, at, Some(field), keys, |k: &XyKey| {
                Ok([k.x.map_or(default, |v| v.0), k.y.map_or(default, |v| v.0)])
            })?;
            push(property, keys);
        }
        Ok(())
    })
}
