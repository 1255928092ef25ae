//! Format loaders: each turns a file's bytes into core [`SkeletonData`].
//!
//! [`load`] recognises the format ([`sniff`]) and calls its loader. Every loader reports
//! problems as a [`LoadError`] that says where (JSON path and line/column, or byte offset).

pub mod error;
pub mod json;
pub mod mrtk;
pub mod sniff;
pub mod spine_json;

pub use error::{LoadError, Location};

use crate::core::model::SkeletonData;

/// Loads a skeleton from a file's bytes. `name` is the display name (usually the file stem).
pub fn load(bytes: &[u8], name: &str) -> Result<SkeletonData, LoadError> {
    // A UTF-8 byte order mark is not JSON, but editors add one; it changes no line numbers.
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut data = match sniff::sniff(bytes)? {
        sniff::Format::SpineJson38 { .. } => spine_json::load(bytes, name)?,
        sniff::Format::MrtkInput => mrtk::load_skeleton(bytes, name)?,
    };
    data.finish();
    Ok(data)
}
