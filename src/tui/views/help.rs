//! The help overlay (`?`): every key, and the prompt's commands.

use crate::tui::app::Overlay;
use crate::tui::key_help;
use crate::tui::theme::Theme;
use crate::tui::views::message_log::wrap;
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
    let cmds: Vec<&(&str, &str)> = crate::session::language::ANIMATION_HELP
        .iter()
        .chain(crate::session::language::VIEWER_HELP)
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

/// [`lines`] fitted to `width` columns: a description too long for its row continues on the
/// next rows, indented to its column, instead of being cut at the border.
pub fn wrapped(theme: &Theme, width: usize) -> Vec<Line<'static>> {
    use crate::tui::widgets::width as w_of;
    let mut out = Vec::new();
    for line in lines(theme) {
        let [key, what] = line.spans.as_slice() else {
            out.push(line);
            continue;
        };
        let indent = w_of(&key.content);
        if width >= indent + 16 {
            let mut rows = wrap(&what.content, width - indent).into_iter();
            let first = rows.next().unwrap_or_default();
            out.push(Line::from(vec![
                key.clone(),
                Span::styled(first, what.style),
            ]));
            for rest in rows {
                out.push(Line::from(Span::styled(
                    format!("{}{rest}", " ".repeat(indent)),
                    what.style,
                )));
            }
        } else {
            // Too narrow for a description column: the description goes below its keys.
            out.push(Line::from(Span::styled(
                key.content.trim_end().to_owned(),
                key.style,
            )));
            let pad = 4.min(width.saturating_sub(1));
            for row in wrap(&what.content, width.saturating_sub(pad).max(1)) {
                out.push(Line::from(Span::styled(
                    format!("{}{row}", " ".repeat(pad)),
                    what.style,
                )));
            }
        }
    }
    out
}

/// Draws the help overlay over `area`; keeps `scroll` within the text, so that scrolling back
/// up answers at once after the end was passed.
pub fn render(frame: &mut Frame<'_>, area: Rect, scroll: &mut u16, theme: &Theme) {
    let w = area.width.saturating_sub(4).min(96);
    let h = area.height.saturating_sub(2);
    let r = Rect::new(area.x + (area.width - w) / 2, area.y + 1, w, h);
    frame.render_widget(Clear, r);
    let text = wrapped(theme, usize::from(w.saturating_sub(2)));
    let last = text.len().saturating_sub(usize::from(h.saturating_sub(2)));
    *scroll = (*scroll).min(u16::try_from(last).unwrap_or(u16::MAX));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(" Help: keys (↑ ↓ scroll, any other key closes) ");
    frame.render_widget(Paragraph::new(text).block(block).scroll((*scroll, 0)), r);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ColorMode;

    fn plain(lines: &[Line<'_>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn long_descriptions_wrap_under_their_column_and_lose_no_word() {
        let theme = Theme::new(ColorMode::None);
        let full = plain(&lines(&theme));
        for width in [40, 60, 76, 94] {
            let rows = plain(&wrapped(&theme, width));
            assert!(
                rows.iter().all(|r| crate::tui::widgets::width(r) <= width),
                "{width}: {rows:#?}"
            );
            let words = |v: &[String]| -> Vec<String> {
                v.iter()
                    .flat_map(|r| r.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
                    .collect()
            };
            assert_eq!(words(&full), words(&rows), "{width}");
        }
        // At 76 columns (an 80-column terminal) the physics key's row continues below,
        // indented to the description column.
        let rows = plain(&wrapped(&theme, 76));
        let p = rows
            .iter()
            .position(|r| r.trim_start().starts_with("p ") && r.contains("physics mode"))
            .expect("physics key");
        let col = rows[p].find("physics mode").expect("description");
        let next = &rows[p + 1];
        assert_eq!(
            next.len() - next.trim_start().len(),
            col,
            "{}\n{next}",
            rows[p]
        );
    }
}
