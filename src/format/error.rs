//! The error every loader returns: where in the file, and what is wrong, on one line.

use std::fmt;

use crate::text::sanitize;

/// Where in a file a problem is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Location {
    /// A place in a JSON text: the path of the value (`bones[3].parent`; empty for the document
    /// itself) and the 1-based line and column (columns count bytes, like serde_json).
    Json {
        path: String,
        line: usize,
        column: usize,
    },
    /// A byte offset in a binary file.
    Byte { offset: u64 },
}

/// What kind of problem a [`LoadError`] is. `check` reports it (as [`ErrorKind::code`]) and
/// callers match on it; the message is for people and may quote names from the file, so it is
/// never parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// Not a file of a format bonescope reads, or an empty one.
    UnsupportedFormat,
    /// A format bonescope reads, in a version it does not.
    UnsupportedVersion,
    /// The bytes cannot be read as the format at all: broken JSON syntax, a value of the wrong
    /// type, a binary file that ends early or holds an impossible count or an unknown type id.
    Malformed,
    /// A well-formed value the format does not allow where it stands (the default of JSON
    /// errors).
    InvalidValue,
    /// A name that refers to nothing: a bone, slot, skin, event, attachment, animation.
    DanglingReference,
    /// Two items of one kind share a name.
    DuplicateName,
    /// NaN or an infinity where a finite number is needed.
    NonFinite,
}

impl ErrorKind {
    /// The finding code `check` prints (kebab-case, stable: scripts match on it).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::UnsupportedFormat => "unsupported-format",
            ErrorKind::UnsupportedVersion => "unsupported-version",
            ErrorKind::Malformed => "unreadable",
            ErrorKind::InvalidValue => "invalid-value",
            ErrorKind::DanglingReference => "dangling-reference",
            ErrorKind::DuplicateName => "duplicate-name",
            ErrorKind::NonFinite => "non-finite",
        }
    }

    /// Whether the file could not be read at all (rather than read and found wrong in a place).
    pub fn is_unreadable(self) -> bool {
        matches!(
            self,
            ErrorKind::UnsupportedFormat | ErrorKind::UnsupportedVersion | ErrorKind::Malformed
        )
    }
}

/// A file that could not be loaded.
///
/// `Display` is a single line, `line 12, column 5 (bones[3].parent): unknown bone "foo"`, with
/// every character from the file made visible by [`sanitize`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}", LocationPrefix(.location), sanitize(.message))]
pub struct LoadError {
    /// What kind of problem it is (see [`ErrorKind`]).
    pub kind: ErrorKind,
    pub location: Option<Location>,
    pub message: String,
}

impl LoadError {
    /// An error with no location, of kind [`ErrorKind::InvalidValue`] (see
    /// [`LoadError::with_kind`]). The message is sanitized.
    pub fn new(message: impl AsRef<str>) -> LoadError {
        LoadError {
            kind: ErrorKind::InvalidValue,
            location: None,
            message: sanitize(message.as_ref()).into_owned(),
        }
    }

    /// The same error, of kind `kind`.
    #[must_use]
    pub fn with_kind(self, kind: ErrorKind) -> LoadError {
        LoadError { kind, ..self }
    }

    /// An error at a place in a JSON text, of kind [`ErrorKind::InvalidValue`]. Path and
    /// message are sanitized.
    pub fn json(path: &str, line: usize, column: usize, message: impl AsRef<str>) -> LoadError {
        LoadError {
            location: Some(Location::Json {
                path: sanitize(path).into_owned(),
                line,
                column,
            }),
            ..LoadError::new(message)
        }
    }

    /// An error at a byte offset of a binary file, of kind [`ErrorKind::Malformed`] (a binary
    /// reader cannot go on past a value it does not understand). The message is sanitized.
    pub fn byte(offset: u64, message: impl AsRef<str>) -> LoadError {
        LoadError {
            kind: ErrorKind::Malformed,
            location: Some(Location::Byte { offset }),
            ..LoadError::new(message)
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Json { path, line, column } => {
                write!(f, "line {line}, column {column}")?;
                if !path.is_empty() {
                    write!(f, " ({})", sanitize(path))?;
                }
                Ok(())
            }
            Location::Byte { offset } => write!(f, "byte {offset}"),
        }
    }
}

/// `"<location>: "`, or nothing without a location.
struct LocationPrefix<'a>(&'a Option<Location>);

impl fmt::Display for LocationPrefix<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(loc) => write!(f, "{loc}: "),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_on_one_line() {
        let e = LoadError::json("bones[3].parent", 12, 5, "unknown bone \"foo\"");
        assert_eq!(
            e.to_string(),
            "line 12, column 5 (bones[3].parent): unknown bone \"foo\""
        );
        let e = LoadError::json("", 1, 1, "empty file");
        assert_eq!(e.to_string(), "line 1, column 1: empty file");
        assert_eq!(
            LoadError::byte(1234, "bad magic").to_string(),
            "byte 1234: bad magic"
        );
        assert_eq!(LoadError::new("oops").to_string(), "oops");
    }

    #[test]
    fn sanitizes_file_text() {
        let e = LoadError::json("bones.a\u{1b}b", 1, 2, "unknown bone \"x\u{202e}y\"\nnext");
        let s = e.to_string();
        assert_eq!(
            s,
            "line 1, column 2 (bones.a\\eb): unknown bone \"x\\u{202e}y\"\\nnext"
        );
        // Even a hand-built error cannot print raw control characters.
        let raw = LoadError {
            kind: ErrorKind::InvalidValue,
            location: None,
            message: "a\u{1b}b".into(),
        };
        assert_eq!(raw.to_string(), "a\\eb");
    }
}
