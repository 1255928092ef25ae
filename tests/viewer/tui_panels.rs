//! Issue 15 points 3 and 7 off-screen: maximising a panel, moving the splits, the Bones
//! panel's columns at 120 columns, a selected bone selecting its timeline, `/` search, and
//! the mouse (crossterm mouse events fed to the app after a render placed the panels).

use bonescope::inspect::Target;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{buffer_text, render_app, sample_app};
use bonescope::tui::views::PanelId;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;

fn key(app: &mut App, c: KeyCode) -> bool {
    app.handle_key(KeyEvent::new(c, KeyModifiers::NONE))
}

fn chars(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn area(app: &App, id: PanelId) -> Rect {
    app.areas
        .iter()
        .find(|(p, _)| *p == id)
        .map(|(_, r)| *r)
        .unwrap_or_else(|| panic!("{id:?} not drawn: {:?}", app.areas))
}

fn mouse(app: &mut App, kind: MouseEventKind, column: u16, row: u16) -> bool {
    app.handle_mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    })
}

fn click(app: &mut App, column: u16, row: u16) -> bool {
    mouse(app, MouseEventKind::Down(MouseButton::Left), column, row)
}

fn bone(app: &App, name: &str) -> usize {
    app.doc.data.find_bone(name).expect("bone")
}

#[test]
fn maximise_fills_the_screen_with_the_focused_panel_and_restores() {
    let mut app = sample_app("walk", 0.25);
    key(&mut app, KeyCode::Char('B'));
    key(&mut app, KeyCode::Char('F'));
    let text = buffer_text(&render_app(&mut app, 80, 24));
    assert_eq!(app.areas, vec![(PanelId::Bones, Rect::new(0, 0, 80, 23))]);
    insta::assert_snapshot!("maximised_bones_80x24", text);
    // Tab moves the focus: the maximised panel follows it.
    key(&mut app, KeyCode::Tab);
    let _ = render_app(&mut app, 80, 24);
    assert_eq!(app.areas, vec![(PanelId::Events, Rect::new(0, 0, 80, 23))]);
    key(&mut app, KeyCode::Char('F'));
    let _ = render_app(&mut app, 160, 48);
    assert_eq!(app.areas.len(), 5, "restored");
}

#[test]
fn braces_move_the_splits_and_the_sizes_are_kept() {
    let mut app = sample_app("walk", 0.0);
    let _ = render_app(&mut app, 200, 60);
    let before = area(&app, PanelId::Bones).width;
    key(&mut app, KeyCode::Char('B'));
    key(&mut app, KeyCode::Char('}'));
    key(&mut app, KeyCode::Char('}'));
    let _ = render_app(&mut app, 200, 60);
    let wider = area(&app, PanelId::Bones).width;
    assert_eq!(wider, before + 16, "two steps of 4% of 200 columns");
    // Other panels and other actions keep it.
    key(&mut app, KeyCode::Char('a'));
    key(&mut app, KeyCode::Enter);
    let _ = render_app(&mut app, 200, 60);
    assert_eq!(area(&app, PanelId::Bones).width, wider);
    key(&mut app, KeyCode::Char('{'));
    let _ = render_app(&mut app, 200, 60);
    assert_eq!(area(&app, PanelId::Bones).width, wider - 8);
    // The small layout has its own split: the inspector column.
    let _ = render_app(&mut app, 80, 24);
    let inspector = area(&app, PanelId::Bones).width;
    key(&mut app, KeyCode::Char('}'));
    let _ = render_app(&mut app, 80, 24);
    assert!(area(&app, PanelId::Bones).width > inspector);
}

#[test]
fn bones_at_120_columns_show_the_local_transform() {
    let mut app = sample_app("walk", 0.25);
    key(&mut app, KeyCode::Char('B'));
    let text = buffer_text(&render_app(&mut app, 120, 40));
    let header = text
        .lines()
        .find(|l| l.contains("bone ") && l.contains(" rot"))
        .expect("bones header");
    let cols: Vec<&str> = header
        .split(['│', '┃'])
        .find(|p| p.contains("bone"))
        .expect("bones part")
        .split_whitespace()
        .collect();
    assert_eq!(cols, ["bone", "rot", "x", "y", "sx", "sy"], "{header}");
    insta::assert_snapshot!("walk_bones_120x40", text);
}

#[test]
fn selecting_a_bone_selects_its_timeline() {
    let mut app = sample_app("walk", 0.0);
    key(&mut app, KeyCode::Char('B'));
    // Down the tree until a bone animated by walk is selected.
    let torso = bone(&app, "hip");
    for _ in 0..40 {
        if app.selection.bone == Some(torso) {
            break;
        }
        key(&mut app, KeyCode::Down);
    }
    assert_eq!(app.selection.bone, Some(torso));
    let t = app.selection.timeline.expect("timeline");
    assert_eq!(app.timelines[t].target, Target::Bone(torso));
}

