//! The timeline kinds. One enum, so views and tools can list and inspect timelines without
//! trait objects; adding a kind is adding a variant and its apply function.

use super::{Joint3Channel, JointTimeline, MixBlend, MixDirection};
use crate::core::curve::{KeyHint, Keys, Span};
use crate::core::model::{AttachmentId, Event};
use crate::core::skeleton::Skeleton;

/// Which bone property a bone timeline keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoneProperty {
    /// Channels: angle (degrees, relative to setup).
    Rotate,
    /// Channels: x, y (added to setup).
    Translate,
    /// Channel: x alone (Spine 4.x `translatex`).
    TranslateX,
    /// Channel: y alone (Spine 4.x `translatey`).
    TranslateY,
    /// Channels: x, y (multiplied with setup).
    Scale,
    /// Channel: x alone (Spine 4.x `scalex`).
    ScaleX,
    /// Channel: y alone (Spine 4.x `scaley`).
    ScaleY,
    /// Channels: x, y (added to setup).
    Shear,
    /// Channel: x alone (Spine 4.x `shearx`).
    ShearX,
    /// Channel: y alone (Spine 4.x `sheary`).
    ShearY,
}

impl BoneProperty {
    /// The name Spine's JSON gives this timeline.
    pub fn name(self) -> &'static str {
        match self {
            BoneProperty::Rotate => "rotate",
            BoneProperty::Translate => "translate",
            BoneProperty::TranslateX => "translatex",
            BoneProperty::TranslateY => "translatey",
            BoneProperty::Scale => "scale",
            BoneProperty::ScaleX => "scalex",
            BoneProperty::ScaleY => "scaley",
            BoneProperty::Shear => "shear",
            BoneProperty::ShearX => "shearx",
            BoneProperty::ShearY => "sheary",
        }
    }

    /// The names of the channels, in key order.
    pub fn channel_names(self) -> &'static [&'static str] {
        match self {
            BoneProperty::Rotate => &["angle"],
            BoneProperty::Translate | BoneProperty::Scale | BoneProperty::Shear => &["x", "y"],
            BoneProperty::TranslateX | BoneProperty::ScaleX | BoneProperty::ShearX => &["x"],
            BoneProperty::TranslateY | BoneProperty::ScaleY | BoneProperty::ShearY => &["y"],
        }
    }
}

/// Keys on one bone.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneTimeline {
    pub bone: usize,
    pub property: BoneProperty,
    pub keys: Keys,
    /// Rotate keys only: turn the shortest way from key to key (Spine), or exactly as keyed
    /// (DragonBones, whose keys carry their full turns).
    pub shortest: bool,
}

impl BoneTimeline {
    /// The rotation `p` (a value fraction) of the way from rotate key `key` to the next.
    #[inline]
    pub fn rotation_between(&self, key: usize, p: f64) -> f64 {
        let prev = self.keys.value(key, 0);
        let next = self.keys.value(key + 1, 0);
        let diff = if self.shortest {
            crate::core::math::wrap_degrees_38(next - prev)
        } else {
            next - prev
        };
        prev + diff * p
    }
}

/// Attachment changes on a slot: one name (or none) per key.
#[derive(Clone, Debug)]
pub struct AttachmentTimeline {
    pub slot: usize,
    pub times: Vec<f32>,
    pub names: Vec<Option<String>>,
    /// Per key, the attachment its name finds in the default skin: derived by
    /// [`crate::core::model::SkeletonData::finish`] (empty before), so applying a key finds
    /// its attachment without searching the skin by name every frame.
    pub default_ids: Vec<Option<AttachmentId>>,
}

impl PartialEq for AttachmentTimeline {
    /// The keys alone: `default_ids` is derived from them.
    fn eq(&self, other: &AttachmentTimeline) -> bool {
        self.slot == other.slot && self.times == other.times && self.names == other.names
    }
}

impl AttachmentTimeline {
    /// A timeline of `names` keyed at `times` (its derived lookups empty until the skeleton
    /// data is finished).
    pub fn new(slot: usize, times: Vec<f32>, names: Vec<Option<String>>) -> AttachmentTimeline {
        AttachmentTimeline {
            slot,
            times,
            names,
            default_ids: Vec::new(),
        }
    }
}

