//! The Tracks panel: track list (mixing chain, queue) and dopesheet, as snapshots and
//! behaviour (selection keys, scrolling, tiny areas, hostile names).

use crate::common;

use bonescope::inspect::TimelineInfo;
use bonescope::session::Command;
use bonescope::tui::app::App;
use bonescope::tui::offscreen::{
    PanelScene, buffer_text, file_app, render_panel, sample_app, send_key,
};
use bonescope::tui::views::tracks::TracksView;
use bonescope::tui::views::{MarkerKind, PanelAction, Selection};
use common::viewer::set_animation;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;

fn scene(app: &App) -> PanelScene<'_> {
    PanelScene::of(app)
}

fn render(view: &mut TracksView, app: &App, w: u16, h: u16) -> Buffer {
    render_panel(view, &scene(app), w, h)
}

/// Sends `key` to the panel with the app's state, as the app does.
fn press(view: &mut TracksView, app: &App, key: KeyEvent) -> PanelAction {
    send_key(view, app, key)
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Applies a panel action the way the app does (selection only).
fn apply(app: &mut App, action: &PanelAction) {
    if let PanelAction::SelectTimeline(t) = action {
        app.selection.timeline = Some(*t);
    }
}

/// The rows of `buf` (y) whose every cell inside the border is reversed.
fn reversed_rows(buf: &Buffer) -> Vec<u16> {
    let a = buf.area;
    (1..a.height.saturating_sub(1))
        .filter(|&y| (1..a.width - 1).all(|x| buf[(x, y)].modifier.contains(Modifier::REVERSED)))
        .collect()
}

fn row_text(buf: &Buffer, y: u16) -> String {
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}

/// The sample, walk at 0.5 s, first timeline selected.
fn walk() -> App {
    let app = sample_app("walk", 0.5);
    assert_eq!(app.selection.timeline, Some(0));
    app
}

/// walk, then (default mix 0.4) jump, then wave with idle queued after 0.9 s, and idle on
/// track 2: a two-deep mixing chain, a queued entry and an empty track.
fn mixing() -> App {
    let mut app = sample_app("walk", 0.5);
    let idle = app.doc.data.find_animation("idle").expect("idle");
    app.session
        .push(Command::DefaultMix { duration: 0.4 })
        .unwrap();
    set_animation(&mut app, 0, "jump", false);
    app.session.advance(3);
    set_animation(&mut app, 0, "wave", true);
    app.session
        .push(Command::AddAnimation {
            track: 0,
            animation: idle,
            looping: true,
            delay: 0.9,
        })
        .unwrap();
    set_animation(&mut app, 2, "idle", true);
    app.session.advance(4);
    app
}

#[test]
fn snapshot_walk_80x24() {
    let app = walk();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 80, 24));
    insta::assert_snapshot!("tracks_walk_80x24", text);
}

#[test]
fn snapshot_walk_160x48() {
    let app = walk();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 160, 48));
    insta::assert_snapshot!("tracks_walk_160x48", text);
}

#[test]
fn snapshot_walk_inspector_44x23() {
    // The inspector's size beside the preview in an 80x24 terminal.
    let app = walk();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 44, 23));
    insta::assert_snapshot!("tracks_walk_44x23", text);
}

#[test]
fn snapshot_walk_ascii_80x24() {
    let mut app = walk();
    app.marker = MarkerKind::Ascii;
    let text = buffer_text(&render(&mut TracksView::default(), &app, 80, 24));
    assert!(
        !text.contains('◆') && !text.contains('─') && !text.contains('·'),
        "{text}"
    );
    insta::assert_snapshot!("tracks_walk_ascii_80x24", text);
}

#[test]
fn snapshot_mixing_80x24() {
    let app = mixing();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 80, 24));
    assert!(text.contains("← jump"), "{text}");
    assert!(text.contains("← walk"), "{text}");
    assert!(text.contains("→ idle (delay 0.9"), "{text}");
    assert!(text.contains("#1 —"), "{text}");
    insta::assert_snapshot!("tracks_mixing_80x24", text);
}

