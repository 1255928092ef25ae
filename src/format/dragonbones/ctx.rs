//! What the builder carries around: the raw text (to locate errors) and the expansion budget.

use crate::format::json::budget::Budget;
use crate::format::json::{Seg, error_at};
use crate::format::{LoadError, Location};

/// The text being loaded and how much memory the builder may still spend on data the text
/// only implies (curve samples per frame, full deform arrays per key, draw orders per key).
#[derive(Clone, Copy)]
pub struct Ctx<'t> {
    pub text: &'t [u8],
    budget: &'t Budget,
    /// For the JSON header of a `.dbbin`: where `text` starts in the file, so errors name a
    /// byte offset of the file (with the JSON path) rather than a line of the header.
    byte_base: Option<usize>,
}

impl<'t> Ctx<'t> {
    pub fn new(text: &'t [u8], budget: &'t Budget) -> Ctx<'t> {
        Ctx {
            text,
            budget,
            byte_base: None,
        }
    }

    /// A context for JSON `text` found at byte `base` of a binary file.
    pub fn in_binary(text: &'t [u8], budget: &'t Budget, base: usize) -> Ctx<'t> {
        Ctx {
            byte_base: Some(base),
            ..Ctx::new(text, budget)
        }
    }

    /// A located error at `path`.
    pub fn err(&self, path: &[Seg<'_>], message: impl AsRef<str>) -> LoadError {
        let e = error_at(self.text, path, message);
        match (self.byte_base, &e.location) {
            (Some(base), Some(Location::Json { path, line, column })) => {
                let at = base + byte_of(self.text, *line, *column);
                let what = if path.is_empty() {
                    String::new()
                } else {
                    format!("({path}) ")
                };
                LoadError::byte(at as u64, format!("{what}{}", e.message))
            }
            _ => e,
        }
    }

    /// Takes `bytes` from the budget, or fails at `path`.
    pub fn spend(&self, bytes: usize, path: &[Seg<'_>]) -> Result<(), LoadError> {
        self.budget
            .spend(bytes)
            .map_err(|m| self.err(path, m.to_string()))
    }
}

/// The byte index of 1-based `line` and `column` (columns count bytes) in `text`.
pub fn byte_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].iter().position(|&b| b == b'\n') {
            Some(i) => start += i + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

/// `base` followed by `more` (paths are short; a Vec keeps lifetimes simple).
pub fn join<'a>(base: &[Seg<'a>], more: &[Seg<'a>]) -> Vec<Seg<'a>> {
    let mut v = Vec::with_capacity(base.len() + more.len());
    v.extend_from_slice(base);
    v.extend_from_slice(more);
    v
}

/// [`join`] into `buf`, reusing its memory (a path per timeline, most never reported).
pub fn rejoin<'a>(buf: &mut Vec<Seg<'a>>, base: &[Seg<'a>], more: &[Seg<'a>]) {
    buf.clear();
    buf.extend_from_slice(base);
    buf.extend_from_slice(more);
}
