use super::Listener;
use crate::core::animation::MixBlend;

/// A handle to a track entry. Handles of disposed entries stop resolving.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntryId {
    pub(super) slot: u32,
    /// 1, 2, 3, ... in order of creation; never reused.
    pub serial: u64,
}

/// How a timeline of a mixing entry is blended (see `hold.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimelineMode {
    /// Another entry below keys the same property first: blend from the current pose.
    Subsequent,
    /// First to key this property: blend from the setup pose.
    First,
    /// Like `Subsequent`, but held at full alpha while mixing out.
    HoldSubsequent,
    /// Like `First`, but held at full alpha while mixing out.
    HoldFirst,
    /// Held, fading with the entry that stops keying the property (`hold_mix`).
    HoldMix,
}

/// One animation playing (or queued) on a track, with its playback parameters.
pub struct TrackEntry {
    pub id: EntryId,
    /// Index into the skeleton data's animations; `None` = the empty animation.
    pub animation: Option<usize>,
    pub track: usize,
    pub looping: bool,
    pub hold_previous: bool,
    /// Spine 4.3 `keepHold`: recomputing the timeline modes keeps each timeline's previous
    /// hold bit (set by the scenario's `holdPrevious`, and by the state on the entries above
    /// one removed early from a mix chain).
    pub keep_hold: bool,
    pub event_threshold: f64,
    pub attachment_threshold: f64,
    pub draw_order_threshold: f64,
    pub animation_start: f64,
    pub animation_end: f64,
    pub animation_last: f64,
    pub(super) next_animation_last: f64,
    pub delay: f64,
    pub track_time: f64,
    pub track_last: f64,
    pub(super) next_track_last: f64,
    pub track_end: f64,
    pub time_scale: f64,
    pub alpha: f64,
    pub mix_time: f64,
    pub mix_duration: f64,
    pub interrupt_alpha: f64,
    pub total_alpha: f64,
    pub mix_blend: MixBlend,
    /// Spine 4.x: the animation plays backwards (applied at `duration - animationTime`,
    /// its events not fired; `complete` still is).
    pub reverse: bool,
    /// Spine 4.1+: rotations mix plainly through the keys' values, without the turning
    /// direction bookkeeping.
    pub shortest_rotation: bool,
    /// Spine 4.2: attachment keys count only while the entry's alpha is at least this.
    pub alpha_attachment_threshold: f64,
    /// The entry this one was queued after, until it becomes current (4.2 setMixDuration).
    pub(super) previous: Option<EntryId>,
    pub next: Option<EntryId>,
    pub mixing_from: Option<EntryId>,
    pub mixing_to: Option<EntryId>,
    pub(super) timeline_mode: Vec<TimelineMode>,
    pub(super) timeline_hold_mix: Vec<Option<EntryId>>,
    /// Spine 4.3, per timeline: its properties were claimed by an earlier entry of this
    /// track and by no other track (`from` first rather than current).
    pub(super) timeline_own_claim: Vec<bool>,
    /// Per timeline: accumulated total and last difference (rotation mixing direction; used
    /// by rotate timelines).
    pub(super) timelines_rotation: Vec<[f64; 2]>,
    /// Per timeline: the key search hint (see `Keys::locate_from`).
    pub(super) timeline_hints: Vec<crate::core::curve::KeyHint>,
    pub(super) listener: Option<Listener>,
}

impl TrackEntry {
    /// The time within the animation: wrapped when looping, else clamped to `animation_end`.
    pub fn animation_time(&self) -> f64 {
        if self.looping {
            let duration = self.animation_end - self.animation_start;
            if duration == 0.0 {
                return self.animation_start;
            }
            return crate::core::math::rem(self.track_time, duration) + self.animation_start;
        }
        (self.track_time + self.animation_start).min(self.animation_end)
    }

    /// Forgets the rotation mixing direction, so the next mix takes the shortest way.
    pub fn reset_rotation_directions(&mut self) {
        self.timelines_rotation.clear();
    }

    /// The track time at which the entry completes (4.x): the end of the current loop for a
    /// looping entry, the animation's length for a non-looping one not yet past it, else now.
    pub fn track_complete(&self) -> f64 {
        let duration = self.animation_end - self.animation_start;
        if duration != 0.0 {
            if self.looping {
                return duration * (1.0 + (self.track_time / duration).trunc());
            }
            if self.track_time < duration {
                return duration;
            }
        }
        self.track_time
    }

    /// True once the entry was applied at least once.
    pub fn was_applied(&self) -> bool {
        self.next_track_last != -1.0
    }
}

impl std::fmt::Debug for TrackEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrackEntry")
            .field("id", &self.id.serial)
            .field("animation", &self.animation)
            .field("track", &self.track)
            .field("track_time", &self.track_time)
            .field("mix_time", &self.mix_time)
            .field("mix_duration", &self.mix_duration)
            .finish_non_exhaustive()
    }
}
