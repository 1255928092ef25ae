//! bonescope: a timeline debugger for skeletal animation.
//!
//! The crate is split so that every format feeds one runtime:
//! - [`core`]: the data model, curves, skeleton, constraints and animation runtime. It knows
//!   nothing about files, terminals or which format a skeleton came from.
//! - [`format`]: loaders that turn Spine JSON (and later DragonBones, MRTK) into [`core`] data.
//! - [`lint`]: findings about a loaded export (for `bonescope check`).
//! - [`cli`]: the headless subcommands, printing text or JSON.

pub mod cli;
pub mod core;
pub mod diff;
pub mod format;
pub mod inspect;
pub mod lint;
pub mod output_file;
pub mod session;
pub mod text;
pub mod tui;
pub mod view_defaults;
pub mod watch;
