//! Animations: per animation its name, (4.x) timeline count, then the sections in file
//! order: slot, bone, IK, transform, path, (4.2) physics, attachment (deform, sequence),
//! draw order and event timelines. Curve keys: [`super::curves`]; 4.2 IK, inherit and
//! physics: [`super::anim42`]; deform, sequence, draw order and events: [`super::deform`].

use super::curves::{keys, none};
use super::out::{Out, Strings};
use super::setup::key_bytes;
use super::{Ctx, WriteError, anim42, deform, setup43};
use crate::core::animation::*;
use crate::core::curve::Keys;
use crate::core::model::ConstraintRef;
use crate::format::spine_json::SpineVersion;

pub fn animations(o: &mut Out, s: &mut Strings, cx: &Ctx<'_>) -> Result<(), WriteError> {
    o.uvarint(cx.d.animations.len());
    for a in &cx.d.animations {
        let mut body = Out::default();
        animation(&mut body, s, cx, a)
            .map_err(|e| WriteError(format!("animation \"{}\": {}", a.name, e.0)))?;
        o.str(&a.name);
        if cx.v != SpineVersion::V38 {
            o.uvarint(a.timelines.len());
        }
        o.bytes.extend_from_slice(&body.bytes);
    }
    Ok(())
}

/// Timelines grouped by what they animate, in order of first appearance.
pub struct Groups<'a, K>(pub Vec<(K, Vec<&'a Timeline>)>);

impl<'a, K: PartialEq> Groups<'a, K> {
    pub fn new() -> Self {
        Groups(Vec::new())
    }

    pub fn add(&mut self, k: K, t: &'a Timeline) {
        match self.0.iter_mut().find(|(x, _)| *x == k) {
            Some((_, list)) => list.push(t),
            None => self.0.push((k, vec![t])),
        }
    }
}

