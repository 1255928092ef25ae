//! The Spine JSON loader (exports of Spine 3.7, 3.8, 4.0, 4.1, 4.2 and 4.3).
//!
//! Two steps, one module each: `dto` / `dto_anim` parse the text straight into serde
//! structs mirroring the format (unknown fields are errors), then `build` resolves names to
//! indices, applies defaults and checks everything a runtime would trip over, reporting each
//! problem with its JSON path and line/column (found by rescanning the text, see
//! `format::json::locate`).
//!
//! Animations are read by one reader (`anim::animations`) over the two key layouts, 3.x
//! (`dto_anim`, read in `anim`) and 4.x (`dto_anim4`, read in `anim4`): each layout says
//! which sections an animation has and how a key list becomes keys; the walks over the
//! sections (named entries, `ik` / `transform`, `deform`) and the version rules (e.g. 4.1
//! moving `deform` to `attachments`) are shared.

mod anim;
mod anim4;
mod attachment;
mod build;
mod ctx;
mod curve;
mod dto;
mod dto43;
mod dto_anim;
mod dto_anim4;
mod dto_keys3;
mod dto_keys4;
mod linked_slots43;
mod setup;
mod setup43;
mod skins;
#[cfg(test)]
mod tests_key_rows;
pub(crate) mod vertices;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests37;

use crate::core::model::{Rules, SkeletonData};
use crate::format::LoadError;
use crate::format::json::parse::from_slice;

/// The Spine JSON versions this loader reads: each has its own key layout and its runtime's
/// [`Rules`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpineVersion {
    V37,
    V38,
    V40,
    V41,
    V42,
    V43,
}

impl SpineVersion {
    /// The version for a `skeleton.spine` string (`major.minor[.patch]`), if supported.
    pub fn from_export(version: &str) -> Option<SpineVersion> {
        let mut parts = version.split('.');
        let major = parts.next()?;
        let minor = parts.next().unwrap_or("");
        let minor = minor.split('-').next().unwrap_or("");
        match (major, minor) {
            ("3", "7") => Some(SpineVersion::V37),
            ("3", "8") => Some(SpineVersion::V38),
            ("4", "0") => Some(SpineVersion::V40),
            ("4", "1") => Some(SpineVersion::V41),
            ("4", "2") => Some(SpineVersion::V42),
            ("4", "3") => Some(SpineVersion::V43),
            _ => None,
        }
    }

    /// True for the 3.x layouts (3.7, 3.8): four constraint mixes, 3.x curves and events.
    pub fn is_3x(self) -> bool {
        self <= SpineVersion::V38
    }

    /// "3.7", "3.8", "4.0", ...
    pub fn name(self) -> &'static str {
        match self {
            SpineVersion::V37 => "3.7",
            SpineVersion::V38 => "3.8",
            SpineVersion::V40 => "4.0",
            SpineVersion::V41 => "4.1",
            SpineVersion::V42 => "4.2",
            SpineVersion::V43 => "4.3",
        }
    }

    /// The rules the official runtime of this version plays by.
    pub fn rules(self) -> Rules {
        match self {
            SpineVersion::V37 => Rules::SPINE_37,
            SpineVersion::V38 => Rules::SPINE_38,
            SpineVersion::V40 => Rules::SPINE_40,
            SpineVersion::V41 => Rules::SPINE_41,
            SpineVersion::V42 => Rules::SPINE_42,
            SpineVersion::V43 => Rules::SPINE_43,
        }
    }
}

/// Loads a Spine JSON export of `version` (recognised by [`crate::format::sniff`]). `name` is
/// the display name. The caller runs [`SkeletonData::finish`].
pub fn load(text: &[u8], name: &str, version: SpineVersion) -> Result<SkeletonData, LoadError> {
    if version == SpineVersion::V43 {
        let file: dto43::SkeletonFile43 = from_slice(text)?;
        build::build43(text, file, name)
    } else if version <= SpineVersion::V38 {
        let file: dto::SkeletonFile = from_slice(text)?;
        build::build(text, file, name, version)
    } else {
        let file: dto::SkeletonFile<dto_anim4::AnimationDto> = from_slice(text)?;
        build::build(text, file, name, version)
    }
}
