//! A playback session: the animation state driven frame by frame, deterministically.
//!
//! The debugger must show the right pose and the right event log at any time the user lands
//! on, however they got there. A session never "rewinds" the runtime: it records the user's
//! inputs with the frame they were issued on and reaches any frame by replaying them with the
//! same fixed steps, from the nearest [checkpoint] at or before it.
//!
//! # A frame
//!
//! Frame `f` is one function of (skeleton data, skins, inputs); live play and replay both
//! reach it through the same private functions (step, then inputs), never any other way:
//!
//! 1. frame 0 starts from a fresh skeleton in its setup pose and an empty animation state,
//!    settled (`update(0)`, `apply`, world transforms); frame `f > 0` starts with one time
//!    step from frame `f - 1`: `update(1/fps)`, `apply`, `skeleton.update(1/fps)`, world
//!    transforms with physics in the session's mode (the official runtimes' order, and the
//!    `scenario` command's).
//! 2. (a checkpoint of frame `f` may be taken here)
//! 3. every input of frame `f` runs, in the order it was issued: a command executes and
//!    then settles the state (`update(0)`, `apply`, world transforms), so the next command of
//!    the same frame sees the previous one applied, exactly as when the user typed them one
//!    after the other; a marker is appended to the log.
//!
//! A command issued live runs step 3 for that one input at the current frame, with the very
//! same function a replay uses. Terminal-free: the TUI, the `session` command and tests
//! drive it.

pub mod checkpoint;
mod command;
mod entry_property;
mod error;
mod frame_index;
mod input;
pub mod language;
pub mod opening;
pub mod playhead;
pub mod recorded;
mod recorder;
pub mod recording;
pub mod report;
pub mod scenario;
pub mod script;
pub mod work_bound;

pub use command::{Command, EntrySetting, MAX_TRACKS, physics_name};
pub use entry_property::{EntryPropertyError, entry_setting};
pub use error::{CommandError, SessionError};
pub use frame_index::frame_index;
pub use input::{Input, Inputs};
pub use recorder::{DEFAULT_LOG_MIB, budget_lines as log_budget_lines};

use crate::core::model::SkeletonData;
use crate::core::skeleton::{Physics, Skeleton};
use crate::core::state::{AnimationState, AnimationStateData, LoggedNotification};
use checkpoint::{Checkpoint, Checkpoints};
use recorded::RecordedClock;
use recorder::Recorder;
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

/// The most frames a session simulates (about 9 hours at 30 fps); seeks beyond are clamped.
pub const MAX_FRAMES: u64 = 1_000_000;

pub use work_bound::{DEFAULT_SEEK_WORK, seek_work_limit};

/// A deterministic playback of user inputs on one skeleton.
pub struct Session {
    data: Arc<SkeletonData>,
    skins: Vec<String>,
    /// Simulation steps per second.
    fps: f64,
    inputs: Inputs,
    skeleton: Skeleton,
    state: AnimationState,
    recorder: Rc<RefCell<Recorder>>,
    frame: u64,
    /// Extra time past `frame` (a seek between frames); any further move restores `frame`.
    partial: f64,
    checkpoints: Checkpoints,
    /// While at a partial time: the log lines past the whole frame, put back on leaving.
    stashed_future: (usize, Vec<LogLine>),
    /// How frames run physics constraints (changed by [`Command::PhysicsMode`]).
    physics: Physics,
    /// Commands a reload could not keep (their animation vanished), with the data they were
    /// issued on: a later reload that brings the animation back restores them.
    parked: Vec<(u64, Command, Arc<SkeletonData>)>,
    /// Longest a seek may run before returning with the rest left in `pending` (the viewer
    /// sets one so keys are read between slices; headless callers seek to the end).
    slice: Option<std::time::Duration>,
    /// The most bone-frames one prompt-line seek may replay (`None`: unbounded).
    seek_limit: Option<u64>,
    /// A seek not finished within `slice`: continued by [`Session::resume`].
    pending: Option<Pending>,
    /// A game's recording drives the frames ([`recorded`]); `None`: fixed steps of 1/fps.
    recorded: Option<RecordedClock>,
}