fn animation(o: &mut Out, s: &mut Strings, cx: &Ctx<'_>, a: &Animation) -> Result<(), WriteError> {
    let v = cx.v;
    // A constraint timeline names its constraint by its index in its kind's list; 4.3 by
    // its index in the one constraint list.
    let index = |c: ConstraintRef, i: usize| {
        if v >= SpineVersion::V43 {
            setup43::list_index(cx.d, c)
        } else {
            Ok(i)
        }
    };
    let (mut slots, mut bones, mut paths, mut physics, mut sliders) = (
        Groups::new(),
        Groups::new(),
        Groups::new(),
        Groups::new(),
        Groups::new(),
    );
    let (mut ik, mut transform, mut attachments) = (Vec::new(), Vec::new(), Vec::new());
    let (mut draw_order, mut events) = (None, None);
    let mut folders = Vec::new();
    for t in &a.timelines {
        match t {
            Timeline::Attachment(x) => slots.add(x.slot, t),
            Timeline::Color(x) => slots.add(x.slot, t),
            Timeline::TwoColor(x) => slots.add(x.slot, t),
            Timeline::Bone(x) => bones.add(x.bone, t),
            Timeline::Inherit(x) => bones.add(x.bone, t),
            Timeline::Ik(x) => ik.push((index(ConstraintRef::Ik(x.constraint), x.constraint)?, x)),
            Timeline::Transform(x) => transform.push((
                index(ConstraintRef::Transform(x.constraint), x.constraint)?,
                x,
            )),
            Timeline::Path(x) => {
                paths.add(index(ConstraintRef::Path(x.constraint), x.constraint)?, t)
            }
            Timeline::Physics(PhysicsTimeline { constraint, .. })
            | Timeline::PhysicsReset(PhysicsResetTimeline { constraint, .. }) => {
                let c = match *constraint {
                    Some(c) => Some(index(ConstraintRef::Physics(c), c)?),
                    None => None,
                };
                physics.add(c, t)
            }
            Timeline::Slider(x) if v >= SpineVersion::V43 => {
                sliders.add(index(ConstraintRef::Slider(x.constraint), x.constraint)?, t)
            }
            Timeline::Deform(_) | Timeline::Sequence(_) => attachments.push(t),
            Timeline::DrawOrder(x) => {
                if draw_order.replace(x).is_some() {
                    return Err(WriteError("two draw order timelines".into()));
                }
            }
            Timeline::Event(x) => {
                if events.replace(x).is_some() {
                    return Err(WriteError("two event timelines".into()));
                }
            }
            Timeline::Slider(_) => {
                return Err(WriteError("slider timelines came with Spine 4.3".into()));
            }
            Timeline::DrawOrderFolder(x) if v >= SpineVersion::V43 => folders.push(x),
            Timeline::DrawOrderFolder(_) => {
                return Err(WriteError(
                    "draw order folder timelines came with Spine 4.3".into(),
                ));
            }
            Timeline::Joint(_) => {
                return Err(WriteError("3D joint curves (MRTK): Spine has none".into()));
            }
            Timeline::Lattice(_) => {
                return Err(WriteError(
                    "surface lattices (DragonBones 5.6): Spine has none".into(),
                ));
            }
        }
    }
    o.uvarint(slots.0.len());
    for (slot, list) in &slots.0 {
        o.uvarint(*slot);
        o.uvarint(list.len());
        for t in list {
            slot_timeline(o, s, v, t)?;
        }
    }
    o.uvarint(bones.0.len());
    for (bone, list) in &bones.0 {
        o.uvarint(*bone);
        o.uvarint(list.len());
        for t in list {
            bone_timeline(o, v, t)?;
        }
    }
    if v >= SpineVersion::V42 {
        anim42::ik(o, &ik)?;
    } else {
        o.uvarint(ik.len());
        for (constraint, t) in ik {
            o.uvarint(constraint);
            let k = &t.keys;
            keys(
                o,
                v,
                k,
                2,
                &mut |o, i| {
                    o.f32(k.values()[i * 5]);
                    o.f32(k.values()[i * 5 + 1]);
                    Ok(())
                },
                &mut |o, i| {
                    o.i8(if k.value(i, 2) > 0.0 { 1 } else { -1 });
                    o.bool(k.value(i, 3) != 0.0);
                    o.bool(k.value(i, 4) != 0.0);
                    Ok(())
                },
            )?;
        }
    }
    o.uvarint(transform.len());
    for (constraint, t) in transform {
        o.uvarint(constraint);
        let n = if v == SpineVersion::V38 { 4 } else { 6 };
        floats(o, v, &t.keys, n)?;
    }
    o.uvarint(paths.0.len());
    for (constraint, list) in &paths.0 {
        o.uvarint(*constraint);
        o.uvarint(list.len());
        for t in list {
            let Timeline::Path(t) = t else { continue };
            let (kind, n) = match t.property {
                PathProperty::Position => (0, 1),
                PathProperty::Spacing => (1, 1),
                PathProperty::Mix if v == SpineVersion::V38 => (2, 2),
                PathProperty::Mix => (2, 3),
            };
            o.u8(kind);
            floats(o, v, &t.keys, n)?;
        }
    }
    if v >= SpineVersion::V42 {
        anim42::physics(o, &physics)?;
    } else if !physics.0.is_empty() {
        return Err(WriteError("physics timelines came with Spine 4.2".into()));
    }
    if v >= SpineVersion::V43 {
        o.uvarint(sliders.0.len());
        for (constraint, list) in &sliders.0 {
            o.uvarint(*constraint);
            o.uvarint(list.len());
            for t in list {
                let Timeline::Slider(t) = t else { continue };
                o.u8(match t.property {
                    SliderProperty::Time => 0,
                    SliderProperty::Mix => 1,
                });
                floats(o, v, &t.keys, 1)?;
            }
        }
    }
    deform::attachments(o, s, cx, &attachments)?;
    deform::draw_order(o, draw_order);
    if v >= SpineVersion::V43 {
        deform::draw_order_folders(o, &folders)?;
    }
    deform::events(o, cx.d, v, events);
    if v >= SpineVersion::V43 {
        o.i32(-1); // editor color (nonessential)
    }
    Ok(())
}

