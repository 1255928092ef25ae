//! Spine 4.2 constraints. IK and transform constraints pack their booleans and which values
//! differ from the defaults into flag bytes; path constraints their modes; physics
//! constraints (new in 4.2) which channels and parameters follow (see `LAYOUT.md`).

use super::names::NameSet;

use super::read::Reader;
use super::setup::{bone_list, ik_bones, order, path_head, unique_name};
use crate::core::model::*;
use crate::format::spine_binary::cursor::Read;

/// Whether bit `n` of `flags` is set.
pub(super) fn bit(flags: u8, n: u8) -> bool {
    flags & (1 << n) != 0
}

/// A float when `present`, else `default`.
pub(super) fn opt(r: &mut Reader<'_>, present: bool, what: &str, default: f64) -> Read<f64> {
    if present { r.c.f64(what) } else { Ok(default) }
}

/// The path modes packed in the low five bits of `f` (read at `at`): position (bit 0),
/// spacing (bits 1-2), rotate (bits 3-4).
pub(super) fn path_modes(
    r: &Reader<'_>,
    at: usize,
    f: u8,
) -> Read<(PositionMode, SpacingMode, RotateMode)> {
    let position_mode = if bit(f, 0) {
        PositionMode::Percent
    } else {
        PositionMode::Fixed
    };
    let spacing_mode = match (f >> 1) & 3 {
        0 => SpacingMode::Length,
        1 => SpacingMode::Fixed,
        2 => SpacingMode::Percent,
        _ => SpacingMode::Proportional,
    };
    let rotate_mode = match (f >> 3) & 3 {
        0 => RotateMode::Tangent,
        1 => RotateMode::Chain,
        2 => RotateMode::ChainScale,
        m => return Err(r.c.error_at(at, format!("unknown rotate mode {m} (0..2)"))),
    };
    Ok((position_mode, spacing_mode, rotate_mode))
}

/// A mix stored in two flag bits: `nonzero` unset is 0, `nonzero` alone 1, both a float.
pub(super) fn mix(r: &mut Reader<'_>, nonzero: bool, float: bool, what: &str) -> Read<f64> {
    match (nonzero, float) {
        (false, _) => Ok(0.0),
        (true, false) => Ok(1.0),
        (true, true) => r.c.f64(what),
    }
}

/// IK: name, order, bones, target, then flags: bit 0 skin, 1 bend positive, 2 compress,
/// 3 stretch, 4 uniform, 5 mix not 0, 6 mix not 1 (a float follows when 5 is set too),
/// 7 softness float.
pub fn ik(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    // name, order, bone count, bone, target, flags.
    let n = r.c.count(6, "IK constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("IK constraint", Some(i), None);
        let name = unique_name(r, &mut seen, "IK constraint")?;
        let order = order(r)?;
        let (bones, target) = ik_bones(r, data)?;
        let f = r.c.u8("flags")?;
        let mix = mix(r, bit(f, 5), bit(f, 6), "mix")?;
        let softness = opt(r, bit(f, 7), "softness", 0.0)?;
        data.ik_constraints.push(IkConstraintData {
            name,
            order,
            skin_required: bit(f, 0),
            bones,
            target,
            mix,
            softness,
            bend_direction: if bit(f, 1) { 1 } else { -1 },
            compress: bit(f, 2),
            stretch: bit(f, 3),
            uniform: bit(f, 4),
            rigid: false,
            volume: false,
        });
        r.c.leave();
    }
    Ok(())
}

/// Transform: name, order, bones, target, then flags: bit 0 skin, 1 local, 2 relative,
/// 3-7 offsets rotation, x, y, scaleX, scaleY follow; second flags: bit 0 shearY offset,
/// 1-6 mixes rotate, x, y, scaleX, scaleY, shearY follow (absent: 0).
pub fn transform(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    let n = r.c.count(7, "transform constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("transform constraint", Some(i), None);
        let name = unique_name(r, &mut seen, "transform constraint")?;
        let order = order(r)?;
        let bones = bone_list(r, data.bones.len())?;
        let target = r.c.index(data.bones.len(), "target bone index")?;
        let f = r.c.u8("flags")?;
        let offset_rotation = opt(r, bit(f, 3), "rotation offset", 0.0)?;
        let offset_x = opt(r, bit(f, 4), "x offset", 0.0)?;
        let offset_y = opt(r, bit(f, 5), "y offset", 0.0)?;
        let offset_scale_x = opt(r, bit(f, 6), "scaleX offset", 0.0)?;
        let offset_scale_y = opt(r, bit(f, 7), "scaleY offset", 0.0)?;
        let g = r.c.u8("second flags")?;
        let at = r.c.offset() - 1;
        if bit(g, 7) {
            return Err(r.c.error_at(at, format!("unknown flag bit 7 in {g:#04x}")));
        }
        let offset_shear_y = opt(r, bit(g, 0), "shearY offset", 0.0)?;
        data.transform_constraints.push(TransformConstraintData {
            name,
            order,
            skin_required: bit(f, 0),
            bones,
            target,
            local: bit(f, 1),
            relative: bit(f, 2),
            offset_rotation,
            offset_x,
            offset_y,
            offset_scale_x,
            offset_scale_y,
            offset_shear_y,
            mix_rotate: opt(r, bit(g, 1), "rotate mix", 0.0)?,
            mix_x: opt(r, bit(g, 2), "x mix", 0.0)?,
            mix_y: opt(r, bit(g, 3), "y mix", 0.0)?,
            mix_scale_x: opt(r, bit(g, 4), "scaleX mix", 0.0)?,
            mix_scale_y: opt(r, bit(g, 5), "scaleY mix", 0.0)?,
            mix_shear_y: opt(r, bit(g, 6), "shearY mix", 0.0)?,
            mapping: None,
        });
        r.c.leave();
    }
    Ok(())
}

