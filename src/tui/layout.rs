//! Where the panels go for a terminal size, with the default splits (see [`crate::tui::panels`]
//! for the three layouts). Large terminals show all five panels; small ones show the preview
//! beside the focused "inspector" panel. Below the minimum, nothing but a "terminal too
//! small" message.

use crate::tui::views::PanelId;
use ratatui::layout::Rect;

/// Smallest usable terminal.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 15;

/// The computed areas.
#[derive(Clone, Debug, PartialEq)]
pub struct Areas {
    pub panels: Vec<(PanelId, Rect)>,
    pub status: Rect,
    /// The small layout's tab strip (every panel and its key; the others are hidden).
    pub tabs: Option<Rect>,
}

/// Lays out `area`; `None` when it is below the minimum size.
pub fn compute(area: Rect, inspector: PanelId) -> Option<Areas> {
    crate::tui::panels::arrange(
        area,
        inspector,
        inspector,
        &crate::tui::panels::PanelLayout::default(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large() {
        let small = compute(Rect::new(0, 0, 80, 24), PanelId::Events).expect("fits");
        assert_eq!(small.panels.len(), 2);
        assert_eq!(small.panels[1].0, PanelId::Events);
        let large = compute(Rect::new(0, 0, 160, 48), PanelId::Events).expect("fits");
        assert_eq!(large.panels.len(), 5);
        assert!(compute(Rect::new(0, 0, 59, 24), PanelId::Tracks).is_none());
        assert!(compute(Rect::new(0, 0, 80, 14), PanelId::Tracks).is_none());
        for (_, r) in &large.panels {
            assert!(r.right() <= 160 && r.bottom() <= 47);
        }
    }
}
