//! Every key binding as data: the help overlay (`?`) is drawn from these tables, and the tests
//! below press every key on the keyboard against [`global_action`] and each panel's
//! `handle_key` to prove that a key works exactly when it is listed here, so help cannot
//! drift from the keymap.
//!
//! [`global_action`]: crate::tui::keymap::global_action

use ratatui::crossterm::event::KeyCode;

/// One key as the help names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A character key without modifiers.
    Char(char),
    /// Every character from the first to the second (`1-7`).
    Chars(char, char),
    /// Ctrl and a letter.
    Ctrl(char),
    /// A named key without modifiers.
    Code(KeyCode),
    /// Shift and a named key.
    Shift(KeyCode),
    /// The mouse (with `--mouse`).
    Mouse,
}

impl Key {
    /// How the help writes the key.
    pub fn label(self) -> String {
        match self {
            Key::Char(' ') => "space".into(),
            Key::Char(c) => c.to_string(),
            Key::Chars(a, b) => format!("{a}-{b}"),
            Key::Ctrl(c) => format!("ctrl+{c}"),
            Key::Code(c) => code_label(c),
            Key::Shift(c) => format!("shift+{}", code_label(c)),
            Key::Mouse => "mouse".into(),
        }
    }
}

fn code_label(c: KeyCode) -> String {
    match c {
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        KeyCode::PageUp => "pgup".into(),
        KeyCode::PageDown => "pgdn".into(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Tab => "tab".into(),
        KeyCode::BackTab => "shift+tab".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::Backspace => "backspace".into(),
        KeyCode::F(n) => format!("F{n}"),
        other => format!("{other:?}").to_lowercase(),
    }
}

/// Keys and what they do.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    pub keys: &'static [Key],
    pub what: &'static str,
}

/// Where a group of bindings works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Anywhere (unless the focused panel takes the key).
    Global,
    /// While this panel has focus.
    Panel(crate::tui::views::PanelId),
    /// The Bones panel in draw-order mode (`o`).
    BonesDrawOrder,
    /// Inside an overlay (prompt, pickers, logs); documented, handled by the overlay.
    Overlay,
    /// Taken by the event loop before any panel sees it (suspend, mouse).
    Terminal,
}

/// A titled group of bindings.
#[derive(Clone, Copy, Debug)]
pub struct Section {
    pub title: &'static str,
    pub scope: Scope,
    pub bindings: &'static [Binding],
}

const fn b(keys: &'static [Key], what: &'static str) -> Binding {
    Binding { keys, what }
}

use crate::tui::views::PanelId;
use Key::{Char as C, Chars, Code, Ctrl, Shift};

