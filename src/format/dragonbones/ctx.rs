//! What the builder carries around: the raw text (to locate errors) and the expansion budget.

use std::cell::Cell;

use crate::format::LoadError;
use crate::format::json::{Seg, error_at};

/// The text being loaded and how much memory the builder may still spend on data the text
/// only implies (curve samples per frame, full deform arrays per key, draw orders per key).
#[derive(Clone, Copy)]
pub struct Ctx<'t> {
    pub text: &'t [u8],
    budget: &'t Cell<usize>,
}

/// 64 MiB plus 128 bytes per byte of text: far above any real export, and a small file
/// cannot claim gigabytes with an absurd duration.
pub fn budget_for(text: &[u8]) -> Cell<usize> {
    Cell::new((64usize << 20).saturating_add(text.len().saturating_mul(128)))
}

impl<'t> Ctx<'t> {
    pub fn new(text: &'t [u8], budget: &'t Cell<usize>) -> Ctx<'t> {
        Ctx { text, budget }
    }

    /// A located error at `path`.
    pub fn err(&self, path: &[Seg<'_>], message: impl AsRef<str>) -> LoadError {
        error_at(self.text, path, message)
    }

    /// Takes `bytes` from the budget, or fails at `path`.
    pub fn spend(&self, bytes: usize, path: &[Seg<'_>]) -> Result<(), LoadError> {
        match self.budget.get().checked_sub(bytes) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(self.err(
                path,
                format!(
                    "this would expand the file's {} bytes past the memory a file this size can need; refusing (implausible durations or counts)",
                    self.text.len()
                ),
            )),
        }
    }
}

/// `base` followed by `more` (paths are short; a Vec keeps lifetimes simple).
pub fn join<'a>(base: &[Seg<'a>], more: &[Seg<'a>]) -> Vec<Seg<'a>> {
    let mut v = Vec::with_capacity(base.len() + more.len());
    v.extend_from_slice(base);
    v.extend_from_slice(more);
    v
}
