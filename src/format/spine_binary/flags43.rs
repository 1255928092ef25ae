//! Spine 4.3 constraints: one list in update order (see `LAYOUT.md`). Each entry is
//! `str name`, `u8 type` (0 IK, 1 path, 2 transform, 3 physics, 4 slider) and the fields of
//! its kind with booleans and present values in flag bytes. Its position in the list is its
//! update order and the index constraint timelines and skins use. A slider's animation is
//! an index read after the animations ([`slider_animations`]).

use super::flags42::{bit, mix, opt, path_modes};
use super::names::NameSet;
use super::read::Reader;
use super::setup::{bone_list, ik_bones};
use crate::core::model::*;
use crate::format::ErrorKind;
use crate::format::spine_binary::cursor::Read;

/// A property byte of transform mappings and slider drivers (0 rotate .. 5 shearY).
fn property(r: &mut Reader<'_>, what: &str) -> Read<BoneProperty43> {
    let at = r.c.offset();
    Ok(match r.c.u8(what)? {
        0 => BoneProperty43::Rotate,
        1 => BoneProperty43::X,
        2 => BoneProperty43::Y,
        3 => BoneProperty43::ScaleX,
        4 => BoneProperty43::ScaleY,
        5 => BoneProperty43::ShearY,
        p => return Err(r.c.error_at(at, format!("unknown {what} {p} (0..5)"))),
    })
}

