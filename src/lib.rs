//! bonescope: a timeline debugger for skeletal animation, and the runtime under it.
//!
//! As a library (`default-features = false`), bonescope is a Spine runtime that reads Spine
//! JSON and `.skel` exports of 3.7-4.3, DragonBones JSON 4.0-5.6 and `.dbbin`, and MRTK
//! input recordings into one model and plays them with each Spine release's own rules,
//! checked against the official runtimes' output. Modules:
//! - [`core`]: the data model, curves, skeleton, constraints (IK, transform, path, physics,
//!   sliders), the Timeline API and `AnimationState` (tracks, mixing, queuing, listeners). No
//!   I/O, and no knowledge of which format a skeleton came from.
//! - [`format`](mod@format): the loaders (bytes to [`core`] data, errors located and of a kind) and the
//!   Spine JSON and `.skel` writers.
//! - [`session`]: a deterministic, seekable playback of AnimationState inputs with its event
//!   log (what the viewer and `bonescope session` run).
//! - [`inspect`], [`lint`], [`diff`], [`view_defaults`], [`text`]: timelines described for
//!   people, findings about an export, comparisons of two rigs, what to open on, the one
//!   escaping policy for text from files.
//!
//! Features (all on by default): `watch` (hot reload with notify: `watch`), `tui` (the
//! ratatui viewer: `tui`), `cli` (the command line: `cli`, and `app`, the binary that plugs the
//! viewer into it).
//!
//! ```
//! use bonescope::core::skeleton::{Physics, Skeleton};
//! use bonescope::core::state::{AnimationState, AnimationStateData};
//! use std::sync::Arc;
//!
//! let data = Arc::new(bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "sample")?);
//! let mut skeleton = Skeleton::new(data.clone());
//! let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
//! state.set_animation(0, data.find_animation("walk"), true);
//! state.update(0.25);
//! state.apply(&mut skeleton);
//! skeleton.update_world_transform_with(Physics::Update);
//! let hip = data.find_bone("hip").expect("the sample has a hip");
//! assert!(skeleton.bones[hip].world_y > 0.0);
//! # Ok::<(), bonescope::format::LoadError>(())
//! ```

#[cfg(feature = "cli")]
pub mod app;
#[cfg(feature = "attach")]
pub mod attach;
#[cfg(feature = "cli")]
pub mod cli;
pub mod core;
pub mod diff;
pub mod format;
pub mod inspect;
pub mod lint;
pub mod output_file;
pub mod raster;
pub mod session;
pub mod text;
#[cfg(feature = "tui")]
pub mod tui;
pub mod view_defaults;
#[cfg(feature = "watch")]
pub mod watch;

/// The project's own sample (a Spine 3.8 skeleton with IK, a transform constraint, a weighted
/// mesh, events and four animations), built in so that `bonescope` alone shows something.
pub const EMBEDDED_SAMPLE: &[u8] = include_bytes!("../samples/spine/lantern-keeper.json");

/// The textures of [`EMBEDDED_SAMPLE`]: a Spine atlas (made by the project's
/// `examples/make_sample_atlas.rs`, no artwork from elsewhere) ...
pub const EMBEDDED_SAMPLE_ATLAS: &str = include_str!("../samples/spine/lantern-keeper.atlas");

/// ... and its one page, `lantern-keeper.png` (straight alpha).
pub const EMBEDDED_SAMPLE_PAGE: &[u8] = include_bytes!("../samples/spine/lantern-keeper.png");

/// [`EMBEDDED_SAMPLE_ATLAS`] with its page decoded, ready for [`raster::draw()`].
pub fn embedded_sample_textures() -> format::atlas::Textures {
    format::atlas::Textures::from_memory(
        EMBEDDED_SAMPLE_ATLAS,
        &[("lantern-keeper.png", EMBEDDED_SAMPLE_PAGE)],
    )
    .expect("the built-in sample's atlas and page are valid (checked by a test)")
}
