//! User commands a session records and replays.

use crate::core::model::SkeletonData;
use crate::core::skeleton::Physics;
use crate::core::state::AnimationState;
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
    pub fn validate(&self, data: &SkeletonData) -> Result<(), String> {
        let anim = |a: usize| {
            if a < data.animations.len() {
                Ok(())
            } else {
                Err(format!("no animation #{a}"))
            }
        };
        let track = |t: usize| {
            if t < MAX_TRACKS {
                Ok(())
            } else {
                Err(format!(
                    "track {t} is beyond the limit of {}",
                    MAX_TRACKS - 1
                ))
            }
        };
        let finite = |v: f64, what: &str| {
            if v.is_finite() {
                Ok(())
            } else {
                Err(format!("{what} must be a finite number"))
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
        }
    }

    /// Runs the command on `state` (the physics commands act on the session, which runs
    /// them itself: nothing happens here).
    pub fn execute(&self, state: &mut AnimationState) {
        match *self {
            Command::SetAnimation {
                track,
                animation,
                looping,
            } => {
                state.set_animation(track, Some(animation), looping);
            }
            Command::AddAnimation {
                track,
                animation,
                looping,
                delay,
            } => {
                state.add_animation(track, Some(animation), looping, delay);
            }
            Command::SetEmptyAnimation {
                track,
                mix_duration,
            } => {
                state.set_empty_animation(track, mix_duration);
            }
            Command::AddEmptyAnimation {
                track,
                mix_duration,
                delay,
            } => {
                state.add_empty_animation(track, mix_duration, delay);
            }
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
        }
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
        }
    }
}
