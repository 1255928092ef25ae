//! The Spine 3.8 JSON document, field for field (setup pose part). Animations: [`super::dto_anim`].
//!
//! Plain serde structs parsed straight from the bytes. Every struct denies unknown fields, so a
//! typo or a field from another Spine version is an error naming its path and line. Defaults
//! are those of the format; cross-references stay names here and are resolved by the builder.

use serde::Deserialize;

use super::dto_anim::AnimationDto;
use crate::format::json::number::opt_numbers;
use crate::format::json::{F32List, OrderedMap, SmallKey};

fn one() -> f64 {
    1.0
}

fn yes() -> bool {
    true
}

/// A whole file; `A` is the animation layout (3.8's or 4.x's).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkeletonFile<A = AnimationDto> {
    pub skeleton: SkeletonInfo,
    #[serde(default)]
    pub bones: Vec<BoneDto>,
    #[serde(default)]
    pub slots: Vec<SlotDto>,
    #[serde(default)]
    pub ik: Vec<IkDto>,
    #[serde(default)]
    pub transform: Vec<TransformDto>,
    #[serde(default)]
    pub path: Vec<PathDto>,
    /// Spine 4.2.
    pub physics: Option<Vec<PhysicsDto>>,
    /// A list (3.8+) or, in 3.7, an object keyed by skin name (see [`SkinDto::keyed`]).
    #[serde(default, deserialize_with = "skins")]
    pub skins: Vec<SkinDto>,
    #[serde(default)]
    pub events: OrderedMap<EventDto>,
    #[serde(
        default = "OrderedMap::default",
        deserialize_with = "roomy_map::<16, _, _>",
        bound(deserialize = "A: Deserialize<'de>")
    )]
    pub animations: OrderedMap<A>,
}

/// An object read as an [`OrderedMap`] with room for `N` members from the start (the fast
/// reader cannot say how many there are, and a map grown from 4 by doubling moved its large
/// entries at each step). The same visitor calls and `expecting` text as `OrderedMap`'s own,
/// so errors read as before.
pub fn roomy_map<'de, const N: usize, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<OrderedMap<T>, D::Error> {
    use serde::de::{MapAccess, Visitor};

    struct V<const N: usize, T>(std::marker::PhantomData<T>);

    impl<'de, const N: usize, T: Deserialize<'de>> Visitor<'de> for V<N, T> {
        type Value = OrderedMap<T>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("an object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<OrderedMap<T>, A::Error> {
            let hint = map.size_hint().unwrap_or(0).min(1024);
            let mut out = Vec::with_capacity(hint.max(N));
            while let Some(entry) = map.next_entry::<SmallKey, T>()? {
                out.push(entry);
            }
            Ok(OrderedMap(out))
        }
    }

    deserializer.deserialize_map(V::<N, T>(std::marker::PhantomData))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkeletonInfo {
    pub hash: Option<String>,
    pub spine: Option<String>,
    #[serde(default)]
    pub x: f64,
    #[serde(default)]
    pub y: f64,
    #[serde(default)]
    pub width: f64,
    #[serde(default)]
    pub height: f64,
    pub fps: Option<f64>,
    pub images: Option<String>,
    pub audio: Option<String>,
    /// Spine 4.2: pixels per physics "meter".
    #[serde(rename = "referenceScale")]
    pub reference_scale: Option<f64>,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "camelCase")]
