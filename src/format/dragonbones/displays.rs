//! Skins and their display lists: images, meshes (plain and skinned), bounding boxes and child
//! armatures become core attachments (docs/dragonbones.md §6.5, §6.8).

use super::ctx::{Ctx, join};
use super::dto;
use super::lenient::DisplayType;
use super::transform::{DbTransform, Matrix, flip};
use crate::core::color::Color;
use crate::core::model::{
    ArmatureAttachment, Attachment, AttachmentKind, MeshAttachment, RegionAttachment, SkeletonData,
    Skin, VertexData,
};
use foldhash::{HashMap, HashMapExt};

use crate::core::model::AttachmentId;
use crate::format::ErrorKind;
use crate::format::LoadError;
use crate::format::json::Seg::{self, Index, Key};

/// The space an FFD timeline's offsets for a mesh are written in, kept per mesh attachment so
/// deform keys can be moved into the core's vertex layout.
pub enum DeformSpace {
    /// A plain mesh: offsets are in display space, placed by the display transform.
    Plain(Matrix),
    /// A skinned mesh: offsets go through its bind poses (see [`SkinBinding`]).
    Skinned(SkinBinding),
}

/// Reads every skin, picks the default one (the first, unless one is named "default") and
/// resolves each slot's setup display index to an attachment name. Returns the deform space
/// of every mesh attachment.
pub fn skins(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    arm: &dto::Armature,
    file_to_core: &[usize],
    data: &mut SkeletonData,
) -> Result<HashMap<AttachmentId, DeformSpace>, LoadError> {
    let mut spaces = HashMap::new();
    for (si, skin) in arm.skin.iter().enumerate() {
        let name = match skin.name.as_deref() {
            None | Some("") => "default".to_string(),
            Some(n) => n.to_string(),
        };
        if data.find_skin(&name).is_some() {
            return Err(cx
                .err(
                    &join(at, &[Key("skin"), Index(si), Key("name")]),
                    format!("two skins are named \"{name}\""),
                )
                .with_kind(ErrorKind::DuplicateName));
        }
        let mut out = Skin::new(name);
        // Per (slot, display name) met twice, the last suffix tried: repeated names get
        // `name#2`, `name#3`, ... in time linear in the display count. The keys taken are
        // the skin's own entries.
        let mut next_suffix: HashMap<(usize, String), usize> = HashMap::new();
        for (ssi, ss) in skin.slot.iter().enumerate() {
            let here = join(at, &[Key("skin"), Index(si), Key("slot"), Index(ssi)]);
            let slot_name = ss.name.as_deref().unwrap_or("");
            let slot = data.find_slot(slot_name).ok_or_else(|| {
                cx.err(
                    &join(&here, &[Key("name")]),
                    format!("unknown slot \"{slot_name}\""),
                )
                .with_kind(ErrorKind::DanglingReference)
            })?;
            for (di, d) in ss.display.iter().enumerate() {
                let dat = join(&here, &[Key("display"), Index(di)]);
                let (kind, space) = display(cx, &dat, d, file_to_core)?;
                let base = d.name.as_deref().unwrap_or_default();
                // Display names may repeat within a slot; the skin needs one key each.
                let key = if out.get(slot, base).is_none() {
                    base.to_string()
                } else {
                    let n = next_suffix.entry((slot, base.to_string())).or_insert(1);
                    loop {
                        *n += 1;
                        let key = format!("{base}#{n}");
                        if out.get(slot, &key).is_none() {
                            break key;
                        }
                    }
                };
                let id = data.attachments.len();
                if let Some(space) = space {
                    spaces.insert(id, space);
                }
                data.attachments.push(Attachment {
                    name: key.clone(),
                    kind,
                    deform_source: id,
                    sequence: None,
                });
                out.push_new(slot, key, id);
            }
        }
        data.skins.push(out);
    }
    data.default_skin = match data.find_skin("default") {
        Some(i) => Some(i),
        None => (!data.skins.is_empty()).then_some(0),
    };
    for (i, s) in arm.slot.iter().enumerate() {
        let index = s.display_index.or(0.0);
        data.slots[i].attachment = display_name(data, i, index).map(str::to_string);
    }
    Ok(spaces)
}

/// The name of display `index` of `slot` in the default skin (`None` for -1 or past the end).
pub fn display_name(data: &SkeletonData, slot: usize, index: f64) -> Option<&str> {
    if index < 0.0 {
        return None;
    }
    let skin = &data.skins[data.default_skin?];
    skin.slot_entries(slot)
        .get(index as usize)
        .map(|(name, _)| name.as_str())
}

