//! MRTK2 input animations (`InputAnimation-*.bin`, format 1.0 and 1.1): a strict reader into a
//! plain-data [`Recording`] of named Unity curves, markers and warnings.
//!
//! Layout, MRTK's own tolerance and the evaluation rules are described in the shared
//! `docs/mrtk-input-animation.md`. Curve paths: `camera.position.x` .. `camera.rotation.w`,
//! `hand.left.tracked`, `hand.right.pinching`, `hand.right.joint.IndexTip.position.y`,
//! `eye_gaze.origin.x` .. `eye_gaze.direction.z`.

mod changes;
mod cursor;
pub mod error;
pub mod layout;
mod lint;
pub mod model;
pub mod playback;
mod reader;
pub mod to_skeleton;

pub use error::{ErrorKind, ReadError};
pub use layout::{Hand, JOINT_NAMES, Sections};
pub use model::{CurveKind, Marker, NamedCurve, Recording, Version};
pub use playback::{HandState, Pose, Ray};
pub use reader::read;
pub use to_skeleton::to_skeleton;

use super::LoadError;

/// The magic number every MRTK input animation starts with (little endian on disk).
pub const MAGIC: u64 = 0x6a8f_af6e_0f9e_42c6;

/// True when `bytes` start with the MRTK magic number.
pub fn is_mrtk(bytes: &[u8]) -> bool {
    bytes.get(..8) == Some(&MAGIC.to_le_bytes()[..])
}

/// Reads a recording, reporting a rejected file as a [`LoadError`] at its byte offset.
pub fn load(bytes: &[u8]) -> Result<Recording, LoadError> {
    read(bytes).map_err(LoadError::from)
}

/// Reads a recording as skeleton data (see [`to_skeleton`](mod@to_skeleton); not yet `finish`ed).
pub fn load_skeleton(
    bytes: &[u8],
    name: &str,
) -> Result<crate::core::model::SkeletonData, LoadError> {
    Ok(to_skeleton(&load(bytes)?, name))
}
