//! `bonescope session FILE [--script SCRIPT|-] [--animation A] [--skin S]... [--at FRAME]...
//! [--json]`: the viewer's session run without a terminal. The session opens as the viewer
//! opens the file ([`crate::session::opening`]), runs the script's prompt lines
//! ([`crate::session::script`]), then prints the report (tracks, pose summary, event log) at
//! each `--at` frame, reached by seeking as the viewer does, or where the script ends.

use super::CliError;
use crate::core::model::SkeletonData;
use crate::session::opening::Opening;
use crate::session::{Session, report, script};
use std::sync::Arc;

pub use crate::session::script::MAX_SCRIPT_BYTES;

/// What to run and print.
pub struct SessionRun<'a> {
    /// The script's name for messages (`-` for standard input).
    pub script_name: &'a str,
    /// The script's bytes (empty: only the opening).
    pub script: &'a [u8],
    /// `--animation`: what track 0 opens on (default: the viewer's choice).
    pub animation: Option<&'a str>,
    /// `--skin`: the skins to combine (default: the viewer's choice).
    pub skins: Option<&'a [String]>,
    /// Frames to report at (default: where the script ends).
    pub at: &'a [u64],
    /// NDJSON instead of text.
    pub json: bool,
}

/// Runs `run` on a file's skeletons (its main one) and writes the report to `out` frame by
/// frame as each is reached.
pub fn run(
    armatures: Vec<Arc<SkeletonData>>,
    run: &SessionRun<'_>,
    out: &mut dyn std::io::Write,
) -> Result<(), CliError> {
    let data = armatures
        .get(crate::view_defaults::main_armature(&armatures))
        .cloned()
        .ok_or_else(|| CliError("the file holds no skeleton".into()))?;
    let opening =
        Opening::choose(&data, run.animation, run.skins).map_err(|e| CliError(e.to_string()))?;
    let mut session =
        Session::new(data, opening.skins.clone()).map_err(|e| CliError(e.to_string()))?;
    opening
        .start(&mut session)
        .map_err(|e| CliError(e.to_string()))?;
    // Every seek of the script and of `--at` is bounded (one check, in the session).
    session.set_seek_limit(Some(crate::session::seek_work_limit()));
    script::run(&mut session, run.script).map_err(|e| match e {
        script::ScriptError::Line { .. } => CliError(format!("{}:{e}", run.script_name)),
        e => CliError(format!("{}: {e}", run.script_name)),
    })?;
    let frames = if run.at.is_empty() {
        vec![session.frame()]
    } else {
        run.at.to_vec()
    };
    for f in frames {
        session.check_seek(f).map_err(|e| CliError(e.to_string()))?;
        session.seek_frame(f);
        let written = if run.json {
            crate::text::write_json(&mut *out, &report::frame_json(&session))
                .and_then(|()| out.write_all(b"\n"))
        } else {
            out.write_all(report::frame_text(&session).as_bytes())
        };
        match written.and_then(|()| out.flush()) {
            Ok(()) => {}
            // The reader stopped reading (`| head`): stop quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(CliError(e.to_string())),
        }
    }
    Ok(())
}
