//! Spine 4.2 attachments: after the key a flags byte holds the type (low 3 bits), whether a
//! name differing from the key follows (bit 3) and per type which optional fields follow
//! (the inverse of the reader's `attachment42`; see `spine_binary/LAYOUT.md`).

use super::attachment::{armature, editor_color, no_end_slot, point, sequence_fields, vertices};
use super::out::{Out, Strings};
use super::{Ctx, WriteError};
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::spine_json::SpineVersion;

use crate::format::spine_binary::attachment42::{BIT4, BIT7, COLOR, NAME, PATH, SEQUENCE};

/// Path, color and sequence of a region or (linked) mesh: their flags, then (after the
/// name) the fields.
struct Textured<'a> {
    path: Option<&'a str>,
    color: Option<Color>,
    sequence: Option<Sequence>,
}

impl Textured<'_> {
    fn flags(&self) -> u8 {
        let f = |b: bool, bit: u8| if b { bit } else { 0 };
        f(self.path.is_some(), PATH)
            | f(self.color.is_some(), COLOR)
            | f(self.sequence.is_some(), SEQUENCE)
    }

    fn write(&self, o: &mut Out, s: &mut Strings) {
        if let Some(p) = self.path {
            s.write(o, Some(p));
        }
        if let Some(c) = self.color {
            o.color(c);
        }
        if let Some(q) = &self.sequence {
            sequence_fields(o, q);
        }
    }
}