#[test]
fn snapshot_mixing_160x48() {
    let app = mixing();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 160, 48));
    insta::assert_snapshot!("tracks_mixing_160x48", text);
}

#[test]
fn snapshot_mixing_inspector_44x23() {
    let app = mixing();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 44, 23));
    insta::assert_snapshot!("tracks_mixing_44x23", text);
}

#[test]
fn mix_progress_matches_the_entry_mixing_in() {
    let app = mixing();
    let st = app.session.state();
    let cur = st.entry(st.current(0).unwrap()).unwrap();
    let pct = (cur.mix_time / cur.mix_duration * 100.0).round();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 80, 24));
    assert!(text.contains(&format!("← jump {pct:.0}%")), "{pct} {text}");
}

#[test]
fn selected_row_is_reversed() {
    let mut app = walk();
    let mut view = TracksView::default();
    for sel in [0usize, 3, 10] {
        app.selection.timeline = Some(sel);
        let buf = render(&mut view, &app, 80, 24);
        let rows = reversed_rows(&buf);
        assert_eq!(rows.len(), 1, "one reversed row for {sel}");
        let label = app.timelines[sel].label();
        let short = label.split_once(' ').map_or(label.as_str(), |(_, b)| b);
        assert!(
            row_text(&buf, rows[0]).contains(short.split('.').next().unwrap()),
            "{}",
            row_text(&buf, rows[0])
        );
    }
}

#[test]
fn up_down_page_and_ends_select_timelines() {
    let mut app = walk();
    let n = app.timelines.len();
    let mut view = TracksView::default();
    render(&mut view, &app, 80, 24);
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Down)),
        PanelAction::SelectTimeline(1)
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Up)),
        PanelAction::SelectTimeline(0)
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Char('G'))),
        PanelAction::SelectTimeline(n - 1)
    );
    app.selection.timeline = Some(5);
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Down)),
        PanelAction::SelectTimeline(6)
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Up)),
        PanelAction::SelectTimeline(4)
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Enter)),
        PanelAction::SelectTimeline(5)
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Char('g'))),
        PanelAction::SelectTimeline(0)
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::PageDown)),
        PanelAction::SelectTimeline(n - 1),
        "a page is longer than the list"
    );
    assert_eq!(
        press(&mut view, &app, key(KeyCode::PageUp)),
        PanelAction::SelectTimeline(0)
    );
    // Clamped at both ends.
    app.selection.timeline = Some(n - 1);
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Down)),
        PanelAction::SelectTimeline(n - 1)
    );
    app.selection.timeline = Some(0);
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Up)),
        PanelAction::SelectTimeline(0)
    );
}

#[test]
fn global_keys_are_left_to_the_app() {
    let app = walk();
    let mut view = TracksView::default();
    for code in [
        KeyCode::Left,
        KeyCode::Right,
        KeyCode::Char(' '),
        KeyCode::Char('['),
        KeyCode::Char(']'),
        KeyCode::Home,
        KeyCode::End,
        KeyCode::Tab,
        KeyCode::BackTab,
        KeyCode::Char('q'),
        KeyCode::Char('?'),
        KeyCode::Char(':'),
        KeyCode::Char('a'),
        KeyCode::Char('C'),
        KeyCode::Esc,
    ] {
        assert_eq!(
            press(&mut view, &app, key(code)),
            PanelAction::Ignored,
            "{code:?}"
        );
    }
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(press(&mut view, &app, ctrl_c), PanelAction::Ignored);
}

