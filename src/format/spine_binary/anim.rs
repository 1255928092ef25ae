//! Animations: the curve keys of slot, bone and constraint timelines. Deform, draw order and
//! event timelines: [`super::deform`].

use super::anim38;
use super::anim42;
use super::deform;
use super::read::{Reader, Version};
use super::setup::bend;
use crate::core::animation::*;
use crate::core::curve::{Interp, Keys, bezier4_table};
use crate::core::model::{ConstraintRef, SkeletonData};
use crate::format::ErrorKind;
use crate::format::LoadError;
use crate::format::spine_binary::cursor::Read;

pub fn animations(r: &mut Reader<'_>, data: &SkeletonData) -> Read<Vec<Animation>> {
    // name, then 8 section counts.
    let n = r.c.count(1 + 8, "animation count")?;
    let mut out: Vec<Animation> = Vec::with_capacity(n);
    for i in 0..n {
        r.c.enter("animation", Some(i), None);
        let at = r.c.offset();
        let name = r.c.name("name")?;
        // 4.x: the timeline count sizes the list (each timeline takes 2 bytes or more).
        let mut timelines = Vec::new();
        if !r.version.curve_after_key() {
            let count = r.c.uvarint("timeline count")?;
            timelines.reserve_exact(count.min(r.c.remaining() / 2));
        }
        if out.iter().any(|a| a.name == name) {
            return Err(r
                .c
                .error_at(at, format!("duplicate animation name \"{name}\""))
                .with_kind(ErrorKind::DuplicateName));
        }
        r.c.leave();
        r.c.enter("animation", None, Some(&name));
        slots(r, data, &mut timelines)?;
        bones(r, data, &mut timelines)?;
        if r.version.flag_bytes() {
            anim42::ik(r, data, &mut timelines)?;
        } else {
            ik(r, data, &mut timelines)?;
        }
        transform(r, data, &mut timelines)?;
        path(r, data, &mut timelines)?;
        if r.version >= Version::V42 {
            anim42::physics(r, data, &mut timelines)?;
        }
        if r.version.one_constraint_list() {
            sliders(r, data, &mut timelines)?;
        }
        deform::attachments(r, data, &mut timelines)?;
        deform::draw_order(r, data, &mut timelines)?;
        if r.version.one_constraint_list() {
            deform::draw_order_folders(r, data, &mut timelines)?;
        }
        deform::events(r, data, &mut timelines)?;
        if r.version.one_constraint_list() && r.nonessential {
            let _ = r.c.color("editor color")?;
        }
        out.push(Animation::new(name, timelines));
        r.c.leave();
    }
    Ok(out)
}

/// A key time: not negative, not before the previous key's.
#[inline]
pub fn time(r: &mut Reader<'_>, prev: Option<f32>) -> Read<f32> {
    let at = r.c.offset();
    let t = r.c.f32("time")?;
    if t < 0.0 || prev.is_some_and(|p| t < p) {
        return Err(bad_time(r, at, t, prev));
    }
    Ok(t)
}

#[cold]
#[inline(never)]
fn bad_time(r: &Reader<'_>, at: usize, t: f32, prev: Option<f32>) -> LoadError {
    match prev {
        Some(p) if t >= 0.0 => r.c.error_at(
            at,
            format!("key time {t} comes before the previous key's time {p}"),
        ),
        _ => r.c.error_at(at, format!("key time {t} is negative")),
    }
}

