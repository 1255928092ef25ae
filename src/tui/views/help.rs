//! The help overlay (`?`): every key, and the prompt's commands.

use crate::tui::app::Overlay;
use crate::tui::commands;
use crate::tui::key_help;
use crate::tui::theme::Theme;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The help text as lines, drawn from [`key_help::SECTIONS`] (every key the viewer binds)
/// and the prompt's command tables; each column is as wide as its longest entry.
pub fn lines(theme: &Theme) -> Vec<Line<'static>> {
    use crate::tui::widgets::width;
    let labels: Vec<Vec<(String, &str)>> = key_help::SECTIONS
        .iter()
        .map(|s| {
            s.bindings
                .iter()
                .map(|b| (key_help::keys_label(b.keys), b.what))
                .collect()
        })
        .collect();
    let key_w = labels
        .iter()
        .flatten()
        .map(|(k, _)| width(k))
        .max()
        .unwrap_or(0)
        + 2;
    let pad = |s: &str, w: usize| format!("  {s}{}", " ".repeat(w.saturating_sub(width(s))));
    let mut out = Vec::new();
    for (section, rows) in key_help::SECTIONS.iter().zip(&labels) {
        out.push(Line::from(Span::styled(section.title, theme.title(true))));
        for (k, what) in rows {
            out.push(Line::from(vec![
                Span::styled(pad(k, key_w), theme.highlight()),
                Span::raw(*what),
            ]));
        }
        out.push(Line::from(""));
    }
    out.push(Line::from(Span::styled(
        "Commands (after :)",
        theme.title(true),
    )));
    let cmds: Vec<&(&str, &str)> = commands::HELP
        .iter()
        .chain(crate::tui::viewer_commands::HELP)
        .collect();
    let cmd_w = cmds.iter().map(|(c, _)| width(c)).max().unwrap_or(0) + 2;
    for (c, what) in cmds {
        out.push(Line::from(vec![
            Span::styled(pad(c, cmd_w), theme.highlight()),
            Span::raw(*what),
        ]));
    }
    out
}

/// Handles a key while help is open: scroll, or close.
pub fn handle_key(key: KeyEvent, scroll: u16) -> Overlay {
    match key.code {
        KeyCode::Down | KeyCode::Char('j') => Overlay::Help {
            scroll: scroll.saturating_add(1).min(400),
        },
        KeyCode::Up | KeyCode::Char('k') => Overlay::Help {
            scroll: scroll.saturating_sub(1),
        },
        KeyCode::PageDown => Overlay::Help {
            scroll: scroll.saturating_add(10).min(400),
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
