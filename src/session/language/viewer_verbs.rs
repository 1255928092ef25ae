//! Prompt verbs that move the playhead or the view rather than the animation state:
//! `seek`, `frame`, `step`, `play`, `home`, `in`/`out`/`range`, `track`, `pin`/`unpin`,
//! `save`, `skin`, `bone`. The `session` command runs the same verbs from a script.

use super::PromptError;
use crate::text::sanitize;
use std::path::PathBuf;

/// A viewer verb.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewerCommand {
    /// Go to this session time (seconds).
    Seek(f64),
    /// Go to this session frame.
    Frame(u64),
    /// Move this many frames (negative: back).
    Step(i64),
    /// Play this many seconds at speed 1 (whole frames), then pause.
    Play(f64),
    /// Back to the session's frame 0 (`frame 0`; the viewer's `Home` key goes to the start of
    /// the followed animation instead, which a script reaches with `frame N`).
    Home,
    /// Set the loop range's in point (the current frame when `None`).
    In(Option<u64>),
    /// Set the loop range's out point (the current frame when `None`).
    Out(Option<u64>),
    /// Clear the loop range.
    RangeOff,
    /// Follow track N's playing entry in the status line, dopesheet and curves.
    Track(usize),
    /// Pin the dopesheet and curves on an animation (by name; the shown one when `None`).
    Pin(Option<String>),
    /// Follow the playing entry again.
    Unpin,
    /// Write the visible event log to a new file (NDJSON when the name ends in
    /// `.json`/`.ndjson`).
    Save(PathBuf),
    /// `save!`: [`ViewerCommand::Save`], replacing an existing file.
    SaveOver(PathBuf),
    /// Combine these skins, in this order (`skin A B`); `None`: say which are on.
    Skin(Option<Vec<String>>),
    /// Select a bone by name.
    Bone(String),
}

/// Help lines for these verbs.
pub const HELP: &[(&str, &str)] = &[
    ("seek T | frame N", "go to session time T seconds / frame N"),
    (
        "step N | play S | home",
        "N frames on or back / play S seconds / frame 0",
    ),
    ("in [N] | out [N] | range off", "loop range while playing"),
    ("track N", "follow track N's playing entry"),
    (
        "pin [ANIM] | unpin",
        "keep showing an animation / follow again",
    ),
    (
        "save PATH | save! PATH",
        "write the visible event log (.ndjson/.json: NDJSON) / replacing a file",
    ),
    (
        "skin A B ... | skin default",
        "combine skins in this order (as poses --skin A,B) / default skin only",
    ),
    ("bone NAME", "select a bone"),
];

fn number(word: Option<&str>, what: &'static str) -> Result<f64, PromptError> {
    let w = word.ok_or(PromptError::Missing(what))?;
    match w.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(PromptError::NotANumber {
            word: sanitize(w).into_owned(),
            what,
        }),
    }
}

fn whole(word: Option<&str>, what: &'static str) -> Result<u64, PromptError> {
    let w = word.ok_or(PromptError::Missing(what))?;
    w.parse::<u64>().map_err(|_| PromptError::NotAFrame {
        word: sanitize(w).into_owned(),
        what,
    })
}

