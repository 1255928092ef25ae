//! What the builder carries around: the raw text (to locate errors) and the expansion budget.

use crate::format::LoadError;
use crate::format::json::budget::Budget;
use crate::format::json::{Seg, error_at};

/// The text being loaded and how much memory the builder may still spend on data the text
/// only implies (curve samples per frame, full deform arrays per key, draw orders per key).
#[derive(Clone, Copy)]
pub struct Ctx<'t> {
    pub text: &'t [u8],
    budget: &'t Budget,
}

impl<'t> Ctx<'t> {
    pub fn new(text: &'t [u8], budget: &'t Budget) -> Ctx<'t> {
        Ctx { text, budget }
    }

    /// A located error at `path`.
    pub fn err(&self, path: &[Seg<'_>], message: impl AsRef<str>) -> LoadError {
        error_at(self.text, path, message)
    }

    /// Takes `bytes` from the budget, or fails at `path`.
    pub fn spend(&self, bytes: usize, path: &[Seg<'_>]) -> Result<(), LoadError> {
        self.budget.spend(bytes).map_err(|m| self.err(path, m))
    }
}

/// `base` followed by `more` (paths are short; a Vec keeps lifetimes simple).
pub fn join<'a>(base: &[Seg<'a>], more: &[Seg<'a>]) -> Vec<Seg<'a>> {
    let mut v = Vec::with_capacity(base.len() + more.len());
    v.extend_from_slice(base);
    v.extend_from_slice(more);
    v
}
