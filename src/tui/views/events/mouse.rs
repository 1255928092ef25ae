//! Mouse clicks on the event log: the cursor moves to the clicked row (`d` details it, Enter
//! jumps to its frame).

use super::EventsView;
use crate::tui::views::{PanelAction, ViewCtx};
use ratatui::layout::Position;

impl EventsView {
    /// A click at a screen cell: the cursor moves to the row under it and stays there (the
    /// view no longer follows the newest line).
    pub fn click(&mut self, column: u16, row: u16, ctx: &ViewCtx<'_>) -> PanelAction {
        if !self.list_area.contains(Position::new(column, row)) {
            return PanelAction::Ignored;
        }
        let log = ctx.session.log();
        let f = self.filter(&log);
        let len = f.shown.len();
        let top = self.top_for(&f.shown, self.page.max(1));
        let k = top + (row - self.list_area.y) as usize;
        if k >= len {
            return PanelAction::Ignored;
        }
        self.picked = Some(f.shown.get(k));
        self.top = top;
        self.follow = false;
        PanelAction::Handled
    }

    /// The log line under the cursor while it is not live (following the newest), if any.
    pub fn picked(&self) -> Option<usize> {
        self.picked
    }
}
