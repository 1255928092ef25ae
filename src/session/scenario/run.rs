//! Running a scenario: its steps as session commands on one skeleton and state, with the
//! official runtimes' frame order (`update(dt)`, `apply`, `skeleton.update(dt)`, world
//! transforms with physics), every callback and checkpoint handed out as it happens.

use super::{MAX_FRAMES, Scenario, ScenarioError, StepInput, StepProblem, default_skins};
use crate::core::model::SkeletonData;
use crate::core::skeleton::Skeleton;
use crate::core::snapshot::PoseSnapshot;
use crate::core::state::{AnimationState, AnimationStateData, EntryId, LoggedNotification};
use crate::session::Command;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// One delivered notification with where in the scenario it happened.
#[derive(Clone, Debug)]
pub struct Callback {
    pub step: usize,
    pub frame: u64,
    pub phase: String,
    pub note: LoggedNotification,
}

/// Track state at a checkpoint.
#[derive(Clone, Debug)]
pub struct TrackState {
    pub track: usize,
    pub entry: u64,
    pub animation: String,
    pub track_time: f64,
    pub animation_time: f64,
    pub delay: f64,
    pub mix_time: f64,
    pub mix_duration: f64,
    pub from: Vec<u64>,
    pub next: Vec<u64>,
}

/// A pose record after a frame.
#[derive(Clone)]
pub struct Checkpoint {
    pub frame: u64,
    pub step: usize,
    pub time: f64,
    pub tracks: Vec<Option<TrackState>>,
    pub pose: PoseSnapshot,
}

/// The result of a run.
pub struct ScenarioRun {
    pub data: Arc<SkeletonData>,
    pub scenario: Scenario,
    pub skins: Vec<String>,
    pub frames: u64,
    pub callbacks: Vec<Callback>,
    pub checkpoints: Vec<Checkpoint>,
}

#[derive(Default)]
struct Context {
    step: usize,
    frame: u64,
    phase: String,
    log: Vec<Callback>,
}

fn tracks_of(state: &AnimationState) -> Vec<Option<TrackState>> {
    state
        .tracks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let e = state.entry((*t)?)?;
            let mut from = Vec::new();
            let mut f = e.mixing_from;
            while let Some(id) = f {
                from.push(id.serial);
                f = state.entry(id).and_then(|x| x.mixing_from);
            }
            let mut next = Vec::new();
            let mut n = e.next;
            while let Some(id) = n {
                next.push(id.serial);
                n = state.entry(id).and_then(|x| x.next);
            }
            Some(TrackState {
                track: i,
                entry: e.id.serial,
                animation: state.animation_name(e.id).to_string(),
                track_time: e.track_time,
                animation_time: e.animation_time(),
                delay: e.delay,
                mix_time: e.mix_time,
                mix_duration: e.mix_duration,
                from,
                next,
            })
        })
        .collect()
}

/// One record of a run, handed out as soon as it exists.
pub enum Record<'a> {
    Callback(&'a Callback),
    Checkpoint(&'a Checkpoint),
}

/// What a run reports besides its records.
pub struct RunSummary {
    pub skins: Vec<String>,
    pub frames: u64,
}

/// An error of a streamed run: the scenario's (a message) or the sink's.
pub enum StreamError<E> {
    Scenario(ScenarioError),
    Sink(E),
}

/// Runs a scenario against `data` (the skeleton it names), collecting every record.
pub fn run(scenario: Scenario, data: Arc<SkeletonData>) -> Result<ScenarioRun, ScenarioError> {
    let mut callbacks = Vec::new();
    let mut checkpoints = Vec::new();
    let summary = run_streamed(&scenario, &data, &mut |r: Record<'_>| {
        match r {
            Record::Callback(c) => callbacks.push(c.clone()),
            Record::Checkpoint(c) => checkpoints.push(c.clone()),
        }
        Ok::<(), std::convert::Infallible>(())
    })
    .map_err(|e| match e {
        StreamError::Scenario(e) => e,
        StreamError::Sink(never) => match never {},
    })?;
    Ok(ScenarioRun {
        data,
        scenario,
        skins: summary.skins,
        frames: summary.frames,
        callbacks,
        checkpoints,
    })
}

