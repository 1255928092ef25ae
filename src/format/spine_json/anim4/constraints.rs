//! 4.x constraint timelines: IK, transform (six mixes), path and physics.

use crate::core::animation::{
    PathProperty, PathTimeline, PhysicsProperty, PhysicsResetTimeline, PhysicsTimeline, Timeline,
};
use crate::core::curve::Keys;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::SpineVersion;
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup_at};
use crate::format::spine_json::dto_anim4::{
    IkKey, PathTimeline as PathDto, PathTimelines, PhysicsTimeline as PhysicsDto, PhysicsTimelines,
    TransformKey,
};

use super::keys::{Key4, curve_keys4, key_times, list_keys4, or, plain};
use Seg::Key;

fn flag(v: Option<bool>) -> f64 {
    if v.unwrap_or(false) { 1.0 } else { 0.0 }
}

/// IK keys: mix, softness (curved), bend direction (+1/-1), compress, stretch (0/1, held).
pub fn ik_keys(ctx: Ctx<'_>, at: &[Seg<'_>], keys: &[IkKey]) -> Result<Keys, LoadError> {
    // Two curved channels; the three discrete ones are stored after them.
    let curved = curve_keys4(ctx, at, keys, |_, k| {
        Ok(plain(k.time, [or(k.mix, 1.0), or(k.softness, 0.0)]))
    })?;
    let mut keys5 = Keys::with_capacity(5, curved.len(), curved.bezier_count());
    keys5.extend_beziers(curved.bezier_tables());
    let (times, values) = (curved.times(), curved.values());
    for (j, k) in keys.iter().enumerate() {
        let bend = if k.bend_positive.unwrap_or(true) {
            1.0
        } else {
            -1.0
        };
        let v = [
            values[j * 2],
            values[j * 2 + 1],
            bend,
            flag(k.compress) as f32,
            flag(k.stretch) as f32,
        ];
        keys5.push(times[j], &v, curved.interp(j));
    }
    Ok(keys5)
}

/// Transform constraint keys: mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY.
///
/// The 4.0-4.2 runtimes never carry `mixShearY` from key to key while reading: every key
/// keeps the first key's, and a bezier into a key ends at that key's own value.
pub fn transform_keys(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &[TransformKey],
) -> Result<Keys, LoadError> {
    let first_shear = keys.first().map_or(1.0, |first| or(first.mix_shear_y, 1.0));
    // 4.3 reads mixShearY per key and defaults mixScaleY to 1.
    let v43 = ctx.version >= SpineVersion::V43;
    curve_keys4(ctx, at, keys, |_, k| {
        let x = or(k.mix_x, 1.0);
        let sx = or(k.mix_scale_x, 1.0);
        let own = [
            or(k.mix_rotate, 1.0),
            x,
            or(k.mix_y, x),
            sx,
            or(k.mix_scale_y, if v43 { 1.0 } else { sx }),
            or(k.mix_shear_y, 1.0),
        ];
        let mut values = own;
        if !v43 {
            values[5] = first_shear;
        }
        Ok(Key4 {
            time: k.time,
            values,
            arrive: own,
        })
    })
}

/// Path constraint keys: position, spacing, mix (mixRotate, mixX, mixY).
pub fn path(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<PathTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry_lazy(anim, "path", dtos, |c_at, name, timelines| {
        let constraint = lookup_at(ctx, &names.path, name, "path constraint", c_at)?;
        for (kind, t) in timelines.0.iter() {
            let at = c_at.join(&[Key(kind)]);
            let (property, keys) = match t {
                PathDto::Position(keys) => {
                    (PathProperty::Position, list_keys4(ctx, &at, keys, 0.0)?)
                }
                PathDto::Spacing(keys) => (PathProperty::Spacing, list_keys4(ctx, &at, keys, 0.0)?),
                PathDto::Mix(keys) => {
                    let keys = curve_keys4(ctx, &at, keys, |_, k| {
                        let x = or(k.mix_x, 1.0);
                        Ok(plain(k.time, [or(k.mix_rotate, 1.0), x, or(k.mix_y, x)]))
                    })?;
                    (PathProperty::Mix, keys)
                }
            };
            if keys.is_empty() {
                continue;
            }
            out.push(Timeline::Path(PathTimeline {
                constraint,
                property,
                keys,
            }));
        }
        Ok(())
    })
}

/// Physics constraint keys (4.2); the constraint named "" holds the global timelines.
pub fn physics(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<PhysicsTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    if ctx.version < SpineVersion::V42 {
        return Err(ctx.err(
            &join(anim, &[Key("physics")]),
            "physics timelines are new in Spine 4.2",
        ));
    }
    ctx.each_entry_lazy(anim, "physics", dtos, |c_at, name, timelines| {
        let constraint = if name.is_empty() {
            None
        } else {
            Some(lookup_at(
                ctx,
                &names.physics,
                name,
                "physics constraint",
                c_at,
            )?)
        };
        for (kind, t) in timelines.0.iter() {
            let at = c_at.join(&[Key(kind)]);
            match t {
                PhysicsDto::Reset(keys) => {
                    let times = key_times(ctx, &at, keys.iter().map(|k| k.time.f32()))?;
                    if !times.is_empty() {
                        out.push(Timeline::PhysicsReset(PhysicsResetTimeline {
                            constraint,
                            times,
                        }));
                    }
                }
                PhysicsDto::Value(property, keys) => {
                    let property = match *property {
                        "inertia" => PhysicsProperty::Inertia,
                        "strength" => PhysicsProperty::Strength,
                        "damping" => PhysicsProperty::Damping,
                        "mass" => PhysicsProperty::Mass,
                        "wind" => PhysicsProperty::Wind,
                        "gravity" => PhysicsProperty::Gravity,
                        _ => PhysicsProperty::Mix,
                    };
                    // 4.3: an omitted mix value is 1.
                    let default =
                        if property == PhysicsProperty::Mix && ctx.version >= SpineVersion::V43 {
                            1.0
                        } else {
                            0.0
                        };
                    let keys = list_keys4(ctx, &at, keys, default)?;
                    if !keys.is_empty() {
                        out.push(Timeline::Physics(PhysicsTimeline {
                            constraint,
                            property,
                            keys,
                        }));
                    }
                }
            }
        }
        Ok(())
    })
}
