//! The viewer drawn offscreen: panels by snapshot, what the terminal backend sends replayed through a terminal model.
//!
//! One test binary for these files (each was its own crate, each linking the whole
//! library): fewer links, the same tests.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/tmux.rs"]
mod tmux;

mod tui_app;
mod tui_dragonbones;
mod tui_first_minutes;
mod tui_panels;
mod tui_picture;
mod tui_playback_replay;
mod tui_terminal_output;
mod view_bones;
mod view_curves;
mod view_events;
mod view_mrtk;
mod view_preview;
mod view_spine43;
mod view_spine4x;
mod view_tracks;