/// Path: name, order, skin, bones, target slot, then flags: bit 0 position mode, 1-2 spacing
/// mode, 3-4 rotate mode, 7 rotation offset follows (established with the official 4.2
/// reader: bit 5 misreads); then position, spacing and three mixes.
pub fn path(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    let n = r.c.count(6 + 5 * 4, "path constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("path constraint", Some(i), None);
        let (name, order, skin_required, bones, target) = path_head(r, data, &mut seen)?;
        let at = r.c.offset();
        let f = r.c.u8("flags")?;
        let (position_mode, spacing_mode, rotate_mode) = path_modes(r, at, f)?;
        if f & 0x60 != 0 {
            return Err(r.c.error_at(at, format!("unknown flag bits in {f:#04x}")));
        }
        data.path_constraints.push(PathConstraintData {
            name,
            order,
            skin_required,
            bones,
            target,
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation: opt(r, bit(f, 7), "rotation offset", 0.0)?,
            position: r.c.f64("position")?,
            spacing: r.c.f64("spacing")?,
            mix_rotate: r.c.f64("rotate mix")?,
            mix_x: r.c.f64("x mix")?,
            mix_y: r.c.f64("y mix")?,
        });
        r.c.leave();
    }
    Ok(())
}

/// Physics: name, order, bone, then flags: bit 0 skin, 1-5 weights x, y, rotate, scaleX,
/// shearX follow, 6 limit, 7 mass (as its inverse); then the rate in frames per second (a
/// byte), inertia, strength, damping, [mass inverse], wind, gravity, and a byte of global
/// flags (bits 0-6 inertia .. mix) whose bit 7 says a mix follows (else 1).
pub fn physics(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    // name, order, bone, flags, fps, 5 floats, globals.
    let n = r.c.count(6 + 5 * 4, "physics constraint count")?;
    let mut seen = NameSet::with_capacity(n);
    for i in 0..n {
        r.c.enter("physics constraint", Some(i), None);
        let name = unique_name(r, &mut seen, "physics constraint")?;
        let order = order(r)?;
        let bone = r.c.index(data.bones.len(), "bone index")?;
        let mut d = PhysicsConstraintData::new(name, bone);
        d.order = order;
        physics_body(r, &mut d)?;
        data.physics_constraints.push(d);
        r.c.leave();
    }
    Ok(())
}

/// A physics constraint after its bone (4.2 and 4.3).
pub fn physics_body(r: &mut Reader<'_>, d: &mut PhysicsConstraintData) -> Read<()> {
    {
        let f = r.c.u8("flags")?;
        d.skin_required = bit(f, 0);
        d.x = opt(r, bit(f, 1), "x", 0.0)?;
        d.y = opt(r, bit(f, 2), "y", 0.0)?;
        d.rotate = opt(r, bit(f, 3), "rotate", 0.0)?;
        d.scale_x = opt(r, bit(f, 4), "scaleX", 0.0)?;
        d.shear_x = opt(r, bit(f, 5), "shearX", 0.0)?;
        d.limit = opt(r, bit(f, 6), "limit", d.limit)?;
        let at = r.c.offset();
        let fps = r.c.u8("fps")?;
        // A byte cannot pass MAX_FPS, but one rule serves both readers.
        if let Err(message) = PhysicsConstraintData::check_fps(f64::from(fps)) {
            return Err(r.c.error_at(at, message.to_string()));
        }
        d.step = 1.0 / fps as f64;
        d.inertia = r.c.f64("inertia")?;
        d.strength = r.c.f64("strength")?;
        d.damping = r.c.f64("damping")?;
        let at = r.c.offset();
        d.mass_inverse = opt(r, bit(f, 7), "mass inverse", d.mass_inverse)?;
        if d.mass_inverse == 0.0 {
            return Err(r.c.error_at(at, "mass inverse must not be 0"));
        }
        d.wind = r.c.f64("wind")?;
        d.gravity = r.c.f64("gravity")?;
        let g = r.c.u8("global flags")?;
        d.inertia_global = bit(g, 0);
        d.strength_global = bit(g, 1);
        d.damping_global = bit(g, 2);
        d.mass_global = bit(g, 3);
        d.wind_global = bit(g, 4);
        d.gravity_global = bit(g, 5);
        d.mix_global = bit(g, 6);
        d.mix = opt(r, bit(g, 7), "mix", d.mix)?;
    }
    Ok(())
}
