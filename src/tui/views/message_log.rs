//! The message log (`m`): every loader warning, reload error, error and note the viewer
//! showed, whole and wrapped, newest at the bottom. The status line and the banner cut long
//! messages to one row; here they can always be read in full.

use crate::tui::theme::Theme;
use crate::tui::widgets::width;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use std::collections::VecDeque;

/// What kind of message an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Note,
    Error,
    /// A loader warning about the file.
    Warning,
    /// A reload failure (the banner).
    Banner,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::Note => "note",
            Kind::Error => "error",
            Kind::Warning => "loader warning",
            Kind::Banner => "reload",
        }
    }
}

/// One message, with the session frame it appeared at.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub kind: Kind,
    pub text: String,
    pub frame: u64,
    /// How many times in a row it was shown.
    pub repeats: u32,
}

/// Most entries kept (the oldest go first).
const MAX_ENTRIES: usize = 1000;

/// Every message shown, oldest first.
#[derive(Clone, Debug, Default)]
pub struct MessageLog {
    entries: VecDeque<Entry>,
}

impl MessageLog {
    /// Records a message (a repeat of the last one only counts).
    pub fn push(&mut self, kind: Kind, text: &str, frame: u64) {
        if let Some(last) = self.entries.back_mut()
            && last.kind == kind
            && last.text == text
        {
            last.repeats = last.repeats.saturating_add(1);
            last.frame = frame;
            return;
        }
        if self.entries.len() == MAX_ENTRIES {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry {
            kind,
            text: text.to_string(),
            frame,
            repeats: 1,
        });
    }

    /// The entries, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The log overlay's view state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogView {
    /// Rows scrolled up from the newest (0: the newest row is at the bottom).
    pub up: usize,
    /// Rows the last drawing showed (the page for PgUp/PgDn).
    page: usize,
    /// The most `up` can be (from the last drawing).
    max_up: usize,
}

impl LogView {
    /// Handles a key: scroll, or close (`None`).
    pub fn handle_key(mut self, key: KeyEvent) -> Option<LogView> {
        let page = self.page.max(1);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => self.up += 1,
            KeyCode::Down | KeyCode::Char('j') => self.up = self.up.saturating_sub(1),
            KeyCode::PageUp => self.up += page,
            KeyCode::PageDown => self.up = self.up.saturating_sub(page),
            KeyCode::Home | KeyCode::Char('g') => self.up = usize::MAX,
            KeyCode::End | KeyCode::Char('G') => self.up = 0,
            _ => return None,
        }
        if self.max_up > 0 || self.page > 0 {
            self.up = self.up.min(self.max_up);
        }
        Some(self)
    }
}

/// Splits `text` into rows at most `w` cells wide, breaking after spaces where it can.
pub fn wrap(text: &str, w: usize) -> Vec<String> {
    let w = w.max(1);
    let mut rows = Vec::new();
    let mut row = String::new();
    let mut row_w = 0;
    for word in text.split_inclusive(' ') {
        let ww = width(word);
        if row_w + ww > w && !row.is_empty() {
            rows.push(std::mem::take(&mut row).trim_end().to_string());
            row_w = 0;
        }
        if ww > w {
            // A word longer than the row: cut it by cells.
            for ch in word.chars() {
                let cw = width(ch.encode_utf8(&mut [0; 4]));
                if row_w + cw > w && !row.is_empty() {
                    rows.push(std::mem::take(&mut row));
                    row_w = 0;
                }
                row.push(ch);
                row_w += cw;
            }
        } else {
            row.push_str(word);
            row_w += ww;
        }
    }
    if !row.is_empty() || rows.is_empty() {
        rows.push(row.trim_end().to_string());
    }
    rows
}

