//! The setup part of a Spine JSON export: skeleton, bones, slots, constraints, skins, events.

use super::json::{Json, Obj};
use super::{Places, WriteError};
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

/// `rrggbbaa` (or `rrggbb` without alpha) of a color, channel by channel rounded to bytes.
pub fn hex(c: Color, alpha: bool) -> String {
    let b = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    if alpha {
        format!("{:02x}{:02x}{:02x}{:02x}", b(c.r), b(c.g), b(c.b), b(c.a))
    } else {
        format!("{:02x}{:02x}{:02x}", b(c.r), b(c.g), b(c.b))
    }
}

pub fn skeleton(d: &SkeletonData, v: SpineVersion) -> Json {
    let mut o = Obj::new();
    o.put("hash", Json::str(&d.hash))
        .put("spine", Json::str(&d.source.version));
    // 3.7 has no bounds origin and no fps.
    if v >= SpineVersion::V38 {
        o.num("x", d.x).num("y", d.y);
    }
    o.num("width", d.width).num("height", d.height);
    if v >= SpineVersion::V42 {
        o.num("referenceScale", d.reference_scale.0);
    }
    if v >= SpineVersion::V38 {
        o.num("fps", d.fps);
    }
    if let Some(i) = &d.images {
        o.put("images", Json::str(i));
    }
    if let Some(a) = &d.audio {
        o.put("audio", Json::str(a));
    }
    o.done()
}

pub fn bones(d: &SkeletonData, v: SpineVersion) -> Result<Json, WriteError> {
    let mut out = Vec::with_capacity(d.bones.len());
    for b in &d.bones {
        let mut o = Obj::new();
        o.put("name", Json::str(&b.name));
        if let Some(p) = b.parent {
            o.put("parent", Json::str(&d.bones[p].name));
        }
        o.num_or("length", b.length, 0.0)
            .num_or("rotation", b.rotation, 0.0)
            .num_or("x", b.x, 0.0)
            .num_or("y", b.y, 0.0)
            .num_or("scaleX", b.scale_x, 1.0)
            .num_or("scaleY", b.scale_y, 1.0)
            .num_or("shearX", b.shear_x, 0.0)
            .num_or("shearY", b.shear_y, 0.0);
        if matches!(b.inherit, Inherit::DragonBones { .. }) {
            return Err(WriteError(format!(
                "bone \"{}\" inherits as DragonBones does: not a Spine mode",
                b.name
            )));
        }
        if b.inherit != Inherit::Normal {
            let key = if v >= SpineVersion::V42 {
                "inherit"
            } else {
                "transform"
            };
            o.put(key, Json::str(b.inherit.name()));
        }
        o.flag("skin", b.skin_required);
        if let Some(c) = b.color {
            o.put("color", Json::str(hex(c, true)));
        }
        out.push(o.done());
    }
    Ok(Json::Arr(out))
}

pub fn slots(d: &SkeletonData) -> Json {
    Json::Arr(
        d.slots
            .iter()
            .map(|s| {
                let mut o = Obj::new();
                o.put("name", Json::str(&s.name))
                    .put("bone", Json::str(&d.bones[s.bone].name));
                if s.color != Color::WHITE {
                    o.put("color", Json::str(hex(s.color, true)));
                }
                if let Some(dark) = s.dark {
                    o.put("dark", Json::str(hex(dark, false)));
                }
                if let Some(a) = &s.attachment {
                    o.put("attachment", Json::str(a));
                }
                if s.blend != BlendMode::Normal {
                    o.put("blend", Json::str(s.blend.name()));
                }
                o.done()
            })
            .collect(),
    )
}

pub fn names(d: &SkeletonData, bones: &[usize]) -> Json {
    Json::Arr(bones.iter().map(|&b| Json::str(&d.bones[b].name)).collect())
}

/// Name, order, skin flag and bones, the start of every constraint.
fn head(d: &SkeletonData, name: &str, order: i32, skin: bool, bones: &[usize]) -> Obj {
    let mut o = Obj::new();
    o.put("name", Json::str(name))
        .put("order", Json::int(order as i64));
    o.flag("skin", skin);
    o.put("bones", names(d, bones));
    o
}

pub fn ik(d: &SkeletonData, v: SpineVersion) -> Json {
    Json::Arr(
        d.ik_constraints
            .iter()
            .map(|c| {
                let mut o = head(d, &c.name, c.order, c.skin_required, &c.bones);
                o.put("target", Json::str(&d.bones[c.target].name))
                    .num("mix", c.mix);
                // 3.7 has no softness.
                if v >= SpineVersion::V38 {
                    o.num("softness", c.softness);
                }
                o.put("bendPositive", Json::Bool(c.bend_direction > 0));
                o.flag("compress", c.compress)
                    .flag("stretch", c.stretch)
                    .flag("uniform", c.uniform);
                o.done()
            })
            .collect(),
    )
}

