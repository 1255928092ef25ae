//! The headless commands as a user runs them: flags, output shapes, exit codes, attach over the network and from recordings.
//!
//! One test binary for these files (each was its own crate, each linking the whole
//! library): fewer links, the same tests.

#[path = "../common/mod.rs"]
mod common;

mod app_follow;
mod attach_network;
mod attach_recording;
mod check_every_finding;
mod cli_errors;
mod dragonbones_cli;
mod headless_cli;
mod layers;
mod render_image_cli;
mod session_cli;
mod spine_skel_cli;
