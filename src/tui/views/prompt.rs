//! The command prompt overlay (`:`): one line of input at the bottom.

use crate::tui::theme::Theme;
use crate::tui::widgets::fit;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
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
}

/// Longest command line accepted.
const MAX_INPUT: usize = 200;

impl Prompt {
    /// Handles a key.
    pub fn handle_key(&mut self, key: KeyEvent) -> PromptOutcome {
        match key.code {
            KeyCode::Esc => PromptOutcome::Cancel,
            KeyCode::Enter => PromptOutcome::Submit(std::mem::take(&mut self.input)),
            KeyCode::Backspace => {
                self.input.pop();
                PromptOutcome::Open
            }
            KeyCode::Char(c) if !c.is_control() => {
                if self.input.chars().count() < MAX_INPUT {
                    self.input.push(c);
                }
                PromptOutcome::Open
            }
            _ => PromptOutcome::Open,
        }
    }

    /// Draws the prompt on the row `area` (the status line).
    pub fn render(&self, frame: &mut Frame<'_>, area: Rect, theme: &Theme) {
        frame.render_widget(Clear, area);
        let hint = "  (set T ANIM [loop] · queue · add · empty · clear · mix · alpha · ? help)";
        let line = Line::from(vec![
            Span::styled(":", theme.highlight()),
            Span::raw(fit(&self.input, area.width.saturating_sub(2) as usize)),
            Span::styled("█", theme.text()),
            Span::styled(
                fit(
                    hint,
                    area.width.saturating_sub(self.input.len() as u16 + 3) as usize,
                ),
                theme.dim(),
            ),
        ]);
        frame.render_widget(Paragraph::new(line), area);
    }
}