/// A seek left unfinished by a time slice.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pending {
    /// The whole frame to reach.
    frame: u64,
    /// The partial step after it (a `seek_time` between frames), in seconds.
    rest: f64,
}

/// A session moved onto reloaded data ([`Session::reloaded`]).
pub struct Reloaded {
    pub session: Session,
    /// Commands that could not be kept (described on the old data); parked for later.
    pub lost: Vec<String>,
    /// Parked commands this reload brought back (described on the new data).
    pub restored: Vec<String>,
    /// Whether a skin was lost.
    pub skin_lost: bool,
}

/// The physics mode a session starts with: the simulation runs, as in the runtimes' players.
pub const DEFAULT_PHYSICS: Physics = Physics::Update;

impl Session {
    /// A session with no animation playing, posed in the setup pose.
    pub fn new(data: Arc<SkeletonData>, skins: Vec<String>) -> Result<Session, SessionError> {
        Self::build(data, skins, None)
    }

    /// A session whose frames are a game's (`bonescope attach`, [`recorded`]): its inputs
    /// are the game's calls, `update(dt)` and `apply` included, appended with
    /// [`Session::append_frame`].
    pub fn recorded(data: Arc<SkeletonData>, skins: Vec<String>) -> Result<Session, SessionError> {
        Self::build(data, skins, Some(RecordedClock::default()))
    }

    /// True for a session driven by a game's recording.
    pub fn is_recorded(&self) -> bool {
        self.recorded.is_some()
    }

    fn build(
        data: Arc<SkeletonData>,
        skins: Vec<String>,
        recorded: Option<RecordedClock>,
    ) -> Result<Session, SessionError> {
        let fps = if data.fps.is_finite() && data.fps > 0.0 {
            data.fps.min(1000.0)
        } else {
            30.0
        };
        let (skeleton, state) = Self::fresh(&data, &skins)?;
        let mut s = Session {
            data,
            skins,
            fps,
            inputs: Inputs::default(),
            skeleton,
            state,
            recorder: Rc::default(),
            frame: 0,
            partial: 0.0,
            checkpoints: Checkpoints::default(),
            stashed_future: (0, Vec::new()),
            physics: DEFAULT_PHYSICS,
            parked: Vec::new(),
            slice: None,
            seek_limit: None,
            pending: None,
            recorded,
        };
        s.start();
        Ok(s)
    }

    /// A session replaying `inputs` (frame, input), at frame 0.
    pub fn with_inputs(
        data: Arc<SkeletonData>,
        skins: Vec<String>,
        inputs: Vec<(u64, Input)>,
    ) -> Result<Session, SessionError> {
        let mut s = Session::new(data, skins)?;
        s.set_inputs(inputs);
        Ok(s)
    }

    fn fresh(
        data: &Arc<SkeletonData>,
        skins: &[String],
    ) -> Result<(Skeleton, AnimationState), SessionError> {
        let mut skeleton = Skeleton::new(data.clone());
        let names: Vec<&str> = skins.iter().map(String::as_str).collect();
        skeleton
            .set_skins_by_name(&names)
            .map_err(SessionError::UnknownSkin)?;
        skeleton.set_to_setup_pose();
        skeleton.update_world_transform();
        let state = AnimationState::new(AnimationStateData::new(data.clone()));
        Ok((skeleton, state))
    }

