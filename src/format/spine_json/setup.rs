//! Setup pose: bones, slots, constraints and event definitions.

use foldhash::{HashMap, HashMapExt};

use super::SpineVersion;
use super::ctx::{Ctx, Names, lookup, unique_names};
use super::dto::*;
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg, SmallKey};

use crate::format::ErrorKind;
use Seg::{Entry, Index, Key};

/// Reads the bones (parents must come first) and returns the name table.
pub fn bones<'a>(
    ctx: Ctx<'_>,
    v: SpineVersion,
    dtos: &'a [BoneDto],
    out: &mut Vec<BoneData>,
    warnings: &mut Vec<String>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let mut names: HashMap<&str, usize> = HashMap::with_capacity(dtos.len());
    out.reserve(dtos.len());
    for (i, b) in dtos.iter().enumerate() {
        let at = |field| [Key("bones"), Index(i), Key(field)];
        if names.contains_key(b.name.as_str()) {
            return Err(ctx
                .err(&at("name"), format!("duplicate bone name \"{}\"", b.name))
                .with_kind(ErrorKind::DuplicateName));
        }
        let parent = match &b.parent {
            None => None,
            Some(p) => match names.get(p.as_str()) {
                Some(&pi) => Some(pi),
                None if **p == *b.name || dtos[i..].iter().any(|o| *o.name == **p) => {
                    return Err(ctx.err(
                        &at("parent"),
                        format!(
                            "parent bone \"{p}\" must come before its child \"{}\"",
                            b.name
                        ),
                    ));
                }
                None => {
                    return Err(ctx
                        .err(&at("parent"), format!("unknown bone \"{p}\""))
                        .with_kind(ErrorKind::DanglingReference));
                }
            },
        };
        names.insert(&b.name, i);
        let mut bone = BoneData::new(b.name.as_str(), parent);
        bone.length = b.length;
        bone.x = b.x;
        bone.y = b.y;
        bone.rotation = b.rotation;
        bone.scale_x = b.scale_x;
        bone.scale_y = b.scale_y;
        bone.shear_x = b.shear_x;
        bone.shear_y = b.shear_y;
        let mode = if v >= SpineVersion::V42 {
            if b.transform.is_some() {
                // 4.2 runtimes ignore the old key: the bone inherits normally.
                warnings.push(format!(
                    "bone \"{}\": \"transform\" is not read by Spine 4.2 (\"inherit\" is); it inherits normally",
                    b.name
                ));
            }
            b.inherit.unwrap_or_default()
        } else {
            if b.inherit.is_some() {
                return Err(ctx.err(
                    &at("inherit"),
                    format!(
                        "\"inherit\" is a Spine 4.2 key; Spine {} calls it \"transform\"",
                        v.name()
                    ),
                ));
            }
            b.transform.unwrap_or_default()
        };
        bone.inherit = inherit_mode(mode);
        not_in_37(ctx, b.skin, &at("skin"), "skin-required bones")?;
        bone.skin_required = b.skin;
        bone.color = match &b.color {
            Some(c) => Some(ctx.color(c, &at("color"))?),
            None => None,
        };
        out.push(bone);
    }
    Ok(names)
}

/// Reads the slots and returns the name table.
pub fn slots<'a>(
    ctx: Ctx<'_>,
    dtos: &'a [SlotDto],
    bones: &HashMap<&str, usize>,
    out: &mut Vec<SlotData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let names = unique_names(ctx, dtos.iter().map(|s| s.name.as_str()), "slot", |i| {
        vec![Key("slots"), Index(i), Key("name")]
    })?;
    out.reserve(dtos.len());
    for (i, s) in dtos.iter().enumerate() {
        let at = |field| [Key("slots"), Index(i), Key(field)];
        out.push(SlotData {
            offset: None,
            name: String::from(s.name.as_str()),
            bone: lookup(ctx, bones, &s.bone, "bone", &at("bone"))?,
            color: match &s.color {
                Some(c) => ctx.color(c, &at("color"))?,
                None => Color::WHITE,
            },
            dark: match &s.dark {
                Some(c) => Some(ctx.color(c, &at("dark"))?),
                None => None,
            },
            attachment: s.attachment.as_deref().map(String::from),
            blend: match s.blend {
                BlendDto::Normal => BlendMode::Normal,
                BlendDto::Additive => BlendMode::Additive,
                BlendDto::Multiply => BlendMode::Multiply,
                BlendDto::Screen => BlendMode::Screen,
            },
        });
    }
    Ok(names)
}

