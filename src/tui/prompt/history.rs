//! Prompt history: the lines run so far (newest last), and a cursor that walks them with
//! Up/Down while keeping what was being typed.

/// Most lines kept.
const MAX_LINES: usize = 200;

/// Lines run at the prompt, oldest first.
#[derive(Clone, Debug, Default)]
pub struct History {
    lines: Vec<String>,
}

impl History {
    /// Remembers a line run (not blank, not a repeat of the previous one).
    pub fn push(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() || self.lines.last().is_some_and(|l| l == line) {
            return;
        }
        if self.lines.len() == MAX_LINES {
            self.lines.remove(0);
        }
        self.lines.push(line.to_string());
    }

    /// The lines, oldest first.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }
}

/// Walks a history snapshot from the newest line back.
#[derive(Clone, Debug, Default)]
pub struct HistoryCursor {
    lines: Vec<String>,
    /// The line shown, when browsing.
    at: Option<usize>,
    /// What was typed before browsing started.
    draft: String,
}

impl HistoryCursor {
    /// A cursor over `history` (not browsing yet).
    pub fn new(history: &History) -> HistoryCursor {
        HistoryCursor {
            lines: history.lines().to_vec(),
            at: None,
            draft: String::new(),
        }
    }

    /// Up: the previous (older) line, or `None` at the oldest.
    pub fn older(&mut self, input: &str) -> Option<&str> {
        let next = match self.at {
            None => {
                self.draft = input.to_string();
                self.lines.len().checked_sub(1)?
            }
            Some(0) => return None,
            Some(i) => i - 1,
        };
        self.at = Some(next);
        self.lines.get(next).map(String::as_str)
    }

    /// Down: the next (newer) line, then what was typed before browsing.
    pub fn newer(&mut self) -> Option<&str> {
        let i = self.at?;
        if i + 1 < self.lines.len() {
            self.at = Some(i + 1);
            self.lines.get(i + 1).map(String::as_str)
        } else {
            self.at = None;
            Some(&self.draft)
        }
    }

    /// Typing leaves browsing: the line shown becomes the draft.
    pub fn stop(&mut self) {
        self.at = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_and_down_walk_the_lines_and_come_back_to_the_draft() {
        let mut h = History::default();
        for l in ["mix 0.2", "set 0 walk", "set 0 walk", "  ", "alpha 0 0.5"] {
            h.push(l);
        }
        assert_eq!(h.lines(), ["mix 0.2", "set 0 walk", "alpha 0 0.5"]);
        let mut c = HistoryCursor::new(&h);
        assert_eq!(c.older("se"), Some("alpha 0 0.5"));
        assert_eq!(c.older(""), Some("set 0 walk"));
        assert_eq!(c.older(""), Some("mix 0.2"));
        assert_eq!(c.older(""), None, "stays at the oldest");
        assert_eq!(c.newer(), Some("set 0 walk"));
        assert_eq!(c.newer(), Some("alpha 0 0.5"));
        assert_eq!(c.newer(), Some("se"), "back to what was typed");
        assert_eq!(c.newer(), None);
    }

    #[test]
    fn an_empty_history_has_nothing_to_show() {
        let mut c = HistoryCursor::new(&History::default());
        assert_eq!(c.older("x"), None);
        assert_eq!(c.newer(), None);
    }

    #[test]
    fn history_is_bounded() {
        let mut h = History::default();
        for i in 0..(MAX_LINES + 50) {
            h.push(&format!("frame {i}"));
        }
        assert_eq!(h.lines().len(), MAX_LINES);
        assert_eq!(h.lines()[0], "frame 50");
    }
}