/// Every key of the viewer, grouped as the help shows them.
pub const SECTIONS: &[Section] = &[
    Section {
        title: "Playback",
        scope: Scope::Global,
        bindings: &[
            b(&[C(' ')], "play / pause"),
            b(
                &[Code(KeyCode::Left), Code(KeyCode::Right)],
                "one frame back / forward (at the skeleton's fps)",
            ),
            b(
                &[Shift(KeyCode::Left), Shift(KeyCode::Right)],
                "ten frames back / forward",
            ),
            b(
                &[C('['), C(']')],
                "previous / next key of the selected timeline",
            ),
            b(
                &[Code(KeyCode::Home), Code(KeyCode::End)],
                "start / end of the followed track's animation (this loop)",
            ),
            b(
                &[C('.')],
                "back to the newest frame played (live) after going back in time",
            ),
            b(&[C('+'), C('='), C('-'), C('_')], "faster / slower"),
            b(&[C('l')], "loop on / off"),
            b(
                &[C('i'), C('o')],
                "loop range in / out at this frame (:range off clears)",
            ),
            b(
                &[C('p')],
                "physics mode: update, pose, none (Spine 4.2 physics constraints)",
            ),
            b(&[C('R')], "reset the physics simulation"),
        ],
    },
    Section {
        title: "Choosing",
        scope: Scope::Global,
        bindings: &[
            b(
                &[C('a')],
                "animation picker (sets it on track 0 at this frame; tracks, queue and log stay)",
            ),
            b(
                &[C('s')],
                "skin picker: space ticks skins to combine, enter applies (:skin A B)",
            ),
            b(&[C('A')], "armature picker (files with several skeletons)"),
            b(
                &[C(':')],
                "command prompt (↑ ↓ history, tab completes; commands below)",
            ),
            b(
                &[Code(KeyCode::Tab), Code(KeyCode::BackTab)],
                "next / previous panel",
            ),
            b(
                &[C('T'), C('C'), C('B'), C('E'), C('P')],
                "focus Tracks, Curves, Bones, Events, Preview",
            ),
            b(&[C('F')], "maximise the focused panel / restore the layout"),
            b(
                &[C('{'), C('}')],
                "narrow / widen the focused panel's column (kept this session)",
            ),
            b(
                &[C('/'), C('n'), C('N')],
                "search bones and timelines as you type; n / N next / previous match (Events: its own search)",
            ),
            b(
                &[C('M')],
                "plot marker: octant, sextant, braille, half-block, ascii",
            ),
        ],
    },
    Section {
        title: "Other",
        scope: Scope::Global,
        bindings: &[
            b(&[C('?'), Code(KeyCode::F(1))], "this help"),
            b(
                &[C('m')],
                "message log: every warning, error and note in full",
            ),
            b(&[C('q'), Ctrl('c')], "quit"),
        ],
    },
    Section {
        title: "Terminal",
        scope: Scope::Terminal,
        bindings: &[
            b(
                &[Ctrl('z')],
                "suspend to the shell (terminal restored); fg resumes",
            ),
            b(&[Ctrl('l')], "repaint the whole screen"),
            b(
                &[Key::Mouse],
                "with --mouse: a click focuses the panel and selects the row under the pointer, a click or drag on the dopesheet's time axis scrubs, the wheel is ↑ ↓ for the panel under the pointer",
            ),
        ],
    },
    Section {
        title: "Tracks panel",
        scope: Scope::Panel(PanelId::Tracks),
        bindings: &[
            b(
                &[
                    Code(KeyCode::Up),
                    Code(KeyCode::Down),
                    Code(KeyCode::PageUp),
                    Code(KeyCode::PageDown),
                ],
                "select a timeline",
            ),
            b(&[C('g'), C('G')], "first / last timeline"),
            b(
                &[Code(KeyCode::Enter)],
                "select the timeline under the cursor",
            ),
        ],
    },
    Section {
        title: "Curves panel",
        scope: Scope::Panel(PanelId::Curves),
        bindings: &[
            b(
                &[Code(KeyCode::Up), Code(KeyCode::Down)],
                "previous / next timeline",
            ),
            b(
                &[C('v')],
                "overlay the bone's evaluated value (after mixing and constraints)",
            ),
        ],
    },
    Section {
        title: "Bones panel",
        scope: Scope::Panel(PanelId::Bones),
        bindings: &[
            b(
                &[
                    Code(KeyCode::Up),
                    Code(KeyCode::Down),
                    Code(KeyCode::PageUp),
                    Code(KeyCode::PageDown),
                ],
                "move in the tree (selects the bone)",
            ),
            b(&[Code(KeyCode::Enter)], "expand / collapse the bone"),
            b(&[C('*'), C('c')], "expand every bone / collapse all"),
            b(
                &[C('o')],
                "draw order: slots in drawing order (o: back to bones)",
            ),
        ],
    },
    Section {
        title: "Bones panel, draw order",
        scope: Scope::BonesDrawOrder,
        bindings: &[
            b(
                &[
                    Code(KeyCode::Up),
                    Code(KeyCode::Down),
                    Code(KeyCode::PageUp),
                    Code(KeyCode::PageDown),
                ],
                "move among slots (selects the slot's bone)",
            ),
            b(&[C('o')], "back to the bone tree"),
        ],
    },
    Section {
        title: "Events panel",
        scope: Scope::Panel(PanelId::Events),
        bindings: &[
            b(
                &[
                    Code(KeyCode::Up),
                    Code(KeyCode::Down),
                    Code(KeyCode::PageUp),
                    Code(KeyCode::PageDown),
                ],
                "move the row cursor (on the newest row it follows new rows: live)",
            ),
            b(&[C('g'), C('G')], "oldest row / newest row (live)"),
            b(&[C('f'), C('t')], "filter by type / by track (cycle)"),
            b(&[C('h')], "hide event rows"),
            b(&[Chars('0', '9')], "show or hide track N (filters combine)"),
            b(&[C('/')], "search (type, enter keeps, esc clears)"),
            b(&[C('x')], "clear every filter"),
            b(&[C('d')], "detail of the cursor's row"),
            b(&[Code(KeyCode::Enter)], "jump to the cursor row's frame"),
        ],
    },
    Section {
        title: "Preview panel",
        scope: Scope::Panel(PanelId::Preview),
        bindings: &[
            b(&[C('z'), C('Z'), C('0')], "zoom in / out / fit"),
            b(
                &[C('H'), C('J'), C('K'), C('L')],
                "pan left / down / up / right",
            ),
            b(
                &[Chars('1', '7')],
                "bones, regions, meshes, bounding boxes, paths, points, clipping",
            ),
            b(
                &[C('v')],
                "3D poses: front, top, side view (1 shows or hides the joints)",
            ),
            b(&[C('<'), C('>')], "3D poses: orbit 15° left / right"),
            b(
                &[C('t')],
                "picture (textured, by the terminal's image protocol or half-block cells) / wireframe markers",
            ),
            b(
                &[C('w')],
                "bones and wireframe over the textured picture on / off",
            ),
        ],
    },
    Section {
        title: "In the prompt, pickers and logs",
        scope: Scope::Overlay,
        bindings: &[
            b(
                &[Code(KeyCode::Up), Code(KeyCode::Down)],
                "prompt: older / newer command from the history",
            ),
            b(
                &[Code(KeyCode::Tab)],
                "prompt: complete a command, animation, skin or bone name (again: next)",
            ),
            b(
                &[C(' ')],
                "skin picker: tick / untick a skin (combined in ticking order)",
            ),
            b(
                &[Code(KeyCode::Enter), Code(KeyCode::Esc)],
                "run / pick / apply; cancel or close",
            ),
        ],
    },
];

