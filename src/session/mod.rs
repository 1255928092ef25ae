//! A playback session: the animation state driven frame by frame, deterministically.
//!
//! The debugger must show the right pose and the right event log at any time the user lands
//! on, including after scrubbing backwards. A session therefore never "rewinds" the runtime:
//! it records the user's commands with the frame they were issued at and, to go back, replays
//! them from frame 0 with the same fixed steps. Terminal-free: the TUI and tests drive it.

mod command;

pub use command::Command;

use crate::core::model::SkeletonData;
use crate::core::skeleton::Skeleton;
use crate::core::state::{AnimationState, AnimationStateData, LoggedNotification};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// Where in a frame a notification was delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// While executing a user command (set/add/clear...).
    Command,
    /// During `AnimationState::update`.
    Update,
    /// During `AnimationState::apply`.
    Apply,
}

impl Phase {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Command => "command",
            Phase::Update => "update",
            Phase::Apply => "apply",
        }
    }
}

/// One line of the event log.
#[derive(Clone, Debug, PartialEq)]
pub enum LogLine {
    /// A listener notification, with the frame and phase it was delivered in.
    Notification {
        frame: u64,
        phase: Phase,
        note: LoggedNotification,
    },
    /// A marker the application adds (e.g. a reload), kept across replays.
    Marker { frame: u64, text: String },
}

impl LogLine {
    /// The frame of this line.
    pub fn frame(&self) -> u64 {
        match self {
            LogLine::Notification { frame, .. } | LogLine::Marker { frame, .. } => *frame,
        }
    }
}

#[derive(Default)]
struct Recorder {
    frame: u64,
    phase: Option<Phase>,
    lines: Vec<LogLine>,
}

/// The most frames a session simulates (about 9 hours at 30 fps); seeks beyond are clamped.
pub const MAX_FRAMES: u64 = 1_000_000;

/// A deterministic playback of user commands on one skeleton.
pub struct Session {
    data: Arc<SkeletonData>,
    skins: Vec<String>,
    /// Simulation steps per second.
    fps: f64,
    commands: Vec<(u64, Command)>,
    markers: Vec<(u64, String)>,
    skeleton: Skeleton,
    state: AnimationState,
    recorder: Rc<RefCell<Recorder>>,
    frame: u64,
    /// Extra time past `frame` (a seek between frames); any further move replays from 0.
    partial: f64,
}

impl Session {
    /// A session with no animation playing, posed in the setup pose.
    pub fn new(data: Arc<SkeletonData>, skins: Vec<String>) -> Result<Session, String> {
        let fps = if data.fps.is_finite() && data.fps > 0.0 {
            data.fps.min(1000.0)
        } else {
            30.0
        };
        let (skeleton, state, recorder) = Self::fresh(&data, &skins)?;
        let mut s = Session {
            data,
            skins,
            fps,
            commands: Vec::new(),
            markers: Vec::new(),
            skeleton,
            state,
            recorder,
            frame: 0,
            partial: 0.0,
        };
        s.settle();
        Ok(s)
    }

    fn fresh(
        data: &Arc<SkeletonData>,
        skins: &[String],
    ) -> Result<(Skeleton, AnimationState, Rc<RefCell<Recorder>>), String> {
        let mut skeleton = Skeleton::new(data.clone());
        let names: Vec<&str> = skins.iter().map(String::as_str).collect();
        skeleton
            .set_skins_by_name(&names)
            .map_err(|m| format!("unknown skin \"{}\"", crate::text::sanitize(&m)))?;
        skeleton.set_to_setup_pose();
        skeleton.update_world_transform();
        let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
        let recorder: Rc<RefCell<Recorder>> = Rc::default();
        let r = recorder.clone();
        state.add_listener(Box::new(move |st, note| {
            let mut rec = r.borrow_mut();
            let line = LogLine::Notification {
                frame: rec.frame,
                phase: rec.phase.unwrap_or(Phase::Command),
                note: LoggedNotification::capture(st, note),
            };
            rec.lines.push(line);
        }));
        Ok((skeleton, state, recorder))
    }

    /// The skeleton data being played.
    pub fn data(&self) -> &Arc<SkeletonData> {
        &self.data
    }

    /// The posed skeleton at the current time.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The animation state at the current time.
    pub fn state(&self) -> &AnimationState {
        &self.state
    }

    /// The skins in use.
    pub fn skins(&self) -> &[String] {
        &self.skins
    }

    /// Simulation steps per second (the skeleton's dopesheet fps).
    pub fn fps(&self) -> f64 {
        self.fps
    }

    /// The current frame.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The current time in seconds.
    pub fn time(&self) -> f64 {
        self.frame as f64 / self.fps + self.partial
    }

    /// The recorded commands, with the frame each was issued at.
    pub fn commands(&self) -> &[(u64, Command)] {
        &self.commands
    }

