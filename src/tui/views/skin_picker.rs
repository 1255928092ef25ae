//! The skin picker (`s`): tick several skins with space to combine them (in ticking order, as
//! `poses --skin A,B` combines them), enter applies; enter with nothing ticked applies the
//! skin under the cursor alone. Type to filter.

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
pub enum SkinPickerOutcome {
    Open,
    Cancel,
    /// Apply these skins, combined in this order (empty: the default skin only).
    Apply(Vec<String>),
}

/// The picker's state.
#[derive(Clone, Debug)]
pub struct SkinPicker {
    /// Skin names, in file order (the default skin is not listed: it always applies).
    pub names: Vec<String>,
    /// Ticked skins (indices into `names`), in ticking order.
    pub ticked: Vec<usize>,
    pub filter: String,
    /// Position in the filtered list; row 0 is "(default skin only)" when unfiltered.
    pub cursor: usize,
}

/// The first row when the filter is empty.
const DEFAULT_ONLY: &str = "(default skin only)";

impl SkinPicker {
    /// A picker over the file's skins with the `current` ones ticked.
    pub fn new(names: Vec<String>, current: &[String]) -> SkinPicker {
        let ticked: Vec<usize> = current
            .iter()
            .filter_map(|c| names.iter().position(|n| n == c))
            .collect();
        let cursor = ticked.first().map_or(0, |&i| i + 1);
        SkinPicker {
            names,
            ticked,
            filter: String::new(),
            cursor,
        }
    }

    /// The rows shown: `None` for "(default skin only)", else an index into `names`.
    pub fn rows(&self) -> Vec<Option<usize>> {
        let f = self.filter.to_lowercase();
        let mut rows = Vec::new();
        if f.is_empty() {
            rows.push(None);
        }
        rows.extend(
            (0..self.names.len())
                .filter(|&i| matches(&f, &self.names[i]))
                .map(Some),
        );
        rows
    }

    /// The skins the ticks stand for, in ticking order.
    pub fn chosen(&self) -> Vec<String> {
        self.ticked.iter().map(|&i| self.names[i].clone()).collect()
    }

    /// Handles a key.
    pub fn handle_key(&mut self, key: KeyEvent) -> SkinPickerOutcome {
        let rows = self.rows();
        let n = rows.len();
        match key.code {
            KeyCode::Esc => return SkinPickerOutcome::Cancel,
            KeyCode::Enter => {
                if !self.ticked.is_empty() {
                    return SkinPickerOutcome::Apply(self.chosen());
                }
                return match rows.get(self.cursor) {
                    Some(None) => SkinPickerOutcome::Apply(Vec::new()),
                    Some(Some(i)) => SkinPickerOutcome::Apply(vec![self.names[*i].clone()]),
                    None => SkinPickerOutcome::Cancel,
                };
            }
            KeyCode::Char(' ') => match rows.get(self.cursor) {
                Some(None) => self.ticked.clear(),
                Some(Some(i)) => match self.ticked.iter().position(|t| t == i) {
                    Some(k) => {
                        self.ticked.remove(k);
                    }
                    None => self.ticked.push(*i),
                },
                None => {}
            },
            code => move_or_filter(code, &mut self.cursor, &mut self.filter, n),
        }
        SkinPickerOutcome::Open
    }

    /// Draws the picker centred in `area`.
    pub fn render(&self, frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
        // Wide enough for the title and the longest skin name with its tick box, when the
        // screen has room.
        let longest = self.names.iter().map(|s| width(s)).max().unwrap_or(0);
        let want = (longest + 6).clamp(60, 100);
        let (w, h) = box_size(area, want, self.names.len(), 5, 5);
        let inner = centred_box(
            frame,
            area,
            w,
            h,
            " Skins (space ticks, enter applies, esc cancels) ",
            theme,
        );
        let iw = inner.width as usize;
        let chosen = self.chosen();
        let summary = if chosen.is_empty() {
            "default skin only".to_string()
        } else {
            format!("default + {}", chosen.join(" + "))
        };
        let mut lines = vec![
            filter_line(&self.filter, iw, theme),
            Line::from(Span::styled(
                fit(&crate::text::sanitize(&summary), iw),
                theme.highlight(),
            )),
        ];
        let rows = self.rows();
        let visible = inner.height.saturating_sub(2) as usize;
        let start = self.cursor.saturating_sub(visible.saturating_sub(1));
        for (k, row) in rows.iter().enumerate().skip(start).take(visible) {
            let text = match row {
                None => format!("    {DEFAULT_ONLY}"),
                Some(i) => {
                    let mark = match self.ticked.iter().position(|t| t == i) {
                        Some(p) => format!("[{}]", p + 1),
                        None => "[ ]".to_string(),
                    };
                    format!("{mark} {}", crate::text::sanitize(&self.names[*i]))
                }
            };
            lines.push(Line::from(Span::styled(
                fit(&text, iw),
                row_style(theme, k == self.cursor),
            )));
        }
        if rows.is_empty() {
            lines.push(no_match_line(theme));
        }
        frame.render_widget(Paragraph::new(lines), inner);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::from(c)
    }

    fn picker() -> SkinPicker {
        SkinPicker::new(
            vec!["skin-base".into(), "eyes/violet".into(), "hair/pink".into()],
            &[],
        )
    }

    #[test]
    fn ticks_combine_in_ticking_order() {
        let mut p = picker();
        p.handle_key(key(KeyCode::Down));
        p.handle_key(key(KeyCode::Char(' ')));
        p.handle_key(key(KeyCode::Down));
        p.handle_key(key(KeyCode::Down));
        p.handle_key(key(KeyCode::Char(' ')));
        p.handle_key(key(KeyCode::Up));
        p.handle_key(key(KeyCode::Char(' ')));
        assert_eq!(
            p.handle_key(key(KeyCode::Enter)),
            SkinPickerOutcome::Apply(vec![
                "skin-base".into(),
                "hair/pink".into(),
                "eyes/violet".into()
            ])
        );
    }

    #[test]
    fn enter_without_ticks_applies_the_row() {
        let mut p = picker();
        assert_eq!(
            p.handle_key(key(KeyCode::Enter)),
            SkinPickerOutcome::Apply(vec![])
        );
        let mut p = picker();
        for c in "pink".chars() {
            p.handle_key(key(KeyCode::Char(c)));
        }
        assert_eq!(
            p.handle_key(key(KeyCode::Enter)),
            SkinPickerOutcome::Apply(vec!["hair/pink".into()])
        );
    }

    #[test]
    fn current_skins_open_ticked_and_default_row_clears() {
        let mut p = SkinPicker::new(
            vec!["a".into(), "b".into()],
            &["b".to_string(), "a".to_string()],
        );
        assert_eq!(p.chosen(), vec!["b".to_string(), "a".to_string()]);
        p.handle_key(key(KeyCode::Home));
        p.handle_key(key(KeyCode::Char(' ')));
        assert!(p.ticked.is_empty());
        assert_eq!(p.handle_key(key(KeyCode::Esc)), SkinPickerOutcome::Cancel);
    }
}
