//! The loaders and writers under bad and odd input: located errors, mutation tests, hardening rows, hot reload faults.
//!
//! One test binary for these files (each was its own crate, each linking the whole
//! library): fewer links, the same tests.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/tmux.rs"]
mod tmux;

mod atlas_fuzz;
mod dragonbones_fuzz;
mod hardening;
mod hardening_round3;
mod mrtk_fuzz;
mod mrtk_invalid;
mod point_rotation;
mod recording_fuzz;
mod spine4x_errors;
mod spine_convert;
mod spine_json_errors;
mod spine_json_writer43;
mod spine_skel_fuzz;
mod spine_skel_writer;
mod watch_faults;
mod watch_reload;
