//! Animations: the curve keys of slot, bone and constraint timelines. Deform, draw order and
//! event timelines: [`super::deform`].

use super::Reader;
use super::deform;
use super::setup::bend;
use crate::core::animation::*;
use crate::core::curve::{Interp, Keys};
use crate::core::model::SkeletonData;
use crate::format::spine_binary::cursor::Read;

pub fn animations(r: &mut Reader<'_>, data: &SkeletonData) -> Read<Vec<Animation>> {
    // name, then 8 section counts.
    let n = r.c.count(1 + 8, "animation count")?;
    let mut out: Vec<Animation> = Vec::with_capacity(n);
    for i in 0..n {
        r.c.enter("animation", Some(i), None);
        let at = r.c.offset();
        let name = r.c.name("name")?;
        if out.iter().any(|a| a.name == name) {
            return Err(r
                .c
                .error_at(at, format!("duplicate animation name \"{name}\"")));
        }
        r.c.leave();
        r.c.enter("animation", None, Some(&name));
        let mut timelines = Vec::new();
        slots(r, data, &mut timelines)?;
        bones(r, data, &mut timelines)?;
        ik(r, data, &mut timelines)?;
        transform(r, data, &mut timelines)?;
        path(r, data, &mut timelines)?;
        deform::deform(r, data, &mut timelines)?;
        deform::draw_order(r, data, &mut timelines)?;
        deform::events(r, data, &mut timelines)?;
        out.push(Animation::new(name, timelines));
        r.c.leave();
    }
    Ok(out)
}

/// A key time: not negative, not before the previous key's.
pub fn time(r: &mut Reader<'_>, prev: Option<f32>) -> Read<f32> {
    let at = r.c.offset();
    let t = r.c.f32("time")?;
    if t < 0.0 {
        return Err(r.c.error_at(at, format!("key time {t} is negative")));
    }
    if let Some(p) = prev.filter(|&p| t < p) {
        return Err(r.c.error_at(
            at,
            format!("key time {t} comes before the previous key's time {p}"),
        ));
    }
    Ok(t)
}

/// The curve out of a key: 0 linear, 1 stepped, 2 a normalised bezier (cx1, cy1, cx2, cy2),
/// the same cubic as 3.8 JSON's `curve`.
pub fn curve(r: &mut Reader<'_>, keys: &mut Keys) -> Read<Interp> {
    let at = r.c.offset();
    match r.c.u8("curve type")? {
        0 => Ok(Interp::Linear),
        1 => Ok(Interp::Stepped),
        2 => {
            let cx1 = r.c.f64("curve cx1")?;
            let cy1 = r.c.f64("curve cy1")?;
            let cx2 = r.c.f64("curve cx2")?;
            let cy2 = r.c.f64("curve cy2")?;
            Ok(keys.add_bezier(cx1, cy1, cx2, cy2))
        }
        t => Err(r.c.error_at(at, format!("unknown curve type {t} (0..2)"))),
    }
}

/// A key count then that many keys of `N` channels (`value_bytes` each at least), each but
/// the last followed by its curve.
fn curve_keys<const N: usize>(
    r: &mut Reader<'_>,
    value_bytes: usize,
    mut values: impl FnMut(&mut Reader<'_>) -> Read<[f32; N]>,
) -> Read<Keys> {
    let n = r.c.count(4 + value_bytes, "key count")?;
    let mut keys = Keys::new(N);
    keys.times.reserve_exact(n);
    keys.values.reserve_exact(n * N);
    keys.interp.reserve_exact(n);
    r.c.enter("key", Some(0), None);
    for i in 0..n {
        r.c.set_index(i);
        let t = time(r, keys.times.last().copied())?;
        let v = values(r)?;
        let interp = if i + 1 < n {
            curve(r, &mut keys)?
        } else {
            Interp::Linear
        };
        keys.push(t, &v, interp);
    }
    r.c.leave();
    Ok(keys)
}

fn rgba(r: &mut Reader<'_>, what: &str) -> Read<[f32; 4]> {
    let c = r.c.color(what)?;
    Ok([c.r, c.g, c.b, c.a].map(|v| v as f32))
}

fn slots(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "slot timeline count")?;
    for i in 0..n {
        r.c.enter("slot timeline", Some(i), None);
        let slot = r.c.index(data.slots.len(), "slot index")?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            match r.c.u8("timeline type")? {
                0 => {
                    let n = r.c.count(5, "key count")?;
                    let mut times = Vec::with_capacity(n);
                    let mut names = Vec::with_capacity(n);
                    r.c.enter("key", Some(0), None);
                    for k in 0..n {
                        r.c.set_index(k);
                        times.push(time(r, times.last().copied())?);
                        let at = r.c.offset();
                        let name = r.string_ref("attachment name")?;
                        if let Some(name) = &name
                            && !data.skins.iter().any(|s| s.get(slot, name).is_some())
                        {
                            return Err(r.c.error_at(
                                at,
                                format!(
                                    "no skin has an attachment \"{name}\" for slot \"{}\"",
                                    data.slots[slot].name
                                ),
                            ));
                        }
                        names.push(name);
                    }
                    r.c.leave();
                    if n > 0 {
                        out.push(Timeline::Attachment(AttachmentTimeline {
                            slot,
                            times,
                            names,
                        }));
                    }
                }
                1 => {
                    let keys = curve_keys(r, 4, |r| rgba(r, "color"))?;
                    if !keys.is_empty() {
                        out.push(Timeline::Color(ColorTimeline {
                            slot,
                            kind: ColorKind::Color,
                            keys,
                        }));
                    }
                }
                2 => {
                    let keys = curve_keys(r, 8, |r| {
                        let l = r.c.color("light color")?;
                        let d = r.c.color("dark color")?;
                        // The dark color is RGB888: its first byte is unused.
                        Ok([l.r, l.g, l.b, l.a, d.g, d.b, d.a].map(|v| v as f32))
                    })?;
                    if !keys.is_empty() {
                        out.push(Timeline::TwoColor(TwoColorTimeline {
                            slot,
                            kind: TwoColorKind::TwoColor,
                            keys,
                        }));
                    }
                }
                t => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown slot timeline type {t} (0..2)")));
                }
            }
        }
        r.c.leave();
    }
    Ok(())
}

