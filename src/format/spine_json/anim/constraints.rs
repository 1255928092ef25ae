//! Constraint timelines: IK, transform, path.

use super::Env;
use crate::core::animation::{IkTimeline, PathProperty, PathTimeline, Timeline, TransformTimeline};
use crate::core::curve::Keys;
use crate::format::LoadError;
use crate::format::json::{F32, OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim::{IkKey, PathTimelinesDto, TransformKey};

use super::keys::curve_keys;
use Seg::{Index, Key};

fn or(v: Option<F32>, default: f32) -> f32 {
    v.map_or(default, |v| v.0)
}

fn flag(v: Option<bool>) -> f32 {
    if v.unwrap_or(false) { 1.0 } else { 0.0 }
}

/// The animation sections that hold one key list per constraint.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyedConstraints {
    Ik,
    Transform,
}

/// Reads a constraint's key list into keys (the version's key layout).
pub(crate) type KeysFn<K> = fn(Ctx<'_>, &[Seg<'_>], &[K]) -> Result<Keys, LoadError>;

/// Walks `ik` or `transform`: each constraint's non-empty key list becomes a timeline of
/// the keys `build` makes of it.
pub(crate) fn keyed_constraints<K>(
    e: Env<'_>,
    section: KeyedConstraints,
    dtos: &mut OrderedMap<Vec<K>>,
    build: KeysFn<K>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    let Env(ctx, anim, names, _) = e;
    let (key, table, what) = match section {
        KeyedConstraints::Ik => ("ik", &names.ik, "IK constraint"),
        KeyedConstraints::Transform => ("transform", &names.transform, "transform constraint"),
    };
    ctx.each_entry(anim, key, dtos, |at, name, keys| {
        let constraint = lookup(ctx, table, name, what, at)?;
        if keys.is_empty() {
            return Ok(());
        }
        let keys = build(ctx, at, keys)?;
        out.push(match section {
            KeyedConstraints::Ik => Timeline::Ik(IkTimeline { constraint, keys }),
            KeyedConstraints::Transform => {
                Timeline::Transform(TransformTimeline { constraint, keys })
            }
        });
        Ok(())
    })
}

/// 3.x IK keys: mix, softness, bend direction (+1/-1), compress, stretch (0/1).
pub fn ik_keys(ctx: Ctx<'_>, at: &[Seg<'_>], keys: &[IkKey]) -> Result<Keys, LoadError> {
    if let Some(k) = keys.iter().position(|k| k.softness.is_some()) {
        let key_at = join(at, &[Index(k), Key("softness")]);
        crate::format::spine_json::setup::not_in_37(ctx, true, &key_at, "IK softness keys")?;
    }
    curve_keys(ctx, at, None, keys, |k| {
        let bend = if k.bend_positive.unwrap_or(true) {
            1.0
        } else {
            -1.0
        };
        Ok([
            or(k.mix, 1.0),
            or(k.softness, 0.0),
            bend,
            flag(k.compress),
            flag(k.stretch),
        ])
    })
}

/// 3.x transform constraint keys: rotate, translate, scale, shear mixes.
pub fn transform_keys(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &[TransformKey],
) -> Result<Keys, LoadError> {
    curve_keys(ctx, at, None, keys, |k| {
        Ok([k.rotate_mix, k.translate_mix, k.scale_mix, k.shear_mix].map(|v| or(v, 1.0)))
    })
}

/// Path constraint keys: position, spacing, and the rotate and translate mixes.
/// `section` is the animation's key for them (`path`; 3.7: `paths`).
pub fn path(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    section: &'static str,
    dtos: &mut OrderedMap<PathTimelinesDto>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry(anim, section, dtos, |at, name, t| {
        let constraint = lookup(ctx, &names.path, name, "path constraint", at)?;
        let mut push = |property, keys| {
            out.push(Timeline::Path(PathTimeline {
                constraint,
                property,
                keys,
            }));
        };
        if let Some(keys) = t.position.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, at, Some("position"), keys, |k| {
                Ok([or(k.position, 0.0)])
            })?;
            push(PathProperty::Position, keys);
        }
        if let Some(keys) = t.spacing.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, at, Some("spacing"), keys, |k| Ok([or(k.spacing, 0.0)]))?;
            push(PathProperty::Spacing, keys);
        }
        if let Some(keys) = t.mix.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, at, Some("mix"), keys, |k| {
                Ok([or(k.rotate_mix, 1.0), or(k.translate_mix, 1.0)])
            })?;
            push(PathProperty::Mix, keys);
        }
        Ok(())
    })
}
