//! Opening a file that does not exist yet: the viewer shows a "waiting for FILE" screen and
//! the watcher's first good load of it opens the viewer proper, as if the file had been
//! there from the start (an exporter about to write it).

use crate::core::model::SkeletonData;
use crate::tui::app::App;
use crate::tui::theme::Theme;
use crate::tui::views::MarkerKind;
use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use std::path::Path;
use std::sync::Arc;

/// Whether `path` names a file that does not exist in a folder that does (so it can be
/// waited for; a missing folder is an error the loader reports).
pub fn absent(path: &Path) -> bool {
    let missing = matches!(std::fs::symlink_metadata(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    missing && dir.is_dir()
}

/// An app waiting for `path` (called `label`): an empty skeleton until the file appears.
pub fn app(label: String, path: &Path, theme: Theme, marker: MarkerKind) -> Result<App, String> {
    let placeholder = Arc::new(SkeletonData::default());
    let mut app = App::open(label, vec![placeholder], theme, marker)?;
    app.waiting = Some(crate::text::sanitize(&path.display().to_string()).into_owned());
    app.message = None;
    Ok(app)
}

/// The file appeared and loaded: the viewer opens on it (keeping the session's layout).
pub fn arrived(app: &mut App, armatures: Vec<Arc<SkeletonData>>) {
    match App::open(
        app.doc.label.clone(),
        armatures,
        app.theme.clone(),
        app.marker,
    ) {
        Ok(mut fresh) => {
            fresh.source = app.source.take();
            fresh.layout = app.layout.clone();
            fresh.may_write = app.may_write;
            // It opens on a sensible animation and skins, as a file there from the start does.
            if let Err(e) = crate::tui::default_choice::start(&mut fresh, None, None) {
                fresh.error(e);
            }
            if fresh.message.is_none() {
                fresh.note(format!(
                    "{} appeared; watching it",
                    crate::text::sanitize(&fresh.doc.label)
                ));
            }
            *app = fresh;
        }
        Err(e) => app.banner = Some(e),
    }
}

/// Loads `path` now if it appeared between the check that it was absent and the watcher's
/// start (the watcher only reports changes after its start). A file that does not parse yet
/// is left to the watcher: its next write arrives as a change.
pub fn catch_up(app: &mut App, path: &Path) {
    if app.waiting.is_none() {
        return;
    }
    let Ok(bytes) = crate::format::read::read_file(path) else {
        return;
    };
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if let Ok(all) = crate::format::load_all(&bytes, &stem) {
        arrived(app, all.into_iter().map(Arc::new).collect());
    }
}

/// Keys while waiting: only quitting means anything (Ctrl+Z is the loop's).
pub fn handle_event(app: &mut App, ev: &Event) -> bool {
    match ev {
        Event::Key(k) if k.kind == KeyEventKind::Press => {
            let ctrl_c =
                k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL);
            if ctrl_c || matches!(k.code, KeyCode::Char('q') | KeyCode::Esc) {
                app.quit = true;
            }
            false
        }
        Event::Resize(_, _) => true,
        _ => false,
    }
}

/// The waiting screen: what is awaited, that the watcher will open it, how to leave; and the
/// reload error (a half-written or broken file) above it, if any.
pub fn render(frame: &mut Frame<'_>, app: &App, file: &str) {
    let area = frame.area();
    let theme = &app.theme;
    let mut lines = vec![
        Line::from(Span::styled(
            format!("waiting for {file}"),
            theme.title(true),
        )),
        Line::from(""),
        Line::from(Span::styled(
            "It does not exist yet; it opens here as soon as it is written (an exporter saving it).",
            theme.text(),
        )),
        Line::from(Span::styled("q quits, ctrl+z suspends.", theme.dim())),
    ];
    if let Some(banner) = &app.banner {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(banner.clone(), theme.error())));
    }
    let h = (lines.len() as u16 + 2).min(area.height);
    let top = area.height.saturating_sub(h) / 2;
    let body = Rect::new(
        area.x + 2.min(area.width),
        area.y + top,
        area.width.saturating_sub(4),
        area.height - top,
    );
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), body);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::theme::ColorMode;

    #[test]
    fn waits_then_catches_up_with_a_file_written_meanwhile() {
        let dir = std::env::temp_dir().join(format!("bonescope-waiting-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let path = dir.join("later.json");
        let _ = std::fs::remove_file(&path);
        assert!(absent(&path));
        assert!(
            !absent(&dir.join("no-such-folder/later.json")),
            "its folder is missing"
        );
        let mut app = app(
            "later.json".into(),
            &path,
            Theme::new(ColorMode::None),
            MarkerKind::Ascii,
        )
        .expect("app");
        assert!(app.waiting.is_some());
        catch_up(&mut app, &path);
        assert!(app.waiting.is_some(), "still absent: still waiting");
        std::fs::write(&path, crate::tui::EMBEDDED_SAMPLE).expect("write");
        catch_up(&mut app, &path);
        assert!(app.waiting.is_none());
        assert!(!app.doc.data.animations.is_empty());
        assert_eq!(app.source, None, "the caller sets the source");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
