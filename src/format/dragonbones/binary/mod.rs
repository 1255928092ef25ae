//! DragonBones binary data (`.dbbin`, DragonBones 5.x): the `DBDT` tag, a format version, a
//! JSON header holding the whole document without its key frames and mesh data, then a block of
//! typed arrays those live in (layout in docs/dragonbones-5x.md §6 in `../shared`, in our own
//! words in `LAYOUT.md` beside this file).
//!
//! The reader fills the same serde structures the JSON loader reads (5.5 split timelines,
//! curves already sampled, meshes already bound), so one builder makes the core model of both.
//! Errors carry the byte offset in the file: in the header, where the JSON value is; in the
//! arrays, where the number is.

mod animation_level;
mod arrays;
mod constraint;
mod deform;
mod mesh;
mod timelines;

use super::ctx::Ctx;
use super::dto;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::Seg::{Index, Key};
use arrays::Arrays;

/// The first four bytes of every `.dbbin`.
pub const TAG: &[u8; 4] = b"DBDT";

/// Tag, format version and header length.
pub(in crate::format::dragonbones) const PREFIX: usize = 12;

/// True when `bytes` start like a `.dbbin`.
pub fn is_dbbin(bytes: &[u8]) -> bool {
    bytes.starts_with(TAG)
}

/// Loads every armature of a `.dbbin`, each finished ([`SkeletonData::finish`]).
pub fn load(bytes: &[u8], name: &str) -> Result<Vec<SkeletonData>, LoadError> {
    with_document(bytes, |cx, file, warnings| {
        let mut all = super::build(cx, file, name)?;
        for (data, w) in all.iter_mut().zip(warnings) {
            data.load_warnings.extend(w);
        }
        Ok(all)
    })
}

/// Reads a `.dbbin` into the JSON structures (key frames and meshes filled in from the
/// arrays) and hands them to `f` with the context that locates errors and each armature's
/// warnings about what was not read.
pub(in crate::format::dragonbones) fn with_document<R>(
    bytes: &[u8],
    f: impl FnOnce(&Ctx<'_>, &dto::File, Vec<Vec<String>>) -> Result<R, LoadError>,
) -> Result<R, LoadError> {
    let end = header_end(bytes)?;
    let header = &bytes[PREFIX..end];
    let budget = crate::format::json::budget::Budget::for_text(bytes.len());
    let cx = Ctx::in_binary(header, &budget, PREFIX);
    let mut file: dto::File =
        crate::format::json::parse::from_slice(header).map_err(|e| relocate(header, e))?;
    let arrays = Arrays::read(&cx, &file.offset, bytes, end)?;
    let mut warnings = Vec::with_capacity(file.armature.len());
    for (ai, arm) in file.armature.iter_mut().enumerate() {
        let at = [Key("armature"), Index(ai)];
        mesh::read_meshes(&cx, &at, arm, &arrays)?;
        let mut w = Vec::new();
        let refs = timelines::Armature {
            skins: &arm.skin,
            slots: arm.slot.len(),
            actions: &arm.actions,
        };
        for (i, anim) in arm.animation.iter_mut().enumerate() {
            let at = [at[0], at[1], Key("animation"), Index(i)];
            timelines::read(&cx, &at, anim, &refs, &arrays, &mut w)?;
        }
        warnings.push(w);
    }
    f(&cx, &file, warnings)
}

/// The JSON header of a `.dbbin`: `bytes[PREFIX..end]`, checked to be there.
pub(in crate::format::dragonbones) fn header_end(bytes: &[u8]) -> Result<usize, LoadError> {
    if bytes.len() < PREFIX {
        return Err(LoadError::byte(
            bytes.len() as u64,
            format!(
                "a .dbbin needs a {PREFIX}-byte prefix (tag, version, header length); the file has {} bytes",
                bytes.len()
            ),
        ));
    }
    if !is_dbbin(bytes) {
        return Err(LoadError::byte(0, "not a .dbbin (no DBDT tag)"));
    }
    // Bytes 4-7 are a format version (1 or 2 seen); the runtime does not check them.
    let len = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize;
    PREFIX
        .checked_add(len)
        .filter(|&e| e <= bytes.len())
        .ok_or_else(|| {
            LoadError::byte(
                8,
                format!(
                    "header length {len} runs past the end of the file ({} bytes)",
                    bytes.len()
                ),
            )
        })
}

/// A header parse error at its byte offset in the file.
fn relocate(header: &[u8], e: LoadError) -> LoadError {
    match &e.location {
        Some(crate::format::Location::Json { line, column, .. }) => {
            let at = PREFIX + super::ctx::byte_of(header, *line, *column);
            LoadError::byte(at as u64, format!("header: {}", e.message))
        }
        _ => e,
    }
}

#[cfg(test)]
mod tests;