/// Curve keys. 4.x: a key count, a bezier count (checked against its bound), the first
/// key's time and values, then per further key its time, values and the curve of the
/// segment that ends there: 0 linear, 1 stepped, 2 bezier with, per curved channel (the
/// first `curved` of the `N`), `cx1, cy1, cx2, cy2` in absolute (time, value) units. 3.8: a
/// key count, then per key its time, values and (but the last) the curve out of it
/// ([`anim38::curve`]).
pub fn curve_keys<const N: usize>(
    r: &mut Reader<'_>,
    value_bytes: usize,
    curved: usize,
    mut values: impl FnMut(&mut Reader<'_>) -> Read<[f32; N]>,
) -> Read<Keys> {
    curve_keys_split::<N>(
        r,
        value_bytes,
        curved,
        |r, v| {
            *v = values(r)?;
            Ok(())
        },
        |_, _| Ok(()),
    )
}

/// [`curve_keys`] where a key's last `N - curved` (discrete) values follow the curve into it
/// (4.x) rather than its curved values (IK bend, compress and stretch): `curved` reads the
/// first, `discrete` the rest.
pub fn curve_keys_split<const N: usize>(
    r: &mut Reader<'_>,
    value_bytes: usize,
    curved_channels: usize,
    mut curved: impl FnMut(&mut Reader<'_>, &mut [f32; N]) -> Read<()>,
    mut discrete: impl FnMut(&mut Reader<'_>, &mut [f32; N]) -> Read<()>,
) -> Read<Keys> {
    let n = r.c.count(4 + value_bytes, "key count")?;
    // 3.8 gives no bezier count: its tables are added as they come.
    let mut beziers = 0;
    if !r.version.curve_after_key() {
        let at = r.c.offset();
        beziers = r.c.uvarint("bezier count")?;
        if beziers > n.saturating_mul(curved_channels.max(1)) {
            return Err(r.c.error_at(
                at,
                format!("{beziers} beziers for {n} keys of {curved_channels} curved channels"),
            ));
        }
    }
    // One allocation. Each bezier takes 16 bytes of the file: reserve no more than could
    // follow (the key count is checked against the bytes left already).
    let mut keys = Keys::with_capacity(N, n, beziers.min(r.c.remaining() / 16));
    if n == 0 {
        return Ok(keys);
    }
    r.c.enter("key", Some(0), None);
    let mut t = time(r, None)?;
    let mut v = [0.0; N];
    curved(r, &mut v)?;
    discrete(r, &mut v)?;
    for i in 0..n {
        r.c.set_index(i);
        if i + 1 == n {
            keys.push(t, &v, last_interp(r));
            break;
        }
        let mut v2 = [0.0; N];
        let (t2, interp) = if r.version.curve_after_key() {
            let interp = anim38::curve(r, &mut keys)?;
            r.c.set_index(i + 1);
            let t2 = time(r, Some(t))?;
            curved(r, &mut v2)?;
            discrete(r, &mut v2)?;
            (t2, interp)
        } else {
            let t2 = time(r, Some(t))?;
            curved(r, &mut v2)?;
            let c = curved_channels;
            let interp = curve(r, &mut keys, t, &v[..c], t2, &v2[..c])?;
            discrete(r, &mut v2)?;
            (t2, interp)
        };
        keys.push(t, &v, interp);
        (t, v) = (t2, v2);
    }
    r.c.leave();
    Ok(keys)
}

/// The interpolation stored on the last key (unused: nothing follows it), as each version's
/// JSON loader stores it.
pub fn last_interp(r: &Reader<'_>) -> Interp {
    if r.version.curve_after_key() {
        Interp::Linear
    } else {
        Interp::Stepped
    }
}

/// The curve of the segment from (`t1`, `v1`) to (`t2`, `v2`): one bezier per channel, or
/// with no channels one percent bezier (deform keys).
#[inline]
pub fn curve(
    r: &mut Reader<'_>,
    keys: &mut Keys,
    t1: f32,
    v1: &[f32],
    t2: f32,
    v2: &[f32],
) -> Read<Interp> {
    let at = r.c.offset();
    match r.c.u8("curve type")? {
        0 => Ok(Interp::Linear),
        1 => Ok(Interp::Stepped),
        2 => {
            const NAMES: [&str; 4] = ["curve cx1", "curve cy1", "curve cx2", "curve cy2"];
            let (t1, t2) = (t1 as f64, t2 as f64);
            if v1.is_empty() {
                let c = r.c.f32_array(NAMES)?.map(f64::from);
                return Ok(keys.add_percent_bezier4(t1, c, t2));
            }
            // One table per channel, stored one after the other: the first names them all.
            let first = keys.bezier_count() as u32;
            for (&a, &b) in v1.iter().zip(v2) {
                let [cx1, cy1, cx2, cy2] = r.c.f32_array(NAMES)?.map(f64::from);
                let table = bezier4_table(t1, a as f64, cx1, cy1, cx2, cy2, t2, b as f64);
                keys.push_bezier(table);
            }
            Ok(Interp::Bezier4(first))
        }
        t => Err(r.c.error_at(at, format!("unknown curve type {t} (0..2)"))),
    }
}

/// One float per name.
fn floats<const N: usize>(r: &mut Reader<'_>, names: [&str; N]) -> Read<[f32; N]> {
    r.c.f32_array(names)
}

fn rgba(r: &mut Reader<'_>, what: &str) -> Read<[f32; 4]> {
    let c = r.c.color(what)?;
    Ok([c.r, c.g, c.b, c.a].map(|v| v as f32))
}

/// An RGB888 color (4.x rgb keys, light colors of rgb2 keys, every dark color).
fn rgb(r: &mut Reader<'_>, what: &str) -> Read<[f32; 3]> {
    let b = r.c.take(3, what)?;
    Ok([b[0], b[1], b[2]].map(|v| (v as f64 / 255.0) as f32))
}

/// A 4.x alpha key: one byte.
fn alpha(r: &mut Reader<'_>) -> Read<[f32; 1]> {
    Ok([(r.c.u8("alpha")? as f64 / 255.0) as f32])
}

fn slots(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "slot timeline count")?;
    for i in 0..n {
        r.c.enter("slot timeline", Some(i), None);
        let slot = r.c.index(data.slots.len(), "slot index")?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let color = |kind, keys| Timeline::Color(ColorTimeline { slot, kind, keys });
            let two = |kind, keys| Timeline::TwoColor(TwoColorTimeline { slot, kind, keys });
            let timeline = match r.c.u8("timeline type")? {
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
                            return Err(r
                                .c
                                .error_at(
                                    at,
                                    format!(
                                        "no skin has an attachment \"{name}\" for slot \"{}\"",
                                        data.slots[slot].name
                                    ),
                                )
                                .with_kind(ErrorKind::DanglingReference));
                        }
                        names.push(name.map(str::to_string));
                    }
                    r.c.leave();
                    Timeline::Attachment(AttachmentTimeline::new(slot, times, names))
                }
                // 3.8: 1 color, 2 two color (the dark color's first byte unused).
                1 if r.version.curve_after_key() => {
                    color(ColorKind::Color, curve_keys(r, 4, 4, |r| rgba(r, "color"))?)
                }
                2 if r.version.curve_after_key() => two(
                    TwoColorKind::TwoColor,
                    curve_keys(r, 8, 7, |r| {
                        let [lr, lg, lb, la] = rgba(r, "light color")?;
                        let [_, dr, dg, db] = rgba(r, "dark color")?;
                        Ok([lr, lg, lb, la, dr, dg, db])
                    })?,
                ),
                t if r.version.curve_after_key() => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown slot timeline type {t} (0..2)")));
                }
                // 4.x: 1 rgba, 2 rgb, 3 rgba2, 4 rgb2, 5 alpha; colors as bytes (RGBA8888 or
                // RGB888; alpha one byte), the dark color always RGB888.
                1 => color(ColorKind::Rgba, curve_keys(r, 4, 4, |r| rgba(r, "color"))?),
                2 => color(ColorKind::Rgb, curve_keys(r, 3, 3, |r| rgb(r, "color"))?),
                3 => two(
                    TwoColorKind::Rgba2,
                    curve_keys(r, 7, 7, |r| {
                        let [lr, lg, lb, la] = rgba(r, "light color")?;
                        let [dr, dg, db] = rgb(r, "dark color")?;
                        Ok([lr, lg, lb, la, dr, dg, db])
                    })?,
                ),
                4 => two(
                    TwoColorKind::Rgb2,
                    curve_keys(r, 6, 6, |r| {
                        let [lr, lg, lb] = rgb(r, "light color")?;
                        let [dr, dg, db] = rgb(r, "dark color")?;
                        Ok([lr, lg, lb, dr, dg, db])
                    })?,
                ),
                5 => color(ColorKind::Alpha, curve_keys(r, 1, 1, alpha)?),
                t => {
                    return Err(r.c.error_at(
                        at,
                        format!("unknown slot timeline type {t} (0 attachment, 1 rgba, 2 rgb, 3 rgba2, 4 rgb2, 5 alpha)"),
                    ));
                }
            };
            if !timeline.key_times().is_empty() {
                out.push(timeline);
            }
        }
        r.c.leave();
    }
    Ok(())
}

