//! Animations of a Spine JSON export: keys and curves per timeline, grouped as each version
//! names them (3.8: `deform`, `angle`, `rotateMix`...; 4.x: `value`, `mixRotate`, 4.1+:
//! `attachments` with `deform` and `sequence`; 4.3 sections: `anim43`).

use super::curve::{Kind, control_points};
use super::json::{Json, Obj};
use super::setup::hex;
use super::{Places, WriteError};
use crate::core::animation::*;
use crate::core::color::Color;
use crate::core::curve::{Interp, Keys};
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

/// An object of named groups filled in timeline order.
#[derive(Default)]
struct Groups(Vec<(String, Obj)>);

impl Groups {
    fn get(&mut self, name: &str) -> &mut Obj {
        if let Some(i) = self.0.iter().position(|(n, _)| n == name) {
            return &mut self.0[i].1;
        }
        self.0.push((name.to_string(), Obj::new()));
        &mut self.0.last_mut().expect("just pushed").1
    }

    fn done(self) -> Json {
        Json::Obj(self.0.into_iter().map(|(n, o)| (n, o.done())).collect())
    }
}

/// Adds `key`'s curve (the segment from key `i` to `i + 1`) over `channels` of `keys`.
fn curve(
    o: &mut Obj,
    v: SpineVersion,
    keys: &Keys,
    i: usize,
    channels: usize,
    percent: bool,
) -> Result<(), WriteError> {
    if i + 1 >= keys.len() {
        return Ok(());
    }
    match keys.interp(i) {
        Interp::Linear => {}
        Interp::Stepped => {
            o.put("curve", Json::str("stepped"));
        }
        Interp::Bezier(b) => {
            // 3.8: one normalised curve for every channel.
            let p = control_points(
                keys.bezier(b as usize),
                Kind::Normalised,
                0.0,
                0.0,
                1.0,
                1.0,
            );
            if v == SpineVersion::V37 {
                // 3.7: the four points as an array.
                o.put("curve", Json::Arr(p.map(|c| Json::f64(c as f64)).to_vec()));
            } else if v == SpineVersion::V38 {
                o.num("curve", p[0] as f64)
                    .num("c2", p[1] as f64)
                    .num("c3", p[2] as f64)
                    .num("c4", p[3] as f64);
            } else {
                return Err(WriteError(
                    "a normalised (3.8) curve in a 4.x export".into(),
                ));
            }
        }
        Interp::Bezier4(b) => {
            let (t1, t2) = (keys.times()[i] as f64, keys.times()[i + 1] as f64);
            let mut out = Vec::with_capacity(channels.max(1) * 4);
            if percent {
                let p = control_points(keys.bezier(b as usize), Kind::Percent, t1, 0.0, t2, 1.0);
                out.extend(p.map(|c| Json::f64(c as f64)));
            } else {
                for c in 0..channels {
                    let table = keys.bezier(b as usize + c);
                    let p = control_points(
                        table,
                        Kind::Absolute,
                        t1,
                        keys.value(i, c),
                        t2,
                        keys.value(i + 1, c),
                    );
                    out.extend(p.map(|c| Json::f64(c as f64)));
                }
            }
            o.put("curve", Json::Arr(out));
        }
        Interp::Ease(..) | Interp::Sampled(_) => {
            return Err(WriteError(
                "an eased or sampled curve (DragonBones): Spine JSON has none".into(),
            ));
        }
    }
    Ok(())
}

/// Curve keys as objects: the time, then `fill` writes key `i`'s values.
fn keys_json(
    v: SpineVersion,
    keys: &Keys,
    channels: usize,
    mut fill: impl FnMut(&mut Obj, usize),
) -> Result<Json, WriteError> {
    let mut out = Vec::with_capacity(keys.len());
    for i in 0..keys.len() {
        let mut o = Obj::new();
        o.put("time", Json::f32(keys.times()[i]));
        fill(&mut o, i);
        curve(&mut o, v, keys, i, channels, false)?;
        out.push(o.done());
    }
    Ok(Json::Arr(out))
}

