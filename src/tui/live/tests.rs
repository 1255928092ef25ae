use super::*;
use crate::tui::offscreen::{buffer_text, render_app};
use crate::tui::theme::{ColorMode, Theme};
use crate::tui::views::MarkerKind;
use ratatui::crossterm::event::KeyEvent;
use std::sync::mpsc::{SyncSender, sync_channel};

fn sample() -> Arc<SkeletonData> {
    Arc::new(crate::format::load(crate::tui::EMBEDDED_SAMPLE, "lantern-keeper").expect("sample"))
}

fn attached() -> (App, SyncSender<Feed>) {
    let (tx, rx) = sync_channel(64);
    let loader: Loader = Box::new(|h: &Hello| {
        Ok(Opened {
            label: "lantern-keeper.json".into(),
            data: sample(),
            warnings: if h.skeleton.sha256.as_deref() == Some("bad") {
                vec!["lantern-keeper.json differs from the file the game loaded (sha256)".into()]
            } else {
                Vec::new()
            },
        })
    });
    let live = Live::new(rx, loader, "tcp://127.0.0.1:7357".into());
    let app = waiting_app(
        "waiting".into(),
        None,
        live,
        Theme::new(ColorMode::None),
        MarkerKind::Braille,
    )
    .expect("app");
    (app, tx)
}

fn line(tx: &SyncSender<Feed>, n: u64, text: &str) {
    tx.send(Feed::Line {
        line: n,
        bytes: text.as_bytes().to_vec(),
    })
    .expect("send");
}

const HELLO: &str = r#"{"kind":"hello","protocol":"bonescope-attach","version":1,"runtime":{"name":"spine-ts","version":"3.8.99"}}"#;

fn frames(tx: &SyncSender<Feed>, range: std::ops::RangeInclusive<u64>) {
    for f in range {
        let text = if f == 0 {
            r#"{"kind":"frame","frame":0,"items":[{"call":"setAnimation","track":0,"animation":"idle","loop":true,"entry":1},{"callback":"start","track":0,"entry":1,"animation":"idle"}]}"#.to_string()
        } else {
            format!(
                r#"{{"kind":"frame","frame":{f},"items":[{{"call":"update","dt":0.016666666666666666}},{{"call":"apply"}}]}}"#
            )
        };
        line(tx, f + 2, &text);
    }
}

