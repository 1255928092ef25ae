//! What the viewer sends to the terminal: the byte budget of playback (counted over a fixed
//! number of frames, deterministic), the picture it rebuilds (nothing lost), the ASCII
//! fallback of terminals without UTF-8, no 256-colour escapes, the marker named in the
//! preview title, and colourless curves told apart by letters.

use crate::common;

use bonescope::tui::backend::ascii_symbol;
use bonescope::tui::capabilities::Capabilities;
use bonescope::tui::offscreen::{
    PanelScene, buffer_text, recording_terminal, render_panel, sample_app,
};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;
use bonescope::tui::views::curves::CurvesView;
use bonescope::tui::views::preview::PreviewView;

use common::terminal_replay::{assert_replays_to, replay};
use ratatui::buffer::Buffer;

/// Plays `walk` of the built-in sample for `frames` frames at 30 fps, drawing each frame:
/// (bytes of the first frame, bytes of the frames after it, the last frame drawn).
fn play(
    w: u16,
    h: u16,
    color: ColorMode,
    unicode: bool,
    marker: MarkerKind,
    frames: u32,
) -> (Vec<u8>, Vec<u8>, Buffer) {
    let mut app = sample_app("walk", 0.0);
    app.theme = Theme::for_terminal(color, unicode);
    app.marker = marker;
    app.playing = true;
    let (mut term, sink) = recording_terminal(w, h, color, app.theme.ascii(marker));
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    let first = sink.take();
    let mut last = Buffer::empty(ratatui::layout::Rect::new(0, 0, w, h));
    for _ in 0..frames {
        app.tick(1.0 / 30.0);
        let done = term
            .draw(|f| bonescope::tui::render::draw(f, &mut app))
            .expect("draw");
        last = done.buffer.clone();
    }
    (first, sink.take(), last)
}

/// Bytes per second of a 30 fps stream of `frames` frames (synchronized-update markers
/// included: the backend sends them around large frames).
fn per_second(bytes: usize, frames: u32) -> f64 {
    bytes as f64 * 30.0 / f64::from(frames)
}

#[test]
fn playback_stays_within_its_byte_budget_and_loses_nothing() {
    // 300 frames = 10 s of `walk` at 120x40 (three loops, with their events). Figures and the
    // way to reproduce them: docs/PERFORMANCE.md, "Viewer".
    for (color, budget) in [
        (ColorMode::None, BUDGET_NO_COLOUR),
        (ColorMode::Ansi, BUDGET_COLOUR),
    ] {
        let (first, rest, frame) = play(120, 40, color, true, MarkerKind::Braille, 300);
        let rate = per_second(rest.len(), 300);
        println!("{color:?}: {rate:.0} bytes/s");
        // The event log scrolled with scroll margins (reset after each use).
        let text = String::from_utf8_lossy(&rest).into_owned();
        assert!(text.contains("\x1b[r"), "{color:?}: no scroll");
        assert!(
            rate <= budget,
            "{color:?}: {rate:.0} bytes/s over the budget of {budget:.0}"
        );
        // The terminal, fed the whole stream, shows exactly the last frame.
        let mut all = first;
        all.extend_from_slice(&rest);
        assert_replays_to(
            &all,
            &frame,
            color != ColorMode::None,
            &format!("120x40 {color:?}"),
        );
    }
}

/// Bytes per second at 120x40, 30 fps, without colour and with 16 colours (the issue's
/// target: 12 000 and 18 000; reached: docs/PERFORMANCE.md).
const BUDGET_NO_COLOUR: f64 = 11_470.0;
const BUDGET_COLOUR: f64 = 14_090.0;

#[test]
fn every_size_replays_to_its_last_frame() {
    // Other layouts (two panels at 80x24, wide panels at 200x60), and more frames: the log
    // fills and scrolls in every band it has.
    for (w, h) in [(80, 24), (200, 60)] {
        for color in [ColorMode::None, ColorMode::Ansi] {
            let (first, rest, frame) = play(w, h, color, true, MarkerKind::Braille, 400);
            let all = [first, rest].concat();
            let what = format!("{w}x{h} {color:?}");
            assert_replays_to(&all, &frame, color != ColorMode::None, &what);
        }
    }
}

#[test]
fn colour_is_sent_as_16_colour_escapes_only() {
    let (first, rest, _) = play(80, 24, ColorMode::Ansi, true, MarkerKind::Braille, 60);
    let text = String::from_utf8_lossy(&[first, rest].concat()).into_owned();
    assert!(
        !text.contains("38;5") && !text.contains("48;5"),
        "256-colour escape"
    );
    assert!(
        !text.contains("38;2") && !text.contains("48;2"),
        "24-bit escape"
    );
    // The theme's colours do arrive (cyan focus, yellow playhead).
    assert!(
        text.contains("36") && text.contains("33"),
        "no colour at all"
    );
}

