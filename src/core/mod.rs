//! The runtime core: setup data, curves, the posed skeleton and the Timeline API.
//!
//! Nothing here does I/O. Loaders in [`crate::format`] build a [`model::SkeletonData`]; the
//! runtime poses a [`skeleton::Skeleton`] from it with [`animation::Animation::apply`].

pub mod animation;
pub mod color;
pub mod curve;
pub mod math;
pub mod math3d;
pub mod model;
pub mod skeleton;
pub mod snapshot;
pub mod state;
pub mod unity_curve;
