//! The Events panel: the listener log in firing order, newest at the bottom. A row cursor
//! (↑ ↓ PgUp PgDn g G, or a click) picks the row `d` details and Enter jumps to; while it
//! is on the newest row the panel is live (the cursor follows new rows), anywhere else it
//! stays on its row. Filters by notification type (`f`) and track (`t`).
//!
//! Rendering scans the log once for the filter (comparisons only) and formats just the
//! visible window, so a log of many thousands of lines stays cheap.

mod columns;
mod mouse;

use super::{Panel, PanelAction, PanelId, ViewCtx, panel_block};
use crate::core::state::NotificationKind;
use crate::session::LogLine;
use crate::tui::widgets::fit;
use columns::Columns;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;

/// The type filter's cycle after "all".
pub const TYPE_CYCLE: [NotificationKind; 6] = [
    NotificationKind::Start,
    NotificationKind::Interrupt,
    NotificationKind::End,
    NotificationKind::Complete,
    NotificationKind::Dispose,
    NotificationKind::Event,
];

/// View state of the Events panel.
#[derive(Debug)]
pub struct EventsView {
    /// Show only this notification type.
    kind: Option<NotificationKind>,
    /// Show only this track.
    track: Option<usize>,
    /// The cursor is on the newest line and follows it (live).
    follow: bool,
    /// First visible line (position in the filtered list).
    top: usize,
    /// List rows at the last render (the PgUp/PgDn step).
    page: usize,
    /// Hide `event` rows (lifecycle only).
    hide_events: bool,
    /// Show only these tracks (empty: all), toggled with the digit keys.
    tracks: Vec<usize>,
    /// Show only rows whose text contains this (case-insensitive).
    search: String,
    /// Typing the search (`/` ... Enter or Esc).
    typing: bool,
    /// Show every field of the cursor's row under the list.
    detail: bool,
    /// The log line under the cursor while not following (its index in the log).
    picked: Option<usize>,
    /// Where the list rows were drawn last (for mouse clicks).
    list_area: Rect,
}

impl Default for EventsView {
    fn default() -> Self {
        EventsView {
            kind: None,
            track: None,
            follow: true,
            top: 0,
            page: 10,
            hide_events: false,
            tracks: Vec::new(),
            search: String::new(),
            typing: false,
            detail: false,
            picked: None,
            list_area: Rect::default(),
        }
    }
}

/// The lines shown: every line, or the indices of those passing the filters.
enum Shown {
    All(usize),
    Some(Vec<usize>),
}

impl Shown {
    fn len(&self) -> usize {
        match self {
            Shown::All(n) => *n,
            Shown::Some(v) => v.len(),
        }
    }

    fn get(&self, k: usize) -> usize {
        match self {
            Shown::All(_) => k,
            Shown::Some(v) => v[k],
        }
    }
}

/// The filtered view of a log: which lines show, and the notification counts
/// (matching, total). Markers always show and are not counted.
struct Filtered {
    shown: Shown,
    matching: usize,
    total: usize,
}

impl EventsView {
    /// The type filter.
    pub fn type_filter(&self) -> Option<NotificationKind> {
        self.kind
    }

    /// The track filter.
    pub fn track_filter(&self) -> Option<usize> {
        self.track
    }

    /// Whether the view follows the newest line.
    pub fn following(&self) -> bool {
        self.follow
    }

    /// The lines the panel shows (its filters applied) as NDJSON (one object per line, the
    /// `session --json` event shape) or as text (one line each, every field).
    pub fn export(
        &self,
        log: &[LogLine],
        data: &crate::core::model::SkeletonData,
        ndjson: bool,
    ) -> String {
        let mut out = String::new();
        for line in log.iter().filter(|l| self.passes(l)) {
            if ndjson {
                out.push_str(&crate::text::to_json_string(
                    &crate::session::report::line_json(line, data),
                ));
            } else {
                out.push_str(&crate::session::report::line_text(line, data));
            }
            out.push('\n');
        }
        out
    }

