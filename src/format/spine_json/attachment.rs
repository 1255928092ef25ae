//! One attachment of a skin.

use foldhash::HashMap;

use super::SpineVersion;
use super::ctx::{Ctx, LazyPath, lookup};
use super::dto::{AttachmentDto, AttachmentType};
use super::vertices::vertex_data;
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::LoadError;
use crate::format::json::{Seg, SmallKey};

use Seg::{Index, Key};

/// Where an attachment is: its skin's attachments, then its slot's and its own entry (joined
/// only for an error).
pub type At<'p, 'a> = LazyPath<'p, 'a, 2>;

/// A linked mesh's reference to its parent, resolved once every skin is read.
pub struct LinkTo {
    /// Skin holding the parent (`None`: the default skin).
    pub skin: Option<SmallKey>,
    /// The parent's key in the same slot.
    pub parent: String,
    /// Whether the parent's deform keys drive this mesh.
    pub deform: bool,
    /// Spine 4.3: the slot the parent is found under (`None`: this mesh's slot).
    pub slot: Option<SmallKey>,
}

/// Reads the attachment `dto` found at `at` under attachment key `key` and appends it to
/// `out` (its fields are taken: the large DTO is read in place, not moved per attachment;
/// the attachment is pushed where it is built rather than returned and moved again). A
/// linked mesh is pushed with empty geometry and its [`LinkTo`] to resolve comes back.
pub fn attachment(
    ctx: Ctx<'_>,
    at: &At<'_, '_>,
    key: &str,
    dto: &mut AttachmentDto,
    out: &mut Vec<Attachment>,
    bone_count: usize,
    slots: &HashMap<&str, usize>,
) -> Result<Option<LinkTo>, LoadError> {
    let id = out.len();
    let kind = dto.kind.unwrap_or_default();
    if let Some(field) = dto.foreign_field(kind) {
        return Err(ctx.err(
            &at.join(&[Key(field)]),
            format!("`{field}` is not a field of {} attachments", kind.name()),
        ));
    }
    let field = |f: &'static str| at.join(&[Key(f)]);
    let v43 = ctx.version >= SpineVersion::V43;
    let keys_43 = [
        ("source", dto.source.is_some()),
        ("slot", dto.slot.is_some()),
        ("convex", dto.convex.is_some()),
        ("inverse", dto.inverse.is_some()),
    ];
    if !v43 && let Some((f, _)) = keys_43.iter().find(|(_, present)| *present) {
        return Err(ctx.err(&field(f), format!("\"{f}\" is a Spine 4.3 attachment key")));
    }
    if v43 && dto.parent.is_some() {
        return Err(ctx.err(
            &field("parent"),
            "Spine 4.3 calls a linked mesh's parent \"source\"",
        ));
    }
    if v43 {
        dto.parent = dto.source.take();
    }
    let missing = |f: &'static str| {
        ctx.err(
            &at.path(),
            format!(
                "missing field `{f}` for {} attachment \"{key}\"",
                kind.name()
            ),
        )
    };
    let tint = |c: &Option<SmallKey>| match c {
        Some(c) => ctx.color(c, &field("color")),
        None => Ok(Color::WHITE),
    };
    let editor_color = |c: &Option<SmallKey>| match c {
        Some(c) => ctx.color(c, &field("color")).map(Some),
        None => Ok(None),
    };
    // Vertices of a bounding box, path or clipping polygon: `vertexCount` of them.
    let counted_vertices = |dto: &mut AttachmentDto| -> Result<VertexData, LoadError> {
        let count = dto.vertex_count.ok_or_else(|| missing("vertexCount"))? as usize;
        let raw = dto.vertices.take().ok_or_else(|| missing("vertices"))?.0;
        vertices(ctx, at, raw, count, bone_count)
    };
    // Taken, not cloned: `foreign_field` (the only other reader of `name`) ran above.
    let name = dto.name.take().unwrap_or_else(|| key.to_string());
    let mut link = None;
    let kind = match kind {
        AttachmentType::Region => {
            let mut r = RegionAttachment {
                path: dto.path.take().unwrap_or_else(|| name.clone()),
                x: dto.x.unwrap_or(0.0),
                y: dto.y.unwrap_or(0.0),
                rotation: dto.rotation.unwrap_or(0.0),
                scale_x: dto.scale_x.unwrap_or(1.0),
                scale_y: dto.scale_y.unwrap_or(1.0),
                width: dto.width.unwrap_or(0.0),
                height: dto.height.unwrap_or(0.0),
                color: tint(&dto.color)?,
                offset: [0.0; 8],
            };
            r.update_offset();
            AttachmentKind::Region(r)
        }
        AttachmentType::Mesh => {
            let uvs = dto.uvs.take().ok_or_else(|| missing("uvs"))?.0;
            if !uvs.len().is_multiple_of(2) {
                return Err(ctx.err(
                    &field("uvs"),
                    format!("uvs must be x, y pairs, not {} values", uvs.len()),
                ));
            }
            let count = uvs.len() / 2;
            let raw = dto.vertices.take().ok_or_else(|| missing("vertices"))?.0;
            let vertices = vertices(ctx, at, raw, count, bone_count)?;
            let triangles = dto.triangles.take().ok_or_else(|| missing("triangles"))?;
            if !triangles.len().is_multiple_of(3) {
                return Err(ctx.err(
                    &field("triangles"),
                    format!(
                        "triangles must be index triples, not {} values",
                        triangles.len()
                    ),
                ));
            }
            indices_below(
                ctx,
                at,
                "triangles",
                &triangles,
                count,
                "vertex index",
                "vertices",
            )?;
            let hull = dto.hull.unwrap_or(0) as usize;
            if hull > count {
                return Err(ctx.err(
                    &field("hull"),
                    format!("hull of {hull} vertices but the mesh has only {count}"),
                ));
            }
            let edges = dto.edges.take().unwrap_or_default();
            if !edges.len().is_multiple_of(2) {
                return Err(ctx.err(
                    &field("edges"),
                    format!("edges must be index pairs, not {} values", edges.len()),
                ));
            }
            // Edges index the x, y float array (2 per vertex).
            indices_below(
                ctx,
                at,
                "edges",
                &edges,
                count * 2,
                "vertex value index",
                "values",
            )?;
            AttachmentKind::Mesh(MeshAttachment {
                path: dto.path.take().unwrap_or_else(|| name.clone()),
                color: tint(&dto.color)?,
                vertices,
                uvs,
                triangles,
                hull,
                edges,
                width: dto.width.unwrap_or(0.0),
                height: dto.height.unwrap_or(0.0),
                linked_parent: None,
            })
        }
        AttachmentType::Linkedmesh => {
            link = Some(LinkTo {
                skin: dto.skin.take(),
                parent: dto
                    .parent
                    .take()
                    .ok_or_else(|| missing(if v43 { "source" } else { "parent" }))?,
                deform: linked_timelines(ctx, at, dto)?,
                slot: dto.slot.take(),
            });
            AttachmentKind::Mesh(MeshAttachment {
                path: dto.path.take().unwrap_or_else(|| name.clone()),
                color: tint(&dto.color)?,
                vertices: VertexData::default(),
                uvs: Vec::new(),
                triangles: Vec::new(),
                hull: 0,
                edges: Vec::new(),
                width: dto.width.unwrap_or(0.0),
                height: dto.height.unwrap_or(0.0),
                linked_parent: None,
            })
        }
        AttachmentType::Boundingbox => AttachmentKind::BoundingBox {
            vertices: counted_vertices(&mut *dto)?,
            color: editor_color(&dto.color)?,
        },
        AttachmentType::Path => {
            let vertices = counted_vertices(&mut *dto)?;
            let closed = dto.closed.unwrap_or(false);
            let count = vertices.vertex_count();
            let min = if closed { 3 } else { 6 };
            if !count.is_multiple_of(3) || count < min {
                return Err(ctx.err(
                    &field("vertexCount"),
                    format!(
                        "a{} path needs a multiple of 3 vertices, at least {min}, not {count}",
                        if closed { " closed" } else { "n open" }
                    ),
                ));
            }
            let lengths = dto.lengths.take().unwrap_or_default().0;
            if lengths.len() != count / 3 {
                return Err(ctx.err(
                    &field("lengths"),
                    format!(
                        "{} lengths for {} curves (vertexCount / 3)",
                        lengths.len(),
                        count / 3
                    ),
                ));
            }
            AttachmentKind::Path(PathAttachment {
                vertices,
                closed,
                constant_speed: dto.constant_speed.unwrap_or(true),
                lengths,
                color: editor_color(&dto.color)?,
            })
        }
        AttachmentType::Point => AttachmentKind::Point(PointAttachment {
            x: dto.x.unwrap_or(0.0),
            y: dto.y.unwrap_or(0.0),
            rotation: dto.rotation.unwrap_or(0.0),
            color: editor_color(&dto.color)?,
        }),
        AttachmentType::Clipping => AttachmentKind::Clipping {
            vertices: counted_vertices(&mut *dto)?,
            end_slot: match &dto.end {
                Some(end) => Some(lookup(ctx, slots, end, "slot", &field("end"))?),
                None => None,
            },
            color: editor_color(&dto.color)?,
        },
    };
    let sequence = match &dto.sequence {
        None => None,
        Some(_) if ctx.version < SpineVersion::V41 => {
            return Err(ctx.err(&field("sequence"), "image sequences are new in Spine 4.1"));
        }
        Some(s) => Some(Sequence {
            count: s.count,
            start: s.start,
            digits: s.digits,
            setup: s.setup,
        }),
    };
    out.push(Attachment {
        name,
        kind,
        deform_source: id,
        sequence,
    });
    Ok(link)
}

