//! The Bones panel (being built; shows its title only).

use super::{Panel, PanelAction, PanelId, ViewCtx, panel_block};
use ratatui::Frame;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;

/// View state of the Bones panel.
#[derive(Debug, Default)]
pub struct BonesView {}

impl Panel for BonesView {
    fn render(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        frame.render_widget(panel_block(PanelId::Bones, "", ctx), area);
    }

    fn handle_key(&mut self, _key: KeyEvent, _ctx: &ViewCtx<'_>) -> PanelAction {
        PanelAction::Ignored
    }
}