fn bones(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "bone timeline count")?;
    for i in 0..n {
        r.c.enter("bone timeline", Some(i), None);
        let bone = r.c.index(data.bones.len(), "bone index")?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let t = r.c.u8("timeline type")?;
            let (property, keys) = match t {
                0 => (
                    BoneProperty::Rotate,
                    curve_keys(r, 4, |r| Ok([r.c.f32("angle")?]))?,
                ),
                1..=3 => {
                    let property = [
                        BoneProperty::Translate,
                        BoneProperty::Scale,
                        BoneProperty::Shear,
                    ][t as usize - 1];
                    (
                        property,
                        curve_keys(r, 8, |r| Ok([r.c.f32("x")?, r.c.f32("y")?]))?,
                    )
                }
                t => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown bone timeline type {t} (0..3)")));
                }
            };
            if !keys.is_empty() {
                out.push(Timeline::Bone(BoneTimeline {
                    bone,
                    property,
                    keys,
                    shortest: true,
                }));
            }
        }
        r.c.leave();
    }
    Ok(())
}

fn flag(r: &mut Reader<'_>, what: &str) -> Read<f32> {
    Ok(if r.c.bool(what)? { 1.0 } else { 0.0 })
}

fn ik(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "IK timeline count")?;
    for i in 0..n {
        r.c.enter("IK timeline", Some(i), None);
        let constraint =
            r.c.index(data.ik_constraints.len(), "IK constraint index")?;
        let keys = curve_keys(r, 11, |r| {
            Ok([
                r.c.f32("mix")?,
                r.c.f32("softness")?,
                bend(r)? as f32,
                flag(r, "compress")?,
                flag(r, "stretch")?,
            ])
        })?;
        if !keys.is_empty() {
            out.push(Timeline::Ik(IkTimeline { constraint, keys }));
        }
        r.c.leave();
    }
    Ok(())
}

fn transform(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "transform timeline count")?;
    for i in 0..n {
        r.c.enter("transform timeline", Some(i), None);
        let constraint = r.c.index(
            data.transform_constraints.len(),
            "transform constraint index",
        )?;
        let keys = curve_keys(r, 16, |r| {
            Ok([
                r.c.f32("rotate mix")?,
                r.c.f32("translate mix")?,
                r.c.f32("scale mix")?,
                r.c.f32("shear mix")?,
            ])
        })?;
        if !keys.is_empty() {
            out.push(Timeline::Transform(TransformTimeline { constraint, keys }));
        }
        r.c.leave();
    }
    Ok(())
}

fn path(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "path timeline count")?;
    for i in 0..n {
        r.c.enter("path timeline", Some(i), None);
        let constraint =
            r.c.index(data.path_constraints.len(), "path constraint index")?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let (property, keys) = match r.c.u8("timeline type")? {
                0 => (
                    PathProperty::Position,
                    curve_keys(r, 4, |r| Ok([r.c.f32("position")?]))?,
                ),
                1 => (
                    PathProperty::Spacing,
                    curve_keys(r, 4, |r| Ok([r.c.f32("spacing")?]))?,
                ),
                2 => (
                    PathProperty::Mix,
                    curve_keys(r, 8, |r| {
                        Ok([r.c.f32("rotate mix")?, r.c.f32("translate mix")?])
                    })?,
                ),
                t => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown path timeline type {t} (0..2)")));
                }
            };
            if !keys.is_empty() {
                out.push(Timeline::Path(PathTimeline {
                    constraint,
                    property,
                    keys,
                }));
            }
        }
        r.c.leave();
    }
    Ok(())
}