fn status(app: &mut App) -> String {
    let buf = render_app(app, 80, 24);
    buffer_text(&buf)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

#[test]
fn the_view_follows_scrubs_back_while_frames_arrive_and_returns_to_live() {
    let (mut app, tx) = attached();
    assert!(status(&mut app).contains("waiting for a game on tcp://127.0.0.1:7357"));
    tx.send(Feed::Connected {
        peer: "127.0.0.1:5000".into(),
        websocket: false,
    })
    .expect("send");
    line(&tx, 1, HELLO);
    frames(&tx, 0..=10);
    assert!(poll(&mut app));
    assert!(app.session.is_recorded());
    assert_eq!(app.session.frame(), 10);
    let live = status(&mut app);
    assert!(live.contains("LIVE #10"), "{live}");
    assert!(live.contains("spine-ts 3.8.99 same"), "{live}");
    insta::assert_snapshot!("attached_live", live);
    // Scrub back: paused at 7 while the game goes on.
    for _ in 0..3 {
        press(&mut app, KeyCode::Left);
    }
    assert_eq!(app.session.frame(), 7);
    frames(&tx, 11..=15);
    poll(&mut app);
    assert_eq!(
        app.session.frame(),
        7,
        "new frames do not move a paused view"
    );
    let paused = status(&mut app);
    assert!(paused.contains("PAUSED at frame 7 (live: 15)"), "{paused}");
    insta::assert_snapshot!("attached_paused", paused);
    // Stepping forward stops at the newest frame.
    for _ in 0..20 {
        press(&mut app, KeyCode::Right);
    }
    assert_eq!(app.session.frame(), 15);
    press(&mut app, KeyCode::Home);
    assert_eq!(app.session.frame(), 0);
    // Back to live.
    press(&mut app, BACK_TO_LIVE);
    assert_eq!(app.session.frame(), 15);
    frames(&tx, 16..=16);
    poll(&mut app);
    assert_eq!(app.session.frame(), 16);
    assert!(status(&mut app).contains("LIVE #16"));
    // Space pauses; space again plays the received frames and follows on reaching them.
    press(&mut app, KeyCode::Char(' '));
    frames(&tx, 17..=17);
    poll(&mut app);
    assert_eq!(app.session.frame(), 16);
    assert!(status(&mut app).contains("PAUSED at frame 16 (live: 17)"));
    press(&mut app, KeyCode::Char(' '));
    assert!(app.playing);
    app.tick(1.0);
    poll(&mut app);
    assert!(!app.playing);
    assert!(status(&mut app).contains("LIVE #17"));
    // The session's log holds the game's start callback, at frame 0.
    assert!(app.session.log().iter().any(|l| matches!(l,
        crate::session::LogLine::Notification { frame: 0, note, .. } if note.animation == "idle")));
    tx.send(Feed::Closed {
        reason: "bye".into(),
    })
    .expect("send");
    poll(&mut app);
    app.message = None;
    let left = status(&mut app);
    assert!(left.contains("spine-ts 3.8.99 left (bye), same"), "{left}");
}

#[test]
fn a_divergence_is_flagged_in_the_status_line_and_the_log() {
    let (mut app, tx) = attached();
    line(&tx, 1, HELLO);
    frames(&tx, 0..=2);
    // The game reports a callback bonescope does not fire.
    line(
        &tx,
        9,
        r#"{"kind":"frame","frame":3,"items":[{"call":"update","dt":0.016666666666666666},{"callback":"complete","track":0,"entry":1,"animation":"idle"},{"call":"apply"}]}"#,
    );
    frames(&tx, 4..=5);
    poll(&mut app);
    let s = status(&mut app);
    assert!(s.contains("DIVERGED at frame 3"), "{s}");
    let marker = app.session.log().iter().find_map(|l| match l {
        crate::session::LogLine::Marker { frame, text } if text.starts_with("DIVERGED") => {
            Some((*frame, text.clone()))
        }
        _ => None,
    });
    let (frame, text) = marker.expect("a DIVERGED marker");
    assert_eq!(frame, 3);
    assert!(text.contains("the game saw complete"), "{text}");
    assert_eq!(app.session.frame(), 5);
}

#[test]
fn malformed_records_and_mismatched_skeletons_are_said_never_fatal() {
    let (mut app, tx) = attached();
    line(&tx, 1, r#"{"kind":"frame","frame":0,"items":[]}"#);
    poll(&mut app);
    assert!(
        app.message
            .as_ref()
            .is_some_and(|(m, e)| *e && m.contains("line 1: a frame before the hello")),
        "{:?}",
        app.message
    );
    line(&tx, 2, "{not json");
    poll(&mut app);
    assert!(
        app.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("line 2")),
        "{:?}",
        app.message
    );
    tx.send(Feed::Problem(
        "line 3: record longer than 1048576 bytes".into(),
    ))
    .expect("send");
    line(
        &tx,
        4,
        r#"{"kind":"hello","runtime":{"name":"spine-ts","version":"4.2.119"},"skeleton":{"sha256":"bad"}}"#,
    );
    poll(&mut app);
    assert!(
        app.message
            .as_ref()
            .is_some_and(|(m, _)| m.contains("differs from the file the game loaded")),
        "{:?}",
        app.message
    );
    assert!(
        app.messages
            .entries()
            .any(|e| e.text.contains("record longer"))
    );
    drop(tx);
    poll(&mut app);
}

#[test]
fn keys_and_prompt_lines_that_rewrite_the_session_are_refused_while_attached() {
    let (mut app, tx) = attached();
    line(&tx, 1, HELLO);
    frames(&tx, 0..=10);
    poll(&mut app);
    let inputs = app.session.inputs().len();
    for (key, what) in [
        ('a', "a (set an animation)"),
        ('l', "l (loop)"),
        ('s', "s (skins)"),
        ('p', "p (physics mode)"),
        ('R', "R (physics reset)"),
        ('A', "A (another armature)"),
    ] {
        press(&mut app, KeyCode::Char(key));
        assert!(matches!(app.overlay, Overlay::None), "{key} opened nothing");
        let (text, error) = app.message.clone().expect("a message");
        assert!(error, "{key}");
        assert!(
            text.starts_with(what) && text.contains("off while attached"),
            "{key}: {text}"
        );
    }
    for refused in ["set 0 walk", "add 1 idle 0", "clear 0", "skin default"] {
        let e = app.run_line(refused).expect_err(refused);
        assert!(e.contains("off while attached"), "{refused}: {e}");
    }
    assert_eq!(app.session.inputs().len(), inputs, "no input was added");
    // The prompt opens, and moves, views and the skin list run.
    press(&mut app, KeyCode::Char(':'));
    assert!(!matches!(app.overlay, Overlay::None), "the prompt opens");
    press(&mut app, KeyCode::Esc);
    app.run_line("frame 4").expect("a move");
    assert_eq!(app.session.frame(), 4);
    app.run_line("skin").expect("the skin list");
    app.run_line("track 0").expect("a view verb");
    press(&mut app, KeyCode::Char('E'));
    assert_eq!(app.focus, crate::tui::views::PanelId::Events);
}
