//! Bone timelines: rotate, translate, scale, shear.

use crate::core::animation::{BoneProperty, BoneTimeline, Timeline};
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim::{BoneTimelinesDto, XyKey};

use super::keys::curve_keys;
use Seg::{Entry, Key};

pub fn bones(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &OrderedMap<BoneTimelinesDto>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key("bones")]))?;
    for (i, (name, t)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let at = join(anim, &[Key("bones"), Entry(i, name)]);
        let bone = lookup(ctx, &names.bones, name, "bone", &at)?;
        let mut push = |property, keys| {
            out.push(Timeline::Bone(BoneTimeline {
                bone,
                property,
                keys,
                shortest: true,
            }))
        };
        if let Some(keys) = t.rotate.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, &at, Some("rotate"), keys, |k| {
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
            let keys = curve_keys(ctx, &at, Some(field), keys, |k: &XyKey| {
                Ok([k.x.map_or(default, |v| v.0), k.y.map_or(default, |v| v.0)])
            })?;
            push(property, keys);
        }
    }
    Ok(())
}
