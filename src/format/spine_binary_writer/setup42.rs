//! Spine 4.2 constraints: booleans and which values differ from their defaults packed into
//! flag bytes (the inverse of the reader's `flags42`; see `spine_binary/LAYOUT.md`).

use super::WriteError;
use super::out::Out;
use super::setup::{bone_list, position_mode, rotate_mode, spacing_mode};
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

fn bit(on: bool, n: u8) -> u8 {
    if on { 1 << n } else { 0 }
}

/// A float when it differs from `default`, with its flag bit.
struct Opt(Vec<f64>);

impl Opt {
    fn flag(&mut self, v: f64, default: f64, n: u8) -> u8 {
        if v != default {
            self.0.push(v);
            1 << n
        } else {
            0
        }
    }

    fn write(self, o: &mut Out) {
        self.0.into_iter().for_each(|v| o.f64(v));
    }
}

pub fn ik(o: &mut Out, d: &SkeletonData) {
    o.uvarint(d.ik_constraints.len());
    for c in &d.ik_constraints {
        o.str(&c.name);
        o.uvarint(c.order.max(0) as usize);
        bone_list(o, &c.bones);
        o.uvarint(c.target);
        let mix_bits = if c.mix == 0.0 {
            0
        } else if c.mix == 1.0 {
            1 << 5
        } else {
            (1 << 5) | (1 << 6)
        };
        let f = bit(c.skin_required, 0)
            | bit(c.bend_direction > 0, 1)
            | bit(c.compress, 2)
            | bit(c.stretch, 3)
            | bit(c.uniform, 4)
            | mix_bits
            | bit(c.softness != 0.0, 7);
        o.u8(f);
        if mix_bits == (1 << 5) | (1 << 6) {
            o.f64(c.mix);
        }
        if c.softness != 0.0 {
            o.f64(c.softness);
        }
    }
}

pub fn transform(o: &mut Out, d: &SkeletonData) {
    o.uvarint(d.transform_constraints.len());
    for c in &d.transform_constraints {
        o.str(&c.name);
        o.uvarint(c.order.max(0) as usize);
        bone_list(o, &c.bones);
        o.uvarint(c.target);
        let mut a = Opt(Vec::new());
        let f = bit(c.skin_required, 0)
            | bit(c.local, 1)
            | bit(c.relative, 2)
            | a.flag(c.offset_rotation, 0.0, 3)
            | a.flag(c.offset_x, 0.0, 4)
            | a.flag(c.offset_y, 0.0, 5)
            | a.flag(c.offset_scale_x, 0.0, 6)
            | a.flag(c.offset_scale_y, 0.0, 7);
        o.u8(f);
        a.write(o);
        let mut b = Opt(Vec::new());
        let g = b.flag(c.offset_shear_y, 0.0, 0)
            | b.flag(c.mix_rotate, 0.0, 1)
            | b.flag(c.mix_x, 0.0, 2)
            | b.flag(c.mix_y, 0.0, 3)
            | b.flag(c.mix_scale_x, 0.0, 4)
            | b.flag(c.mix_scale_y, 0.0, 5)
            | b.flag(c.mix_shear_y, 0.0, 6);
        o.u8(g);
        b.write(o);
    }
}

pub fn path(o: &mut Out, d: &SkeletonData) -> Result<(), WriteError> {
    o.uvarint(d.path_constraints.len());
    for c in &d.path_constraints {
        o.str(&c.name);
        o.uvarint(c.order.max(0) as usize);
        o.bool(c.skin_required);
        bone_list(o, &c.bones);
        o.uvarint(c.target);
        let f = position_mode(c.position_mode)
            | (spacing_mode(c.spacing_mode, SpineVersion::V42)? << 1)
            | (rotate_mode(c.rotate_mode) << 3)
            | bit(c.offset_rotation != 0.0, 7);
        o.u8(f);
        if c.offset_rotation != 0.0 {
            o.f64(c.offset_rotation);
        }
        for x in [c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y] {
            o.f64(x);
        }
    }
    Ok(())
}

pub fn physics(o: &mut Out, d: &SkeletonData) -> Result<(), WriteError> {
    o.uvarint(d.physics_constraints.len());
    for c in &d.physics_constraints {
        o.str(&c.name);
        o.uvarint(c.order.max(0) as usize);
        o.uvarint(c.bone);
        physics_body(o, c)?;
    }
    Ok(())
}

/// A physics constraint after its bone (the same in 4.2 and 4.3).
pub fn physics_body(o: &mut Out, c: &PhysicsConstraintData) -> Result<(), WriteError> {
    let defaults = PhysicsConstraintData::new(String::new(), 0);
    let mut a = Opt(Vec::new());
    let f = bit(c.skin_required, 0)
        | a.flag(c.x, 0.0, 1)
        | a.flag(c.y, 0.0, 2)
        | a.flag(c.rotate, 0.0, 3)
        | a.flag(c.scale_x, 0.0, 4)
        | a.flag(c.shear_x, 0.0, 5)
        | a.flag(c.limit, defaults.limit, 6)
        | bit(c.mass_inverse != defaults.mass_inverse, 7);
    o.u8(f);
    a.write(o);
    let fps = (1.0 / c.step).round();
    if !(1.0..=255.0).contains(&fps) {
        return Err(WriteError(format!(
            "physics constraint \"{}\": {fps} steps a second do not fit the format's byte",
            c.name
        )));
    }
    o.u8(fps as u8);
    for x in [c.inertia, c.strength, c.damping] {
        o.f64(x);
    }
    if c.mass_inverse != defaults.mass_inverse {
        o.f64(c.mass_inverse);
    }
    o.f64(c.wind);
    o.f64(c.gravity);
    let g = bit(c.inertia_global, 0)
        | bit(c.strength_global, 1)
        | bit(c.damping_global, 2)
        | bit(c.mass_global, 3)
        | bit(c.wind_global, 4)
        | bit(c.gravity_global, 5)
        | bit(c.mix_global, 6)
        | bit(c.mix != defaults.mix, 7);
    o.u8(g);
    if c.mix != defaults.mix {
        o.f64(c.mix);
    }
    Ok(())
}
