//! `bonescope FILE --watch [--json]`: headless hot reload for scripts. One line per reload
//! result (NDJSON with `--json`), starting with the initial load; runs until interrupted.

use crate::cli::{CliError, load_file};
use crate::diff::ModelDiff;
use crate::format::{LoadError, Location};
use crate::text::sanitize;
use crate::watch::{ReloadEvent, Reloader, WatchOptions};
use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

fn error_json(file: &str, e: &LoadError) -> Value {
    let mut v = json!({"event": "error", "file": file, "message": sanitize(&e.message), "error": e.to_string()});
    match &e.location {
        Some(Location::Json { path, line, column }) => {
            v["line"] = json!(line);
            v["column"] = json!(column);
            v["path"] = json!(path);
        }
        Some(Location::Byte { offset }) => v["offset"] = json!(offset),
        None => {}
    }
    v
}

fn loaded_json(
    file: &str,
    data: &crate::core::model::SkeletonData,
    diff: &ModelDiff,
    bytes: usize,
    initial: bool,
) -> Value {
    json!({
        "event": "loaded",
        "file": file,
        "initial": initial,
        "bytes": bytes,
        "format": data.source.format,
        "version": data.source.version,
        "bones": data.bones.len(),
        "slots": data.slots.len(),
        "animations": data.animations.len(),
        "summary": diff.summary(),
        "changes": {
            "bonesAdded": diff.bones_added, "bonesRemoved": diff.bones_removed, "bonesChanged": diff.bones_changed,
            "slotsAdded": diff.slots_added, "slotsRemoved": diff.slots_removed,
            "skinsAdded": diff.skins_added, "skinsRemoved": diff.skins_removed,
            "animationsAdded": diff.animations_added, "animationsRemoved": diff.animations_removed,
            "animationsChanged": diff.animations_changed.iter().map(|(n, t, d)| json!({"name": n, "timelines": t, "durationChanged": d})).collect::<Vec<_>>(),
            "otherChanged": diff.other_changed,
        },
    })
}

fn emit(json_mode: bool, v: &Value) -> Result<(), CliError> {
    let line = if json_mode {
        crate::text::to_json_string(v)
    } else {
        match v["event"].as_str() {
            Some("loaded") => format!(
                "{}: loaded {} bones, {} animations ({})",
                sanitize(v["file"].as_str().unwrap_or("")),
                v["bones"],
                v["animations"],
                if v["initial"] == true {
                    // Nothing to compare with yet: say what was loaded.
                    sanitize(&format!(
                        "{} {}",
                        v["format"].as_str().unwrap_or(""),
                        v["version"].as_str().unwrap_or("")
                    ))
                    .trim()
                    .to_string()
                } else {
                    sanitize(v["summary"].as_str().unwrap_or("")).into_owned()
                }
            ),
            Some("error") => format!(
                "{}: error: {}",
                sanitize(v["file"].as_str().unwrap_or("")),
                sanitize(v["error"].as_str().unwrap_or(""))
            ),
            Some(other) => match v["message"].as_str() {
                Some(m) => format!(
                    "{}: {}: {}",
                    sanitize(v["file"].as_str().unwrap_or("")),
                    sanitize(other),
                    sanitize(m)
                ),
                None => format!(
                    "{}: {}",
                    sanitize(v["file"].as_str().unwrap_or("")),
                    sanitize(other)
                ),
            },
            None => crate::text::to_json_string(v),
        }
    };
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .map_err(|e| CliError(e.to_string()))
}

/// Watches `path` until interrupted.
pub fn run(path: &Path, json_mode: bool, poll_ms: Option<u64>) -> Result<(), CliError> {
    let file = sanitize(&path.display().to_string()).into_owned();
    let opts = WatchOptions {
        poll: poll_ms.map(Duration::from_millis),
        ..WatchOptions::default()
    };
    // Watching starts before the initial load, so a save in between is not lost: it
    // shows up as a reload after the initial line.
    let placeholder = std::sync::Arc::new(crate::core::model::SkeletonData::default());
    let reloader = Reloader::start(path, placeholder, opts).map_err(|e| CliError(e.to_string()))?;
    match load_file(path) {
        Ok(data) => {
            let bytes = std::fs::metadata(path)
                .map(|m| m.len() as usize)
                .unwrap_or(0);
            emit(
                json_mode,
                &loaded_json(&file, &data, &ModelDiff::default(), bytes, true),
            )?;
            reloader.selector().select(data);
        }
        Err(e) => {
            // Keep watching: the next good write loads.
            emit(
                json_mode,
                &json!({"event": "error", "file": file, "message": e.0, "error": e.0}),
            )?;
        }
    }
    while let Ok(ev) = reloader.events().recv() {
        let v = match &ev {
            ReloadEvent::Loaded {
                data, diff, bytes, ..
            } => loaded_json(&file, data, diff, *bytes, false),
            ReloadEvent::Failed { error } => error_json(&file, error),
            ReloadEvent::Missing => json!({"event": "missing", "file": file}),
            ReloadEvent::WatchError { error } => {
                json!({"event": "watch-error", "file": file, "message": sanitize(error)})
            }
            ReloadEvent::Rewatched { message } => {
                json!({"event": "rewatched", "file": file, "message": message})
            }
        };
        emit(json_mode, &v)?;
    }
    Ok(())
}