    fn passes(&self, line: &LogLine) -> bool {
        match line {
            LogLine::Marker { .. } => true,
            LogLine::Notification { note, .. } => {
                self.kind.is_none_or(|k| note.kind == k)
                    && self.track.is_none_or(|t| note.track == t)
                    && !(self.hide_events && note.kind == NotificationKind::Event)
                    && (self.tracks.is_empty() || self.tracks.contains(&note.track))
                    && (self.search.is_empty() || matches_search(line, &self.search))
            }
        }
    }

    fn filtered(&self) -> bool {
        self.kind.is_some()
            || self.track.is_some()
            || self.hide_events
            || !self.tracks.is_empty()
            || !self.search.is_empty()
    }

    fn filter(&self, log: &[LogLine]) -> Filtered {
        let total = log
            .iter()
            .filter(|l| matches!(l, LogLine::Notification { .. }))
            .count();
        if !self.filtered() {
            return Filtered {
                shown: Shown::All(log.len()),
                matching: total,
                total,
            };
        }
        let idx: Vec<usize> = (0..log.len()).filter(|&i| self.passes(&log[i])).collect();
        let markers = idx
            .iter()
            .filter(|&&i| matches!(log[i], LogLine::Marker { .. }))
            .count();
        Filtered {
            matching: idx.len() - markers,
            shown: Shown::Some(idx),
            total,
        }
    }

    /// `[type=event track=0] 12/340`, or `340` without filters; `· scrolled` when not
    /// following the end; `· log truncated: N oldest dropped` when the log's memory budget
    /// dropped lines (`BONESCOPE_LOG_MIB`).
    fn suffix(&self, f: &Filtered, dropped: usize) -> String {
        let mut parts = Vec::new();
        if let Some(k) = self.kind {
            parts.push(format!("type={}", k.name()));
        }
        if let Some(t) = self.track {
            parts.push(format!("track={t}"));
        }
        if !self.tracks.is_empty() {
            let ts: Vec<String> = self.tracks.iter().map(usize::to_string).collect();
            parts.push(format!("tracks={}", ts.join(",")));
        }
        if self.hide_events {
            parts.push("no events".into());
        }
        if !self.search.is_empty() || self.typing {
            let cursor = if self.typing { "_" } else { "" };
            parts.push(format!("/{}{cursor}", crate::text::sanitize(&self.search)));
        }
        let mut s = if parts.is_empty() {
            f.total.to_string()
        } else {
            format!("[{}] {}/{}", parts.join(" "), f.matching, f.total)
        };
        if !self.follow {
            s.push_str(" · scrolled");
        }
        if dropped > 0 {
            s.push_str(&format!(" · log truncated: {dropped} oldest dropped"));
        }
        s
    }

    /// The first visible line for `shown` lines in `page` rows: the last page while
    /// following, else the previous top moved just enough to show the cursor.
    fn top_for(&self, shown: &Shown, page: usize) -> usize {
        let len = shown.len();
        let page = page.max(1);
        let max_top = len.saturating_sub(page);
        if self.follow {
            return max_top;
        }
        let mut top = self.top.min(max_top);
        if let Some(c) = self.cursor_row(shown) {
            if c < top {
                top = c;
            } else if c >= top + page {
                top = c + 1 - page;
            }
        }
        top
    }

    /// The cursor's position in the filtered list: the newest row while following, else the
    /// row of the line it is on (or the nearest shown line before it, when a filter hid it).
    fn cursor_row(&self, shown: &Shown) -> Option<usize> {
        let last = shown.len().checked_sub(1)?;
        let Some(line) = self.picked.filter(|_| !self.follow) else {
            return Some(last);
        };
        Some(match shown {
            Shown::All(_) => line.min(last),
            Shown::Some(v) => v.partition_point(|&i| i <= line).saturating_sub(1),
        })
    }

