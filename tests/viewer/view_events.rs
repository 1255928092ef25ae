//! The Events panel: snapshots of the log, filters, following the end, tiny areas and hostile
//! names and payloads.

use crate::common;

use bonescope::core::state::NotificationKind;
use bonescope::session::LogLine;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{buffer_text, file_app, sample_app};
use bonescope::tui::views::events::EventsView;
use bonescope::tui::views::{Panel, PanelAction, PanelId};
use common::viewer::{panel_text, set_animation};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn render(view: &mut EventsView, app: &App, w: u16, h: u16) -> String {
    panel_text(view, app, w, h)
}

fn press(view: &mut EventsView, app: &App, code: KeyCode) -> PanelAction {
    view.handle_key(
        KeyEvent::new(code, KeyModifiers::NONE),
        &app.ctx(PanelId::Events),
    )
}

/// The walk (looping) played for 1.2 s.
fn walk() -> App {
    sample_app("walk", 1.2)
}

/// The walk on track 0, the wave (not looping) set on track 1 at frame 6 and replaced by
/// the idle at frame 40, so it starts, completes, is interrupted, ends and is disposed.
fn two_tracks() -> App {
    let mut app = sample_app("walk", 0.0);
    app.session.seek_frame(6);
    set_animation(&mut app, 1, "wave", false);
    app.session.seek_frame(60);
    set_animation(&mut app, 1, "idle", true);
    app.session.seek_frame(66);
    app
}

fn count(app: &App, kind: Option<NotificationKind>, track: Option<usize>) -> usize {
    app.session
        .log()
        .iter()
        .filter(|l| match l {
            LogLine::Notification { note, .. } => {
                kind.is_none_or(|k| note.kind == k) && track.is_none_or(|t| note.track == t)
            }
            LogLine::Marker { .. } => false,
        })
        .count()
}

