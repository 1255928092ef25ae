//! 4.x bone timelines: rotate, translate, scale, shear (both axes or one) and inherit.

use crate::core::animation::{BoneProperty, BoneTimeline as Bone, InheritTimeline, Timeline};
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, lookup_at};
use crate::format::spine_json::dto_anim4::{BoneTimeline, BoneTimelines};
use crate::format::spine_json::dto_keys4::KeyList4;
use crate::format::spine_json::setup::inherit_mode;

use super::keys::{key_times, list_keys4};
use Seg::Key;

pub fn bones(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<BoneTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry_lazy(anim, "bones", dtos, |bone_at, name, timelines| {
        let bone = lookup_at(ctx, &names.bones, name, "bone", bone_at)?;
        for (kind, t) in timelines.0.iter() {
            let at = bone_at.join(&[Key(kind)]);
            let one = |keys: &KeyList4<1>, default| list_keys4(ctx, &at, keys, default);
            let two = |keys: &KeyList4<2>, default| list_keys4(ctx, &at, keys, default);
            let (property, keys) = match t {
                BoneTimeline::Inherit(keys) => {
                    if keys.is_empty() {
                        continue;
                    }
                    if ctx.version < crate::format::spine_json::SpineVersion::V42 {
                        return Err(ctx.err(&at, "inherit timelines are new in Spine 4.2"));
                    }
                    let times = key_times(ctx, &at, keys.iter().map(|k| k.time.f32()))?;
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
        Ok(())
    })
}
