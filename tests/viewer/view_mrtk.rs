//! MRTK input recordings in the viewer: the project sample as full-app snapshots, and a real
//! recording from `../shared/corpus/mrtk/real/` (skipped without it): hands in the preview,
//! joints in the bone tree, pinch events in the log, the 3D view keys.

use crate::common;

use bonescope::core::state::NotificationKind;
use bonescope::session::LogLine;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{PanelScene, buffer_text, file_app, render_app, render_panel};
use bonescope::tui::views::bones::BonesView;
use bonescope::tui::views::events::EventsView;
use bonescope::tui::views::preview::PreviewView;
use bonescope::tui::views::preview::projection::View3;
use bonescope::tui::views::{Panel, PanelAction, PanelId};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

const SAMPLE: &str = "samples/mrtk/wave-and-pinch.bin";
const REAL: &str = "corpus/mrtk/real/InputAnimation-20201027-134946.bin";

fn sample_app(time: f64) -> App {
    let bytes = std::fs::read(common::project_dir().join(SAMPLE)).expect("sample");
    file_app(&bytes, "wave-and-pinch.bin", time).expect("sample loads")
}

fn real_app(time: f64) -> Option<App> {
    let shared = common::shared_dir("real MRTK recording in the viewer")?;
    let bytes = std::fs::read(shared.join(REAL)).expect("real recording");
    Some(file_app(&bytes, "InputAnimation-20201027-134946.bin", time).expect("loads"))
}

fn press(panel: &mut dyn Panel, app: &App, id: PanelId, c: char) -> PanelAction {
    panel.handle_key(
        KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
        &app.ctx(id),
    )
}

/// Canvas cells with something drawn (braille dots) in a rendered panel.
fn drawn_cells(text: &str) -> usize {
    text.chars()
        .filter(|c| ('\u{2801}'..='\u{28ff}').contains(c))
        .count()
}

fn render(panel: &mut dyn Panel, app: &App, w: u16, h: u16) -> String {
    buffer_text(&render_panel(panel, &PanelScene::of(app), w, h))
}

