//! A list picker overlay (animations, skins): type to filter, arrows to move, enter to pick.

use crate::tui::theme::Theme;
use crate::tui::views::filtered_list::{
    box_size, centred_box, filter_line, matches, move_or_filter, no_match_line, row_style,
};
use crate::tui::widgets::{fit, width};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

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
            .filter(|&i| matches(&f, &self.items[i]))
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
            code => move_or_filter(code, &mut self.cursor, &mut self.filter, n),
        }
        PickerOutcome::Open
    }

    /// Draws the picker centred in `area`.
    pub fn render(&self, frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
        let title = format!(
            " {} (type to filter, enter picks, esc cancels) ",
            self.title
        );
        // As wide as the title and the longest name need (within the screen), so that
        // neither is cut when there is room.
        let longest = self.items.iter().map(|s| width(s)).max().unwrap_or(0);
        let want = (width(&title) + 2).max(longest + 2).min(100);
        let (w, h) = box_size(area, want, self.items.len(), 3, 4);
        let inner = centred_box(frame, area, w, h, &title, theme);
        let vis = self.visible();
        let rows = inner.height.saturating_sub(1) as usize;
        let start = self.cursor.saturating_sub(rows.saturating_sub(1));
        let mut lines = vec![filter_line(&self.filter, inner.width as usize, theme)];
        for (k, &i) in vis.iter().enumerate().skip(start).take(rows) {
            lines.push(Line::from(Span::styled(
                fit(&self.items[i], inner.width as usize),
                row_style(theme, k == self.cursor),
            )));
        }
        if vis.is_empty() {
            lines.push(no_match_line(theme));
        }
        frame.render_widget(Paragraph::new(lines), inner);
    }
}