#[test]
fn walk_log_80x24() {
    let app = walk();
    let mut view = EventsView::default();
    let text = render(&mut view, &app, 80, 24);
    assert!(text.contains("footstep"), "{text}");
    assert!(text.contains("complete"), "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn walk_log_160x48() {
    let app = walk();
    let mut view = EventsView::default();
    insta::assert_snapshot!(render(&mut view, &app, 160, 48));
}

#[test]
fn walk_log_44x20() {
    let app = walk();
    let mut view = EventsView::default();
    insta::assert_snapshot!(render(&mut view, &app, 44, 20));
}

#[test]
fn two_tracks_80x24_and_160x48() {
    let app = two_tracks();
    for kind in [
        NotificationKind::Start,
        NotificationKind::Complete,
        NotificationKind::Interrupt,
        NotificationKind::End,
        NotificationKind::Dispose,
    ] {
        assert!(count(&app, Some(kind), Some(1)) > 0, "{kind:?} on track 1");
    }
    let mut view = EventsView::default();
    insta::assert_snapshot!("two_tracks_80x24", render(&mut view, &app, 80, 24));
    insta::assert_snapshot!("two_tracks_160x48", render(&mut view, &app, 160, 48));
}

#[test]
fn filtered_by_type_event() {
    let app = two_tracks();
    let mut view = EventsView::default();
    for _ in 0..6 {
        press(&mut view, &app, KeyCode::Char('f'));
    }
    assert_eq!(view.type_filter(), Some(NotificationKind::Event));
    let text = render(&mut view, &app, 80, 24);
    let events = count(&app, Some(NotificationKind::Event), None);
    let total = count(&app, None, None);
    assert!(
        text.contains(&format!("[type=event] {events}/{total}")),
        "{text}"
    );
    insta::assert_snapshot!(text);
}

#[test]
fn filter_cycles_and_counts() {
    let app = two_tracks();
    let mut view = EventsView::default();
    let total = count(&app, None, None);
    let order = [
        Some(NotificationKind::Start),
        Some(NotificationKind::Interrupt),
        Some(NotificationKind::End),
        Some(NotificationKind::Complete),
        Some(NotificationKind::Dispose),
        Some(NotificationKind::Event),
        None,
    ];
    let title = |view: &mut EventsView| {
        render(view, &app, 100, 30)
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(title(&mut view).contains(&format!(" Events {total} ")));
    for expected in order {
        assert_eq!(
            press(&mut view, &app, KeyCode::Char('f')),
            PanelAction::Handled
        );
        assert_eq!(view.type_filter(), expected);
        let t = title(&mut view);
        match expected {
            Some(k) => {
                let n = count(&app, Some(k), None);
                assert!(
                    t.contains(&format!("[type={}] {n}/{total}", k.name())),
                    "{t}"
                );
            }
            None => assert!(t.contains(&format!(" Events {total} ")), "{t}"),
        }
    }
    // Tracks: all → 0 → 1 → all.
    for expected in [Some(0), Some(1), None] {
        press(&mut view, &app, KeyCode::Char('t'));
        assert_eq!(view.track_filter(), expected);
    }
    press(&mut view, &app, KeyCode::Char('f'));
    press(&mut view, &app, KeyCode::Char('t'));
    press(&mut view, &app, KeyCode::Char('t'));
    let n = count(&app, Some(NotificationKind::Start), Some(1));
    let t = title(&mut view);
    assert!(
        t.contains(&format!("[type=start track=1] {n}/{total}")),
        "{t}"
    );
    // Only start lines of track 1 are listed.
    let body = render(&mut view, &app, 100, 30);
    let rows: Vec<&str> = body
        .lines()
        .skip(2)
        .filter(|l| l.contains("start"))
        .collect();
    assert_eq!(rows.len(), n);
    assert_eq!(
        press(&mut view, &app, KeyCode::Char('x')),
        PanelAction::Handled
    );
    assert_eq!((view.type_filter(), view.track_filter()), (None, None));
}

#[test]
fn follows_the_end_unless_scrolled() {
    let mut app = sample_app("walk", 0.0);
    let mut view = EventsView::default();
    // Play for a while: the newest line stays at the bottom.
    app.session.seek_frame(300);
    let text = render(&mut view, &app, 80, 12);
    let last = app.session.log().last().unwrap().frame();
    let bottom = text.lines().nth(10).unwrap();
    assert!(bottom.contains(&format!(" {last} ")), "{bottom}\n{text}");
    assert!(view.following());
    // Scroll up: the view stays put while the log grows.
    assert_eq!(
        press(&mut view, &app, KeyCode::PageUp),
        PanelAction::Handled
    );
    assert!(!view.following());
    let before = render(&mut view, &app, 80, 12);
    assert!(before.contains("scrolled"));
    app.session.seek_frame(400);
    let after = render(&mut view, &app, 80, 12);
    assert_eq!(before.lines().nth(2), after.lines().nth(2));
    // g goes to the top, G back to following.
    press(&mut view, &app, KeyCode::Char('g'));
    let top = render(&mut view, &app, 80, 12);
    assert!(top.lines().nth(2).unwrap().contains("start"), "{top}");
    press(&mut view, &app, KeyCode::Char('G'));
    assert!(view.following());
    let text = render(&mut view, &app, 80, 12);
    let last = app.session.log().last().unwrap().frame();
    assert!(text.lines().nth(10).unwrap().contains(&format!(" {last} ")));
    // Scrolling down to the end resumes following.
    press(&mut view, &app, KeyCode::Up);
    assert!(!view.following());
    press(&mut view, &app, KeyCode::Down);
    assert!(view.following());
    // Global keys are left to the app.
    for code in [
        KeyCode::Left,
        KeyCode::Char(' '),
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Tab,
    ] {
        assert_eq!(press(&mut view, &app, code), PanelAction::Ignored);
    }
}

#[test]
fn markers_are_distinct_lines() {
    let mut app = sample_app("walk", 0.0);
    app.session.seek_frame(10);
    app.session.add_marker("reload: 1 animation changed");
    app.session.seek_frame(20);
    let mut view = EventsView::default();
    let text = render(&mut view, &app, 80, 24);
    assert!(text.contains("── reload: 1 animation changed ──"), "{text}");
    // Markers stay visible under filters.
    press(&mut view, &app, KeyCode::Char('f'));
    let text = render(&mut view, &app, 80, 24);
    assert!(text.contains("── reload"), "{text}");
}

#[test]
fn long_log_renders_only_the_window() {
    let mut app = sample_app("walk", 0.0);
    app.session.seek_frame(30 * 1000);
    assert!(app.session.log().len() > 3000);
    let mut view = EventsView::default();
    let t = std::time::Instant::now();
    for _ in 0..20 {
        render(&mut view, &app, 160, 48);
    }
    press(&mut view, &app, KeyCode::Char('t'));
    press(&mut view, &app, KeyCode::Char('f'));
    for _ in 0..20 {
        render(&mut view, &app, 160, 48);
    }
    // Generous bound (debug build, shared CI machines): formatting every line would not be.
    assert!(t.elapsed().as_secs_f64() < 5.0);
}

#[test]
fn tiny_areas_do_not_panic() {
    let app = two_tracks();
    let mut view = EventsView::default();
    for (w, h) in [(1, 1), (2, 2), (10, 5), (3, 10), (80, 3), (200, 2)] {
        render(&mut view, &app, w, h);
        press(&mut view, &app, KeyCode::PageUp);
        render(&mut view, &app, w, h);
        press(&mut view, &app, KeyCode::Char('f'));
        render(&mut view, &app, w, h);
    }
    let empty = sample_app("walk", 0.0);
    let mut view = EventsView::default();
    press(&mut view, &empty, KeyCode::Up);
    render(&mut view, &empty, 10, 5);
}

/// An event and an animation named with an escape sequence and a bidi override, and a
/// string payload with an escape sequence.
#[test]
fn hostile_names_are_escaped() {
    let text = std::str::from_utf8(bonescope::tui::EMBEDDED_SAMPLE).unwrap();
    let edited = text
        .replace("\"footstep\"", "\"foot\\u001b[2Jstep\\u202e\"")
        .replace("\"walk\"", "\"wa\\u001b]0;pwn\\u0007lk\\u202e\"")
        .replace("\"left\"", "\"l\\u001b[31meft\"");
    let mut app = file_app(edited.as_bytes(), "evil.json", 0.0).expect("edited sample loads");
    let walk = app
        .doc
        .data
        .animations
        .iter()
        .position(|a| a.name.starts_with("wa\u{1b}"))
        .expect("evil walk");
    app.play_animation(walk);
    app.session.seek_time(1.2);
    let mut view = EventsView::default();
    for (w, h) in [(80, 24), (160, 48), (44, 20)] {
        let out = render(&mut view, &app, w, h);
        assert!(
            !out.contains('\u{1b}') && !out.contains('\u{202e}') && !out.contains('\u{7}'),
            "{out}"
        );
        // The entry column always shows: at 44 columns the payload is cut before it.
        if w >= 80 {
            assert!(out.contains("foot\\e[2J"), "{out}");
        }
        assert!(out.contains("wa\\e]0;"), "{out}");
        if w == 160 {
            assert!(out.contains("wa\\e]0;pwn\\u{7}lk\\u{202e}"), "{out}");
            assert!(out.contains("foot\\e[2Jstep\\u{202e}"), "{out}");
            assert!(out.contains("\"l\\e[31meft\""), "{out}");
        }
    }
}

/// Idle on track 0 mixing into walk (0.3 s) and wave on track 1, run through the prompt as a
/// user types it.
fn two_track_mix() -> App {
    let mut app = sample_app("idle", 0.0);
    for line in [
        "mix 0.3",
        "step 10",
        "set 0 walk loop",
        "set 1 wave",
        "step 20",
    ] {
        app.run_line(line).expect(line);
    }
    app
}

/// [`two_track_mix`]'s whole screen with the Events panel in focus.
fn two_track_mix_screen(w: u16, h: u16) -> String {
    let mut app = two_track_mix();
    app.apply(bonescope::tui::keymap::Action::Focus(PanelId::Events));
    buffer_text(&bonescope::tui::offscreen::render_app(&mut app, w, h))
}

fn assert_log_essentials(screen: &str) {
    // Frame, track, entry id, type and animation on every notification row.
    for needle in [
        "#1",
        "#2",
        "#3",
        "interrupt",
        "start",
        "idle",
        "walk",
        "wave",
    ] {
        assert!(screen.contains(needle), "{needle} missing:\n{screen}");
    }
}

#[test]
fn two_track_mix_log_80x24() {
    let s = two_track_mix_screen(80, 24);
    assert_log_essentials(&s);
    insta::assert_snapshot!(s);
}

#[test]
fn two_track_mix_log_120x40() {
    let s = two_track_mix_screen(120, 40);
    assert_log_essentials(&s);
    insta::assert_snapshot!(s);
}

#[test]
fn two_track_mix_log_200x60() {
    let s = two_track_mix_screen(200, 60);
    assert_log_essentials(&s);
    insta::assert_snapshot!(s);
}

#[test]
fn save_writes_the_visible_log_and_never_the_watched_file() {
    let mut app = sample_app("walk", 1.2);
    let dir = std::env::temp_dir().join(format!("bonescope-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let watched = dir.join("skeleton.json");
    std::fs::write(&watched, b"{}").unwrap();
    app.source = Some(watched.clone());
    let err = app
        .run_line(&format!("save {}", watched.display()))
        .unwrap_err();
    assert!(err.contains("watched file"), "{err}");
    assert_eq!(std::fs::read(&watched).unwrap(), b"{}");
    let out = dir.join("log.ndjson");
    app.run_line(&format!("save {}", out.display())).unwrap();
    let text = std::fs::read_to_string(&out).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), app.session.log().len());
    assert_eq!(lines[0]["type"], "start");
    assert_eq!(lines[0]["entry"], 1);
    let txt = dir.join("log.txt");
    app.run_line(&format!("save {}", txt.display())).unwrap();
    assert!(
        std::fs::read_to_string(&txt)
            .unwrap()
            .contains("#1 start walk")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn filters_combine_search_and_enter_jumps() {
    let app = two_track_mix();
    let mut view = EventsView::default();
    // Lifecycle only, on track 0 only.
    press(&mut view, &app, KeyCode::Char('h'));
    press(&mut view, &app, KeyCode::Char('0'));
    let text = render(&mut view, &app, 100, 20);
    assert!(text.contains("tracks=0 no events"), "{text}");
    assert!(!text.contains("wave"), "{text}");
    assert!(!text.contains("footstep"), "{text}");
    assert!(text.contains("interrupt"), "{text}");
    // Search within that: the walk entry only.
    press(&mut view, &app, KeyCode::Char('/'));
    for c in "walk".chars() {
        press(&mut view, &app, KeyCode::Char(c));
    }
    press(&mut view, &app, KeyCode::Enter);
    let text = render(&mut view, &app, 100, 20);
    assert!(text.contains("/walk"), "{text}");
    assert!(!text.contains("idle"), "{text}");
    // The detail view shows every field of the bottom row; Enter jumps to its frame.
    press(&mut view, &app, KeyCode::Char('d'));
    let text = render(&mut view, &app, 100, 20);
    assert!(
        text.contains("10 command track 0 #2 start walk trackTime"),
        "{text}"
    );
    assert_eq!(
        press(&mut view, &app, KeyCode::Enter),
        PanelAction::SeekFrame(10)
    );
    insta::assert_snapshot!(text);
    press(&mut view, &app, KeyCode::Char('x'));
    let text = render(&mut view, &app, 100, 20);
    assert!(text.contains("wave"), "{text}");
}

/// Issue 28.5: a row cursor; `d` and Enter act on it (not on the bottom row); live while on
/// the newest row (it follows new rows), put anywhere else.
#[test]
fn a_row_cursor_that_d_and_enter_act_on() {
    let mut app = sample_app("walk", 0.0);
    app.session.seek_frame(300);
    let mut view = EventsView::default();
    let frame_of = |app: &App, from_end: usize| {
        let log = app.session.log();
        log[log.len() - 1 - from_end].frame()
    };
    render(&mut view, &app, 100, 20);
    assert!(view.following());
    assert_eq!(
        press(&mut view, &app, KeyCode::Enter),
        PanelAction::SeekFrame(frame_of(&app, 0))
    );
    // Up until the row's frame differs from the newest: Enter goes there, d details it.
    let mut up = 0;
    while frame_of(&app, up) == frame_of(&app, 0) {
        press(&mut view, &app, KeyCode::Up);
        up += 1;
    }
    assert!(!view.following());
    let want = frame_of(&app, up);
    let row_text = {
        let log = app.session.log();
        bonescope::session::report::line_text(&log[log.len() - 1 - up], &app.doc.data)
    };
    assert_eq!(
        press(&mut view, &app, KeyCode::Enter),
        PanelAction::SeekFrame(want)
    );
    press(&mut view, &app, KeyCode::Char('d'));
    let text = render(&mut view, &app, 100, 20);
    let head: String = row_text.chars().take(40).collect();
    assert!(text.contains(&head), "{head}\n{text}");
    // The log grows: the cursor stays on its row.
    let index = app.session.log().len() - 1 - up;
    app.session.seek_frame(400);
    render(&mut view, &app, 100, 20);
    assert_eq!(view.picked(), Some(index));
    assert_eq!(
        press(&mut view, &app, KeyCode::Enter),
        PanelAction::SeekFrame(want)
    );
    // G: live again, following new rows.
    press(&mut view, &app, KeyCode::Char('G'));
    app.session.seek_frame(500);
    render(&mut view, &app, 100, 20);
    assert!(view.following());
    assert_eq!(
        press(&mut view, &app, KeyCode::Enter),
        PanelAction::SeekFrame(frame_of(&app, 0))
    );
    // g: the oldest row; PgDn moves a page; Down to the end is live.
    press(&mut view, &app, KeyCode::Char('g'));
    let first = app.session.log()[0].frame();
    assert_eq!(
        press(&mut view, &app, KeyCode::Enter),
        PanelAction::SeekFrame(first)
    );
    press(&mut view, &app, KeyCode::PageDown);
    assert!(view.picked().is_some_and(|p| p > 5), "{:?}", view.picked());
    assert!(!view.following());
}
