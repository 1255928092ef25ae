//! One attachment of a skin, and vertex lists.

use super::read::Reader;
use crate::core::color::Color;
use crate::core::model::*;
use crate::format::spine_binary::cursor::Read;
use crate::format::spine_json::vertices::vertex_data;

/// The skin holding a linked mesh's parent.
pub enum LinkSkin {
    /// The default skin (4.0, 4.1: a null name).
    Default,
    /// A skin by name (4.0, 4.1).
    Named(String),
    /// A skin by its index in the file's skin list, the default skin first (4.2).
    Index(usize),
}

/// A linked mesh's reference to its parent, resolved once every skin is read.
pub struct LinkTo {
    pub skin: LinkSkin,
    pub parent: String,
    pub deform: bool,
    /// 4.3: the slot under which the parent is found (else the linked mesh's own).
    pub slot: Option<usize>,
}

/// Reads the attachment stored under key `key`, to be stored as `id`. A linked mesh comes back
/// with empty geometry and the [`LinkTo`] to resolve.
pub fn attachment(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    key: &str,
    id: AttachmentId,
) -> Read<(Attachment, Option<LinkTo>)> {
    let name = r.string_ref("name")?.unwrap_or(key);
    let at = r.c.offset();
    let kind_byte = r.c.u8("attachment type")?;
    let mut link = None;
    let mut sequence = None;
    let bones = data.bones.len();
    let kind = match kind_byte {
        0 => {
            let path = r.string_ref("path")?.unwrap_or(name).to_string();
            let rotation = r.c.f64("rotation")?;
            let region = region(r, path, rotation, None)?;
            sequence = read_sequence(r)?;
            region
        }
        1 => bounding_box(r, bones, None)?,
        2 => {
            let path = r.string_ref("path")?.unwrap_or(name).to_string();
            let color = r.c.color("color")?;
            let count = r.c.count(8, "vertex count")?;
            let uvs = r.c.f32s(count * 2, "uvs")?;
            let at = r.c.offset();
            let triangles = r.c.u16s("triangles")?;
            if !triangles.len().is_multiple_of(3) {
                return Err(r.c.error_at(
                    at,
                    format!(
                        "triangles must be index triples, not {} values",
                        triangles.len()
                    ),
                ));
            }
            if let Some(t) = triangles.iter().find(|&&t| t as usize >= count) {
                return Err(r.c.error_at(
                    at,
                    format!("vertex index {t} is out of range (the mesh has {count} vertices)"),
                ));
            }
            let vertices = vertices(r, count, bones, None)?;
            let at = r.c.offset();
            let hull = r.c.uvarint("hull length")?;
            if hull > count {
                return Err(r.c.error_at(
                    at,
                    format!("hull of {hull} vertices but the mesh has only {count}"),
                ));
            }
            sequence = read_sequence(r)?;
            let (mut edges, mut width, mut height) = (Vec::new(), 0.0, 0.0);
            if r.nonessential {
                let at = r.c.offset();
                edges = r.c.u16s("edges")?;
                if let Some(e) = edges.iter().find(|&&e| e as usize >= count * 2) {
                    return Err(r.c.error_at(
                        at,
                        format!(
                            "edge index {e} is out of range (the mesh has {} values)",
                            count * 2
                        ),
                    ));
                }
                width = r.c.f64("width")?;
                height = r.c.f64("height")?;
            }
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color,
                vertices,
                uvs,
                triangles,
                hull,
                edges,
                width,
                height,
                linked_parent: None,
            })
        }
        3 => {
            let path = r.string_ref("path")?.unwrap_or(name).to_string();
            let color = r.c.color("color")?;
            let skin = r.string_ref("skin")?.map(str::to_string);
            let at = r.c.offset();
            let parent = r
                .string_ref("parent mesh")?
                .ok_or_else(|| r.c.error_at(at, "parent mesh is missing (null string)"))?
                .to_string();
            let deform = r.c.bool(if r.version.sequences() {
                "inherit timelines flag"
            } else {
                "inherit deform flag"
            })?;
            sequence = read_sequence(r)?;
            link = Some(LinkTo {
                skin: skin.map_or(LinkSkin::Default, LinkSkin::Named),
                parent,
                deform,
                slot: None,
            });
            linked_mesh(r, path, color)?
        }
        4 => {
            let closed = r.c.bool("closed")?;
            let constant_speed = r.c.bool("constant speed")?;
            path(r, bones, closed, constant_speed, None)?
        }
        t => point_or_clipping(r, data, at, t, None)?,
    };
    let attachment = Attachment {
        name: name.to_string(),
        kind,
        deform_source: id,
        sequence,
    };
    Ok((attachment, link))
}

