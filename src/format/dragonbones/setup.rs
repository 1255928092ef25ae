//! One armature's setup data: bones, slots, IK constraints, then skins and animations.

use foldhash::{HashMap, HashMapExt};

use super::ctx::{Ctx, join};
use super::dto;
use super::transform::{DbTransform, flip};
use super::{anim, displays};
use crate::core::color::Color;
use crate::core::model::{
    BlendMode, BoneData, IkConstraintData, Inherit, Lattice, SkeletonData, SlotData,
};
use crate::format::ErrorKind;
use crate::format::LoadError;
use crate::format::json::Seg::{self, Index, Key};
use crate::format::json::SmallKey;

/// Builds the armature at `at` (`armature[i]`) with its frame rate.
pub fn armature(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    arm: &dto::Armature,
    fps: f64,
) -> Result<SkeletonData, LoadError> {
    let mut data = SkeletonData {
        name: arm.name.as_deref().unwrap_or_default().to_string(),
        fps,
        rules: crate::core::model::Rules::DRAGONBONES,
        ..SkeletonData::default()
    };
    if let Some(b) = &arm.aabb {
        // The box is y-down: its top edge is y, so the y-up bottom is -(y + height).
        data.x = b.x.or(0.0);
        data.y = flip(b.y.or(0.0) + b.height.or(0.0));
        data.width = b.width.or(0.0);
        data.height = b.height.or(0.0);
    }
    let (file_to_core, surfaces) = bones(cx, at, arm, &mut data)?;
    slots(cx, at, arm, &mut data)?;
    iks(cx, at, arm, &mut data)?;
    let spaces = displays::skins(cx, at, arm, &file_to_core, &mut data)?;
    let mut events = Vec::new();
    for (i, a) in arm.animation.iter().enumerate() {
        let aat = join(at, &[Key("animation"), Index(i)]);
        let ignored: Vec<&str> = [
            ("type", a.kind.is_some()),
            ("blendType", a.blend_type.is_some()),
            ("timeline", a.timeline.is_some()),
        ]
        .into_iter()
        .filter_map(|(k, present)| present.then_some(k))
        .collect();
        if !ignored.is_empty() {
            data.load_warnings.push(format!(
                "animation \"{}\": 5.6 keys {} ignored, as the DragonBones 5.6 runtime does",
                a.name.as_deref().unwrap_or(""),
                ignored.join(", ")
            ));
        }
        let anim = anim::animation(cx, &aat, a, fps, &spaces, &data, &surfaces, &mut events)?;
        if data.find_animation(&anim.name).is_some() {
            return Err(cx
                .err(
                    &join(at, &[Key("animation"), Index(i), Key("name")]),
                    format!("two animations are named \"{}\"", anim.name),
                )
                .with_kind(ErrorKind::DuplicateName));
        }
        data.animations.push(anim);
    }
    data.events = events;
    Ok(data)
}

