//! `/` searches bone names and the shown animation's timeline labels as you type (case
//! insensitive, substring), selecting the first match; Enter keeps the query for `n` / `N`
//! (next / previous match, wrapping), Esc puts the selection back as it was. The Events panel
//! keeps its own `/` filter.

use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::views::PanelId;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Longest query kept (characters).
const MAX_QUERY: usize = 64;

/// A match: a bone, or a timeline of the shown animation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    Bone(usize),
    Timeline(usize),
}

/// The search state.
#[derive(Debug, Default)]
pub struct Search {
    query: String,
    typing: bool,
    /// The match selected last.
    current: Option<Hit>,
    /// (bone, timeline) selected before typing began (Esc restores them).
    before: (Option<usize>, Option<usize>),
}

impl Search {
    /// Whether the query is being typed (the search takes the keyboard).
    pub fn typing(&self) -> bool {
        self.typing
    }

    /// The query.
    pub fn query(&self) -> &str {
        &self.query
    }
}

/// Every match of `query` in `app`, timelines first when a timeline panel has the focus.
pub fn matches(app: &App, query: &str) -> Vec<Hit> {
    if query.is_empty() {
        return Vec::new();
    }
    let q = query.to_lowercase();
    let bones = app
        .doc
        .data
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.name.to_lowercase().contains(&q))
        .map(|(i, _)| Hit::Bone(i));
    let timelines = app
        .timelines
        .iter()
        .enumerate()
        .filter(|(_, t)| t.label().to_lowercase().contains(&q))
        .map(|(i, _)| Hit::Timeline(i));
    if matches!(app.focus, PanelId::Tracks | PanelId::Curves) {
        timelines.chain(bones).collect()
    } else {
        bones.chain(timelines).collect()
    }
}

impl App {
    /// `/`, `n`, `N`.
    pub fn search_action(&mut self, action: Action) -> bool {
        match action {
            Action::Search => {
                self.search.typing = true;
                self.search.query.clear();
                self.search.current = None;
                self.search.before = (self.selection.bone, self.selection.timeline);
            }
            Action::SearchNext | Action::SearchPrev => {
                if self.search.query.is_empty() {
                    self.note("no search yet (/ searches bones and timelines)");
                } else {
                    self.step_match(action == Action::SearchNext);
                }
            }
            _ => return false,
        }
        true
    }

    /// A key while the query is typed.
    pub fn search_key(&mut self, key: KeyEvent) -> bool {
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            // Ctrl+C still quits; other chords do nothing while typing.
            self.quit |= key.code == KeyCode::Char('c');
            return false;
        }
        match key.code {
            KeyCode::Esc => {
                self.search.typing = false;
                self.search.query.clear();
                self.search.current = None;
                let (bone, timeline) = self.search.before;
                self.selection.bone = bone;
                self.selection.timeline = timeline.filter(|&t| t < self.timelines.len());
            }
            KeyCode::Enter => {
                self.search.typing = false;
                let n = matches(self, &self.search.query).len();
                let q = crate::text::sanitize(&self.search.query).into_owned();
                match n {
                    0 if q.is_empty() => {}
                    0 => self.error(format!("no bone or timeline matches \"{q}\"")),
                    n => self.note(format!("/{q}: {n} matches (n / N: next / previous)")),
                }
            }
            KeyCode::Backspace => {
                self.search.query.pop();
                self.search.current = None;
                self.step_match(true);
            }
            KeyCode::Char(c)
                if !c.is_control() && self.search.query.chars().count() < MAX_QUERY =>
            {
                self.search.query.push(c);
                self.search.current = None;
                self.step_match(true);
            }
            _ => return false,
        }
        true
    }

    /// Moves to the next (or previous) match after the current one, wrapping; the first match
    /// when there is no current one.
    fn step_match(&mut self, forward: bool) {
        let hits = matches(self, &self.search.query);
        if hits.is_empty() {
            return;
        }
        let n = hits.len();
        let i = match self
            .search
            .current
            .and_then(|c| hits.iter().position(|&h| h == c))
        {
            None => 0,
            Some(i) if forward => (i + 1) % n,
            Some(i) => (i + n - 1) % n,
        };
        let hit = hits[i];
        self.search.current = Some(hit);
        match hit {
            Hit::Bone(b) => self.select_bone(b),
            Hit::Timeline(t) => self.select_timeline(t),
        }
        if !self.search.typing {
            let what = self.hit_name(hit);
            self.note(format!("match {}/{n}: {what}", i + 1));
        }
    }

    /// `bone NAME` or `timeline LABEL` (sanitized).
    fn hit_name(&self, hit: Hit) -> String {
        match hit {
            Hit::Bone(b) => format!(
                "bone {}",
                crate::text::sanitize(self.doc.data.bones.get(b).map_or("", |b| &b.name))
            ),
            Hit::Timeline(t) => format!(
                "timeline {}",
                crate::text::sanitize(&self.timelines.get(t).map_or(String::new(), |t| t.label()))
            ),
        }
    }
}

/// The query line over the status row while typing: `/hip▏ 2/5 bone hip`.
pub fn render(frame: &mut Frame<'_>, status: Rect, app: &App) {
    if !app.search.typing || status.width == 0 {
        return;
    }
    let hits = matches(app, &app.search.query);
    let info = match app
        .search
        .current
        .and_then(|c| hits.iter().position(|&h| h == c))
    {
        Some(i) => format!("  {}/{}: {}", i + 1, hits.len(), app.hit_name(hits[i])),
        None if app.search.query.is_empty() => {
            "  bones and timelines; enter keeps, esc cancels".into()
        }
        None => "  no match".into(),
    };
    let line = Line::from(vec![
        Span::styled(
            format!("/{}_", crate::text::sanitize(&app.search.query)),
            app.theme.title(true),
        ),
        Span::styled(
            crate::tui::widgets::fit(&info, status.width as usize),
            app.theme.dim(),
        ),
    ]);
    frame.render_widget(ratatui::widgets::Clear, status);
    frame.render_widget(Paragraph::new(line), status);
}
