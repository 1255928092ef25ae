//! The command prompt overlay (`:`): one line of input at the bottom, with history (Up/Down)
//! and Tab completion.

use crate::core::model::SkeletonData;
use crate::tui::prompt::completion::Completer;
use crate::tui::prompt::history::{History, HistoryCursor};
use crate::tui::theme::Theme;
use crate::tui::widgets::{fit, width};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

/// What a key did to the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptOutcome {
    Open,
    Cancel,
    Submit(String),
}

/// The prompt's input line.
#[derive(Clone, Debug, Default)]
pub struct Prompt {
    pub input: String,
    history: HistoryCursor,
    completer: Completer,
    /// Completion candidates (or "no completion") after a Tab; the usage hint otherwise.
    pub hint: String,
}

/// Longest command line accepted.
const MAX_INPUT: usize = 200;

/// The hint shown while nothing else is to say.
const USAGE: &str = "  (set T ANIM [loop] · queue · add · empty · clear · mix · alpha · skin · tab completes · ↑ history · ? help)";

impl Prompt {
    /// An empty prompt whose Up/Down walk `history`.
    pub fn new(history: &History) -> Prompt {
        Prompt {
            history: HistoryCursor::new(history),
            ..Prompt::default()
        }
    }

    /// Handles a key; `data` names what Tab completes.
    pub fn handle_key(&mut self, key: KeyEvent, data: &SkeletonData) -> PromptOutcome {
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return match key.code {
                KeyCode::Char('c') => PromptOutcome::Cancel,
                KeyCode::Char('u') => {
                    self.set_input(String::new());
                    PromptOutcome::Open
                }
                _ => PromptOutcome::Open,
            };
        }
        match key.code {
            KeyCode::Esc => return PromptOutcome::Cancel,
            KeyCode::Enter => return PromptOutcome::Submit(std::mem::take(&mut self.input)),
            KeyCode::Tab => {
                let mut input = std::mem::take(&mut self.input);
                self.hint = self.completer.tab(&mut input, data);
                input = input.chars().take(MAX_INPUT).collect();
                self.input = input;
                self.history.stop();
                return PromptOutcome::Open;
            }
            KeyCode::Up => {
                if let Some(line) = self.history.older(&self.input).map(str::to_string) {
                    self.set_input(line);
                }
                return PromptOutcome::Open;
            }
            KeyCode::Down => {
                if let Some(line) = self.history.newer().map(str::to_string) {
                    self.set_input(line);
                }
                return PromptOutcome::Open;
            }
            KeyCode::Backspace => {
                self.input.pop();
            }
            KeyCode::Char(c) if !c.is_control() => {
                if self.input.chars().count() < MAX_INPUT {
                    self.input.push(c);
                }
            }
            _ => return PromptOutcome::Open,
        }
        // Typing ends a completion cycle and history browsing.
        self.completer.reset();
        self.history.stop();
        self.hint.clear();
        PromptOutcome::Open
    }

    fn set_input(&mut self, line: String) {
        self.input = line;
        self.completer.reset();
        self.hint.clear();
    }

    /// Draws the prompt on the row `area` (the status line).
    pub fn render(&self, frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
        frame.render_widget(Clear, area);
        let shown = crate::text::sanitize(&self.input);
        let input = fit(&shown, area.width.saturating_sub(2) as usize);
        let hint = if self.hint.is_empty() {
            USAGE.to_string()
        } else {
            format!("  {}", self.hint)
        };
        let room = (area.width as usize).saturating_sub(width(&input) + 2);
        let line = Line::from(vec![
            Span::styled(":", theme.highlight()),
            Span::raw(input),
            Span::styled("█", theme.text()),
            Span::styled(fit(&hint, room), theme.dim()),
        ]);
        frame.render_widget(Paragraph::new(line), area);
    }
}