fn display(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    d: &dto::Display,
    file_to_core: &[usize],
) -> Result<(AttachmentKind, Option<DeformSpace>), LoadError> {
    let t = DbTransform::parse(&d.transform);
    let path: String = d
        .path
        .as_deref()
        .or(d.name.as_deref())
        .unwrap_or_default()
        .to_string();
    let kind = match d.kind {
        DisplayType::Image => {
            // 4.x images are centred on the display origin; their size is in the texture
            // atlas, which skeleton files do not carry, so the region has no extent here.
            let mut r = RegionAttachment {
                path,
                x: t.x,
                y: flip(t.y),
                rotation: t.core_rotation(),
                scale_x: t.scale_x,
                scale_y: t.scale_y,
                width: 0.0,
                height: 0.0,
                color: Color::WHITE,
                offset: [0.0; 8],
            };
            r.update_offset();
            AttachmentKind::Region(r)
        }
        DisplayType::Armature => AttachmentKind::Armature(ArmatureAttachment {
            armature: path,
            x: t.x,
            y: flip(t.y),
            rotation: t.core_rotation(),
            skeleton: None,
        }),
        // A path's vertices outline it; bones following it are not simulated.
        DisplayType::BoundingBox | DisplayType::Path => AttachmentKind::BoundingBox {
            vertices: plain_vertices(cx, at, &d.vertices, &t.matrix())?,
            color: None,
        },
        DisplayType::Mesh => {
            let (mesh, space) = mesh(cx, at, d, &t, path, file_to_core)?;
            return Ok((AttachmentKind::Mesh(mesh), Some(space)));
        }
    };
    Ok((kind, None))
}

/// Display-space x, y pairs placed by the display transform, in core bone space.
fn plain_vertices(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    v: &[f64],
    m: &Matrix,
) -> Result<VertexData, LoadError> {
    if !v.len().is_multiple_of(2) {
        return Err(cx.err(
            &join(at, &[Key("vertices")]),
            "vertices must be x, y pairs (odd count)",
        ));
    }
    let mut out = Vec::with_capacity(v.len());
    for p in v.chunks_exact(2) {
        let (x, y) = m.apply(p[0], p[1]);
        out.push(x as f32);
        out.push(flip(y) as f32);
    }
    Ok(VertexData {
        bones: None,
        world_len: out.len(),
        vertices: out,
    })
}

fn mesh(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    d: &dto::Display,
    t: &DbTransform,
    path: String,
    file_to_core: &[usize],
) -> Result<(MeshAttachment, DeformSpace), LoadError> {
    let n = d.vertices.len() / 2;
    if d.uvs.len() != d.vertices.len() {
        return Err(cx.err(
            &join(at, &[Key("uvs")]),
            format!(
                "{} uv numbers for {} vertex numbers (one u, v pair per vertex)",
                d.uvs.len(),
                d.vertices.len()
            ),
        ));
    }
    if !d.triangles.len().is_multiple_of(3) {
        return Err(cx.err(
            &join(at, &[Key("triangles")]),
            "triangles must come in threes",
        ));
    }
    if let Some(i) = d.triangles.iter().position(|&v| v as usize >= n) {
        return Err(cx.err(
            &join(at, &[Key("triangles"), Index(i)]),
            format!("vertex index {} past the {n} vertices", d.triangles[i]),
        ));
    }
    let (vertices, space) = if let Some(bound) = &d.bound {
        let (v, binding) = prebound(bound, file_to_core);
        (v, DeformSpace::Skinned(binding))
    } else if d.weights.is_empty() {
        let m = t.matrix();
        (
            plain_vertices(cx, at, &d.vertices, &m)?,
            DeformSpace::Plain(m),
        )
    } else {
        let (v, binding) = weighted(cx, at, d, file_to_core)?;
        (v, DeformSpace::Skinned(binding))
    };
    let mesh = MeshAttachment {
        path,
        color: Color::WHITE,
        vertices,
        uvs: d.uvs.iter().map(|&v| v as f32).collect(),
        triangles: d.triangles.clone(),
        hull: 0,
        edges: d.edges.clone(),
        width: d.width.or(0.0),
        height: d.height.or(0.0),
        linked_parent: None,
    };
    Ok((mesh, space))
}

