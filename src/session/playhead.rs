//! Running prompt lines on a session: animation commands are validated and recorded, viewer
//! verbs that move the playhead (`seek`, `frame`, `step`, `play`, `home`, the loop range) or
//! change skins run here; verbs about the view (`track`, `pin`, `bone`, `save`) are handed
//! back to the host. The viewer and the `session` command share this, so a script does what
//! the same lines typed at the prompt do.

use super::language::{self, PromptError, PromptLine, ViewerCommand};
use super::{Command, MAX_FRAMES, Session};

/// The loop range: playback wraps from the out frame back to the in frame (0 when unset).
pub type LoopRange = (Option<u64>, Option<u64>);

/// What running a line did.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The animation state changed (a recorded command); the text says what and when.
    Recorded(String),
    /// The playhead moved: a playing viewer pauses.
    Moved(String),
    /// Something else changed or was asked (loop range, skins); the text says what.
    Said(String),
    /// A verb about the view, for the host to run.
    View(ViewerCommand),
}

/// Parses and runs one prompt line on `session`.
pub fn run_line(
    session: &mut Session,
    range: &mut LoopRange,
    line: &str,
) -> Result<Outcome, PromptError> {
    match language::parse(line, session.data())? {
        PromptLine::Animation(cmd) => record(session, cmd).map(Outcome::Recorded),
        PromptLine::Viewer(verb) => run_verb(session, range, verb),
    }
}

/// Validates `cmd` against what plays now and records it at the current frame; says what
/// was done and when.
pub fn record(session: &mut Session, cmd: Command) -> Result<String, PromptError> {
    language::check(&cmd, session)?;
    let text = cmd.describe(session.data());
    session.push(cmd).map_err(PromptError::Invalid)?;
    Ok(format!("at {:.3} s: {text}", session.time()))
}

/// Runs a viewer verb that the session itself can run; hands the others back.
pub fn run_verb(
    session: &mut Session,
    range: &mut LoopRange,
    verb: ViewerCommand,
) -> Result<Outcome, PromptError> {
    // Every move is checked against the session's seek limit first (headless sessions set
    // one; the viewer slices its seeks instead).
    match verb {
        ViewerCommand::Seek(t) => {
            let t = if t.is_finite() { t.max(0.0) } else { 0.0 };
            let whole = super::frame_index(t, session.fps()) as u64;
            session.check_seek(whole.saturating_add(1))?;
            session.seek_time(t);
        }
        ViewerCommand::Frame(f) => {
            session.check_seek(f)?;
            session.seek_frame(f);
        }
        ViewerCommand::Step(n) => {
            let f = i64::try_from(session.frame())
                .unwrap_or(i64::MAX)
                .saturating_add(n);
            let f = u64::try_from(f).unwrap_or(0);
            session.check_seek(f)?;
            session.seek_frame(f);
        }
        ViewerCommand::Play(secs) => {
            let frames = (secs * session.fps()).round().min(MAX_FRAMES as f64) as u64;
            session.check_play(frames)?;
            for _ in 0..frames {
                advance(session, range, 1);
            }
        }
        ViewerCommand::Home => {
            session.check_seek(0)?;
            session.seek_frame(0);
        }
        ViewerCommand::In(f) => {
            range.0 = Some(f.unwrap_or(session.frame()));
            return Ok(Outcome::Said(range_text(range)));
        }
        ViewerCommand::Out(f) => {
            range.1 = Some(f.unwrap_or(session.frame()));
            return Ok(Outcome::Said(range_text(range)));
        }
        ViewerCommand::RangeOff => {
            *range = (None, None);
            return Ok(Outcome::Said("loop range off".into()));
        }
        ViewerCommand::Skin(None) => return Ok(Outcome::Said(skins_text(session))),
        ViewerCommand::Skin(Some(names)) => {
            let skins = crate::view_defaults::skins_by_name(session.data(), &names)
                .map_err(PromptError::UnknownName)?;
            session.check_replay()?;
            session.set_skins(skins).map_err(PromptError::Invalid)?;
            return Ok(Outcome::Said(skins_text(session)));
        }
        verb @ (ViewerCommand::Track(_)
        | ViewerCommand::Pin(_)
        | ViewerCommand::Unpin
        | ViewerCommand::Save(_)
        | ViewerCommand::SaveOver(_)
        | ViewerCommand::Bone(_)) => return Ok(Outcome::View(verb)),
    }
    Ok(Outcome::Moved(format!(
        "at {:.3} s, frame {}",
        session.time(),
        session.frame()
    )))
}

/// Plays `frames` frames on, wrapping from the loop range's out frame back to its in.
pub fn advance(session: &mut Session, range: &LoopRange, frames: u64) {
    match *range {
        (start, Some(out)) if start.unwrap_or(0) < out => {
            let start = start.unwrap_or(0);
            let mut f = session.frame();
            let mut left = frames;
            while left > 0 {
                if f >= out {
                    f = start;
                } else {
                    let n = left.min(out - f);
                    f += n;
                    left -= n;
                    continue;
                }
                left -= 1;
            }
            session.seek_frame(f);
        }
        _ => session.advance(frames),
    }
}

/// "loop range 10..20" (`-` for an unset end).
pub fn range_text(range: &LoopRange) -> String {
    let show = |f: Option<u64>| f.map_or("-".to_string(), |f| f.to_string());
    format!("loop range {}..{}", show(range.0), show(range.1))
}

/// "skins: default + a + b", or "skin: default only".
pub fn skins_text(session: &Session) -> String {
    let on = session.skins();
    if on.is_empty() {
        "skin: default only".into()
    } else {
        format!(
            "skins: default + {}",
            crate::text::sanitize(&on.join(" + "))
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::script::tests::sample;

    #[test]
    fn a_loop_range_wraps_playback() {
        let mut s = sample();
        let mut range: LoopRange = (None, None);
        run_line(&mut s, &mut range, "set 0 walk loop").expect("set");
        run_line(&mut s, &mut range, "in 10").expect("in");
        run_line(&mut s, &mut range, "out 20").expect("out");
        run_line(&mut s, &mut range, "frame 15").expect("frame");
        let fps = s.fps();
        let line = format!("play {}", 15.0 / fps);
        assert!(matches!(
            run_line(&mut s, &mut range, &line),
            Ok(Outcome::Moved(_))
        ));
        // 15 -> 20 (5 frames), back to 10 (1), on to 19 (9).
        assert_eq!(s.frame(), 19);
        assert_eq!(
            run_line(&mut s, &mut range, "range off"),
            Ok(Outcome::Said("loop range off".into()))
        );
    }

    #[test]
    fn view_verbs_go_back_to_the_host_and_bad_lines_say_why() {
        let mut s = sample();
        let mut range: LoopRange = (None, None);
        assert_eq!(
            run_line(&mut s, &mut range, "track 2"),
            Ok(Outcome::View(ViewerCommand::Track(2)))
        );
        assert_eq!(
            run_line(&mut s, &mut range, "alpha 3 0.5").map_err(|e| e.to_string()),
            Err("track 3 plays nothing: no entry to set alpha on (set 3 ANIM first)".into())
        );
        assert!(matches!(
            run_line(&mut s, &mut range, "skin nope"),
            Err(PromptError::UnknownName(_))
        ));
        assert!(matches!(
            run_line(&mut s, &mut range, "step -5"),
            Ok(Outcome::Moved(_))
        ));
        assert_eq!(s.frame(), 0);
    }
}
