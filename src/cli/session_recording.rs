//! `bonescope session [FILE] --recording REC [--skeleton FILE] [--json]`: replays a game's
//! recording (the attach protocol, `docs/ATTACH-PROTOCOL.md`) headless with bonescope's
//! runtime for the export's version and prints a verdict per frame. Exit 0 when every
//! callback equals the game's, 1 at the first divergence, 2 on errors.

use crate::cli::{CliError, load_file};
use crate::session::recording::{FrameVerdict, ReadError, Record, RecordReader, Replay};
use crate::text::sanitize;
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// Where the skeleton comes from: `--skeleton`, the FILE argument, else the hello's path
/// (relative to the recording's folder).
pub fn skeleton_path(
    over: Option<&Path>,
    hello_path: Option<&str>,
    recording: &Path,
) -> Result<PathBuf, CliError> {
    if let Some(p) = over {
        return Ok(p.to_path_buf());
    }
    let named = hello_path.ok_or_else(|| {
        CliError("the recording's hello names no skeleton: pass FILE or --skeleton".into())
    })?;
    let p = PathBuf::from(named);
    Ok(if p.is_absolute() {
        p
    } else {
        recording.parent().unwrap_or(Path::new(".")).join(p)
    })
}

/// Runs the replay; returns the exit status.
pub fn run(
    file: Option<&Path>,
    skeleton: Option<&Path>,
    recording: &Path,
    json: bool,
) -> Result<u8, CliError> {
    let shown = sanitize(&recording.display().to_string()).into_owned();
    let input: Box<dyn BufRead> = if recording == Path::new("-") {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(recording).map_err(|e| CliError(format!("{shown}: {e}")))?;
        Box::new(std::io::BufReader::new(f))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let status = replay(input, file.or(skeleton), recording, json, &mut out)
        .map_err(|e| CliError(format!("{shown}: {}", e.0)))?;
    match out.flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError(e.to_string())),
        _ => Ok(status),
    }
}

/// Replays `input` and writes the verdicts; the exit status.
pub fn replay(
    input: impl BufRead,
    skeleton: Option<&Path>,
    recording: &Path,
    json: bool,
    out: &mut dyn Write,
) -> Result<u8, CliError> {
    let mut reader = RecordReader::new(input);
    let hello = loop {
        match reader.next() {
            None => return Err(CliError("no hello record".into())),
            Some(Ok((_, Record::Hello(h)))) => break h,
            Some(Ok((line, _))) => {
                return Err(CliError(format!(
                    "line {line}: the first record is not a hello"
                )));
            }
            Some(Err(e)) if e.recoverable() => warn(&e),
            Some(Err(e)) => return Err(CliError(e.to_string())),
        }
    };
    let path = skeleton_path(skeleton, hello.skeleton.path.as_deref(), recording)?;
    // Size and sha256, as the viewer compares them (`attach::skeleton_differences`).
    for w in crate::attach::skeleton_differences(&path, &hello.skeleton) {
        eprintln!("bonescope: warning: {w}");
    }
    let data = load_file(&path)?;
    let mut replay = Replay::new(data, &hello).map_err(|e| CliError(e.to_string()))?;
    if let Some(n) = replay.runtime_note() {
        eprintln!("bonescope: warning: {n}");
    }
    let io = |e: std::io::Error| CliError(e.to_string());
    let (mut frames, mut callbacks, mut gap) = (0u64, 0usize, false);
    for rec in reader {
        let (line, rec) = match rec {
            Ok(r) => r,
            Err(e) if e.recoverable() => {
                warn(&e);
                continue;
            }
            Err(e) => return Err(CliError(e.to_string())),
        };
        match rec {
            Record::Frame { frame, items } => {
                let v = replay.frame(frame, &items);
                frames += 1;
                callbacks += v.game;
                for n in &v.notes {
                    eprintln!("bonescope: line {line}: frame {frame}: {}", sanitize(n));
                }
                write_verdict(out, &v, json).map_err(io)?;
                if !v.same() {
                    return Ok(1);
                }
            }
            Record::Gap { dropped } => {
                eprintln!(
                    "bonescope: line {line}: the recorder dropped {dropped} lines; not comparing past here"
                );
                replay.stop();
                gap = true;
            }
            Record::Hello(_) => eprintln!("bonescope: line {line}: a second hello (ignored)"),
            Record::Bye { .. } => break,
        }
    }
    let summary = json!({"summary": {"frames": frames, "gameCallbacks": callbacks,
        "verdict": if gap { "same until a gap" } else { "same" }}});
    if json {
        crate::text::write_json(&mut *out, &summary).map_err(io)?;
        out.write_all(b"\n").map_err(io)?;
    } else {
        writeln!(
            out,
            "{frames} frames, {callbacks} callbacks: same as the game"
        )
        .map_err(io)?;
    }
    Ok(0)
}

fn warn(e: &ReadError) {
    eprintln!("bonescope: {e}");
}

fn write_verdict(out: &mut dyn Write, v: &FrameVerdict, json: bool) -> std::io::Result<()> {
    if json {
        crate::text::write_json(&mut *out, &v.to_json())?;
        out.write_all(b"\n")
    } else if !v.same() {
        writeln!(out, "{}", v.summary())?;
        if let Some(d) = &v.divergence {
            for c in &d.causes {
                writeln!(out, "  likely: {c}")?;
            }
        }
        Ok(())
    } else {
        Ok(())
    }
}
