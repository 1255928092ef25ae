//! 4.x constraint timelines: IK, transform (six mixes), path and physics.

use crate::core::animation::{
    IkTimeline, PathProperty, PathTimeline, PhysicsProperty, PhysicsResetTimeline, PhysicsTimeline,
    Timeline, TransformTimeline,
};
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::SpineVersion;
use crate::format::spine_json::anim::keys::check_time;
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim4::{
    IkKey, PathTimeline as PathDto, PathTimelines, PhysicsTimeline as PhysicsDto, PhysicsTimelines,
    TransformKey,
};

use super::keys::{Key4, curve_keys4, or, plain};
use Seg::{Entry, Key};

fn flag(v: Option<bool>) -> f64 {
    if v.unwrap_or(false) { 1.0 } else { 0.0 }
}

/// IK keys: mix, softness (curved), bend direction (+1/-1), compress, stretch (0/1, held).
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
        // Two curved channels; the three discrete ones are stored after them.
        let curved = curve_keys4(
            ctx,
            &at,
            keys,
            |k| k.curve.as_ref(),
            |_, k| Ok(plain(k.time, [or(k.mix, 1.0), or(k.softness, 0.0)])),
        )?;
        let mut keys5 =
            crate::core::curve::Keys::with_capacity(5, curved.len(), curved.bezier_count());
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
        out.push(Timeline::Ik(IkTimeline {
            constraint,
            keys: keys5,
        }));
    }
    Ok(())
}

/// Transform constraint keys: mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY.
///
/// The 4.0-4.2 runtimes never carry `mixShearY` from key to key while reading: every key
/// keeps the first key's, and a bezier into a key ends at that key's own value.
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
        let Some(first) = keys.first() else {
            continue;
        };
        let first_shear = or(first.mix_shear_y, 1.0);
        // 4.3 reads mixShearY per key and defaults mixScaleY to 1.
        let v43 = ctx.version >= SpineVersion::V43;
        let keys = curve_keys4(
            ctx,
            &at,
            keys,
            |k| k.curve.as_ref(),
            |_, k| {
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
            },
        )?;
        out.push(Timeline::Transform(TransformTimeline { constraint, keys }));
    }
    Ok(())
}

/// Path constraint keys: position, spacing, mix (mixRotate, mixX, mixY).
pub fn path(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &OrderedMap<PathTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key("path")]))?;
    for (i, (name, timelines)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let c_at = join(anim, &[Key("path"), Entry(i, name)]);
        let constraint = lookup(ctx, &names.path, name, "path constraint", &c_at)?;
        for (kind, t) in &timelines.0 {
            let at = join(&c_at, &[Key(kind)]);
            let (property, keys) = match t {
                PathDto::Position(keys) | PathDto::Spacing(keys) => {
                    let property = if matches!(t, PathDto::Position(_)) {
                        PathProperty::Position
                    } else {
                        PathProperty::Spacing
                    };
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| Ok(plain(k.time, [or(k.value, 0.0)])),
                    )?;
                    (property, keys)
                }
                PathDto::Mix(keys) => {
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| {
                            let x = or(k.mix_x, 1.0);
                            Ok(plain(k.time, [or(k.mix_rotate, 1.0), x, or(k.mix_y, x)]))
                        },
                    )?;
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
    }
    Ok(())
}

/// Physics constraint keys (4.2); the constraint named "" holds the global timelines.
pub fn physics(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &OrderedMap<PhysicsTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    let section = join(anim, &[Key("physics")]);
    if ctx.version < SpineVersion::V42 {
        return Err(ctx.err(&section, "physics timelines are new in Spine 4.2"));
    }
    ctx.no_duplicates(dtos, &section)?;
    for (i, (name, timelines)) in dtos.0.iter().enumerate() {
        let name = name.as_str();
        let c_at = join(&section, &[Entry(i, name)]);
        let constraint = if name.is_empty() {
            None
        } else {
            Some(lookup(
                ctx,
                &names.physics,
                name,
                "physics constraint",
                &c_at,
            )?)
        };
        for (kind, t) in &timelines.0 {
            let at = join(&c_at, &[Key(kind)]);
            match t {
                PhysicsDto::Reset(keys) => {
                    let mut times: Vec<f32> = Vec::with_capacity(keys.len());
                    for (k, key) in keys.iter().enumerate() {
                        let time = key.time.f32();
                        check_time(ctx, &at, k, time, times.last().copied())?;
                        times.push(time);
                    }
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
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| Ok(plain(k.time, [or(k.value, default)])),
                    )?;
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
    }
    Ok(())
}
