//! Animations and the Timeline API.
//!
//! An [`Animation`] is a list of [`Timeline`]s; applying it at a time poses a
//! [`Skeleton`]. The blending rules follow Spine's runtime:
//! [`MixBlend`] says what a timeline blends from, [`MixDirection`] whether the animation is
//! mixing in or out (discrete keys such as attachments and draw order only apply mixing in).

pub(crate) mod apply_bone;
mod apply_constraint;
mod apply_joint;
mod apply_lattice;
mod apply_slider;
pub(crate) mod apply_slot;
mod property_index;
mod timeline;

pub(crate) use apply_constraint::setup_for_additive;
pub use apply_joint::{Joint3Channel, JointTimeline};
pub(crate) use property_index::StampSet;
pub use property_index::{DenseIds, PropertyIndex};
pub use timeline::*;

use crate::core::model::Event;
use crate::core::skeleton::Skeleton;

/// What a timeline blends from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixBlend {
    /// From the setup pose (before the first key: the setup pose).
    Setup,
    /// From the setup pose for the first layer; before the first key, toward the setup pose.
    First,
    /// From the current pose.
    Replace,
    /// Adds to the current pose.
    Add,
}

/// Whether an animation is being mixed in or out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixDirection {
    In,
    Out,
}

/// A named set of timelines with a duration in seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Animation {
    pub name: String,
    /// Duration in seconds: the last key's time over all timelines (storage precision).
    pub duration: f64,
    pub timelines: Vec<Timeline>,
    /// Sorted property ids of the timelines (for "does this animation key X").
    pub properties: Vec<PropertyId>,
    /// Frames per second when keys sit on a frame grid and are found by frame index
    /// (DragonBones); `None` for continuous key times.
    pub frame_rate: Option<f64>,
    /// How many times the file says to play it (0 = forever), when the format says
    /// (DragonBones `playTimes`); players use it as the default for looping.
    pub play_times: Option<u32>,
    /// The mix duration into this animation when no mix is set for the pair, when the file
    /// gives one (DragonBones `fadeInTime`).
    pub fade_in: Option<f64>,
    /// The playback speed the file asks for, applied to new track entries (DragonBones
    /// plays an animation of `scale` s at 1/s); 1 elsewhere.
    pub time_scale: f64,
}

impl Animation {
    /// An animation with the given timelines; the duration is the last key time.
    pub fn new(name: impl Into<String>, timelines: Vec<Timeline>) -> Animation {
        let duration = timelines
            .iter()
            .map(Timeline::last_time)
            .fold(0.0, f64::max);
        // Most timelines touch one or two properties: copied straight from each timeline's
        // inline list (a `Vec` per timeline cost an allocation each on every load).
        let mut properties: Vec<PropertyId> = Vec::with_capacity(timelines.len() * 2);
        for t in &timelines {
            properties.extend_from_slice(t.property_ids().as_slice());
        }
        sort_unique_ids(&mut properties);
        Animation {
            name: name.into(),
            duration,
            timelines,
            properties,
            frame_rate: None,
            play_times: None,
            fade_in: None,
            time_scale: 1.0,
        }
    }

    /// The animation time a seek to `time` shows. Frame-grid runtimes (DragonBones) show a
    /// seek to exactly the end a microsecond before it (so the last key frame's own tween or
    /// hold is what appears), wrap seeks past the end and count negative ones from the end;
    /// elsewhere the time itself.
    pub fn seek_time(&self, time: f64) -> f64 {
        let d = self.duration;
        if self.frame_rate.is_none() || d.is_nan() || d <= 0.0 || !time.is_finite() {
            return time;
        }
        if time == d {
            d - 1e-6
        } else if time > d {
            time % d
        } else if time < 0.0 {
            d + time % d
        } else {
            time
        }
    }

    /// The time keys are looked up at for animation time `time`: the same time, or on a frame
    /// grid the time adjusted by a rounding error to fall in the frame runtimes index it by.
    #[inline]
    pub fn key_time(&self, time: f64) -> f64 {
        match self.frame_rate {
            Some(fps) => crate::core::curve::snap_to_frame(time, fps),
            None => time,
        }
    }

    /// The shared empty animation used to mix tracks in from and out to the setup pose.
    pub fn empty() -> Animation {
        Animation::new("<empty>", Vec::new())
    }

    /// True when a timeline of this animation animates `id`.
    pub fn has_property(&self, id: PropertyId) -> bool {
        self.properties.binary_search(&id).is_ok()
    }

    /// True when a timeline of this animation animates any of `ids`.
    pub fn has_any_property(&self, ids: &[PropertyId]) -> bool {
        ids.iter().any(|&id| self.has_property(id))
    }

