//! The header and setup pose of a `.skel`: bones, slots, the 3.8-4.1 constraints (4.2:
//! [`super::setup42`]) and event definitions.

use super::WriteError;
use super::out::{Out, Strings, byte};
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

/// The editor's bone color, written where the model has none (nonessential data).
const BONE_COLOR: Color = Color {
    r: 0x98 as f64 / 255.0,
    g: 0x98 as f64 / 255.0,
    b: 0x98 as f64 / 255.0,
    a: 1.0,
};

/// The hash and version, the skeleton's bounds, (4.2) reference scale, and the
/// nonessential flag with what it brings (fps, images and audio paths).
pub fn header(o: &mut Out, d: &SkeletonData, v: SpineVersion) {
    if v == SpineVersion::V38 {
        o.string((!d.hash.is_empty()).then_some(d.hash.as_str()));
    } else {
        o.bytes.extend_from_slice(&hash8(&d.hash));
    }
    o.str(&d.source.version);
    for x in [d.x, d.y, d.width, d.height] {
        o.f64(x);
    }
    if v >= SpineVersion::V42 {
        o.f64(d.reference_scale.0);
    }
    // Nonessential data is written: it keeps fps, paths, editor colors and mesh edges.
    o.bool(true);
    o.f64(d.fps);
    o.string(d.images.as_deref());
    o.string(d.audio.as_deref());
}

/// The 4.x hash bytes: the model holds the JSON's base64 text (11 characters) or, read
/// from a binary, the bytes in hex (16 digits); anything else is written as zeros.
fn hash8(hash: &str) -> [u8; 8] {
    let mut out = [0u8; 8];
    if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        for (i, o) in out.iter_mut().enumerate() {
            *o = u8::from_str_radix(&hash[i * 2..i * 2 + 2], 16).unwrap_or(0);
        }
        return out;
    }
    let digit = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let text = hash.trim_end_matches('=');
    let Some(digits) = text.bytes().map(digit).collect::<Option<Vec<u32>>>() else {
        return out;
    };
    if digits.len() != 11 {
        return out;
    }
    let mut bits: u128 = 0;
    for d in &digits {
        bits = (bits << 6) | *d as u128;
    }
    // 11 digits hold 66 bits: the last 2 are padding.
    out.copy_from_slice(&((bits >> 2) as u64).to_be_bytes());
    out
}

fn inherit(i: Inherit, what: &str) -> Result<usize, WriteError> {
    Ok(match i {
        Inherit::Normal => 0,
        Inherit::OnlyTranslation => 1,
        Inherit::NoRotationOrReflection => 2,
        Inherit::NoScale => 3,
        Inherit::NoScaleOrReflection => 4,
        Inherit::DragonBones { .. } => {
            return Err(WriteError(format!(
                "{what} inherits as DragonBones does: not a Spine mode"
            )));
        }
    })
}

/// An inherit mode's number (0 normal .. 4 noScaleOrReflection).
pub fn inherit_mode(i: Inherit, what: &str) -> Result<u8, WriteError> {
    inherit(i, what).map(|m| m as u8)
}

pub fn bones(o: &mut Out, d: &SkeletonData, v: SpineVersion) -> Result<(), WriteError> {
    o.uvarint(d.bones.len());
    for (i, b) in d.bones.iter().enumerate() {
        o.str(&b.name);
        match (i, b.parent) {
            (0, None) => {}
            (_, Some(p)) if i > 0 && p < i => o.uvarint(p),
            _ => {
                return Err(WriteError(format!(
                    "bone \"{}\": the first bone is the only one without a parent, and parents come first",
                    b.name
                )));
            }
        }
        for x in [
            b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y,
        ] {
            o.f64(x);
        }
        let mode = inherit(b.inherit, &format!("bone \"{}\"", b.name))?;
        // 4.3 moved the length after the inherit mode (a byte; a varint below 128 reads
        // the same).
        if v >= SpineVersion::V43 {
            o.uvarint(mode);
            o.f64(b.length);
        } else {
            o.f64(b.length);
            o.uvarint(mode);
        }
        o.bool(b.skin_required);
        o.color(b.color.unwrap_or(BONE_COLOR));
        if v >= SpineVersion::V42 {
            o.string(None); // icon
            if v >= SpineVersion::V43 {
                o.f64(1.0); // icon size
                o.f64(0.0); // icon rotation
            }
            o.bool(true); // visible
        }
    }
    Ok(())
}

pub fn slots(o: &mut Out, s: &mut Strings, d: &SkeletonData, v: SpineVersion) {
    o.uvarint(d.slots.len());
    for slot in &d.slots {
        o.str(&slot.name);
        o.uvarint(slot.bone);
        o.color(slot.color);
        match slot.dark {
            // All ones is "no dark color": its unused first byte tells white apart.
            Some(c) => {
                o.u8(0);
                o.rgb([c.r, c.g, c.b]);
            }
            None => o.i32(-1),
        }
        s.write(o, slot.attachment.as_deref());
        o.uvarint(match slot.blend {
            BlendMode::Normal => 0,
            BlendMode::Additive => 1,
            BlendMode::Multiply => 2,
            BlendMode::Screen => 3,
        });
        if v >= SpineVersion::V42 {
            o.bool(true); // visible
        }
    }
}