pub enum InheritDto {
    #[default]
    Normal,
    OnlyTranslation,
    NoRotationOrReflection,
    NoScale,
    NoScaleOrReflection,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BoneDto {
    /// Inline when short: the model copies the name, so a `String` here was a second
    /// allocation per bone.
    pub name: SmallKey,
    pub parent: Option<SmallKey>,
    #[serde(default)]
    pub length: f64,
    /// 3.8 to 4.1 name of the inherit mode.
    pub transform: Option<InheritDto>,
    /// 4.2 name of the inherit mode.
    pub inherit: Option<InheritDto>,
    /// 4.2 editor icon (nonessential; accepted, not used).
    #[serde(rename = "icon")]
    pub _icon: Option<serde::de::IgnoredAny>,
    /// 4.2 editor visibility (nonessential; accepted, not used).
    #[serde(rename = "visible")]
    pub _visible: Option<serde::de::IgnoredAny>,
    /// 4.3 editor icon size and rotation (nonessential; accepted, not used).
    #[serde(rename = "iconSize")]
    pub _icon_size: Option<serde::de::IgnoredAny>,
    #[serde(rename = "iconRotation")]
    pub _icon_rotation: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    pub skin: bool,
    #[serde(default)]
    pub x: f64,
    #[serde(default)]
    pub y: f64,
    #[serde(default)]
    pub rotation: f64,
    #[serde(default = "one")]
    pub scale_x: f64,
    #[serde(default = "one")]
    pub scale_y: f64,
    #[serde(default)]
    pub shear_x: f64,
    #[serde(default)]
    pub shear_y: f64,
    /// Parsed, then dropped: held inline rather than allocated.
    pub color: Option<SmallKey>,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "camelCase")]
