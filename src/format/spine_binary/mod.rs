//! The Spine binary export (`.skel`) loader.
//!
//! One module per job: `cursor` reads the format's primitives and locates errors,
//! [`header`] recognises a file by its hash and version string, and one module per format
//! version turns the rest into the same [`SkeletonData`] the JSON loader builds: one reader
//! for 3.7 to 4.3 (`read`), one module per section (`setup`, `skins`, `attachment`, `anim`,
//! `deform`), with what differs between versions named by `read::Version` and the 4.2 flag
//! bytes in `*42` modules. `LAYOUT.md` beside this file records the layout of each version as
//! established from Esoteric Software's public "Binary export format" page and the corpus'
//! JSON twins.
//!
//! Strict and bounded: every count is checked against the bytes left before anything is
//! reserved, strings must be UTF-8, floats finite and booleans 0 or 1, and data the file only
//! implies (deform keys expanded to full arrays, linked meshes sharing geometry) is charged to
//! the same budget as the JSON loader's. Errors name the byte offset and what was being read.

mod anim;
mod anim38;
mod anim42;
mod attachment;
pub(crate) mod attachment42;
pub(crate) mod cursor;
mod deform;
mod flags42;
mod flags43;
pub mod header;
mod names;
mod read;
mod setup;
mod skins;

#[cfg(test)]
mod tests38;

use crate::core::model::SkeletonData;
use crate::format::ErrorKind;
use crate::format::LoadError;

pub use header::{Header, detect};

/// Loads a Spine binary export recognised by [`detect`]. `name` is the display name. The
/// caller runs [`SkeletonData::finish`].
pub fn load(bytes: &[u8], header: &Header, name: &str) -> Result<SkeletonData, LoadError> {
    let v = &header.version;
    let minor = |m: &str| v == m || v.starts_with(&format!("{m}."));
    use read::Version::*;
    let known = [
        ("3.7", V37),
        ("3.8", V38),
        ("4.0", V40),
        ("4.1", V41),
        ("4.2", V42),
        ("4.3", V43),
    ];
    if let Some(&(_, version)) = known.iter().find(|(m, _)| minor(m)) {
        read::read(bytes, header.layout, name, version).map_err(|mut e| {
            // The 4.3 layout changed during the 4.3 betas; the one read is what the
            // official 4.3.13 runtime reads.
            if version == V43 {
                e.message = format!(
                    "{} (Spine \"{v}\" binary, read as the layout of the Spine 4.3 runtimes; an early 4.3 beta export may differ: re-export it with Spine 4.3 or later)",
                    e.message
                );
            }
            e
        })
    } else {
        Err(LoadError::byte(
            0,
            format!(
                "Spine \"{v}\" binary (.skel) is not supported (expected Spine 3.7, 3.8, 4.0, 4.1, 4.2 or 4.3)"
            ),
        )
        .with_kind(ErrorKind::UnsupportedVersion))
    }
}
