//! Keeping the viewer answering while a seek is long (End on a long animation, a seek on a
//! big rig): the session seeks in time slices ([`crate::session::Session::set_slice`]) and
//! the event loop reads input between them. While a seek is unfinished, `q` / Ctrl+C quit,
//! Esc cancels (the session stays on the frame it reached), and every other input waits in
//! order until the seek is done, so keys typed meanwhile are neither lost nor applied to a
//! half-way frame.

use crate::tui::app::{App, Overlay};
use crate::tui::keymap::{Action, global_action};
use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind};
use std::collections::VecDeque;
use std::time::Duration;

/// Longest a seek runs between two looks at the input (well under the 100 ms a key may
/// wait, leaving room for a frame's own cost and a draw).
pub const SEEK_SLICE: Duration = Duration::from_millis(40);

/// What an input does while a seek is unfinished.
#[derive(Debug, PartialEq, Eq)]
pub enum WhileBusy {
    Quit,
    Cancel,
    /// Handled once the seek is done.
    Hold,
}

/// Sorts an input that arrives while a seek is unfinished.
pub fn classify(ev: &Event, overlay_open: bool) -> WhileBusy {
    let Event::Key(k) = ev else {
        return WhileBusy::Hold;
    };
    if k.kind != KeyEventKind::Press {
        return WhileBusy::Hold;
    }
    if k.code == KeyCode::Esc {
        return WhileBusy::Cancel;
    }
    let ctrl_c = k.code == KeyCode::Char('c')
        && k.modifiers
            .contains(ratatui::crossterm::event::KeyModifiers::CONTROL);
    // `q` typed into the prompt or a picker's filter is text: only Ctrl+C quits there.
    if ctrl_c || (!overlay_open && global_action(*k) == Some(Action::Quit)) {
        return WhileBusy::Quit;
    }
    WhileBusy::Hold
}

/// Inputs held back while a seek runs.
#[derive(Default)]
pub struct Busy {
    held: VecDeque<Event>,
}

impl Busy {
    /// Takes an input while the session has an unfinished seek: quits, cancels or holds it.
    /// Returns true when something visible changed.
    pub fn take(&mut self, app: &mut App, ev: Event) -> bool {
        match classify(&ev, !matches!(app.overlay, Overlay::None)) {
            WhileBusy::Quit => {
                app.quit = true;
                false
            }
            WhileBusy::Cancel => {
                app.session.cancel_pending();
                // Keys typed before Esc were meant for the frame the seek was going to.
                self.held.clear();
                app.note(format!("seek cancelled at frame {}", app.session.frame()));
                true
            }
            WhileBusy::Hold => {
                self.held.push_back(ev);
                false
            }
        }
    }

    /// The next held input, once no seek is unfinished.
    pub fn next_held(&mut self, app: &App) -> Option<Event> {
        if app.session.pending().is_some() {
            return None;
        }
        self.held.pop_front()
    }

    /// One more slice of the unfinished seek, with the status saying so. True when a slice
    /// ran (something changed).
    pub fn work(&mut self, app: &mut App) -> bool {
        if app.session.pending().is_none() {
            return false;
        }
        let still = app.session.resume();
        match app.session.pending() {
            Some(to) if still => {
                app.message = Some((
                    format!(
                        "computing frame {} of {to} ... (Esc cancels)",
                        app.session.frame()
                    ),
                    false,
                ));
            }
            _ => {
                if app
                    .message
                    .as_ref()
                    .is_some_and(|(m, _)| m.starts_with("computing frame "))
                {
                    app.message = None;
                }
                app.follow_playing();
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};

    fn key(code: KeyCode, m: KeyModifiers) -> Event {
        Event::Key(KeyEvent::new(code, m))
    }

    #[test]
    fn quit_and_cancel_are_answered_everything_else_waits() {
        let none = KeyModifiers::NONE;
        assert_eq!(
            classify(&key(KeyCode::Char('q'), none), false),
            WhileBusy::Quit
        );
        assert_eq!(
            classify(&key(KeyCode::Char('c'), KeyModifiers::CONTROL), true),
            WhileBusy::Quit
        );
        // Typed into the prompt, `q` is a letter.
        assert_eq!(
            classify(&key(KeyCode::Char('q'), none), true),
            WhileBusy::Hold
        );
        assert_eq!(classify(&key(KeyCode::Esc, none), false), WhileBusy::Cancel);
        assert_eq!(classify(&key(KeyCode::Esc, none), true), WhileBusy::Cancel);
        for code in [
            KeyCode::Home,
            KeyCode::Char(' '),
            KeyCode::Right,
            KeyCode::End,
        ] {
            assert_eq!(
                classify(&key(code, none), false),
                WhileBusy::Hold,
                "{code:?}"
            );
        }
        assert_eq!(classify(&Event::Resize(80, 24), false), WhileBusy::Hold);
    }
}
