//! What a session shows at a frame, as text and JSON: tracks (with mixing chains), a pose
//! summary and the event log. The `session` command prints it; the event log's `:save`
//! writes its lines.

use super::{LogLine, Session};
use crate::core::model::SkeletonData;
use crate::core::state::AnimationState;
use crate::text::sanitize;
use serde_json::{Value, json};

/// A finite number, or null (JSON has no NaN).
fn num(v: f64) -> Value {
    if v.is_finite() { json!(v) } else { Value::Null }
}

fn event_name(data: &SkeletonData, index: usize) -> String {
    data.events
        .get(index)
        .map_or_else(|| format!("#{index}"), |e| e.name.clone())
}

/// One log line as a JSON object: `{"frame", "phase", "type", "track", "entry",
/// "animation", "trackTime", "animationTime", "event"}` (`event` null or `{"name", "time",
/// "int", "float", "string", "volume", "balance"}`), or `{"frame", "marker"}`.
pub fn line_json(line: &LogLine, data: &SkeletonData) -> Value {
    match line {
        LogLine::Marker { frame, text } => json!({ "frame": frame, "marker": text }),
        LogLine::Notification { frame, phase, note } => json!({
            "frame": frame,
            "phase": phase.name(),
            "type": note.kind.name(),
            "track": note.track,
            "entry": note.entry,
            "animation": note.animation,
            "trackTime": num(note.track_time),
            "animationTime": num(note.animation_time),
            "event": note.event.as_ref().map(|e| json!({
                "name": event_name(data, e.data),
                "time": num(e.time),
                "int": e.int,
                "float": num(e.float),
                "string": e.string,
                "volume": num(e.volume),
                "balance": num(e.balance),
            })),
        }),
    }
}

/// One log line as text with every field (names sanitized).
pub fn line_text(line: &LogLine, data: &SkeletonData) -> String {
    match line {
        LogLine::Marker { frame, text } => format!("{frame} -- {}", sanitize(text)),
        LogLine::Notification { frame, phase, note } => {
            let mut s = format!(
                "{frame} {} track {} #{} {} {} trackTime {:.4} animationTime {:.4}",
                phase.name(),
                note.track,
                note.entry,
                note.kind.name(),
                sanitize(&note.animation),
                note.track_time,
                note.animation_time
            );
            if let Some(e) = &note.event {
                s.push_str(&format!(
                    " event {} time {:.4} int {} float {} string \"{}\" volume {} balance {}",
                    sanitize(&event_name(data, e.data)),
                    e.time,
                    e.int,
                    e.float,
                    sanitize(&e.string),
                    e.volume,
                    e.balance
                ));
            }
            s
        }
    }
}

/// Every track's entry chain: the current entry, then the entries mixing out beneath it.
fn chains(state: &AnimationState) -> Vec<(usize, Vec<&crate::core::state::TrackEntry>)> {
    (0..state.tracks.len())
        .filter_map(|t| {
            let mut chain = Vec::new();
            let mut id = state.current(t);
            while let Some(e) = id.and_then(|i| state.entry(i)) {
                chain.push(e);
                id = e.mixing_from;
            }
            (!chain.is_empty()).then_some((t, chain))
        })
        .collect()
}

fn entry_name(state: &AnimationState, e: &crate::core::state::TrackEntry) -> String {
    state.animation_name(e.id).to_string()
}

/// The tracks as JSON: `[{"track", "entries": [{"entry", "animation", "looping",
/// "trackTime", "animationTime", "duration", "timeScale", "alpha", "mixTime",
/// "mixDuration", "queued": [{"entry", "animation", "delay"}]}, ...]}]`; entries after
/// the first are mixing out (the first mixes from the second, and so on).
pub fn tracks_json(state: &AnimationState) -> Value {
    let tracks: Vec<Value> = chains(state)
        .into_iter()
        .map(|(t, chain)| {
            let entries: Vec<Value> = chain
                .iter()
                .map(|e| {
                    let mut queued = Vec::new();
                    let mut next = e.next;
                    while let Some(n) = next.and_then(|n| state.entry(n)) {
                        queued.push(json!({
                            "entry": n.id.serial,
                            "animation": entry_name(state, n),
                            "delay": num(n.delay),
                        }));
                        next = n.next;
                    }
                    json!({
                        "entry": e.id.serial,
                        "animation": entry_name(state, e),
                        "looping": e.looping,
                        "trackTime": num(e.track_time),
                        "animationTime": num(e.animation_time()),
                        "duration": num(e.animation_end - e.animation_start),
                        "timeScale": num(e.time_scale),
                        "alpha": num(e.alpha),
                        "mixTime": num(e.mix_time),
                        "mixDuration": num(e.mix_duration),
                        "queued": queued,
                    })
                })
                .collect();
            json!({ "track": t, "entries": entries })
        })
        .collect();
    Value::Array(tracks)
}