pub enum BlendDto {
    #[default]
    Normal,
    Additive,
    Multiply,
    Screen,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SlotDto {
    /// Inline when short, as the bone names.
    pub name: SmallKey,
    pub bone: SmallKey,
    pub color: Option<SmallKey>,
    pub dark: Option<SmallKey>,
    pub attachment: Option<SmallKey>,
    #[serde(default)]
    pub blend: BlendDto,
    /// 4.2 editor visibility (nonessential; accepted, not used).
    #[serde(rename = "visible")]
    pub _visible: Option<serde::de::IgnoredAny>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct IkDto {
    pub name: String,
    #[serde(default)]
    pub order: i32,
    #[serde(default)]
    pub skin: bool,
    pub bones: Vec<SmallKey>,
    pub target: SmallKey,
    #[serde(default = "one")]
    pub mix: f64,
    #[serde(default)]
    pub softness: f64,
    #[serde(default = "yes")]
    pub bend_positive: bool,
    #[serde(default)]
    pub compress: bool,
    #[serde(default)]
    pub stretch: bool,
    #[serde(default)]
    pub uniform: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TransformDto {
    pub name: String,
    #[serde(default)]
    pub order: i32,
    #[serde(default)]
    pub skin: bool,
    pub bones: Vec<SmallKey>,
    pub target: SmallKey,
    #[serde(default)]
    pub rotation: f64,
    #[serde(default)]
    pub x: f64,
    #[serde(default)]
    pub y: f64,
    #[serde(default)]
    pub scale_x: f64,
    #[serde(default)]
    pub scale_y: f64,
    #[serde(default)]
    pub shear_y: f64,
    /// 3.8 mixes.
    pub rotate_mix: Option<f64>,
    pub translate_mix: Option<f64>,
    pub scale_mix: Option<f64>,
    pub shear_mix: Option<f64>,
    /// 4.x mixes.
    pub mix_rotate: Option<f64>,
    pub mix_x: Option<f64>,
    pub mix_y: Option<f64>,
    pub mix_scale_x: Option<f64>,
    pub mix_scale_y: Option<f64>,
    pub mix_shear_y: Option<f64>,
    #[serde(default)]
    pub local: bool,
    #[serde(default)]
    pub relative: bool,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "camelCase")]
pub enum PositionModeDto {
    Fixed,
    #[default]
    Percent,
}

#[derive(Deserialize, Clone, Copy, Default, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum SpacingModeDto {
    #[default]
    Length,
    Fixed,
    Percent,
    /// 4.x.
    Proportional,
}

#[derive(Deserialize, Clone, Copy, Default)]
#[serde(rename_all = "camelCase")]
pub enum RotateModeDto {
    #[default]
    Tangent,
    Chain,
    ChainScale,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PathDto {
    pub name: String,
    #[serde(default)]
    pub order: i32,
    #[serde(default)]
    pub skin: bool,
    pub bones: Vec<SmallKey>,
    pub target: SmallKey,
    #[serde(default)]
    pub position_mode: PositionModeDto,
    #[serde(default)]
    pub spacing_mode: SpacingModeDto,
    #[serde(default)]
    pub rotate_mode: RotateModeDto,
    #[serde(default)]
    pub rotation: f64,
    #[serde(default)]
    pub position: f64,
    #[serde(default)]
    pub spacing: f64,
    /// 3.8 mixes.
    pub rotate_mix: Option<f64>,
    pub translate_mix: Option<f64>,
    /// 4.x mixes.
    pub mix_rotate: Option<f64>,
    pub mix_x: Option<f64>,
    pub mix_y: Option<f64>,
}

/// A Spine 4.2 physics constraint.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PhysicsDto {
    pub name: String,
    #[serde(default)]
    pub order: i32,
    #[serde(default)]
    pub skin: bool,
    pub bone: String,
    #[serde(default)]
    pub x: f64,
    #[serde(default)]
    pub y: f64,
    #[serde(default)]
    pub rotate: f64,
    #[serde(default)]
    pub scale_x: f64,
    #[serde(default)]
    pub shear_x: f64,
    #[serde(default = "limit")]
    pub limit: f64,
    #[serde(default = "sixty")]
    pub fps: f64,
    #[serde(default = "one")]
    pub inertia: f64,
    #[serde(default = "hundred")]
    pub strength: f64,
    #[serde(default = "one")]
    pub damping: f64,
    #[serde(default = "one")]
    pub mass: f64,
    #[serde(default)]
    pub wind: f64,
    #[serde(default)]
    pub gravity: f64,
    #[serde(default = "one")]
    pub mix: f64,
    #[serde(default)]
    pub inertia_global: bool,
    #[serde(default)]
    pub strength_global: bool,
    #[serde(default)]
    pub damping_global: bool,
    #[serde(default)]
    pub mass_global: bool,
    #[serde(default)]
    pub wind_global: bool,
    #[serde(default)]
    pub gravity_global: bool,
    #[serde(default)]
    pub mix_global: bool,
}

fn limit() -> f64 {
    5000.0
}

fn sixty() -> f64 {
    60.0
}

fn hundred() -> f64 {
    100.0
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkinDto {
    pub name: String,
    /// slot name -> attachment key -> attachment.
    #[serde(default)]
    pub attachments: SkinAttachments,
    #[serde(default)]
    pub bones: Vec<String>,
    #[serde(default)]
    pub ik: Vec<String>,
    #[serde(default)]
    pub transform: Vec<String>,
    #[serde(default)]
    pub path: Vec<String>,
    /// 4.2.
    pub physics: Option<Vec<String>>,
    /// 4.3.
    pub slider: Option<Vec<String>>,
    /// Read from the 3.7 form, `"skins": { name: { slot: { key: attachment } } }` (only
    /// attachments; the builder checks that the form matches the version).
    #[serde(skip)]
    pub keyed: bool,
}

/// `skins`: the 3.8+ list of skin objects, or the 3.7 object of skin name -> attachments.
fn skins<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<SkinDto>, D::Error> {
    use serde::de::{MapAccess, SeqAccess, Visitor};

    struct V;

    impl<'de> Visitor<'de> for V {
        type Value = Vec<SkinDto>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of skins (or, in Spine 3.7, an object of skins)")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<SkinDto>, A::Error> {
            let mut out = Vec::new();
            while let Some(skin) = seq.next_element()? {
                out.push(skin);
            }
            Ok(out)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<SkinDto>, A::Error> {
            let mut out = Vec::new();
            while let Some((name, attachments)) = map.next_entry::<String, _>()? {
                out.push(SkinDto {
                    name,
                    attachments,
                    bones: Vec::new(),
                    ik: Vec::new(),
                    transform: Vec::new(),
                    path: Vec::new(),
                    physics: None,
                    slider: None,
                    keyed: true,
                });
            }
            Ok(out)
        }
    }

    deserializer.deserialize_any(V)
}

/// A skin's `attachments` object (slot name -> attachment key -> attachment), read into one
/// list for the whole skin: a map per slot was an allocation per slot (most above glibc's
/// small-block cache, at ~540 bytes an entry) and grew step by step. The list is held in
/// chunks, each twice as large as the last, so that growing never moves what was read
/// (one `Vec` copied ~540 bytes per entry at each doubling). Read through the same visitor
/// calls and `expecting` texts as `OrderedMap<OrderedMap<AttachmentDto>>`, so errors read as
/// before.
#[derive(Default)]
pub struct SkinAttachments {
    /// Each slot's name and how many entries (in order) are its attachments.
    pub slots: OrderedMap<usize>,
    /// Every slot's attachment key and attachment, slot after slot, in chunks.
    pub chunks: Vec<Vec<(SmallKey, AttachmentDto)>>,
}

impl SkinAttachments {
    /// Entries the first chunk has room for.
    const FIRST_CHUNK: usize = 8;

    /// How many attachments the skin has.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    /// Appends an entry: to the last chunk, or to a new one as large as every chunk before
    /// it together when the last is full. Inlined, so that the entry is written into its
    /// chunk from where it was read (as a call it was moved once more).
    #[inline(always)]
    fn push(&mut self, entry: (SmallKey, AttachmentDto)) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < last.capacity() => last.push(entry),
            _ => self.push_new_chunk(entry),
        }
    }