/// Resolves a constraint's bone list at `<section>[i].bones`.
fn bone_list(
    ctx: Ctx<'_>,
    names: &[SmallKey],
    bones: &HashMap<&str, usize>,
    section: &str,
    i: usize,
) -> Result<Vec<usize>, LoadError> {
    names
        .iter()
        .enumerate()
        .map(|(j, n)| {
            lookup(
                ctx,
                bones,
                n,
                "bone",
                &[Key(section), Index(i), Key("bones"), Index(j)],
            )
        })
        .collect()
}

/// Reads the IK constraints and returns the name table.
pub fn ik<'a>(
    ctx: Ctx<'_>,
    dtos: &'a [IkDto],
    names: &Names<'_>,
    out: &mut Vec<IkConstraintData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let table = unique_names(
        ctx,
        dtos.iter().map(|c| c.name.as_str()),
        "IK constraint",
        |i| vec![Key("ik"), Index(i), Key("name")],
    )?;
    for (i, c) in dtos.iter().enumerate() {
        let at = |field| [Key("ik"), Index(i), Key(field)];
        if !(1..=2).contains(&c.bones.len()) {
            return Err(ctx.err(
                &at("bones"),
                format!("an IK constraint needs 1 or 2 bones, not {}", c.bones.len()),
            ));
        }
        not_in_37(ctx, c.skin, &at("skin"), "skin-required constraints")?;
        not_in_37(ctx, c.softness != 0.0, &at("softness"), "IK softness")?;
        out.push(IkConstraintData {
            rigid: false,
            name: c.name.clone(),
            order: c.order,
            skin_required: c.skin,
            bones: bone_list(ctx, &c.bones, &names.bones, "ik", i)?,
            target: lookup(ctx, &names.bones, &c.target, "bone", &at("target"))?,
            mix: c.mix,
            softness: c.softness,
            bend_direction: if c.bend_positive { 1 } else { -1 },
            compress: c.compress,
            stretch: c.stretch,
            uniform: c.uniform,
            volume: false,
        });
    }
    Ok(table)
}

