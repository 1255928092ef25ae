//! Global keys (when no panel or overlay takes the key) and the help listing of every key.

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
}

/// The global action for a key, if any.
pub fn global_action(key: KeyEvent) -> Option<Action> {
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    Some(match key.code {
        KeyCode::Char('c') if ctrl => Action::Quit,
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

/// Every key, grouped, for the help overlay: (group, [(keys, what)]).
pub fn help_sections() -> Vec<(&'static str, Vec<(&'static str, &'static str)>)> {
    vec![
        (
            "Playback",
            vec![
                ("space", "play / pause"),
                ("← →", "one frame back / forward (at the skeleton's fps)"),
                ("shift+← →", "ten frames back / forward"),
                ("[ ]", "previous / next key of the selected timeline"),
                ("home end", "start / end of the animation"),
                ("+ -", "faster / slower"),
                ("l", "loop on / off"),
                (
                    "i o",
                    "loop range in / out at this frame (:range off clears)",
                ),
                (
                    "p",
                    "physics mode: update, pose, none (Spine 4.2 physics constraints)",
                ),
                ("R", "reset the physics simulation"),
            ],
        ),
        (
            "Choosing",
            vec![
                ("a", "animation picker (plays it on track 0 from the start)"),
                ("s", "skin picker"),
                ("A", "armature picker (files with several skeletons)"),
                (
                    ":",
                    "command prompt: set, queue, add, empty, clear, mix, alpha, timescale, physics",
                ),
                ("tab shift+tab", "next / previous panel"),
                ("F", "maximise the focused panel / restore the layout"),
                (
                    "{ }",
                    "narrow / widen the focused panel (kept this session)",
                ),
                (
                    "/ n N",
                    "search bones and timelines (Events: its own search); next / previous",
                ),
                ("T C B E P", "focus Tracks, Curves, Bones, Events, Preview"),
                ("↑ ↓ pgup pgdn", "move in the focused list"),
                (
                    "enter",
                    "select (timeline, bone) / expand or collapse a bone",
                ),
            ],
        ),
        (
            "Panels",
            vec![
                (
                    "Curves: v",
                    "overlay the bone's evaluated value (after mixing and constraints)",
                ),
                (
                    "Events: f / t",
                    "filter by type / by track (cycle); x clears filters",
                ),
                (
                    "Events: h 0-9 /",
                    "hide event rows / toggle tracks / search (filters combine)",
                ),
                (
                    "Events: d enter",
                    "detail of the bottom row / jump to its frame",
                ),
                ("Preview: z Z 0", "zoom in / out / fit"),
                ("Preview: H J K L", "pan left / down / up / right"),
                (
                    "Preview: 1-7",
                    "bones, regions, meshes, bounding boxes, paths, points, clipping",
                ),
                (
                    "Preview: v",
                    "3D poses: front, top, side view (1 shows or hides the joints)",
                ),
                ("Preview: < >", "3D poses: orbit 15° left / right"),
                ("M", "plot marker: braille, half-block, ascii"),
            ],
        ),
        (
            "Other",
            vec![
                ("?", "this help"),
                ("ctrl+z", "suspend to the shell (fg resumes)"),
                ("q ctrl+c", "quit"),
                (
                    "mouse",
                    "--mouse: click focuses and selects, wheel is ↑ ↓ there, click/drag on the dopesheet scrubs",
                ),
            ],
        ),
    ]
}