fn color_of(keys: &Keys, i: usize, from: usize, alpha: bool) -> String {
    let c = |k| keys.value(i, from + k);
    let a = if alpha { c(3) } else { 1.0 };
    hex(Color::rgba(c(0), c(1), c(2), a), alpha)
}

fn slot_timeline(
    d: &SkeletonData,
    v: SpineVersion,
    t: &Timeline,
    slots: &mut Groups,
) -> Result<(), WriteError> {
    match t {
        Timeline::Attachment(a) => {
            let keys = a
                .times
                .iter()
                .zip(&a.names)
                .map(|(&time, name)| {
                    let mut o = Obj::new();
                    o.put("time", Json::f32(time)).put(
                        "name",
                        name.as_ref().map_or(Json::Null, |n| Json::str(n.as_str())),
                    );
                    o.done()
                })
                .collect();
            slots
                .get(&d.slots[a.slot].name)
                .put("attachment", Json::Arr(keys));
        }
        Timeline::Color(c) => {
            let k = &c.keys;
            let (name, json) = match c.kind {
                ColorKind::Color | ColorKind::Rgba => (
                    if c.kind == ColorKind::Color {
                        "color"
                    } else {
                        "rgba"
                    },
                    keys_json(v, k, 4, |o, i| {
                        o.put("color", Json::str(color_of(k, i, 0, true)));
                    })?,
                ),
                ColorKind::Rgb => (
                    "rgb",
                    keys_json(v, k, 3, |o, i| {
                        o.put("color", Json::str(color_of(k, i, 0, false)));
                    })?,
                ),
                ColorKind::Alpha => (
                    "alpha",
                    keys_json(v, k, 1, |o, i| {
                        o.put("value", Json::f64(k.value(i, 0)));
                    })?,
                ),
            };
            slots.get(&d.slots[c.slot].name).put(name, json);
        }
        Timeline::TwoColor(c) => {
            let k = &c.keys;
            let (name, json) = match c.kind {
                TwoColorKind::TwoColor | TwoColorKind::Rgba2 => (
                    if c.kind == TwoColorKind::TwoColor {
                        "twoColor"
                    } else {
                        "rgba2"
                    },
                    keys_json(v, k, 7, |o, i| {
                        o.put("light", Json::str(color_of(k, i, 0, true)))
                            .put("dark", Json::str(color_of(k, i, 4, false)));
                    })?,
                ),
                TwoColorKind::Rgb2 => (
                    "rgb2",
                    keys_json(v, k, 6, |o, i| {
                        o.put("light", Json::str(color_of(k, i, 0, false)))
                            .put("dark", Json::str(color_of(k, i, 3, false)));
                    })?,
                ),
            };
            slots.get(&d.slots[c.slot].name).put(name, json);
        }
        _ => {}
    }
    Ok(())
}

fn bone_timeline(
    d: &SkeletonData,
    v: SpineVersion,
    t: &BoneTimeline,
    bones: &mut Groups,
) -> Result<(), WriteError> {
    use BoneProperty as P;
    let k = &t.keys;
    let v38 = v <= SpineVersion::V38;
    let (name, two) = match t.property {
        P::Rotate => ("rotate", false),
        P::Translate => ("translate", true),
        P::TranslateX => ("translatex", false),
        P::TranslateY => ("translatey", false),
        P::Scale => ("scale", true),
        P::ScaleX => ("scalex", false),
        P::ScaleY => ("scaley", false),
        P::Shear => ("shear", true),
        P::ShearX => ("shearx", false),
        P::ShearY => ("sheary", false),
    };
    let json = if two {
        keys_json(v, k, 2, |o, i| {
            o.put("x", Json::f64(k.value(i, 0)))
                .put("y", Json::f64(k.value(i, 1)));
        })?
    } else {
        let value = if v38 { "angle" } else { "value" };
        keys_json(v, k, 1, |o, i| {
            o.put(value, Json::f64(k.value(i, 0)));
        })?
    };
    bones.get(&d.bones[t.bone].name).put(name, json);
    Ok(())
}