/// Parses a viewer verb; `None` when the line is not one (it may be an animation command).
pub fn parse(line: &str) -> Option<Result<ViewerCommand, PromptError>> {
    let line = line.trim();
    let (verb, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let mut words = rest.split_whitespace();
    let arg = words.next();
    let one = |r: Result<ViewerCommand, PromptError>, extra: Option<&str>| match extra {
        Some(x) => Err(PromptError::unexpected(x)),
        None => r,
    };
    let optional_frame = |a: Option<&str>| a.map(|_| whole(a, "frame")).transpose();
    Some(match verb {
        "seek" => one(number(arg, "time").map(ViewerCommand::Seek), words.next()),
        "frame" => one(whole(arg, "frame").map(ViewerCommand::Frame), words.next()),
        "step" => one(
            match arg {
                None => Ok(ViewerCommand::Step(1)),
                Some(a) => a
                    .parse::<i64>()
                    .map(ViewerCommand::Step)
                    .map_err(|_| PromptError::not_a(a, "a frame count")),
            },
            words.next(),
        ),
        "play" => one(
            number(arg, "seconds").and_then(|s| {
                if s >= 0.0 {
                    Ok(ViewerCommand::Play(s))
                } else {
                    Err(PromptError::NegativePlay)
                }
            }),
            words.next(),
        ),
        "home" => one(Ok(ViewerCommand::Home), arg),
        "in" => one(optional_frame(arg).map(ViewerCommand::In), words.next()),
        "out" => one(optional_frame(arg).map(ViewerCommand::Out), words.next()),
        "range" => match arg {
            Some("off") => one(Ok(ViewerCommand::RangeOff), words.next()),
            _ => Err(PromptError::Usage("range off")),
        },
        "track" => one(
            whole(arg, "track").and_then(|t| {
                usize::try_from(t)
                    .ok()
                    .filter(|&t| t < crate::session::MAX_TRACKS)
                    .map(ViewerCommand::Track)
                    .ok_or(PromptError::TrackTooLarge(t))
            }),
            words.next(),
        ),
        "pin" => Ok(ViewerCommand::Pin(
            (!rest.is_empty()).then(|| rest.trim_matches('"').to_string()),
        )),
        "unpin" => one(Ok(ViewerCommand::Unpin), arg),
        "skin" => {
            if rest.is_empty() {
                Ok(ViewerCommand::Skin(None))
            } else {
                super::split(rest).map(|w| ViewerCommand::Skin(Some(w)))
            }
        }
        "bone" => match super::split(rest) {
            Ok(w) if w.len() == 1 => Ok(ViewerCommand::Bone(w[0].clone())),
            Ok(_) => Err(PromptError::Usage("bone NAME (quote a name with spaces)")),
            Err(e) => Err(e),
        },
        "save" | "save!" => {
            if rest.is_empty() {
                Err(PromptError::Usage(if verb == "save" {
                    "save PATH"
                } else {
                    "save! PATH"
                }))
            } else if verb == "save" {
                Ok(ViewerCommand::Save(PathBuf::from(rest)))
            } else {
                Ok(ViewerCommand::SaveOver(PathBuf::from(rest)))
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_viewer_verbs() {
        assert_eq!(parse("seek 1.5"), Some(Ok(ViewerCommand::Seek(1.5))));
        assert_eq!(parse("frame 30"), Some(Ok(ViewerCommand::Frame(30))));
        assert_eq!(parse("step -3"), Some(Ok(ViewerCommand::Step(-3))));
        assert_eq!(parse("step"), Some(Ok(ViewerCommand::Step(1))));
        assert_eq!(parse("in"), Some(Ok(ViewerCommand::In(None))));
        assert_eq!(parse("out 40"), Some(Ok(ViewerCommand::Out(Some(40)))));
        assert_eq!(
            parse("pin big wave"),
            Some(Ok(ViewerCommand::Pin(Some("big wave".into()))))
        );
        assert_eq!(
            parse("save /tmp/log.ndjson"),
            Some(Ok(ViewerCommand::Save("/tmp/log.ndjson".into())))
        );
        assert_eq!(
            parse("save! /tmp/log.ndjson"),
            Some(Ok(ViewerCommand::SaveOver("/tmp/log.ndjson".into())))
        );
        assert!(parse("set 0 walk").is_none());
        assert_eq!(
            parse("skin eyes/violet \"hair pink\""),
            Some(Ok(ViewerCommand::Skin(Some(vec![
                "eyes/violet".into(),
                "hair pink".into()
            ]))))
        );
        assert_eq!(parse("skin"), Some(Ok(ViewerCommand::Skin(None))));
        assert_eq!(
            parse("bone head"),
            Some(Ok(ViewerCommand::Bone("head".into())))
        );
        assert!(matches!(parse("bone a b"), Some(Err(_))));
        assert!(matches!(parse("seek NaN"), Some(Err(_))));
        assert!(matches!(parse("frame -1"), Some(Err(_))));
        assert!(matches!(parse("play -1"), Some(Err(_))));
        assert!(matches!(parse("home now"), Some(Err(_))));
        assert!(matches!(parse("track 9999"), Some(Err(_))));
    }
}
