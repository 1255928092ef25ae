//! The Spine 3.8 JSON loader.
//!
//! Two steps, one module each: `dto` / `dto_anim` parse the text straight into serde
//! structs mirroring the format (unknown fields are errors), then `build` resolves names to
//! indices, applies defaults and checks everything a runtime would trip over, reporting each
//! problem with its JSON path and line/column (found by rescanning the text, see
//! [`crate::format::json::locate()`]).

mod anim;
mod attachment;
mod build;
mod ctx;
mod curve;
mod dto;
mod dto_anim;
mod setup;
mod skins;
pub(crate) mod vertices;

#[cfg(test)]
mod tests;

use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::parse::from_slice;

/// Loads a Spine 3.8 JSON export (already recognised by [`crate::format::sniff`]). `name` is
/// the display name. The caller runs [`SkeletonData::finish`].
pub fn load(text: &[u8], name: &str) -> Result<SkeletonData, LoadError> {
    let file: dto::SkeletonFile = from_slice(text)?;
    build::build(text, file, name)
}
