//! Selections that follow each other: a bone selected (in the Bones panel, by a search or a
//! click) selects its timeline in the dopesheet and Curves.

use crate::inspect::Target;
use crate::tui::app::App;

impl App {
    /// Selects bone `b` and, unless the selected timeline already animates it, the first
    /// timeline of the shown animation that does (none: the timeline selection stays).
    pub fn select_bone(&mut self, b: usize) {
        self.selection.bone = Some(b);
        let current = self
            .selection
            .timeline
            .and_then(|t| self.timelines.get(t))
            .map(|i| i.target);
        if current == Some(Target::Bone(b)) {
            return;
        }
        if let Some(t) = self
            .timelines
            .iter()
            .position(|i| i.target == Target::Bone(b))
        {
            self.selection.timeline = Some(t);
        }
    }

    /// Selects timeline `t` of the shown animation and the bone it animates, if any.
    pub fn select_timeline(&mut self, t: usize) {
        if t >= self.timelines.len() {
            return;
        }
        self.selection.timeline = Some(t);
        if let Target::Bone(b) = self.timelines[t].target {
            self.selection.bone = Some(b);
        }
    }
}
