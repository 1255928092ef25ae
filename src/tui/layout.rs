//! Where the panels go for a terminal size. Large terminals show all five panels; small ones
//! show the preview beside the focused "inspector" panel. Below the minimum, nothing but a
//! "terminal too small" message.

use crate::tui::views::PanelId;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// Smallest usable terminal.
pub const MIN_WIDTH: u16 = 60;
pub const MIN_HEIGHT: u16 = 15;

/// The computed areas.
#[derive(Clone, Debug, PartialEq)]
pub struct Areas {
    pub panels: Vec<(PanelId, Rect)>,
    pub status: Rect,
}

/// Lays out `area`; `None` when it is below the minimum size.
pub fn compute(area: Rect, inspector: PanelId) -> Option<Areas> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let [main, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(1), Constraint::Length(1)])
        .areas(area);
    let panels = if area.width >= 120 && area.height >= 32 {
        let [left, mid, right] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([
                Constraint::Percentage(36),
                Constraint::Percentage(40),
                Constraint::Percentage(24),
            ])
            .areas(main);
        let [tracks, curves] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(left);
        let [preview, events] = Layout::default()
            .direction(Direction::Vertical)
            .constraints([Constraint::Percentage(62), Constraint::Percentage(38)])
            .areas(mid);
        vec![
            (PanelId::Tracks, tracks),
            (PanelId::Curves, curves),
            (PanelId::Preview, preview),
            (PanelId::Events, events),
            (PanelId::Bones, right),
        ]
    } else {
        let inspector = if inspector == PanelId::Preview {
            PanelId::Tracks
        } else {
            inspector
        };
        let [left, right] = Layout::default()
            .direction(Direction::Horizontal)
            .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
            .areas(main);
        vec![(PanelId::Preview, left), (inspector, right)]
    };
    Some(Areas { panels, status })
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
