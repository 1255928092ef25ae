//! Golden comparisons: poses, AnimationState scenarios, `.skel` and DragonBones twins, MRTK and render references, against `../shared/golden` and fixtures.
//!
//! One test binary for these files (each was its own crate, each linking the whole
//! library): fewer links, the same tests.

#[path = "../common/mod.rs"]
mod common;

mod dragonbones_goldens;
mod dragonbones_twins;
mod mrtk_goldens;
mod mrtk_sample;
mod pose_hash;
mod render_golden;
mod session_replay;
mod spine38_poses;
mod spine38_scenarios;
mod spine38_skel_poses;
mod spine43_poses;
mod spine43_scenarios;
mod spine4x_poses;
mod spine4x_scenarios;
mod spine4x_skel_poses;
mod spine_skel_twins;