/// Reads the constraint list into the per-kind lists of `data`; `r.constraints` gets each
/// entry's kind and index there, in list order.
pub fn constraints(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    // name, type, a bone or bone list, flags.
    let n = r.c.count(4, "constraint count")?;
    // Names are unique per kind (timelines are grouped by kind).
    let mut seen: [NameSet<'_>; 5] = std::array::from_fn(|_| NameSet::with_capacity(n));
    for i in 0..n {
        r.c.enter("constraint", Some(i), None);
        let at = r.c.offset();
        let name = r.c.name_str("name")?;
        let at_type = r.c.offset();
        let kind = r.c.u8("type")?;
        if kind > 4 {
            return Err(r.c.error_at(
                at_type,
                format!("unknown constraint type {kind} (0 IK, 1 path, 2 transform, 3 physics, 4 slider)"),
            ));
        }
        if !seen[kind as usize].insert(name) {
            return Err(r
                .c
                .error_at(at, format!("duplicate constraint name \"{name}\""))
                .with_kind(ErrorKind::DuplicateName));
        }
        let order = i32::try_from(i).map_err(|_| r.c.error_at(at, "too many constraints"))?;
        let name = name.to_string();
        let c = match kind {
            0 => {
                data.ik_constraints.push(ik(r, data, name, order)?);
                ConstraintRef::Ik(data.ik_constraints.len() - 1)
            }
            1 => {
                data.path_constraints.push(path(r, data, name, order)?);
                ConstraintRef::Path(data.path_constraints.len() - 1)
            }
            2 => {
                data.transform_constraints
                    .push(transform(r, data, name, order)?);
                ConstraintRef::Transform(data.transform_constraints.len() - 1)
            }
            3 => {
                data.physics_constraints
                    .push(physics(r, data, name, order)?);
                ConstraintRef::Physics(data.physics_constraints.len() - 1)
            }
            _ => {
                data.slider_constraints.push(slider(r, data, name, order)?);
                ConstraintRef::Slider(data.slider_constraints.len() - 1)
            }
        };
        r.constraints.push(c);
        r.c.leave();
    }
    Ok(())
}

/// IK: bones, target, flags: bit 0 skin, 1 a scaleY mode byte follows (1 uniform,
/// 2 volume), 2 bend negative, 3 compress, 4 stretch, 5 mix not 0, 6 mix not 1 (a float
/// follows with 5), 7 softness float.
fn ik(r: &mut Reader<'_>, data: &SkeletonData, name: String, order: i32) -> Read<IkConstraintData> {
    let (bones, target) = ik_bones(r, data)?;
    let f = r.c.u8("flags")?;
    let mut mode = 0;
    if bit(f, 1) {
        let at = r.c.offset();
        mode = r.c.u8("scaleY mode")?;
        if mode > 2 {
            return Err(r
                .c
                .error_at(at, format!("unknown scaleY mode {mode} (0..2)")));
        }
    }
    Ok(IkConstraintData {
        name,
        order,
        skin_required: bit(f, 0),
        bones,
        target,
        mix: mix(r, bit(f, 5), bit(f, 6), "mix")?,
        softness: opt(r, bit(f, 7), "softness", 0.0)?,
        bend_direction: if bit(f, 2) { -1 } else { 1 },
        compress: bit(f, 3),
        stretch: bit(f, 4),
        uniform: mode == 1,
        volume: mode == 2,
        rigid: false,
    })
}

/// Path: bones, target slot, flags: bit 0 skin, 1 position mode, 2-3 spacing mode, 4-5
/// rotate mode, 7 rotation offset follows; then position, spacing and three mixes.
fn path(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    name: String,
    order: i32,
) -> Read<PathConstraintData> {
    let bones = bone_list(r, data.bones.len())?;
    let target = r.c.index(data.slots.len(), "target slot index")?;
    let at = r.c.offset();
    let f = r.c.u8("flags")?;
    let (position_mode, spacing_mode, rotate_mode) = path_modes(r, at, f >> 1)?;
    if bit(f, 6) {
        return Err(r.c.error_at(at, format!("unknown flag bit 6 in {f:#04x}")));
    }
    Ok(PathConstraintData {
        name,
        order,
        skin_required: bit(f, 0),
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
    })
}

/// Transform: bones, source, flags: bit 0 skin, 1 local source, 2 local target, 3 additive,
/// 4 clamp, 5-7 the number of mapped properties; each `u8 property`, `f offset`, `vi+ k`
/// and k `u8 property`, `f offset, max, scale`; then a byte of offsets (bits 0-5 rotation,
/// x, y, scaleX, scaleY, shearY follow as floats) and a byte of mixes (bits 0-5 rotate, x,
/// y, scaleX, scaleY, shearY follow; absent: 0).
fn transform(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    name: String,
    order: i32,
) -> Read<TransformConstraintData> {
    let bones = bone_list(r, data.bones.len())?;
    let target = r.c.index(data.bones.len(), "source bone index")?;
    let f = r.c.u8("flags")?;
    let count = (f >> 5) as usize;
    let mut from = Vec::with_capacity(count);
    for _ in 0..count {
        let property = property(r, "mapped property")?;
        let offset = r.c.f64("mapped offset")?;
        let k = r.c.count(1 + 3 * 4, "mapped target count")?;
        let mut to = Vec::with_capacity(k);
        for _ in 0..k {
            to.push(MappedTo {
                property: property_to(r)?,
                offset: r.c.f64("target offset")?,
                max: r.c.f64("target max")?,
                scale: r.c.f64("target scale")?,
            });
        }
        from.push(MappedFrom {
            property,
            offset,
            to,
        });
    }
    let mut values = [[0.0; 6]; 2];
    for (what, list) in ["offsets", "mixes"].into_iter().zip(&mut values) {
        let at = r.c.offset();
        let g = r.c.u8(what)?;
        if g & 0xc0 != 0 {
            return Err(r
                .c
                .error_at(at, format!("unknown {what} flag bits in {g:#04x}")));
        }
        for (n, v) in list.iter_mut().enumerate() {
            *v = opt(r, bit(g, n as u8), what, 0.0)?;
        }
    }
    let [o, m] = values;
    let (local_source, local_target, additive) = (bit(f, 1), bit(f, 2), bit(f, 3));
    Ok(TransformConstraintData {
        name,
        order,
        skin_required: bit(f, 0),
        bones,
        target,
        offset_rotation: o[0],
        offset_x: o[1],
        offset_y: o[2],
        offset_scale_x: o[3],
        offset_scale_y: o[4],
        offset_shear_y: o[5],
        mix_rotate: m[0],
        mix_x: m[1],
        mix_y: m[2],
        mix_scale_x: m[3],
        mix_scale_y: m[4],
        mix_shear_y: m[5],
        local: local_source && local_target,
        relative: additive,
        mapping: Some(TransformMapping {
            local_source,
            local_target,
            additive,
            clamp: bit(f, 4),
            from,
        }),
    })
}

fn property_to(r: &mut Reader<'_>) -> Read<BoneProperty43> {
    property(r, "target property")
}

/// Physics: bone, then as 4.2 (`flags42::physics_body`). The 4.3 scaleY mode is not in the
/// binary (the official 4.3.13 reader keeps none).
fn physics(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    name: String,
    order: i32,
) -> Read<PhysicsConstraintData> {
    let bone = r.c.index(data.bones.len(), "bone index")?;
    let mut d = PhysicsConstraintData::new(name, bone);
    d.order = order;
    super::flags42::physics_body(r, &mut d)?;
    Ok(d)
}

/// Slider: flags: bit 0 skin, 1 loop, 2 additive, 3 a time float follows, 4 mix not 0,
/// 5 mix not 1 (a float follows with 4), 6 driven by a bone: `vi+ bone`, `f from`,
/// `u8 property`, `f to`, `f scale`; 7 the bone's local value.
fn slider(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    name: String,
    order: i32,
) -> Read<SliderConstraintData> {
    let f = r.c.u8("flags")?;
    let time = opt(r, bit(f, 3), "time", 0.0)?;
    let mix = mix(r, bit(f, 4), bit(f, 5), "mix")?;
    let driver = if bit(f, 6) {
        let bone = r.c.index(data.bones.len(), "bone index")?;
        let from = r.c.f64("from")?;
        let property = property(r, "property")?;
        Some(SliderDriver {
            bone,
            property,
            from,
            to: r.c.f64("to")?,
            scale: r.c.f64("scale")?,
            local: bit(f, 7),
        })
    } else {
        None
    };
    Ok(SliderConstraintData {
        name,
        order,
        skin_required: bit(f, 0),
        animation: usize::MAX,
        additive: bit(f, 2),
        looping: bit(f, 1),
        mix,
        // Only a slider without a bone keeps its time (as the JSON loader).
        time: if driver.is_some() { 0.0 } else { time },
        driver,
        keyed_bones: Vec::new(),
    })
}

/// After the animations: each slider's animation index, in list order; a slider also
/// records the bones its animation keys.
pub fn slider_animations(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    for i in 0..data.slider_constraints.len() {
        r.c.enter("slider animation", Some(i), None);
        let a = r.c.index(data.animations.len(), "animation index")?;
        let mut bones: Vec<usize> = data.animations[a]
            .timelines
            .iter()
            .filter_map(|t| t.bone())
            .collect();
        bones.sort_unstable();
        bones.dedup();
        let s = &mut data.slider_constraints[i];
        s.animation = a;
        s.keyed_bones = bones;
        r.c.leave();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::json::budget::Budget;
    use crate::format::spine_binary::cursor::Cursor;
    use crate::format::spine_binary::read::Version;

    fn reader(bytes: &[u8]) -> Reader<'_> {
        Reader {
            c: Cursor::new(bytes),
            strings: Vec::new(),
            nonessential: false,
            budget: Budget::for_text(bytes.len()),
            version: Version::V43,
            weights_scratch: (Vec::new(), Vec::new()),
            constraints: Vec::new(),
            timeline_slots: Vec::new(),
        }
    }

    fn two_bones() -> SkeletonData {
        let mut d = SkeletonData::default();
        d.bones.push(BoneData::new("root", None));
        d.bones.push(BoneData::new("b", Some(0)));
        d
    }

    #[test]
    fn ik_flags_scale_y_mode_bend_and_mix() {
        // 1 constraint "c", type 0, bones [1], target 0, flags: skin, scaleY mode, bend
        // negative, mix not 0 and not 1; mode 2 (volume), mix 0.5.
        let mut bytes = vec![1, 2, b'c', 0, 1, 1, 0, 0b0110_0111, 2];
        bytes.extend_from_slice(&0.5f32.to_be_bytes());
        let mut d = two_bones();
        let mut r = reader(&bytes);
        constraints(&mut r, &mut d).expect("reads");
        let c = &d.ik_constraints[0];
        assert!(c.skin_required && c.volume && !c.uniform);
        assert_eq!((c.bend_direction, c.mix, c.order), (-1, 0.5, 0));
        assert_eq!(r.constraints, [ConstraintRef::Ik(0)]);
    }

    #[test]
    fn an_unknown_constraint_type_is_refused_at_its_byte() {
        let bytes = [1, 2, b'c', 9, 0, 0];
        let mut d = two_bones();
        let e = constraints(&mut reader(&bytes), &mut d).expect_err("type 9");
        assert!(e.to_string().contains("byte 3"), "{e}");
        assert!(e.to_string().contains("unknown constraint type 9"), "{e}");
    }

    #[test]
    fn a_timed_slider_and_a_bone_driven_one() {
        // Slider "s": loop, time 0.25, mix 1; slider "t": driven by bone 1's scaleX (from 2,
        // to 3, scale 4), local, mix 0.
        let mut bytes = vec![2, 2, b's', 4, 0b0001_1010];
        bytes.extend_from_slice(&0.25f32.to_be_bytes());
        bytes.extend_from_slice(&[2, b't', 4, 0b1100_0000, 1]);
        bytes.extend_from_slice(&2f32.to_be_bytes());
        bytes.push(3);
        bytes.extend_from_slice(&3f32.to_be_bytes());
        bytes.extend_from_slice(&4f32.to_be_bytes());
        let mut d = two_bones();
        constraints(&mut reader(&bytes), &mut d).expect("reads");
        let (s, t) = (&d.slider_constraints[0], &d.slider_constraints[1]);
        assert!(s.looping && s.driver.is_none());
        assert_eq!((s.time, s.mix), (0.25, 1.0));
        let drv = t.driver.expect("bone-driven");
        assert_eq!(drv.property, BoneProperty43::ScaleX);
        assert_eq!((drv.bone, drv.from, drv.to, drv.scale), (1, 2.0, 3.0, 4.0));
        assert!(drv.local && t.mix == 0.0);
    }
}
