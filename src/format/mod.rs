//! Format loaders: each turns a file's bytes into core [`SkeletonData`].
//!
//! [`load`] recognises the format ([`sniff`]) and calls its loader. Every loader reports
//! problems as a [`LoadError`] that says where (JSON path and line/column, or byte offset).

pub mod atlas;
pub mod dragonbones;
pub mod error;
pub(crate) mod json;
pub(crate) mod linked_mesh;
pub mod mrtk;
pub mod read;
pub mod sniff;
pub mod spine_binary;
pub mod spine_binary_writer;
pub mod spine_json;
pub mod spine_json_writer;

pub use error::{ErrorKind, LoadError, Location};

use crate::core::model::SkeletonData;

/// Loads a file's first (or only) skeleton, recognising its format by content. `name` is the
/// display name (usually the file stem).
///
/// ```
/// use bonescope::format::{ErrorKind, load};
///
/// let data = load(bonescope::EMBEDDED_SAMPLE, "lantern-keeper")?;
/// assert_eq!(data.source.format, "Spine");
/// // Errors say where, and what kind of problem it is.
/// let e = load(br#"{"skeleton": {"spine": "3.8.99"}, "bones": [{"name": "a", "parent": "b"}]}"#, "x")
///     .unwrap_err();
/// assert_eq!(e.kind, ErrorKind::DanglingReference);
/// assert!(e.to_string().starts_with("line 1, column "), "{e}");
/// # Ok::<(), bonescope::format::LoadError>(())
/// ```
pub fn load(bytes: &[u8], name: &str) -> Result<SkeletonData, LoadError> {
    let mut all = load_all(bytes, name)?;
    Ok(all.swap_remove(0))
}

/// Loads every skeleton of a file (DragonBones files hold several armatures; the other
/// formats one). Never empty.
pub fn load_all(bytes: &[u8], name: &str) -> Result<Vec<SkeletonData>, LoadError> {
    // A UTF-8 byte order mark is not JSON, but editors add one; it changes no line numbers.
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut one = match sniff::sniff(bytes)? {
        sniff::Format::SpineJson { spine, .. } => spine_json::load(bytes, name, spine)?,
        sniff::Format::SpineBinary(header) => spine_binary::load(bytes, &header, name)?,
        // Finished by the loader: child armatures are finished before they are nested.
        sniff::Format::DragonBones => return dragonbones::load(bytes, name),
        sniff::Format::DragonBonesBinary => return dragonbones::binary::load(bytes, name),
        sniff::Format::MrtkInput => mrtk::load_skeleton(bytes, name)?,
    };
    one.finish();
    Ok(vec![one])
}
