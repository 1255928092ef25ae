//! Setup pose: bones, slots, constraints and event definitions.

use std::collections::HashMap;

use super::ctx::{Ctx, Names, lookup, unique_names};
use super::dto::*;
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};

use Seg::{Entry, Index, Key};

/// Reads the bones (parents must come first) and returns the name table.
pub fn bones<'a>(
    ctx: Ctx<'_>,
    dtos: &'a [BoneDto],
    out: &mut Vec<BoneData>,
) -> Result<HashMap<&'a str, usize>, LoadError> {
    let mut names: HashMap<&str, usize> = HashMap::with_capacity(dtos.len());
    out.reserve(dtos.len());
    for (i, b) in dtos.iter().enumerate() {
        let at = |field| [Key("bones"), Index(i), Key(field)];
        if names.contains_key(b.name.as_str()) {
            return Err(ctx.err(&at("name"), format!("duplicate bone name \"{}\"", b.name)));
        }
        let parent = match &b.parent {
            None => None,
            Some(p) => match names.get(p.as_str()) {
                Some(&pi) => Some(pi),
                None if *p == b.name || dtos[i..].iter().any(|o| o.name == *p) => {
                    return Err(ctx.err(
                        &at("parent"),
                        format!(
                            "parent bone \"{p}\" must come before its child \"{}\"",
                            b.name
                        ),
                    ));
                }
                None => return Err(ctx.err(&at("parent"), format!("unknown bone \"{p}\""))),
            },
        };
        names.insert(&b.name, i);
        let mut bone = BoneData::new(b.name.clone(), parent);
        bone.length = b.length;
        bone.x = b.x;
        bone.y = b.y;
        bone.rotation = b.rotation;
        bone.scale_x = b.scale_x;
        bone.scale_y = b.scale_y;
        bone.shear_x = b.shear_x;
        bone.shear_y = b.shear_y;
        bone.inherit = match b.transform {
            InheritDto::Normal => Inherit::Normal,
            InheritDto::OnlyTranslation => Inherit::OnlyTranslation,
            InheritDto::NoRotationOrReflection => Inherit::NoRotationOrReflection,
            InheritDto::NoScale => Inherit::NoScale,
            InheritDto::NoScaleOrReflection => Inherit::NoScaleOrReflection,
        };
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
            name: s.name.clone(),
            bone: lookup(ctx, bones, &s.bone, "bone", &at("bone"))?,
            color: match &s.color {
                Some(c) => ctx.color(c, &at("color"))?,
                None => Color::WHITE,
            },
            dark: match &s.dark {
                Some(c) => Some(ctx.color(c, &at("dark"))?),
                None => None,
            },
            attachment: s.attachment.clone(),
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
    names: &[String],
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
        });
    }
    Ok(table)
}

/// Reads the transform constraints and returns the name table.
pub fn transform<'a>(
    ctx: Ctx<'_>,
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
            rotate_mix: c.rotate_mix,
            translate_mix: c.translate_mix,
            scale_mix: c.scale_mix,
            shear_mix: c.shear_mix,
            local: c.local,
            relative: c.relative,
        });
    }
    Ok(table)
}

/// Reads the path constraints and returns the name table.
pub fn path<'a>(
    ctx: Ctx<'_>,
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
            },
            rotate_mode: match c.rotate_mode {
                RotateModeDto::Tangent => RotateMode::Tangent,
                RotateModeDto::Chain => RotateMode::Chain,
                RotateModeDto::ChainScale => RotateMode::ChainScale,
            },
            offset_rotation: c.rotation,
            position: c.position,
            spacing: c.spacing,
            rotate_mix: c.rotate_mix,
            translate_mix: c.translate_mix,
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
        out.push(EventData {
            name: name.clone(),
            int: e.int,
            float: e.float,
            string: e.string.clone().unwrap_or_default(),
            audio: e.audio.clone(),
            volume: e.volume,
            balance: e.balance,
        });
    }
    Ok(table)
}
