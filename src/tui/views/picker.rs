//! A list picker overlay (animations, skins): type to filter, arrows to move, enter to pick.

use crate::tui::theme::Theme;
use crate::tui::widgets::fit;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// What a key did to the picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickerOutcome {
    Open,
    Cancel,
    /// The index (into `items`) chosen.
    Chosen(usize),
}

/// The picker's state.
#[derive(Clone, Debug)]
pub struct Picker {
    pub title: &'static str,
    pub items: Vec<String>,
    pub filter: String,
    /// Position in the filtered list.
    pub cursor: usize,
}

impl Picker {
    /// A picker over `items` with the cursor on `current`.
    pub fn new(title: &'static str, items: Vec<String>, current: usize) -> Picker {
        Picker {
            title,
            items,
            filter: String::new(),
            cursor: current,
        }
    }

    /// Indices of the items matching the filter (case-insensitive substring).
    pub fn visible(&self) -> Vec<usize> {
        let f = self.filter.to_lowercase();
        (0..self.items.len())
            .filter(|&i| f.is_empty() || self.items[i].to_lowercase().contains(&f))
            .collect()
    }

    /// Handles a key.
    pub fn handle_key(&mut self, key: KeyEvent) -> PickerOutcome {
        let n = self.visible().len();
        match key.code {
            KeyCode::Esc => return PickerOutcome::Cancel,
            KeyCode::Enter => {
                return match self.visible().get(self.cursor) {
                    Some(&i) => PickerOutcome::Chosen(i),
                    None => PickerOutcome::Cancel,
                };
            }
            KeyCode::Up => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Down => self.cursor = (self.cursor + 1).min(n.saturating_sub(1)),
            KeyCode::PageUp => self.cursor = self.cursor.saturating_sub(10),
            KeyCode::PageDown => self.cursor = (self.cursor + 10).min(n.saturating_sub(1)),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = n.saturating_sub(1),
            KeyCode::Backspace => {
                self.filter.pop();
                self.cursor = 0;
            }
            KeyCode::Char(c) if !c.is_control() => {
                if self.filter.chars().count() < 64 {
                    self.filter.push(c);
                }
                self.cursor = 0;
            }
            _ => {}
        }
        PickerOutcome::Open
    }

    /// Draws the picker centred in `area`.
    pub fn render(&self, frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
        let w = area.width.saturating_sub(4).min(50);
        let h = area
            .height
            .saturating_sub(4)
            .min(self.items.len() as u16 + 3)
            .max(4);
        let r = Rect::new(
            area.x + (area.width - w) / 2,
            area.y + (area.height.saturating_sub(h)) / 2,
            w,
            h,
        );
        frame.render_widget(Clear, r);
        let title = format!(
            " {} (type to filter, enter picks, esc cancels) ",
            self.title
        );
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(theme.border(true))
            .title(fit(&title, w as usize - 2));
        let inner = block.inner(r);
        frame.render_widget(block, r);
        let vis = self.visible();
        let rows = inner.height.saturating_sub(1) as usize;
        let start = self.cursor.saturating_sub(rows.saturating_sub(1));
        let mut lines = vec![Line::from(vec![
            Span::styled("filter: ", theme.dim()),
            Span::raw(fit(&self.filter, inner.width as usize - 8)),
        ])];
        for (k, &i) in vis.iter().enumerate().skip(start).take(rows) {
            let style = if k == self.cursor {
                theme.selected()
            } else {
                theme.text()
            };
            lines.push(Line::from(Span::styled(
                fit(&self.items[i], inner.width as usize),
                style,
            )));
        }
        if vis.is_empty() {
            lines.push(Line::from(Span::styled("no match", theme.dim())));
        }
        frame.render_widget(Paragraph::new(lines), inner);
    }
}
