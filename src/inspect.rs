//! Describing timelines for people and scripts: what a timeline animates, its channels, and
//! their keyed values at any time (evaluated with the exact curves the runtime uses).
//! Terminal-free; the TUI's dopesheet and curves views and the `curves` command use it.

use crate::core::animation::{
    Animation, BoneProperty, ColorKind, Joint3Channel, JointTimeline, PathProperty, SliderProperty,
    Timeline, TwoColorKind,
};
use crate::core::curve::{Keys, Span as KeySpan};
use crate::core::math::wrap_degrees_38 as wrap;
use crate::core::model::Joint3Kind;
use crate::core::model::SkeletonData;

/// What a timeline targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Bone(usize),
    Slot(usize),
    Ik(usize),
    Transform(usize),
    Path(usize),
    /// A physics constraint (`None`: the global physics timelines).
    Physics(Option<usize>),
    /// A Spine 4.3 slider.
    Slider(usize),
    Events,
    DrawOrder,
}

/// The name of a physics constraint ("" for the global timelines).
fn physics_name(data: &SkeletonData, c: Option<usize>) -> String {
    c.and_then(|i| data.physics_constraints.get(i))
        .map_or_else(String::new, |c| c.name.clone())
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
    /// The target's kind as a word, with the draw order spelt as given (prose or script).
    fn kind(&self, draw_order: &'static str) -> &'static str {
        match self.target {
            Target::Bone(_) => "bone",
            Target::Slot(_) => "slot",
            Target::Ik(_) => "ik",
            Target::Transform(_) => "transform",
            Target::Path(_) => "path",
            Target::Physics(_) => "physics",
            Target::Slider(_) => "slider",
            Target::Events => "events",
            Target::DrawOrder => draw_order,
        }
    }

    /// "kind name.property", e.g. "bone hip.rotate".
    pub fn label(&self) -> String {
        let kind = self.kind("draw order");
        match self.target {
            Target::Events | Target::DrawOrder => kind.to_string(),
            _ => format!("{kind} {}.{}", self.target_name, self.property),
        }
    }

    /// A dotted path for scripts, e.g. "bone.hip.rotate.angle" (with `channel`).
    pub fn path(&self, channel: &str) -> String {
        let kind = self.kind("drawOrder");
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
        Timeline::Bone(b) => (
            Target::Bone(b.bone),
            bone(b.bone),
            b.property.name(),
            b.property.channel_names().to_vec(),
        ),
        Timeline::Inherit(t) => (Target::Bone(t.bone), bone(t.bone), "inherit", vec![]),
        Timeline::Lattice(t) => (Target::Bone(t.bone), bone(t.bone), "surface", vec![]),
        Timeline::Attachment(a) => (Target::Slot(a.slot), slot(a.slot), "attachment", vec![]),
        Timeline::Color(c) => {
            let (p, ch): (&'static str, Vec<&'static str>) = match c.kind {
                ColorKind::Color => ("color", vec!["r", "g", "b", "a"]),
                ColorKind::Rgba => ("rgba", vec!["r", "g", "b", "a"]),
                ColorKind::Rgb => ("rgb", vec!["r", "g", "b"]),
                ColorKind::Alpha => ("alpha", vec!["a"]),
            };
            (Target::Slot(c.slot), slot(c.slot), p, ch)
        }
        Timeline::TwoColor(c) => {
            let (p, ch): (&'static str, Vec<&'static str>) = match c.kind {
                TwoColorKind::TwoColor => (
                    "twoColor",
                    vec!["r", "g", "b", "a", "dark.r", "dark.g", "dark.b"],
                ),
                TwoColorKind::Rgba2 => (
                    "rgba2",
                    vec!["r", "g", "b", "a", "dark.r", "dark.g", "dark.b"],
                ),
                TwoColorKind::Rgb2 => ("rgb2", vec!["r", "g", "b", "dark.r", "dark.g", "dark.b"]),
            };
            (Target::Slot(c.slot), slot(c.slot), p, ch)
        }
        Timeline::Deform(d) => (Target::Slot(d.slot), slot(d.slot), "deform", vec![]),
        Timeline::Sequence(d) => (Target::Slot(d.slot), slot(d.slot), "sequence", vec![]),
        Timeline::Physics(p) => (
            Target::Physics(p.constraint),
            physics_name(data, p.constraint),
            p.property.name(),
            vec!["value"],
        ),
        Timeline::PhysicsReset(p) => (
            Target::Physics(p.constraint),
            physics_name(data, p.constraint),
            "reset",
            vec![],
        ),
        Timeline::Event(_) => (Target::Events, String::new(), "events", vec![]),
        Timeline::DrawOrder(_) => (Target::DrawOrder, String::new(), "drawOrder", vec![]),
        Timeline::DrawOrderFolder(_) => {
            (Target::DrawOrder, String::new(), "drawOrderFolder", vec![])
        }
        Timeline::Slider(s) => (
            Target::Slider(s.constraint),
            data.slider_constraints
                .get(s.constraint)
                .map_or_else(String::new, |c| c.name.clone()),
            match s.property {
                SliderProperty::Time => "time",
                SliderProperty::Mix => "mix",
            },
            vec!["value"],
        ),
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
            if k.keys.channels() == 6 {
                vec![
                    "mixRotate",
                    "mixX",
                    "mixY",
                    "mixScaleX",
                    "mixScaleY",
                    "mixShearY",
                ]
            } else {
                vec!["rotateMix", "translateMix", "scaleMix", "shearMix"]
            },
        ),
        Timeline::Path(k) => {
            let (p, ch): (&'static str, Vec<&'static str>) = match k.property {
                PathProperty::Position => ("position", vec!["position"]),
                PathProperty::Spacing => ("spacing", vec!["spacing"]),
                PathProperty::Mix if k.keys.channels() == 3 => {
                    ("mix", vec!["mixRotate", "mixX", "mixY"])
                }
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
        Timeline::Joint(j) => {
            let ray = data
                .bones
                .get(j.bone)
                .and_then(|b| b.joint3.as_ref())
                .is_some_and(|s| s.kind == Joint3Kind::Ray);
            let p = match j.channel {
                Joint3Channel::Position if ray => "origin",
                Joint3Channel::Position => "position",
                Joint3Channel::Rotation => "rotation",
                Joint3Channel::Direction => "direction",
            };
            (
                Target::Bone(j.bone),
                bone(j.bone),
                p,
                j.channel.components().to_vec(),
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

/// The keys of a timeline with plottable channels stored as [`Keys`] (not the Unity curves
/// of joint timelines: see [`Curve`] for every plottable timeline).
pub fn keys_of(t: &Timeline) -> Option<&Keys> {
    match t {
        Timeline::Bone(b) => Some(&b.keys),
        Timeline::Color(c) => Some(&c.keys),
        Timeline::TwoColor(c) => Some(&c.keys),
        Timeline::Ik(k) => Some(&k.keys),
        Timeline::Transform(k) => Some(&k.keys),
        Timeline::Path(k) => Some(&k.keys),
        Timeline::Physics(k) => Some(&k.keys),
        Timeline::Slider(k) => Some(&k.keys),
        Timeline::Attachment(_)
        | Timeline::DrawOrderFolder(_)
        | Timeline::Inherit(_)
        | Timeline::Sequence(_)
        | Timeline::PhysicsReset(_)
        | Timeline::Deform(_)
        | Timeline::Event(_)
        | Timeline::DrawOrder(_)
        | Timeline::Lattice(_)
        | Timeline::Joint(_) => None,
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
/// keys sit at their value plus whole turns), discrete IK channels (bend, compress,
/// stretch) held at the previous key, and joint timelines' Unity curves with
/// [`crate::core::unity_curve`] (each component with its own keys).
#[derive(Debug)]
pub struct Curve<'a> {
    timeline: &'a Timeline,
    source: Source<'a>,
}

/// Where a [`Curve`]'s keys live.
#[derive(Debug)]
enum Source<'a> {
    /// Keys shared by every channel.
    Keys {
        keys: &'a Keys,
        /// Per key: whole turns (degrees) added to the stored value to keep rotations
        /// continuous.
        turns: Vec<f64>,
    },
    /// One Unity curve per channel.
    Unity(&'a JointTimeline),
}

impl<'a> Curve<'a> {
    /// The curve of a timeline with value channels; `None` for the others.
    pub fn new(timeline: &'a Timeline) -> Option<Curve<'a>> {
        if let Timeline::Joint(j) = timeline {
            return Some(Curve {
                timeline,
                source: Source::Unity(j),
            });
        }
        let keys = keys_of(timeline)?;
        if keys.channels() == 0 {
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
            source: Source::Keys { keys, turns },
        })
    }

    /// The timeline.
    pub fn timeline(&self) -> &'a Timeline {
        self.timeline
    }

    /// The keys every channel shares, for timelines stored as [`Keys`] (`None` for joint
    /// timelines, whose channels each have their own keys: see [`Curve::key_points`]).
    pub fn keys(&self) -> Option<&'a Keys> {
        match &self.source {
            Source::Keys { keys, .. } => Some(keys),
            Source::Unity(_) => None,
        }
    }

    /// Number of value channels.
    pub fn channels(&self) -> usize {
        match &self.source {
            Source::Keys { keys, .. } => keys.channels(),
            Source::Unity(j) => j.curves.len(),
        }
    }

    /// Every key time of the timeline, sorted (the union over channels for joint timelines).
    pub fn key_times(&self) -> &'a [f32] {
        self.timeline.key_times()
    }

    /// The plotted value of key `k`'s `channel`: for shared keys its stored value plus whole
    /// turns, for joint timelines key `k` of that channel's own curve. NaN when there is no
    /// such key.
    pub fn key_value(&self, k: usize, channel: usize) -> f64 {
        match &self.source {
            Source::Keys { keys, turns } => {
                if k >= keys.len() || channel >= keys.channels() {
                    return f64::NAN;
                }
                keys.value(k, channel) + if channel == 0 { turns[k] } else { 0.0 }
            }
            Source::Unity(j) => j
                .curves
                .get(channel)
                .and_then(|c| c.keys.get(k))
                .map_or(f64::NAN, |key| key.value as f64),
        }
    }

    /// The keys of `channel` as plotted points (time, value), in time order.
    pub fn key_points(&self, channel: usize) -> Vec<(f64, f64)> {
        match &self.source {
            Source::Keys { keys, .. } => {
                if channel >= keys.channels() {
                    return Vec::new();
                }
                (0..keys.len())
                    .map(|k| (keys.time(k), self.key_value(k, channel)))
                    .collect()
            }
            Source::Unity(j) => j.curves.get(channel).map_or_else(Vec::new, |c| {
                c.keys
                    .iter()
                    .map(|k| (k.time as f64, k.value as f64))
                    .collect()
            }),
        }
    }

    /// The value of `channel` at `time`; held before the first and after the last key
    /// (joint timelines: the Unity curve's own wrap modes).
    pub fn value(&self, channel: usize, time: f64) -> Option<f64> {
        let (keys, turns) = match &self.source {
            Source::Keys { keys, turns } => (*keys, turns),
            Source::Unity(j) => return j.curves.get(channel).map(|c| c.evaluate(time)),
        };
        if channel >= keys.channels() || keys.is_empty() {
            return None;
        }
        let key_value =
            |k: usize| keys.value(k, channel) + if channel == 0 { turns[k] } else { 0.0 };
        Some(match keys.locate(time) {
            KeySpan::Before => key_value(0),
            KeySpan::Last(i) => key_value(i),
            sp @ KeySpan::Between { key, percent, .. } => {
                if is_rotate(self.timeline) {
                    let prev = keys.value(key, 0);
                    let diff = wrap(keys.value(key + 1, 0) - prev);
                    prev + turns[key] + diff * keys.curve_percent(key, percent)
                } else if matches!(self.timeline, Timeline::Ik(_)) && channel >= 2 {
                    keys.value(key, channel)
                } else {
                    keys.channel_at(sp, channel)
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