/// The keys of a binding as one label (`H J K L`).
pub fn keys_label(keys: &[Key]) -> String {
    keys.iter().map(|k| k.label()).collect::<Vec<_>>().join(" ")
}

/// True when `key` (without modifiers other than shift for named keys) is listed in `scope`.
pub fn lists(scope: Scope, key: ratatui::crossterm::event::KeyEvent) -> bool {
    use ratatui::crossterm::event::KeyModifiers;
    let shift = key.modifiers.contains(KeyModifiers::SHIFT);
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let keys = || {
        SECTIONS
            .iter()
            .filter(move |s| s.scope == scope)
            .flat_map(|s| s.bindings)
            .flat_map(|b| b.keys)
    };
    // Shift with a named key does what the key does, unless shift+key has its own binding.
    let own_shift = keys().any(|k| *k == Key::Shift(key.code));
    keys().any(|k| match (*k, key.code) {
        (Key::Char(a), KeyCode::Char(c)) => !ctrl && a == c,
        (Key::Chars(a, z), KeyCode::Char(c)) => !ctrl && (a..=z).contains(&c),
        (Key::Ctrl(a), KeyCode::Char(c)) => ctrl && a == c,
        (Key::Code(a), code) => !(ctrl || shift && own_shift) && a == code,
        (Key::Shift(a), code) => shift && a == code,
        _ => false,
    })
}

