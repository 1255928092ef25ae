//! Setup pose: bones, slots, constraints and event definitions.

use std::collections::HashSet;

use super::names::NameSet;

use super::read::{Reader, Version};
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::ErrorKind;
use crate::format::spine_binary::cursor::Read;

/// Reads a name that must differ from every earlier one of its kind (`what`): lookups by
/// name (skins, scenarios, the viewer) need them unique, as the JSON loader requires.
pub fn unique_name<'a>(r: &mut Reader<'a>, seen: &mut NameSet<'a>, what: &str) -> Read<String> {
    let at = r.c.offset();
    // Borrowed from the file: one allocation per name, not two.
    let name = r.c.name_str("name")?;
    if !seen.insert(name) {
        return Err(r
            .c
            .error_at(at, format!("duplicate {what} name \"{name}\""))
            .with_kind(ErrorKind::DuplicateName));
    }
    Ok(name.to_string())
}

/// Smallest encoded bone: name (1), 8 floats, transform mode (1), skin flag (1).
const MIN_BONE: usize = 1 + 8 * 4 + 2;

pub fn bones(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    let n = r.c.count(MIN_BONE, "bone count")?;
    data.bones.reserve_exact(n);
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("bone", Some(i), None);
        let name = unique_name(r, &mut seen, "bone")?;
        let parent = if i == 0 {
            None
        } else {
            let at = r.c.offset();
            let p = r.c.uvarint("parent index")?;
            if p >= i {
                return Err(r.c.error_at(
                    at,
                    format!("parent index {p} must come before the bone itself ({i})"),
                ));
            }
            Some(p)
        };
        let mut b = BoneData::new(name, parent);
        b.rotation = r.c.f64("rotation")?;
        b.x = r.c.f64("x")?;
        b.y = r.c.f64("y")?;
        b.scale_x = r.c.f64("scaleX")?;
        b.scale_y = r.c.f64("scaleY")?;
        b.shear_x = r.c.f64("shearX")?;
        b.shear_y = r.c.f64("shearY")?;
        if r.version.one_constraint_list() {
            b.inherit = inherit_mode(r)?;
            b.length = r.c.f64("length")?;
        } else {
            b.length = r.c.f64("length")?;
            b.inherit = inherit_mode(r)?;
        }
        b.skin_required = skin_flag(r)?;
        if r.nonessential {
            b.color = Some(r.c.color("color")?);
            if r.version >= Version::V42 {
                // Editor-only: the bone's icon and whether it is shown.
                let _ = r.c.string("icon")?;
                if r.version.one_constraint_list() {
                    let _ = r.c.f32("icon size")?;
                    let _ = r.c.f32("icon rotation")?;
                }
                let _ = r.c.bool("visible flag")?;
            }
        }
        data.bones.push(b);
        r.c.leave();
    }
    Ok(())
}

pub fn slots(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    // name, bone, color (4), dark (4), attachment, blend.
    let n = r.c.count(1 + 1 + 8 + 2, "slot count")?;
    data.slots.reserve_exact(n);
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("slot", Some(i), None);
        let name = unique_name(r, &mut seen, "slot")?;
        let bone = r.c.index(data.bones.len(), "bone index")?;
        let color = r.c.color("color")?;
        let dark = r.c.take(4, "dark color")?;
        // All ones: no dark color; otherwise RGB888 with the alpha byte unused.
        let dark = (dark != [0xff; 4]).then(|| {
            let c = |v: u8| v as f64 / 255.0;
            Color::rgba(c(dark[1]), c(dark[2]), c(dark[3]), 1.0)
        });
        let attachment = r.string_ref("setup attachment")?;
        let at = r.c.offset();
        let blend = match r.c.uvarint("blend mode")? {
            0 => BlendMode::Normal,
            1 => BlendMode::Additive,
            2 => BlendMode::Multiply,
            3 => BlendMode::Screen,
            m => return Err(r.c.error_at(at, format!("unknown blend mode {m} (0..3)"))),
        };
        if r.version >= Version::V42 && r.nonessential {
            let _ = r.c.bool("visible flag")?;
        }

        data.slots.push(SlotData {
            name,
            bone,
            color,
            dark,
            offset: None,
            attachment: attachment.map(str::to_string),
            blend,
        });
        r.c.leave();
    }
    Ok(())
}