/// One animation.
fn animation(
    d: &SkeletonData,
    v: SpineVersion,
    places: &Places,
    a: &Animation,
) -> Result<Json, WriteError> {
    let v38 = v <= SpineVersion::V38;
    let (mut slots, mut bones, mut ik, mut transform, mut path, mut physics) = (
        Groups::default(),
        Groups::default(),
        Obj::new(),
        Obj::new(),
        Groups::default(),
        Groups::default(),
    );
    // skin -> slot -> attachment -> (4.1+: kind ->) keys.
    let mut attachments: Vec<(String, Groups)> = Vec::new();
    let mut attach = |skin: &str, slot: &str, key: &str, kind: &str, keys: Json| {
        let i = match attachments.iter().position(|(s, _)| s == skin) {
            Some(i) => i,
            None => {
                attachments.push((skin.to_string(), Groups::default()));
                attachments.len() - 1
            }
        };
        let slot_obj = attachments[i].1.get(slot);
        if v < SpineVersion::V41 {
            slot_obj.put(key, keys);
        } else if let Some(e) = slot_obj.0.iter_mut().find(|(k, _)| k == key) {
            if let Json::Obj(entries) = &mut e.1 {
                entries.push((kind.to_string(), keys));
            }
        } else {
            slot_obj.put(key, Json::Obj(vec![(kind.to_string(), keys)]));
        }
    };
    let mut draw_order = None;
    let mut events = None;
    let (mut sliders, mut folders) = (Groups::default(), Vec::new());
    for t in &a.timelines {
        // 4.3: the loader's copy for a slot whose linked mesh follows this mesh's keys; the
        // file says so once, on the linked mesh (`slot`).
        if v >= SpineVersion::V43 && super::anim43::follower_copy(d, places, t) {
            continue;
        }
        match t {
            Timeline::Attachment(_) | Timeline::Color(_) | Timeline::TwoColor(_) => {
                slot_timeline(d, v, t, &mut slots)?;
            }
            Timeline::Bone(b) => bone_timeline(d, v, b, &mut bones)?,
            Timeline::Inherit(t) => {
                let keys = t
                    .times
                    .iter()
                    .zip(&t.modes)
                    .map(|(&time, m)| {
                        let mut o = Obj::new();
                        o.put("time", Json::f32(time))
                            .put("inherit", Json::str(m.name()));
                        o.done()
                    })
                    .collect();
                bones
                    .get(&d.bones[t.bone].name)
                    .put("inherit", Json::Arr(keys));
            }
            Timeline::Ik(t) => {
                let k = &t.keys;
                let json = keys_json(v, k, 2, |o, i| {
                    o.put("mix", Json::f64(k.value(i, 0)));
                    // 3.7 keys have no softness.
                    if v >= SpineVersion::V38 {
                        o.put("softness", Json::f64(k.value(i, 1)));
                    }
                    o.put("bendPositive", Json::Bool(k.value(i, 2) > 0.0));
                    o.flag("compress", k.value(i, 3) != 0.0)
                        .flag("stretch", k.value(i, 4) != 0.0);
                })?;
                ik.put(&d.ik_constraints[t.constraint].name, json);
            }
            Timeline::Transform(t) => {
                let k = &t.keys;
                let names: &[&str] = if v38 {
                    &["rotateMix", "translateMix", "scaleMix", "shearMix"]
                } else {
                    &[
                        "mixRotate",
                        "mixX",
                        "mixY",
                        "mixScaleX",
                        "mixScaleY",
                        "mixShearY",
                    ]
                };
                let json = keys_json(v, k, names.len(), |o, i| {
                    for (c, n) in names.iter().enumerate() {
                        o.put(n, Json::f64(k.value(i, c)));
                    }
                })?;
                transform.put(&d.transform_constraints[t.constraint].name, json);
            }
            Timeline::Path(t) => {
                let k = &t.keys;
                let (name, names): (&str, &[&str]) = match (t.property, v38) {
                    (PathProperty::Position, true) => ("position", &["position"]),
                    (PathProperty::Position, false) => ("position", &["value"]),
                    (PathProperty::Spacing, true) => ("spacing", &["spacing"]),
                    (PathProperty::Spacing, false) => ("spacing", &["value"]),
                    (PathProperty::Mix, true) => ("mix", &["rotateMix", "translateMix"]),
                    (PathProperty::Mix, false) => ("mix", &["mixRotate", "mixX", "mixY"]),
                };
                let json = keys_json(v, k, names.len(), |o, i| {
                    for (c, n) in names.iter().enumerate() {
                        o.put(n, Json::f64(k.value(i, c)));
                    }
                })?;
                path.get(&d.path_constraints[t.constraint].name)
                    .put(name, json);
            }
            Timeline::Physics(t) => {
                let k = &t.keys;
                let json = keys_json(v, k, 1, |o, i| {
                    o.put("value", Json::f64(k.value(i, 0)));
                })?;
                let c = t.constraint.map_or("", |c| &d.physics_constraints[c].name);
                physics.get(c).put(t.property.name(), json);
            }
            Timeline::PhysicsReset(t) => {
                let keys = t
                    .times
                    .iter()
                    .map(|&time| Json::Obj(vec![("time".into(), Json::f32(time))]))
                    .collect();
                let c = t.constraint.map_or("", |c| &d.physics_constraints[c].name);
                physics.get(c).put("reset", Json::Arr(keys));
            }
            Timeline::Deform(t) => {
                let (skin, slot, key) = places.get(&t.attachment).ok_or_else(|| {
                    WriteError(format!(
                        "animation \"{}\": deform of an attachment in no skin",
                        a.name
                    ))
                })?;
                let vd = d.attachments[t.attachment].vertex_data().ok_or_else(|| {
                    WriteError("deform keys of an attachment without vertices".into())
                })?;
                let setup = vd.bones.is_none().then_some(vd.vertices.as_slice());
                let mut out = Vec::with_capacity(t.vertices.len());
                for (i, verts) in t.vertices.iter().enumerate() {
                    let mut o = Obj::new();
                    o.put("time", Json::f32(t.keys.times()[i]));
                    // Exact in f64 (both are f32s): the reader adds it back in f64.
                    let offsets: Vec<f64> = match setup {
                        Some(s) => verts
                            .iter()
                            .zip(s)
                            .map(|(&x, &s)| x as f64 - s as f64)
                            .collect(),
                        None => verts.iter().map(|&x| x as f64).collect(),
                    };
                    // Leading and trailing zeros are implied.
                    let start = offsets.iter().position(|&x| x != 0.0);
                    if let Some(start) = start {
                        let end = offsets
                            .iter()
                            .rposition(|&x| x != 0.0)
                            .map_or(start, |e| e + 1);
                        if start > 0 {
                            o.put("offset", Json::int(start as i64));
                        }
                        let run = offsets[start..end].iter().map(|&x| Json::f64(x)).collect();
                        o.put("vertices", Json::Arr(run));
                    }
                    curve(&mut o, v, &t.keys, i, 0, true)?;
                    out.push(o.done());
                }
                let slot_name = &d.slots[*slot].name;
                attach(skin, slot_name, key, "deform", Json::Arr(out));
            }
            Timeline::Slider(t) => {
                let k = &t.keys;
                let json = keys_json(v, k, 1, |o, i| {
                    o.put("value", Json::f64(k.value(i, 0)));
                })?;
                let name = match t.property {
                    SliderProperty::Time => "time",
                    SliderProperty::Mix => "mix",
                };
                let c = d.slider_constraints.get(t.constraint).ok_or_else(|| {
                    WriteError(format!("animation \"{}\": keys of no slider", a.name))
                })?;
                sliders.get(&c.name).put(name, json);
            }
            Timeline::DrawOrderFolder(t) => folders.push(super::anim43::folder(d, t)?),
            Timeline::Sequence(t) => {
                let (skin, slot, key) = places.get(&t.attachment).ok_or_else(|| {
                    WriteError(format!(
                        "animation \"{}\": sequence of an attachment in no skin",
                        a.name
                    ))
                })?;
                let keys = t
                    .times
                    .iter()
                    .zip(&t.keys)
                    .map(|(&time, k)| {
                        let mut o = Obj::new();
                        o.put("time", Json::f32(time))
                            .put("mode", Json::str(k.mode.name()))
                            .put("index", Json::int(k.index as i64))
                            .put("delay", Json::f32(k.delay));
                        o.done()
                    })
                    .collect();
                let slot_name = &d.slots[*slot].name;
                attach(skin, slot_name, key, "sequence", Json::Arr(keys));
            }
            Timeline::DrawOrder(t) => {
                let keys = t
                    .times
                    .iter()
                    .zip(&t.orders)
                    .map(|(&time, order)| {
                        let mut o = Obj::new();
                        o.put("time", Json::f32(time));
                        if let Some(order) = order {
                            // In slot order: the runtimes walk the offsets in slot order
                            // (out of order, the official ones never finish).
                            let mut moved: Vec<(usize, usize)> = order
                                .iter()
                                .enumerate()
                                .filter(|&(p, &s)| p != s)
                                .map(|(p, &s)| (p, s))
                                .collect();
                            moved.sort_unstable_by_key(|&(_, s)| s);
                            let offsets = moved
                                .into_iter()
                                .map(|(p, s)| {
                                    let mut e = Obj::new();
                                    e.put("slot", Json::str(&d.slots[s].name))
                                        .put("offset", Json::int(p as i64 - s as i64));
                                    e.done()
                                })
                                .collect();
                            o.put("offsets", Json::Arr(offsets));
                        }
                        o.done()
                    })
                    .collect();
                draw_order = Some(Json::Arr(keys));
            }
            Timeline::Event(t) => {
                let keys = t
                    .events
                    .iter()
                    .map(|e| {
                        let def = &d.events[e.data];
                        let mut o = Obj::new();
                        o.put("time", Json::f32(e.time as f32))
                            .put("name", Json::str(&def.name))
                            .put("int", Json::int(e.int as i64))
                            .num("float", e.float)
                            .put("string", Json::str(&e.string));
                        if def.audio.is_some() {
                            o.num("volume", e.volume).num("balance", e.balance);
                        }
                        o.done()
                    })
                    .collect();
                events = Some(Json::Arr(keys));
            }
            Timeline::Joint(_) => {
                return Err(WriteError(
                    "3D joint curves (MRTK): Spine JSON has none".into(),
                ));
            }
            Timeline::Lattice(_) => {
                return Err(WriteError(
                    "surface lattices (DragonBones 5.6): Spine JSON has none".into(),
                ));
            }
        }
    }
    let mut o = Obj::new();
    let groups = [("slots", slots), ("bones", bones)];
    for (name, g) in groups {
        if !g.0.is_empty() {
            o.put(name, g.done());
        }
    }
    if !ik.is_empty() {
        o.put("ik", ik.done());
    }
    if !transform.is_empty() {
        o.put("transform", transform.done());
    }
    if !path.0.is_empty() {
        // 3.7 names the path constraint timelines "paths".
        let key = if v == SpineVersion::V37 {
            "paths"
        } else {
            "path"
        };
        o.put(key, path.done());
    }
    if !physics.0.is_empty() {
        o.put("physics", physics.done());
    }
    if !sliders.0.is_empty() {
        o.put("slider", sliders.done());
    }
    if !attachments.is_empty() {
        let key = if v < SpineVersion::V41 {
            "deform"
        } else {
            "attachments"
        };
        o.put(
            key,
            Json::Obj(
                attachments
                    .into_iter()
                    .map(|(s, g)| (s, g.done()))
                    .collect(),
            ),
        );
    }
    if let Some(j) = draw_order {
        o.put("drawOrder", j);
    }
    if !folders.is_empty() {
        o.put("drawOrderFolder", Json::Arr(folders));
    }
    if let Some(j) = events {
        o.put("events", j);
    }
    Ok(o.done())
}

pub fn animations(d: &SkeletonData, v: SpineVersion, places: &Places) -> Result<Json, WriteError> {
    let mut o = Obj::new();
    for a in &d.animations {
        o.put(&a.name, animation(d, v, places, a)?);
    }
    Ok(o.done())
}