    /// [`Self::push`] when the last chunk is full (or there is none).
    #[inline(never)]
    fn push_new_chunk(&mut self, entry: (SmallKey, AttachmentDto)) {
        let room = self.len().max(Self::FIRST_CHUNK);
        let mut chunk = Vec::with_capacity(room);
        chunk.push(entry);
        self.chunks.push(chunk);
    }
}

impl<'de> Deserialize<'de> for SkinAttachments {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::{DeserializeSeed, MapAccess, Visitor};

        struct Slots;

        impl<'de> Visitor<'de> for Slots {
            type Value = SkinAttachments;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SkinAttachments, A::Error> {
                let mut out = SkinAttachments::default();
                while let Some(slot) = map.next_key::<SmallKey>()? {
                    let count = map.next_value_seed(Entries(&mut out))?;
                    out.slots.0.push((slot, count));
                }
                Ok(out)
            }
        }

        /// One slot's attachments, appended to the skin's list; their count.
        struct Entries<'a>(&'a mut SkinAttachments);

        impl<'de> DeserializeSeed<'de> for Entries<'_> {
            type Value = usize;

            fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
                d.deserialize_map(self)
            }
        }

        impl<'de> Visitor<'de> for Entries<'_> {
            type Value = usize;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<usize, A::Error> {
                let mut count = 0usize;
                while let Some(key) = map.next_key::<SmallKey>()? {
                    let value = map.next_value::<AttachmentDto>()?;
                    self.0.push((key, value));
                    count += 1;
                }
                Ok(count)
            }
        }

        deserializer.deserialize_map(Slots)
    }
}

#[derive(Deserialize, Clone, Copy, Default, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum AttachmentType {
    #[default]
    Region,
    Mesh,
    Linkedmesh,
    Boundingbox,
    Path,
    Point,
    Clipping,
}

/// Every attachment type's fields in one flat struct (the type is just one of the fields, and
/// a flat struct parses without buffering). Which fields a type may use is checked by the
/// builder, so `uvs` on a region is still an error.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AttachmentDto {
    #[serde(rename = "type")]
    pub kind: Option<AttachmentType>,
    pub name: Option<String>,
    pub path: Option<String>,
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub rotation: Option<f64>,
    pub scale_x: Option<f64>,
    pub scale_y: Option<f64>,
    pub width: Option<f64>,
    pub height: Option<f64>,
    /// Parsed, then dropped: held inline rather than allocated.
    pub color: Option<SmallKey>,
    pub uvs: Option<F32List>,
    #[serde(default, deserialize_with = "opt_numbers")]
    pub triangles: Option<Vec<u32>>,
    pub vertices: Option<F32List>,
    pub hull: Option<u32>,
    #[serde(default, deserialize_with = "opt_numbers")]
    pub edges: Option<Vec<u32>>,
    /// Only looked up (like `end` and `slot`): held inline rather than allocated.
    pub skin: Option<SmallKey>,
    pub parent: Option<String>,
    pub deform: Option<bool>,
    pub vertex_count: Option<u32>,
    pub closed: Option<bool>,
    pub constant_speed: Option<bool>,
    pub lengths: Option<F32List>,
    pub end: Option<SmallKey>,
    /// 4.1+: an image sequence.
    pub sequence: Option<SequenceDto>,
    /// 4.1+ name of `deform` on linked meshes.
    pub timelines: Option<bool>,
    /// 4.3 name of a linked mesh's `parent`.
    pub source: Option<String>,
    /// 4.3: the slot under which a linked mesh's source is found.
    pub slot: Option<SmallKey>,
    /// 4.3 clipping flags.
    pub convex: Option<bool>,
    pub inverse: Option<bool>,
}

