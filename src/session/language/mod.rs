//! The prompt language: the lines a user types at the viewer's `:` prompt, a `session`
//! script holds, and [`super::playhead::run_line`] runs. One parser and one interpreter for all of
//! them; the viewer adds only keys, completion and history.
//!
//! A line is either an animation command (`set`, `queue`, `mix`, ...: a
//! [`super::Command`] recorded as a session input) or a viewer verb (`seek`, `step`, `skin`,
//! `pin`, ...: [`ViewerCommand`], which moves the playhead or the view and is not recorded).

mod animation_commands;
mod validate;
mod viewer_verbs;

pub use animation_commands::{HELP as ANIMATION_HELP, parse as parse_animation_command, split};
pub use validate::check;
pub use viewer_verbs::{HELP as VIEWER_HELP, ViewerCommand, parse as parse_viewer_verb};

use super::Command;
use crate::core::model::SkeletonData;
use crate::text::sanitize;

/// One parsed prompt line.
#[derive(Clone, Debug, PartialEq)]
pub enum PromptLine {
    /// Changes the animation state; recorded as a session input.
    Animation(Command),
    /// Moves the playhead or the view.
    Viewer(ViewerCommand),
}

/// Parses one prompt line (without its leading `:`).
pub fn parse(line: &str, data: &SkeletonData) -> Result<PromptLine, PromptError> {
    match parse_viewer_verb(line) {
        Some(verb) => verb.map(PromptLine::Viewer),
        None => parse_animation_command(line, data).map(PromptLine::Animation),
    }
}

/// Why a prompt line was refused. Words quoted from the line are already sanitized.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PromptError {
    #[error("empty command")]
    Empty,
    #[error("unknown command \"{0}\" (? lists them)")]
    UnknownCommand(String),
    #[error("missing {0}")]
    Missing(&'static str),
    #[error("\"{word}\" is not {what}")]
    NotA { word: String, what: &'static str },
    #[error("\"{word}\" is not a number ({what})")]
    NotANumber { word: String, what: &'static str },
    #[error("\"{word}\" is not a frame number ({what})")]
    NotAFrame { word: String, what: &'static str },
    #[error("expected \"loop\", got \"{0}\"")]
    NotLoop(String),
    #[error("unexpected \"{0}\"")]
    Unexpected(String),
    #[error("unterminated quote")]
    UnterminatedQuote,
    #[error("use: {0}")]
    Usage(&'static str),
    #[error("play takes a duration of zero or more seconds")]
    NegativePlay,
    #[error("track number too large ({0})")]
    TrackTooLarge(u64),
    #[error("no animation \"{0}\"")]
    NoAnimation(String),
    #[error("no bone \"{0}\"")]
    NoBone(String),
    /// A name the skeleton does not have (a skin), with the choices.
    #[error(transparent)]
    UnknownName(#[from] crate::core::model::UnknownName),
    /// The command is well-formed but addresses what the skeleton does not have.
    #[error(transparent)]
    Invalid(#[from] crate::session::SessionError),
    #[error("{what} must be zero or more (got {value})")]
    Negative { what: &'static str, value: f64 },
    #[error("alpha is from 0 to 1 (got {0})")]
    AlphaRange(f64),
    #[error("track {track} plays nothing: no entry to set {what} on (set {track} ANIM first)")]
    NothingPlaying { track: usize, what: &'static str },
    /// The verb acts on the viewer only (e.g. `save` in a headless run).
    #[error("{0}")]
    NotHere(&'static str),
}

impl PromptError {
    /// `"word" is not <what>`, the word sanitized.
    pub(crate) fn not_a(word: &str, what: &'static str) -> PromptError {
        PromptError::NotA {
            word: sanitize(word).into_owned(),
            what,
        }
    }

    /// `unexpected "word"`, the word sanitized.
    pub(crate) fn unexpected(word: &str) -> PromptError {
        PromptError::Unexpected(sanitize(word).into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::animation::Animation;

    #[test]
    fn a_line_is_a_viewer_verb_or_an_animation_command() {
        let mut d = SkeletonData::default();
        d.animations.push(Animation::new("seek", vec![]));
        assert_eq!(
            parse("seek 1", &d),
            Ok(PromptLine::Viewer(ViewerCommand::Seek(1.0)))
        );
        assert_eq!(
            parse("set 0 seek", &d),
            Ok(PromptLine::Animation(Command::SetAnimation {
                track: 0,
                animation: 0,
                looping: false
            }))
        );
        assert_eq!(parse("", &d), Err(PromptError::Empty));
    }
}
