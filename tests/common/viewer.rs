//! Opening files in the viewer off-screen and driving its panels, for the view tests.

use bonescope::session::Command;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{PanelScene, buffer_text, file_app, render_panel};
use bonescope::tui::views::Panel;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::{Path, PathBuf};

/// A key pressed without modifiers.
pub fn plain_key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// The viewer on the file at `path` at `time` seconds (panics, naming the file, if it fails).
pub fn open_file(path: &Path, time: f64) -> App {
    let bytes = std::fs::read(path).expect("readable");
    let label = path.file_name().unwrap().to_string_lossy().into_owned();
    file_app(&bytes, &label, time).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The JSON exports of Spine corpus `version`, sorted; `None` (failing in CI) without
/// `../shared`.
pub fn spine_json_exports(what: &str, version: &str) -> Option<Vec<PathBuf>> {
    let files = super::spine_corpus_files(&super::shared_dir(what)?, version, "json");
    assert!(
        !files.is_empty(),
        "corpus/spine/{version} holds JSON exports"
    );
    Some(files)
}

/// `panel` drawn with `app`'s state (focused) into a `w` x `h` buffer, as text.
pub fn panel_text(panel: &mut dyn Panel, app: &App, w: u16, h: u16) -> String {
    buffer_text(&render_panel(panel, &PanelScene::of(app), w, h))
}

/// Sets animation `name` on `track` of `app`'s session.
pub fn set_animation(app: &mut App, track: usize, name: &str, looping: bool) {
    let animation = app.doc.data.find_animation(name).expect(name);
    app.session
        .push(Command::SetAnimation {
            track,
            animation,
            looping,
        })
        .unwrap();
}