    /// Every log line up to the current time, in delivery order.
    pub fn log(&self) -> std::cell::Ref<'_, Vec<LogLine>> {
        std::cell::Ref::map(self.recorder.borrow(), |r| &r.lines)
    }

    /// The log markers with their frames.
    pub fn markers(&self) -> &[(u64, String)] {
        &self.markers
    }

    /// Replaces the markers (e.g. carried over from a previous session) and replays.
    pub fn set_markers(&mut self, markers: Vec<(u64, String)>) {
        self.markers = markers;
        let f = self.frame;
        let _ = self.rebuild();
        self.seek_frame(f);
    }

    /// Adds a log marker at the current frame (kept across replays).
    pub fn add_marker(&mut self, text: impl Into<String>) {
        let text = text.into();
        self.markers.push((self.frame, text.clone()));
        self.recorder.borrow_mut().lines.push(LogLine::Marker {
            frame: self.frame,
            text,
        });
    }

    /// Starts over: only `commands` (all at frame 0), at time 0.
    pub fn restart_with(&mut self, commands: Vec<Command>) -> Result<(), String> {
        self.commands = commands.into_iter().map(|c| (0, c)).collect();
        self.markers.clear();
        self.rebuild()
    }

    /// Replaces the recorded commands (frame, command) and replays to the current frame.
    pub fn set_commands(&mut self, commands: Vec<(u64, Command)>) {
        let f = self.frame;
        self.commands = commands;
        // Rebuilding with the same skins cannot fail: they resolved before.
        let _ = self.rebuild();
        self.seek_frame(f);
    }

    /// Switches skins (empty = default skin only) and replays to the current frame.
    pub fn set_skins(&mut self, skins: Vec<String>) -> Result<(), String> {
        Self::fresh(&self.data, &skins)?;
        let f = self.frame;
        self.skins = skins;
        self.rebuild()?;
        self.seek_frame(f);
        Ok(())
    }

    /// Runs a command now (at the current whole frame) and records it for replays.
    pub fn push(&mut self, command: Command) -> Result<(), String> {
        command.validate(&self.data)?;
        if self.partial != 0.0 {
            // Commands are issued on whole frames.
            let f = self.frame;
            self.seek_frame(f);
        }
        self.commands.push((self.frame, command.clone()));
        self.recorder.borrow_mut().phase = Some(Phase::Command);
        command.execute(&mut self.state);
        self.settle();
        Ok(())
    }

    /// Removes every recorded command issued after the current frame (a new branch of time).
    pub fn truncate_future(&mut self) {
        let f = self.frame;
        self.commands.retain(|(cf, _)| *cf <= f);
        self.markers.retain(|(mf, _)| *mf <= f);
    }

    /// Applies the state without advancing time (after commands), so the pose shows them.
    fn settle(&mut self) {
        self.recorder.borrow_mut().phase = Some(Phase::Update);
        self.state.update(0.0);
        self.recorder.borrow_mut().phase = Some(Phase::Apply);
        self.state.apply(&mut self.skeleton);
        self.skeleton.update_world_transform();
    }

    fn rebuild(&mut self) -> Result<(), String> {
        let (skeleton, state, recorder) = Self::fresh(&self.data, &self.skins)?;
        self.skeleton = skeleton;
        self.state = state;
        self.recorder = recorder;
        self.frame = 0;
        self.partial = 0.0;
        self.run_commands_at(0);
        self.settle();
        Ok(())
    }

    fn run_commands_at(&mut self, frame: u64) {
        self.recorder.borrow_mut().frame = frame;
        for (mf, text) in &self.markers {
            if *mf == frame {
                self.recorder.borrow_mut().lines.push(LogLine::Marker {
                    frame,
                    text: text.clone(),
                });
            }
        }
        let mut ran = false;
        for k in 0..self.commands.len() {
            if self.commands[k].0 == frame {
                self.recorder.borrow_mut().phase = Some(Phase::Command);
                let cmd = self.commands[k].1.clone();
                cmd.execute(&mut self.state);
                ran = true;
            }
        }
        if ran && frame > 0 {
            self.settle();
        }
    }

    /// One fixed step forward.
    fn step(&mut self) {
        let dt = 1.0 / self.fps;
        self.frame += 1;
        {
            let mut r = self.recorder.borrow_mut();
            r.frame = self.frame;
            r.phase = Some(Phase::Update);
        }
        self.state.update(dt);
        self.recorder.borrow_mut().phase = Some(Phase::Apply);
        self.state.apply(&mut self.skeleton);
        self.skeleton.update_world_transform();
        let f = self.frame;
        self.run_commands_at(f);
    }

    /// Moves to whole frame `frame`, replaying from 0 when going back.
    pub fn seek_frame(&mut self, frame: u64) {
        let frame = frame.min(MAX_FRAMES);
        if frame < self.frame || self.partial != 0.0 {
            // Rebuilding with the same skins cannot fail: they resolved before.
            let _ = self.rebuild();
        }
        while self.frame < frame {
            self.step();
        }
    }

    /// Moves to `time` seconds: whole frames, then one partial step for the remainder.
    pub fn seek_time(&mut self, time: f64) {
        let time = if time.is_finite() { time.max(0.0) } else { 0.0 };
        let exact = time * self.fps;
        let whole = exact.floor();
        let rest = (exact - whole) / self.fps;
        self.seek_frame(whole as u64);
        if rest > 1e-9 && self.frame < MAX_FRAMES {
            self.recorder.borrow_mut().phase = Some(Phase::Update);
            self.state.update(rest);
            self.recorder.borrow_mut().phase = Some(Phase::Apply);
            self.state.apply(&mut self.skeleton);
            self.skeleton.update_world_transform();
            self.partial = rest;
        }
    }

    /// Advances by `frames` whole frames.
    pub fn advance(&mut self, frames: u64) {
        let target = self.frame.saturating_add(frames);
        self.seek_frame(target);
    }
}

#[cfg(test)]
mod tests;