/// A bone's inherit mode keys (Spine 4.2): one mode per key, no curve.
#[derive(Clone, Debug, PartialEq)]
pub struct InheritTimeline {
    pub bone: usize,
    pub times: Vec<f32>,
    pub modes: Vec<crate::core::model::Inherit>,
}

/// Which light color channels a [`ColorTimeline`] keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorKind {
    /// 3.8 `color` (r, g, b, a as one property; DragonBones adds 4 offset channels).
    Color,
    /// 4.x `rgba`: r, g, b, a (clamped to 0..1).
    Rgba,
    /// 4.x `rgb`: r, g, b (unclamped).
    Rgb,
    /// 4.x `alpha`: a (unclamped).
    Alpha,
}

/// Slot color keys: channels r, g, b, a (0..1), or r, g, b, a multipliers then r, g, b, a
/// offsets (-1..1) for color transforms with an offset (see `SlotData::offset`); 4.x `rgb`
/// has 3 channels, `alpha` 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorTimeline {
    pub slot: usize,
    pub kind: ColorKind,
    pub keys: Keys,
}

/// Which channels a [`TwoColorTimeline`] keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwoColorKind {
    /// 3.8 `twoColor`: r, g, b, a, dark r, g, b as one property.
    TwoColor,
    /// 4.x `rgba2`: r, g, b, a (clamped), dark r, g, b (unclamped).
    Rgba2,
    /// 4.x `rgb2`: r, g, b, dark r, g, b (unclamped).
    Rgb2,
}

/// Two-color tint keys: channels r, g, b, a, dark r, dark g, dark b (`rgb2`: no a).
#[derive(Clone, Debug, PartialEq)]
pub struct TwoColorTimeline {
    pub slot: usize,
    pub kind: TwoColorKind,
    pub keys: Keys,
}

/// How a sequence key advances through the frames of an image sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SequenceMode {
    Hold,
    Once,
    Loop,
    Pingpong,
    OnceReverse,
    LoopReverse,
    PingpongReverse,
}

impl SequenceMode {
    /// Every mode, in the order of the format's names.
    pub const ALL: [SequenceMode; 7] = [
        SequenceMode::Hold,
        SequenceMode::Once,
        SequenceMode::Loop,
        SequenceMode::Pingpong,
        SequenceMode::OnceReverse,
        SequenceMode::LoopReverse,
        SequenceMode::PingpongReverse,
    ];

    /// The name in Spine's JSON.
    pub fn name(self) -> &'static str {
        match self {
            SequenceMode::Hold => "hold",
            SequenceMode::Once => "once",
            SequenceMode::Loop => "loop",
            SequenceMode::Pingpong => "pingpong",
            SequenceMode::OnceReverse => "onceReverse",
            SequenceMode::LoopReverse => "loopReverse",
            SequenceMode::PingpongReverse => "pingpongReverse",
        }
    }
}

/// One key of a [`SequenceTimeline`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SequenceKey {
    pub mode: SequenceMode,
    /// The frame the key starts at.
    pub index: i32,
    /// Seconds per frame (f32, as stored by the runtimes).
    pub delay: f32,
}

/// Image sequence keys for one attachment on one slot (Spine 4.1+).
#[derive(Clone, Debug, PartialEq)]
pub struct SequenceTimeline {
    pub slot: usize,
    pub attachment: AttachmentId,
    pub times: Vec<f32>,
    pub keys: Vec<SequenceKey>,
}

/// A physics constraint parameter a [`PhysicsTimeline`] keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PhysicsProperty {
    Inertia,
    Strength,
    Damping,
    /// Keys are masses; the constraint stores their inverse.
    Mass,
    Wind,
    Gravity,
    Mix,
}

impl PhysicsProperty {
    /// The name in Spine's JSON.
    pub fn name(self) -> &'static str {
        match self {
            PhysicsProperty::Inertia => "inertia",
            PhysicsProperty::Strength => "strength",
            PhysicsProperty::Damping => "damping",
            PhysicsProperty::Mass => "mass",
            PhysicsProperty::Wind => "wind",
            PhysicsProperty::Gravity => "gravity",
            PhysicsProperty::Mix => "mix",
        }
    }
}

/// Keys of one physics parameter of one constraint, or of every constraint that follows the
/// global value of that parameter (`constraint: None`).
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsTimeline {
    pub constraint: Option<usize>,
    pub property: PhysicsProperty,
    pub keys: Keys,
}