pub fn transform(d: &SkeletonData, v: SpineVersion) -> Json {
    Json::Arr(
        d.transform_constraints
            .iter()
            .map(|c| {
                let mut o = head(d, &c.name, c.order, c.skin_required, &c.bones);
                o.put("target", Json::str(&d.bones[c.target].name));
                o.num("rotation", c.offset_rotation)
                    .num("x", c.offset_x)
                    .num("y", c.offset_y)
                    .num("scaleX", c.offset_scale_x)
                    .num("scaleY", c.offset_scale_y)
                    .num("shearY", c.offset_shear_y);
                if v <= SpineVersion::V38 {
                    o.num("rotateMix", c.mix_rotate)
                        .num("translateMix", c.mix_x)
                        .num("scaleMix", c.mix_scale_x)
                        .num("shearMix", c.mix_shear_y);
                } else {
                    o.num("mixRotate", c.mix_rotate)
                        .num("mixX", c.mix_x)
                        .num("mixY", c.mix_y)
                        .num("mixScaleX", c.mix_scale_x)
                        .num("mixScaleY", c.mix_scale_y)
                        .num("mixShearY", c.mix_shear_y);
                }
                o.flag("local", c.local).flag("relative", c.relative);
                o.done()
            })
            .collect(),
    )
}

pub fn path(d: &SkeletonData, v: SpineVersion) -> Json {
    Json::Arr(
        d.path_constraints
            .iter()
            .map(|c| {
                let mut o = head(d, &c.name, c.order, c.skin_required, &c.bones);
                o.put("target", Json::str(&d.slots[c.target].name));
                path_body(&mut o, c, v);
                o.done()
            })
            .collect(),
    )
}

/// A path constraint's modes, offsets and mixes (after its bones and slot).
pub fn path_body(o: &mut Obj, c: &PathConstraintData, v: SpineVersion) {
    let position = match c.position_mode {
        PositionMode::Fixed => "fixed",
        PositionMode::Percent => "percent",
    };
    let spacing = match c.spacing_mode {
        SpacingMode::Length => "length",
        SpacingMode::Fixed => "fixed",
        SpacingMode::Percent => "percent",
        SpacingMode::Proportional => "proportional",
    };
    let rotate = match c.rotate_mode {
        RotateMode::Tangent => "tangent",
        RotateMode::Chain => "chain",
        RotateMode::ChainScale => "chainScale",
    };
    o.put("positionMode", Json::str(position))
        .put("spacingMode", Json::str(spacing))
        .put("rotateMode", Json::str(rotate))
        .num("rotation", c.offset_rotation)
        .num("position", c.position)
        .num("spacing", c.spacing);
    if v <= SpineVersion::V38 {
        o.num("rotateMix", c.mix_rotate)
            .num("translateMix", c.mix_x);
    } else {
        o.num("mixRotate", c.mix_rotate)
            .num("mixX", c.mix_x)
            .num("mixY", c.mix_y);
    }
}

pub fn physics(d: &SkeletonData) -> Json {
    Json::Arr(
        d.physics_constraints
            .iter()
            .map(|c| {
                let mut o = Obj::new();
                o.put("name", Json::str(&c.name))
                    .put("order", Json::int(c.order as i64));
                o.flag("skin", c.skin_required);
                o.put("bone", Json::str(&d.bones[c.bone].name));
                physics_body(&mut o, c);
                o.done()
            })
            .collect(),
    )
}

/// A physics constraint's channels, parameters and global flags (after its bone).
pub fn physics_body(o: &mut Obj, c: &PhysicsConstraintData) {
    o.num("x", c.x)
        .num("y", c.y)
        .num("rotate", c.rotate)
        .num("scaleX", c.scale_x)
        .num("shearX", c.shear_x)
        .num("limit", c.limit)
        .num("fps", 1.0 / c.step)
        .num("inertia", c.inertia)
        .num("strength", c.strength)
        .num("damping", c.damping)
        .num("mass", 1.0 / c.mass_inverse)
        .num("wind", c.wind)
        .num("gravity", c.gravity)
        .num("mix", c.mix);
    o.flag("inertiaGlobal", c.inertia_global)
        .flag("strengthGlobal", c.strength_global)
        .flag("dampingGlobal", c.damping_global)
        .flag("massGlobal", c.mass_global)
        .flag("windGlobal", c.wind_global)
        .flag("gravityGlobal", c.gravity_global)
        .flag("mixGlobal", c.mix_global);
}

