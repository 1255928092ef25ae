//! The whole viewer off-screen: key handling as state transitions, and snapshots of the full
//! screen at 80x24 and 160x48.

use bonescope::tui::app::Overlay;
use bonescope::tui::offscreen::{buffer_text, file_app, render_app, sample_app};
use bonescope::tui::views::PanelId;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// `actual` within `tolerance` of `expected` (`what` names it in the failure).
fn assert_close(actual: f64, expected: f64, tolerance: f64, what: &str) {
    assert!(
        (actual - expected).abs() < tolerance,
        "{what}: {actual}, expected {expected}"
    );
}

fn key(c: KeyCode) -> KeyEvent {
    KeyEvent::new(c, KeyModifiers::NONE)
}

fn chars(app: &mut bonescope::tui::app::App, s: &str) {
    for c in s.chars() {
        app.handle_key(key(KeyCode::Char(c)));
    }
}

#[test]
fn playback_keys() {
    let mut app = sample_app("walk", 0.0);
    assert!(!app.playing);
    app.handle_key(key(KeyCode::Char(' ')));
    assert!(app.playing);
    assert!(app.tick(0.5));
    assert_eq!(app.session.frame(), 15, "30 fps for half a second");
    app.handle_key(key(KeyCode::Right));
    assert!(!app.playing, "stepping pauses");
    assert_eq!(app.session.frame(), 16);
    app.handle_key(KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
    assert_eq!(app.session.frame(), 6);
    app.handle_key(key(KeyCode::Home));
    assert_eq!(app.session.frame(), 0);
    app.handle_key(key(KeyCode::Char('+')));
    assert_eq!(app.speed, 1.5);
    app.handle_key(key(KeyCode::Char('-')));
    app.handle_key(key(KeyCode::Char('-')));
    assert_eq!(app.speed, 0.5);
    app.handle_key(key(KeyCode::End));
    assert!(
        (app.playhead() - 1.0).abs() < 1e-3,
        "end of walk: {}",
        app.playhead()
    );
}

#[test]
fn loop_off_stops_at_the_end() {
    let mut app = sample_app("wave", 0.0);
    app.handle_key(key(KeyCode::Char('l')));
    assert!(!app.looping);
    app.handle_key(key(KeyCode::Char(' ')));
    for _ in 0..40 {
        app.tick(0.1);
    }
    assert!(!app.playing, "a non-looping animation pauses at its end");
    assert!((app.playhead() - 1.5).abs() < 1e-6);
}

#[test]
fn next_and_previous_key() {
    let mut app = sample_app("walk", 0.0);
    let before = app.playhead();
    app.handle_key(key(KeyCode::Char(']')));
    let next = app.playhead();
    assert!(next > before);
    let anim = &app.doc.data.animations[app.selection.animation.expect("anim")];
    let t = app.selection.timeline.expect("timeline");
    let times = anim.timelines[app.timelines[t].index].key_times();
    assert!(
        times.iter().any(|&k| ((k as f64) - next).abs() < 1e-6),
        "{next} is a key of {times:?}"
    );
    app.handle_key(key(KeyCode::Char('[')));
    assert!(app.playhead() < next);
}

#[test]
fn pickers_and_prompt() {
    let mut app = sample_app("idle", 0.0);
    app.handle_key(key(KeyCode::Char('a')));
    assert!(matches!(app.overlay, Overlay::AnimationPicker(_)));
    chars(&mut app, "jum");
    app.handle_key(key(KeyCode::Enter));
    assert!(matches!(app.overlay, Overlay::None));
    assert_eq!(app.selection.animation, app.doc.data.find_animation("jump"));

    app.handle_key(key(KeyCode::Char(':')));
    chars(&mut app, "set 1 nope");
    app.handle_key(key(KeyCode::Enter));
    assert!(matches!(&app.message, Some((m, true)) if m.contains("no animation")));

    app.handle_key(key(KeyCode::Char(':')));
    chars(&mut app, "set 1 wave loop");
    app.handle_key(key(KeyCode::Enter));
    assert!(matches!(&app.message, Some((_, false))));
    let st = app.session.state();
    let e = st
        .current(1)
        .and_then(|id| st.entry(id))
        .expect("track 1 plays");
    assert_eq!(
        app.doc.data.animations[e.animation.expect("anim")].name,
        "wave"
    );

    app.handle_key(key(KeyCode::Char('s')));
    assert!(matches!(app.overlay, Overlay::SkinPicker(_)));
    app.handle_key(key(KeyCode::Esc));
    assert!(matches!(app.overlay, Overlay::None));
}

#[test]
fn focus_cycles_and_quit() {
    let mut app = sample_app("idle", 0.0);
    assert_eq!(app.focus, PanelId::Tracks);
    app.handle_key(key(KeyCode::Tab));
    assert_eq!(app.focus, PanelId::Curves);
    app.handle_key(key(KeyCode::BackTab));
    app.handle_key(key(KeyCode::BackTab));
    assert_eq!(app.focus, PanelId::Preview);
    app.handle_key(key(KeyCode::Char('E')));
    assert_eq!(app.focus, PanelId::Events);
    assert_eq!(app.inspector, PanelId::Events);
    app.handle_key(key(KeyCode::Char('q')));
    assert!(app.quit);
}

#[test]
fn too_small_message() {
    let mut app = sample_app("idle", 0.0);
    let text = buffer_text(&render_app(&mut app, 50, 10));
    assert!(text.contains("terminal too small"), "{text}");
}

#[test]
fn full_screen_snapshots() {
    for (w, h) in [(80u16, 24u16), (160, 48)] {
        let mut app = sample_app("walk", 0.5);
        let text = buffer_text(&render_app(&mut app, w, h));
        insta::assert_snapshot!(format!("app_walk_{w}x{h}"), text);
    }
}

#[test]
fn clicking_a_panel_focuses_it() {
    let mut app = sample_app("walk", 0.0);
    let _ = render_app(&mut app, 160, 48);
    let (id, rect) = app
        .areas
        .iter()
        .find(|(id, _)| *id == PanelId::Bones)
        .copied()
        .expect("bones drawn");
    assert!(app.click(rect.x + 2, rect.y + 2));
    assert_eq!(app.focus, id);
    assert!(
        !app.click(rect.x + 2, rect.y + 2),
        "clicking the focused panel changes nothing"
    );
}

// ---------------------------------------------------------------------------------------------
// Issue 28.5: navigation as in lazygit / k9s

/// `.` goes back to the newest frame played after a trip back in time.
#[test]
fn dot_goes_back_to_the_newest_frame() {
    let mut app = sample_app("walk", 0.0);
    app.handle_key(key(KeyCode::Char(' ')));
    app.tick(2.0);
    app.handle_key(key(KeyCode::Char(' ')));
    let newest = app.session.frame();
    assert_eq!(newest, 60);
    app.handle_key(KeyEvent::new(KeyCode::Left, KeyModifiers::SHIFT));
    app.handle_key(key(KeyCode::Home));
    assert!(app.session.frame() < newest);
    app.handle_key(key(KeyCode::Char('.')));
    assert_eq!(app.session.frame(), newest);
    assert!(matches!(&app.message, Some((m, false)) if m.contains("newest frame (60)")));
    // Stepping past it makes a newer newest.
    app.handle_key(key(KeyCode::Right));
    app.handle_key(key(KeyCode::Home));
    app.handle_key(key(KeyCode::Char('.')));
    assert_eq!(app.session.frame(), 61);
}

/// Home / End: the start / end of the followed track's animation (this loop), not frame 0
/// of the session nor another track's animation.
#[test]
fn home_and_end_stay_in_the_current_animation() {
    let mut app = sample_app("walk", 0.0);
    // Walk (1 s) looping; at 2.5 s `wave` (1.5 s, once) replaces it on track 0, and the
    // idle plays on track 1.
    app.session.seek_frame(75);
    chars(&mut app, ":");
    chars(&mut app, "set 0 wave");
    app.handle_key(key(KeyCode::Enter));
    chars(&mut app, ":");
    chars(&mut app, "set 1 idle loop");
    app.handle_key(key(KeyCode::Enter));
    app.session.seek_frame(90);
    app.follow_playing();
    let wave = app.doc.data.find_animation("wave");
    assert_eq!(app.selection.animation, wave);
    app.handle_key(key(KeyCode::Home));
    assert_eq!(app.session.frame(), 75, "where wave started, not frame 0");
    assert!(app.playhead().abs() < 1e-9, "{}", app.playhead());
    app.handle_key(key(KeyCode::End));
    assert_close(app.playhead(), 1.5, 1e-3, "end of wave");
    assert_close(app.session.time(), 4.0, 1e-3, "session time");
    // In a loop: the start of this loop, not of the entry.
    let mut app = sample_app("walk", 0.0);
    app.session.seek_frame(70);
    app.handle_key(key(KeyCode::Home));
    assert_eq!(app.session.frame(), 60);
}

/// Home in a loop whose start falls between frames (a duration off the frame grid, as
/// exports write 3.6667 s) goes to the loop's start, not to the next whole frame (which was
/// nearly a frame into the animation: "t 0.033 (0/110)").
#[test]
fn home_reaches_the_start_of_a_loop_that_begins_between_frames() {
    let json = r#"{"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
        "animations": {"spin": {"bones": {"root": {"rotate": [
            {"value": 0}, {"time": 3.6667, "value": 90}]}}}}}"#;
    let mut app = file_app(json.as_bytes(), "off-grid.json", 0.0).expect("loads");
    app.session.seek_frame(120);
    assert_close(app.playhead(), 4.0 - 3.6667, 1e-6, "second loop");
    app.handle_key(key(KeyCode::Home));
    assert!(app.playhead() >= 0.0, "{}", app.playhead());
    assert_close(app.playhead(), 0.0, 1e-6, "start of the second loop");
    assert_close(app.session.time(), 3.6667, 1e-6, "session time");
    // Stepping goes on from there to the session's next whole frame.
    app.handle_key(key(KeyCode::Right));
    assert_eq!(app.session.frame(), 111);
    assert!((app.session.time() - 111.0 / 30.0).abs() < 1e-9);
}

