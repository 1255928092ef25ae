//! Checks a parsed command against what the session is playing, so a value the runtime
//! would take but that means nothing (a negative mix, alpha 2, a time scale on an empty
//! track) is refused with a reason instead of silently recorded.

use super::PromptError;
use crate::session::{Command, Session};

fn non_negative(value: f64, what: &'static str) -> Result<(), PromptError> {
    if value < 0.0 {
        Err(PromptError::Negative { what, value })
    } else {
        Ok(())
    }
}

fn playing(session: &Session, track: usize, what: &'static str) -> Result<(), PromptError> {
    let st = session.state();
    if st.current(track).is_some() {
        Ok(())
    } else {
        Err(PromptError::NothingPlaying { track, what })
    }
}

/// Ok when `cmd` makes sense now; else what is wrong with it.
pub fn check(cmd: &Command, session: &Session) -> Result<(), PromptError> {
    match *cmd {
        Command::DefaultMix { duration } | Command::SetMix { duration, .. } => {
            non_negative(duration, "a mix duration")
        }
        Command::SetEmptyAnimation { mix_duration, .. }
        | Command::AddEmptyAnimation { mix_duration, .. } => {
            non_negative(mix_duration, "a mix duration")
        }
        Command::TrackAlpha { track, alpha } => {
            if !(0.0..=1.0).contains(&alpha) {
                return Err(PromptError::AlphaRange(alpha));
            }
            playing(session, track, "alpha")
        }
        Command::TrackTimeScale { track, time_scale } => {
            non_negative(time_scale, "a time scale")?;
            playing(session, track, "a time scale")
        }
        Command::TrackMixDuration {
            track,
            mix_duration,
        } => {
            non_negative(mix_duration, "a mix duration")?;
            playing(session, track, "a mix duration")
        }
        Command::TimeScale { value } => non_negative(value, "a time scale"),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::language::animation_commands::parse;

    fn session() -> Session {
        let data = crate::format::load(crate::EMBEDDED_SAMPLE, "sample").expect("the sample loads");
        let mut s = Session::new(std::sync::Arc::new(data), Vec::new()).expect("a session");
        let walk = s.data().find_animation("walk").expect("walk");
        s.restart_with(vec![Command::SetAnimation {
            track: 0,
            animation: walk,
            looping: true,
        }])
        .expect("plays");
        s
    }

    fn run(line: &str, s: &Session) -> Result<(), String> {
        let cmd = parse(line, s.data()).map_err(|e| e.to_string())?;
        check(&cmd, s).map_err(|e| e.to_string())
    }

    #[test]
    fn the_issue_s_four_lines_are_refused_with_a_reason() {
        let s = session();
        assert_eq!(
            run("mix -1", &s),
            Err("a mix duration must be zero or more (got -1)".into())
        );
        assert_eq!(
            run("alpha 0 2", &s),
            Err("alpha is from 0 to 1 (got 2)".into())
        );
        assert_eq!(
            run("alpha 5 0.5", &s),
            Err("track 5 plays nothing: no entry to set alpha on (set 5 ANIM first)".into())
        );
        assert_eq!(
            run("timescale 0 -1", &s),
            Err("a time scale must be zero or more (got -1)".into())
        );
    }

    #[test]
    fn sensible_values_pass() {
        let s = session();
        for line in [
            "mix 0",
            "mix 0.25",
            "alpha 0 0",
            "alpha 0 1",
            "alpha 0 0.5",
            "timescale 0 0",
            "timescale 0 2",
            "empty 0 0.3",
            "mix walk wave 0.1",
            "set 3 wave",
        ] {
            assert_eq!(run(line, &s), Ok(()), "{line}");
        }
        assert!(run("empty 1 -0.5", &s).is_err());
        assert!(run("timescale 2 1", &s).is_err(), "track 2 is empty");
    }
}