/// Bones, parents first (files list them so, but nothing guarantees it). Returns the map
/// from file index to core index (mesh weights use file indices) and, per core bone, whether
/// it is a surface.
fn bones(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    arm: &dto::Armature,
    data: &mut SkeletonData,
) -> Result<(Vec<usize>, Vec<bool>), LoadError> {
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (i, b) in arm.bone.iter().enumerate() {
        let name = b.name.as_deref().unwrap_or("");
        if by_name.insert(name, i).is_some() {
            return Err(cx
                .err(
                    &join(at, &[Key("bone"), Index(i), Key("name")]),
                    format!("two bones are named \"{name}\""),
                )
                .with_kind(ErrorKind::DuplicateName));
        }
    }
    let mut parent = Vec::with_capacity(arm.bone.len());
    for (i, b) in arm.bone.iter().enumerate() {
        parent.push(match b.parent.as_deref() {
            None => None,
            Some(p) => Some(*by_name.get(p).ok_or_else(|| {
                cx.err(
                    &join(at, &[Key("bone"), Index(i), Key("parent")]),
                    format!("unknown parent bone \"{p}\""),
                )
                .with_kind(ErrorKind::DanglingReference)
            })?),
        });
    }
    // Parents first, otherwise in file order; a cycle never reaches a root.
    let n = arm.bone.len();
    let mut order = Vec::with_capacity(n);
    let mut placed = vec![false; n];
    while order.len() < n {
        let before = order.len();
        for i in 0..n {
            if !placed[i] && parent[i].is_none_or(|p| placed[p]) {
                placed[i] = true;
                order.push(i);
            }
        }
        if order.len() == before {
            let i = (0..n).find(|&i| !placed[i]).unwrap_or(0);
            return Err(cx.err(
                &join(at, &[Key("bone"), Index(i), Key("parent")]),
                "bone parents form a cycle",
            ));
        }
    }
    let mut file_to_core = vec![0; n];
    for (core, &file) in order.iter().enumerate() {
        file_to_core[file] = core;
    }
    for &file in &order {
        let b = &arm.bone[file];
        let t = DbTransform::parse(&b.transform);
        let mut bd = BoneData::new(
            b.name.as_deref().unwrap_or_default().to_string(),
            parent[file].map(|p| file_to_core[p]),
        );
        bd.length = b.length.or(0.0);
        bd.x = t.x;
        bd.y = flip(t.y);
        bd.rotation = t.core_rotation();
        bd.shear_y = t.core_shear_y();
        bd.scale_x = t.scale_x;
        bd.scale_y = t.scale_y;
        let (translation, rotation, scale) = (
            b.inherit_translation.or(true),
            b.inherit_rotation.or(true),
            b.inherit_scale.or(true),
        );
        bd.inherit = if translation && rotation && scale {
            Inherit::Normal
        } else {
            Inherit::DragonBones {
                translation,
                rotation,
                scale,
            }
        };
        if b.kind.as_deref() == Some("surface") {
            let bat = join(at, &[Key("bone"), Index(file), Key("vertices")]);
            surface(cx, &bat, b, &mut bd)?;
        }
        data.bones.push(bd);
    }
    let surfaces = order
        .iter()
        .map(|&file| arm.bone[file].kind.as_deref() == Some("surface"))
        .collect();
    Ok((file_to_core, surfaces))
}

/// A 5.6 surface bone: a lattice of `segmentX` x `segmentY` cells its children are placed
/// through (`core::skeleton::lattice`, rules observed with DragonBonesJS 5.6.300,
/// tests/fixtures/dragonbones5/README.md). The runtime ignores the bone's transform and
/// timelines; its pose here is the lattice's bounding box (for the views), its world
/// transform comes from the lattice.
fn surface(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    b: &dto::Bone,
    bd: &mut BoneData,
) -> Result<(), LoadError> {
    let v = &b.vertices;
    // Without segments the runtime places every child at NaN; refused instead.
    let segments = |n: super::lenient::Num, key: &str| match n.0 {
        Some(n) if n.fract() == 0.0 && (1.0..=MAX_SEGMENTS).contains(&n) => Ok(n as usize),
        n => Err(cx.err(
            &join(&at[..at.len() - 1], &[Key(key)]),
            format!(
                "a surface bone needs {key} from 1 to {MAX_SEGMENTS}, not {}",
                n.map_or("none".to_string(), |n| n.to_string())
            ),
        )),
    };
    let (sx, sy) = (
        segments(b.segment_x, "segmentX")?,
        segments(b.segment_y, "segmentY")?,
    );
    let want = Lattice::vertex_count(sx, sy).and_then(|n| n.checked_mul(2));
    if want != Some(v.len()) {
        return Err(cx.err(
            at,
            format!(
                "a {sx} x {sy} surface lattice needs {} numbers (x, y of each grid vertex), not {}",
                want.unwrap_or(usize::MAX),
                v.len()
            ),
        ));
    }
    let xs = v.iter().step_by(2);
    let ys = v.iter().skip(1).step_by(2);
    let (x0, x1) = xs.fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let (y0, y1) = ys.fold((f64::MAX, f64::MIN), |(a, b), &y| (a.min(y), b.max(y)));
    bd.x = (x0 + x1) / 2.0;
    bd.y = flip((y0 + y1) / 2.0);
    bd.rotation = 0.0;
    bd.shear_y = 0.0;
    bd.scale_x = (x1 - x0) / 400.0;
    bd.scale_y = (y1 - y0) / 400.0;
    bd.inherit = Inherit::Normal;
    let vertices = v.chunks_exact(2).flat_map(|p| [p[0], flip(p[1])]).collect();
    bd.lattice = Some(Box::new(Lattice {
        segments_x: sx,
        segments_y: sy,
        vertices,
    }));
    Ok(())
}