    /// Registers the log's listener on `self.state` (fresh or restored without listeners).
    fn listen(&mut self) {
        let r = self.recorder.clone();
        self.state.add_listener(Box::new(move |st, note| {
            let nested: Vec<Command> = {
                let mut rec = r.borrow_mut();
                let line = LogLine::Notification {
                    frame: rec.frame,
                    phase: rec.phase.unwrap_or(Phase::Command),
                    note: LoggedNotification::capture(st, note),
                };
                rec.push(line);
                rec.in_frame += 1;
                let mut due = Vec::new();
                while rec.nested.front().is_some_and(|(a, _)| *a <= rec.in_frame) {
                    if let Some((_, c)) = rec.nested.pop_front() {
                        due.push(c);
                    }
                }
                due
            };
            // The game's calls from inside its listener, at the same point of the drain.
            for c in &nested {
                c.execute(st);
            }
        }));
    }

    /// Frame 0 from scratch (the state is already fresh): settle, checkpoint, run its inputs.
    fn start(&mut self) {
        {
            self.recorder.borrow_mut().reset();
        }
        self.listen();
        self.frame = 0;
        self.partial = 0.0;
        self.physics = DEFAULT_PHYSICS;
        self.recorder.borrow_mut().start_frame(0);
        match &mut self.recorded {
            Some(clock) => *clock = RecordedClock::default(),
            None => self.settle(),
        }
        self.checkpoint_if_wanted();
        self.run_inputs_of_frame();
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

    /// How the current frame ran physics constraints.
    pub fn physics(&self) -> Physics {
        self.physics
    }

    /// The current frame.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The current time in seconds.
    pub fn time(&self) -> f64 {
        match &self.recorded {
            Some(clock) => clock.elapsed,
            None => self.frame as f64 / self.fps + self.partial,
        }
    }

    /// Every recorded input, in replay order.
    pub fn inputs(&self) -> &[(u64, Input)] {
        self.inputs.list()
    }

    /// The recorded commands, with the frame each was issued at.
    pub fn commands(&self) -> impl Iterator<Item = (u64, &Command)> {
        self.inputs.list().iter().filter_map(|(f, i)| match i {
            Input::Command(c) | Input::Nested { command: c, .. } => Some((*f, c)),
            Input::Marker(_) => None,
        })
    }

    /// Every log line up to the current time that the log's budget kept, in delivery order
    /// (see [`Session::log_dropped`]).
    pub fn log(&self) -> std::cell::Ref<'_, [LogLine]> {
        std::cell::Ref::map(self.recorder.borrow(), |r| r.visible())
    }

    /// How many of the oldest log lines up to the current time the log's memory budget
    /// dropped (`BONESCOPE_LOG_MIB`, [`DEFAULT_LOG_MIB`] MiB by default): [`Session::log`]
    /// is the whole log without them. Shown as "log truncated: N oldest dropped".
    pub fn log_dropped(&self) -> usize {
        self.recorder.borrow().dropped()
    }

    /// (checkpoints held, frames between them); near checkpoints (see [`Checkpoints`]) not
    /// counted.
    pub fn checkpoint_stats(&self) -> (usize, u64) {
        (self.checkpoints.len(), self.checkpoints.interval())
    }

    /// Replaces every recorded input (e.g. carried over from a previous session) and replays
    /// to the current frame.
    pub fn set_inputs(&mut self, inputs: Vec<(u64, Input)>) {
        self.inputs = Inputs::from_list(inputs);
        let f = self.frame;
        self.leave_partial();
        self.checkpoints.invalidate_after(0);
        self.restore(0);
        self.recorder.borrow_mut().drop_future();
        self.reach_frame(f);
    }