/// Keys of `n` float channels, all curved.
pub fn floats(o: &mut Out, v: SpineVersion, k: &Keys, n: usize) -> Result<(), WriteError> {
    check_channels(k, n)?;
    keys(
        o,
        v,
        k,
        n,
        &mut |o, i| {
            k.values()[i * n..(i + 1) * n]
                .iter()
                .for_each(|&x| o.f32(x));
            Ok(())
        },
        &mut none,
    )
}

fn check_channels(k: &Keys, n: usize) -> Result<(), WriteError> {
    if k.channels() != n {
        return Err(WriteError(format!(
            "keys of {} channels where the format has {n}",
            k.channels()
        )));
    }
    Ok(())
}

/// Color keys: `n` channels written as bytes.
fn color_keys(
    o: &mut Out,
    v: SpineVersion,
    k: &Keys,
    n: usize,
    dark4: bool,
) -> Result<(), WriteError> {
    check_channels(k, n)?;
    keys(
        o,
        v,
        k,
        n,
        &mut |o, i| {
            let c = |ch| k.value(i, ch);
            if dark4 {
                // 3.8 two-color: light RGBA, then the dark color in 4 bytes (first unused).
                key_bytes(o, (0..4).map(c));
                o.u8(0);
                key_bytes(o, (4..7).map(c));
            } else {
                key_bytes(o, (0..n).map(c));
            }
            Ok(())
        },
        &mut none,
    )
}

fn slot_timeline(
    o: &mut Out,
    s: &mut Strings,
    v: SpineVersion,
    t: &Timeline,
) -> Result<(), WriteError> {
    let v38 = v == SpineVersion::V38;
    let wrong = |what: &str| {
        Err(WriteError(format!(
            "a {what} timeline cannot be written in a Spine {} binary",
            if v38 { "3.8" } else { "4.x" }
        )))
    };
    match t {
        Timeline::Attachment(a) => {
            o.u8(0);
            o.uvarint(a.times.len());
            for (&time, name) in a.times.iter().zip(&a.names) {
                o.f32(time);
                s.write(o, name.as_deref());
            }
        }
        Timeline::Color(c) => {
            let (kind, n) = match (c.kind, v38) {
                (ColorKind::Color, true) => (1, 4),
                (ColorKind::Rgba, false) => (1, 4),
                (ColorKind::Rgb, false) => (2, 3),
                (ColorKind::Alpha, false) => (5, 1),
                (k, _) => return wrong(&format!("{k:?}")),
            };
            o.u8(kind);
            color_keys(o, v, &c.keys, n, false)?;
        }
        Timeline::TwoColor(c) => {
            let (kind, n) = match (c.kind, v38) {
                (TwoColorKind::TwoColor, true) => (2, 7),
                (TwoColorKind::Rgba2, false) => (3, 7),
                (TwoColorKind::Rgb2, false) => (4, 6),
                (k, _) => return wrong(&format!("{k:?}")),
            };
            o.u8(kind);
            color_keys(o, v, &c.keys, n, v38)?;
        }
        _ => {}
    }
    Ok(())
}

fn bone_timeline(o: &mut Out, v: SpineVersion, t: &Timeline) -> Result<(), WriteError> {
    use BoneProperty as P;
    let t = match t {
        Timeline::Inherit(t) => return anim42::inherit(o, v, t),
        Timeline::Bone(t) => t,
        _ => return Ok(()),
    };
    let (kind, n) = match (t.property, v == SpineVersion::V38) {
        (P::Rotate, _) => (0, 1),
        (P::Translate, true) => (1, 2),
        (P::Scale, true) => (2, 2),
        (P::Shear, true) => (3, 2),
        (p, true) => {
            return Err(WriteError(format!(
                "a {p:?} bone timeline (one axis) came with Spine 4.0"
            )));
        }
        (P::Translate, false) => (1, 2),
        (P::TranslateX, false) => (2, 1),
        (P::TranslateY, false) => (3, 1),
        (P::Scale, false) => (4, 2),
        (P::ScaleX, false) => (5, 1),
        (P::ScaleY, false) => (6, 1),
        (P::Shear, false) => (7, 2),
        (P::ShearX, false) => (8, 1),
        (P::ShearY, false) => (9, 1),
    };
    o.u8(kind);
    floats(o, v, &t.keys, n)
}