pub fn attachment42(
    o: &mut Out,
    s: &mut Strings,
    cx: &Ctx<'_>,
    key: &str,
    id: AttachmentId,
) -> Result<(), WriteError> {
    let a = &cx.d.attachments[id];
    let named = if a.name != key { NAME } else { 0 };
    let name = |o: &mut Out, s: &mut Strings| {
        if named != 0 {
            s.write(o, Some(&a.name));
        }
    };
    fn textured<'p>(a: &Attachment, path: &'p str, color: Color) -> Textured<'p> {
        Textured {
            path: (path != a.name).then_some(path),
            color: (color != Color::WHITE).then_some(color),
            sequence: a.sequence,
        }
    }
    let weighted = |vd: &VertexData, bit: u8| if vd.bones.is_some() { bit } else { 0 };
    match &a.kind {
        AttachmentKind::Region(r) => {
            let t = textured(a, &r.path, r.color);
            let rotated = if r.rotation != 0.0 { BIT7 } else { 0 };
            o.u8(named | t.flags() | rotated);
            name(o, s);
            t.write(o, s);
            if rotated != 0 {
                o.f64(r.rotation);
            }
            for x in [r.x, r.y, r.scale_x, r.scale_y, r.width, r.height] {
                o.f64(x);
            }
        }
        AttachmentKind::Mesh(m) if m.linked_parent.is_some() => {
            let (skin, parent) = cx.linked_parent(m)?;
            let t = textured(a, &m.path, m.color);
            let inherits = if a.deform_source != id { BIT7 } else { 0 };
            o.u8(3 | named | t.flags() | inherits);
            name(o, s);
            t.write(o, s);
            if cx.v >= SpineVersion::V43 {
                // The slot under which the parent is found (the JSON `slot`).
                let parent_slot = m.linked_parent.and_then(|p| cx.places.get(&p)).map(|p| p.1);
                let Some(slot) = parent_slot else {
                    return Err(WriteError(
                        "a linked mesh whose parent is in no skin".into(),
                    ));
                };
                o.uvarint(slot);
            }
            o.uvarint(cx.skin_pos[skin]);
            s.write(o, Some(parent));
            o.f64(m.width);
            o.f64(m.height);
        }
        AttachmentKind::Mesh(m) => {
            let t = textured(a, &m.path, m.color);
            o.u8(2 | named | t.flags() | weighted(&m.vertices, BIT7));
            name(o, s);
            t.write(o, s);
            let count = m.uvs.len() / 2;
            // 4.2 leaves the triangle count out: a triangulated polygon of `count` vertices
            // with `hull` on its outline has 2 * count - hull - 2 triangles.
            let implied = (count * 2).checked_sub(m.hull + 2).map(|t| t * 3);
            if implied != Some(m.triangles.len()) {
                return Err(WriteError(format!(
                    "{} triangle indices where a 4.2 mesh of {count} vertices with a hull of {} has {}",
                    m.triangles.len(),
                    m.hull,
                    implied.map_or_else(|| "none".to_string(), |t| t.to_string())
                )));
            }
            o.uvarint(m.hull);
            o.uvarint(count);
            vertices43(o, cx, &m.vertices);
            m.uvs.iter().for_each(|&u| o.f32(u));
            m.triangles.iter().for_each(|&t| o.uvarint(t as usize));
            if cx.v >= SpineVersion::V43 {
                // The slots of linked meshes under other slots that follow this mesh's deform
                // and sequence keys (the official JSON reader's "timeline slots").
                let slots = follower_slots(cx, id);
                o.uvarint(slots.len());
                slots.iter().for_each(|&slot| o.uvarint(slot));
            }
            o.uvarint(m.edges.len());
            m.edges.iter().for_each(|&e| o.uvarint(e as usize));
            o.f64(m.width);
            o.f64(m.height);
        }
        AttachmentKind::BoundingBox {
            vertices: vd,
            color,
        } => {
            o.u8(1 | named | weighted(vd, BIT4));
            name(o, s);
            o.uvarint(vd.vertex_count());
            vertices43(o, cx, vd);
            editor_color(o, *color);
        }
        AttachmentKind::Path(p) => {
            let f = |b: bool, n: u8| if b { 1 << n } else { 0 };
            o.u8(4
                | named
                | f(p.closed, 4)
                | f(p.constant_speed, 5)
                | weighted(&p.vertices, 1 << 6));
            name(o, s);
            o.uvarint(p.vertices.vertex_count());
            vertices43(o, cx, &p.vertices);
            p.lengths.iter().for_each(|&l| o.f32(l));
            editor_color(o, p.color);
        }
        AttachmentKind::Point(p) => {
            o.u8(5 | named);
            name(o, s);
            point(o, p);
        }
        AttachmentKind::Clipping {
            vertices: vd,
            end_slot,
            color,
        } => {
            o.u8(6 | named | weighted(vd, BIT4));
            name(o, s);
            o.uvarint(end_slot.ok_or_else(no_end_slot)?);
            o.uvarint(vd.vertex_count());
            vertices43(o, cx, vd);
            editor_color(o, *color);
        }
        AttachmentKind::Armature(_) => return Err(armature()),
    }
    Ok(())
}

/// Vertices; 4.3 writes the length of a weighted list's bone array (the bone counts and
/// indices) before it.
fn vertices43(o: &mut Out, cx: &Ctx<'_>, vd: &VertexData) {
    if cx.v >= SpineVersion::V43
        && let Some(bones) = &vd.bones
    {
        o.uvarint(bones.len());
    }
    vertices(o, vd, false);
}

/// The slots, other than its own, showing a linked mesh whose parent is `source` and that
/// follows its timelines; ascending.
pub(super) fn follower_slots(cx: &Ctx<'_>, source: AttachmentId) -> Vec<usize> {
    let own = cx.places.get(&source).map(|p| p.1);
    let mut slots: Vec<usize> = cx
        .skin_order
        .iter()
        .flat_map(|&i| cx.d.skins[i].entries())
        .filter(|&(slot, _, id)| {
            let a = &cx.d.attachments[id];
            let linked =
                matches!(&a.kind, AttachmentKind::Mesh(m) if m.linked_parent == Some(source));
            linked && a.deform_source != id && Some(slot) != own
        })
        .map(|(slot, _, _)| slot)
        .collect();
    slots.sort_unstable();
    slots.dedup();
    slots
}
