//! `bonescope scenario`: run an AnimationState scenario (the format of the reference oracle's
//! `SCENARIOS.md`) and report every listener notification and periodic pose checkpoints.

use crate::cli::poses::{num, skeleton_with_skins};
use crate::core::animation::MixBlend;
use crate::core::model::{RuntimeVersion, SkeletonData};
use crate::core::skeleton::{Physics, Skeleton};
use crate::core::snapshot::PoseSnapshot;
use crate::core::state::{AnimationState, AnimationStateData, EntryId, LoggedNotification};
use crate::text::{sanitize, to_json_string};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;
use std::sync::Arc;

/// A scenario file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    pub name: Option<String>,
    pub description: Option<String>,
    pub skeleton: String,
    pub skin: Option<Vec<String>>,
    #[serde(default = "ten")]
    pub checkpoint_every: u64,
    #[serde(default)]
    pub vertices: bool,
    pub physics: Option<String>,
    pub steps: Vec<Step>,
}

fn ten() -> u64 {
    10
}

/// One step.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Step {
    DefaultMix {
        duration: f64,
    },
    SetMix {
        from: String,
        to: String,
        duration: f64,
    },
    TimeScale {
        value: f64,
    },
    #[serde(rename_all = "camelCase")]
    SetAnimation {
        track: usize,
        animation: String,
        #[serde(default)]
        r#loop: bool,
    },
    #[serde(rename_all = "camelCase")]
    AddAnimation {
        track: usize,
        animation: String,
        #[serde(default)]
        r#loop: bool,
        #[serde(default)]
        delay: f64,
    },
    #[serde(rename_all = "camelCase")]
    SetEmptyAnimation {
        track: usize,
        #[serde(default)]
        mix_duration: f64,
    },
    #[serde(rename_all = "camelCase")]
    AddEmptyAnimation {
        track: usize,
        #[serde(default)]
        mix_duration: f64,
        #[serde(default)]
        delay: f64,
    },
    #[serde(rename_all = "camelCase")]
    SetEmptyAnimations {
        #[serde(default)]
        mix_duration: f64,
    },
    ClearTrack {
        track: usize,
    },
    ClearTracks,
    Entry(Box<EntryProps>),
    Update {
        dt: f64,
        #[serde(default = "one")]
        count: u64,
    },
    Apply,
    Checkpoint,
}

fn one() -> u64 {
    1
}

impl Step {
    /// The step's `op` as written in scenario files (also the callback `phase` of set/add/clear).
    pub fn op_name(&self) -> &'static str {
        match self {
            Step::DefaultMix { .. } => "defaultMix",
            Step::SetMix { .. } => "setMix",
            Step::TimeScale { .. } => "timeScale",
            Step::SetAnimation { .. } => "setAnimation",
            Step::AddAnimation { .. } => "addAnimation",
            Step::SetEmptyAnimation { .. } => "setEmptyAnimation",
            Step::AddEmptyAnimation { .. } => "addEmptyAnimation",
            Step::SetEmptyAnimations { .. } => "setEmptyAnimations",
            Step::ClearTrack { .. } => "clearTrack",
            Step::ClearTracks => "clearTracks",
            Step::Entry(_) => "entry",
            Step::Update { .. } => "update",
            Step::Apply => "apply",
            Step::Checkpoint => "checkpoint",
        }
    }
}

/// Entry properties an `entry` step may set, in the order written.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct EntryProps(pub Map<String, Value>);

/// The most frames one scenario may run (a typo like `count: 1e9` must not hang).
pub const MAX_FRAMES: u64 = 1_000_000;
/// The most tracks a scenario may address.
pub const MAX_TRACK: usize = 1_000;

/// The skins a scenario uses when it names none: the oracle's rule (per-file defaults for the
/// examples with several skins when the file has that skin (3.7 hero-pro has only `default`),
/// else the first non-default skin).
pub fn default_skins(file: &str, data: &SkeletonData) -> Vec<String> {
    let known: &[(&str, &str)] = &[
        ("goblins-ess.json", "goblin"),
        ("goblins-pro.json", "goblin"),
        ("hero-pro.json", "weapon/sword"),
        ("mix-and-match-pro.json", "full-skins/girl"),
        ("chibi-stickers.json", "erikari"),
    ];
    if let Some((_, skin)) = known.iter().find(|(f, _)| *f == file)
        && data.skins.iter().any(|s| s.name == *skin)
    {
        return vec![skin.to_string()];
    }
    data.skins
        .iter()
        .find(|s| s.name != "default")
        .map(|s| vec![s.name.clone()])
        .unwrap_or_default()
}

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