/// Refuses, in a Spine 3.7 file, a key that is new in 3.8 (`what` names it).
pub(super) fn not_in_37(
    ctx: Ctx<'_>,
    present: bool,
    at: &[Seg<'_>],
    what: &str,
) -> Result<(), LoadError> {
    if present && ctx.version == SpineVersion::V37 {
        return Err(ctx.err(
            at,
            format!("{what}: new in Spine 3.8 (this file is Spine 3.7)"),
        ));
    }
    Ok(())
}

/// Fails at the first key of `keys` (name, present) that is present: `what` says why.
fn absent(
    ctx: Ctx<'_>,
    section: &'static str,
    i: usize,
    keys: &[(&'static str, bool)],
    why: &str,
) -> Result<(), LoadError> {
    match keys.iter().find(|(_, present)| *present) {
        None => Ok(()),
        Some((key, _)) => Err(ctx.err(
            &[Key(section), Index(i), Key(key)],
            format!("\"{key}\" {why}"),
        )),
    }
}

/// Reads the transform constraints and returns the name table.
pub fn transform<'a>(
    ctx: Ctx<'_>,
    v: SpineVersion,
    dtos: &'a [TransformDto],
    names: &Names<'_>,
    out: &mut Vec<TransformConstraintData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let table = unique_names(
        ctx,
        dtos.iter().map(|c| c.name.as_str()),
        "transform constraint",
        |i| vec![Key("transform"), Index(i), Key("name")],
    )?;
    for (i, c) in dtos.iter().enumerate() {
        let target_at = [Key("transform"), Index(i), Key("target")];
        let v38 = [
            ("rotateMix", c.rotate_mix.is_some()),
            ("translateMix", c.translate_mix.is_some()),
            ("scaleMix", c.scale_mix.is_some()),
            ("shearMix", c.shear_mix.is_some()),
        ];
        let v4 = [
            ("mixRotate", c.mix_rotate.is_some()),
            ("mixX", c.mix_x.is_some()),
            ("mixY", c.mix_y.is_some()),
            ("mixScaleX", c.mix_scale_x.is_some()),
            ("mixScaleY", c.mix_scale_y.is_some()),
            ("mixShearY", c.mix_shear_y.is_some()),
        ];
        let mixes = if v.is_3x() {
            absent(
                ctx,
                "transform",
                i,
                &v4,
                "is a Spine 4.x key (3.8 uses rotateMix, translateMix, scaleMix, shearMix)",
            )?;
            let t = c.translate_mix.unwrap_or(1.0);
            let s = c.scale_mix.unwrap_or(1.0);
            [
                c.rotate_mix.unwrap_or(1.0),
                t,
                t,
                s,
                s,
                c.shear_mix.unwrap_or(1.0),
            ]
        } else {
            absent(
                ctx,
                "transform",
                i,
                &v38,
                "is a Spine 3.8 key (4.x uses mixRotate, mixX, mixY, mixScaleX, mixScaleY, mixShearY)",
            )?;
            let x = c.mix_x.unwrap_or(1.0);
            let sx = c.mix_scale_x.unwrap_or(1.0);
            [
                c.mix_rotate.unwrap_or(1.0),
                x,
                c.mix_y.unwrap_or(x),
                sx,
                c.mix_scale_y.unwrap_or(sx),
                c.mix_shear_y.unwrap_or(1.0),
            ]
        };
        let skin_at = [Key("transform"), Index(i), Key("skin")];
        not_in_37(ctx, c.skin, &skin_at, "skin-required constraints")?;
        out.push(TransformConstraintData {
            name: c.name.clone(),
            order: c.order,
            skin_required: c.skin,
            bones: bone_list(ctx, &c.bones, &names.bones, "transform", i)?,
            target: lookup(ctx, &names.bones, &c.target, "bone", &target_at)?,
            offset_rotation: c.rotation,
            offset_x: c.x,
            offset_y: c.y,
            offset_scale_x: c.scale_x,
            offset_scale_y: c.scale_y,
            offset_shear_y: c.shear_y,
            mix_rotate: mixes[0],
            mix_x: mixes[1],
            mix_y: mixes[2],
            mix_scale_x: mixes[3],
            mix_scale_y: mixes[4],
            mix_shear_y: mixes[5],
            local: c.local,
            relative: c.relative,
            mapping: None,
        });
    }
    Ok(table)
}

/// Reads the path constraints and returns the name table.
pub fn path<'a>(
    ctx: Ctx<'_>,
    v: SpineVersion,
    dtos: &'a [PathDto],
    names: &Names<'_>,
    out: &mut Vec<PathConstraintData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let table = unique_names(
        ctx,
        dtos.iter().map(|c| c.name.as_str()),
        "path constraint",
        |i| vec![Key("path"), Index(i), Key("name")],
    )?;
    for (i, c) in dtos.iter().enumerate() {
        let target_at = [Key("path"), Index(i), Key("target")];
        let v38 = [
            ("rotateMix", c.rotate_mix.is_some()),
            ("translateMix", c.translate_mix.is_some()),
        ];
        let v4 = [
            ("mixRotate", c.mix_rotate.is_some()),
            ("mixX", c.mix_x.is_some()),
            ("mixY", c.mix_y.is_some()),
        ];
        let [mix_rotate, mix_x, mix_y] = if v.is_3x() {
            absent(
                ctx,
                "path",
                i,
                &v4,
                "is a Spine 4.x key (3.8 uses rotateMix, translateMix)",
            )?;
            if c.spacing_mode == SpacingModeDto::Proportional {
                return Err(ctx.err(
                    &[Key("path"), Index(i), Key("spacingMode")],
                    "spacing mode \"proportional\" is new in Spine 4.0",
                ));
            }
            let t = c.translate_mix.unwrap_or(1.0);
            [c.rotate_mix.unwrap_or(1.0), t, t]
        } else {
            absent(
                ctx,
                "path",
                i,
                &v38,
                "is a Spine 3.8 key (4.x uses mixRotate, mixX, mixY)",
            )?;
            let x = c.mix_x.unwrap_or(1.0);
            [c.mix_rotate.unwrap_or(1.0), x, c.mix_y.unwrap_or(x)]
        };
        let skin_at = [Key("path"), Index(i), Key("skin")];
        not_in_37(ctx, c.skin, &skin_at, "skin-required constraints")?;
        out.push(PathConstraintData {
            name: c.name.clone(),
            order: c.order,
            skin_required: c.skin,
            bones: bone_list(ctx, &c.bones, &names.bones, "path", i)?,
            target: lookup(ctx, &names.slots, &c.target, "slot", &target_at)?,
            position_mode: match c.position_mode {
                PositionModeDto::Fixed => PositionMode::Fixed,
                PositionModeDto::Percent => PositionMode::Percent,
            },
            spacing_mode: match c.spacing_mode {
                SpacingModeDto::Length => SpacingMode::Length,
                SpacingModeDto::Fixed => SpacingMode::Fixed,
                SpacingModeDto::Percent => SpacingMode::Percent,
                SpacingModeDto::Proportional => SpacingMode::Proportional,
            },
            rotate_mode: match c.rotate_mode {
                RotateModeDto::Tangent => RotateMode::Tangent,
                RotateModeDto::Chain => RotateMode::Chain,
                RotateModeDto::ChainScale => RotateMode::ChainScale,
            },
            offset_rotation: c.rotation,
            position: c.position,
            spacing: c.spacing,
            mix_rotate,
            mix_x,
            mix_y,
        });
    }
    Ok(table)
}

/// Reads the event definitions and returns the name table.
pub fn events<'a>(
    ctx: Ctx<'_>,
    dtos: &'a OrderedMap<EventDto>,
    out: &mut Vec<EventData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let table = unique_names(ctx, dtos.0.iter().map(|(n, _)| n.as_str()), "event", |i| {
        vec![Key("events"), Entry(i, dtos.0[i].0.as_str())]
    })?;
    for (name, e) in &dtos.0 {
        // 4.x runtimes read volume and balance only for events with audio (else 0).
        let silent = !ctx.version.is_3x() && e.audio.is_none();
        out.push(EventData {
            name: name.to_string(),
            int: e.int,
            float: e.float,
            string: e.string.clone().unwrap_or_default(),
            audio: e.audio.clone(),
            volume: if silent { 0.0 } else { e.volume },
            balance: if silent { 0.0 } else { e.balance },
        });
    }
    Ok(table)
}

