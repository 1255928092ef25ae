//! A posed slot: color, attachment and deform offsets.

use crate::core::color::Color;
use crate::core::model::{AttachmentId, SlotData};

/// A slot of a posed skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    pub color: Color,
    pub dark: Option<Color>,
    /// Color offset (see [`SlotData::offset`]).
    pub offset: Option<Color>,
    pub attachment: Option<AttachmentId>,
    /// Vertex offsets (unweighted: absolute positions) set by deform timelines; empty = none.
    pub deform: Vec<f64>,
    /// Bookkeeping of the animation state: whether this frame's attachment came from a key.
    pub attachment_state: u32,
}

impl Slot {
    /// A slot in its setup colors with no attachment.
    pub fn new(data: &SlotData) -> Slot {
        Slot {
            color: data.color,
            dark: data.dark,
            offset: data.offset,
            attachment: None,
            deform: Vec::new(),
            attachment_state: 0,
        }
    }

    /// Sets the attachment; deform offsets are cleared only when it really changes.
    pub fn set_attachment(&mut self, attachment: Option<AttachmentId>) {
        if self.attachment != attachment {
            self.attachment = attachment;
            self.deform.clear();
        }
    }
}