/// Times at which a physics constraint (or every one: `None`) resets its simulation.
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsResetTimeline {
    pub constraint: Option<usize>,
    pub times: Vec<f32>,
}

/// Vertex offsets for one vertex attachment on one slot. `keys` has no value channels: the
/// per-key vertex arrays are in `vertices` and the keys carry only times and curves.
///
/// Unweighted attachments: each array holds absolute x, y positions (world_len floats).
/// Weighted attachments: each array holds an x, y offset per bone influence.
#[derive(Clone, Debug, PartialEq)]
pub struct DeformTimeline {
    pub slot: usize,
    pub attachment: AttachmentId,
    pub keys: Keys,
    /// One array per key (see above for its layout).
    pub vertices: Vec<Vec<f32>>,
}

/// Offsets for a DragonBones surface bone's lattice (a 5.6 `surface` timeline): per key, an
/// x, y offset (core y-up) for every lattice vertex, added to the setup lattice. `keys` has
/// no value channels, as for [`DeformTimeline`].
#[derive(Clone, Debug, PartialEq)]
pub struct LatticeTimeline {
    pub bone: usize,
    pub keys: Keys,
    /// One array per key, two numbers per lattice vertex.
    pub vertices: Vec<Vec<f32>>,
}

/// Fires events.
#[derive(Clone, Debug, PartialEq)]
pub struct EventTimeline {
    pub times: Vec<f32>,
    pub events: Vec<Event>,
}

/// Draw order keys: per key, the slot indices in draw order (`None` = setup order).
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOrderTimeline {
    pub times: Vec<f32>,
    pub orders: Vec<Option<Vec<usize>>>,
}

/// Spine 4.3 draw-order folder keys: the order of a subset of slots, kept relative to each
/// other wherever they are in the whole draw order.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOrderFolderTimeline {
    /// The folder's slots (setup order of the folder).
    pub slots: Vec<usize>,
    pub times: Vec<f32>,
    /// Per key: the folder's slots in their keyed order (`None` = the folder's setup order).
    pub orders: Vec<Option<Vec<usize>>>,
}

/// Which slider property a slider timeline keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderProperty {
    Time,
    Mix,
}

/// Spine 4.3 slider keys (one channel, absolute values).
#[derive(Clone, Debug, PartialEq)]
pub struct SliderTimeline {
    pub constraint: usize,
    pub property: SliderProperty,
    pub keys: Keys,
}

/// IK constraint keys: channels mix, softness, bend direction, compress, stretch (booleans
/// as 0/1; discrete channels take the previous key).
#[derive(Clone, Debug, PartialEq)]
pub struct IkTimeline {
    pub constraint: usize,
    pub keys: Keys,
}

/// Transform constraint keys: channels rotate, translate, scale, shear mixes (3.8), or mixRotate,
/// mixX, mixY, mixScaleX, mixScaleY, mixShearY (4.x).
#[derive(Clone, Debug, PartialEq)]
pub struct TransformTimeline {
    pub constraint: usize,
    pub keys: Keys,
}

/// Which path constraint property a path timeline keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathProperty {
    /// Channels: position.
    Position,
    /// Channels: spacing.
    Spacing,
    /// Channels: rotate mix, translate mix (3.8), or mixRotate, mixX, mixY (4.x).
    Mix,
}

/// Path constraint keys.
#[derive(Clone, Debug, PartialEq)]
pub struct PathTimeline {
    pub constraint: usize,
    pub property: PathProperty,
    pub keys: Keys,
}

