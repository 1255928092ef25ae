//! Spine 4.3 constraints: one list in update order, each `str name`, `u8 type` (0 IK,
//! 1 path, 2 transform, 3 physics, 4 slider), then its fields with booleans and present
//! values packed into flag bytes (the inverse of the reader's `flags43`; see
//! `spine_binary/LAYOUT.md`). A slider's animation index follows the animations.

use super::WriteError;
use super::out::Out;
use super::setup::{bone_list, position_mode, rotate_mode, spacing_mode};
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

fn bit(on: bool, n: u8) -> u8 {
    if on { 1 << n } else { 0 }
}

/// The constraint type byte.
pub fn kind(c: ConstraintRef) -> u8 {
    match c {
        ConstraintRef::Ik(_) => 0,
        ConstraintRef::Path(_) => 1,
        ConstraintRef::Transform(_) => 2,
        ConstraintRef::Physics(_) => 3,
        ConstraintRef::Slider(_) => 4,
    }
}

/// A 4.3 property's number in transform mappings and slider drivers.
pub fn property(p: BoneProperty43) -> u8 {
    match p {
        BoneProperty43::Rotate => 0,
        BoneProperty43::X => 1,
        BoneProperty43::Y => 2,
        BoneProperty43::ScaleX => 3,
        BoneProperty43::ScaleY => 4,
        BoneProperty43::ShearY => 5,
    }
}

/// The position of every constraint in the file's one list (= `constraint_order`).
pub fn list_index(d: &SkeletonData, c: ConstraintRef) -> Result<usize, WriteError> {
    d.constraint_order
        .iter()
        .position(|&x| x == c)
        .ok_or_else(|| WriteError(format!("constraint {c:?} is not in the update order")))
}

/// The constraints section, in update order.
pub fn constraints(o: &mut Out, d: &SkeletonData) -> Result<(), WriteError> {
    o.uvarint(d.constraint_order.len());
    for &c in &d.constraint_order {
        o.str(d.constraint_name(c));
        o.u8(kind(c));
        match c {
            ConstraintRef::Ik(i) => ik(o, &d.ik_constraints[i]),
            ConstraintRef::Path(i) => path(o, &d.path_constraints[i])?,
            ConstraintRef::Transform(i) => transform(o, &d.transform_constraints[i])?,
            ConstraintRef::Physics(i) => physics(o, &d.physics_constraints[i])?,
            ConstraintRef::Slider(i) => slider(o, &d.slider_constraints[i]),
        }
    }
    Ok(())
}

/// Bit 0 the mix is not 0, bit 1 it is not 1 either (then `f mix` follows).
fn mix_bits(mix: f64, low: u8) -> u8 {
    if mix == 0.0 {
        0
    } else if mix == 1.0 {
        1 << low
    } else {
        (1 << low) | (1 << (low + 1))
    }
}

fn ik(o: &mut Out, c: &IkConstraintData) {
    bone_list(o, &c.bones);
    o.uvarint(c.target);
    let scale_y = if c.volume {
        2
    } else if c.uniform {
        1
    } else {
        0
    };
    let mix = mix_bits(c.mix, 5);
    o.u8(bit(c.skin_required, 0)
        | bit(scale_y != 0, 1)
        | bit(c.bend_direction < 0, 2)
        | bit(c.compress, 3)
        | bit(c.stretch, 4)
        | mix
        | bit(c.softness != 0.0, 7));
    if scale_y != 0 {
        o.u8(scale_y);
    }
    if mix == 0b11 << 5 {
        o.f64(c.mix);
    }
    if c.softness != 0.0 {
        o.f64(c.softness);
    }
}

fn path(o: &mut Out, c: &PathConstraintData) -> Result<(), WriteError> {
    bone_list(o, &c.bones);
    o.uvarint(c.target);
    o.u8(bit(c.skin_required, 0)
        | (position_mode(c.position_mode) << 1)
        | (spacing_mode(c.spacing_mode, SpineVersion::V43)? << 2)
        | (rotate_mode(c.rotate_mode) << 4)
        | bit(c.offset_rotation != 0.0, 7));
    if c.offset_rotation != 0.0 {
        o.f64(c.offset_rotation);
    }
    for x in [c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y] {
        o.f64(x);
    }
    Ok(())
}

fn transform(o: &mut Out, c: &TransformConstraintData) -> Result<(), WriteError> {
    let Some(m) = &c.mapping else {
        return Err(WriteError(format!(
            "transform constraint \"{}\" has no 4.3 property mapping",
            c.name
        )));
    };
    bone_list(o, &c.bones);
    o.uvarint(c.target);
    if m.from.len() > 7 {
        return Err(WriteError(format!(
            "transform constraint \"{}\": {} mapped properties (the format holds 7)",
            c.name,
            m.from.len()
        )));
    }
    o.u8(bit(c.skin_required, 0)
        | bit(m.local_source, 1)
        | bit(m.local_target, 2)
        | bit(m.additive, 3)
        | bit(m.clamp, 4)
        | ((m.from.len() as u8) << 5));
    for from in &m.from {
        o.u8(property(from.property));
        o.f64(from.offset);
        o.uvarint(from.to.len());
        for to in &from.to {
            o.u8(property(to.property));
            for x in [to.offset, to.max, to.scale] {
                o.f64(x);
            }
        }
    }
    let offsets = [
        c.offset_rotation,
        c.offset_x,
        c.offset_y,
        c.offset_scale_x,
        c.offset_scale_y,
        c.offset_shear_y,
    ];
    let mixes = [
        c.mix_rotate,
        c.mix_x,
        c.mix_y,
        c.mix_scale_x,
        c.mix_scale_y,
        c.mix_shear_y,
    ];
    for values in [offsets, mixes] {
        let flags = (0..6).fold(0u8, |f, n| f | bit(values[n] != 0.0, n as u8));
        o.u8(flags);
        values.iter().filter(|&&x| x != 0.0).for_each(|&x| o.f64(x));
    }
    Ok(())
}

fn physics(o: &mut Out, c: &PhysicsConstraintData) -> Result<(), WriteError> {
    if c.scale_y != ScaleYMode::None {
        return Err(WriteError(format!(
            "physics constraint \"{}\": scaleY {:?} has no place in a 4.3 binary (the 4.3.13 reader keeps none)",
            c.name, c.scale_y
        )));
    }
    o.uvarint(c.bone);
    super::setup42::physics_body(o, c)
}

fn slider(o: &mut Out, c: &SliderConstraintData) {
    let time = c.driver.is_none() && c.time != 0.0;
    let mix = mix_bits(c.mix, 4);
    o.u8(bit(c.skin_required, 0)
        | bit(c.looping, 1)
        | bit(c.additive, 2)
        | bit(time, 3)
        | mix
        | bit(c.driver.is_some(), 6)
        | bit(c.driver.is_some_and(|d| d.local), 7));
    if time {
        o.f64(c.time);
    }
    if mix == 0b11 << 4 {
        o.f64(c.mix);
    }
    if let Some(d) = &c.driver {
        o.uvarint(d.bone);
        o.f64(d.from);
        o.u8(property(d.property));
        o.f64(d.to);
        o.f64(d.scale);
    }
}

/// After the animations: each slider's animation index, in list order.
pub fn slider_animations(o: &mut Out, d: &SkeletonData) {
    for &c in &d.constraint_order {
        if let ConstraintRef::Slider(i) = c {
            o.uvarint(d.slider_constraints[i].animation);
        }
    }
}