/// The log's rows for a width: each entry wrapped, continuation rows indented.
fn rows(log: &MessageLog, w: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for e in log.entries() {
        let times = if e.repeats > 1 {
            format!(" ×{}", e.repeats)
        } else {
            String::new()
        };
        let head = format!("#{} {}{}: ", e.frame, e.kind.label(), times);
        let text = crate::text::sanitize(&e.text);
        let style = match e.kind {
            Kind::Error | Kind::Banner => theme.error(),
            Kind::Warning => theme.highlight(),
            Kind::Note => theme.text(),
        };
        let body = wrap(&format!("{head}{text}"), w);
        for (k, r) in body.into_iter().enumerate() {
            if k == 0 {
                let split = head.len().min(r.len());
                let (h, rest) = r.split_at(if r.is_char_boundary(split) { split } else { 0 });
                out.push(Line::from(vec![
                    Span::styled(h.to_string(), theme.dim()),
                    Span::styled(rest.to_string(), style),
                ]));
            } else {
                out.push(Line::from(Span::styled(format!("  {r}"), style)));
            }
        }
    }
    out
}

/// Draws the log over `area`; remembers the page and scroll limit in `view`.
pub fn render(
    frame: &mut Frame<'_>,
    area: Rect,
    log: &MessageLog,
    view: &mut LogView,
    theme: &Theme,
) {
    let w = area.width.saturating_sub(4).min(120);
    let h = area.height.saturating_sub(2);
    let r = Rect::new(
        area.x + (area.width.saturating_sub(w)) / 2,
        area.y + 1,
        w,
        h,
    );
    frame.render_widget(Clear, r);
    let title = format!(
        " Messages ({}) ↑ ↓ pgup pgdn g G scroll, any other key closes ",
        log.len()
    );
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(crate::tui::widgets::fit(
            &title,
            w.saturating_sub(2) as usize,
        ));
    let inner = block.inner(r);
    frame.render_widget(block, r);
    // Continuation rows are indented by two cells.
    let mut lines = rows(log, (inner.width as usize).saturating_sub(2).max(1), theme);
    if lines.is_empty() {
        lines.push(Line::from(Span::styled("no messages yet", theme.dim())));
    }
    let page = inner.height as usize;
    view.page = page;
    view.max_up = lines.len().saturating_sub(page);
    view.up = view.up.min(view.max_up);
    let top = lines.len().saturating_sub(page + view.up);
    let shown: Vec<Line<'static>> = lines.into_iter().skip(top).take(page).collect();
    frame.render_widget(Paragraph::new(shown), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_keeps_every_character() {
        let text = "loader warning: slot \"a-very-long-slot-name-without-spaces-at-all\" names a missing bone; skipped";
        for w in [1, 7, 20, 40, 200] {
            let rows = wrap(text, w);
            assert!(rows.iter().all(|r| width(r) <= w), "{w}: {rows:?}");
            let joined: String = rows.concat().chars().filter(|c| *c != ' ').collect();
            let orig: String = text.chars().filter(|c| *c != ' ').collect();
            assert_eq!(joined, orig, "{w}");
        }
        assert_eq!(wrap("", 10), vec![String::new()]);
    }

    #[test]
    fn repeats_count_and_the_log_is_bounded() {
        let mut log = MessageLog::default();
        log.push(Kind::Note, "end of animation", 3);
        log.push(Kind::Note, "end of animation", 9);
        assert_eq!(log.len(), 1);
        let e = log.entries().next().cloned();
        assert_eq!(e.map(|e| (e.repeats, e.frame)), Some((2, 9)));
        for i in 0..(MAX_ENTRIES + 10) {
            log.push(Kind::Error, &format!("e{i}"), 0);
        }
        assert_eq!(log.len(), MAX_ENTRIES);
    }

    #[test]
    fn scrolling_is_clamped_after_a_drawing() {
        let v = LogView {
            up: 0,
            page: 5,
            max_up: 3,
        };
        let v = v.handle_key(KeyEvent::from(KeyCode::PageUp)).expect("open");
        assert_eq!(v.up, 3);
        let v = v
            .handle_key(KeyEvent::from(KeyCode::Char('G')))
            .expect("open");
        assert_eq!(v.up, 0);
        assert!(v.handle_key(KeyEvent::from(KeyCode::Esc)).is_none());
    }
}
