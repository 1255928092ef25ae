//! User commands a session records and replays.

use crate::core::animation::MixBlend;
use crate::core::model::SkeletonData;
use crate::core::skeleton::Physics;
use crate::core::state::{AnimationState, EntryId};
use crate::session::CommandError;
use crate::text::sanitize;

/// Something the user did to the animation state.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    SetAnimation {
        track: usize,
        animation: usize,
        looping: bool,
    },
    AddAnimation {
        track: usize,
        animation: usize,
        looping: bool,
        delay: f64,
    },
    SetEmptyAnimation {
        track: usize,
        mix_duration: f64,
    },
    AddEmptyAnimation {
        track: usize,
        mix_duration: f64,
        delay: f64,
    },
    ClearTrack {
        track: usize,
    },
    ClearTracks,
    DefaultMix {
        duration: f64,
    },
    SetMix {
        from: usize,
        to: usize,
        duration: f64,
    },
    /// Sets the alpha of the track's current entry.
    TrackAlpha {
        track: usize,
        alpha: f64,
    },
    /// Sets the time scale of the track's current entry.
    TrackTimeScale {
        track: usize,
        time_scale: f64,
    },
    /// Sets the mix duration of the track's current entry.
    TrackMixDuration {
        track: usize,
        mix_duration: f64,
    },
    /// Sets the state's time scale.
    TimeScale {
        value: f64,
    },
    /// Sets how every following frame runs physics constraints (Spine 4.2).
    PhysicsMode {
        mode: Physics,
    },
    /// Resets every physics constraint's simulation (`Skeleton::reset_physics`).
    ResetPhysics,
    // --- Calls a game makes that the prompt does not (recordings: `session::recording`). ---
    /// `AnimationState.setEmptyAnimations(mixDuration)`.
    SetEmptyAnimations {
        mix_duration: f64,
    },
    /// Sets one property of a live track entry (a stale handle does nothing).
    EntrySetting {
        entry: EntryId,
        setting: EntrySetting,
    },
    /// Changes the skins (several are combined); the session runs it on its skeleton.
    SetSkins {
        skins: Vec<String>,
    },
    /// `AnimationState.update(dt)`: a recording's frame boundary.
    Update {
        dt: f64,
    },
    /// `AnimationState.apply(skeleton)`; the session runs it on its skeleton.
    Apply,
}

/// A track entry property a game sets (the protocol's `entry` call).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum EntrySetting {
    MixDuration(f64),
    TrackEnd(f64),
    Alpha(f64),
    TimeScale(f64),
    Delay(f64),
    EventThreshold(f64),
    AttachmentThreshold(f64),
    DrawOrderThreshold(f64),
    AlphaAttachmentThreshold(f64),
    TrackTime(f64),
    AnimationStart(f64),
    AnimationEnd(f64),
    AnimationLast(f64),
    Loop(bool),
    /// `holdPrevious` (4.3: `keepHold`).
    HoldPrevious(bool),
    Reverse(bool),
    ShortestRotation(bool),
    MixBlend(MixBlend),
    ResetRotationDirections,
    /// `TrackEntry.setMixDuration(mix, delay)` (4.2+): the state recomputes a queued
    /// entry's delay from it.
    SetMixDuration {
        mix: f64,
        delay: f64,
    },
}

impl EntrySetting {
    /// The number it sets, if any.
    fn number(self) -> Option<f64> {
        use EntrySetting::*;
        match self {
            MixDuration(v)
            | TrackEnd(v)
            | Alpha(v)
            | TimeScale(v)
            | Delay(v)
            | EventThreshold(v)
            | AttachmentThreshold(v)
            | DrawOrderThreshold(v)
            | AlphaAttachmentThreshold(v)
            | TrackTime(v)
            | AnimationStart(v)
            | AnimationEnd(v)
            | AnimationLast(v) => Some(v),
            _ => None,
        }
    }

