//! The viewer follows the runtime: the status line, dopesheet and curves show the entry
//! playing on the followed track unless pinned; frame moves queued in one batch of input
//! replay once; `seek`/`frame` and the loop range.

use bonescope::tui::app::App;
use bonescope::tui::offscreen::sample_app;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn selected(app: &App) -> String {
    let a = app.selection.animation.expect("an animation is shown");
    app.doc.data.animations[a].name.clone()
}

fn status(app: &mut App) -> String {
    let buf = bonescope::tui::offscreen::render_app(app, 200, 60);
    let text = bonescope::tui::offscreen::buffer_text(&buf);
    text.lines().last().unwrap_or_default().to_string()
}

#[test]
fn the_shown_animation_follows_the_playing_entry_unless_pinned() {
    let mut app = sample_app("idle", 0.0);
    app.run_line("mix 0.3").unwrap();
    app.run_line("set 0 walk loop").unwrap();
    assert_eq!(selected(&app), "walk");
    app.run_line("step 5").unwrap();
    let s = status(&mut app);
    assert!(s.contains("0: #2 walk <- #1 idle 56%"), "{s}");
    assert!(s.contains("t 0.167/1.000s (5/30)"), "{s}");
    assert!(s.contains("#5 0.167s"), "{s}");
    assert!(!s.contains("f 5/"), "{s}");
    app.run_line("pin idle").unwrap();
    app.run_line("set 0 jump").unwrap();
    assert_eq!(selected(&app), "idle");
    assert!(status(&mut app).contains("pin idle"));
    app.run_line("unpin").unwrap();
    assert_eq!(selected(&app), "jump");
    // Another track.
    app.run_line("set 1 wave").unwrap();
    app.run_line("track 1").unwrap();
    assert_eq!(selected(&app), "wave");
}

#[test]
fn seek_frame_and_queued_steps() {
    let mut app = sample_app("walk", 0.0);
    app.run_line("frame 40").unwrap();
    assert_eq!(app.session.frame(), 40);
    app.run_line("seek 0.5").unwrap();
    assert!((app.session.time() - 0.5).abs() < 1e-9);
    // A batch of ten Left presses moves once, when the batch ends.
    app.run_line("frame 40").unwrap();
    app.defer_seeks = true;
    for _ in 0..10 {
        app.handle_key(KeyEvent::from(KeyCode::Left));
    }
    assert_eq!(app.session.frame(), 40, "nothing replayed yet");
    app.defer_seeks = false;
    app.flush_seek();
    assert_eq!(app.session.frame(), 30);
    // Any other key runs the pending move first.
    app.defer_seeks = true;
    app.handle_key(KeyEvent::from(KeyCode::Right));
    app.handle_key(KeyEvent::from(KeyCode::Char('i')));
    assert_eq!(app.session.frame(), 31);
    assert_eq!(app.range.0, Some(31));
}

#[test]
fn playback_wraps_in_the_loop_range() {
    let mut app = sample_app("walk", 0.0);
    app.run_line("in 10").unwrap();
    app.run_line("out 20").unwrap();
    app.run_line("frame 15").unwrap();
    app.run_line("play 0.5").unwrap(); // 15 frames: 15 -> 20, back to 10, on to 19
    assert_eq!(app.session.frame(), 19);
    assert!(status(&mut app).contains("in 10 out 20"));
    app.run_line("range off").unwrap();
    assert_eq!(app.range, (None, None));
}