    /// The same session on reloaded data, at the same frame: commands replayed with their
    /// animations matched by name (after `rename`, old name to new), markers kept, then a
    /// marker `note` at the current frame. Commands whose animation vanished are parked
    /// and come back, at their frames, when a later reload brings the animation back.
    pub fn reloaded(
        &self,
        data: Arc<SkeletonData>,
        rename: &dyn Fn(&str) -> String,
        note: &str,
    ) -> Result<Reloaded, SessionError> {
        let old = &self.data;
        let mut lost = Vec::new();
        let mut parked = Vec::new();
        let mut inputs = Vec::new();
        for (f, input) in self.inputs() {
            match input {
                Input::Command(c) => match c.remap(old, &data, rename) {
                    Some(c) => inputs.push((*f, Input::Command(c))),
                    None => {
                        lost.push(c.describe(old));
                        parked.push((*f, c.clone(), old.clone()));
                    }
                },
                Input::Marker(_) => inputs.push((*f, input.clone())),
                Input::Nested { after, command } => match command.remap(old, &data, rename) {
                    Some(c) => inputs.push((
                        *f,
                        Input::Nested {
                            after: *after,
                            command: c,
                        },
                    )),
                    None => lost.push(command.describe(old)),
                },
            }
        }
        let mut restored = Vec::new();
        let same = |n: &str| n.to_string();
        for (f, c, was) in &self.parked {
            match c.remap(was, &data, &same) {
                Some(c) => {
                    restored.push(c.describe(&data));
                    inputs.push((*f, Input::Command(c)));
                }
                None => parked.push((*f, c.clone(), was.clone())),
            }
        }
        // `set_inputs` sorts stably: restored commands go after the kept ones of their frame.
        let skins: Vec<String> = self
            .skins
            .iter()
            .filter(|s| data.find_skin(s).is_some())
            .cloned()
            .collect();
        let skin_lost = skins.len() != self.skins.len();
        let mut session =
            Session::build(data, skins, self.recorded.map(|_| RecordedClock::default()))?;
        session.set_inputs(inputs);
        session.parked = parked;
        session.seek_frame(self.frame);
        session.add_marker(note);
        Ok(Reloaded {
            session,
            lost,
            restored,
            skin_lost,
        })
    }

    /// Starts over: only `commands` (all at frame 0), at time 0.
    pub fn restart_with(&mut self, commands: Vec<Command>) -> Result<(), SessionError> {
        for c in &commands {
            c.validate(&self.data)?;
        }
        self.frame = 0;
        self.set_inputs(
            commands
                .into_iter()
                .map(|c| (0, Input::Command(c)))
                .collect(),
        );
        Ok(())
    }

    /// Switches skins (empty = default skin only) and replays to the current frame.
    pub fn set_skins(&mut self, skins: Vec<String>) -> Result<(), SessionError> {
        let (skeleton, state) = Self::fresh(&self.data, &skins)?;
        let f = self.frame;
        self.skins = skins;
        self.skeleton = skeleton;
        self.state = state;
        self.checkpoints.clear();
        self.start();
        self.reach_frame(f);
        Ok(())
    }

    /// Runs a command now (at the current whole frame) and records it for replays.
    pub fn push(&mut self, command: Command) -> Result<(), SessionError> {
        command.validate(&self.data)?;
        self.record(Input::Command(command));
        Ok(())
    }

    /// Adds a log marker at the current frame (kept across replays).
    pub fn add_marker(&mut self, text: impl Into<String>) {
        self.record(Input::Marker(text.into()));
    }

    /// Records `input` as the last of the current whole frame and runs it (step 3 of a
    /// frame, the same function a replay runs).
    fn record(&mut self, input: Input) {
        // An input lands where the session is, not where an unfinished seek was going.
        self.pending = None;
        if self.partial != 0.0 {
            // Inputs are issued on whole frames.
            let f = self.frame;
            self.reach_frame(f);
        }
        self.inputs.push(self.frame, input.clone());
        self.checkpoints.invalidate_after(self.frame);
        self.recorder.borrow_mut().drop_future();
        self.run_input(&input);
    }

    /// Removes every recorded input issued after the current frame (a new branch of time).
    pub fn truncate_future(&mut self) {
        let f = self.frame;
        self.reach_frame(f);
        self.inputs.truncate_after(self.frame);
        self.checkpoints.invalidate_after(self.frame);
        self.recorder.borrow_mut().drop_future();
    }