/// What a timeline animates. Two timelines that share an id fight over the same property,
/// which is what the animation state's mixing rules are about. Spine 4.x timelines may key
/// several (`translate` keys x and y, `rgba2` keys rgb, alpha and rgb2): see
/// [`Timeline::property_ids`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PropertyId {
    Rotate(usize),
    X(usize),
    Y(usize),
    ScaleX(usize),
    ScaleY(usize),
    ShearX(usize),
    ShearY(usize),
    /// A bone's inherit mode (Spine 4.2).
    Inherit(usize),
    Attachment(usize),
    /// 3.8 `color` (one property for all four channels).
    Color(usize),
    /// 3.8 `twoColor`.
    TwoColor(usize),
    /// 4.x light color channels r, g, b.
    Rgb(usize),
    /// 4.x light alpha.
    Alpha(usize),
    /// 4.x dark color.
    Rgb2(usize),
    /// (slot, attachment)
    Deform(usize, usize),
    /// (slot, attachment): an image sequence's frame (Spine 4.1+).
    Sequence(usize, usize),
    Event,
    DrawOrder,
    Ik(usize),
    Transform(usize),
    PathPosition(usize),
    PathSpacing(usize),
    PathMix(usize),
    /// A physics constraint parameter (`None` = the global timeline of that parameter).
    Physics(PhysicsProperty, Option<usize>),
    /// Physics resets (one property for all constraints, as the runtimes have it).
    PhysicsReset,
    /// (bone, channel group) of a bone's 3D pose.
    Joint3(usize, Joint3Channel),
    /// A Spine 4.3 slider's time.
    SliderTime(usize),
    /// A Spine 4.3 slider's mix.
    SliderMix(usize),
    /// A DragonBones surface bone's lattice (bone).
    Lattice(usize),
}

impl PropertyId {
    /// The id as one integer that orders exactly as the derived `Ord` orders ids (bits from the
    /// top of 48: variant 6, first field 21, second field 21), so sorts and searches compare
    /// integers instead of enums. `None` when a field does not fit (never in real files).
    pub(crate) fn order_key(self) -> Option<u64> {
        const FIELD: usize = 1 << 21;
        let (v, a, b) = self.order_parts()?;
        (a < FIELD && b < FIELD).then_some(v << 42 | (a as u64) << 21 | b as u64)
    }

    /// (variant number in declaration order, first field, second field): ordered exactly as
    /// the derived `Ord` orders the ids. `None` when a field does not fit in an integer.
    fn order_parts(self) -> Option<(u64, usize, usize)> {
        use PropertyId as P;
        Some(match self {
            P::Rotate(i) => (0, i, 0),
            P::X(i) => (1, i, 0),
            P::Y(i) => (2, i, 0),
            P::ScaleX(i) => (3, i, 0),
            P::ScaleY(i) => (4, i, 0),
            P::ShearX(i) => (5, i, 0),
            P::ShearY(i) => (6, i, 0),
            P::Inherit(i) => (7, i, 0),
            P::Attachment(i) => (8, i, 0),
            P::Color(i) => (9, i, 0),
            P::TwoColor(i) => (10, i, 0),
            P::Rgb(i) => (11, i, 0),
            P::Alpha(i) => (12, i, 0),
            P::Rgb2(i) => (13, i, 0),
            P::Deform(s, a) => (14, s, a),
            P::Sequence(s, a) => (15, s, a),
            P::Event => (16, 0, 0),
            P::DrawOrder => (17, 0, 0),
            P::Ik(i) => (18, i, 0),
            P::Transform(i) => (19, i, 0),
            P::PathPosition(i) => (20, i, 0),
            P::PathSpacing(i) => (21, i, 0),
            P::PathMix(i) => (22, i, 0),
            // `None` orders before every `Some`.
            P::Physics(p, c) => (23, p as usize, c.map_or(Some(0), |c| c.checked_add(1))?),
            P::PhysicsReset => (24, 0, 0),
            P::Joint3(b, c) => (25, b, c as usize),
            P::SliderTime(i) => (26, i, 0),
            P::SliderMix(i) => (27, i, 0),
            P::Lattice(i) => (28, i, 0),
        })
    }
}

/// Sorts `ids` and removes repeats, as `sort_unstable` then `dedup` do, by sorting one `u64`
/// per id (its `PropertyId::order_key` above its position) instead of comparing enums: a
/// fraction of the cost, paid on every animation of every load. Ids that do not fit the
/// packing (never in real files) take the plain sort.
pub fn sort_unique_ids(ids: &mut Vec<PropertyId>) {
    // The order key in the top 48 bits, the position in the low 16. Filled by a loop into
    // a list of the final size: collecting into an `Option<Vec>` knows no length and grew
    // the list a reallocation at a time.
    let mut keys = Vec::with_capacity(ids.len());
    let packed = ids.len() <= 1 << 16
        && ids.iter().enumerate().all(|(i, id)| match id.order_key() {
            Some(k) => {
                keys.push(k << 16 | i as u64);
                true
            }
            None => false,
        });
    if !packed {
        ids.sort_unstable();
        ids.dedup();
        return;
    }
    keys.sort_unstable();
    let mut out = Vec::with_capacity(keys.len());
    let mut last = None;
    for k in keys {
        if last != Some(k >> 16) {
            last = Some(k >> 16);
            out.push(ids[(k & 0xffff) as usize]);
        }
    }
    *ids = out;
}

