//! Mouse clicks on the Bones panel: the row under the pointer becomes the cursor and its
//! bone (a slot's, constraint's or applied row's bone) the selection, as the arrow keys would.

use super::{BonesMode, BonesView};
use crate::tui::views::{PanelAction, ViewCtx};
use ratatui::layout::Position;

impl BonesView {
    /// A click at a screen cell (inside the panel).
    pub fn click(&mut self, column: u16, row: u16, ctx: &ViewCtx<'_>) -> PanelAction {
        if !self.list_area.contains(Position::new(column, row)) {
            return PanelAction::Ignored;
        }
        self.sync(ctx);
        let k = (row - self.list_area.y) as usize;
        match self.mode {
            BonesMode::Tree => {
                let data = ctx.session.data().clone();
                let (rows, _) = self.rows_and_cursor(&data, ctx.session.skeleton());
                let k = self.offset + k;
                if k >= rows.len() {
                    return PanelAction::Ignored;
                }
                self.move_to(k, &rows, ctx, false)
            }
            BonesMode::DrawOrder => {
                let order = &ctx.session.skeleton().draw_order;
                let k = self.order_offset + k;
                let Some(&slot) = order.get(k) else {
                    return PanelAction::Ignored;
                };
                self.order_cursor = k;
                match ctx.session.data().slots.get(slot) {
                    Some(sd) if sd.bone < ctx.session.data().bones.len() => {
                        PanelAction::SelectBone(sd.bone)
                    }
                    _ => PanelAction::Handled,
                }
            }
        }
    }
}