/// The most cells a surface lattice may have across or down (the editor offers far fewer).
const MAX_SEGMENTS: f64 = 1000.0;

/// A slot color: multipliers in percent (default 100), offsets in 0..255 units (default 0).
pub fn color(c: Option<&dto::ColorTransform>) -> (Color, Color) {
    let m = |v: super::lenient::Num| v.or(100.0) / 100.0;
    let o = |v: super::lenient::Num| v.or(0.0) / 255.0;
    match c {
        None => (Color::WHITE, Color::rgba(0.0, 0.0, 0.0, 0.0)),
        Some(c) => (
            Color::rgba(m(c.r_m), m(c.g_m), m(c.b_m), m(c.a_m)).clamped(),
            Color::rgba(o(c.r_o), o(c.g_o), o(c.b_o), o(c.a_o)),
        ),
    }
}

fn slots(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    arm: &dto::Armature,
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    for (i, s) in arm.slot.iter().enumerate() {
        let name = s.name.as_deref().unwrap_or_default();
        if data.find_slot(name).is_some() {
            return Err(cx
                .err(
                    &join(at, &[Key("slot"), Index(i), Key("name")]),
                    format!("two slots are named \"{name}\""),
                )
                .with_kind(ErrorKind::DuplicateName));
        }
        let parent = s.parent.as_deref().unwrap_or("");
        let bone = data.find_bone(parent).ok_or_else(|| {
            cx.err(
                &join(at, &[Key("slot"), Index(i), Key("parent")]),
                format!("unknown bone \"{parent}\""),
            )
            .with_kind(ErrorKind::DanglingReference)
        })?;
        let (color, offset) = color(s.color.as_ref());
        // Names, or the runtime's numbers (1 add, 10 multiply, 12 screen); the modes the
        // core has no equivalent for draw normally.
        let blend = match &s.blend_mode {
            Some(dto::BlendModeField::Name(n)) => match n.as_str() {
                "add" => BlendMode::Additive,
                "multiply" => BlendMode::Multiply,
                "screen" => BlendMode::Screen,
                _ => BlendMode::Normal,
            },
            Some(dto::BlendModeField::Number(n)) => match *n as i64 {
                1 => BlendMode::Additive,
                10 => BlendMode::Multiply,
                12 => BlendMode::Screen,
                _ => BlendMode::Normal,
            },
            None => BlendMode::Normal,
        };
        data.slots.push(SlotData {
            name: name.to_string(),
            bone,
            color,
            dark: None,
            offset: Some(offset),
            // Resolved from the display index once the skins are read.
            attachment: None,
            blend,
        });
    }
    Ok(())
}

fn iks(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    arm: &dto::Armature,
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    for (i, ik) in arm.ik.iter().enumerate() {
        let here = |k: &'static str| join(at, &[Key("ik"), Index(i), Key(k)]);
        let find = |name: &Option<SmallKey>, k: &'static str| {
            let n = name.as_deref().unwrap_or("");
            data.find_bone(n).ok_or_else(|| {
                cx.err(&here(k), format!("unknown bone \"{n}\""))
                    .with_kind(ErrorKind::DanglingReference)
            })
        };
        let bone = find(&ik.bone, "bone")?;
        let target = find(&ik.target, "target")?;
        let chain = ik.chain.or(0.0);
        let bones = if chain >= 1.0 {
            let parent = data.bones[bone].parent.ok_or_else(|| {
                cx.err(
                    &here("chain"),
                    "a two-bone chain needs a bone with a parent",
                )
            })?;
            vec![parent, bone]
        } else {
            vec![bone]
        };
        if bones.contains(&target) {
            return Err(cx.err(&here("target"), "an IK target cannot be one of its bones"));
        }
        data.ik_constraints.push(IkConstraintData {
            name: ik
                .name
                .as_deref()
                .map_or_else(|| format!("ik{i}"), str::to_string),
            order: i as i32,
            skin_required: false,
            bones,
            target,
            mix: ik.weight.or(1.0),
            softness: 0.0,
            // y-down "positive" bends the other way once y points up.
            bend_direction: if ik.bend_positive.or(true) { -1 } else { 1 },
            compress: false,
            stretch: false,
            uniform: false,
            volume: false,
            rigid: true,
        });
    }
    Ok(())
}