/// The key table README.md carries (a test keeps it equal to this).
pub fn markdown() -> String {
    let mut out = String::from("| where | keys | what |\n|---|---|---|\n");
    for section in SECTIONS {
        for b in section.bindings {
            let keys: Vec<String> = b.keys.iter().map(|k| format!("`{}`", k.label())).collect();
            out.push_str(&format!(
                "| {} | {} | {} |\n",
                section.title,
                keys.join(" "),
                b.what
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::keymap::global_action;
    use crate::tui::views::{Panel, PanelAction};
    use ratatui::crossterm::event::{KeyEvent, KeyModifiers};

    /// Every key a user can press that the viewer could bind.
    fn keyboard() -> Vec<KeyEvent> {
        let mut v = Vec::new();
        for c in ' '..='~' {
            v.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        for c in 'a'..='z' {
            v.push(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
        }
        let named = [
            KeyCode::Left,
            KeyCode::Right,
            KeyCode::Up,
            KeyCode::Down,
            KeyCode::Home,
            KeyCode::End,
            KeyCode::PageUp,
            KeyCode::PageDown,
            KeyCode::Enter,
            KeyCode::Tab,
            KeyCode::BackTab,
            KeyCode::Esc,
            KeyCode::Backspace,
            KeyCode::Delete,
            KeyCode::Insert,
        ];
        for code in named.into_iter().chain((1..=12).map(KeyCode::F)) {
            v.push(KeyEvent::new(code, KeyModifiers::NONE));
            v.push(KeyEvent::new(code, KeyModifiers::SHIFT));
        }
        v
    }

    #[test]
    fn every_global_key_is_in_help_and_every_listed_key_works() {
        for k in keyboard() {
            assert_eq!(
                global_action(k).is_some(),
                lists(Scope::Global, k),
                "global key {k:?}: works {} but listed {}",
                global_action(k).is_some(),
                lists(Scope::Global, k)
            );
        }
    }

    fn check_panel(scope: Scope, mut fresh: impl FnMut() -> Box<dyn Panel>) {
        let app = crate::tui::offscreen::sample_app("walk", 0.3);
        let id = match scope {
            Scope::Panel(id) => id,
            _ => PanelId::Bones,
        };
        let ctx = app.ctx(id);
        for k in keyboard() {
            let mut panel = fresh();
            let works = !matches!(panel.handle_key(k, &ctx), PanelAction::Ignored);
            assert_eq!(
                works,
                lists(scope, k),
                "{scope:?} key {k:?}: works {works} but listed {}",
                lists(scope, k)
            );
        }
    }

    #[test]
    fn every_panel_key_is_in_help_and_every_listed_key_works() {
        use crate::tui::views::{bones, curves, events, preview, tracks};
        check_panel(Scope::Panel(PanelId::Tracks), || {
            Box::new(tracks::TracksView::default())
        });
        check_panel(Scope::Panel(PanelId::Curves), || {
            Box::new(curves::CurvesView::default())
        });
        check_panel(Scope::Panel(PanelId::Bones), || {
            Box::new(bones::BonesView::default())
        });
        check_panel(Scope::Panel(PanelId::Events), || {
            Box::new(events::EventsView::default())
        });
        check_panel(Scope::Panel(PanelId::Preview), || {
            Box::new(preview::PreviewView::default())
        });
    }

    #[test]
    fn draw_order_keys_are_in_help() {
        use crate::tui::views::bones::BonesView;
        let app = crate::tui::offscreen::sample_app("walk", 0.3);
        let ctx = app.ctx(PanelId::Bones);
        let o = KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE);
        for k in keyboard() {
            let mut v = BonesView::default();
            v.handle_key(o, &ctx);
            let works = !matches!(v.handle_key(k, &ctx), PanelAction::Ignored);
            assert_eq!(works, lists(Scope::BonesDrawOrder, k), "draw order {k:?}");
        }
    }

    #[test]
    fn readme_key_table_is_the_help() {
        let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md"))
            .expect("README.md");
        let table = markdown();
        assert!(
            readme.contains(&table),
            "README.md must carry the key table as the help lists it:\n{table}"
        );
    }

    #[test]
    fn labels_read_as_written_in_the_readme() {
        assert_eq!(keys_label(&[C('H'), C('J'), C('K'), C('L')]), "H J K L");
        assert_eq!(keys_label(&[Shift(KeyCode::Left)]), "shift+←");
        assert_eq!(keys_label(&[Chars('1', '7'), C(' ')]), "1-7 space");
        assert_eq!(keys_label(&[Ctrl('c')]), "ctrl+c");
    }
}
