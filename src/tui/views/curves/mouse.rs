//! Mouse clicks on the Curves panel's key list (timelines without plotted channels): the
//! clicked key's time, for the app to move the playhead to.

use super::{CurvesView, key_rows};
use crate::tui::views::ViewCtx;
use crate::tui::views::tracks::axis;
use ratatui::layout::Position;

impl CurvesView {
    /// The animation time of the key listed at a screen cell, if a key row is there.
    pub fn key_at(&self, column: u16, row: u16, ctx: &ViewCtx<'_>) -> Option<f64> {
        let area = self.list_area?;
        if !area.contains(Position::new(column, row)) {
            return None;
        }
        let (anim, info) = axis::selected(ctx)?;
        let tl = anim.timelines.get(info?.index)?;
        let rows = key_rows(ctx, tl);
        rows.get(self.list_scroll + (row - area.y) as usize)
            .map(|(t, _)| *t)
    }
}