#[test]
fn dumb_terminals_get_pure_ascii_without_colour() {
    for term in ["dumb", "vt100", "linux"] {
        let caps = Capabilities::from_vars(|k| match k {
            "TERM" => Some(term.to_string()),
            "LANG" => Some("en_US.UTF-8".to_string()),
            "COLORTERM" => Some("truecolor".to_string()),
            _ => None,
        });
        assert!(!caps.unicode, "{term}");
        let (first, rest, last) = play(120, 40, caps.color, caps.unicode, caps.marker, 45);
        let all = [first, rest].concat();
        if let Some(b) = all.iter().find(|&&b| b >= 0x80) {
            panic!("{term}: byte {b:#x} in the stream");
        }
        let text = String::from_utf8_lossy(&all).into_owned();
        assert!(!text.contains("38;5") && !text.contains("38;2"), "{term}");
        if caps.color == ColorMode::None {
            // Attributes only (bold, reverse, their "off" codes): no colour parameter.
            for csi in text.split("\x1b[").skip(1) {
                let Some(end) = csi.find(|c: char| c.is_ascii_alphabetic()) else {
                    continue;
                };
                let (params, fin) = (&csi[..end], &csi[end..=end]);
                if fin == "m" {
                    // An empty parameter is 0 (`ESC [ m` resets).
                    assert!(
                        params
                            .split(';')
                            .all(|p| p.is_empty() || p.parse::<u32>().is_ok_and(|n| n < 30)),
                        "{term}: colour in \\e[{params}m"
                    );
                }
            }
        }
        // The picture is there, in ASCII: borders, the preview's marker, the status line.
        let screen = replay(&all, 120, 40);
        let joined = screen.join("\n");
        assert!(
            screen[0].starts_with('+') && screen[0].contains("=="),
            "{term}: {}",
            screen[0]
        );
        assert!(
            joined.contains("Preview") && joined.contains(" ascii "),
            "{joined}"
        );
        assert!(joined.contains('*'), "{term}: no preview points\n{joined}");
        assert!(screen[39].contains("> play"), "{term}: {}", screen[39]);
        let expected: String = buffer_text(&last)
            .chars()
            .map(|c| match c {
                '\n' => "\n".to_string(),
                c => ascii_symbol(&c.to_string(), 1),
            })
            .collect();
        assert_eq!(joined + "\n", expected, "{term}");
    }
}

#[test]
fn the_ascii_marker_makes_the_whole_screen_ascii() {
    let (first, rest, _) = play(80, 24, ColorMode::Ansi, true, MarkerKind::Ascii, 10);
    assert!([first, rest].concat().iter().all(|&b| b < 0x80));
}

fn preview_title(marker: MarkerKind, w: u16) -> String {
    let mut app = sample_app("walk", 0.3);
    app.marker = marker;
    let buf = render_panel(&mut PreviewView::default(), &PanelScene::of(&app), w, 24);
    buffer_text(&buf).lines().next().unwrap_or("").to_string()
}

#[test]
fn the_preview_title_names_its_marker() {
    for m in MarkerKind::ALL {
        let title = preview_title(m, 80);
        assert!(
            title.contains(&format!("1.0x {} ", m.name())),
            "{}: {title}",
            m.name()
        );
    }
    // Narrow: the layers shrink first, the marker stays.
    let t = preview_title(MarkerKind::Octant, 28);
    assert!(t.contains(" Preview 1.0x octant "), "{t}");
    let buf = render_panel(
        &mut PreviewView::default(),
        &PanelScene {
            marker: MarkerKind::Octant,
            ..PanelScene::of(&sample_app("walk", 0.3))
        },
        80,
        24,
    );
    // Octant cells (U+1CD00..) or the block elements octants share with older blocks.
    let text = buffer_text(&buf);
    assert!(
        text.chars()
            .any(|c| ('\u{1cd00}'..='\u{1cde5}').contains(&c)
                || ('\u{2580}'..='\u{259f}').contains(&c)),
        "{text}"
    );
}