/// The event notifications of the session log: (animation time, event name, string payload).
fn logged_events(app: &App) -> Vec<(f64, String, String)> {
    let data = app.session.data().clone();
    app.session
        .log()
        .iter()
        .filter_map(|line| match line {
            LogLine::Notification { note, .. } if note.kind == NotificationKind::Event => {
                let ev = note.event.as_ref()?;
                Some((
                    ev.time,
                    data.events[ev.data].name.clone(),
                    ev.string.clone(),
                ))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn sample_app_snapshots() {
    // 1.2 s: the right hand is tracked and pinching (1.0-1.4 s); the left hand never is.
    let mut app = sample_app(1.2);
    app.selection.bone = app.doc.data.find_bone("hand.right.IndexTip");
    let small = buffer_text(&render_app(&mut app, 80, 24));
    assert!(small.contains("Preview [front]"), "{small}");
    insta::assert_snapshot!("mrtk_sample_80x24", small);
    let large = buffer_text(&render_app(&mut app, 160, 48));
    for needle in [
        "Bones 54 bones",
        "hand.right.Wrist",
        "pinch.right",
        "camera.position",
    ] {
        assert!(large.contains(needle), "{needle} missing:\n{large}");
    }
    insta::assert_snapshot!("mrtk_sample_160x48", large);
}

#[test]
fn sample_events_follow_the_bool_curves_and_markers() {
    let app = sample_app(3.0);
    let fired: Vec<(String, String)> = logged_events(&app)
        .into_iter()
        .map(|(_, n, s)| (n, s))
        .collect();
    let pairs: Vec<(&str, &str)> = fired
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("tracked.right", "on"),
            ("marker", "wave"),
            ("pinch.right", "on"),
            ("marker", "pinch 1"),
            ("pinch.right", "off"),
            ("pinch.right", "on"),
            ("marker", "pinch 2"),
            ("pinch.right", "off"),
            ("tracked.right", "off"),
        ]
    );
}

#[test]
fn untracked_hands_are_not_drawn() {
    // 0.1 s: before the right hand is tracked (0.25 s). Camera and gaze only.
    let early = sample_app(0.1);
    let tracked = sample_app(1.2);
    let mut view = PreviewView::default();
    let before = drawn_cells(&render(&mut view, &early, 60, 24));
    let mut view = PreviewView::default();
    let during = drawn_cells(&render(&mut view, &tracked, 60, 24));
    assert!(before > 0, "camera and gaze are drawn");
    assert!(
        during > before + 15,
        "the hand adds cells: {before} -> {during}"
    );
    // Toggling the joints layer off leaves the untracked picture.
    press(&mut view, &tracked, PanelId::Preview, '1');
    let off = drawn_cells(&render(&mut view, &tracked, 60, 24));
    assert!(off < during, "{off} < {during}");
}

#[test]
fn view_keys_cycle_and_orbit_and_refit() {
    let app = sample_app(1.2);
    let mut view = PreviewView::default();
    let front = render(&mut view, &app, 60, 24);
    assert!(front.contains("Preview [front] 1.0x"), "{front}");
    assert_eq!(
        press(&mut view, &app, PanelId::Preview, 'v'),
        PanelAction::Handled
    );
    assert_eq!(view.projection.view, View3::Top);
    let top = render(&mut view, &app, 60, 24);
    assert!(top.contains("Preview [top] 1.0x"), "{top}");
    assert_ne!(front, top, "a different picture");
    press(&mut view, &app, PanelId::Preview, 'v');
    press(&mut view, &app, PanelId::Preview, '>');
    press(&mut view, &app, PanelId::Preview, '>');
    let side = render(&mut view, &app, 60, 24);
    assert!(side.contains("Preview [side +30°]"), "{side}");
    press(&mut view, &app, PanelId::Preview, '<');
    assert_eq!(view.projection.orbit_degrees(), 15);
    // The selected joint's position is in the footer, in metres.
    let mut app = sample_app(1.2);
    app.selection.bone = app.doc.data.find_bone("hand.right.ThumbTip");
    let text = render(&mut PreviewView::default(), &app, 60, 24);
    let footer = text.lines().rev().nth(1).unwrap_or_default();
    assert!(footer.contains("hand.right.ThumbTip 0."), "{footer}");
    // 2D skeletons say the keys need 3D poses.
    let spine = bonescope::tui::offscreen::sample_app("walk", 0.0);
    match press(&mut PreviewView::default(), &spine, PanelId::Preview, 'v') {
        PanelAction::Message(m) => assert!(m.contains("3D"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn real_recording_hands_joints_and_pinches() {
    // Both hands are tracked for the whole recording; the left hand pinches 1.82-2.36 s,
    // the right 11.62-13.77 s.
    let Some(app) = real_app(14.0) else {
        return;
    };
    let data = app.doc.data.clone();
    assert_eq!(data.source.format, "MRTK input animation");
    assert!((data.animations[0].duration - 14.463).abs() < 1e-3);

    // Hands in the preview: the joints layer adds many cells to the camera's.
    let mut view = PreviewView::default();
    let with = drawn_cells(&render(&mut view, &app, 70, 30));
    press(&mut view, &app, PanelId::Preview, '1');
    let without = drawn_cells(&render(&mut view, &app, 70, 30));
    assert!(with > without + 40, "hands drawn: {without} -> {with}");
    for hand in ["left", "right"] {
        let wrist = data.find_bone(&format!("hand.{hand}.Wrist")).unwrap();
        assert!(app.session.skeleton().joint3_shown(wrist), "{hand} tracked");
    }

    // Joints in the tree with live 3D values.
    let mut bones = BonesView::default();
    render(&mut bones, &app, 100, 120);
    press(&mut bones, &app, PanelId::Bones, '*');
    let tree = render(&mut bones, &app, 100, 120);
    // Every joint (named relative to its parent) and the camera has six numbers.
    let rows_with_values = tree
        .lines()
        .skip(2)
        .filter(|row| {
            row.split_whitespace()
                .filter(|w| w.parse::<f64>().is_ok())
                .count()
                == 6
        })
        .count();
    assert_eq!(
        rows_with_values,
        1 + 2 * 26,
        "x y z rx ry rz per row:\n{tree}"
    );
    for name in [
        "hand.left.Wrist ",
        "hand.right.Wrist ",
        "IndexTip ",
        "PinkyTip ",
    ] {
        assert!(tree.contains(name), "{name} not in the tree:\n{tree}");
    }
    assert_eq!(tree.matches("ThumbTip ").count(), 2, "both hands");
    // The pinching slot shows its attachment only while the hand pinches (13.77 s ends it).
    let slot_row = |app: &App| {
        let mut bones = BonesView::default();
        render(&mut bones, app, 100, 120);
        press(&mut bones, app, PanelId::Bones, '*');
        let tree = render(&mut bones, app, 100, 120);
        // The right wrist's slot rows follow it ("pinching", relative to the wrist).
        tree.lines()
            .skip_while(|l| !l.contains("hand.right.Wrist"))
            .find(|l| l.contains("◦ pinching"))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        !slot_row(&app).contains("pinching (point)"),
        "{}",
        slot_row(&app)
    );
    let Some(pinching) = real_app(12.0) else {
        return;
    };
    assert!(
        slot_row(&pinching).contains("pinching (point)"),
        "{}",
        slot_row(&pinching)
    );
}

#[test]
fn real_recording_pinch_events_in_the_log() {
    let Some(app) = real_app(14.0) else {
        return;
    };
    let events = logged_events(&app);
    let find = |name: &str, word: &str| {
        events
            .iter()
            .find(|(_, n, s)| n == name && s == word)
            .map(|e| e.0)
            .unwrap_or_else(|| panic!("{name} {word} not logged: {events:?}"))
    };
    assert!((find("pinch.left", "on") - 1.8167).abs() < 1e-3);
    assert!((find("pinch.left", "off") - 2.3628).abs() < 1e-3);
    assert!((find("pinch.right", "on") - 11.6192).abs() < 1e-3);
    assert!((find("pinch.right", "off") - 13.7733).abs() < 1e-3);
    assert!(
        events
            .iter()
            .any(|(t, n, s)| *t == 0.0 && n == "tracked.left" && s == "on")
    );
    // The Events panel shows them (it follows the end of the log).
    let mut panel = EventsView::default();
    let text = render(&mut panel, &app, 100, 20);
    assert!(
        text.contains("pinch.right") && text.contains("\"off\""),
        "{text}"
    );
}

#[test]
fn loader_warnings_reach_the_status_bar() {
    let Some(shared) = common::shared_dir("MRTK loader warnings in the viewer") else {
        return;
    };
    let bytes = std::fs::read(shared.join("corpus/mrtk/invalid/unsorted_key_times.bin"))
        .expect("corpus file");
    let app = file_app(&bytes, "unsorted_key_times.bin", 0.0).expect("loads with warnings");
    let (msg, error) = app.message.clone().expect("a status message");
    assert!(!error, "a note, not an error");
    assert!(
        msg.contains("loader warning") && msg.contains("unsorted_keys"),
        "{msg}"
    );
    // A clean file says nothing.
    assert_eq!(sample_app(0.0).message, None);
}
