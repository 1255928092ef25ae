//! Describing timelines for people and scripts: what a timeline animates, its channels, and
//! their keyed values at any time (evaluated with the exact curves the runtime uses).
//! Terminal-free; the TUI's dopesheet and curves views and the `curves` command use it.

use crate::core::animation::{Animation, BoneProperty, PathProperty, Timeline};
use crate::core::curve::{Keys, Span as KeySpan};
use crate::core::math::wrap_degrees_38 as wrap;
use crate::core::model::SkeletonData;

/// What a timeline targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Bone(usize),
    Slot(usize),
    Ik(usize),
    Transform(usize),
    Path(usize),
    Events,
    DrawOrder,
}

/// A timeline, described.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineInfo {
    /// Index in the animation's timelines.
    pub index: usize,
    pub target: Target,
    /// Name of the target (unsanitized; sanitize before showing).
    pub target_name: String,
    /// What is keyed, e.g. "rotate", "translate", "attachment", "deform".
    pub property: &'static str,
    /// Names of the continuous channels that can be plotted (may be empty).
    pub channels: Vec<&'static str>,
}

impl TimelineInfo {
    /// "kind name.property", e.g. "bone hip.rotate".
    pub fn label(&self) -> String {
        let kind = match self.target {
            Target::Bone(_) => "bone",
            Target::Slot(_) => "slot",
            Target::Ik(_) => "ik",
            Target::Transform(_) => "transform",
            Target::Path(_) => "path",
            Target::Events => "events",
            Target::DrawOrder => "draw order",
        };
        match self.target {
            Target::Events | Target::DrawOrder => kind.to_string(),
            _ => format!("{kind} {}.{}", self.target_name, self.property),
        }
    }

    /// A dotted path for scripts, e.g. "bone.hip.rotate.angle" (with `channel`).
    pub fn path(&self, channel: &str) -> String {
        let kind = match self.target {
            Target::Bone(_) => "bone",
            Target::Slot(_) => "slot",
            Target::Ik(_) => "ik",
            Target::Transform(_) => "transform",
            Target::Path(_) => "path",
            Target::Events => "events",
            Target::DrawOrder => "drawOrder",
        };
        match self.target {
            Target::Events | Target::DrawOrder => format!("{kind}.{channel}"),
            _ => format!("{kind}.{}.{}.{channel}", self.target_name, self.property),
        }
    }
}

/// Describes every timeline of `anim`, in order.
pub fn describe(data: &SkeletonData, anim: &Animation) -> Vec<TimelineInfo> {
    anim.timelines
        .iter()
        .enumerate()
        .map(|(index, t)| describe_one(data, index, t))
        .collect()
}

fn describe_one(data: &SkeletonData, index: usize, t: &Timeline) -> TimelineInfo {
    let bone = |i: usize| {
        data.bones
            .get(i)
            .map_or_else(String::new, |b| b.name.clone())
    };
    let slot = |i: usize| {
        data.slots
            .get(i)
            .map_or_else(String::new, |s| s.name.clone())
    };
    let (target, target_name, property, channels): (
        Target,
        String,
        &'static str,
        Vec<&'static str>,
    ) = match t {
        Timeline::Bone(b) => {
            let (p, ch): (&'static str, Vec<&'static str>) = match b.property {
                BoneProperty::Rotate => ("rotate", vec!["angle"]),
                BoneProperty::Translate => ("translate", vec!["x", "y"]),
                BoneProperty::Scale => ("scale", vec!["x", "y"]),
                BoneProperty::Shear => ("shear", vec!["x", "y"]),
            };
            (Target::Bone(b.bone), bone(b.bone), p, ch)
        }
        Timeline::Attachment(a) => (Target::Slot(a.slot), slot(a.slot), "attachment", vec![]),
        Timeline::Color(c) => (
            Target::Slot(c.slot),
            slot(c.slot),
            "color",
            vec!["r", "g", "b", "a"],
        ),
        Timeline::TwoColor(c) => (
            Target::Slot(c.slot),
            slot(c.slot),
            "twoColor",
            vec!["r", "g", "b", "a", "dark.r", "dark.g", "dark.b"],
        ),
        Timeline::Deform(d) => (Target::Slot(d.slot), slot(d.slot), "deform", vec![]),
        Timeline::Event(_) => (Target::Events, String::new(), "events", vec![]),
        Timeline::DrawOrder(_) => (Target::DrawOrder, String::new(), "drawOrder", vec![]),
        Timeline::Ik(k) => (
            Target::Ik(k.constraint),
            data.ik_constraints
                .get(k.constraint)
                .map_or_else(String::new, |c| c.name.clone()),
            "ik",
            vec!["mix", "softness", "bend", "compress", "stretch"],
        ),
        Timeline::Transform(k) => (
            Target::Transform(k.constraint),
            data.transform_constraints
                .get(k.constraint)
                .map_or_else(String::new, |c| c.name.clone()),
            "transform",
            vec!["rotateMix", "translateMix", "scaleMix", "shearMix"],
        ),
        Timeline::Path(k) => {
            let (p, ch): (&'static str, Vec<&'static str>) = match k.property {
                PathProperty::Position => ("position", vec!["position"]),
                PathProperty::Spacing => ("spacing", vec!["spacing"]),
                PathProperty::Mix => ("mix", vec!["rotateMix", "translateMix"]),
            };
            (
                Target::Path(k.constraint),
                data.path_constraints
                    .get(k.constraint)
                    .map_or_else(String::new, |c| c.name.clone()),
                p,
                ch,
            )
        }
    };
    TimelineInfo {
        index,
        target,
        target_name,
        property,
        channels,
    }
}