/// The properties one timeline keys: one to three [`PropertyId`]s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PropertyIds {
    ids: [PropertyId; 3],
    len: u8,
}

impl PropertyIds {
    fn one(id: PropertyId) -> PropertyIds {
        PropertyIds {
            ids: [id; 3],
            len: 1,
        }
    }

    fn two(a: PropertyId, b: PropertyId) -> PropertyIds {
        PropertyIds {
            ids: [a, b, b],
            len: 2,
        }
    }

    fn three(a: PropertyId, b: PropertyId, c: PropertyId) -> PropertyIds {
        PropertyIds {
            ids: [a, b, c],
            len: 3,
        }
    }

    /// The ids as a slice.
    pub fn as_slice(&self) -> &[PropertyId] {
        &self.ids[..self.len as usize]
    }
}

/// Every timeline kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Timeline {
    Bone(BoneTimeline),
    Inherit(InheritTimeline),
    Attachment(AttachmentTimeline),
    Color(ColorTimeline),
    TwoColor(TwoColorTimeline),
    Deform(DeformTimeline),
    Sequence(SequenceTimeline),
    Event(EventTimeline),
    DrawOrder(DrawOrderTimeline),
    Ik(IkTimeline),
    Transform(TransformTimeline),
    Path(PathTimeline),
    Physics(PhysicsTimeline),
    PhysicsReset(PhysicsResetTimeline),
    /// Spine 4.3.
    Slider(SliderTimeline),
    /// Spine 4.3.
    DrawOrderFolder(DrawOrderFolderTimeline),
    /// Unity curves of a bone's 3D pose.
    Joint(JointTimeline),
    /// A DragonBones surface bone's lattice offsets.
    Lattice(LatticeTimeline),
}

impl Timeline {
    /// The bone whose local pose this timeline keys, if any.
    pub fn bone(&self) -> Option<usize> {
        match self {
            Timeline::Bone(t) => Some(t.bone),
            Timeline::Inherit(t) => Some(t.bone),
            _ => None,
        }
    }

    /// The properties this timeline animates.
    pub fn property_ids(&self) -> PropertyIds {
        use PropertyId as P;
        let one = PropertyIds::one;
        match self {
            Timeline::Bone(t) => {
                let b = t.bone;
                match t.property {
                    BoneProperty::Rotate => one(P::Rotate(b)),
                    BoneProperty::Translate => PropertyIds::two(P::X(b), P::Y(b)),
                    BoneProperty::TranslateX => one(P::X(b)),
                    BoneProperty::TranslateY => one(P::Y(b)),
                    BoneProperty::Scale => PropertyIds::two(P::ScaleX(b), P::ScaleY(b)),
                    BoneProperty::ScaleX => one(P::ScaleX(b)),
                    BoneProperty::ScaleY => one(P::ScaleY(b)),
                    BoneProperty::Shear => PropertyIds::two(P::ShearX(b), P::ShearY(b)),
                    BoneProperty::ShearX => one(P::ShearX(b)),
                    BoneProperty::ShearY => one(P::ShearY(b)),
                }
            }
            Timeline::Inherit(t) => one(P::Inherit(t.bone)),
            Timeline::Attachment(t) => one(P::Attachment(t.slot)),
            Timeline::Color(t) => {
                let s = t.slot;
                match t.kind {
                    ColorKind::Color => one(P::Color(s)),
                    ColorKind::Rgba => PropertyIds::two(P::Rgb(s), P::Alpha(s)),
                    ColorKind::Rgb => one(P::Rgb(s)),
                    ColorKind::Alpha => one(P::Alpha(s)),
                }
            }
            Timeline::TwoColor(t) => {
                let s = t.slot;
                match t.kind {
                    TwoColorKind::TwoColor => one(P::TwoColor(s)),
                    TwoColorKind::Rgba2 => PropertyIds::three(P::Rgb(s), P::Alpha(s), P::Rgb2(s)),
                    TwoColorKind::Rgb2 => PropertyIds::two(P::Rgb(s), P::Rgb2(s)),
                }
            }
            Timeline::Deform(t) => one(P::Deform(t.slot, t.attachment)),
            Timeline::Sequence(t) => one(P::Sequence(t.slot, t.attachment)),
            Timeline::Event(_) => one(P::Event),
            Timeline::DrawOrder(_) => one(P::DrawOrder),
            Timeline::Ik(t) => one(P::Ik(t.constraint)),
            Timeline::Transform(t) => one(P::Transform(t.constraint)),
            Timeline::Path(t) => match t.property {
                PathProperty::Position => one(P::PathPosition(t.constraint)),
                PathProperty::Spacing => one(P::PathSpacing(t.constraint)),
                PathProperty::Mix => one(P::PathMix(t.constraint)),
            },
            Timeline::Physics(t) => one(P::Physics(t.property, t.constraint)),
            Timeline::PhysicsReset(_) => one(P::PhysicsReset),
            Timeline::Slider(t) => match t.property {
                SliderProperty::Time => one(P::SliderTime(t.constraint)),
                SliderProperty::Mix => one(P::SliderMix(t.constraint)),
            },
            Timeline::DrawOrderFolder(_) => one(P::DrawOrder),
            Timeline::Joint(t) => one(P::Joint3(t.bone, t.channel)),
            Timeline::Lattice(t) => one(P::Lattice(t.bone)),
        }
    }