    /// Puts the cursor on row `k` (clamped) of the filtered list; the newest row is live.
    fn move_cursor(&mut self, k: usize, shown: &Shown) {
        let Some(last) = shown.len().checked_sub(1) else {
            self.follow = true;
            return;
        };
        let k = k.min(last);
        self.follow = k == last;
        self.picked = (!self.follow).then(|| shown.get(k));
    }

    fn cycle_type(&mut self) {
        self.kind = match self.kind {
            None => Some(TYPE_CYCLE[0]),
            Some(k) => {
                let i = TYPE_CYCLE.iter().position(|&c| c == k).unwrap_or(0);
                TYPE_CYCLE.get(i + 1).copied()
            }
        };
    }

    fn cycle_track(&mut self, log: &[LogLine]) {
        let mut tracks: Vec<usize> = log
            .iter()
            .filter_map(|l| match l {
                LogLine::Notification { note, .. } => Some(note.track),
                LogLine::Marker { .. } => None,
            })
            .collect();
        tracks.sort_unstable();
        tracks.dedup();
        self.track = match self.track {
            None => tracks.first().copied(),
            Some(t) => tracks.iter().copied().find(|&x| x > t),
        };
    }
}

impl Panel for EventsView {
    fn render(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        let log = ctx.session.log();
        let f = self.filter(&log);
        let suffix = self.suffix(&f, ctx.session.log_dropped());
        let block = panel_block(PanelId::Events, &suffix, ctx);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        let header = inner.height >= 3;
        let list_y = inner.y + u16::from(header);
        // The detail view takes the bottom rows when there is room for it and a list.
        let detail_rows: u16 = if self.detail && inner.height >= 8 {
            3
        } else {
            0
        };
        let page = (inner.height - u16::from(header) - detail_rows) as usize;
        self.page = page.max(1);
        let len = f.shown.len();
        let top = self.top_for(&f.shown, page);
        self.top = top;
        self.list_area = Rect::new(inner.x, list_y, inner.width, page as u16);

        let last_frame = log.last().map_or(0, LogLine::frame);
        let anim_desired = ctx
            .session
            .data()
            .animations
            .iter()
            .map(|a| crate::tui::widgets::width(&a.name))
            .max()
            .unwrap_or(0);
        let cols = Columns::new(inner.width as usize, last_frame, anim_desired);
        let buf = frame.buffer_mut();
        if header {
            buf.set_line(
                inner.x,
                inner.y,
                &Line::styled(cols.header(), ctx.theme.dim()),
                inner.width,
            );
        }
        if len == 0 && page > 0 {
            let text = if f.total == 0 {
                "no notifications yet (space plays)"
            } else {
                "nothing matches the filters (x clears)"
            };
            buf.set_line(
                inner.x,
                list_y,
                &Line::styled(fit(text, inner.width as usize), ctx.theme.dim()),
                inner.width,
            );
            return;
        }
        let now = ctx.session.frame();
        let data = ctx.session.data();
        let end = (top + page).min(len);
        let sel = self.cursor_row(&f.shown);
        // The cursor shows while the panel has focus, and always once it left the newest row.
        let show_cursor = ctx.focused || !self.follow || self.detail;
        for k in top..end {
            let line = &log[f.shown.get(k)];
            let mut text = cols.line(line, data, ctx.theme);
            if line.frame() == now {
                text = text.patch_style(ctx.theme.text().add_modifier(Modifier::BOLD));
            }
            if show_cursor && Some(k) == sel {
                text = text.patch_style(ctx.theme.selected());
            }
            buf.set_line(inner.x, list_y + (k - top) as u16, &text, inner.width);
        }
        if detail_rows > 0
            && let Some(k) = sel
        {
            let line = &log[f.shown.get(k)];
            let text = crate::session::report::line_text(line, data);
            let w = inner.width as usize;
            let y0 = inner.y + inner.height - detail_rows;
            let chars: Vec<char> = text.chars().collect();
            // Wrapped over the detail rows (every field, nothing cut when it fits).
            let mut rows: Vec<String> = Vec::new();
            let mut cur = String::new();
            for c in chars {
                if crate::tui::widgets::width(&cur) + 1 > w {
                    rows.push(std::mem::take(&mut cur));
                }
                cur.push(c);
            }
            rows.push(cur);
            for (r, row) in rows.iter().take(detail_rows as usize).enumerate() {
                buf.set_line(
                    inner.x,
                    y0 + r as u16,
                    &Line::styled(fit(row, w), ctx.theme.highlight()),
                    inner.width,
                );
            }
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return PanelAction::Ignored;
        }
        if self.typing {
            match key.code {
                KeyCode::Enter => self.typing = false,
                KeyCode::Esc => {
                    self.typing = false;
                    self.search.clear();
                }
                KeyCode::Backspace => {
                    self.search.pop();
                }
                KeyCode::Char(c) if !c.is_control() && self.search.chars().count() < 64 => {
                    self.search.push(c)
                }
                _ => {}
            }
            self.follow = true;
            return PanelAction::Handled;
        }
        let log = ctx.session.log();
        let f = self.filter(&log);
        let page = self.page.max(1);
        let cursor = self.cursor_row(&f.shown).unwrap_or(0);
        match key.code {
            KeyCode::Char('/') => {
                self.typing = true;
                self.search.clear();
            }
            KeyCode::Char('h') => {
                self.hide_events = !self.hide_events;
                self.follow = true;
            }
            KeyCode::Char('d') => self.detail = !self.detail,
            KeyCode::Char(c @ '0'..='9') => {
                let t = c as usize - '0' as usize;
                match self.tracks.iter().position(|&x| x == t) {
                    Some(i) => {
                        self.tracks.remove(i);
                    }
                    None => {
                        self.tracks.push(t);
                        self.tracks.sort_unstable();
                    }
                }
                self.follow = true;
            }
            KeyCode::Enter => {
                let Some(k) = self.cursor_row(&f.shown) else {
                    return PanelAction::Ignored;
                };
                return PanelAction::SeekFrame(log[f.shown.get(k)].frame());
            }
            KeyCode::Up => self.move_cursor(cursor.saturating_sub(1), &f.shown),
            KeyCode::Down => self.move_cursor(cursor + 1, &f.shown),
            KeyCode::PageUp => self.move_cursor(cursor.saturating_sub(page), &f.shown),
            KeyCode::PageDown => self.move_cursor(cursor + page, &f.shown),
            KeyCode::Char('g') => self.move_cursor(0, &f.shown),
            KeyCode::Char('G') => {
                self.follow = true;
                self.picked = None;
            }
            KeyCode::Char('f') => {
                self.cycle_type();
                self.follow = true;
            }
            KeyCode::Char('t') => {
                self.cycle_track(&log);
                self.follow = true;
            }
            KeyCode::Char('x') => {
                self.kind = None;
                self.track = None;
                self.hide_events = false;
                self.tracks.clear();
                self.search.clear();
                self.follow = true;
            }
            _ => return PanelAction::Ignored,
        }
        PanelAction::Handled
    }
}

/// True when the line's text (type, animation, event name, string) contains `query`,
/// ignoring case.
fn matches_search(line: &LogLine, query: &str) -> bool {
    let q = query.to_lowercase();
    match line {
        LogLine::Marker { text, .. } => text.to_lowercase().contains(&q),
        LogLine::Notification { note, .. } => {
            note.kind.name().contains(&q)
                || note.animation.to_lowercase().contains(&q)
                || format!("#{}", note.entry) == q
                || note
                    .event
                    .as_ref()
                    .is_some_and(|e| e.string.to_lowercase().contains(&q))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_title_says_when_the_log_was_truncated() {
        let view = EventsView::default();
        let f = Filtered {
            shown: Shown::All(340),
            matching: 340,
            total: 340,
        };
        assert_eq!(view.suffix(&f, 0), "340");
        assert_eq!(
            view.suffix(&f, 1200),
            "340 · log truncated: 1200 oldest dropped"
        );
    }
}