    /// Poses `skeleton` at `time`, firing events keyed in (`last_time`, `time`] into `events`.
    ///
    /// With `looping`, times wrap at the duration (`last_time` only when positive), and an
    /// event window that wraps fires the tail of the animation, then its start.
    #[allow(clippy::too_many_arguments)]
    pub fn apply(
        &self,
        skeleton: &mut Skeleton,
        mut last_time: f64,
        mut time: f64,
        looping: bool,
        events: Option<&mut Vec<Event>>,
        alpha: f64,
        blend: MixBlend,
        direction: MixDirection,
    ) {
        skeleton.edit_pose();
        skeleton.animated = true;
        if looping && self.duration != 0.0 {
            time %= self.duration;
            if last_time > 0.0 {
                last_time %= self.duration;
            }
        }
        let (last_time, time) = (self.key_time(last_time), self.key_time(time));
        let mut events = events;
        for timeline in &self.timelines {
            timeline.apply(
                skeleton,
                last_time,
                time,
                events.as_deref_mut(),
                alpha,
                blend,
                direction,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Animation;

    #[test]
    fn frame_grid_seeks_follow_the_runtime() {
        let mut a = Animation::empty();
        a.duration = 2.0;
        assert_eq!(a.seek_time(2.0), 2.0, "continuous keys: the time itself");
        a.frame_rate = Some(24.0);
        assert_eq!(a.seek_time(2.0), 2.0 - 1e-6);
        assert_eq!(a.seek_time(0.5), 0.5);
        assert_eq!(a.seek_time(2.5), 0.5);
        assert_eq!(a.seek_time(-0.5), 1.5);
        assert_eq!(a.seek_time(0.0), 0.0);
    }

    /// Every id kind with small, equal and unpackable fields, in a scrambled order with
    /// repeats: the packed sort gives what the derived order gives.
    #[test]
    fn packed_id_sort_matches_the_derived_order() {
        use super::{Joint3Channel as J, PhysicsProperty as Ph, PropertyId as P, sort_unique_ids};
        let mut ids = Vec::new();
        for i in [0, 1, 7, (1 << 21) - 1, 1 << 21, usize::MAX] {
            for j in [0, 2, 1] {
                ids.extend([
                    P::Rotate(i),
                    P::X(i),
                    P::Y(i),
                    P::ScaleX(i),
                    P::ScaleY(i),
                    P::ShearX(i),
                    P::ShearY(i),
                    P::Inherit(i),
                    P::Attachment(i),
                    P::Color(i),
                    P::TwoColor(i),
                    P::Rgb(i),
                    P::Alpha(i),
                    P::Rgb2(i),
                    P::Deform(i, j),
                    P::Deform(j, i),
                    P::Sequence(i, j),
                    P::Event,
                    P::DrawOrder,
                    P::Ik(i),
                    P::Transform(i),
                    P::PathPosition(i),
                    P::PathSpacing(i),
                    P::PathMix(i),
                    P::Physics(Ph::Mix, Some(i)),
                    P::Physics([Ph::Inertia, Ph::Gravity, Ph::Mass][j], None),
                    P::Physics(Ph::Wind, Some(j)),
                    P::PhysicsReset,
                    P::Joint3(i, [J::Direction, J::Position, J::Rotation][j]),
                    P::SliderTime(i),
                    P::SliderMix(i),
                ]);
            }
        }
        // A fixed scramble (a multiplicative step coprime with the length).
        let n = ids.len();
        let step = (1..n).rev().find(|s| gcd(*s, n) == 1).unwrap_or(1);
        let scrambled: Vec<P> = (0..n).map(|k| ids[k * step % n]).collect();
        let mut expect = scrambled.clone();
        expect.sort_unstable();
        expect.dedup();
        // Packable only (the fast path), then everything (the fallback).
        let mut small: Vec<P> = scrambled
            .iter()
            .copied()
            .filter(|id| {
                let text = format!("{id:?}");
                !text.contains(&(1usize << 21).to_string())
                    && !text.contains(&usize::MAX.to_string())
            })
            .collect();
        assert!(small.len() > 100, "{}", small.len());
        let mut small_expect = small.clone();
        small_expect.sort_unstable();
        small_expect.dedup();
        // The order keys (which `PropertyIndex::build` searches) compare as the ids do.
        let keyed: Vec<(P, u64)> = expect
            .iter()
            .filter_map(|id| Some((*id, id.order_key()?)))
            .collect();
        assert!(keyed.len() > 100, "{}", keyed.len());
        for (a, ka) in &keyed {
            for (b, kb) in &keyed {
                assert_eq!(ka.cmp(kb), a.cmp(b), "{a:?} {b:?}");
            }
        }
        sort_unique_ids(&mut small);
        assert_eq!(small, small_expect);
        let mut all = scrambled;
        sort_unique_ids(&mut all);
        assert_eq!(all, expect);
    }

    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 { a } else { gcd(b, a % b) }
    }
}