#[test]
fn colourless_curves_tell_channels_apart_by_letter() {
    let mut app = sample_app("wave", 0.8);
    let t = app
        .timelines
        .iter()
        .position(|t| t.label() == "slot hand-l.color")
        .expect("the sample's color timeline");
    app.selection.timeline = Some(t);
    let text = buffer_text(&render_panel(
        &mut CurvesView::default(),
        &PanelScene::of(&app),
        80,
        24,
    ));
    for l in ["rr r ", "gg g ", "bb b ", "aa a "] {
        assert!(text.contains(l), "legend {l:?} missing:\n{text}");
    }
    // The plot draws each channel with its letter.
    let plot: String = text.lines().skip(3).collect();
    let drawn = ['r', 'g', 'b', 'a']
        .iter()
        .filter(|c| plot.contains(**c))
        .count();
    assert!(drawn >= 3, "{text}");
}

/// A fresh full draw of `app` on a `w` x `h` screen.
fn fresh_draw(app: &mut bonescope::tui::app::App, w: u16, h: u16) -> Buffer {
    let mut term =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("terminal");
    term.draw(|f| bonescope::tui::render::draw(f, app))
        .expect("draw")
        .buffer
        .clone()
}

/// Checks that `screen` shows exactly what a fresh full draw of `app` at its size shows.
fn assert_shows_fresh_draw(
    screen: &common::terminal_replay::ResizableTerminal,
    app: &mut bonescope::tui::app::App,
    (w, h): (u16, u16),
    what: &str,
) {
    let fresh = fresh_draw(app, w, h);
    assert_eq!(
        screen.text(),
        buffer_text(&fresh),
        "{what}: the screen differs"
    );
    let fresh = screen.as_shown(&fresh);
    let wrong = common::terminal_replay::attribute_differences(&screen.cells(), &fresh, true);
    assert!(
        wrong.is_empty(),
        "{what}: {} cells in other attributes, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

/// Every window resize (growing, shrinking, growing again; paused and playing) ends in a
/// complete, correct screen: the terminal model shows every cell of a fresh full draw at the
/// new size (growing from 80x24 once left the new area blank and the rest garbled).
#[test]
fn every_resize_ends_in_a_complete_screen() {
    use bonescope::tui::backend::LeanBackend;
    use bonescope::tui::offscreen::RecordingSink;
    use common::terminal_replay::ResizableTerminal;
    let sizes = [
        (120, 40),
        (100, 30),
        (200, 60),
        (80, 24),
        (120, 40),
        (60, 20),
        (200, 60),
        (81, 25),
    ];
    for playing in [false, true] {
        let mut app = sample_app("walk", 0.0);
        app.theme = Theme::for_terminal(ColorMode::Ansi, true);
        app.playing = playing;
        let sink = RecordingSink::default();
        let backend = LeanBackend::with_size(sink.clone(), 80, 24, ColorMode::Ansi, false);
        // A full-screen viewport, as the viewer's: ratatui follows the backend's size.
        let mut term = ratatui::Terminal::new(backend).expect("terminal");
        term.clear().expect("clear");
        let mut screen = ResizableTerminal::new(80, 24);
        for (w, h) in sizes {
            term.backend_mut().set_fixed_size(w, h);
            screen.resize(w, h);
            for frame in 0..3 {
                if playing {
                    app.tick(1.0 / 30.0);
                }
                term.draw(|f| bonescope::tui::render::draw(f, &mut app))
                    .expect("draw");
                screen.feed(&sink.take());
                let what = format!("playing {playing}, {w}x{h}, frame {frame}");
                assert_shows_fresh_draw(&screen, &mut app, (w, h), &what);
            }
        }
    }
}

/// Ctrl+L repaints every cell, whatever another program wrote over the screen meanwhile.
#[test]
fn ctrl_l_repaints_the_whole_screen() {
    use bonescope::tui::backend::LeanBackend;
    use bonescope::tui::offscreen::RecordingSink;
    use common::terminal_replay::ResizableTerminal;
    let mut app = sample_app("walk", 0.0);
    app.theme = Theme::for_terminal(ColorMode::Ansi, true);
    let sink = RecordingSink::default();
    let backend = LeanBackend::with_size(sink.clone(), 100, 30, ColorMode::Ansi, false);
    let mut term = ratatui::Terminal::new(backend).expect("terminal");
    term.clear().expect("clear");
    let mut screen = ResizableTerminal::new(100, 30);
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    screen.feed(&sink.take());
    // Another program scribbles over the screen (a wall message, a background job).
    screen.feed(b"\x1b[5;3H\x1b[31mbroadcast: system going down\x1b[0m\x1b[12;40Hjunk");
    // Without a repaint, the next frame sends only what changed: the scribble stays.
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    screen.feed(&sink.take());
    assert!(screen.text().contains("broadcast"));
    bonescope::tui::process::full_redraw(&mut term).expect("redraw");
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    screen.feed(&sink.take());
    assert_shows_fresh_draw(&screen, &mut app, (100, 30), "after ctrl+l");
}
