//! One attachment of a skin as 3.8-4.1 write it (a name reference and a type byte; 4.2:
//! [`super::attachment42`]), and vertex lists.

use super::attachment42::attachment42;
use super::out::{Out, Strings};
use super::{Ctx, WriteError};
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

/// The attachment `id` stored under `key`.
pub fn attachment(
    o: &mut Out,
    s: &mut Strings,
    cx: &Ctx<'_>,
    key: &str,
    id: AttachmentId,
) -> Result<(), WriteError> {
    if cx.v >= SpineVersion::V42 {
        return attachment42(o, s, cx, key, id);
    }
    let d = cx.d;
    let a = &d.attachments[id];
    s.write(o, (a.name != key).then_some(a.name.as_str()));
    let path = |p: &str| (p != a.name).then(|| p.to_string());
    match &a.kind {
        AttachmentKind::Region(r) => {
            o.u8(0);
            s.write(o, path(&r.path).as_deref());
            for x in [
                r.rotation, r.x, r.y, r.scale_x, r.scale_y, r.width, r.height,
            ] {
                o.f64(x);
            }
            o.color(r.color);
            sequence(o, cx.v, &a.sequence)?;
        }
        AttachmentKind::Mesh(m) if m.linked_parent.is_some() => {
            let (skin, parent) = cx.linked_parent(m)?;
            o.u8(3);
            s.write(o, path(&m.path).as_deref());
            o.color(m.color);
            // A null skin is the default skin.
            let skin_name = (Some(skin) != d.default_skin).then_some(d.skins[skin].name.as_str());
            s.write(o, skin_name);
            s.write(o, Some(parent));
            o.bool(a.deform_source != id);
            sequence(o, cx.v, &a.sequence)?;
            o.f64(m.width);
            o.f64(m.height);
        }
        AttachmentKind::Mesh(m) => {
            o.u8(2);
            s.write(o, path(&m.path).as_deref());
            o.color(m.color);
            let count = m.uvs.len() / 2;
            o.uvarint(count);
            m.uvs.iter().for_each(|&u| o.f32(u));
            shorts(o, &m.triangles, "triangle index")?;
            vertices(o, &m.vertices, true);
            o.uvarint(m.hull);
            sequence(o, cx.v, &a.sequence)?;
            shorts(o, &m.edges, "edge index")?;
            o.f64(m.width);
            o.f64(m.height);
        }
        AttachmentKind::BoundingBox {
            vertices: vd,
            color,
        } => {
            o.u8(1);
            o.uvarint(vd.vertex_count());
            vertices(o, vd, true);
            editor_color(o, *color);
        }
        AttachmentKind::Path(p) => {
            o.u8(4);
            o.bool(p.closed);
            o.bool(p.constant_speed);
            o.uvarint(p.vertices.vertex_count());
            vertices(o, &p.vertices, true);
            p.lengths.iter().for_each(|&l| o.f32(l));
            editor_color(o, p.color);
        }
        AttachmentKind::Point(p) => {
            o.u8(5);
            point(o, p);
        }
        AttachmentKind::Clipping {
            vertices: vd,
            end_slot,
            color,
        } => {
            o.u8(6);
            o.uvarint(end_slot.ok_or_else(no_end_slot)?);
            o.uvarint(vd.vertex_count());
            vertices(o, vd, true);
            editor_color(o, *color);
        }
        AttachmentKind::Armature(_) => return Err(armature()),
    }
    Ok(())
}

pub fn no_end_slot() -> WriteError {
    WriteError("a clipping attachment without an end slot: the binary format needs one".into())
}

pub fn armature() -> WriteError {
    WriteError("a DragonBones armature: Spine has no such attachment".into())
}

/// A point: rotation, position and editor color.
pub fn point(o: &mut Out, p: &PointAttachment) {
    o.f64(p.rotation);
    o.f64(p.x);
    o.f64(p.y);
    editor_color(o, p.color);
}

/// The editor color of a bounding box, path, point or clipping attachment (nonessential).
pub fn editor_color(o: &mut Out, c: Option<Color>) {
    o.color(c.unwrap_or(Color::WHITE));
}

/// A count, then 16-bit values.
fn shorts(o: &mut Out, v: &[u32], what: &str) -> Result<(), WriteError> {
    o.uvarint(v.len());
    for &x in v {
        let x =
            u16::try_from(x).map_err(|_| WriteError(format!("{what} {x} does not fit 16 bits")))?;
        o.u16(x);
    }
    Ok(())
}

/// 4.1: a sequence flag, then the sequence when set (4.2 writes it from its flags).
fn sequence(o: &mut Out, v: SpineVersion, q: &Option<Sequence>) -> Result<(), WriteError> {
    if v < SpineVersion::V41 {
        return match q {
            None => Ok(()),
            Some(_) => Err(WriteError("image sequences came with Spine 4.1".into())),
        };
    }
    o.bool(q.is_some());
    if let Some(q) = q {
        sequence_fields(o, q);
    }
    Ok(())
}

/// A sequence's image count, first index, digits and setup index.
pub fn sequence_fields(o: &mut Out, q: &Sequence) {
    o.uvarint(q.count as usize);
    o.varint(q.start);
    o.uvarint(q.digits as usize);
    o.varint(q.setup);
}

/// Vertices: (`flag`: a weighted flag, 3.8-4.1), then x, y pairs, or per vertex its
/// influence count and per influence bone index, bind x, bind y and weight.
pub fn vertices(o: &mut Out, vd: &VertexData, flag: bool) {
    let Some(bones) = &vd.bones else {
        if flag {
            o.bool(false);
        }
        vd.vertices.iter().for_each(|&v| o.f32(v));
        return;
    };
    if flag {
        o.bool(true);
    }
    let (mut b, mut v) = (0, 0);
    while b < bones.len() {
        let n = bones[b] as usize;
        o.uvarint(n);
        b += 1;
        for _ in 0..n {
            o.uvarint(bones[b] as usize);
            for k in 0..3 {
                o.f32(vd.vertices[v + k]);
            }
            b += 1;
            v += 3;
        }
    }
}