/// Runs a scenario, handing each callback and checkpoint to `sink` as it is produced, so
/// memory does not grow with the number of frames.
pub fn run_streamed<E>(
    scenario: &Scenario,
    data: &Arc<SkeletonData>,
    sink: &mut dyn FnMut(Record<'_>) -> Result<(), E>,
) -> Result<RunSummary, StreamError<E>> {
    let data = data.clone();
    let fail = StreamError::Scenario;
    let skins = match &scenario.skin {
        Some(s) => s.clone(),
        None => default_skins(&scenario.skeleton, &data),
    };
    let physics = scenario.physics().map_err(fail)?;
    let mut skeleton = Skeleton::new(data.clone());
    let names: Vec<&str> = skins.iter().map(String::as_str).collect();
    skeleton
        .set_skins_by_name(&names)
        .map_err(|m| fail(ScenarioError::UnknownSkin(m)))?;
    skeleton.set_to_setup_pose();
    skeleton.update_world_transform();
    let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
    let ctx = Rc::new(RefCell::new(Context::default()));
    let listener_ctx = ctx.clone();
    state.add_listener(Box::new(move |st, note| {
        let mut c = listener_ctx.borrow_mut();
        let cb = Callback {
            step: c.step,
            frame: c.frame,
            phase: c.phase.clone(),
            note: LoggedNotification::capture(st, note),
        };
        c.log.push(cb);
    }));
    let mut frame: u64 = 0;
    let mut time = 0.0f64;
    let mut last_entry: Option<EntryId> = None;
    let every = scenario.checkpoint_every.max(1);
    let total_frames = scenario.total_frames();
    if total_frames > MAX_FRAMES {
        return Err(fail(ScenarioError::TooManyFrames {
            frames: total_frames,
            limit: MAX_FRAMES,
        }));
    }
    // Hands the callbacks logged so far to the sink.
    let drain = |sink: &mut dyn FnMut(Record<'_>) -> Result<(), E>| -> Result<(), StreamError<E>> {
        let logged = std::mem::take(&mut ctx.borrow_mut().log);
        for c in &logged {
            sink(Record::Callback(c)).map_err(StreamError::Sink)?;
        }
        Ok(())
    };
    for (si, step) in scenario.steps.iter().enumerate() {
        {
            let mut c = ctx.borrow_mut();
            c.step = si;
            c.phase = step.op_name().to_string();
        }
        let refused = |problem: StepProblem| fail(ScenarioError::Step { step: si, problem });
        let checkpoint =
            |frame: u64, time: f64, state: &AnimationState, skeleton: &Skeleton| Checkpoint {
                frame,
                step: si,
                time,
                tracks: tracks_of(state),
                pose: PoseSnapshot::capture(skeleton, Vec::new()),
            };
        match step.input(&data).map_err(refused)? {
            StepInput::Command(command) => {
                if let Some(entry) = command.run(&mut state) {
                    last_entry = Some(entry);
                }
            }
            StepInput::Entry(settings) => {
                let entry = last_entry.ok_or_else(|| refused(StepProblem::EntryBeforeSetAdd))?;
                for setting in settings {
                    if state.entry(entry).is_none() {
                        return Err(refused(StepProblem::EntryGone));
                    }
                    Command::EntrySetting { entry, setting }.run(&mut state);
                }
            }
            StepInput::Frames { dt, count } => {
                for _ in 0..count {
                    frame += 1;
                    time += dt;
                    ctx.borrow_mut().frame = frame;
                    ctx.borrow_mut().phase = "update".into();
                    state.update(dt);
                    ctx.borrow_mut().phase = "apply".into();
                    state.apply(&mut skeleton);
                    skeleton.update(dt);
                    skeleton.update_world_transform_with(physics);
                    drain(sink)?;
                    if frame.is_multiple_of(every) || frame == total_frames {
                        let c = checkpoint(frame, time, &state, &skeleton);
                        sink(Record::Checkpoint(&c)).map_err(StreamError::Sink)?;
                    }
                }
            }
            StepInput::Apply => {
                ctx.borrow_mut().phase = "apply".into();
                state.apply(&mut skeleton);
                skeleton.update_world_transform_with(physics);
            }
            StepInput::Checkpoint => {
                let c = checkpoint(frame, time, &state, &skeleton);
                sink(Record::Checkpoint(&c)).map_err(StreamError::Sink)?;
            }
        }
        drain(sink)?;
    }
    // Dropping the state may still notify (disposed entries).
    drop(state);
    drain(sink)?;
    Ok(RunSummary {
        skins,
        frames: frame,
    })
}