fn set_entry_props(
    state: &mut AnimationState,
    id: EntryId,
    props: &Map<String, Value>,
) -> Result<(), String> {
    // Which Spine runtime's entry properties exist (4.0 adds reverse, 4.1 shortestRotation,
    // 4.2 the rest).
    let version = match state.data.skeleton.rules.version {
        RuntimeVersion::Spine40 => 40,
        RuntimeVersion::Spine41 => 41,
        RuntimeVersion::Spine42 => 42,
        RuntimeVersion::Spine43 => 43,
        _ => 38,
    };
    if state.entry(id).is_none() {
        return Err("the entry of the last set/add call no longer exists".into());
    }
    for (key, value) in props {
        // `setMixDuration: [mix, delay]` recomputes the delay through the state (4.2).
        if key == "setMixDuration" && version >= 42 {
            let pair = value.as_array().filter(|a| a.len() == 2);
            let nums: Option<Vec<f64>> = pair.map(|a| a.iter().filter_map(Value::as_f64).collect());
            let Some([mix, delay]) = nums.as_deref().and_then(|n| <[f64; 2]>::try_from(n).ok())
            else {
                return Err("setMixDuration must be [mixDuration, delay]".into());
            };
            state.set_mix_duration(id, mix, delay);
            continue;
        }
        let Some(e) = state.entry_mut(id) else {
            return Err("the entry of the last set/add call no longer exists".into());
        };
        if key == "comment" {
            continue;
        }
        let number = || {
            value
                .as_f64()
                .ok_or_else(|| format!("entry property \"{}\" must be a number", sanitize(key)))
        };
        let boolean = || {
            value.as_bool().ok_or_else(|| {
                format!("entry property \"{}\" must be true or false", sanitize(key))
            })
        };
        match key.as_str() {
            "mixDuration" => e.mix_duration = number()?,
            "trackEnd" => e.track_end = number()?,
            "alpha" => e.alpha = number()?,
            "timeScale" => e.time_scale = number()?,
            // 4.3 has no holdPrevious; the oracle maps it to TrackEntry.keepHold.
            "holdPrevious" if version >= 43 => e.keep_hold = boolean()?,
            "holdPrevious" => e.hold_previous = boolean()?,
            "eventThreshold" => e.event_threshold = number()?,
            "attachmentThreshold" => e.attachment_threshold = number()?,
            "drawOrderThreshold" => e.draw_order_threshold = number()?,
            "delay" => e.delay = number()?,
            "loop" => e.looping = boolean()?,
            "trackTime" => e.track_time = number()?,
            "animationStart" => e.animation_start = number()?,
            "animationEnd" => e.animation_end = number()?,
            "animationLast" => e.animation_last = number()?,
            "reverse" if version >= 40 => e.reverse = boolean()?,
            "shortestRotation" if version >= 41 => e.shortest_rotation = boolean()?,
            "alphaAttachmentThreshold" if version >= 42 => e.alpha_attachment_threshold = number()?,
            "resetRotationDirections" => {
                if boolean()? {
                    e.reset_rotation_directions();
                }
            }
            "mixBlend" => {
                e.mix_blend = match value.as_str() {
                    Some("setup") => MixBlend::Setup,
                    Some("first") => MixBlend::First,
                    Some("replace") => MixBlend::Replace,
                    Some("add") => MixBlend::Add,
                    _ => {
                        return Err(format!(
                            "mixBlend {} is not setup, first, replace or add",
                            sanitize(&value.to_string())
                        ));
                    }
                }
            }
            other => {
                return Err(format!(
                    "unknown entry property \"{}\" for this runtime",
                    sanitize(other)
                ));
            }
        }
    }
    Ok(())
}

/// Parses a scenario file's text.
pub fn parse(text: &[u8]) -> Result<Scenario, String> {
    let de = &mut serde_json::Deserializer::from_slice(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        format!(
            "line {}, column {} ({}): {}",
            inner.line(),
            inner.column(),
            sanitize(&path),
            sanitize(&inner.to_string())
        )
    })
}