/// Scrolls through `app` (timelines replaced by `rows`) with keys, checking after every
/// render that the selected row is on screen and the title shows the position.
fn check_scrolling(app: &mut App, rows: Vec<TimelineInfo>, w: u16, h: u16) {
    app.timelines = rows;
    app.selection.timeline = Some(0);
    let n = app.timelines.len();
    let mut view = TracksView::default();
    let mut visited = 0;
    let mut steps: Vec<KeyCode> = Vec::new();
    steps.extend(std::iter::repeat_n(KeyCode::Down, 30));
    steps.extend(std::iter::repeat_n(KeyCode::PageDown, 40));
    steps.extend(std::iter::repeat_n(KeyCode::Up, 7));
    steps.push(KeyCode::Char('g'));
    steps.push(KeyCode::Char('G'));
    steps.extend(std::iter::repeat_n(KeyCode::PageUp, 40));
    for code in steps {
        let buf = render(&mut view, app, w, h);
        let sel = app.selection.timeline.unwrap();
        let title = row_text(&buf, 0);
        assert!(title.contains(&format!("{}/{}", sel + 1, n)), "{title}");
        let rev = reversed_rows(&buf);
        assert_eq!(
            rev.len(),
            1,
            "selection {sel} visible at {w}x{h}:\n{}",
            buffer_text(&buf)
        );
        assert!(view.scroll() <= sel && sel < view.scroll() + view.visible_rows());
        visited = visited.max(sel);
        let action = press(&mut view, app, key(code));
        assert!(matches!(action, PanelAction::SelectTimeline(_)), "{code:?}");
        apply(app, &action);
    }
    assert_eq!(visited, n - 1, "reached the last row");
    assert_eq!(app.selection.timeline, Some(0));
}

#[test]
fn scrolling_keeps_the_selection_visible_with_hundreds_of_rows() {
    // 240+ rows: the sample's walk timelines repeated (each row still names a real timeline).
    let mut app = walk();
    let rows: Vec<TimelineInfo> = app.timelines.iter().cycle().take(242).cloned().collect();
    check_scrolling(&mut app, rows.clone(), 44, 23);
    check_scrolling(&mut app, rows, 160, 48);
}

#[test]
fn scrolling_mix_and_match() {
    let Some(path) = common::shared_file(
        "scrolling_mix_and_match",
        "corpus/spine/3.8/mix-and-match-pro.json",
    ) else {
        return;
    };
    let bytes = std::fs::read(&path).expect("read");
    let mut app = file_app(&bytes, "mix-and-match-pro.json", 0.0).expect("app");
    let walk = app.doc.data.find_animation("walk").expect("walk");
    app.play_animation(walk);
    app.session.seek_time(0.3);
    let rows = app.timelines.clone();
    assert!(rows.len() > 80, "{}", rows.len());
    check_scrolling(&mut app, rows.clone(), 44, 23);
    // And 200+ rows: the same timelines three times over.
    let many: Vec<TimelineInfo> = rows.iter().cycle().take(rows.len() * 3).cloned().collect();
    check_scrolling(&mut app, many, 80, 24);
}

#[test]
fn tiny_areas_do_not_panic_or_overflow() {
    for app in [walk(), mixing()] {
        let mut view = TracksView::default();
        for (w, h) in [
            (1, 1),
            (2, 2),
            (3, 3),
            (10, 5),
            (5, 10),
            (16, 4),
            (17, 3),
            (20, 6),
            (44, 3),
            (200, 2),
            (300, 80),
        ] {
            let buf = render(&mut view, &app, w, h);
            assert_eq!(buf.area.width, w);
            let text = buffer_text(&buf);
            for line in text.lines() {
                assert!(
                    unicode_width::UnicodeWidthStr::width(line) <= w as usize,
                    "{w}x{h}: {line}"
                );
            }
        }
    }
}

#[test]
fn nothing_selected_and_no_tracks() {
    let mut app = walk();
    app.selection = Selection::default();
    app.timelines.clear();
    app.session.push(Command::ClearTracks).unwrap();
    let text = buffer_text(&render(&mut TracksView::default(), &app, 44, 10));
    assert!(text.contains("no animation selected"), "{text}");
    let mut view = TracksView::default();
    assert_eq!(
        press(&mut view, &app, key(KeyCode::Down)),
        PanelAction::Ignored
    );
}

/// The sample with the bone "torso" renamed to carry an escape sequence and a bidi override.
pub fn hostile_app() -> App {
    let text = String::from_utf8(bonescope::tui::EMBEDDED_SAMPLE.to_vec()).unwrap();
    let text = text.replace("\"torso\"", "\"tor\\u001b[2Jso\\u202eevil\"");
    let mut app = file_app(text.as_bytes(), "hostile.json", 0.0).expect("app");
    let walk = app.doc.data.find_animation("walk").unwrap();
    app.play_animation(walk);
    app.session.seek_time(0.5);
    let t = app
        .timelines
        .iter()
        .position(|t| t.target_name.contains('\u{1b}'))
        .expect("renamed bone keyed");
    app.selection.timeline = Some(t);
    app
}