/// A constraint's bone list.
/// An IK constraint's bones (1 or 2) and target bone.
pub fn ik_bones(r: &mut Reader<'_>, data: &SkeletonData) -> Read<(Vec<usize>, usize)> {
    let at = r.c.offset();
    let bones = bone_list(r, data.bones.len())?;
    if !(1..=2).contains(&bones.len()) {
        return Err(r.c.error_at(
            at,
            format!("an IK constraint needs 1 or 2 bones, not {}", bones.len()),
        ));
    }
    let target = r.c.index(data.bones.len(), "target bone index")?;
    Ok((bones, target))
}

pub fn bone_list(r: &mut Reader<'_>, bone_count: usize) -> Read<Vec<usize>> {
    let n = r.c.count(1, "bone count")?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push(r.c.index(bone_count, "bone index")?);
    }
    Ok(out)
}

/// A bone's or constraint's "skin required" flag (3.8 on; 3.7 has none: always active).
fn skin_flag(r: &mut Reader<'_>) -> Read<bool> {
    if r.version.since_38() {
        r.c.bool("skin required flag")
    } else {
        Ok(false)
    }
}

/// A constraint's order.
pub fn order(r: &mut Reader<'_>) -> Read<i32> {
    let at = r.c.offset();
    let o = r.c.uvarint("order")?;
    i32::try_from(o).map_err(|_| r.c.error_at(at, format!("order {o} is too large")))
}

pub fn ik(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    // name, order, skin, bones, target, 2 floats, 4 bytes.
    let n = r.c.count(5 + 8 + 4, "IK constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("IK constraint", Some(i), None);
        let name = unique_name(r, &mut seen, "IK constraint")?;
        let order = order(r)?;
        let skin_required = skin_flag(r)?;
        let (bones, target) = ik_bones(r, data)?;
        let mix = r.c.f64("mix")?;
        let softness = if r.version.since_38() {
            r.c.f64("softness")?
        } else {
            0.0
        };
        let bend_direction = bend(r)?;
        data.ik_constraints.push(IkConstraintData {
            name,
            order,
            skin_required,
            bones,
            target,
            mix,
            softness,
            bend_direction,
            compress: r.c.bool("compress")?,
            stretch: r.c.bool("stretch")?,
            uniform: r.c.bool("uniform")?,
            volume: false,
            rigid: false,
        });
        r.c.leave();
    }
    Ok(())
}

/// A bend direction: a signed byte, +1 or -1.
pub fn bend(r: &mut Reader<'_>) -> Read<i32> {
    let at = r.c.offset();
    match r.c.i8("bend direction")? {
        1 => Ok(1),
        -1 => Ok(-1),
        b => Err(r
            .c
            .error_at(at, format!("bend direction must be 1 or -1, not {b}"))),
    }
}

pub fn transform(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    let n = r.c.count(5 + 2 + 10 * 4, "transform constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("transform constraint", Some(i), None);
        let name = unique_name(r, &mut seen, "transform constraint")?;
        let order = order(r)?;
        let skin_required = skin_flag(r)?;
        let bones = bone_list(r, data.bones.len())?;
        let target = r.c.index(data.bones.len(), "target bone index")?;
        let local = r.c.bool("local")?;
        let relative = r.c.bool("relative")?;
        let offset_rotation = r.c.f64("rotation offset")?;
        let offset_x = r.c.f64("x offset")?;
        let offset_y = r.c.f64("y offset")?;
        let offset_scale_x = r.c.f64("scaleX offset")?;
        let offset_scale_y = r.c.f64("scaleY offset")?;
        let offset_shear_y = r.c.f64("shearY offset")?;
        let mix_rotate = r.c.f64("rotate mix")?;
        let [mix_x, mix_y] = axis_mixes(r, "translate mix", ["x mix", "y mix"])?;
        let [mix_scale_x, mix_scale_y] = axis_mixes(r, "scale mix", ["scaleX mix", "scaleY mix"])?;
        let mix_shear_y = r.c.f64(if r.version.mix_per_axis() {
            "shearY mix"
        } else {
            "shear mix"
        })?;
        data.transform_constraints.push(TransformConstraintData {
            name,
            order,
            skin_required,
            bones,
            target,
            local,
            relative,
            offset_rotation,
            offset_x,
            offset_y,
            offset_scale_x,
            offset_scale_y,
            offset_shear_y,
            mix_rotate,
            mix_x,
            mix_y,
            mix_scale_x,
            mix_scale_y,
            mix_shear_y,
            mapping: None,
        });
        r.c.leave();
    }
    Ok(())
}

