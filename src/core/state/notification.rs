use super::EntryId;
use crate::core::model::Event;

/// What happened to a track entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotificationKind {
    Start,
    Interrupt,
    End,
    Dispose,
    Complete,
    Event,
}

impl NotificationKind {
    /// Lower-case name, as listeners and logs show it.
    pub fn name(self) -> &'static str {
        match self {
            NotificationKind::Start => "start",
            NotificationKind::Interrupt => "interrupt",
            NotificationKind::End => "end",
            NotificationKind::Dispose => "dispose",
            NotificationKind::Complete => "complete",
            NotificationKind::Event => "event",
        }
    }

    /// Every kind, in a stable order (for filters).
    pub const ALL: [NotificationKind; 6] = [
        NotificationKind::Start,
        NotificationKind::Interrupt,
        NotificationKind::End,
        NotificationKind::Dispose,
        NotificationKind::Complete,
        NotificationKind::Event,
    ];
}

/// One listener notification. The entry is still readable through the state while listeners
/// run, including for `Dispose`.
#[derive(Clone, Debug, PartialEq)]
pub struct Notification {
    pub kind: NotificationKind,
    pub entry: EntryId,
    pub track: usize,
    /// The fired event for `NotificationKind::Event`.
    pub event: Option<Event>,
}

/// Notifications waiting to be delivered.
#[derive(Default)]
pub(super) struct EventQueue {
    pub items: Vec<Notification>,
    pub drain_disabled: bool,
}
