//! AnimationState: tracks, queuing, mixing and listener notifications on top of the Timeline
//! API, with Spine's semantics (see `docs/ARCHITECTURE.md`).
//!
//! Notifications are queued while the state works and delivered, in order, before the public
//! call returns; a listener receives `&mut AnimationState` and may call back into it.

mod animation_state;
mod hold;
mod log;
mod mixing;
mod notification;
mod state_data;
mod track_entry;

#[cfg(test)]
mod tests;

pub use animation_state::{AnimationState, Listener};
pub use log::LoggedNotification;
pub use notification::{Notification, NotificationKind};
pub use state_data::AnimationStateData;
pub use track_entry::{EntryId, TimelineMode, TrackEntry};
