//! The Spine binary export (`.skel`) loader.
//!
//! One module per job: [`cursor`] reads the format's primitives and locates errors,
//! [`header`] recognises a file by its hash and version string, and one module per format
//! version turns the rest into the same [`SkeletonData`] the JSON loader builds (`v38`;
//! `v4` for 4.0, 4.1 and 4.2). `LAYOUT.md` beside this file records the layout of each version as established
//! from Esoteric Software's public "Binary export format" page and the corpus' JSON twins,
//! including the 4.0-4.2 differences the 4.x readers will need.
//!
//! Strict and bounded: every count is checked against the bytes left before anything is
//! reserved, strings must be UTF-8, floats finite and booleans 0 or 1, and data the file only
//! implies (deform keys expanded to full arrays, linked meshes sharing geometry) is charged to
//! the same budget as the JSON loader's. Errors name the byte offset and what was being read.

pub mod cursor;
pub mod header;
mod v38;
mod v4;

use crate::core::model::SkeletonData;
use crate::format::LoadError;

pub use header::{Header, detect};

/// Loads a Spine binary export recognised by [`detect`]. `name` is the display name. The
/// caller runs [`SkeletonData::finish`].
pub fn load(bytes: &[u8], header: &Header, name: &str) -> Result<SkeletonData, LoadError> {
    let v = &header.version;
    let minor = |m: &str| v == m || v.starts_with(&format!("{m}."));
    if minor("3.8") {
        v38::read(bytes, header.layout, name)
    } else if let Some(m) = ["4.0", "4.1", "4.2"].iter().position(|m| minor(m)) {
        v4::read(bytes, header.layout, name, m as u8)
    } else {
        Err(LoadError::byte(
            0,
            format!(
                "Spine \"{v}\" binary (.skel) is not supported (expected Spine 3.8, 4.0, 4.1 or 4.2)"
            ),
        ))
    }
}