/// A region after its path and rotation: position, scale and size, then the color unless
/// it was read before (4.2).
pub fn region(
    r: &mut Reader<'_>,
    path: String,
    rotation: f64,
    color: Option<Color>,
) -> Read<AttachmentKind> {
    let mut region = RegionAttachment {
        path,
        rotation,
        x: r.c.f64("x")?,
        y: r.c.f64("y")?,
        scale_x: r.c.f64("scaleX")?,
        scale_y: r.c.f64("scaleY")?,
        width: r.c.f64("width")?,
        height: r.c.f64("height")?,
        color: match color {
            Some(c) => c,
            None => r.c.color("color")?,
        },
        offset: [0.0; 8],
    };
    region.update_offset();
    Ok(AttachmentKind::Region(region))
}

/// The last types, alike in every version but for where clipping's weighted flag comes
/// from: 5 point, 6 clipping; any other type (read at `at`) is an error.
pub fn point_or_clipping(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    at: usize,
    t: u8,
    weighted: Option<bool>,
) -> Read<AttachmentKind> {
    match t {
        5 => point(r),
        6 => clipping(r, data, weighted),
        t => Err(r
            .c
            .error_at(at, format!("unknown attachment type {t} (0..6)"))),
    }
}

/// The editor color of a bounding box, path, point or clipping attachment (nonessential).
fn editor_color(r: &mut Reader<'_>) -> Read<Option<Color>> {
    if r.nonessential {
        r.c.color("color").map(Some)
    } else {
        Ok(None)
    }
}

/// A bounding box: its vertices and editor color. `weighted` as in [`vertices`].
pub fn bounding_box(
    r: &mut Reader<'_>,
    bones: usize,
    weighted: Option<bool>,
) -> Read<AttachmentKind> {
    let count = r.c.count(1, "vertex count")?;
    Ok(AttachmentKind::BoundingBox {
        vertices: vertices(r, count, bones, weighted)?,
        color: editor_color(r)?,
    })
}

/// A linked mesh's own fields after its link: width and height (nonessential); the
/// geometry comes from the parent once every skin is read.
pub fn linked_mesh(r: &mut Reader<'_>, path: String, color: Color) -> Read<AttachmentKind> {
    let (mut width, mut height) = (0.0, 0.0);
    if r.nonessential {
        width = r.c.f64("width")?;
        height = r.c.f64("height")?;
    }
    Ok(AttachmentKind::Mesh(MeshAttachment {
        path,
        color,
        vertices: VertexData::default(),
        uvs: Vec::new(),
        triangles: Vec::new(),
        hull: 0,
        edges: Vec::new(),
        width,
        height,
        linked_parent: None,
    }))
}

/// A path after its closed and constant-speed flags: vertices (a multiple of 3), lengths
/// and editor color. `weighted` as in [`vertices`].
pub fn path(
    r: &mut Reader<'_>,
    bones: usize,
    closed: bool,
    constant_speed: bool,
    weighted: Option<bool>,
) -> Read<AttachmentKind> {
    let at = r.c.offset();
    let count = r.c.count(1, "vertex count")?;
    let min = if closed { 3 } else { 6 };
    if !count.is_multiple_of(3) || count < min {
        return Err(r.c.error_at(
            at,
            format!(
                "a{} path needs a multiple of 3 vertices, at least {min}, not {count}",
                if closed { " closed" } else { "n open" }
            ),
        ));
    }
    let vertices = vertices(r, count, bones, weighted)?;
    let lengths = r.c.f32s(count / 3, "lengths")?;
    Ok(AttachmentKind::Path(PathAttachment {
        vertices,
        closed,
        constant_speed,
        lengths,
        color: editor_color(r)?,
    }))
}

/// A point: rotation, position and editor color.
fn point(r: &mut Reader<'_>) -> Read<AttachmentKind> {
    Ok(AttachmentKind::Point(PointAttachment {
        rotation: r.c.f64("rotation")?,
        x: r.c.f64("x")?,
        y: r.c.f64("y")?,
        color: editor_color(r)?,
    }))
}

