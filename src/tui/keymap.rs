//! Global keys (when no panel or overlay takes the key); the help lists them from
//! [`crate::tui::key_help`].

use crate::tui::views::PanelId;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A global action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    Help,
    PlayPause,
    /// Step by this many frames (negative: back).
    StepFrames(i64),
    PrevKey,
    NextKey,
    Home,
    End,
    /// Back to the newest frame played (after going back in time).
    Live,
    Faster,
    Slower,
    ToggleLoop,
    NextPanel,
    PrevPanel,
    Focus(PanelId),
    AnimationPicker,
    SkinPicker,
    ArmaturePicker,
    Prompt,
    CycleMarker,
    /// Set the loop range's in / out point at the current frame.
    RangeIn,
    RangeOut,
    /// Next physics mode: update, pose, none (a session input, so replays keep it).
    CyclePhysics,
    /// Reset the physics simulation (a session input).
    ResetPhysics,
    /// `/`: search bones and timelines; `n` / `N`: next / previous match.
    Search,
    SearchNext,
    SearchPrev,
    /// Maximise the focused panel / restore the layout.
    Maximise,
    /// Widen / narrow the focused panel's column.
    Widen,
    Narrow,
    /// Open the message log (every warning, error and note, whole).
    MessageLog,
}

/// The global action for a key, if any.
pub fn global_action(key: KeyEvent) -> Option<Action> {
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
        // Other ctrl+letters are not the letter (a stray ctrl+l must not toggle loop).
        KeyCode::Char(_) if ctrl => return None,
        KeyCode::Char('q') => Action::Quit,
        KeyCode::Char('?') | KeyCode::F(1) => Action::Help,
        KeyCode::Char(' ') => Action::PlayPause,
        KeyCode::Left if shift => Action::StepFrames(-10),
        KeyCode::Right if shift => Action::StepFrames(10),
        KeyCode::Left => Action::StepFrames(-1),
        KeyCode::Right => Action::StepFrames(1),
        KeyCode::Char('[') => Action::PrevKey,
        KeyCode::Char(']') => Action::NextKey,
        KeyCode::Home => Action::Home,
        KeyCode::End => Action::End,
        KeyCode::Char('.') => Action::Live,
        KeyCode::Char('+') | KeyCode::Char('=') => Action::Faster,
        KeyCode::Char('-') | KeyCode::Char('_') => Action::Slower,
        KeyCode::Char('l') => Action::ToggleLoop,
        KeyCode::Tab => Action::NextPanel,
        KeyCode::BackTab => Action::PrevPanel,
        KeyCode::Char('T') => Action::Focus(PanelId::Tracks),
        KeyCode::Char('C') => Action::Focus(PanelId::Curves),
        KeyCode::Char('B') => Action::Focus(PanelId::Bones),
        KeyCode::Char('E') => Action::Focus(PanelId::Events),
        KeyCode::Char('P') => Action::Focus(PanelId::Preview),
        KeyCode::Char('a') => Action::AnimationPicker,
        KeyCode::Char('s') => Action::SkinPicker,
        KeyCode::Char('A') => Action::ArmaturePicker,
        KeyCode::Char('m') => Action::MessageLog,
        KeyCode::Char(':') => Action::Prompt,
        KeyCode::Char('M') => Action::CycleMarker,
        KeyCode::Char('i') => Action::RangeIn,
        KeyCode::Char('o') => Action::RangeOut,
        KeyCode::Char('p') => Action::CyclePhysics,
        KeyCode::Char('R') => Action::ResetPhysics,
        KeyCode::Char('/') => Action::Search,
        KeyCode::Char('n') => Action::SearchNext,
        KeyCode::Char('N') => Action::SearchPrev,
        KeyCode::Char('F') => Action::Maximise,
        KeyCode::Char('}') => Action::Widen,
        KeyCode::Char('{') => Action::Narrow,
        _ => return None,
    })
}
