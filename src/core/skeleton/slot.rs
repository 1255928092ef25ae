//! A posed slot: color, attachment and deform offsets.

use crate::core::color::Color;
use crate::core::model::{AttachmentId, SkeletonData, SlotData};

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
    /// The image of the attachment's sequence (-1: the sequence's setup image).
    pub sequence_index: i32,
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
            sequence_index: -1,
        }
    }

    /// Sets the attachment. Nothing happens when it does not change; otherwise the sequence
    /// index goes back to the setup image and the deform offsets are cleared, except (4.x
    /// rules) between vertex attachments driven by the same deform timelines.
    pub fn set_attachment(&mut self, attachment: Option<AttachmentId>, data: &SkeletonData) {
        if self.attachment == attachment {
            return;
        }
        let same_timelines = |a: AttachmentId, b: AttachmentId| {
            let (a, b) = (&data.attachments[a], &data.attachments[b]);
            a.vertex_data().is_some()
                && b.vertex_data().is_some()
                && a.deform_source == b.deform_source
        };
        let keep = data.rules.keep_deform_same_timeline
            && matches!((self.attachment, attachment), (Some(a), Some(b)) if same_timelines(a, b));
        if !keep {
            self.deform.clear();
        }
        self.attachment = attachment;
        self.sequence_index = -1;
    }
}
