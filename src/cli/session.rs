//! `bonescope session FILE --script SCRIPT [--at FRAME]... [--json]`: the viewer's session run
//! without a terminal. The script holds prompt lines (the viewer's `:` commands: `set`,
//! `queue`, `mix`, ..., `seek`, `frame`, `step`, `play`, `home`, `track`, `pin`) one per line;
//! blank lines and `#` comments are skipped. The viewer's own [`App`] runs them, opened as the
//! viewer opens a file (first animation looping on track 0), so a script reproduces what a
//! user did. Then the report (tracks, pose summary, event log) is printed at each `--at`
//! frame, reached by seeking the session as the viewer does, or at the script's last frame.

use crate::core::model::SkeletonData;
use crate::session::report;
use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::theme::{ColorMode, Theme};
use crate::tui::views::MarkerKind;
use std::sync::Arc;

/// The largest script read (bytes).
pub const MAX_SCRIPT_BYTES: usize = 1024 * 1024;

/// Runs `script` (its name `script_name` for messages) on a file's skeletons and writes the
/// report to `out` frame by frame as each is reached: text, or NDJSON (one object per
/// requested frame) when `json`.
pub fn run(
    label: String,
    armatures: Vec<Arc<SkeletonData>>,
    script_name: &str,
    script: &[u8],
    at: &[u64],
    json: bool,
    out: &mut dyn std::io::Write,
) -> Result<(), String> {
    if script.len() > MAX_SCRIPT_BYTES {
        return Err(format!(
            "{script_name}: script is larger than {MAX_SCRIPT_BYTES} bytes"
        ));
    }
    let text =
        std::str::from_utf8(script).map_err(|e| format!("{script_name}: not UTF-8 text ({e})"))?;
    let mut app = App::open(
        label,
        armatures,
        Theme::new(ColorMode::None),
        MarkerKind::Ascii,
    )?;
    app.may_write = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        let line = line.strip_prefix(':').unwrap_or(line).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        app.run_line(line)
            .map_err(|e| format!("{script_name}:{}: {}", n + 1, sanitize(&e)))?;
    }
    let frames = if at.is_empty() {
        vec![app.session.frame()]
    } else {
        at.to_vec()
    };
    for f in frames {
        app.session.seek_frame(f);
        app.follow_playing();
        let written = if json {
            crate::text::write_json(&mut *out, &report::frame_json(&app.session))
                .and_then(|()| out.write_all(b"\n"))
        } else {
            out.write_all(report::frame_text(&app.session).as_bytes())
        };
        match written.and_then(|()| out.flush()) {
            Ok(()) => {}
            // The reader stopped reading (`| head`): stop quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(())
}