/// The core's inherit mode for the file's.
pub fn inherit_mode(mode: InheritDto) -> Inherit {
    match mode {
        InheritDto::Normal => Inherit::Normal,
        InheritDto::OnlyTranslation => Inherit::OnlyTranslation,
        InheritDto::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        InheritDto::NoScale => Inherit::NoScale,
        InheritDto::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}

/// Reads the physics constraints (Spine 4.2) and returns the name table.
pub fn physics<'a>(
    ctx: Ctx<'_>,
    dtos: &'a [PhysicsDto],
    names: &Names<'_>,
    out: &mut Vec<PhysicsConstraintData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let table = unique_names(
        ctx,
        dtos.iter().map(|c| c.name.as_str()),
        "physics constraint",
        |i| vec![Key("physics"), Index(i), Key("name")],
    )?;
    for (i, c) in dtos.iter().enumerate() {
        let at = |field| [Key("physics"), Index(i), Key(field)];
        let bone = lookup(ctx, &names.bones, &c.bone, "bone", &at("bone"))?;
        if let Err(message) = PhysicsConstraintData::check_fps(c.fps) {
            return Err(ctx.err(&at("fps"), message.to_string()));
        }
        if c.mass == 0.0 || !c.mass.is_finite() {
            return Err(ctx.err(&at("mass"), "mass must be a non-zero number"));
        }
        let mut d = PhysicsConstraintData::new(c.name.clone(), bone);
        d.order = c.order;
        d.skin_required = c.skin;
        (d.x, d.y, d.rotate, d.scale_x, d.shear_x) = (c.x, c.y, c.rotate, c.scale_x, c.shear_x);
        d.limit = c.limit;
        d.step = 1.0 / c.fps;
        (d.inertia, d.strength, d.damping) = (c.inertia, c.strength, c.damping);
        d.mass_inverse = 1.0 / c.mass;
        (d.wind, d.gravity, d.mix) = (c.wind, c.gravity, c.mix);
        d.inertia_global = c.inertia_global;
        d.strength_global = c.strength_global;
        d.damping_global = c.damping_global;
        d.mass_global = c.mass_global;
        d.wind_global = c.wind_global;
        d.gravity_global = c.gravity_global;
        d.mix_global = c.mix_global;
        out.push(d);
    }
    Ok(table)
}
