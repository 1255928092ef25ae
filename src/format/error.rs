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

/// A file that could not be loaded.
///
/// `Display` is a single line, `line 12, column 5 (bones[3].parent): unknown bone "foo"`, with
/// every character from the file made visible by [`sanitize`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}", LocationPrefix(.location), sanitize(.message))]
pub struct LoadError {
    pub location: Option<Location>,
    pub message: String,
}

impl LoadError {
    /// An error with no location. The message is sanitized.
    pub fn new(message: impl AsRef<str>) -> LoadError {
        LoadError {
            location: None,
            message: sanitize(message.as_ref()).into_owned(),
        }
    }

    /// An error at a place in a JSON text. Path and message are sanitized.
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

    /// An error at a byte offset of a binary file. The message is sanitized.
    pub fn byte(offset: u64, message: impl AsRef<str>) -> LoadError {
        LoadError {
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
            location: None,
            message: "a\u{1b}b".into(),
        };
        assert_eq!(raw.to_string(), "a\\eb");
    }
}