    fn apply(self, state: &mut AnimationState, id: EntryId) {
        use EntrySetting::*;
        if let SetMixDuration { mix, delay } = self {
            if state.entry(id).is_some() {
                state.set_mix_duration(id, mix, delay);
            }
            return;
        }
        let v43 = state.data.skeleton.rules.version == crate::core::model::RuntimeVersion::Spine43;
        let Some(e) = state.entry_mut(id) else { return };
        match self {
            MixDuration(v) => e.mix_duration = v,
            TrackEnd(v) => e.track_end = v,
            Alpha(v) => e.alpha = v,
            TimeScale(v) => e.time_scale = v,
            Delay(v) => e.delay = v,
            EventThreshold(v) => e.event_threshold = v,
            AttachmentThreshold(v) => e.attachment_threshold = v,
            DrawOrderThreshold(v) => e.draw_order_threshold = v,
            AlphaAttachmentThreshold(v) => e.alpha_attachment_threshold = v,
            TrackTime(v) => e.track_time = v,
            AnimationStart(v) => e.animation_start = v,
            AnimationEnd(v) => e.animation_end = v,
            AnimationLast(v) => e.animation_last = v,
            Loop(b) => e.looping = b,
            HoldPrevious(b) if v43 => e.keep_hold = b,
            HoldPrevious(b) => e.hold_previous = b,
            Reverse(b) => e.reverse = b,
            ShortestRotation(b) => e.shortest_rotation = b,
            MixBlend(m) => e.mix_blend = m,
            ResetRotationDirections => e.reset_rotation_directions(),
            SetMixDuration { .. } => {}
        }
    }
}

/// The name of a physics mode as the prompt and status line spell it.
pub fn physics_name(mode: Physics) -> &'static str {
    match mode {
        Physics::None => "none",
        Physics::Reset => "reset",
        Physics::Update => "update",
        Physics::Pose => "pose",
    }
}

/// The most tracks commands may address.
pub const MAX_TRACKS: usize = 64;

