//! What a session refuses, by kind: callers match on the variant, people read the message.

use crate::core::model::UnknownName;
use thiserror::Error;

/// A command that does not fit the skeleton data or the session's limits.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CommandError {
    /// An animation index the data does not have.
    #[error("no animation #{0}")]
    NoAnimation(usize),
    /// A track index at or past [`crate::session::MAX_TRACKS`].
    #[error("track {track} is beyond the limit of {limit}")]
    TrackBeyondLimit {
        /// The track asked for.
        track: usize,
        /// The highest track allowed.
        limit: usize,
    },
    /// A number that must be finite is NaN or infinite; the field names what it is.
    #[error("{0} must be a finite number")]
    NotFinite(&'static str),
}

/// Why a session could not be made or changed.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum SessionError {
    /// A skin name the data does not have.
    #[error("unknown skin \"{}\"", crate::text::sanitize(&.0.name))]
    UnknownSkin(UnknownName),
    /// A command was refused.
    #[error(transparent)]
    Command(#[from] CommandError),
    /// A headless seek would replay more bone-frames than allowed.
    #[error(transparent)]
    SeekTooLong(crate::session::work_bound::TooMuchWork),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::NameKind;

    #[test]
    fn messages_read_as_before_and_sanitize_names() {
        let e = SessionError::UnknownSkin(UnknownName::new(NameKind::Skin, "r\u{1b}d"));
        assert_eq!(e.to_string(), "unknown skin \"r\\ed\"");
        let e = SessionError::from(CommandError::TrackBeyondLimit {
            track: 70,
            limit: 63,
        });
        assert_eq!(e.to_string(), "track 70 is beyond the limit of 63");
        assert_eq!(
            CommandError::NotFinite("delay").to_string(),
            "delay must be a finite number"
        );
    }
}
