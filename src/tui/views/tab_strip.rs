//! The tab strip of the small layout (below 120x32): the preview and one inspector panel
//! show, so a row above them names every panel with the key that shows it (the visible ones
//! marked) and where help is.

use crate::tui::theme::Theme;
use crate::tui::views::PanelId;
use crate::tui::widgets::width;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// The key that focuses (and, in the small layout, shows) a panel.
pub fn key_of(id: PanelId) -> char {
    match id {
        PanelId::Tracks => 'T',
        PanelId::Curves => 'C',
        PanelId::Bones => 'B',
        PanelId::Events => 'E',
        PanelId::Preview => 'P',
    }
}

/// The strip's spans: ` Tracks T ` per panel (the `shown` ones in the selected style) and
/// `? help` at the right end when it fits in `w` cells.
pub fn line(shown: &[PanelId], w: usize, theme: &Theme) -> Line<'static> {
    let mut spans = Vec::new();
    let mut used = 0;
    for id in PanelId::ALL {
        let tab = format!(" {} {} ", id.title(), key_of(id));
        let style = if shown.contains(&id) {
            theme.selected()
        } else {
            theme.text()
        };
        used += width(&tab) + 1;
        spans.push(Span::styled(tab, style));
        spans.push(Span::raw(" "));
    }
    let help = "? help ";
    if used + width(help) <= w {
        spans.push(Span::raw(" ".repeat(w - used - width(help))));
        spans.push(Span::styled(help, theme.dim()));
    }
    Line::from(spans)
}

/// Draws the strip in `area` (one row).
pub fn render(frame: &mut Frame<'_>, area: Rect, shown: &[PanelId], theme: &Theme) {
    let line = line(shown, usize::from(area.width), theme);
    frame
        .buffer_mut()
        .set_line(area.x, area.y, &line, area.width);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ColorMode;

    #[test]
    fn every_panel_with_its_key_and_the_help_hint_fit_80_columns() {
        let theme = Theme::new(ColorMode::None);
        let l = line(&[PanelId::Preview, PanelId::Tracks], 80, &theme);
        let text: String = l.spans.iter().map(|s| s.content.as_ref()).collect();
        for want in [
            " Tracks T ",
            " Curves C ",
            " Bones B ",
            " Events E ",
            " Preview P ",
        ] {
            assert!(text.contains(want), "{text}");
        }
        assert!(text.ends_with("? help "), "{text}");
        assert_eq!(width(&text), 80);
    }
}
