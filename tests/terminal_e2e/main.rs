//! The viewer in a real terminal (tmux): keys, resizes, mouse, processes, attach.
//!
//! One test binary for these files (each was its own crate, each linking the whole
//! library): fewer links, the same tests.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/tmux.rs"]
mod tmux;

mod tui_attach_e2e;
mod tui_dragonbones5_e2e;
mod tui_e2e;
mod tui_mouse_e2e;
mod tui_physics_e2e;
mod tui_process_e2e;
mod tui_replay_e2e;
mod tui_slider_e2e;
mod tui_terminals_e2e;
mod xterm_sixel;
