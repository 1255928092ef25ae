//! A recorded listener notification: what the event log view and the `scenario` command show.

use super::{AnimationState, Notification, NotificationKind};
use crate::core::model::Event;

/// A notification with the entry's state at the moment it was delivered.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedNotification {
    pub kind: NotificationKind,
    pub track: usize,
    /// The entry's serial number (1, 2, 3, ... in creation order).
    pub entry: u64,
    pub animation: String,
    pub track_time: f64,
    pub animation_time: f64,
    pub event: Option<Event>,
}

impl LoggedNotification {
    /// Captures `note` while it is being delivered by `state`.
    pub fn capture(state: &AnimationState, note: &Notification) -> LoggedNotification {
        let entry = state.entry(note.entry);
        LoggedNotification {
            kind: note.kind,
            track: note.track,
            entry: note.entry.serial,
            animation: state.animation_name(note.entry).to_string(),
            track_time: entry.map_or(0.0, |e| e.track_time),
            animation_time: entry.map_or(0.0, |e| e.animation_time()),
            event: note.event.clone(),
        }
    }
}
