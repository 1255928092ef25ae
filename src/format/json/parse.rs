//! Parsing JSON text into typed structs, with errors that say where.

use serde::de::Deserialize;
use serde_path_to_error::Segment;

use super::path::{push_index, push_key};
use crate::format::LoadError;

/// Parses `text` into `T`. On failure the error names the JSON path of the offending value
/// (`bones[3].x`) and its line and column.
///
/// The fast path is [`super::de`], which yields what serde_json would; only when it gives up
/// is the text parsed again by serde_json with `serde_path_to_error`, whose error (message,
/// path, line and column) is the one reported, so correct files pay nothing for path tracking
/// and bad files get serde_json's own words.
pub fn from_slice<'de, T: Deserialize<'de>>(text: &'de [u8]) -> Result<T, LoadError> {
    if let Ok(v) = super::de::from_slice::<T>(text) {
        return Ok(v);
    }
    let mut de = serde_json::Deserializer::from_slice(text);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    match result {
        Err(e) => Err(convert(&path_string(e.path()), e.inner())),
        // The value parsed: it is the text after it that is wrong, or (text the fast path
        // leaves to serde_json, such as `\u` escapes) nothing is.
        Ok(v) => match de.end() {
            Ok(()) => Ok(v),
            Err(e) => Err(convert("", &e)),
        },
    }
}

/// A serde_json error as a [`LoadError`] at `path`.
pub fn convert(path: &str, e: &serde_json::Error) -> LoadError {
    // serde_json counts a position before a line's first character as column 0 (and an
    // empty input as line 0); ours start at 1.
    let (line, column) = (e.line().max(1), e.column().max(1));
    let mut message = e.to_string();
    // serde_json appends its own (0-based) position: ours is in front already.
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    if message.ends_with(&suffix) {
        message.truncate(message.len() - suffix.len());
    }
    let kind = match e.classify() {
        serde_json::error::Category::Data => crate::format::ErrorKind::InvalidValue,
        _ => crate::format::ErrorKind::Malformed,
    };
    LoadError::json(path, line, column, message).with_kind(kind)
}

/// A serde_path_to_error path in our notation.
fn path_string(path: &serde_path_to_error::Path) -> String {
    let mut out = String::new();
    for seg in path {
        match seg {
            Segment::Seq { index } => push_index(&mut out, *index),
            Segment::Map { key } => push_key(&mut out, key),
            Segment::Enum { variant } => push_key(&mut out, variant),
            // A key that could not be read (the error is in the key itself).
            Segment::Unknown => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::Location;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Doc {
        items: Vec<Item>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        x: f64,
    }

    fn err(text: &str) -> LoadError {
        from_slice::<Doc>(text.as_bytes()).unwrap_err()
    }

    #[test]
    fn type_errors_have_path_and_position() {
        let e = err("{\"items\": [{\"x\": 1},\n {\"x\": \"abc\"}]}");
        assert_eq!(
            e.location,
            Some(Location::Json {
                path: "items[1].x".into(),
                line: 2,
                column: 12
            })
        );
        assert_eq!(e.message, "invalid type: string \"abc\", expected f64");
    }

    #[test]
    fn trailing_text_is_an_error() {
        let e = err("{\"items\": []} x");
        assert!(
            matches!(e.location, Some(Location::Json { ref path, line: 1, .. }) if path.is_empty())
        );
        assert_eq!(e.message, "trailing characters");
    }

    #[test]
    fn unknown_fields_are_named() {
        let e = err("{\"items\": [{\"x\": 1, \"y\\u001b\": 2}]}");
        assert!(e.to_string().contains("unknown field `y\\e`"), "{e}");
        assert!(!e.to_string().contains('\u{1b}'));
    }
}