#[test]
fn slash_searches_bones_and_timelines_incrementally() {
    let mut app = sample_app("walk", 0.0);
    key(&mut app, KeyCode::Char('B'));
    let before = app.selection.clone();
    key(&mut app, KeyCode::Char('/'));
    assert!(app.search.typing());
    chars(&mut app, "fore");
    assert_eq!(
        app.selection.bone,
        Some(bone(&app, "forearm-l")),
        "first match"
    );
    let text = buffer_text(&render_app(&mut app, 80, 24));
    assert!(text.contains("/fore_  1/3: bone forearm-l"), "{text}");
    key(&mut app, KeyCode::Enter);
    assert!(!app.search.typing());
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.selection.bone, Some(bone(&app, "forearm-r")));
    key(&mut app, KeyCode::Char('n'));
    let t = app.selection.timeline.expect("timeline match");
    assert_eq!(app.timelines[t].label(), "bone forearm-l.rotate");
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(
        app.selection.bone,
        Some(bone(&app, "forearm-l")),
        "wraps around"
    );
    key(&mut app, KeyCode::Char('N'));
    assert_eq!(app.selection.timeline, Some(t), "previous");
    // Esc while typing puts the selection back.
    let kept = app.selection.clone();
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "lantern");
    assert_ne!(app.selection, kept);
    assert_ne!(app.selection, before);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.selection, kept);
    let t = buffer_text(&render_app(&mut app, 80, 24));
    assert!(!t.contains("/lantern_"), "{t}");
    // In Events, `/` is the log's own filter.
    key(&mut app, KeyCode::Char('E'));
    key(&mut app, KeyCode::Char('/'));
    assert!(!app.search.typing());
}

#[test]
fn mouse_clicks_focus_and_select_what_is_under_the_pointer() {
    let mut app = sample_app("walk", 0.0);
    let _ = render_app(&mut app, 200, 60);
    // A bone row: focus moves to Bones and the bone is selected (with its timeline).
    let bones = area(&app, PanelId::Bones);
    let text = buffer_text(&render_app(&mut app, 200, 60));
    let (row, _) = text
        .lines()
        .enumerate()
        .find(|(_, l)| {
            l[l.char_indices().nth(bones.x as usize).map_or(0, |(i, _)| i)..].contains(" hip ")
        })
        .expect("hip row");
    assert!(click(&mut app, bones.x + 4, row as u16));
    assert_eq!(app.focus, PanelId::Bones);
    assert_eq!(app.selection.bone, Some(bone(&app, "hip")));
    let t = app.selection.timeline.expect("timeline");
    assert_eq!(app.timelines[t].target, Target::Bone(bone(&app, "hip")));

    // A dopesheet label: Tracks focused, that timeline selected.
    let _ = render_app(&mut app, 200, 60);
    let tracks = area(&app, PanelId::Tracks);
    let text = buffer_text(&render_app(&mut app, 200, 60));
    let (row, _) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("│torso.rotate") || l.contains("┃torso.rotate"))
        .expect("torso row");
    assert!(click(&mut app, tracks.x + 3, row as u16));
    assert_eq!(app.focus, PanelId::Tracks);
    let t = app.selection.timeline.expect("timeline");
    assert_eq!(app.timelines[t].label(), "bone torso.rotate");

    // The wheel over Events scrolls it without taking the focus.
    let events = area(&app, PanelId::Events);
    mouse(
        &mut app,
        MouseEventKind::ScrollUp,
        events.x + 3,
        events.y + 3,
    );
    assert_eq!(app.focus, PanelId::Tracks);
    // A click on an event row selects it (highlighted, `d` details it).
    key(&mut app, KeyCode::Char(' '));
    for _ in 0..20 {
        app.tick(0.1);
    }
    key(&mut app, KeyCode::Char(' '));
    let _ = render_app(&mut app, 200, 60);
    assert!(click(&mut app, events.x + 3, events.y + 2));
    assert_eq!(app.focus, PanelId::Events);
    assert_eq!(app.panels.events.picked(), Some(0), "the first log line");
}

#[test]
fn clicking_and_dragging_on_the_dopesheet_scrubs() {
    let mut app = sample_app("walk", 0.0);
    let text = buffer_text(&render_app(&mut app, 200, 60));
    // The ruler row of the dopesheet ("walk 1s" then the axis labels 0 ... 1).
    let (row, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("walk 1s"))
        .expect("dopesheet header");
    let chars: Vec<char> = line.chars().collect();
    let label = line.find("walk 1s").expect("label");
    let start = line[..label].chars().count();
    // The axis: from the first "0" after the label to the last "1" of the ruler.
    let zero = (start..chars.len()).find(|&c| chars[c] == '0').expect("0");
    let one = (zero..chars.len())
        .rev()
        .find(|&c| chars[c] == '1')
        .expect("1");
    let (zero, one) = (zero as u16, one as u16);
    let body = row as u16 + 2;

    // Press at the middle of the axis: the playhead moves to 0.5 s, paused.
    app.playing = true;
    assert!(click(&mut app, (zero + one) / 2, body));
    assert!(!app.playing, "scrubbing pauses");
    assert!((app.playhead() - 0.5).abs() < 0.04, "{}", app.playhead());
    // Drag to the end, then past the start (clamped to 0).
    let _ = render_app(&mut app, 200, 60);
    assert!(mouse(
        &mut app,
        MouseEventKind::Drag(MouseButton::Left),
        one,
        body
    ));
    assert!(
        (app.playhead() - 1.0).abs() < 0.04 || app.playhead() < 0.04,
        "{}",
        app.playhead()
    );
    assert!(mouse(
        &mut app,
        MouseEventKind::Drag(MouseButton::Left),
        0,
        body
    ));
    assert!(app.playhead() < 1e-9, "{}", app.playhead());
    assert_eq!(app.session.frame(), 0);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), 0, body);
    // After release, a drag does nothing.
    assert!(!mouse(
        &mut app,
        MouseEventKind::Drag(MouseButton::Left),
        one,
        body
    ));
    assert_eq!(app.session.frame(), 0);
}