pub fn events(d: &SkeletonData) -> Json {
    let mut o = Obj::new();
    for e in &d.events {
        let mut ev = Obj::new();
        ev.put("int", Json::int(e.int as i64))
            .num("float", e.float)
            .put("string", Json::str(&e.string));
        if let Some(a) = &e.audio {
            ev.put("audio", Json::str(a))
                .num("volume", e.volume)
                .num("balance", e.balance);
        }
        o.put(&e.name, ev.done());
    }
    o.done()
}

/// Plain x, y pairs, or per vertex its influence count then bone, x, y, weight.
pub fn vertices(vd: &VertexData) -> Json {
    let Some(bones) = &vd.bones else {
        return Json::floats(&vd.vertices);
    };
    let mut out = Vec::with_capacity(bones.len() + vd.vertices.len());
    let (mut b, mut v) = (0, 0);
    while b < bones.len() {
        let n = bones[b] as usize;
        out.push(Json::int(n as i64));
        b += 1;
        for _ in 0..n {
            out.push(Json::int(bones[b] as i64));
            out.push(Json::f32(vd.vertices[v]));
            out.push(Json::f32(vd.vertices[v + 1]));
            out.push(Json::f32(vd.vertices[v + 2]));
            b += 1;
            v += 3;
        }
    }
    Json::Arr(out)
}

fn sequence(o: &mut Obj, s: &Option<Sequence>) {
    if let Some(s) = s {
        let mut q = Obj::new();
        q.put("count", Json::int(s.count as i64))
            .put("start", Json::int(s.start as i64))
            .put("digits", Json::int(s.digits as i64))
            .put("setup", Json::int(s.setup as i64));
        o.put("sequence", q.done());
    }
}

fn editor_color(o: &mut Obj, c: Option<Color>) {
    if let Some(c) = c {
        o.put("color", Json::str(hex(c, true)));
    }
}

