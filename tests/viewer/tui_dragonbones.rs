//! The viewer on a DragonBones file: the same panels with no format-specific code, several
//! armatures behind the armature picker (`A`), events, sounds and actions in the event log.

use crate::common;

use bonescope::tui::app::{App, Document, Overlay};
use bonescope::tui::offscreen::{buffer_text, file_app, render_app};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::Arc;

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn crane_app() -> App {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/samples/dragonbones/paper-crane.json"
    );
    let bytes = std::fs::read(path).expect("sample");
    file_app(&bytes, "paper-crane.json", 0.0).expect("app")
}

#[test]
fn armature_picker_switches_skeletons() {
    let mut app = crane_app();
    assert_eq!(app.doc.data.name, "Crane");
    app.handle_key(key(KeyCode::Char('A')));
    assert!(matches!(app.overlay, Overlay::ArmaturePicker(_)));
    let screen = buffer_text(&render_app(&mut app, 80, 24));
    assert!(
        screen.contains("Armature") && screen.contains("Lantern"),
        "{screen}"
    );
    app.handle_key(key(KeyCode::Down));
    app.handle_key(key(KeyCode::Enter));
    assert!(matches!(app.overlay, Overlay::None));
    assert_eq!(app.doc.data.name, "Lantern");
    assert_eq!(app.armatures.len(), 2, "the list survives the switch");
    let anim = app
        .selection
        .animation
        .map(|a| app.doc.data.animations[a].name.clone());
    assert_eq!(anim.as_deref(), Some("swing"), "its first animation plays");
    let screen = buffer_text(&render_app(&mut app, 200, 60));
    assert!(screen.contains("armature Lantern"), "{screen}");
    assert!(
        screen.contains("cord") && screen.contains("lamp"),
        "{screen}"
    );
}

#[test]
fn play_times_set_looping() {
    let mut app = crane_app();
    assert!(app.looping, "fly plays forever (playTimes 0)");
    let glide = app.doc.data.find_animation("glide").expect("glide");
    app.play_animation(glide);
    assert!(!app.looping, "glide plays once (playTimes 1)");
}

#[test]
fn single_skeleton_files_say_so() {
    let mut app = crane_app();
    app.armatures.truncate(1);
    app.handle_key(key(KeyCode::Char('A')));
    assert!(matches!(app.overlay, Overlay::None));
    let screen = buffer_text(&render_app(&mut app, 120, 40));
    assert!(screen.contains("this file holds one skeleton"), "{screen}");
}

#[test]
fn frame_events_sounds_and_actions_reach_the_event_log() {
    let mut app = crane_app();
    app.handle_key(key(KeyCode::Char(' ')));
    // Just past the end of "fly" (1 s): every key of the first loop has fired.
    app.tick(0.25);
    app.tick(0.25);
    app.tick(0.25);
    app.tick(0.3);
    let screen = buffer_text(&render_app(&mut app, 200, 60));
    for name in ["whoosh", "flap", "beat", "fold", "gotoAndPlay"] {
        assert!(screen.contains(name), "{name} missing:\n{screen}");
    }
}

#[test]
#[ignore = "prints the screen for a person to look at"]
fn show_crane() {
    let mut app = crane_app();
    println!("{}", buffer_text(&render_app(&mut app, 120, 40)));
}

/// The crane carries the lantern armature on a slot: the preview draws the lantern's own
/// attachments and bones there, not only a marker.
#[test]
fn child_armatures_are_drawn_nested() {
    use bonescope::core::model::AttachmentKind;
    let lit = |app: &mut App| {
        buffer_text(&render_app(app, 200, 60))
            .chars()
            .filter(|c| ('\u{2801}'..='\u{28ff}').contains(c))
            .count()
    };
    let mut app = crane_app();
    let with_child = lit(&mut app);
    let mut data = (*app.doc.data).clone();
    let mut nested = 0;
    for a in &mut data.attachments {
        if let AttachmentKind::Armature(c) = &mut a.kind {
            assert_eq!(c.armature, "Lantern");
            assert!(c.skeleton.as_ref().is_some_and(|s| s.name == "Lantern"));
            c.skeleton = None;
            nested += 1;
        }
    }
    assert_eq!(nested, 1);
    let doc = Document {
        label: "paper-crane.json".into(),
        data: Arc::new(data),
    };
    let mut without = App::new(doc, Theme::new(ColorMode::None), MarkerKind::Braille).unwrap();
    let marker_only = lit(&mut without);
    assert!(
        with_child > marker_only,
        "nested lantern adds dots: {with_child} vs {marker_only}"
    );
}

/// A DragonBones 5.5 export (and a `.dbbin`) opens at 80x24 on its main armature (not the
/// effects listed before it), plays, and lists the rest behind the picker.
#[test]
fn dragonbones_5x_opens_on_its_main_armature() {
    let Some(shared) = common::shared_dir("DragonBones 5.x in the viewer") else {
        return;
    };
    let dir = shared.join("corpus/dragonbones/5.x/5.5");
    for (file, main) in [
        ("mecha_1502b_ske.json", "mecha_1502b"),
        ("progress_bar_ske.json", "progress_bar"),
        ("starter_ske.dbbin", "starter"),
    ] {
        let bytes = std::fs::read(dir.join(file)).expect("corpus file");
        let mut app = file_app(&bytes, file, 0.0).expect("app");
        assert_eq!(app.doc.data.name, main, "{file}");
        assert!(
            app.selection.animation.is_some(),
            "{file}: an animation plays"
        );
        let before = app.session.time();
        app.session.advance(3);
        assert!(app.session.time() > before, "{file}: time moves");
        // The opening note gives the status line back at the user's first key.
        app.message = None;
        let screen = buffer_text(&render_app(&mut app, 80, 24));
        assert!(
            screen.contains(main) || screen.contains(file),
            "{file}:\n{screen}"
        );
    }
}
