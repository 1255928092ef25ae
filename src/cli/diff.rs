//! `bonescope diff OLD NEW`: what changed between two exports of a rig, like `diff`: prints
//! nothing and exits 0 when they play the same, else lists the differences and exits 1.

use super::{CliError, load_all, pick_armature, write_stdout};
use crate::diff::RigDiff;
use crate::text::sanitize;
use serde_json::{Value, json};
use std::path::PathBuf;

/// Options of `bonescope diff`.
#[derive(clap::Args, Debug, Clone)]
pub struct DiffArgs {
    /// The old file (any supported format).
    pub old: PathBuf,
    /// The new file (any supported format).
    pub new: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// The armature to compare, by name, in both files (DragonBones files hold several);
    /// default the first of each.
    #[arg(long)]
    pub armature: Option<String>,
    /// Numbers closer than this count as equal: setup values, key times, timeline values and
    /// world pose values (default 0.001). A JSON export rounds to its editor's precision, so
    /// comparing it with its `.skel` twin wants about 0.01.
    #[arg(long, value_name = "T", default_value_t = crate::diff::DEFAULT_TOLERANCE,
          value_parser = tolerance)]
    pub tolerance: f64,
}

/// A finite, non-negative tolerance.
fn tolerance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!(
            "\"{}\" is not a number of zero or more",
            sanitize(s)
        )),
    }
}

/// Most names a text line lists before it summarises (`--json` lists all).
const LISTED: usize = 8;

/// `a, b, c` or `a, b, ... (+N more)`, sanitized.
fn listed(items: &[String]) -> String {
    let shown: Vec<String> = items
        .iter()
        .take(LISTED)
        .map(|s| sanitize(s).into_owned())
        .collect();
    match items.len().saturating_sub(LISTED) {
        0 => shown.join(", "),
        more => format!("{}, ... (+{more} more; --json lists all)", shown.join(", ")),
    }
}

/// The text report: one line per difference; empty when there is none.
pub fn to_text(d: &RigDiff) -> String {
    let mut out = String::new();
    if let Some((o, n)) = &d.versions {
        out.push_str(&format!(
            "version: {} -> {} (each plays by its own runtime's rules)\n",
            sanitize(o),
            sanitize(n)
        ));
    }
    for n in &d.names {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(n.added.iter().map(|a| format!("+{}", sanitize(a))));
        parts.extend(n.removed.iter().map(|a| format!("-{}", sanitize(a))));
        parts.extend(
            n.renamed
                .iter()
                .map(|(a, b)| format!("{} renamed to {}", sanitize(a), sanitize(b))),
        );
        if !parts.is_empty() {
            out.push_str(&format!("{}: {}\n", n.kind, parts.join(", ")));
        }
    }
    for s in &d.setup {
        out.push_str(&format!(
            "setup: {} {}: {} -> {}\n",
            sanitize(&s.item),
            s.field,
            sanitize(&s.old),
            sanitize(&s.new)
        ));
    }
    for a in &d.animations {
        let name = sanitize(&a.name);
        if let Some((o, n)) = a.duration {
            out.push_str(&format!(
                "{name}: duration {} -> {}\n",
                crate::diff::short_number(o),
                crate::diff::short_number(n)
            ));
        }
        for (what, list) in [
            ("changed", &a.changed),
            ("added", &a.added),
            ("removed", &a.removed),
        ] {
            if !list.is_empty() {
                out.push_str(&format!("{name}: {what} {}\n", listed(list)));
            }
        }
        if let Some(p) = &a.largest {
            out.push_str(&format!(
                "{name}: {} {} differs by up to {} at t={}\n",
                sanitize(&p.bone),
                p.channel,
                round(p.difference, 1),
                round(p.time, 2)
            ));
        }
    }
    out
}

/// `v` with at most `places` decimals, trailing zeros dropped (0.1 differences print as 0.1,
/// tiny ones keep 3 significant decimals).
fn round(v: f64, places: usize) -> String {
    let places = if v != 0.0 && v.abs() < 0.1 {
        places.max(4)
    } else {
        places
    };
    let s = format!("{v:.places$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The JSON report (raw strings: JSON escapes them).
pub fn to_json(d: &RigDiff) -> Value {
    let mut names = serde_json::Map::new();
    for n in &d.names {
        names.insert(
            n.kind.to_string(),
            json!({
                "added": n.added,
                "removed": n.removed,
                "renamed": n.renamed.iter().map(|(a, b)| json!({"old": a, "new": b})).collect::<Vec<_>>(),
            }),
        );
    }
    json!({
        "same": d.is_empty(),
        "version": d.versions.as_ref().map(|(o, n)| json!({"old": o, "new": n})),
        "names": names,
        "setup": d.setup.iter().map(|s| json!({
            "item": s.item, "field": s.field, "old": s.old, "new": s.new,
        })).collect::<Vec<_>>(),
        "animations": d.animations.iter().map(|a| json!({
            "name": a.name,
            "duration": a.duration.map(|(o, n)| json!({"old": o, "new": n})),
            "changed": a.changed,
            "added": a.added,
            "removed": a.removed,
            "largest": a.largest.as_ref().map(|p| json!({
                "bone": p.bone, "channel": p.channel, "difference": p.difference, "time": p.time,
            })),
        })).collect::<Vec<_>>(),
    })
}

/// Runs `diff`; returns the exit status (0 same, 1 different).
pub fn run(args: &DiffArgs) -> Result<u8, CliError> {
    let old = pick_armature(&args.old, load_all(&args.old)?, args.armature.as_deref())?;
    let new = pick_armature(&args.new, load_all(&args.new)?, args.armature.as_deref())?;
    let skins_old = crate::view_defaults::default_skins(&old);
    let skins_new = crate::view_defaults::default_skins(&new);
    let d = RigDiff::within(&old, &new, &skins_old, &skins_new, args.tolerance);
    if args.json {
        let mut s = crate::text::to_json_string(&to_json(&d));
        s.push('\n');
        write_stdout(s.as_bytes())?;
    } else {
        write_stdout(to_text(&d).as_bytes())?;
    }
    Ok(u8::from(!d.is_empty()))
}