    /// Applies the state without advancing time (after commands), so the pose shows them.
    fn settle(&mut self) {
        self.recorder.borrow_mut().phase = Some(Phase::Update);
        self.state.update(0.0);
        self.recorder.borrow_mut().phase = Some(Phase::Apply);
        self.state.apply(&mut self.skeleton);
        self.skeleton
            .update_world_transform_with(Self::posing(self.physics));
    }

    /// The mode of a pass that does not advance time: the simulation's offsets shown as
    /// they are (an update would treat the settle's bone moves as motion without time).
    fn posing(mode: Physics) -> Physics {
        match mode {
            Physics::None => Physics::None,
            _ => Physics::Pose,
        }
    }

    /// Step 3 of a frame for one input.
    fn run_input(&mut self, input: &Input) {
        let frame = self.frame;
        if let (Input::Command(cmd), Some(_)) = (input, self.recorded) {
            self.run_recorded(cmd);
            return;
        }
        match input {
            // Queued by `run_inputs_of_frame`; the listener runs them.
            Input::Nested { .. } => {}
            Input::Command(cmd) => {
                {
                    let mut r = self.recorder.borrow_mut();
                    r.frame = frame;
                    r.phase = Some(Phase::Command);
                }
                match cmd {
                    Command::PhysicsMode { mode } => self.physics = *mode,
                    Command::ResetPhysics => self.skeleton.reset_physics(),
                    Command::Apply => {
                        self.state.apply(&mut self.skeleton);
                    }
                    Command::SetSkins { skins } => {
                        let names: Vec<&str> = skins.iter().map(String::as_str).collect();
                        // An unknown name leaves the skins as they were (validated upstream).
                        let _ = self.skeleton.set_skins_by_name(&names);
                    }
                    _ => cmd.execute(&mut self.state),
                }
                self.settle();
            }
            Input::Marker(text) => self.recorder.borrow_mut().push(LogLine::Marker {
                frame,
                text: text.clone(),
            }),
        }
    }

    /// A game's call, as the game made it (no settle): `update(dt)` and `apply` are the
    /// game's own.
    fn run_recorded(&mut self, cmd: &Command) {
        let phase = match cmd {
            Command::Update { .. } => Phase::Update,
            Command::Apply => Phase::Apply,
            _ => Phase::Command,
        };
        {
            let mut r = self.recorder.borrow_mut();
            r.frame = self.frame;
            r.phase = Some(phase);
        }
        match cmd {
            Command::Update { dt } => {
                if let Some(clock) = &mut self.recorded {
                    clock.advance(*dt);
                }
                self.state.update(*dt);
            }
            Command::Apply => {
                let dt = self.recorded.map_or(0.0, |c| c.dt);
                self.state.apply(&mut self.skeleton);
                self.skeleton.update(dt);
                self.skeleton.update_world_transform_with(self.physics);
            }
            Command::PhysicsMode { mode } => self.physics = *mode,
            Command::ResetPhysics => self.skeleton.reset_physics(),
            Command::SetSkins { skins } => {
                let names: Vec<&str> = skins.iter().map(String::as_str).collect();
                let _ = self.skeleton.set_skins_by_name(&names);
            }
            _ => cmd.execute(&mut self.state),
        }
    }

    fn run_inputs_of_frame(&mut self) {
        let inputs: Vec<Input> = self
            .inputs
            .at(self.frame)
            .iter()
            .map(|(_, i)| i.clone())
            .collect();
        {
            let mut r = self.recorder.borrow_mut();
            r.nested = inputs
                .iter()
                .filter_map(|i| match i {
                    Input::Nested { after, command } => Some((*after, command.clone())),
                    _ => None,
                })
                .collect();
        }
        for input in &inputs {
            self.run_input(input);
        }
    }

    fn checkpoint_if_wanted(&mut self) {
        let regular = self.checkpoints.wants(self.frame);
        if regular || self.checkpoints.wants_near(self.frame) {
            let cp = Checkpoint {
                frame: self.frame,
                skeleton: self.skeleton.clone(),
                state: self.state.clone_without_listeners(),
                physics: self.physics,
                log_len: self.recorder.borrow().len,
                clock: self.recorded.unwrap_or_default(),
            };
            if regular {
                self.checkpoints.insert(cp);
            } else {
                self.checkpoints.insert_near(cp);
            }
        }
    }

