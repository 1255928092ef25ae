//! Setup-pose data: the immutable description of a skeleton and its animations.
//!
//! Everything refers to everything else by index (bone, slot, skin, attachment, event), so a
//! model is plain data that loaders build and the runtime reads without lookups by name.

mod attachment;
mod bone_data;
mod constraint_data;
mod event_data;
mod joint3_data;
mod lattice;
mod physics_data;
mod rules;
mod skeleton_data;
mod skin;
mod slot_data;
mod unknown_name;

pub use attachment::*;
pub use bone_data::*;
pub use constraint_data::*;
pub use event_data::*;
pub use joint3_data::*;
pub use lattice::Lattice;
pub use physics_data::*;
pub use rules::*;
pub use skeleton_data::*;
pub use skin::*;
pub use slot_data::*;
pub use unknown_name::{NameKind, UnknownName};
