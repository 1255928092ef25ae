//! Mouse clicks on the event log: the clicked row becomes the selected one (highlighted; `d`
//! details it, Enter jumps to its frame) instead of the bottom row, while it stays in view.

use super::{EventsView, Shown};
use crate::tui::views::{PanelAction, ViewCtx};
use ratatui::layout::Position;

impl EventsView {
    /// The row (position in the filtered list) that `d` details and Enter jumps to: the
    /// clicked one while visible, else the bottom visible one.
    pub(super) fn selected_row(&self, shown: &Shown, top: usize, end: usize) -> Option<usize> {
        if let Some(p) = self.picked
            && let Some(k) = (top..end).find(|&k| shown.get(k) == p)
        {
            return Some(k);
        }
        end.checked_sub(1)
    }

    /// A click at a screen cell: selects the row under it and stops following the newest
    /// line (so the row stays where it was clicked).
    pub fn click(&mut self, column: u16, row: u16, ctx: &ViewCtx<'_>) -> PanelAction {
        if !self.list_area.contains(Position::new(column, row)) {
            return PanelAction::Ignored;
        }
        let log = ctx.session.log();
        let f = self.filter(&log);
        let len = f.shown.len();
        let top = self.top_for(len, self.page.max(1));
        let k = top + (row - self.list_area.y) as usize;
        if k >= len {
            return PanelAction::Ignored;
        }
        self.picked = Some(f.shown.get(k));
        self.top = top;
        self.follow = false;
        PanelAction::Handled
    }

    /// The log line a click selected, if any.
    pub fn picked(&self) -> Option<usize> {
        self.picked
    }
}
