//! Spine 4.2 attachments: a flags byte after the key holds the type (low 3 bits), whether a
//! name differing from the key follows (bit 3) and per type which optional fields are
//! present, so defaults (no path, white, no rotation) cost no bytes (see `LAYOUT.md`).

use super::attachment::{
    LinkSkin, LinkTo, bounding_box, linked_mesh, path, point_or_clipping, region, sequence_fields,
    vertices,
};
use super::read::Reader;
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::spine_binary::cursor::Read;

/// The attachment flags of 4.2+ exports (the writer writes the same bits).
pub(crate) const NAME: u8 = 1 << 3;
/// Region, mesh, linked mesh: a path (else the name).
pub(crate) const PATH: u8 = 1 << 4;
/// Region, mesh, linked mesh: a color (else white).
pub(crate) const COLOR: u8 = 1 << 5;
/// Region, mesh, linked mesh: an image sequence.
pub(crate) const SEQUENCE: u8 = 1 << 6;
/// Region: a rotation; mesh: weighted vertices; linked mesh: inherits timelines.
pub(crate) const BIT7: u8 = 1 << 7;
/// Bounding box, clipping: weighted vertices; path: closed.
pub(crate) const BIT4: u8 = 1 << 4;

/// Reads the attachment stored under `key`, to be stored as `id` (see
/// [`super::attachment::attachment`] for the linked-mesh contract).
pub fn attachment42(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    key: &str,
    id: AttachmentId,
) -> Read<(Attachment, Option<LinkTo>)> {
    let at = r.c.offset();
    let flags = r.c.u8("attachment flags")?;
    let name = if flags & NAME != 0 {
        let at = r.c.offset();
        r.string_ref("name")?
            .ok_or_else(|| r.c.error_at(at, "name is missing (null string)"))?
    } else {
        key
    };
    let mut link = None;
    let mut sequence = None;
    // Path, color and sequence, shared by regions and (linked) meshes.
    let textured = |r: &mut Reader<'_>, name: &str| -> Read<(String, Color, Option<Sequence>)> {
        let path = if flags & PATH != 0 {
            r.string_ref("path")?
        } else {
            None
        };
        let color = if flags & COLOR != 0 {
            r.c.color("color")?
        } else {
            Color::WHITE
        };
        let sequence = if flags & SEQUENCE != 0 {
            Some(sequence_fields(r)?)
        } else {
            None
        };
        Ok((path.unwrap_or(name).to_string(), color, sequence))
    };
    let bones = data.bones.len();
    let kind = match flags & 7 {
        0 => {
            let (path, color, seq) = textured(r, name)?;
            sequence = seq;
            let rotation = if flags & BIT7 != 0 {
                r.c.f64("rotation")?
            } else {
                0.0
            };
            region(r, path, rotation, Some(color))?
        }
        1 => bounding_box(r, bones, Some(flags & BIT4 != 0))?,
        2 => {
            let (path, color, seq) = textured(r, name)?;
            sequence = seq;
            let hull = r.c.uvarint("hull length")?;
            let at = r.c.offset();
            let count = r.c.count(8, "vertex count")?;
            if hull > count {
                return Err(r.c.error_at(
                    at,
                    format!("hull of {hull} vertices but the mesh has only {count}"),
                ));
            }
            let vertices = vertices(r, count, bones, Some(flags & BIT7 != 0))?;
            let uvs = r.c.f32s(count * 2, "uvs")?;
            // The triangle count is implied: a triangulated polygon with `hull` vertices on
            // its outline and the rest inside has 2 * count - hull - 2 triangles.
            let at = r.c.offset();
            let triangles = (count * 2)
                .checked_sub(hull + 2)
                .filter(|_| count >= 3)
                .ok_or_else(|| {
                    r.c.error_at(
                        at,
                        format!(
                            "a mesh of {count} vertices with a hull of {hull} has no triangles"
                        ),
                    )
                })?
                * 3;
            r.c.check_fits(at, triangles, 1, "triangle index count")?;
            let mut tris = Vec::with_capacity(triangles);
            let fast = r.c.small_indices(triangles, count, &mut tris);
            for _ in fast..triangles {
                let at = r.c.offset();
                let t = r.c.uvarint("triangle index")?;
                if t >= count {
                    return Err(r.c.error_at(
                        at,
                        format!("vertex index {t} is out of range (the mesh has {count} vertices)"),
                    ));
                }
                tris.push(t as u32);
            }
            if r.version.one_constraint_list() {
                // 4.3: the slots of linked meshes under other slots whose attachments follow
                // this mesh's timelines (checked against those linked meshes once resolved).
                let at = r.c.offset();
                let n = r.c.count(1, "timeline slot count")?;
                let mut slots = Vec::with_capacity(n);
                for _ in 0..n {
                    slots.push(r.c.index(data.slots.len(), "timeline slot index")?);
                }
                if n != 0 {
                    r.timeline_slots.push((at, id, slots));
                }
            }
            let (mut edges, mut width, mut height) = (Vec::new(), 0.0, 0.0);
            if r.nonessential {
                let n = r.c.count(1, "edge count")?;
                edges.reserve_exact(n);
                let fast = r.c.small_indices(n, count * 2, &mut edges);
                for _ in fast..n {
                    let at = r.c.offset();
                    let e = r.c.uvarint("edge index")?;
                    if e >= count * 2 {
                        return Err(r.c.error_at(
                            at,
                            format!(
                                "edge index {e} is out of range (the mesh has {} values)",
                                count * 2
                            ),
                        ));
                    }
                    edges.push(e as u32);
                }
                width = r.c.f64("width")?;
                height = r.c.f64("height")?;
            }
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color,
                vertices,
                uvs,
                triangles: tris,
                hull,
                edges,
                width,
                height,
                linked_parent: None,
            })
        }
        3 => {
            let (path, color, seq) = textured(r, name)?;
            sequence = seq;
            // 4.3: the slot under which the parent is found comes first.
            let slot = if r.version.one_constraint_list() {
                Some(r.c.index(data.slots.len(), "parent slot index")?)
            } else {
                None
            };
            let skin = r.c.uvarint("skin index")?;
            let at = r.c.offset();
            let parent = r
                .string_ref("parent mesh")?
                .ok_or_else(|| r.c.error_at(at, "parent mesh is missing (null string)"))?
                .to_string();
            link = Some(LinkTo {
                skin: LinkSkin::Index(skin),
                parent,
                deform: flags & BIT7 != 0,
                slot,
            });
            linked_mesh(r, path, color)?
        }
        // Path: bit 4 closed, 5 constant speed, 6 weighted.
        4 => path(
            r,
            bones,
            flags & BIT4 != 0,
            flags & (1 << 5) != 0,
            Some(flags & (1 << 6) != 0),
        )?,
        t => point_or_clipping(r, data, at, t, Some(flags & BIT4 != 0))?,
    };
    let attachment = Attachment {
        name: name.to_string(),
        kind,
        deform_source: id,
        sequence,
    };
    Ok((attachment, link))
}
