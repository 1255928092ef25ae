//! The viewer's output replayed in a terminal emulator while a physics rig plays in several
//! panels at once (celestial-circus-pro's `swing` at 200x60): after every frame, the screen
//! rebuilt from the bytes is the frame drawn (nothing stale, nothing lost), with bands of
//! rows scrolled by scroll margins where that is cheaper.

mod common;

use bonescope::tui::offscreen::{buffer_text, recording_terminal};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;

/// A terminal emulator for the sequences the viewer's backend sends (see
/// tests/tui_terminal_output.rs): cursor moves, scroll margins, erase; attributes ignored.
fn replay(bytes: &[u8], w: usize, h: usize) -> Vec<String> {
    let mut grid = vec![vec![' '; w]; h];
    let (mut x, mut y) = (0usize, 0usize);
    let (mut top, mut bottom) = (0usize, h - 1);
    let text = String::from_utf8(bytes.to_vec()).expect("the stream is UTF-8");
    let mut it = text.chars().peekable();
    let scroll = |grid: &mut Vec<Vec<char>>, top: usize, bottom: usize, up: bool| {
        if up {
            grid[top..=bottom].rotate_left(1);
            grid[bottom] = vec![' '; w];
        } else {
            grid[top..=bottom].rotate_right(1);
            grid[top] = vec![' '; w];
        }
    };
    while let Some(c) = it.next() {
        match c {
            '\x1b' if it.peek() == Some(&'M') => {
                it.next();
                if y == top {
                    scroll(&mut grid, top, bottom, false);
                } else {
                    y = y.checked_sub(1).expect("RI at the top row");
                }
            }
            '\x1b' => {
                assert_eq!(it.next(), Some('['), "only CSI and RI are sent");
                let mut params = String::new();
                let fin = loop {
                    let c = it.next().expect("a final byte");
                    if c.is_ascii_alphabetic() {
                        break c;
                    }
                    params.push(c);
                };
                if params.starts_with('?') {
                    continue;
                }
                let nums: Vec<usize> = params.split(';').map(|p| p.parse().unwrap_or(0)).collect();
                let n = nums[0].max(1);
                match fin {
                    'H' => {
                        y = nums[0].max(1) - 1;
                        x = nums.get(1).copied().unwrap_or(1).max(1) - 1;
                    }
                    'A' if y >= top => y = y.saturating_sub(n).max(top),
                    'A' => y = y.checked_sub(n).expect("CUU off the screen"),
                    'B' if y <= bottom => y = (y + n).min(bottom),
                    'B' => y = (y + n).min(h - 1),
                    'C' => x += n,
                    'D' => x -= n,
                    'G' => x = n - 1,
                    'J' => grid = vec![vec![' '; w]; h],
                    'm' => {}
                    'r' => {
                        let t = nums[0].max(1);
                        let b = nums.get(1).copied().filter(|&b| b > 0).unwrap_or(h);
                        assert!(t < b && b <= h, "bad margins {params}");
                        (top, bottom) = (t - 1, b - 1);
                        (x, y) = (0, 0);
                    }
                    other => panic!("unexpected CSI {params}{other}"),
                }
            }
            '\n' if y == bottom => scroll(&mut grid, top, bottom, true),
            '\n' => {
                assert!(y + 1 < h, "a line feed scrolling the whole screen");
                y += 1;
            }
            '\r' => x = 0,
            '\x08' => x -= 1,
            c => {
                assert!(x < w && y < h, "printing outside the screen at {x},{y}");
                grid[y][x] = c;
                x += 1;
            }
        }
    }
    assert_eq!((top, bottom), (0, h - 1), "margins left set");
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

#[test]
fn every_frame_replays_to_the_screen_drawn() {
    let Some(path) = common::shared_file(
        "playback replay",
        "corpus/spine/4.2/celestial-circus-pro.json",
    ) else {
        return;
    };
    let bytes = std::fs::read(&path).expect("read");
    let data = bonescope::format::load(&bytes, "celestial-circus-pro").expect("load");
    let doc = bonescope::tui::app::Document {
        label: "celestial-circus-pro.json".into(),
        data: std::sync::Arc::new(data),
    };
    for color in [ColorMode::None, ColorMode::Ansi] {
        let mut app =
            bonescope::tui::app::App::new(doc.clone(), Theme::new(color), MarkerKind::Braille)
                .expect("app");
        let swing = app.doc.data.find_animation("swing").expect("swing");
        app.play_animation(swing);
        app.playing = true;
        let (w, h) = (200u16, 60u16);
        let (mut term, sink) = recording_terminal(w, h, color, false);
        let mut all = Vec::new();
        for frame in 0..120 {
            app.tick(1.0 / 30.0);
            let done = term
                .draw(|f| bonescope::tui::render::draw(f, &mut app))
                .expect("draw");
            let drawn = buffer_text(done.buffer);
            all.extend(sink.take());
            let screen = replay(&all, w.into(), h.into()).join("\n") + "\n";
            assert_eq!(
                screen, drawn,
                "{color:?}: frame {frame} replays differently"
            );
        }
    }
}