/// A skinned mesh: each vertex moved by the bind slot pose into armature space, then into each
/// influencing bone's bind space (the inverse of its bind pose), then to core y-up. Also
/// returns the binding its deform offsets go through.
fn weighted(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    d: &dto::Display,
    file_to_core: &[usize],
) -> Result<(VertexData, SkinBinding), LoadError> {
    let slot_pose = if d.slot_pose.is_empty() {
        Matrix::IDENTITY
    } else {
        Matrix::from_slice(&d.slot_pose)
            .ok_or_else(|| cx.err(&join(at, &[Key("slotPose")]), "slotPose needs 6 numbers"))?
    };
    let pose_at = |k| join(at, &[Key("bonePose"), Index(k)]);
    if !d.bone_pose.len().is_multiple_of(7) {
        return Err(cx.err(
            &pose_at(0),
            "bonePose must be groups of 7 (bone index, a, b, c, d, tx, ty)",
        ));
    }
    let mut bind: Vec<Option<Matrix>> = vec![None; file_to_core.len()];
    for (k, g) in d.bone_pose.chunks_exact(7).enumerate() {
        let b = bone_index(g[0], file_to_core.len()).ok_or_else(|| {
            cx.err(&pose_at(k * 7), format!("no bone {}", g[0]))
                .with_kind(ErrorKind::DanglingReference)
        })?;
        let inv = Matrix::from_slice(&g[1..])
            .and_then(|m| m.invert())
            .ok_or_else(|| cx.err(&pose_at(k * 7 + 1), "bone pose cannot be inverted"))?;
        bind[b] = Some(inv);
    }
    let n = d.vertices.len() / 2;
    let w = &d.weights;
    let mut bones = Vec::new();
    let mut out = Vec::new();
    let mut influences = Vec::with_capacity(n);
    let mut i = 0;
    for v in 0..n {
        let wat = |k: usize| join(at, &[Key("weights"), Index(k)]);
        let count = *w.get(i).ok_or_else(|| {
            cx.err(
                &wat(i.saturating_sub(1)),
                format!("weights end before vertex {v}"),
            )
        })?;
        // Compared as a float against the pairs left, so an absurd count (2^63) is an
        // error rather than an overflow; `i < w.len()` holds since `w[i]` was read.
        let room = (w.len() - i - 1) / 2;
        if !(0.0..=room as f64).contains(&count) || count.fract() != 0.0 {
            return Err(cx.err(
                &wat(i),
                format!("bad influence count {count} for vertex {v}"),
            ));
        }
        let count = count as usize;
        let (x, y) = slot_pose.apply(d.vertices[v * 2], d.vertices[v * 2 + 1]);
        bones.push(count as u32);
        let mut per = Vec::with_capacity(count);
        for k in 0..count {
            let (bi, weight) = (w[i + 1 + k * 2], w[i + 2 + k * 2]);
            let file = bone_index(bi, file_to_core.len()).ok_or_else(|| {
                cx.err(&wat(i + 1 + k * 2), format!("no bone {bi}"))
                    .with_kind(ErrorKind::DanglingReference)
            })?;
            let inv = bind[file].ok_or_else(|| {
                cx.err(
                    &wat(i + 1 + k * 2),
                    format!("bone {bi} has no bind pose in bonePose"),
                )
            })?;
            let (lx, ly) = inv.apply(x, y);
            bones.push(file_to_core[file] as u32);
            out.extend_from_slice(&[lx as f32, flip(ly) as f32, weight as f32]);
            per.push(inv);
        }
        influences.push(per);
        i += 1 + 2 * count;
    }
    let vertices = VertexData {
        bones: Some(bones),
        vertices: out,
        world_len: n * 2,
    };
    Ok((
        vertices,
        SkinBinding {
            slot_pose,
            influences,
        },
    ))
}

/// A skinned mesh whose vertices are already in bone space (`.dbbin`); its deform binding is
/// the identity (the binary reader checked the bone indices).
fn prebound(bound: &[Vec<dto::Influence>], file_to_core: &[usize]) -> (VertexData, SkinBinding) {
    let mut bones = Vec::new();
    let mut out = Vec::new();
    let mut influences = Vec::with_capacity(bound.len());
    for per in bound {
        bones.push(per.len() as u32);
        for i in per {
            bones.push(file_to_core.get(i.bone).copied().unwrap_or(0) as u32);
            out.extend_from_slice(&[i.x as f32, flip(i.y) as f32, i.weight as f32]);
        }
        influences.push(vec![Matrix::IDENTITY; per.len()]);
    }
    let vertices = VertexData {
        bones: Some(bones),
        vertices: out,
        world_len: bound.len() * 2,
    };
    let binding = SkinBinding {
        slot_pose: Matrix::IDENTITY,
        influences,
    };
    (vertices, binding)
}

fn bone_index(v: f64, n: usize) -> Option<usize> {
    (v >= 0.0 && v.fract() == 0.0 && (v as usize) < n).then_some(v as usize)
}

/// What a skinned mesh's deform offsets go through: per vertex and influence, the display
/// offset (dx, dy) is turned by the bind slot pose and the bone's inverse bind pose (no
/// translation), then flipped to core y-up.
pub struct SkinBinding {
    pub slot_pose: Matrix,
    /// Per vertex, the inverse bind matrix of each influence.
    pub influences: Vec<Vec<Matrix>>,
}

impl SkinBinding {
    /// Turns display offsets (dx, dy per vertex) into per-influence core offsets.
    pub fn offsets(&self, display: &[f64]) -> Vec<f32> {
        let mut out = Vec::new();
        for (v, per) in self.influences.iter().enumerate() {
            let dx = display.get(v * 2).copied().unwrap_or(0.0);
            let dy = display.get(v * 2 + 1).copied().unwrap_or(0.0);
            let (sx, sy) = self.slot_pose.apply_delta(dx, dy);
            for inv in per {
                let (lx, ly) = inv.apply_delta(sx, sy);
                out.push(lx as f32);
                out.push(flip(ly) as f32);
            }
        }
        out
    }

    /// Number of floats [`SkinBinding::offsets`] returns.
    pub fn len(&self) -> usize {
        self.influences.iter().map(|p| p.len() * 2).sum()
    }
}