    /// Time of the last key.
    pub fn last_time(&self) -> f64 {
        let last = |t: &[f32]| t.last().map_or(0.0, |&v| v as f64);
        match self {
            Timeline::Bone(t) => t.keys.last_time(),
            Timeline::Inherit(t) => last(&t.times),
            Timeline::Sequence(t) => last(&t.times),
            Timeline::Physics(t) => t.keys.last_time(),
            Timeline::PhysicsReset(t) => last(&t.times),
            Timeline::Slider(t) => t.keys.last_time(),
            Timeline::DrawOrderFolder(t) => last(&t.times),
            Timeline::Attachment(t) => last(&t.times),
            Timeline::Color(t) => t.keys.last_time(),
            Timeline::TwoColor(t) => t.keys.last_time(),
            Timeline::Deform(t) => t.keys.last_time(),
            Timeline::Event(t) => last(&t.times),
            Timeline::DrawOrder(t) => last(&t.times),
            Timeline::Ik(t) => t.keys.last_time(),
            Timeline::Transform(t) => t.keys.last_time(),
            Timeline::Path(t) => t.keys.last_time(),
            Timeline::Joint(t) => last(&t.times),
            Timeline::Lattice(t) => t.keys.last_time(),
        }
    }

    /// Key times, for dopesheets.
    pub fn key_times(&self) -> &[f32] {
        match self {
            Timeline::Bone(t) => t.keys.times(),
            Timeline::Inherit(t) => &t.times,
            Timeline::Sequence(t) => &t.times,
            Timeline::Physics(t) => t.keys.times(),
            Timeline::PhysicsReset(t) => &t.times,
            Timeline::Slider(t) => t.keys.times(),
            Timeline::DrawOrderFolder(t) => &t.times,
            Timeline::Attachment(t) => &t.times,
            Timeline::Color(t) => t.keys.times(),
            Timeline::TwoColor(t) => t.keys.times(),
            Timeline::Deform(t) => t.keys.times(),
            Timeline::Event(t) => &t.times,
            Timeline::DrawOrder(t) => &t.times,
            Timeline::Ik(t) => t.keys.times(),
            Timeline::Transform(t) => t.keys.times(),
            Timeline::Path(t) => t.keys.times(),
            Timeline::Joint(t) => &t.times,
            Timeline::Lattice(t) => t.keys.times(),
        }
    }