/// The keys of a timeline with plottable channels.
pub fn keys_of(t: &Timeline) -> Option<&Keys> {
    match t {
        Timeline::Bone(b) => Some(&b.keys),
        Timeline::Color(c) => Some(&c.keys),
        Timeline::TwoColor(c) => Some(&c.keys),
        Timeline::Ik(k) => Some(&k.keys),
        Timeline::Transform(k) => Some(&k.keys),
        Timeline::Path(k) => Some(&k.keys),
        Timeline::Attachment(_)
        | Timeline::Deform(_)
        | Timeline::Event(_)
        | Timeline::DrawOrder(_) => None,
    }
}

/// The keyed value of `channel` at `time` (held before the first and after the last key),
/// exactly as the runtime evaluates it (see [`Curve`]); `None` for channels that are not
/// plottable.
pub fn channel_value(t: &Timeline, channel: usize, time: f64) -> Option<f64> {
    Curve::new(t)?.value(channel, time)
}

/// A plottable timeline evaluated the way the runtime applies it: bezier and stepped spans
/// through [`Keys::curve_percent`], rotations the shortest way between keys (Spine 3.8 wraps
/// each key-to-key difference to ±180°; the plot unwraps so the line stays continuous and
/// keys sit at their value plus whole turns), and discrete IK channels (bend, compress,
/// stretch) held at the previous key.
#[derive(Debug)]
pub struct Curve<'a> {
    timeline: &'a Timeline,
    keys: &'a Keys,
    /// Per key: whole turns (degrees) added to the stored value to keep rotations continuous.
    turns: Vec<f64>,
}

impl<'a> Curve<'a> {
    /// The curve of a timeline with value channels; `None` for the others.
    pub fn new(timeline: &'a Timeline) -> Option<Curve<'a>> {
        let keys = keys_of(timeline)?;
        if keys.channels == 0 {
            return None;
        }
        let mut turns = vec![0.0; keys.len()];
        if is_rotate(timeline) {
            for k in 1..keys.len() {
                let (a, b) = (keys.value(k - 1, 0), keys.value(k, 0));
                // Where the runtime arrives at key k, less the stored value: whole turns.
                let arrive = a + turns[k - 1] + wrap(b - a);
                turns[k] = arrive - b;
            }
        }
        Some(Curve {
            timeline,
            keys,
            turns,
        })
    }

    /// The timeline.
    pub fn timeline(&self) -> &'a Timeline {
        self.timeline
    }

    /// The keys.
    pub fn keys(&self) -> &'a Keys {
        self.keys
    }

    /// The plotted value of key `k`'s `channel` (its stored value plus whole turns).
    pub fn key_value(&self, k: usize, channel: usize) -> f64 {
        self.keys.value(k, channel) + if channel == 0 { self.turns[k] } else { 0.0 }
    }

    /// The value of `channel` at `time`; held before the first and after the last key.
    pub fn value(&self, channel: usize, time: f64) -> Option<f64> {
        let keys = self.keys;
        if channel >= keys.channels || keys.is_empty() {
            return None;
        }
        Some(match keys.locate(time) {
            KeySpan::Before => self.key_value(0, channel),
            KeySpan::Last(i) => self.key_value(i, channel),
            KeySpan::Between { key, percent } => {
                if is_rotate(self.timeline) {
                    let prev = keys.value(key, 0);
                    let diff = wrap(keys.value(key + 1, 0) - prev);
                    prev + self.turns[key] + diff * keys.curve_percent(key, percent)
                } else if matches!(self.timeline, Timeline::Ik(_)) && channel >= 2 {
                    keys.value(key, channel)
                } else {
                    keys.lerp(key, channel, percent)
                }
            }
        })
    }
}

/// A rotate timeline whose keys turn the shortest way (the others interpolate plainly).
fn is_rotate(t: &Timeline) -> bool {
    matches!(t, Timeline::Bone(b) if b.property == BoneProperty::Rotate && b.shortest)
}

/// Channel `channel` of `t` sampled at `times` as the runtime evaluates it (see [`Curve`]).
pub fn sample_channel(t: &Timeline, channel: usize, times: &[f64]) -> Vec<(f64, f64)> {
    let Some(curve) = Curve::new(t) else {
        return Vec::new();
    };
    times
        .iter()
        .filter_map(|&x| Some((x, curve.value(channel, x)?)))
        .collect()
}