/// Whether a linked mesh follows its parent's deform (and sequence) keys: `deform` up to
/// Spine 4.0, `timelines` from 4.1 on.
fn linked_timelines(ctx: Ctx<'_>, at: &At<'_, '_>, dto: &AttachmentDto) -> Result<bool, LoadError> {
    let (key, wrong) = if ctx.version >= SpineVersion::V41 {
        ("deform", dto.deform.is_some())
    } else {
        ("timelines", dto.timelines.is_some())
    };
    if wrong {
        let v = ctx.version.name();
        return Err(ctx.err(
            &at.join(&[Key(key)]),
            format!("\"{key}\" is not a linked mesh key in Spine {v} (4.1 renamed \"deform\" to \"timelines\")"),
        ));
    }
    Ok(dto.deform.or(dto.timelines).unwrap_or(true))
}

/// Vertex data with errors located in the attachment's `vertices`.
fn vertices(
    ctx: Ctx<'_>,
    at: &At<'_, '_>,
    raw: Vec<f32>,
    count: usize,
    bone_count: usize,
) -> Result<VertexData, LoadError> {
    vertex_data(raw, count, bone_count).map_err(|e| {
        let path = match e.index {
            Some(i) => at.join(&[Key("vertices"), Index(i)]),
            None => at.join(&[Key("vertices")]),
        };
        ctx.err(&path, e.message)
    })
}

/// Checks that every value of the index list `field` is below `limit`.
fn indices_below(
    ctx: Ctx<'_>,
    at: &At<'_, '_>,
    field: &'static str,
    list: &[u32],
    limit: usize,
    what: &str,
    unit: &str,
) -> Result<(), LoadError> {
    match list.iter().position(|&v| v as usize >= limit) {
        None => Ok(()),
        Some(j) => Err(ctx.err(
            &at.join(&[Key(field), Index(j)]),
            format!(
                "{what} {} is out of range (the mesh has {limit} {unit})",
                list[j]
            ),
        )),
    }
}