    /// Applies this timeline to `skeleton` (see [`super::Animation::apply`]).
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &self,
        skeleton: &mut Skeleton,
        last_time: f64,
        time: f64,
        events: Option<&mut Vec<Event>>,
        alpha: f64,
        blend: MixBlend,
        direction: MixDirection,
    ) {
        let mut hint = 0;
        self.apply_hinted(
            skeleton, last_time, time, events, alpha, blend, direction, &mut hint,
        );
    }

    /// [`Timeline::apply`] with a key search hint (see [`Keys::locate_from`]) that the caller
    /// keeps for this timeline from one apply to the next.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn apply_hinted(
        &self,
        skeleton: &mut Skeleton,
        last_time: f64,
        time: f64,
        events: Option<&mut Vec<Event>>,
        alpha: f64,
        blend: MixBlend,
        direction: MixDirection,
        hint: &mut KeyHint,
    ) {
        // Bone timelines are most timelines: they go straight to their function, the other
        // kinds through one that is kept out of line (inlined, the rarer kinds' code would
        // make every call save and restore registers only they need).
        let at = At { time, hint };
        match self {
            Timeline::Bone(t) => super::apply_bone::apply(t, skeleton, at, alpha, blend, direction),
            _ => self.apply_other(skeleton, last_time, at, events, alpha, blend, direction),
        }
    }

    /// [`Timeline::apply_hinted`] for every kind but bone timelines.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn apply_other(
        &self,
        skeleton: &mut Skeleton,
        last_time: f64,
        at: At<'_>,
        events: Option<&mut Vec<Event>>,
        alpha: f64,
        blend: MixBlend,
        direction: MixDirection,
    ) {
        let time = at.time;
        match self {
            Timeline::Bone(t) => super::apply_bone::apply(t, skeleton, at, alpha, blend, direction),
            Timeline::Inherit(t) => {
                super::apply_bone::apply_inherit(t, skeleton, time, blend, direction)
            }
            Timeline::Sequence(t) => {
                super::apply_slot::apply_sequence(t, skeleton, time, blend, direction)
            }
            Timeline::Physics(t) => {
                super::apply_constraint::apply_physics(t, skeleton, at, alpha, blend)
            }
            Timeline::PhysicsReset(t) => {
                super::apply_constraint::apply_physics_reset(t, skeleton, last_time, time)
            }
            Timeline::Slider(t) => super::apply_slider::apply(t, skeleton, at, alpha, blend),
            Timeline::DrawOrderFolder(t) => {
                super::apply_slider::apply_draw_order_folder(t, skeleton, time, blend, direction)
            }
            Timeline::Attachment(t) => {
                super::apply_slot::apply_attachment(t, skeleton, time, blend, direction)
            }
            Timeline::Color(t) => super::apply_slot::apply_color(t, skeleton, at, alpha, blend),
            Timeline::TwoColor(t) => {
                super::apply_slot::apply_two_color(t, skeleton, at, alpha, blend)
            }
            Timeline::Deform(t) => super::apply_slot::apply_deform(t, skeleton, at, alpha, blend),
            Timeline::Event(t) => {
                if let Some(events) = events {
                    t.fire(last_time, time, events);
                }
            }
            Timeline::DrawOrder(t) => {
                super::apply_slot::apply_draw_order(t, skeleton, time, blend, direction)
            }
            Timeline::Ik(t) => {
                super::apply_constraint::apply_ik(t, skeleton, at, alpha, blend, direction)
            }
            Timeline::Transform(t) => {
                super::apply_constraint::apply_transform(t, skeleton, at, alpha, blend)
            }
            Timeline::Path(t) => super::apply_constraint::apply_path(t, skeleton, at, alpha, blend),
            Timeline::Joint(t) => super::apply_joint::apply(t, skeleton, time, alpha, blend),
            Timeline::Lattice(t) => super::apply_lattice::apply(t, skeleton, at, alpha, blend),
        }
    }
}

impl EventTimeline {
    /// Appends the events keyed in (`last_time`, `time`]; when the window wraps
    /// (`last_time > time`) fires the tail up to the end first, then from the start.
    pub fn fire(&self, last_time: f64, time: f64, out: &mut Vec<Event>) {
        // A NaN bound selects nothing; an infinite one is an ordinary (empty or full) window.
        if last_time.is_nan() || time.is_nan() {
            return;
        }
        if last_time > time {
            self.fire_window(last_time, f64::INFINITY, out);
            self.fire_window(-1.0, time, out);
        } else {
            self.fire_window(last_time, time, out);
        }
    }