/// Largest magnitude accepted for a time, duration, delay or time scale in a scenario: far
/// beyond any test, small enough that times stay finite over the most frames a scenario runs.
pub const MAX_MAGNITUDE: f64 = 1e9;

/// `v` when finite and at most [`MAX_MAGNITUDE`] in magnitude, else an error naming `what`.
fn bounded(v: f64, what: &str, step: usize) -> Result<f64, String> {
    if v.is_finite() && v.abs() <= MAX_MAGNITUDE {
        Ok(v)
    } else {
        Err(format!(
            "step {step}: {what} {v:?} is not a finite number of magnitude at most {MAX_MAGNITUDE}"
        ))
    }
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
    Scenario(String),
    Sink(E),
}

/// Runs a scenario against `data` (the skeleton it names), collecting every record.
pub fn run(scenario: Scenario, data: Arc<SkeletonData>) -> Result<ScenarioRun, String> {
    let mut callbacks = Vec::new();
    let mut checkpoints = Vec::new();
    let summary = run_streamed(&scenario, &data, &mut |r: Record<'_>| {
        match r {
            Record::Callback(c) => callbacks.push(c.clone()),
            Record::Checkpoint(c) => checkpoints.push(c.clone()),
        }
        Ok::<(), ()>(())
    })
    .map_err(|e| match e {
        StreamError::Scenario(m) => m,
        StreamError::Sink(()) => String::new(),
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
    // The physics mode of every frame (Spine 4.2; other skeletons have no physics).
    let physics = match scenario.physics.as_deref() {
        None | Some("update") => Physics::Update,
        Some("none") => Physics::None,
        Some("reset") => Physics::Reset,
        Some("pose") => Physics::Pose,
        Some(other) => {
            return Err(fail(format!(
                "physics \"{}\" is not none, reset, update or pose",
                sanitize(other)
            )));
        }
    };
    let mut skeleton: Skeleton = skeleton_with_skins(&data, &skins).map_err(fail)?;
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
    let anim = |name: &str, step: usize| -> Result<usize, String> {
        data.find_animation(name)
            .ok_or_else(|| format!("step {step}: unknown animation \"{}\"", sanitize(name)))
    };
    let track_ok = |t: usize, step: usize| -> Result<usize, String> {
        if t > MAX_TRACK {
            Err(format!(
                "step {step}: track {t} is beyond the limit of {MAX_TRACK}"
            ))
        } else {
            Ok(t)
        }
    };
    let total_frames: u64 = scenario
        .steps
        .iter()
        .map(|s| {
            if let Step::Update { count, .. } = s {
                *count
            } else {
                0
            }
        })
        .fold(0u64, u64::saturating_add);
    if total_frames > MAX_FRAMES {
        return Err(fail(format!(
            "the scenario runs {total_frames} frames, more than the limit of {MAX_FRAMES}"
        )));
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
        match step {
            Step::DefaultMix { duration } => {
                state.data.default_mix = bounded(*duration, "duration", si).map_err(fail)?
            }
            Step::SetMix { from, to, duration } => {
                let (f, t) = (anim(from, si).map_err(fail)?, anim(to, si).map_err(fail)?);
                state
                    .data
                    .set_mix(f, t, bounded(*duration, "duration", si).map_err(fail)?);
            }
            Step::TimeScale { value } => {
                state.time_scale = bounded(*value, "timeScale", si).map_err(fail)?
            }
            Step::SetAnimation {
                track,
                animation,
                r#loop,
            } => {
                let a = anim(animation, si).map_err(fail)?;
                let track = track_ok(*track, si).map_err(fail)?;
                last_entry = Some(state.set_animation(track, Some(a), *r#loop));
            }
            Step::AddAnimation {
                track,
                animation,
                r#loop,
                delay,
            } => {
                let a = anim(animation, si).map_err(fail)?;
                let track = track_ok(*track, si).map_err(fail)?;
                let delay = bounded(*delay, "delay", si).map_err(fail)?;
                last_entry = Some(state.add_animation(track, Some(a), *r#loop, delay));
            }
            Step::SetEmptyAnimation {
                track,
                mix_duration,
            } => {
                let track = track_ok(*track, si).map_err(fail)?;
                let mix = bounded(*mix_duration, "mixDuration", si).map_err(fail)?;
                last_entry = Some(state.set_empty_animation(track, mix));
            }
            Step::AddEmptyAnimation {
                track,
                mix_duration,
                delay,
            } => {
                let track = track_ok(*track, si).map_err(fail)?;
                let mix = bounded(*mix_duration, "mixDuration", si).map_err(fail)?;
                let delay = bounded(*delay, "delay", si).map_err(fail)?;
                last_entry = Some(state.add_empty_animation(track, mix, delay));
            }
            Step::SetEmptyAnimations { mix_duration } => {
                state.set_empty_animations(bounded(*mix_duration, "mixDuration", si).map_err(fail)?)
            }
            Step::ClearTrack { track } => state.clear_track(*track),
            Step::ClearTracks => state.clear_tracks(),
            Step::Entry(props) => {
                let id = last_entry.ok_or_else(|| {
                    fail(format!(
                        "step {si}: \"entry\" comes before any set/add call"
                    ))
                })?;
                set_entry_props(&mut state, id, &props.0)
                    .map_err(|e| fail(format!("step {si}: {e}")))?;
            }
            Step::Update { dt, count } => {
                let dt = &bounded(*dt, "dt", si).map_err(fail)?;
                for _ in 0..*count {
                    frame += 1;
                    time += dt;
                    ctx.borrow_mut().frame = frame;
                    ctx.borrow_mut().phase = "update".into();
                    state.update(*dt);
                    ctx.borrow_mut().phase = "apply".into();
                    state.apply(&mut skeleton);
                    skeleton.update(*dt);
                    skeleton.update_world_transform_with(physics);
                    drain(sink)?;
                    if frame.is_multiple_of(every) || frame == total_frames {
                        let c = Checkpoint {
                            frame,
                            step: si,
                            time,
                            tracks: tracks_of(&state),
                            pose: PoseSnapshot::capture(&skeleton, Vec::new()),
                        };
                        sink(Record::Checkpoint(&c)).map_err(StreamError::Sink)?;
                    }
                }
            }
            Step::Apply => {
                ctx.borrow_mut().phase = "apply".into();
                state.apply(&mut skeleton);
                skeleton.update_world_transform_with(physics);
            }
            Step::Checkpoint => {
                let c = Checkpoint {
                    frame,
                    step: si,
                    time,
                    tracks: tracks_of(&state),
                    pose: PoseSnapshot::capture(&skeleton, Vec::new()),
                };
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

fn event_fields(data: &SkeletonData, note: &LoggedNotification, m: &mut Map<String, Value>) {
    let Some(e) = &note.event else { return };
    let ed = &data.events[e.data];
    m.insert("event".into(), Value::String(ed.name.clone()));
    m.insert("int".into(), json!(e.int));
    m.insert("float".into(), num(e.float));
    m.insert("string".into(), Value::String(e.string.clone()));
    m.insert("eventTime".into(), num(e.time));
    // 4.x events always carry them (0 without audio).
    if ed.audio.is_some() || data.rules.is_4x() {
        m.insert("volume".into(), num(e.volume));
        m.insert("balance".into(), num(e.balance));
    }
}

/// One callback's JSON object.
fn callback_json(data: &SkeletonData, c: &Callback) -> Value {
    let n = &c.note;
    let mut m = Map::new();
    m.insert("step".into(), json!(c.step));
    m.insert("frame".into(), json!(c.frame));
    m.insert("phase".into(), json!(c.phase));
    m.insert("type".into(), json!(n.kind.name()));
    m.insert("track".into(), json!(n.track));
    m.insert("entry".into(), json!(n.entry));
    m.insert("animation".into(), json!(n.animation));
    m.insert("trackTime".into(), num(n.track_time));
    m.insert("animationTime".into(), num(n.animation_time));
    event_fields(data, n, &mut m);
    Value::Object(m)
}

/// One checkpoint's JSON object (`vertices` and `points` only when the scenario asks).
fn checkpoint_json(data: &SkeletonData, scenario: &Scenario, c: &Checkpoint) -> Value {
    let tracks: Vec<Value> = c
        .tracks
        .iter()
        .map(|t| match t {
            None => Value::Null,
            Some(t) => json!({
                "track": t.track, "entry": t.entry, "animation": t.animation,
                "trackTime": num(t.track_time), "animationTime": num(t.animation_time),
                "delay": num(t.delay), "mixTime": num(t.mix_time), "mixDuration": num(t.mix_duration),
                "from": t.from, "next": t.next,
            }),
        })
        .collect();
    let mut m = Map::new();
    m.insert("frame".into(), json!(c.frame));
    m.insert("step".into(), json!(c.step));
    m.insert("time".into(), num(c.time));
    m.insert("tracks".into(), Value::Array(tracks));
    let pose = crate::cli::poses::pose_json(data, &c.pose, false);
    for (k, v) in pose {
        if k == "vertices" && !scenario.vertices {
            continue;
        }
        if k == "points" && (!scenario.vertices || v.as_object().is_some_and(|o| o.is_empty())) {
            continue;
        }
        m.insert(k, v);
    }
    Value::Object(m)
}

/// Every top-level member but `callbacks` and `checkpoints`.
fn header_json(
    data: &SkeletonData,
    scenario: &Scenario,
    skins: &[String],
    frames: u64,
    inactive: &[&str],
) -> Value {
    json!({
        "format": "bonescope-scenario/1",
        "runtime": {"id": "bonescope", "version": env!("CARGO_PKG_VERSION")},
        "scenario": scenario.name,
        "description": scenario.description,
        "skeleton": {"file": scenario.skeleton, "spine": data.source.version, "skin": skins},
        "settings": {"checkpointEvery": scenario.checkpoint_every.max(1)},
        "bones": data.bones.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
        "slots": data.slots.iter().map(|s| s.name.clone()).collect::<Vec<_>>(),
        "inactiveBones": inactive,
        "frames": frames,
    })
}

/// Bones without a pose at a checkpoint (the inactive ones).
fn inactive_bones<'d>(data: &'d SkeletonData, c: &Checkpoint) -> Vec<&'d str> {
    c.pose
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_none())
        .map(|(i, _)| data.bones[i].name.as_str())
        .collect()
}

/// A failed streamed run: the scenario's message, or the output's error.
pub enum WriteError {
    Scenario(String),
    Io(std::io::Error),
}

impl From<StreamError<std::io::Error>> for WriteError {
    fn from(e: StreamError<std::io::Error>) -> WriteError {
        match e {
            StreamError::Scenario(m) => WriteError::Scenario(m),
            StreamError::Sink(e) => WriteError::Io(e),
        }
    }
}

impl From<std::io::Error> for WriteError {
    fn from(e: std::io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// What a first, silent run learns before anything is written: that the scenario runs to
/// its end (so no half document is printed), its callback count and its inactive bones.
struct DryRun {
    summary: RunSummary,
    callbacks: u64,
    inactive: Vec<String>,
    /// The text animation column's width: the longest name a callback shows, 9 to 32.
    anim_w: usize,
}

/// The most output `scenario` writes unless `--max-output` allows more (1 GiB): a 226-byte
/// scenario checkpointing every one of 10^6 frames would otherwise stream ~9 GB.
pub const MAX_OUTPUT_BYTES: u64 = 1 << 30;

/// The output's size so far: JSON callbacks and checkpoints as large as the first ones (the
/// estimate's units), or text lines of about 100 bytes per callback.
fn estimate(
    json: bool,
    callbacks: u64,
    callback_bytes: u64,
    checkpoints: u64,
    checkpoint_bytes: u64,
) -> u64 {
    if json {
        callbacks
            .saturating_mul(callback_bytes + 1)
            .saturating_add(checkpoints.saturating_mul(checkpoint_bytes + 1))
    } else {
        callbacks.saturating_mul(100)
    }
}

/// Counts bytes written.
#[derive(Default)]
struct ByteCount(u64);

impl Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 = self.0.saturating_add(buf.len() as u64);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn json_bytes(v: &Value) -> u64 {
    let mut n = ByteCount::default();
    let _ = crate::text::write_json(&mut n, v);
    n.0
}

/// The silent run before the output: checks the scenario runs to its end and that its
/// output (`json` or text) stays within `limit` bytes, stopping as soon as it would not (so
/// an output bomb is refused in the time it takes to produce `limit` bytes of records, none
/// of them written).
fn dry_run(
    scenario: &Scenario,
    data: &Arc<SkeletonData>,
    json: bool,
    limit: u64,
) -> Result<DryRun, WriteError> {
    let mut checkpoints = 0u64;
    let mut callback_bytes = 0u64;
    let mut checkpoint_bytes = 0u64;
    let mut callbacks = 0u64;
    let mut anim_w = 0usize;
    let mut inactive: Option<Vec<String>> = None;
    let summary = run_streamed(scenario, data, &mut |r: Record<'_>| {
        match &r {
            Record::Callback(c) => {
                if callbacks == 0 {
                    callback_bytes = json_bytes(&callback_json(data, c));
                }
                callbacks += 1;
                anim_w = anim_w.max(sanitize(&c.note.animation).chars().count());
            }
            Record::Checkpoint(c) => {
                if checkpoints == 0 {
                    checkpoint_bytes = json_bytes(&checkpoint_json(data, scenario, c));
                }
                checkpoints += 1;
                if inactive.is_none() {
                    let names = inactive_bones(data, c);
                    inactive = Some(names.into_iter().map(str::to_string).collect());
                }
            }
        }
        let so_far = estimate(json, callbacks, callback_bytes, checkpoints, checkpoint_bytes);
        if so_far > limit {
            return Err(format!(
                "the output would be larger than the limit of {limit} bytes (by frame {}: {callbacks} \
                 callbacks, {checkpoints} checkpoints of about {checkpoint_bytes} bytes); \
                 --max-output BYTES raises it",
                match &r {
                    Record::Callback(c) => c.frame,
                    Record::Checkpoint(c) => c.frame,
                }
            ));
        }
        Ok(())
    })
    .map_err(|e| match e {
        StreamError::Scenario(m) | StreamError::Sink(m) => WriteError::Scenario(m),
    })?;
    Ok(DryRun {
        summary,
        callbacks,
        inactive: inactive.unwrap_or_default(),
        anim_w: anim_w.clamp(9, 32),
    })
}

/// Runs the scenario and writes the JSON of [`ScenarioRun::to_json`] record by record: the
/// run is repeated (it is deterministic) so callbacks and checkpoints, which the document
/// keeps in two lists, are each written as they are produced.
pub fn write_json(
    scenario: &Scenario,
    data: &Arc<SkeletonData>,
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    write_json_limited(scenario, data, out, MAX_OUTPUT_BYTES)
}

/// [`write_json`] refusing, before writing anything, an output estimated beyond `limit` bytes.
pub fn write_json_limited(
    scenario: &Scenario,
    data: &Arc<SkeletonData>,
    out: &mut dyn Write,
    limit: u64,
) -> Result<(), WriteError> {
    let dry = dry_run(scenario, data, true, limit)?;
    let inactive: Vec<&str> = dry.inactive.iter().map(String::as_str).collect();
    let header = header_json(
        data,
        scenario,
        &dry.summary.skins,
        dry.summary.frames,
        &inactive,
    );
    // Members in sorted order: "bones", then the two lists, then the rest.
    out.write_all(b"{\"bones\":")?;
    write_json_value(out, &header["bones"])?;
    out.write_all(b",\"callbacks\":[")?;
    let mut first = true;
    run_streamed(scenario, data, &mut |r: Record<'_>| {
        if let Record::Callback(c) = r {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            write_json_value(out, &callback_json(data, c))?;
        }
        Ok(())
    })?;
    out.write_all(b"],\"checkpoints\":[")?;
    let mut first = true;
    run_streamed(scenario, data, &mut |r: Record<'_>| {
        if let Record::Checkpoint(c) = r {
            if !first {
                out.write_all(b",")?;
            }
            first = false;
            write_json_value(out, &checkpoint_json(data, scenario, c))?;
        }
        Ok(())
    })?;
    out.write_all(b"]")?;
    let mut rest = header;
    if let Some(m) = rest.as_object_mut() {
        m.remove("bones");
    }
    let rest = to_json_string(&rest);
    if let Some(members) = rest.strip_prefix('{') {
        out.write_all(b",")?;
        out.write_all(members.as_bytes())?;
    }
    out.write_all(b"\n")?;
    Ok(())
}

fn write_json_value(out: &mut dyn Write, v: &Value) -> std::io::Result<()> {
    crate::text::write_json(out, v)
}

/// Runs the scenario and writes the text of [`ScenarioRun::to_text`] line by line.
pub fn write_text(
    scenario: &Scenario,
    data: &Arc<SkeletonData>,
    out: &mut dyn Write,
) -> Result<(), WriteError> {
    write_text_limited(scenario, data, out, MAX_OUTPUT_BYTES)
}

/// [`write_text`] refusing, before writing anything, an output estimated beyond `limit` bytes.
pub fn write_text_limited(
    scenario: &Scenario,
    data: &Arc<SkeletonData>,
    out: &mut dyn Write,
    limit: u64,
) -> Result<(), WriteError> {
    let dry = dry_run(scenario, data, false, limit)?;
    text_header(
        out,
        data,
        scenario,
        &dry.summary.skins,
        dry.summary.frames,
        dry.callbacks,
    )?;
    let anim_w = dry.anim_w;
    text_columns(out, anim_w)?;
    run_streamed(scenario, data, &mut |r: Record<'_>| match r {
        Record::Callback(c) => text_callback(out, data, c, anim_w),
        Record::Checkpoint(_) => Ok(()),
    })?;
    Ok(())
}

fn text_header(
    out: &mut dyn Write,
    data: &SkeletonData,
    scenario: &Scenario,
    skins: &[String],
    frames: u64,
    callbacks: u64,
) -> std::io::Result<()> {
    writeln!(
        out,
        "scenario {}: {} ({} {}), skin {}, {} frames, {} callbacks",
        sanitize(scenario.name.as_deref().unwrap_or("?")),
        sanitize(&scenario.skeleton),
        sanitize(&data.source.format),
        sanitize(&data.source.version),
        sanitize(&if skins.is_empty() {
            "default".to_string()
        } else {
            skins.join("+")
        }),
        frames,
        callbacks
    )
}

fn text_columns(out: &mut dyn Write, anim_w: usize) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>6} {:>4} {:<18} {:>5} {:>5} {:<9} {:<anim_w$} {:>9} {:>9}  payload",
        "frame", "step", "phase", "track", "entry", "type", "animation", "trackTime", "animTime"
    )
}

fn text_callback(
    out: &mut dyn Write,
    data: &SkeletonData,
    c: &Callback,
    anim_w: usize,
) -> std::io::Result<()> {
    let n = &c.note;
    let anim: String = sanitize(&n.animation).chars().take(anim_w).collect();
    write!(
        out,
        "{:>6} {:>4} {:<18} {:>5} {:>5} {:<9} {:<anim_w$} {:>9.4} {:>9.4}",
        c.frame,
        c.step,
        sanitize(&c.phase),
        n.track,
        n.entry,
        n.kind.name(),
        anim,
        n.track_time,
        n.animation_time
    )?;
    if let Some(e) = &n.event {
        let ed = &data.events[e.data];
        write!(
            out,
            "  {} int={} float={} string=\"{}\" time={:.4}",
            sanitize(&ed.name),
            e.int,
            e.float,
            sanitize(&e.string),
            e.time
        )?;
        if ed.audio.is_some() {
            write!(out, " volume={} balance={}", e.volume, e.balance)?;
        }
    }
    writeln!(out)
}

impl ScenarioRun {
    /// The run as JSON, in the structure of the reference `*.out.json` files.
    pub fn to_json(&self) -> Value {
        let data = &self.data;
        let inactive = self
            .checkpoints
            .first()
            .map(|c| inactive_bones(data, c))
            .unwrap_or_default();
        let mut v = header_json(data, &self.scenario, &self.skins, self.frames, &inactive);
        v["callbacks"] = Value::Array(
            self.callbacks
                .iter()
                .map(|c| callback_json(data, c))
                .collect(),
        );
        v["checkpoints"] = Value::Array(
            self.checkpoints
                .iter()
                .map(|c| checkpoint_json(data, &self.scenario, c))
                .collect(),
        );
        v
    }

    /// A readable log: one aligned line per callback.
    pub fn to_text(&self) -> String {
        let data = &self.data;
        let mut out = Vec::new();
        let anim_w = self
            .callbacks
            .iter()
            .map(|c| sanitize(&c.note.animation).chars().count())
            .max()
            .unwrap_or(9)
            .clamp(9, 32);
        let _ = text_header(
            &mut out,
            data,
            &self.scenario,
            &self.skins,
            self.frames,
            self.callbacks.len() as u64,
        );
        let _ = text_columns(&mut out, anim_w);
        for c in &self.callbacks {
            let _ = text_callback(&mut out, data, c, anim_w);
        }
        String::from_utf8(out).unwrap_or_default()
    }
}
