//! `bonescope scenario`: runs an AnimationState scenario (`session::scenario`) and prints
//! every listener notification and the periodic pose checkpoints, as JSON or text.

pub use crate::session::scenario::{
    Callback, Checkpoint, EntryProps, MAX_FRAMES, MAX_MAGNITUDE, MAX_TRACK, Record, RunSummary,
    Scenario, ScenarioError, ScenarioRun, Step, StreamError, TrackState, default_skins, parse, run,
    run_streamed,
};

use crate::cli::poses::num;
use crate::core::model::SkeletonData;
use crate::core::state::LoggedNotification;
use crate::text::{sanitize, to_json_string};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::sync::Arc;

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
            StreamError::Scenario(m) => WriteError::Scenario(m.to_string()),
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
        StreamError::Scenario(m) => WriteError::Scenario(m.to_string()),
        StreamError::Sink(m) => WriteError::Scenario(m),
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