    /// Spine 4.3 reversed entries: appends the events passed going back from `from` to `to`
    /// (mirrored times): keys in [`to`, `from`), or when wrapped those before `from`, then
    /// those at or after `to`; in key order.
    pub fn fire_reversed(&self, from: f64, to: f64, out: &mut Vec<Event>) {
        if from.is_nan() || to.is_nan() {
            return;
        }
        let keyed = self.times.iter().zip(&self.events);
        if from >= to {
            out.extend(
                keyed
                    .filter(|(t, _)| to <= **t as f64 && (**t as f64) < from)
                    .map(|(_, e)| e.clone()),
            );
        } else {
            let all: Vec<_> = keyed.collect();
            out.extend(
                all.iter()
                    .filter(|(t, _)| (**t as f64) < from)
                    .map(|(_, e)| (*e).clone()),
            );
            out.extend(
                all.iter()
                    .filter(|(t, _)| (**t as f64) >= to)
                    .map(|(_, e)| (*e).clone()),
            );
        }
    }

    /// Appends the events keyed in (`after`, `upto`].
    fn fire_window(&self, after: f64, upto: f64, out: &mut Vec<Event>) {
        let n = self.times.len();
        if n == 0 || after >= self.times[n - 1] as f64 || upto < self.times[0] as f64 {
            return;
        }
        // Keys strictly after `after` (all of them on the first apply, after = -1).
        let start = self.times.partition_point(|&t| (t as f64) <= after);
        for i in start..n {
            if self.times[i] as f64 > upto {
                break;
            }
            out.push(self.events[i].clone());
        }
    }
}

/// Locates `time` in a bare list of key times (discrete timelines): the index of the last key
/// at or before `time`, or `None` before the first key.
pub fn discrete_key(times: &[f32], time: f64) -> Option<usize> {
    // No key at or before `time` (or a NaN time, or NaN key times) is `None`, never key
    // `usize::MAX`.
    if time.is_nan() {
        return None;
    }
    times
        .partition_point(|&t| (t as f64) <= time)
        .checked_sub(1)
}

/// [`discrete_key`] starting from the key found last time (`hint`, updated): a timeline
/// applied frame after frame mostly stays on its key, found with two comparisons instead of
/// a search. The hinted key is taken only when it is the one the search finds (at or before
/// `time`, the next key after it).
#[inline]
pub(crate) fn discrete_key_from(times: &[f32], time: f64, hint: &mut KeyHint) -> Option<usize> {
    let k = *hint;
    if let Some(&t) = times.get(k)
        && (t as f64) <= time
        && times
            .get(k.wrapping_add(1))
            .is_none_or(|&n| time < n as f64)
    {
        return Some(k);
    }
    let key = discrete_key(times, time);
    if let Some(k) = key {
        *hint = k;
    }
    key
}

/// The time a timeline is applied at, with the key search hint kept for it.
pub(crate) struct At<'a> {
    pub time: f64,
    pub hint: &'a mut KeyHint,
}

/// Where `at.time` falls among `keys` (updating the hint).
#[inline]
pub(crate) fn span(keys: &Keys, at: At<'_>) -> Span {
    keys.locate_from(at.time, at.hint)
}

/// Channel values of `keys` at a span that is not `Before` (the curve evaluated once).
pub(crate) fn channels<const N: usize>(keys: &Keys, sp: Span) -> [f64; N] {
    channels_from(keys, sp, 0)
}

/// Channels `first..first + N` of `keys` at a span that is not `Before`.
pub(crate) fn channels_from<const N: usize>(keys: &Keys, sp: Span, first: usize) -> [f64; N] {
    let mut out = [0.0; N];
    match sp {
        Span::Last(i) => {
            for (ch, v) in out.iter_mut().enumerate() {
                *v = keys.value(i, first + ch);
            }
        }
        Span::Between { key, percent, time } => {
            out = keys.span_values::<N>(
                key,
                first,
                time,
                (keys.time(key), keys.time(key + 1)),
                percent,
            );
        }
        Span::Before => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{discrete_key, discrete_key_from};

    /// From any hint, the hinted search finds what the search finds, and leaves the hint on it.
    #[test]
    fn hinted_discrete_keys_match_the_search() {
        let times = [0.0f32, 0.5, 0.5, 1.0, 2.0];
        for time in [-1.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 9.0, f64::NAN] {
            for start in [0, 1, 2, 3, 4, 7, usize::MAX] {
                let mut hint = start;
                let key = discrete_key_from(&times, time, &mut hint);
                assert_eq!(key, discrete_key(&times, time), "time {time}, hint {start}");
                if let Some(k) = key {
                    assert_eq!(hint, k);
                }
            }
        }
        assert_eq!(discrete_key_from(&[], 1.0, &mut 0), None);
    }
}