/// A region's or mesh's image sequence (4.1+).
#[derive(Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct SequenceDto {
    #[serde(default)]
    pub count: u32,
    #[serde(default = "one_i32")]
    pub start: i32,
    #[serde(default)]
    pub digits: u32,
    #[serde(default)]
    pub setup: i32,
}

fn one_i32() -> i32 {
    1
}

/// The JSON names of [`AttachmentDto`]'s fields (other than `type`), in the order a foreign
/// field is looked for ([`AttachmentDto::foreign_field`]); bit `i` of a field mask is
/// `FIELDS[i]`.
const FIELDS: [&str; 29] = [
    "name",
    "path",
    "x",
    "y",
    "rotation",
    "scaleX",
    "scaleY",
    "width",
    "height",
    "color",
    "uvs",
    "triangles",
    "vertices",
    "hull",
    "edges",
    "skin",
    "parent",
    "deform",
    "vertexCount",
    "closed",
    "constantSpeed",
    "lengths",
    "end",
    "sequence",
    "timelines",
    "source",
    "slot",
    "convex",
    "inverse",
];

/// The mask of the field `name` of [`FIELDS`] (0 for another name). A `const fn`, so that
/// each type's mask is computed while compiling.
const fn field_bit(name: &str) -> u32 {
    let mut i = 0;
    while i < FIELDS.len() {
        let (a, b) = (FIELDS[i].as_bytes(), name.as_bytes());
        if a.len() == b.len() {
            let mut j = 0;
            while j < a.len() && a[j] == b[j] {
                j += 1;
            }
            if j == a.len() {
                return 1 << i;
            }
        }
        i += 1;
    }
    0
}

/// The mask of `names` (see [`FIELDS`]).
const fn field_mask(names: &[&str]) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < names.len() {
        mask |= field_bit(names[i]);
        i += 1;
    }
    mask
}

impl AttachmentDto {
    /// The fields present as a mask (see [`FIELDS`]).
    fn present_mask(&self) -> u32 {
        // One shift per field, no array of flags to build and fold (that was half of
        // `foreign_field`, which runs once per attachment).
        let bit = |present: bool, i: u32| u32::from(present) << i;
        bit(self.name.is_some(), 0)
            | bit(self.path.is_some(), 1)
            | bit(self.x.is_some(), 2)
            | bit(self.y.is_some(), 3)
            | bit(self.rotation.is_some(), 4)
            | bit(self.scale_x.is_some(), 5)
            | bit(self.scale_y.is_some(), 6)
            | bit(self.width.is_some(), 7)
            | bit(self.height.is_some(), 8)
            | bit(self.color.is_some(), 9)
            | bit(self.uvs.is_some(), 10)
            | bit(self.triangles.is_some(), 11)
            | bit(self.vertices.is_some(), 12)
            | bit(self.hull.is_some(), 13)
            | bit(self.edges.is_some(), 14)
            | bit(self.skin.is_some(), 15)
            | bit(self.parent.is_some(), 16)
            | bit(self.deform.is_some(), 17)
            | bit(self.vertex_count.is_some(), 18)
            | bit(self.closed.is_some(), 19)
            | bit(self.constant_speed.is_some(), 20)
            | bit(self.lengths.is_some(), 21)
            | bit(self.end.is_some(), 22)
            | bit(self.sequence.is_some(), 23)
            | bit(self.timelines.is_some(), 24)
            | bit(self.source.is_some(), 25)
            | bit(self.slot.is_some(), 26)
            | bit(self.convex.is_some(), 27)
            | bit(self.inverse.is_some(), 28)
    }

    /// The first present field (in [`FIELDS`] order) that attachments of `kind` do not
    /// have; `name` belongs to every type. One mask test per attachment instead of string
    /// comparisons (they were a third of reading a region).
    pub fn foreign_field(&self, kind: AttachmentType) -> Option<&'static str> {
        let foreign = self.present_mask() & !kind.field_mask() & !field_bit("name");
        FIELDS.get(foreign.trailing_zeros() as usize).copied()
    }
}