    /// Back to the whole frame's log after a partial seek (the caller restores the state).
    fn leave_partial(&mut self) {
        if self.partial == 0.0 {
            return;
        }
        let stashed = std::mem::take(&mut self.stashed_future);
        self.recorder.borrow_mut().unstash(stashed);
        self.partial = 0.0;
    }

    /// True when the world transforms of the rig follow from its pose alone, so a frame's
    /// world pass can be left out when nothing observes it: no physics constraint (they carry
    /// a simulation from pass to pass) and no 4.3 slider (it poses slots and bones inside
    /// the pass). Every other part of the pass is a function of the pose and constraint
    /// values the animation state sets before it, and the state never reads a world transform.
    fn world_follows_pose(&self) -> bool {
        self.data.physics_constraints.is_empty() && self.data.slider_constraints.is_empty()
    }

    /// Whether the frame just stepped to (`self.frame`), on the way to `target`, needs its
    /// world pass: it is the target, its inputs run (they may read or settle the pose), a
    /// checkpoint is taken there, or the pass carries state to later frames.
    fn world_pass_observed(&self, target: u64) -> bool {
        self.frame >= target
            || !self.world_follows_pose()
            || !self.inputs.at(self.frame).is_empty()
            || self.checkpoints.wants(self.frame)
            || self.checkpoints.wants_near(self.frame)
    }

    /// One fixed step forward: steps 1 to 3 of the next frame. On the way to `target`, the
    /// world pass of a frame nothing observes is left out ([`Session::world_pass_observed`]):
    /// replaying a seek then costs about half as much, and the pose, state and log reached are
    /// the same as a step-by-step play's (`tests/goldens/session_replay.rs` compares them).
    /// Returns false when the world pass was left out.
    fn step(&mut self, target: u64) -> bool {
        let dt = 1.0 / self.fps;
        self.frame += 1;
        {
            let mut r = self.recorder.borrow_mut();
            r.start_frame(self.frame);
            r.phase = Some(Phase::Update);
        }
        if self.recorded.is_some() {
            // The game's update and apply are the frame's inputs.
            self.checkpoint_if_wanted();
            self.run_inputs_of_frame();
            self.recorder.borrow_mut().enforce_budget();
            return true;
        }
        self.state.update(dt);
        self.recorder.borrow_mut().phase = Some(Phase::Apply);
        self.state.apply(&mut self.skeleton);
        self.skeleton.update(dt);
        let world = self.world_pass_observed(target);
        if world {
            self.skeleton.update_world_transform_with(self.physics);
        }
        self.checkpoint_if_wanted();
        self.run_inputs_of_frame();
        // A whole frame: the log's budget drops lines at frame ends only.
        self.recorder.borrow_mut().enforce_budget();
        world
    }

    /// Puts the session at the latest checkpoint at or before `frame` (its inputs run).
    fn restore(&mut self, frame: u64) {
        self.leave_partial();
        let Some(cp) = self.checkpoints.at_or_before(frame) else {
            // No checkpoint (none taken yet): frame 0 from scratch. The skins resolved before.
            if let Ok((skeleton, state)) = Self::fresh(&self.data, &self.skins) {
                self.skeleton = skeleton;
                self.state = state;
            }
            self.start();
            return;
        };
        self.skeleton = cp.skeleton.clone();
        self.state = cp.state.clone_without_listeners();
        self.physics = cp.physics;
        self.frame = cp.frame;
        self.partial = 0.0;
        if let Some(clock) = &mut self.recorded {
            *clock = cp.clock;
        }
        let log_len = cp.log_len;
        {
            let mut r = self.recorder.borrow_mut();
            r.rewind_to(log_len);
            r.start_frame(self.frame);
        }
        self.listen();
        self.run_inputs_of_frame();
    }

