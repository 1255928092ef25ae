//! Session scripts: prompt lines (the viewer's `:` commands) one per line, `#` comments and
//! blank lines skipped, run on a session exactly as typed at the prompt. What only a viewer
//! can do (`save` a file) is refused; `track`, `pin` and `bone` are checked and do nothing,
//! since a report shows every track.

use super::Session;
use super::language::{PromptError, ViewerCommand};
use super::playhead::{self, LoopRange, Outcome};
use crate::text::sanitize;

/// The largest script read (bytes).
pub const MAX_SCRIPT_BYTES: usize = 1024 * 1024;

/// Why a script stopped.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ScriptError {
    #[error("script is larger than {MAX_SCRIPT_BYTES} bytes")]
    TooLarge,
    #[error("not UTF-8 text ({0})")]
    NotText(std::str::Utf8Error),
    /// A line was refused; `line` counts from 1.
    #[error("{line}: {error}")]
    Line { line: usize, error: PromptError },
}

/// Runs every line of `script` on `session`; stops at the first refused line.
pub fn run(session: &mut Session, script: &[u8]) -> Result<(), ScriptError> {
    if script.len() > MAX_SCRIPT_BYTES {
        return Err(ScriptError::TooLarge);
    }
    let text = std::str::from_utf8(script).map_err(ScriptError::NotText)?;
    let mut range: LoopRange = (None, None);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        let line = line.strip_prefix(':').unwrap_or(line).trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        run_line(session, &mut range, line)
            .map_err(|error| ScriptError::Line { line: n + 1, error })?;
    }
    Ok(())
}

/// One line of a script: [`playhead::run_line`], with the view verbs checked here.
pub fn run_line(
    session: &mut Session,
    range: &mut LoopRange,
    line: &str,
) -> Result<Outcome, PromptError> {
    let outcome = playhead::run_line(session, range, line)?;
    if let Outcome::View(verb) = &outcome {
        match verb {
            ViewerCommand::Pin(Some(name)) if session.data().find_animation(name).is_none() => {
                return Err(PromptError::NoAnimation(sanitize(name).into_owned()));
            }
            ViewerCommand::Bone(name) if session.data().find_bone(name).is_none() => {
                return Err(PromptError::NoBone(sanitize(name).into_owned()));
            }
            ViewerCommand::Save(_) | ViewerCommand::SaveOver(_) => {
                return Err(PromptError::NotHere(
                    "save writes a file; the session command prints its report instead",
                ));
            }
            _ => {}
        }
    }
    Ok(outcome)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::sync::Arc;

    /// A session on the built-in sample, nothing playing.
    pub(crate) fn sample() -> Session {
        let data = crate::format::load(crate::EMBEDDED_SAMPLE, "sample").expect("loads");
        Session::new(Arc::new(data), Vec::new()).expect("a session")
    }

    #[test]
    fn a_script_runs_to_its_end_or_names_the_refused_line() {
        let mut s = sample();
        run(
            &mut s,
            b"# walk a bit\n:set 0 walk loop\n\nstep 10\nbone root\n",
        )
        .expect("runs");
        assert_eq!(s.frame(), 10);
        let e = run(&mut s, b"step 1\nsave /tmp/x.log\n").unwrap_err();
        assert!(matches!(e, ScriptError::Line { line: 2, .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            "2: save writes a file; the session command prints its report instead"
        );
        let e = run(&mut s, b"pin \"no such\"").unwrap_err();
        assert_eq!(e.to_string(), "1: no animation \"no such\"");
        assert_eq!(
            run(&mut s, &[0xff]).map_err(|e| matches!(e, ScriptError::NotText(_))),
            Err(true)
        );
    }
}