/// A clipping attachment: end slot, vertices and editor color. `weighted` as in
/// [`vertices`].
fn clipping(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    weighted: Option<bool>,
) -> Read<AttachmentKind> {
    let end = r.c.index(data.slots.len(), "end slot index")?;
    let count = r.c.count(1, "vertex count")?;
    Ok(AttachmentKind::Clipping {
        vertices: vertices(r, count, data.bones.len(), weighted)?,
        end_slot: Some(end),
        color: editor_color(r)?,
    })
}

/// `count` vertices: a weighted flag, then x, y pairs, or per vertex the influence count and
/// per influence the bone index, bind x, bind y and weight. Built through the JSON loader's
/// [`vertex_data`] so both formats check and lay out vertices alike.
/// `weighted`: `None` reads the flag from the file (3.8 to 4.1); 4.2 has it in the
/// attachment's flags.
pub fn vertices(
    r: &mut Reader<'_>,
    count: usize,
    bone_count: usize,
    weighted: Option<bool>,
) -> Read<VertexData> {
    let at = r.c.offset();
    let weighted = match weighted {
        Some(w) => w,
        None => r.c.bool("weighted flag")?,
    };
    if !weighted {
        let raw = r.c.f32s(count.saturating_mul(2), "vertices")?;
        return vertex_data(raw, count, bone_count).map_err(|e| r.c.error_at(at, e.message));
    }
    // Weighted: built in the model's layout directly (per vertex the influence count, then
    // its bone indices; per influence bind x, bind y and weight), without the JSON's flat
    // list in between. At least one byte (the influence count) per vertex.
    r.c.check_fits(at, count, 1, "vertex count")?;
    // 4.3 writes the length of the bone array (influence counts and bone indices) first.
    let bones_len = if r.version.one_constraint_list() {
        Some(r.c.uvarint("bone array length")?)
    } else {
        None
    };
    let (mut bones, mut vertices) = std::mem::take(&mut r.weights_scratch);
    bones.clear();
    vertices.clear();
    for _ in 0..count {
        let n = r.c.count(13, "influence count")?;
        bones.push(n as u32);
        let fast =
            r.c.small_influences(n, bone_count, &mut bones, &mut vertices);
        for _ in fast..n {
            bones.push(r.c.index(bone_count, "bone index")? as u32);
            vertices.extend_from_slice(&r.c.f32_array(["bind x", "bind y", "weight"])?);
        }
    }
    if vertices.is_empty() {
        return Err(r.c.error_at(at, "weighted vertices without influences"));
    }
    if let Some(n) = bones_len.filter(|&n| n != bones.len()) {
        return Err(r.c.error_at(
            at,
            format!(
                "bone array length {n} where the vertices hold {}",
                bones.len()
            ),
        ));
    }
    let data = VertexData {
        bones: Some(bones.to_vec()),
        vertices: vertices.to_vec(),
        world_len: count * 2,
    };
    r.weights_scratch = (bones, vertices);
    Ok(data)
}

/// 4.1+: a sequence flag, then when set the image count, first index, digits and setup
/// index (as varints).
fn read_sequence(r: &mut Reader<'_>) -> Read<Option<Sequence>> {
    if !r.version.sequences() || !r.c.bool("sequence flag")? {
        return Ok(None);
    }
    sequence_fields(r).map(Some)
}

/// A sequence's image count, first index, digits and setup index (as varints).
pub fn sequence_fields(r: &mut Reader<'_>) -> Read<Sequence> {
    let at = r.c.offset();
    let count = r.c.uvarint("sequence count")?;
    let start = r.c.varint(true, "sequence start")?;
    let digits = r.c.uvarint("sequence digits")?;
    let setup = r.c.varint(true, "sequence setup index")?;
    let count = u32::try_from(count)
        .ok()
        .filter(|&c| c > 0)
        .ok_or_else(|| {
            r.c.error_at(at, format!("sequence count {count} out of range"))
        })?;
    let digits = u32::try_from(digits)
        .ok()
        .filter(|&d| d <= 32)
        .ok_or_else(|| {
            r.c.error_at(at, format!("sequence digits {digits} out of range"))
        })?;
    Ok(Sequence {
        count,
        start,
        digits,
        setup,
    })
}