fn bones(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    use BoneProperty as P;
    let n = r.c.count(2, "bone timeline count")?;
    for i in 0..n {
        r.c.enter("bone timeline", Some(i), None);
        let bone = r.c.index(data.bones.len(), "bone index")?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let t = r.c.u8("timeline type")?;
            if t == 10 && r.version >= Version::V42 {
                out.extend(anim42::inherit(r, bone)?);
                continue;
            }
            let one = |r: &mut Reader<'_>| curve_keys(r, 4, 1, |r| Ok([r.c.f32("value")?]));
            let two = |r: &mut Reader<'_>| curve_keys(r, 8, 2, |r| r.c.f32_array(["x", "y"]));
            let (property, keys) = match t {
                // 3.8: rotate, then translate, scale and shear on both axes.
                1..=3 if r.version.curve_after_key() => {
                    ([P::Translate, P::Scale, P::Shear][t as usize - 1], two(r)?)
                }
                t if t > 3 && r.version.curve_after_key() => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown bone timeline type {t} (0..3)")));
                }
                0 => (P::Rotate, one(r)?),
                1 => (P::Translate, two(r)?),
                2 => (P::TranslateX, one(r)?),
                3 => (P::TranslateY, one(r)?),
                4 => (P::Scale, two(r)?),
                5 => (P::ScaleX, one(r)?),
                6 => (P::ScaleY, one(r)?),
                7 => (P::Shear, two(r)?),
                8 => (P::ShearX, one(r)?),
                9 => (P::ShearY, one(r)?),
                t => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown bone timeline type {t} (0..9)")));
                }
            };
            if !keys.is_empty() {
                out.push(Timeline::Bone(BoneTimeline {
                    bone,
                    property,
                    keys,
                    // 4.x keys carry the turning direction in their values; 3.8 turns the
                    // shortest way.
                    shortest: r.version.curve_after_key(),
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
            r.constraint(data.ik_constraints.len(), ik_index, "IK constraint index")?;
        let keys = curve_keys_split::<5>(
            r,
            11,
            2,
            |r, v| {
                v[0] = r.c.f32("mix")?;
                v[1] = if r.version.since_38() {
                    r.c.f32("softness")?
                } else {
                    0.0
                };
                Ok(())
            },
            |r, v| {
                v[2] = bend(r)? as f32;
                v[3] = flag(r, "compress")?;
                v[4] = flag(r, "stretch")?;
                Ok(())
            },
        )?;
        if !keys.is_empty() {
            out.push(Timeline::Ik(IkTimeline { constraint, keys }));
        }
        r.c.leave();
    }
    Ok(())
}

/// The per-kind index of an IK constraint.
pub fn ik_index(c: ConstraintRef) -> Option<usize> {
    match c {
        ConstraintRef::Ik(i) => Some(i),
        _ => None,
    }
}

/// 4.3 slider timelines: per slider its list index and timelines, each `u8` type (0 time,
/// 1 mix) and one-channel curve keys.
fn sliders(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "slider timeline count")?;
    for i in 0..n {
        r.c.enter("slider timeline", Some(i), None);
        let constraint = r.constraint(
            data.slider_constraints.len(),
            |c| match c {
                ConstraintRef::Slider(i) => Some(i),
                _ => None,
            },
            "slider index",
        )?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let property = match r.c.u8("timeline type")? {
                0 => SliderProperty::Time,
                1 => SliderProperty::Mix,
                t => {
                    return Err(r
                        .c
                        .error_at(at, format!("unknown slider timeline type {t} (0..1)")));
                }
            };
            let keys = curve_keys(r, 4, 1, |r| Ok([r.c.f32("value")?]))?;
            if !keys.is_empty() {
                out.push(Timeline::Slider(SliderTimeline {
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

fn transform(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "transform timeline count")?;
    for i in 0..n {
        r.c.enter("transform timeline", Some(i), None);
        let constraint = r.constraint(
            data.transform_constraints.len(),
            |c| match c {
                ConstraintRef::Transform(i) => Some(i),
                _ => None,
            },
            "transform constraint index",
        )?;
        let keys = if r.version.mix_per_axis() {
            let names = [
                "rotate mix",
                "x mix",
                "y mix",
                "scaleX mix",
                "scaleY mix",
                "shearY mix",
            ];
            curve_keys(r, 24, 6, |r| floats(r, names))?
        } else {
            let names = ["rotate mix", "translate mix", "scale mix", "shear mix"];
            curve_keys(r, 16, 4, |r| floats(r, names))?
        };
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
        let constraint = r.constraint(
            data.path_constraints.len(),
            |c| match c {
                ConstraintRef::Path(i) => Some(i),
                _ => None,
            },
            "path constraint index",
        )?;
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let (property, keys) = match r.c.u8("timeline type")? {
                0 => (
                    PathProperty::Position,
                    curve_keys(r, 4, 1, |r| Ok([r.c.f32("position")?]))?,
                ),
                1 => (
                    PathProperty::Spacing,
                    curve_keys(r, 4, 1, |r| Ok([r.c.f32("spacing")?]))?,
                ),
                2 if r.version.mix_per_axis() => (
                    PathProperty::Mix,
                    curve_keys(r, 12, 3, |r| floats(r, ["rotate mix", "x mix", "y mix"]))?,
                ),
                2 => (
                    PathProperty::Mix,
                    curve_keys(r, 8, 2, |r| floats(r, ["rotate mix", "translate mix"]))?,
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
