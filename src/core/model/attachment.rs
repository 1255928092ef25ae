use crate::core::color::Color;

/// Index into `SkeletonData::attachments`. Attachment identity matters (deform keys, slot
/// changes), so attachments are compared by id, never by name.
pub type AttachmentId = usize;

/// Vertex positions, plain or weighted.
///
/// Plain: `vertices` holds x, y pairs in bone space. Weighted: `bones` holds, per vertex, the
/// influence count followed by that many bone indices, and `vertices` holds, per influence,
/// bind x, bind y and weight.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VertexData {
    pub bones: Option<Vec<u32>>,
    pub vertices: Vec<f32>,
    /// Number of floats of world output (2 per vertex).
    pub world_len: usize,
}

impl VertexData {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.world_len / 2
    }

    /// True for weighted vertices.
    pub fn is_weighted(&self) -> bool {
        self.bones.is_some()
    }
}

/// A textured rectangle.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionAttachment {
    pub path: String,
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub scale_x: f64,
    pub scale_y: f64,
    pub width: f64,
    pub height: f64,
    pub color: Color,
    /// Corner offsets in bone space: bottom-left, top-left, top-right, bottom-right.
    pub offset: [f32; 8],
}

impl RegionAttachment {
    /// Computes `offset` from the placement fields (no atlas: the region is exactly
    /// width x height with no whitespace stripped).
    pub fn update_offset(&mut self) {
        let w = self.width * self.scale_x / 2.0;
        let h = self.height * self.scale_y / 2.0;
        let (sin, cos) = (self.rotation * crate::core::math::DEG_RAD).sin_cos();
        let corners = [(-w, -h), (-w, h), (w, h), (w, -h)];
        for (i, (lx, ly)) in corners.into_iter().enumerate() {
            self.offset[i * 2] = (lx * cos - ly * sin + self.x) as f32;
            self.offset[i * 2 + 1] = (lx * sin + ly * cos + self.y) as f32;
        }
    }
}

/// A textured, possibly weighted and deformable mesh (linked meshes are resolved into this).
#[derive(Clone, Debug, PartialEq)]
pub struct MeshAttachment {
    pub path: String,
    pub color: Color,
    pub vertices: VertexData,
    pub uvs: Vec<f32>,
    pub triangles: Vec<u32>,
    /// Number of hull vertices (they come first).
    pub hull: usize,
    pub edges: Vec<u32>,
    pub width: f64,
    pub height: f64,
    /// For a linked mesh: the mesh whose geometry it shares.
    pub linked_parent: Option<AttachmentId>,
}

/// A cubic spline that path constraints follow.
#[derive(Clone, Debug, PartialEq)]
pub struct PathAttachment {
    pub vertices: VertexData,
    pub closed: bool,
    pub constant_speed: bool,
    /// Length from the path start to the end of each curve (setup pose).
    pub lengths: Vec<f32>,
    pub color: Option<Color>,
}

/// A single point with a rotation.
#[derive(Clone, Debug, PartialEq)]
pub struct PointAttachment {
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub color: Option<Color>,
}

/// Another skeleton of the same file shown in a slot (a DragonBones child armature), placed
/// like a point in bone space.
#[derive(Clone, Debug, PartialEq)]
pub struct ArmatureAttachment {
    /// The nested skeleton's name.
    pub armature: String,
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    /// The nested skeleton, when the file has it (resolved at load; `None` for a name the
    /// file does not define, or one that would nest an armature inside itself).
    pub skeleton: Option<std::sync::Arc<super::SkeletonData>>,
}

impl ArmatureAttachment {
    /// Its placement as a point attachment.
    pub fn as_point(&self) -> PointAttachment {
        PointAttachment {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
            color: None,
        }
    }
}

/// What an attachment is.
#[derive(Clone, Debug, PartialEq)]
pub enum AttachmentKind {
    Region(RegionAttachment),
    Mesh(MeshAttachment),
    BoundingBox {
        vertices: VertexData,
        color: Option<Color>,
    },
    Path(PathAttachment),
    Point(PointAttachment),
    Clipping {
        vertices: VertexData,
        end_slot: Option<usize>,
        color: Option<Color>,
    },
    Armature(ArmatureAttachment),
}

/// An image sequence of a region or mesh (Spine 4.1+): `count` images named
/// `path + zero-padded(start + i, digits)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sequence {
    pub count: u32,
    pub start: i32,
    pub digits: u32,
    /// The image shown in the setup pose (a slot's sequence index -1 means this one).
    pub setup: i32,
}

impl Sequence {
    /// The image a slot with sequence index `index` shows (no lower clamp, as the runtimes).
    pub fn resolve(&self, index: i32) -> i32 {
        let k = if index == -1 { self.setup } else { index };
        if k >= self.count as i32 {
            self.count as i32 - 1
        } else {
            k
        }
    }
}

/// An attachment: its actual name, its kind, and whose deform keys drive it.
#[derive(Clone, Debug, PartialEq)]
pub struct Attachment {
    pub name: String,
    pub kind: AttachmentKind,
    /// Deform (and sequence) timelines keyed on this attachment apply to it (itself, or a
    /// linked mesh's parent when the linked mesh inherits its timelines).
    pub deform_source: AttachmentId,
    /// The image sequence of a region or mesh, if it has one.
    pub sequence: Option<Sequence>,
}

impl Attachment {
    /// The vertices of a vertex attachment (mesh, bounding box, path, clipping).
    pub fn vertex_data(&self) -> Option<&VertexData> {
        match &self.kind {
            AttachmentKind::Mesh(m) => Some(&m.vertices),
            AttachmentKind::BoundingBox { vertices, .. }
            | AttachmentKind::Clipping { vertices, .. } => Some(vertices),
            AttachmentKind::Path(p) => Some(&p.vertices),
            AttachmentKind::Region(_) | AttachmentKind::Point(_) | AttachmentKind::Armature(_) => {
                None
            }
        }
    }

    /// The export's type name for this attachment.
    pub fn type_name(&self) -> &'static str {
        match &self.kind {
            AttachmentKind::Region(_) => "region",
            AttachmentKind::Mesh(m) if m.linked_parent.is_some() => "linkedmesh",
            AttachmentKind::Mesh(_) => "mesh",
            AttachmentKind::BoundingBox { .. } => "boundingbox",
            AttachmentKind::Path(_) => "path",
            AttachmentKind::Point(_) => "point",
            AttachmentKind::Armature(_) => "armature",
            AttachmentKind::Clipping { .. } => "clipping",
        }
    }
}