/// One attachment stored under `key` as `id`.
fn attachment(
    d: &SkeletonData,
    v: SpineVersion,
    places: &Places,
    slot: usize,
    key: &str,
    id: AttachmentId,
) -> Result<Json, WriteError> {
    let a = &d.attachments[id];
    let mut o = Obj::new();
    let typed = |o: &mut Obj, t: &str| {
        o.put("type", Json::str(t));
    };
    let name = |o: &mut Obj| {
        if a.name != key {
            o.put("name", Json::str(&a.name));
        }
    };
    match &a.kind {
        AttachmentKind::Region(r) => {
            name(&mut o);
            if r.path != a.name {
                o.put("path", Json::str(&r.path));
            }
            o.num_or("x", r.x, 0.0)
                .num_or("y", r.y, 0.0)
                .num_or("rotation", r.rotation, 0.0)
                .num_or("scaleX", r.scale_x, 1.0)
                .num_or("scaleY", r.scale_y, 1.0)
                .num("width", r.width)
                .num("height", r.height);
            if r.color != Color::WHITE {
                o.put("color", Json::str(hex(r.color, true)));
            }
            sequence(&mut o, &a.sequence);
        }
        AttachmentKind::Mesh(m) => {
            if let Some(parent) = m.linked_parent {
                typed(&mut o, "linkedmesh");
                name(&mut o);
                if m.path != a.name {
                    o.put("path", Json::str(&m.path));
                }
                if m.color != Color::WHITE {
                    o.put("color", Json::str(hex(m.color, true)));
                }
                let (skin, parent_slot, parent_key) = places.get(&parent).ok_or_else(|| {
                    WriteError(format!("linked mesh \"{key}\": its parent is in no skin"))
                })?;
                if skin != "default" {
                    o.put("skin", Json::str(skin.as_str()));
                }
                if v >= SpineVersion::V43 {
                    // 4.3 names the parent `source` and finds it under `slot` (default: this
                    // linked mesh's own slot).
                    o.put("source", Json::str(parent_key.as_str()));
                    if *parent_slot != slot {
                        o.put("slot", Json::str(&d.slots[*parent_slot].name));
                    }
                } else {
                    o.put("parent", Json::str(parent_key.as_str()));
                }
                let inherits = a.deform_source != id;
                let flag = if v < SpineVersion::V41 {
                    "deform"
                } else {
                    "timelines"
                };
                o.put(flag, Json::Bool(inherits));
                sequence(&mut o, &a.sequence);
                o.num("width", m.width).num("height", m.height);
            } else {
                typed(&mut o, "mesh");
                name(&mut o);
                if m.path != a.name {
                    o.put("path", Json::str(&m.path));
                }
                if m.color != Color::WHITE {
                    o.put("color", Json::str(hex(m.color, true)));
                }
                o.put("uvs", Json::floats(&m.uvs))
                    .put(
                        "triangles",
                        Json::Arr(m.triangles.iter().map(|&t| Json::int(t as i64)).collect()),
                    )
                    .put("vertices", vertices(&m.vertices))
                    .put("hull", Json::int(m.hull as i64));
                if !m.edges.is_empty() {
                    o.put(
                        "edges",
                        Json::Arr(m.edges.iter().map(|&e| Json::int(e as i64)).collect()),
                    );
                }
                sequence(&mut o, &a.sequence);
                o.num("width", m.width).num("height", m.height);
            }
        }
        AttachmentKind::BoundingBox {
            vertices: vd,
            color,
        } => {
            typed(&mut o, "boundingbox");
            name(&mut o);
            o.put("vertexCount", Json::int(vd.vertex_count() as i64))
                .put("vertices", vertices(vd));
            editor_color(&mut o, *color);
        }
        AttachmentKind::Path(p) => {
            typed(&mut o, "path");
            name(&mut o);
            o.flag("closed", p.closed)
                .put("constantSpeed", Json::Bool(p.constant_speed))
                .put("lengths", Json::floats(&p.lengths))
                .put("vertexCount", Json::int(p.vertices.vertex_count() as i64))
                .put("vertices", vertices(&p.vertices));
            editor_color(&mut o, p.color);
        }
        AttachmentKind::Point(p) => {
            typed(&mut o, "point");
            name(&mut o);
            o.num("x", p.x).num("y", p.y).num("rotation", p.rotation);
            editor_color(&mut o, p.color);
        }
        AttachmentKind::Clipping {
            vertices: vd,
            end_slot,
            color,
        } => {
            typed(&mut o, "clipping");
            name(&mut o);
            if let Some(e) = end_slot {
                o.put("end", Json::str(&d.slots[*e].name));
            }
            o.put("vertexCount", Json::int(vd.vertex_count() as i64))
                .put("vertices", vertices(vd));
            editor_color(&mut o, *color);
        }
        AttachmentKind::Armature(_) => {
            return Err(WriteError(format!(
                "attachment \"{key}\" is a DragonBones armature: Spine JSON has none"
            )));
        }
    }
    Ok(o.done())
}

pub fn skins(d: &SkeletonData, v: SpineVersion, places: &Places) -> Result<Json, WriteError> {
    let mut out = Vec::with_capacity(d.skins.len());
    let mut named = Vec::new();
    for skin in &d.skins {
        let mut o = Obj::new();
        o.put("name", Json::str(&skin.name));
        if !skin.bones.is_empty() {
            o.put("bones", names(d, &skin.bones));
        }
        let mut lists: [Vec<Json>; 5] = Default::default();
        for c in &skin.constraints {
            let i = match *c {
                ConstraintRef::Ik(_) => 0,
                ConstraintRef::Transform(_) => 1,
                ConstraintRef::Path(_) => 2,
                ConstraintRef::Physics(_) => 3,
                ConstraintRef::Slider(_) => 4,
            };
            lists[i].push(Json::str(d.constraint_name(*c)));
        }
        for (key, list) in ["ik", "transform", "path", "physics", "slider"]
            .into_iter()
            .zip(lists)
        {
            if !list.is_empty() {
                o.put(key, Json::Arr(list));
            }
        }
        let mut slots = Obj::new();
        for (slot, s) in d.slots.iter().enumerate() {
            let entries = skin.slot_entries(slot);
            if entries.is_empty() {
                continue;
            }
            let mut atts = Obj::new();
            for (key, id) in entries {
                atts.put(key, attachment(d, v, places, slot, key, *id)?);
            }
            slots.put(&s.name, atts.done());
        }
        if v == SpineVersion::V37 {
            // 3.7: an object of skins, each its attachments only (no skin bones or
            // constraints in 3.7 data).
            named.push((skin.name.clone(), slots.done()));
            continue;
        }
        o.put("attachments", slots.done());
        out.push(o.done());
    }
    if v == SpineVersion::V37 {
        return Ok(Json::Obj(named));
    }
    Ok(Json::Arr(out))
}