    /// Moves to whole frame `frame`: from the current one when it is before and no
    /// checkpoint lies between, else from the nearest checkpoint at or before it. With a
    /// [time slice](Session::set_slice) it may return early: see [`Session::pending`].
    pub fn seek_frame(&mut self, frame: u64) {
        self.seek(Pending {
            frame: frame.min(MAX_FRAMES),
            rest: 0.0,
        });
    }

    /// Reaches `frame` whatever the time slice (inputs must land on that very frame).
    fn reach_frame(&mut self, frame: u64) {
        self.pending = None;
        self.walk(frame.min(MAX_FRAMES), None);
    }

    /// Restores and steps towards `frame`; stops at `deadline`. True when it got there.
    fn walk(&mut self, frame: u64, deadline: Option<std::time::Instant>) -> bool {
        let here = self.partial == 0.0 && self.frame <= frame;
        let nearest = self.checkpoints.at_or_before(frame).map(|c| c.frame);
        if !here || nearest.is_some_and(|c| c > self.frame) {
            self.restore(frame);
        }
        while self.frame < frame {
            // At least one step per slice, so every slice makes progress.
            let world = self.step(frame);
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) && self.frame < frame {
                // The session stops here for now: its world transforms are shown. Left
                // out, the pass is a function of the pose, so running it late is the same.
                if !world {
                    self.skeleton.update_world_transform_with(self.physics);
                }
                return false;
            }
        }
        // A restored frame's inputs ran without a step.
        self.recorder.borrow_mut().enforce_budget();
        true
    }

    /// Moves to `time` seconds: whole frames, then one partial step for the remainder.
    pub fn seek_time(&mut self, time: f64) {
        let time = if time.is_finite() { time.max(0.0) } else { 0.0 };
        let exact = time * self.fps;
        // `seek 0.7` at 30 fps is frame 21 (0.7 * 30 = 20.999999999999996), not frame 20
        // plus a partial step of nearly one frame.
        let whole = frame_index(time, self.fps);
        let rest = (exact - whole).max(0.0) / self.fps;
        self.seek(Pending {
            frame: (whole as u64).min(MAX_FRAMES),
            rest,
        });
    }

    /// Runs a seek, within the time slice if there is one.
    fn seek(&mut self, to: Pending) {
        self.pending = None;
        let deadline = self.slice.map(|s| std::time::Instant::now() + s);
        // A short way back leaves near checkpoints behind it for the next steps back.
        self.checkpoints.begin_near(self.frame, to.frame);
        let done = self.walk(to.frame, deadline);
        self.checkpoints.end_near();
        if done {
            self.partial_step(to.rest);
        } else {
            self.pending = Some(to);
        }
    }

    /// The partial step of a seek between frames.
    fn partial_step(&mut self, rest: f64) {
        // A recorded session's frames are the game's: no partial step between them.
        if self.recorded.is_none() && rest > 1e-9 && self.frame < MAX_FRAMES {
            // The partial step's lines are not the next frame's: keep the future aside.
            self.stashed_future = self.recorder.borrow_mut().stash_future();
            self.recorder.borrow_mut().phase = Some(Phase::Update);
            self.state.update(rest);
            self.recorder.borrow_mut().phase = Some(Phase::Apply);
            self.state.apply(&mut self.skeleton);
            self.skeleton.update(rest);
            self.skeleton.update_world_transform_with(self.physics);
            self.partial = rest;
        }
    }

    /// The frame a seek to whole frame `frame` replays from (here, or the checkpoint it
    /// restores).
    fn seek_start(&self, frame: u64) -> u64 {
        let nearest = self.checkpoints.at_or_before(frame).map_or(0, |c| c.frame);
        if self.partial == 0.0 && self.frame <= frame {
            self.frame.max(nearest)
        } else {
            nearest
        }
    }

    /// Frames a seek to whole frame `frame` replays (from here or the checkpoint it would
    /// start from).
    pub fn seek_frames(&self, frame: u64) -> u64 {
        let frame = frame.min(MAX_FRAMES);
        frame - self.seek_start(frame)
    }

    /// Bounds every seek a [prompt line](playhead::run_line) or [`Session::check_seek`]
    /// asks for to `limit` bone-frames ([`work_bound`]); `None` (the default) bounds nothing:
    /// the viewer slices its seeks instead. Headless commands set
    /// [`seek_work_limit`].
    pub fn set_seek_limit(&mut self, limit: Option<u64>) {
        self.seek_limit = limit;
    }

    /// Refuses a seek to whole frame `frame` whose work is beyond the
    /// [seek limit](Session::set_seek_limit), saying how big it is and how to allow it.
    pub fn check_seek(&self, frame: u64) -> Result<(), SessionError> {
        let frame = frame.min(MAX_FRAMES);
        self.check_frames(frame, self.seek_frames(frame))
    }

    /// Refuses playing `frames` frames on from here when that is beyond the seek limit.
    pub fn check_play(&self, frames: u64) -> Result<(), SessionError> {
        let to = self.pending().unwrap_or(self.frame).saturating_add(frames);
        self.check_frames(to.min(MAX_FRAMES), frames)
    }

    /// Refuses replaying from frame 0 to here (a skin change) when that is beyond the seek
    /// limit.
    pub fn check_replay(&self) -> Result<(), SessionError> {
        self.check_frames(self.frame, self.frame)
    }

    fn check_frames(&self, to: u64, frames: u64) -> Result<(), SessionError> {
        let Some(limit) = self.seek_limit else {
            return Ok(());
        };
        work_bound::check(
            || format!("reaching frame {to} replays"),
            frames,
            &self.data,
            limit,
        )
        .map_err(SessionError::SeekTooLong)
    }

    /// Lets seeks return after about `slice` of work with the rest pending (`None`: every
    /// seek runs to its end, as headless commands need).
    pub fn set_slice(&mut self, slice: Option<std::time::Duration>) {
        self.slice = slice;
    }

    /// The frame an unfinished seek is going to (the session is at [`Session::frame`],
    /// a whole frame on the way, consistent in every respect).
    pub fn pending(&self) -> Option<u64> {
        self.pending.map(|p| p.frame)
    }

    /// Continues an unfinished seek for one more slice. True while still unfinished.
    pub fn resume(&mut self) -> bool {
        match self.pending.take() {
            Some(to) => {
                self.seek(to);
                self.pending.is_some()
            }
            None => false,
        }
    }

    /// Gives up an unfinished seek: the session stays on the frame it reached.
    pub fn cancel_pending(&mut self) {
        self.pending = None;
    }

    /// Appends a recorded frame's inputs (a game's calls, [`recorded`]) after those already
    /// at `frame`; when the session is at or past `frame` it replays to where it was.
    pub fn append_frame(&mut self, frame: u64, inputs: Vec<Input>) {
        let frame = frame.min(MAX_FRAMES);
        for i in inputs {
            self.inputs.push(frame, i);
        }
        self.checkpoints.invalidate_after(frame);
        if self.frame >= frame {
            let here = self.frame;
            self.restore(frame);
            self.recorder.borrow_mut().drop_future();
            self.seek_frame(here);
        } else {
            self.recorder.borrow_mut().drop_future_from(frame);
        }
    }

    /// The last frame with inputs (0 without any).
    pub fn last_input_frame(&self) -> u64 {
        self.inputs.list().last().map_or(0, |(f, _)| *f)
    }

    /// Advances by `frames` whole frames.
    pub fn advance(&mut self, frames: u64) {
        let from = self.pending().unwrap_or(self.frame);
        let target = from.saturating_add(frames);
        self.seek_frame(target);
    }
}

#[cfg(test)]
mod tests;