/// `#2 walk <- #1 idle 56%`: a track's current entry and the entries mixing out beneath it
/// with how far each mix has gone (names sanitized).
pub fn chain_brief(state: &AnimationState, track: usize) -> Option<String> {
    let (_, chain) = chains(state).into_iter().find(|(t, _)| *t == track)?;
    let parts: Vec<String> = chain
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let name = format!("#{} {}", e.id.serial, sanitize(&entry_name(state, e)));
            match k.checked_sub(1).map(|p| chain[p]) {
                None => name,
                Some(to) => format!("{name} {:.0}%", mix_percent(to)),
            }
        })
        .collect();
    Some(parts.join(" <- "))
}

/// How far `to`'s mix from the entry beneath it has gone, in percent.
fn mix_percent(to: &crate::core::state::TrackEntry) -> f64 {
    if to.mix_duration > 0.0 {
        (to.mix_time / to.mix_duration * 100.0).clamp(0.0, 100.0)
    } else {
        100.0
    }
}

/// `walk 0.167/1.000s <- idle 56% (0.17/0.30s)` per track: the current entry, then each
/// entry mixing out with how far its mix has gone.
pub fn chain_text(state: &AnimationState, track: usize) -> Option<String> {
    let (_, chain) = chains(state).into_iter().find(|(t, _)| *t == track)?;
    let mut s = String::new();
    for (k, e) in chain.iter().enumerate() {
        if k == 0 {
            s.push_str(&format!(
                "#{} {} {:.3}/{:.3}s",
                e.id.serial,
                sanitize(&entry_name(state, e)),
                e.animation_time(),
                e.animation_end - e.animation_start
            ));
        } else {
            let to = chain[k - 1];
            let pct = mix_percent(to);
            s.push_str(&format!(
                " <- #{} {} {:.0}% ({:.2}/{:.2}s)",
                e.id.serial,
                sanitize(&entry_name(state, e)),
                pct,
                to.mix_time,
                to.mix_duration
            ));
        }
    }
    Some(s)
}

/// The pose summary: every bone's world position and rotation.
pub fn pose_json(session: &Session) -> Value {
    let bones: Vec<Value> = session
        .skeleton()
        .bones
        .iter()
        .zip(&session.data().bones)
        .map(|(b, d)| {
            json!({
                "bone": d.name,
                "worldX": num(round(b.world_x)),
                "worldY": num(round(b.world_y)),
                "rotation": num(round(b.c.atan2(b.a).to_degrees())),
            })
        })
        .collect();
    Value::Array(bones)
}

/// Rounded to 1e-4 so printed poses do not show float noise.
fn round(v: f64) -> f64 {
    let r = (v * 1e4).round() / 1e4;
    if r == 0.0 { 0.0 } else { r }
}

/// The whole report of the session's current frame as one JSON object:
/// `{"frame", "time", "tracks", "bones", "events"}` (events: the log up to this frame), and
/// `"eventsDropped"` when the log's memory budget dropped its oldest lines.
pub fn frame_json(session: &Session) -> Value {
    let data = session.data();
    let events: Vec<Value> = session.log().iter().map(|l| line_json(l, data)).collect();
    let mut report = json!({
        "frame": session.frame(),
        "time": num(session.time()),
        "skins": session.skins(),
        "tracks": tracks_json(session.state()),
        "bones": pose_json(session),
        "events": events,
    });
    // Only when the log's budget dropped lines: the usual report keeps its shape.
    let dropped = session.log_dropped();
    if dropped > 0 {
        report["eventsDropped"] = json!(dropped);
    }
    report
}

/// The same report as text.
pub fn frame_text(session: &Session) -> String {
    let data = session.data();
    let st = session.state();
    let mut s = format!(
        "== frame {} ({:.3} s)\ntracks:\n",
        session.frame(),
        session.time()
    );
    let mut any = false;
    for t in 0..st.tracks.len() {
        if let Some(c) = chain_text(st, t) {
            s.push_str(&format!("  {t}: {c}\n"));
            any = true;
        }
    }
    if !any {
        s.push_str("  (none)\n");
    }
    if !session.skins().is_empty() {
        s.push_str(&format!(
            "skins: default + {}\n",
            sanitize(&session.skins().join(" + "))
        ));
    }
    s.push_str("bones (worldX worldY rotation):\n");
    for b in pose_json(session).as_array().into_iter().flatten() {
        s.push_str(&format!(
            "  {} {} {} {}\n",
            sanitize(b["bone"].as_str().unwrap_or("")),
            b["worldX"],
            b["worldY"],
            b["rotation"]
        ));
    }
    s.push_str("events:\n");
    let dropped = session.log_dropped();
    if dropped > 0 {
        s.push_str(&format!("  (log truncated: {dropped} oldest dropped)\n"));
    }
    for l in session.log().iter() {
        s.push_str("  ");
        s.push_str(&line_text(l, data));
        s.push('\n');
    }
    s
}
