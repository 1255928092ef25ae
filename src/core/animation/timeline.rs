//! The timeline kinds. One enum, so views and tools can list and inspect timelines without
//! trait objects; adding a kind is adding a variant and its apply function.

use super::{Joint3Channel, JointTimeline, MixBlend, MixDirection};
use crate::core::curve::{Keys, Span};
use crate::core::model::{AttachmentId, Event};
use crate::core::skeleton::Skeleton;

/// Which bone property a bone timeline keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoneProperty {
    /// Channels: angle (degrees, relative to setup).
    Rotate,
    /// Channels: x, y (added to setup).
    Translate,
    /// Channels: x, y (multiplied with setup).
    Scale,
    /// Channels: x, y (added to setup).
    Shear,
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
#[derive(Clone, Debug, PartialEq)]
pub struct AttachmentTimeline {
    pub slot: usize,
    pub times: Vec<f32>,
    pub names: Vec<Option<String>>,
}

/// Slot color keys: channels r, g, b, a (0..1), or r, g, b, a multipliers then r, g, b, a
/// offsets (-1..1) for color transforms with an offset (see `SlotData::offset`).
#[derive(Clone, Debug, PartialEq)]
pub struct ColorTimeline {
    pub slot: usize,
    pub keys: Keys,
}

/// Two-color tint keys: channels r, g, b, a, dark r, dark g, dark b.
#[derive(Clone, Debug, PartialEq)]
pub struct TwoColorTimeline {
    pub slot: usize,
    pub keys: Keys,
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

/// IK constraint keys: channels mix, softness, bend direction, compress, stretch (booleans
/// as 0/1; discrete channels take the previous key).
#[derive(Clone, Debug, PartialEq)]
pub struct IkTimeline {
    pub constraint: usize,
    pub keys: Keys,
}

/// Transform constraint keys: channels rotate, translate, scale, shear mixes.
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
    /// Channels: rotate mix, translate mix.
    Mix,
}

/// Path constraint keys.
#[derive(Clone, Debug, PartialEq)]
pub struct PathTimeline {
    pub constraint: usize,
    pub property: PathProperty,
    pub keys: Keys,
}

/// What a timeline animates. Two timelines with the same id fight over the same property,
/// which is what the animation state's mixing rules are about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PropertyId {
    Rotate(usize),
    Translate(usize),
    Scale(usize),
    Shear(usize),
    Attachment(usize),
    Color(usize),
    TwoColor(usize),
    /// (slot, attachment)
    Deform(usize, usize),
    Event,
    DrawOrder,
    Ik(usize),
    Transform(usize),
    PathPosition(usize),
    PathSpacing(usize),
    PathMix(usize),
    /// (bone, channel group) of a bone's 3D pose.
    Joint3(usize, Joint3Channel),
}

/// Every timeline kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Timeline {
    Bone(BoneTimeline),
    Attachment(AttachmentTimeline),
    Color(ColorTimeline),
    TwoColor(TwoColorTimeline),
    Deform(DeformTimeline),
    Event(EventTimeline),
    DrawOrder(DrawOrderTimeline),
    Ik(IkTimeline),
    Transform(TransformTimeline),
    Path(PathTimeline),
    /// Unity curves of a bone's 3D pose.
    Joint(JointTimeline),
}

impl Timeline {
    /// The property this timeline animates.
    pub fn property_id(&self) -> PropertyId {
        match self {
            Timeline::Bone(t) => match t.property {
                BoneProperty::Rotate => PropertyId::Rotate(t.bone),
                BoneProperty::Translate => PropertyId::Translate(t.bone),
                BoneProperty::Scale => PropertyId::Scale(t.bone),
                BoneProperty::Shear => PropertyId::Shear(t.bone),
            },
            Timeline::Attachment(t) => PropertyId::Attachment(t.slot),
            Timeline::Color(t) => PropertyId::Color(t.slot),
            Timeline::TwoColor(t) => PropertyId::TwoColor(t.slot),
            Timeline::Deform(t) => PropertyId::Deform(t.slot, t.attachment),
            Timeline::Event(_) => PropertyId::Event,
            Timeline::DrawOrder(_) => PropertyId::DrawOrder,
            Timeline::Ik(t) => PropertyId::Ik(t.constraint),
            Timeline::Transform(t) => PropertyId::Transform(t.constraint),
            Timeline::Path(t) => match t.property {
                PathProperty::Position => PropertyId::PathPosition(t.constraint),
                PathProperty::Spacing => PropertyId::PathSpacing(t.constraint),
                PathProperty::Mix => PropertyId::PathMix(t.constraint),
            },
            Timeline::Joint(t) => PropertyId::Joint3(t.bone, t.channel),
        }
    }

    /// Time of the last key.
    pub fn last_time(&self) -> f64 {
        let last = |t: &[f32]| t.last().map_or(0.0, |&v| v as f64);
        match self {
            Timeline::Bone(t) => t.keys.last_time(),
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
        }
    }

    /// Key times, for dopesheets.
    pub fn key_times(&self) -> &[f32] {
        match self {
            Timeline::Bone(t) => &t.keys.times,
            Timeline::Attachment(t) => &t.times,
            Timeline::Color(t) => &t.keys.times,
            Timeline::TwoColor(t) => &t.keys.times,
            Timeline::Deform(t) => &t.keys.times,
            Timeline::Event(t) => &t.times,
            Timeline::DrawOrder(t) => &t.times,
            Timeline::Ik(t) => &t.keys.times,
            Timeline::Transform(t) => &t.keys.times,
            Timeline::Path(t) => &t.keys.times,
            Timeline::Joint(t) => &t.times,
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
        hint: &mut usize,
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

/// The time a timeline is applied at, with the key search hint kept for it.
pub(crate) struct At<'a> {
    pub time: f64,
    pub hint: &'a mut usize,
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
        Span::Between { key, percent } => {
            let p = keys.curve_percent(key, percent);
            for (ch, v) in out.iter_mut().enumerate() {
                *v = keys.between(key, first + ch, p);
            }
        }
        Span::Before => {}
    }
    out
}
