//! Constraint timelines: IK, transform, path.

use crate::core::animation::{IkTimeline, PathProperty, PathTimeline, Timeline, TransformTimeline};
use crate::format::LoadError;
use crate::format::json::{F32, OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim::{IkKey, PathTimelinesDto, TransformKey};

use super::keys::curve_keys;
use Seg::{Entry, Index, Key};

fn or(v: Option<F32>, default: f32) -> f32 {
    v.map_or(default, |v| v.0)
}

fn flag(v: Option<bool>) -> f32 {
    if v.unwrap_or(false) { 1.0 } else { 0.0 }
}

/// IK keys: mix, softness, bend direction (+1/-1), compress, stretch (0/1).
pub fn ik(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &OrderedMap<Vec<IkKey>>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key("ik")]))?;
    for (i, (name, keys)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let at = join(anim, &[Key("ik"), Entry(i, name)]);
        let constraint = lookup(ctx, &names.ik, name, "IK constraint", &at)?;
        if keys.is_empty() {
            continue;
        }
        if let Some(k) = keys.iter().position(|k| k.softness.is_some()) {
            let key_at = join(&at, &[Index(k), Key("softness")]);
            crate::format::spine_json::setup::not_in_37(ctx, true, &key_at, "IK softness keys")?;
        }
        let keys = curve_keys(ctx, &at, None, keys, |k| {
            Ok([
                or(k.mix, 1.0),
                or(k.softness, 0.0),
                if k.bend_positive.unwrap_or(true) {
                    1.0
                } else {
                    -1.0
                },
                flag(k.compress),
                flag(k.stretch),
            ])
        })?;
        out.push(Timeline::Ik(IkTimeline { constraint, keys }));
    }
    Ok(())
}

/// Transform constraint keys: rotate, translate, scale, shear mixes.
pub fn transform(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &OrderedMap<Vec<TransformKey>>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key("transform")]))?;
    for (i, (name, keys)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let at = join(anim, &[Key("transform"), Entry(i, name)]);
        let constraint = lookup(ctx, &names.transform, name, "transform constraint", &at)?;
        if keys.is_empty() {
            continue;
        }
        let keys = curve_keys(ctx, &at, None, keys, |k| {
            Ok([k.rotate_mix, k.translate_mix, k.scale_mix, k.shear_mix].map(|v| or(v, 1.0)))
        })?;
        out.push(Timeline::Transform(TransformTimeline { constraint, keys }));
    }
    Ok(())
}

/// Path constraint keys: position, spacing, and the rotate and translate mixes.
/// `section` is the animation's key for them (`path`; 3.7: `paths`).
pub fn path(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    section: &'static str,
    dtos: &OrderedMap<PathTimelinesDto>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key(section)]))?;
    for (i, (name, t)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let at = join(anim, &[Key(section), Entry(i, name)]);
        let constraint = lookup(ctx, &names.path, name, "path constraint", &at)?;
        let mut push = |property, keys| {
            out.push(Timeline::Path(PathTimeline {
                constraint,
                property,
                keys,
            }));
        };
        if let Some(keys) = t.position.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, &at, Some("position"), keys, |k| {
                Ok([or(k.position, 0.0)])
            })?;
            push(PathProperty::Position, keys);
        }
        if let Some(keys) = t.spacing.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, &at, Some("spacing"), keys, |k| {
                Ok([or(k.spacing, 0.0)])
            })?;
            push(PathProperty::Spacing, keys);
        }
        if let Some(keys) = t.mix.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, &at, Some("mix"), keys, |k| {
                Ok([or(k.rotate_mix, 1.0), or(k.translate_mix, 1.0)])
            })?;
            push(PathProperty::Mix, keys);
        }
    }
    Ok(())
}
