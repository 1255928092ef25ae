//! Checks a parsed prompt command against what the viewer is playing, so a value the runtime
//! would take but that means nothing (a negative mix, alpha 2, a time scale on an empty
//! track) is refused with a reason instead of silently recorded.

use crate::session::{Command, Session};

fn non_negative(v: f64, what: &str) -> Result<(), String> {
    if v < 0.0 {
        Err(format!("{what} must be zero or more (got {v})"))
    } else {
        Ok(())
    }
}

fn playing(session: &Session, track: usize, what: &str) -> Result<(), String> {
    let st = session.state();
    if st.current(track).is_some() {
        Ok(())
    } else {
        Err(format!(
            "track {track} plays nothing: no entry to set {what} on (set {track} ANIM first)"
        ))
    }
}

/// Ok when `cmd` makes sense now; else what is wrong with it.
pub fn check(cmd: &Command, session: &Session) -> Result<(), String> {
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
                return Err(format!("alpha is from 0 to 1 (got {alpha})"));
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
    use crate::tui::commands::parse;

    fn session() -> Session {
        let app = crate::tui::offscreen::sample_app("walk", 0.0);
        app.session
    }

    fn run(line: &str, s: &Session) -> Result<(), String> {
        let cmd = parse(line, s.data())?;
        check(&cmd, s)
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