impl AttachmentType {
    /// The fields of this type as a mask (see [`FIELDS`]), computed while compiling.
    fn field_mask(self) -> u32 {
        const fn of(kind: AttachmentType) -> u32 {
            field_mask(kind.fields())
        }
        const MASKS: [u32; 7] = [
            of(AttachmentType::Region),
            of(AttachmentType::Mesh),
            of(AttachmentType::Linkedmesh),
            of(AttachmentType::Boundingbox),
            of(AttachmentType::Path),
            of(AttachmentType::Point),
            of(AttachmentType::Clipping),
        ];
        MASKS[self as usize]
    }

    /// The fields (besides `type` and `name`) this type uses.
    pub const fn fields(self) -> &'static [&'static str] {
        match self {
            AttachmentType::Region => &[
                "path", "x", "y", "rotation", "scaleX", "scaleY", "width", "height", "color",
                "sequence",
            ],
            AttachmentType::Mesh => &[
                "path",
                "color",
                "uvs",
                "triangles",
                "vertices",
                "hull",
                "edges",
                "width",
                "height",
                "sequence",
            ],
            AttachmentType::Linkedmesh => &[
                "path",
                "color",
                "skin",
                "parent",
                "deform",
                "timelines",
                "source",
                "slot",
                "width",
                "height",
                "sequence",
            ],
            AttachmentType::Boundingbox => &["vertexCount", "vertices", "color"],
            AttachmentType::Path => &[
                "closed",
                "constantSpeed",
                "lengths",
                "vertexCount",
                "vertices",
                "color",
            ],
            AttachmentType::Point => &["x", "y", "rotation", "color"],
            AttachmentType::Clipping => &[
                "end",
                "vertexCount",
                "vertices",
                "color",
                "convex",
                "inverse",
            ],
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AttachmentType::Region => "region",
            AttachmentType::Mesh => "mesh",
            AttachmentType::Linkedmesh => "linkedmesh",
            AttachmentType::Boundingbox => "boundingbox",
            AttachmentType::Path => "path",
            AttachmentType::Point => "point",
            AttachmentType::Clipping => "clipping",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventDto {
    #[serde(default)]
    pub int: i32,
    #[serde(default)]
    pub float: f64,
    pub string: Option<String>,
    pub audio: Option<String>,
    #[serde(default = "one")]
    pub volume: f64,
    #[serde(default)]
    pub balance: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    const KINDS: [AttachmentType; 7] = [
        AttachmentType::Region,
        AttachmentType::Mesh,
        AttachmentType::Linkedmesh,
        AttachmentType::Boundingbox,
        AttachmentType::Path,
        AttachmentType::Point,
        AttachmentType::Clipping,
    ];

    #[test]
    fn field_masks_name_every_field_of_every_type() {
        for kind in KINDS {
            for f in kind.fields() {
                assert_ne!(field_bit(f), 0, "{f}");
            }
            assert_eq!(kind.field_mask(), field_mask(kind.fields()), "{kind:?}");
            assert_eq!(kind.field_mask().count_ones() as usize, kind.fields().len());
        }
    }

    #[test]
    fn the_first_foreign_field_is_found_in_field_order() {
        let region = AttachmentDto {
            name: Some("n".into()),
            path: Some("p".into()),
            x: Some(1.0),
            ..AttachmentDto::default()
        };
        assert_eq!(region.foreign_field(AttachmentType::Region), None);
        assert_eq!(region.foreign_field(AttachmentType::Mesh), Some("x"));
        let odd = AttachmentDto {
            hull: Some(4),
            uvs: Some(F32List(vec![0.0, 1.0])),
            inverse: Some(true),
            ..AttachmentDto::default()
        };
        assert_eq!(odd.foreign_field(AttachmentType::Region), Some("uvs"));
        assert_eq!(odd.foreign_field(AttachmentType::Mesh), Some("inverse"));
        assert_eq!(odd.foreign_field(AttachmentType::Clipping), Some("uvs"));
    }
}