impl Command {
    /// Checks indices and numbers against the data.
    pub fn validate(&self, data: &SkeletonData) -> Result<(), CommandError> {
        let anim = |a: usize| {
            if a < data.animations.len() {
                Ok(())
            } else {
                Err(CommandError::NoAnimation(a))
            }
        };
        let track = |t: usize| {
            if t < MAX_TRACKS {
                Ok(())
            } else {
                Err(CommandError::TrackBeyondLimit {
                    track: t,
                    limit: MAX_TRACKS - 1,
                })
            }
        };
        let finite = |v: f64, what: &'static str| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(CommandError::NotFinite(what))
            }
        };
        match *self {
            Command::SetAnimation {
                track: t,
                animation,
                ..
            } => {
                track(t)?;
                anim(animation)
            }
            Command::AddAnimation {
                track: t,
                animation,
                delay,
                ..
            } => {
                track(t)?;
                anim(animation)?;
                finite(delay, "delay")
            }
            Command::SetEmptyAnimation {
                track: t,
                mix_duration,
            } => {
                track(t)?;
                finite(mix_duration, "mix duration")
            }
            Command::AddEmptyAnimation {
                track: t,
                mix_duration,
                delay,
            } => {
                track(t)?;
                finite(mix_duration, "mix duration")?;
                finite(delay, "delay")
            }
            Command::ClearTrack { track: t } => track(t),
            Command::ClearTracks => Ok(()),
            Command::DefaultMix { duration } => finite(duration, "mix duration"),
            Command::SetMix { from, to, duration } => {
                anim(from)?;
                anim(to)?;
                finite(duration, "mix duration")
            }
            Command::TrackAlpha { track: t, alpha: v }
            | Command::TrackTimeScale {
                track: t,
                time_scale: v,
            }
            | Command::TrackMixDuration {
                track: t,
                mix_duration: v,
            } => {
                track(t)?;
                finite(v, "value")
            }
            Command::TimeScale { value } => finite(value, "time scale"),
            Command::PhysicsMode { .. } | Command::ResetPhysics => Ok(()),
            Command::SetEmptyAnimations { mix_duration } => finite(mix_duration, "mix duration"),
            Command::EntrySetting {
                setting: EntrySetting::SetMixDuration { mix, delay },
                ..
            } => {
                finite(mix, "mix duration")?;
                finite(delay, "delay")
            }
            Command::EntrySetting { setting, .. } => setting
                .number()
                .map_or(Ok(()), |v| finite(v, "entry property")),
            Command::SetSkins { .. } | Command::Apply => Ok(()),
            Command::Update { dt } => finite(dt, "dt"),
        }
    }

    /// Runs the command on `state` (the physics, skin and apply commands act on the
    /// session's skeleton, which runs them itself: nothing happens here).
    pub fn execute(&self, state: &mut AnimationState) {
        self.run(state);
    }

    /// [`Command::execute`], returning the entry a set/add call made.
    pub fn run(&self, state: &mut AnimationState) -> Option<EntryId> {
        match *self {
            Command::SetAnimation {
                track,
                animation,
                looping,
            } => return Some(state.set_animation(track, Some(animation), looping)),
            Command::AddAnimation {
                track,
                animation,
                looping,
                delay,
            } => return Some(state.add_animation(track, Some(animation), looping, delay)),
            Command::SetEmptyAnimation {
                track,
                mix_duration,
            } => return Some(state.set_empty_animation(track, mix_duration)),
            Command::AddEmptyAnimation {
                track,
                mix_duration,
                delay,
            } => return Some(state.add_empty_animation(track, mix_duration, delay)),
            Command::ClearTrack { track } => state.clear_track(track),
            Command::ClearTracks => state.clear_tracks(),
            Command::DefaultMix { duration } => state.data.default_mix = duration,
            Command::SetMix { from, to, duration } => state.data.set_mix(from, to, duration),
            Command::TrackAlpha { track, alpha } => {
                if let Some(e) = state.current(track).and_then(|id| state.entry_mut(id)) {
                    e.alpha = alpha;
                }
            }
            Command::TrackTimeScale { track, time_scale } => {
                if let Some(e) = state.current(track).and_then(|id| state.entry_mut(id)) {
                    e.time_scale = time_scale;
                }
            }
            Command::TrackMixDuration {
                track,
                mix_duration,
            } => {
                if let Some(e) = state.current(track).and_then(|id| state.entry_mut(id)) {
                    e.mix_duration = mix_duration;
                }
            }
            Command::TimeScale { value } => state.time_scale = value,
            Command::PhysicsMode { .. } | Command::ResetPhysics => {}
            Command::SetEmptyAnimations { mix_duration } => {
                state.set_empty_animations(mix_duration)
            }
            Command::EntrySetting { entry, setting } => setting.apply(state, entry),
            Command::Update { dt } => state.update(dt),
            Command::SetSkins { .. } | Command::Apply => {}
        }
        None
    }

    /// The same command for another version of the data, matching animations by name (after
    /// `rename`, which maps an old name to its new one);
    /// `None` when an animation it names no longer exists.
    pub fn remap(
        &self,
        old: &SkeletonData,
        new: &SkeletonData,
        rename: &dyn Fn(&str) -> String,
    ) -> Option<Command> {
        let map = |a: usize| {
            old.animations
                .get(a)
                .and_then(|x| new.find_animation(&rename(&x.name)))
        };
        let mut c = self.clone();
        match &mut c {
            Command::SetAnimation { animation, .. } | Command::AddAnimation { animation, .. } => {
                *animation = map(*animation)?;
            }
            Command::SetMix { from, to, .. } => {
                *from = map(*from)?;
                *to = map(*to)?;
            }
            _ => {}
        }
        Some(c)
    }

    /// A one-line description (names sanitized).
    pub fn describe(&self, data: &SkeletonData) -> String {
        let name = |a: usize| {
            sanitize(data.animations.get(a).map_or("?", |x| x.name.as_str())).into_owned()
        };
        match *self {
            Command::SetAnimation {
                track,
                animation,
                looping,
            } => {
                format!(
                    "set track {track}: {}{}",
                    name(animation),
                    if looping { " (loop)" } else { "" }
                )
            }
            Command::AddAnimation {
                track,
                animation,
                looping,
                delay,
            } => format!(
                "queue on track {track}: {}{} delay {delay}",
                name(animation),
                if looping { " (loop)" } else { "" }
            ),
            Command::SetEmptyAnimation {
                track,
                mix_duration,
            } => format!("empty track {track} over {mix_duration} s"),
            Command::AddEmptyAnimation {
                track,
                mix_duration,
                delay,
            } => {
                format!("queue empty on track {track} over {mix_duration} s, delay {delay}")
            }
            Command::ClearTrack { track } => format!("clear track {track}"),
            Command::ClearTracks => "clear all tracks".into(),
            Command::DefaultMix { duration } => format!("default mix {duration} s"),
            Command::SetMix { from, to, duration } => {
                format!("mix {} -> {} {duration} s", name(from), name(to))
            }
            Command::TrackAlpha { track, alpha } => format!("track {track} alpha {alpha}"),
            Command::TrackTimeScale { track, time_scale } => {
                format!("track {track} time scale {time_scale}")
            }
            Command::TrackMixDuration {
                track,
                mix_duration,
            } => format!("track {track} mix {mix_duration} s"),
            Command::TimeScale { value } => format!("time scale {value}"),
            Command::PhysicsMode { mode } => format!("physics {}", physics_name(mode)),
            Command::ResetPhysics => "reset physics".into(),
            Command::SetEmptyAnimations { mix_duration } => {
                format!("empty every track over {mix_duration} s")
            }
            Command::EntrySetting { entry, setting } => {
                format!("entry #{} {setting:?}", entry.serial)
            }
            Command::SetSkins { ref skins } => format!(
                "skins {}",
                skins
                    .iter()
                    .map(|s| sanitize(s).into_owned())
                    .collect::<Vec<_>>()
                    .join("+")
            ),
            Command::Update { dt } => format!("update {dt} s"),
            Command::Apply => "apply".into(),
        }
    }
}
