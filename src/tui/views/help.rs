//! The help overlay (`?`): every key, and the prompt's commands.

use crate::tui::app::Overlay;
use crate::tui::commands;
use crate::tui::keymap::help_sections;
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The help text as lines.
pub fn lines(theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for (group, keys) in help_sections() {
        out.push(Line::from(Span::styled(group, theme.title(true))));
        for (k, what) in keys {
            out.push(Line::from(vec![
                Span::styled(format!("  {k:<16}"), theme.highlight()),
                Span::raw(what),
            ]));
        }
        out.push(Line::from(""));
    }
    out.push(Line::from(Span::styled(
        "Commands (after :)",
        theme.title(true),
    )));
    for (c, what) in commands::HELP
        .iter()
        .chain(crate::tui::viewer_commands::HELP)
    {
        out.push(Line::from(vec![
            Span::styled(format!("  {c:<28}"), theme.highlight()),
            Span::raw(*what),
        ]));
    }
    out
}

/// Handles a key while help is open: scroll, or close.
pub fn handle_key(key: KeyEvent, scroll: u16) -> Overlay {
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => Overlay::Help {
            scroll: scroll.saturating_add(1).min(200),
        },
        KeyCode::Up | KeyCode::Char('k') => Overlay::Help {
            scroll: scroll.saturating_sub(1),
        },
        KeyCode::PageDown => Overlay::Help {
            scroll: scroll.saturating_add(10).min(200),
        },
        KeyCode::PageUp => Overlay::Help {
            scroll: scroll.saturating_sub(10),
        },
        _ => Overlay::None,
    }
}

/// Draws the help overlay over `area`.
pub fn render(frame: &mut Frame<'_>, area: Rect, scroll: u16, theme: &Theme) {
    let w = area.width.saturating_sub(4).min(96);
    let h = area.height.saturating_sub(2);
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    frame.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Help: keys (↑ ↓ scroll, any other key closes) ");
    frame.render_widget(
        Paragraph::new(lines(theme))
            .block(block)
            .scroll((scroll, 0)),
        r,
    );
}