pub fn path(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    let n = r.c.count(5 + 3 + 5 * 4, "path constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("path constraint", Some(i), None);
        let (name, order, skin_required, bones, target) = path_head(r, data, &mut seen)?;
        let at = r.c.offset();
        let position_mode = match r.c.uvarint("position mode")? {
            0 => PositionMode::Fixed,
            1 => PositionMode::Percent,
            m => {
                return Err(r
                    .c
                    .error_at(at, format!("unknown position mode {m} (0..1)")));
            }
        };
        let at = r.c.offset();
        let spacing_mode = match r.c.uvarint("spacing mode")? {
            0 => SpacingMode::Length,
            1 => SpacingMode::Fixed,
            2 => SpacingMode::Percent,
            // Proportional spacing came with 4.0.
            3 if r.version >= Version::V40 => SpacingMode::Proportional,
            m => {
                let last = if r.version >= Version::V40 { 3 } else { 2 };
                return Err(r
                    .c
                    .error_at(at, format!("unknown spacing mode {m} (0..{last})")));
            }
        };
        let at = r.c.offset();
        let rotate_mode = match r.c.uvarint("rotate mode")? {
            0 => RotateMode::Tangent,
            1 => RotateMode::Chain,
            2 => RotateMode::ChainScale,
            m => return Err(r.c.error_at(at, format!("unknown rotate mode {m} (0..2)"))),
        };
        let offset_rotation = r.c.f64("rotation offset")?;
        let position = r.c.f64("position")?;
        let spacing = r.c.f64("spacing")?;
        let mix_rotate = r.c.f64("rotate mix")?;
        let [mix_x, mix_y] = axis_mixes(r, "translate mix", ["x mix", "y mix"])?;
        data.path_constraints.push(PathConstraintData {
            name,
            order,
            skin_required,
            bones,
            target,
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation,
            position,
            spacing,
            mix_rotate,
            mix_x,
            mix_y,
        });
        r.c.leave();
    }
    Ok(())
}

/// A path constraint's name, order, skin flag, bones and target slot.
pub fn path_head<'a>(
    r: &mut Reader<'a>,
    data: &SkeletonData,
    seen: &mut NameSet<'a>,
) -> Read<(String, i32, bool, Vec<usize>, usize)> {
    let name = unique_name(r, seen, "path constraint")?;
    let order = order(r)?;
    let skin_required = skin_flag(r)?;
    let bones = bone_list(r, data.bones.len())?;
    let target = r.c.index(data.slots.len(), "target slot index")?;
    Ok((name, order, skin_required, bones, target))
}

pub fn events(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    // name, int, float (4), string, audio.
    let n = r.c.count(4 + 4, "event count")?;
    data.events.reserve_exact(n);
    let mut seen = HashSet::new();
    for i in 0..n {
        r.c.enter("event", Some(i), None);
        let at = r.c.offset();
        let name = r.own_name()?;
        if !seen.insert(name.clone()) {
            return Err(r
                .c
                .error_at(at, format!("duplicate event name \"{name}\""))
                .with_kind(ErrorKind::DuplicateName));
        }
        let mut e = EventData::new(name);
        e.int = r.c.varint(false, "int")?;
        e.float = r.c.f64("float")?;
        e.string = r.c.string("string")?.unwrap_or_default();
        e.audio = r.c.string("audio path")?;
        if e.audio.is_some() {
            e.volume = r.c.f64("volume")?;
            e.balance = r.c.f64("balance")?;
        } else if r.version >= Version::V40 {
            // 4.x runtimes read volume and balance only for events with audio (else 0).
            e.volume = 0.0;
            e.balance = 0.0;
        }
        data.events.push(e);
        r.c.leave();
    }
    Ok(())
}

/// One mix for both axes (3.8, named `both`) or one per axis (4.x, named `each`).
fn axis_mixes(r: &mut Reader<'_>, both: &str, each: [&str; 2]) -> Read<[f64; 2]> {
    if r.version.mix_per_axis() {
        Ok([r.c.f64(each[0])?, r.c.f64(each[1])?])
    } else {
        let mix = r.c.f64(both)?;
        Ok([mix, mix])
    }
}

/// An inherit (3.8: transform) mode: 0 normal .. 4 noScaleOrReflection.
pub fn inherit_mode(r: &mut Reader<'_>) -> Read<Inherit> {
    let at = r.c.offset();
    let what = if r.version >= Version::V40 {
        "inherit mode"
    } else {
        "transform mode"
    };
    Ok(match r.c.uvarint(what)? {
        0 => Inherit::Normal,
        1 => Inherit::OnlyTranslation,
        2 => Inherit::NoRotationOrReflection,
        3 => Inherit::NoScale,
        4 => Inherit::NoScaleOrReflection,
        m => return Err(r.c.error_at(at, format!("unknown {what} {m} (0..4)"))),
    })
}