/// A constraint's bone list.
pub fn bone_list(o: &mut Out, bones: &[usize]) {
    o.uvarint(bones.len());
    bones.iter().for_each(|&b| o.uvarint(b));
}

fn order(o: &mut Out, order: i32) {
    o.uvarint(order.max(0) as usize);
}

pub fn ik(o: &mut Out, d: &SkeletonData) {
    o.uvarint(d.ik_constraints.len());
    for c in &d.ik_constraints {
        o.str(&c.name);
        order(o, c.order);
        o.bool(c.skin_required);
        bone_list(o, &c.bones);
        o.uvarint(c.target);
        o.f64(c.mix);
        o.f64(c.softness);
        o.i8(if c.bend_direction > 0 { 1 } else { -1 });
        o.bool(c.compress);
        o.bool(c.stretch);
        o.bool(c.uniform);
    }
}

pub fn transform(o: &mut Out, d: &SkeletonData, v: SpineVersion) {
    o.uvarint(d.transform_constraints.len());
    for c in &d.transform_constraints {
        o.str(&c.name);
        order(o, c.order);
        o.bool(c.skin_required);
        bone_list(o, &c.bones);
        o.uvarint(c.target);
        o.bool(c.local);
        o.bool(c.relative);
        for x in [
            c.offset_rotation,
            c.offset_x,
            c.offset_y,
            c.offset_scale_x,
            c.offset_scale_y,
            c.offset_shear_y,
        ] {
            o.f64(x);
        }
        let mixes: &[f64] = if v == SpineVersion::V38 {
            &[c.mix_rotate, c.mix_x, c.mix_scale_x, c.mix_shear_y]
        } else {
            &[
                c.mix_rotate,
                c.mix_x,
                c.mix_y,
                c.mix_scale_x,
                c.mix_scale_y,
                c.mix_shear_y,
            ]
        };
        mixes.iter().for_each(|&m| o.f64(m));
    }
}

pub fn position_mode(m: PositionMode) -> u8 {
    match m {
        PositionMode::Fixed => 0,
        PositionMode::Percent => 1,
    }
}

pub fn spacing_mode(m: SpacingMode, v: SpineVersion) -> Result<u8, WriteError> {
    Ok(match m {
        SpacingMode::Length => 0,
        SpacingMode::Fixed => 1,
        SpacingMode::Percent => 2,
        SpacingMode::Proportional if v >= SpineVersion::V40 => 3,
        SpacingMode::Proportional => {
            return Err(WriteError(
                "proportional path spacing came with Spine 4.0".into(),
            ));
        }
    })
}

pub fn rotate_mode(m: RotateMode) -> u8 {
    match m {
        RotateMode::Tangent => 0,
        RotateMode::Chain => 1,
        RotateMode::ChainScale => 2,
    }
}

pub fn path(o: &mut Out, d: &SkeletonData, v: SpineVersion) -> Result<(), WriteError> {
    o.uvarint(d.path_constraints.len());
    for c in &d.path_constraints {
        o.str(&c.name);
        order(o, c.order);
        o.bool(c.skin_required);
        bone_list(o, &c.bones);
        o.uvarint(c.target);
        o.uvarint(position_mode(c.position_mode) as usize);
        o.uvarint(spacing_mode(c.spacing_mode, v)? as usize);
        o.uvarint(rotate_mode(c.rotate_mode) as usize);
        for x in [
            c.offset_rotation,
            c.position,
            c.spacing,
            c.mix_rotate,
            c.mix_x,
        ] {
            o.f64(x);
        }
        if v >= SpineVersion::V40 {
            o.f64(c.mix_y);
        }
    }
    Ok(())
}

/// A skin's or event's own name: a string-table reference before 4.2, the text from 4.2.
pub fn own_name(o: &mut Out, s: &mut Strings, v: SpineVersion, name: &str) {
    if v >= SpineVersion::V42 {
        o.str(name);
    } else {
        s.write(o, Some(name));
    }
}

pub fn events(o: &mut Out, s: &mut Strings, d: &SkeletonData, v: SpineVersion) {
    o.uvarint(d.events.len());
    for e in &d.events {
        own_name(o, s, v, &e.name);
        o.zigzag(e.int);
        o.f64(e.float);
        o.string(Some(&e.string));
        o.string(e.audio.as_deref());
        if e.audio.is_some() {
            o.f64(e.volume);
            o.f64(e.balance);
        }
    }
}

/// A color's channels as bytes (keys of color timelines).
pub fn key_bytes(o: &mut Out, channels: impl IntoIterator<Item = f64>) {
    channels.into_iter().for_each(|c| o.u8(byte(c)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes() {
        // 4.0 spinosaurus: 62d93b668b3a0d1e = Ytk7Zos6DR4 (LAYOUT.md).
        assert_eq!(hash8("Ytk7Zos6DR4"), hash8("62d93b668b3a0d1e"));
        assert_eq!(hash8("62d93b668b3a0d1e")[0], 0x62);
        // 4.2 mix-and-match-pro: the top bits too.
        assert_eq!(
            hash8("tNX0Pe3Kdo0"),
            [0xb4, 0xd5, 0xf4, 0x3d, 0xed, 0xca, 0x76, 0x8d]
        );
        assert_eq!(hash8("?"), [0; 8]);
    }
}