#[test]
fn hostile_names_are_escaped() {
    let app = hostile_app();
    for (w, h) in [(160, 48), (80, 24), (44, 23)] {
        let text = buffer_text(&render(&mut TracksView::default(), &app, w, h));
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{text}"
        );
        assert!(text.contains("\\e"), "{w}x{h}: {text}");
        if w >= 80 {
            assert!(text.contains("tor\\e[2Jso\\u{202e}evil"), "{text}");
        }
    }
}

/// Columns of row `y` showing `c`.
fn columns_of(buf: &Buffer, y: u16, c: &str) -> Vec<u16> {
    (0..buf.area.width)
        .filter(|&x| buf[(x, y)].symbol() == c)
        .collect()
}

#[test]
fn the_playhead_line_runs_through_the_rows_only_when_paused() {
    // 0.4 s sits between keys on most rows; the ruler is row 2, timelines from row 3.
    let mut app = sample_app("walk", 0.4);
    let rows = 3..14u16;
    let paused = render(&mut TracksView::default(), &app, 80, 24);
    let line: Vec<u16> = rows
        .clone()
        .flat_map(|y| columns_of(&paused, y, "│"))
        .collect();
    assert!(line.len() >= 8, "paused: no line\n{}", buffer_text(&paused));
    let col = line[0];
    assert!(line.iter().all(|&x| x == col), "one column: {line:?}");
    assert_eq!(columns_of(&paused, 2, "▼"), vec![col]);

    app.playing = true;
    let playing = render(&mut TracksView::default(), &app, 80, 24);
    for y in rows.clone() {
        assert!(
            columns_of(&playing, y, "│").is_empty(),
            "playing: a line in row {y}\n{}",
            buffer_text(&playing)
        );
        // The rows are otherwise what they are when paused: under the line, the fill.
        for x in 0..80 {
            let (p, q) = (paused[(x, y)].symbol(), playing[(x, y)].symbol());
            if x == col && p == "│" {
                assert!(
                    ["─", "·", " "].contains(&q),
                    "row {y}: {q:?} under the line"
                );
            } else {
                assert_eq!(p, q, "row {y} column {x}");
            }
        }
    }
    assert_eq!(columns_of(&playing, 2, "▼"), vec![col], "the tick stays");

    // Playing, the tick also shows over a ruler label (0.5 is one), which paused leaves
    // to the line below it.
    let mut app = sample_app("walk", 0.5);
    let paused = render(&mut TracksView::default(), &app, 80, 24);
    assert!(columns_of(&paused, 2, "▼").is_empty());
    app.playing = true;
    let playing = render(&mut TracksView::default(), &app, 80, 24);
    assert_eq!(
        columns_of(&playing, 2, "▼").len(),
        1,
        "{}",
        buffer_text(&playing)
    );
}

/// Issue 28.5: the header never hides a playing track behind `… N more`; only mixing-out,
/// queued and finished tracks are summarised.
#[test]
fn every_playing_track_shows_and_only_the_others_are_summarised() {
    let mut app = sample_app("walk", 0.0);
    for t in 1..6 {
        set_animation(&mut app, t, "idle", true);
    }
    // Track 6 plays the wave once and finishes; track 7 queues one after the walk.
    set_animation(&mut app, 6, "wave", false);
    let idle = app.doc.data.find_animation("idle").unwrap();
    app.session
        .push(Command::AddAnimation {
            track: 0,
            animation: idle,
            looping: true,
            delay: 5.0,
        })
        .unwrap();
    app.session.seek_frame(60);
    let text = buffer_text(&render(&mut TracksView::default(), &app, 60, 10));
    for t in 0..6 {
        assert!(text.contains(&format!("#{t} ")), "track {t} plays:\n{text}");
    }
    assert!(text.contains("more"), "{text}");
    assert!(
        !text.contains("#6 "),
        "the finished wave is summarised:\n{text}"
    );
}
