//! JSON helpers shared by the JSON loaders: paths, the path locator, ordered maps,
//! single-precision numbers and typed parsing with located errors.

pub mod budget;
pub mod de;
pub mod key_row;
pub mod list;
pub mod locate;
pub mod number;
pub mod ordered_map;
pub mod parse;
pub mod path;

pub use budget::BudgetExceeded;
pub use locate::locate_nearest;
pub use number::{F32, F32List, Raw32};
pub use ordered_map::{OrderedMap, SmallKey};
pub use path::{Seg, format_path};

use crate::format::LoadError;

/// A [`LoadError`] at the value `path` of `text`, located by rescanning the text.
pub fn error_at(text: &[u8], path: &[Seg<'_>], message: impl AsRef<str>) -> LoadError {
    let (line, column) = locate_nearest(text, path);
    LoadError::json(&format_path(path), line, column, message)
}