/// Picking an animation with `a` replaces track 0 at the current frame (a recorded `set`),
/// keeping the other tracks, the queue, the log and time travel.
#[test]
fn picking_an_animation_keeps_the_session() {
    let mut app = sample_app("walk", 0.0);
    app.session.seek_frame(10);
    chars(&mut app, ":");
    chars(&mut app, "set 1 idle loop");
    app.handle_key(key(KeyCode::Enter));
    app.session.seek_frame(30);
    let log_before = app.session.log().len();
    let inputs_before = app.session.inputs().len();
    app.handle_key(key(KeyCode::Char('a')));
    chars(&mut app, "wave");
    app.handle_key(key(KeyCode::Enter));
    assert!(matches!(app.overlay, Overlay::None));
    assert_eq!(app.session.frame(), 30, "same frame");
    assert_eq!(
        app.session.inputs().len(),
        inputs_before + 1,
        "a recorded command"
    );
    assert!(
        app.session.log().len() > log_before,
        "the log goes on (interrupt, start)"
    );
    let st = app.session.state();
    let name = |t: usize| {
        st.current(t)
            .and_then(|id| st.entry(id))
            .and_then(|e| e.animation)
            .map(|a| app.doc.data.animations[a].name.clone())
    };
    assert_eq!(name(0).as_deref(), Some("wave"));
    assert_eq!(name(1).as_deref(), Some("idle"), "track 1 kept");
    assert_eq!(app.selection.animation, app.doc.data.find_animation("wave"));
    // Time travel still works: before the pick, track 0 played the walk.
    app.session.seek_frame(20);
    let st = app.session.state();
    let a = st
        .current(0)
        .and_then(|id| st.entry(id))
        .and_then(|e| e.animation);
    assert_eq!(a, app.doc.data.find_animation("walk"));
}

/// At 80x24 a tab strip names every panel with its key, and where help is.
#[test]
fn small_layout_has_a_tab_strip() {
    let mut app = sample_app("walk", 0.5);
    let text = buffer_text(&render_app(&mut app, 80, 24));
    let top = text.lines().next().unwrap();
    for want in [
        " Tracks T ",
        " Curves C ",
        " Bones B ",
        " Events E ",
        " Preview P ",
        "? help",
    ] {
        assert!(top.contains(want), "{top}");
    }
    app.handle_key(key(KeyCode::Char('E')));
    let text = buffer_text(&render_app(&mut app, 80, 24));
    assert!(text.lines().nth(1).unwrap().contains("Events"), "{text}");
    let text = buffer_text(&render_app(&mut app, 160, 48));
    assert!(
        !text.lines().next().unwrap().contains("? help"),
        "every panel shows"
    );
}
