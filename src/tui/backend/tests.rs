//! The backend's bytes replayed through a small terminal model: every frame ends in the screen
//! a full repaint gives, with as few bytes as the tests pin.

use super::escapes::{sgr_from_reset, sgr_incremental};
use super::*;
use ratatui::Terminal;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{Block, Borders, Paragraph};

#[derive(Clone, Default)]
struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.borrow_mut())
    }
}

fn term(color: ColorMode, ascii: bool) -> (Terminal<LeanBackend<Sink>>, Sink) {
    let sink = Sink::default();
    let t =
        Terminal::new(LeanBackend::with_size(sink.clone(), 20, 4, color, ascii)).expect("terminal");
    (t, sink)
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace('\x1b', "\\e")
}

/// The screen a `w` x `h` terminal shows after `bytes`, row by row: the `vt100` crate's
/// model (the tests' one terminal model; scroll margins, reverse index and erases included).
fn emulate(bytes: &[u8], w: usize, h: usize) -> Vec<String> {
    let side = |n: usize| std::num::NonZeroU16::new(u16::try_from(n).expect("fits")).expect("> 0");
    let mut parser = vt100::Parser::new(side(h), side(w), 0);
    parser.process(bytes);
    let screen = parser.screen();
    (0..side(h).get())
        .map(|y| {
            (0..side(w).get())
                .filter_map(|x| {
                    let cell = screen.cell(y, x).expect("inside the screen");
                    (!cell.is_wide_continuation()).then(|| match cell.contents() {
                        "" => " ".to_string(),
                        c => c.to_string(),
                    })
                })
                .collect()
        })
        .collect()
}

fn log_line(i: usize) -> String {
    let what = [
        "start walk",
        "footstep left i=1",
        "lantern-creak",
        "footstep right f=0.5",
        "complete",
        "interrupt idle",
        "end jump",
        "dispose",
        "event wave",
        "start run",
        "hit ground",
        "blink",
    ];
    format!("{i:>2} {}", what[i % what.len()])
}

/// Draws a log of `lines` (the last `rows` of them) above a fixed footer, frame after
/// frame with one more line each time; returns the stream of each frame after the first
/// and checks each replays to the frame.
fn scrolling_log(scroll: bool) -> Vec<Vec<u8>> {
    let sink = Sink::default();
    let mut backend = LeanBackend::with_size(sink.clone(), 30, 8, ColorMode::Ansi, false);
    backend.set_scroll_regions(scroll);
    let mut t = Terminal::new(backend).expect("terminal");
    // As the viewer does: every cell known from the start (bands with unknown cells
    // are never scrolled).
    t.clear().expect("clear");
    let mut all = Vec::new();
    let mut frames = Vec::new();
    for n in 6..12 {
        let lines: Vec<Line> = (n - 6..n)
            .map(|i| Line::styled(log_line(i), Style::default().fg(Color::Cyan)))
            .collect();
        t.draw(|f| {
            f.render_widget(
                Paragraph::new("header"),
                ratatui::layout::Rect::new(0, 0, 30, 1),
            );
            f.render_widget(
                Paragraph::new(lines.clone()),
                ratatui::layout::Rect::new(0, 1, 30, 6),
            );
            f.render_widget(
                Paragraph::new(format!("frame {n}")),
                ratatui::layout::Rect::new(0, 7, 30, 1),
            );
        })
        .expect("draw");
        let bytes = sink.take();
        all.extend_from_slice(&bytes);
        let grid = emulate(&all, 30, 8);
        assert_eq!(grid[0].trim_end(), "header");
        for (r, i) in (n - 6..n).enumerate() {
            assert_eq!(grid[1 + r].trim_end(), log_line(i));
        }
        assert_eq!(grid[7].trim_end(), format!("frame {n}"));
        frames.push(bytes);
    }
    frames.split_off(1)
}

#[test]
fn a_scrolling_log_is_scrolled_not_repainted() {
    let scrolled = scrolling_log(true);
    let painted = scrolling_log(false);
    for (s, p) in scrolled.iter().zip(&painted) {
        // Margins around the band of the log only, a line feed, margins reset, and
        // the new line and the footer's digit.
        assert!(show(s).contains("\\e[2;7r"), "{}", show(s));
        assert!(!show(p).contains("\\e[2;7r"), "{}", show(p));
        assert!(s.len() * 2 < p.len(), "{} vs {}", show(s), show(p));
    }
}

#[test]
fn cells_already_shown_are_not_sent_again() {
    // Braille patterns that differ but show as the same ASCII dot.
    let (mut t, sink) = term(ColorMode::None, true);
    t.draw(|f| f.render_widget(Paragraph::new("⣿⡇x"), f.area()))
        .expect("draw");
    sink.take();
    t.draw(|f| f.render_widget(Paragraph::new("⠁⢸y"), f.area()))
        .expect("draw");
    // The cursor stayed after the `x`: back one, and the `y`, nothing else.
    assert_eq!(show(&sink.take()), "\x08y");
}

#[test]
fn frames_replay_to_the_same_screen() {
    let (mut t, sink) = term(ColorMode::Ansi, false);
    let mut all = Vec::new();
    for (i, text) in ["hello world", "hello there", "jello there ok", "x"]
        .iter()
        .enumerate()
    {
        t.draw(|f| {
            let style = Style::default().fg(if i % 2 == 0 { Color::Cyan } else { Color::Red });
            f.render_widget(Paragraph::new(Line::styled(*text, style)), f.area());
            f.render_widget(
                Paragraph::new(format!("row {i} {text}")),
                ratatui::layout::Rect::new(2, 2, 18, 1),
            );
        })
        .expect("draw");
        all.extend(sink.take());
        let grid = emulate(&all, 20, 4);
        assert_eq!(grid[0].trim_end(), *text, "{}", show(&all));
        let row: String = format!("  row {i} {text}").chars().take(20).collect();
        assert_eq!(grid[2].trim_end(), row.trim_end());
    }
}

#[test]
fn only_changed_attributes_are_sent_and_no_reset_per_frame() {
    let (mut t, sink) = term(ColorMode::Ansi, false);
    let draw = |t: &mut Terminal<LeanBackend<Sink>>, n: u32| {
        t.draw(|f| {
            f.render_widget(
                Paragraph::new(Line::styled(
                    format!("{n:>3}"),
                    Style::default().fg(Color::Cyan).bg(Color::Reset),
                )),
                f.area(),
            )
        })
        .expect("draw");
    };
    draw(&mut t, 100);
    let first = sink.take();
    assert!(show(&first).contains("\\e[0;36m100"), "{}", show(&first));
    draw(&mut t, 101);
    // Same row, same colour: one backspace and one digit, nothing else.
    assert_eq!(show(&sink.take()), "\x081");
}

#[test]
fn sixteen_colours_never_send_256_colour_escapes() {
    for color in [ColorMode::Ansi, ColorMode::None] {
        let (mut t, sink) = term(color, false);
        t.draw(|f| {
            for (i, c) in [
                Color::Rgb(250, 10, 10),
                Color::Indexed(200),
                Color::LightBlue,
                Color::Yellow,
            ]
            .into_iter()
            .enumerate()
            {
                f.render_widget(
                    Paragraph::new(Line::styled("ab", Style::default().fg(c).bg(c))),
                    ratatui::layout::Rect::new(0, i as u16, 20, 1),
                );
            }
        })
        .expect("draw");
        let out = show(&sink.take());
        assert!(!out.contains("38;5") && !out.contains("48;5"), "{out}");
        assert!(!out.contains("38;2") && !out.contains("48;2"), "{out}");
        if color == ColorMode::Ansi {
            assert!(out.contains("94") && out.contains("33"), "{out}");
        } else {
            let sgr: Vec<&str> = out.split("\\e[").filter(|s| s.contains('m')).collect();
            // Resets only (`ESC [ m`, a reset without its parameter).
            assert!(
                sgr.iter()
                    .all(|s| s.starts_with("0m") || s.starts_with('m')),
                "{out}"
            );
        }
    }
    let (mut t, sink) = term(ColorMode::TrueColor, false);
    t.draw(|f| {
        f.render_widget(
            Paragraph::new(Line::styled("ab", Style::default().fg(Color::Rgb(1, 2, 3)))),
            f.area(),
        )
    })
    .expect("draw");
    assert!(show(&sink.take()).contains("38;2;1;2;3"));
}

#[test]
fn ascii_mode_sends_only_ascii_of_the_same_width() {
    let (mut t, sink) = term(ColorMode::None, true);
    t.draw(|f| {
        let block = Block::default().borders(Borders::ALL).title("▶ ok…");
        let inner = block.inner(f.area());
        f.render_widget(block, f.area());
        f.render_widget(Paragraph::new("⣿◆·腕x"), inner);
    })
    .expect("draw");
    let out = sink.take();
    assert!(out.iter().all(|&b| b < 0x80), "{}", show(&out));
    let grid = emulate(&out, 20, 4);
    assert_eq!(grid[0], "+> ok~-------------+");
    assert_eq!(grid[1], "|*o.??x            |");
    assert_eq!(grid[3], "+------------------+");
}

#[test]
fn cursor_moves_are_short() {
    let mut b = LeanBackend::with_size(Sink::default(), 80, 24, ColorMode::None, false);
    b.cursor = Some((10, 5));
    // Each move starts where the one before it left the cursor.
    for ((x, y), sent) in [
        ((10, 6), "\n"),
        ((8, 7), "\n\x08\x08"),
        ((0, 8), "\n\r"),
        ((0, 7), "\\eM"),
        ((0, 16), "\\e[9B"),
        ((70, 20), "\\e[21;71H"),
    ] {
        b.move_to(x, y);
        assert_eq!(show(&b.queue), sent, "to ({x}, {y})");
        b.queue.clear();
    }
    b.move_to(70, 20);
    assert!(b.queue.is_empty());
}

#[test]
fn move_lengths_match_the_moves_sent() {
    let mut b = LeanBackend::with_size(Sink::default(), 40, 6, ColorMode::None, false);
    Backend::clear(&mut b).expect("clear");
    // Unchanged cells to re-print: ASCII on row 2, braille (3 bytes each) on row 3.
    for x in 0..40 {
        b.screen[2 * 40 + x] = Some(Shown::new("a".into(), Pen::DEFAULT));
        b.screen[3 * 40 + x] = Some(Shown::new("⣿".into(), Pen::DEFAULT));
    }
    let mut bridged = 0;
    for (cx, cy) in [(0, 0), (5, 1), (12, 2), (39, 5), (20, 3)] {
        b.cursor = Some((cx, cy));
        for y in 0..6 {
            for x in 0..40 {
                let sent = b.move_bytes(x, y);
                assert_eq!(
                    b.move_len(b.cursor, b.pen, x, y),
                    sent.len(),
                    "from {cx},{cy} to {x},{y}: {}",
                    show(&sent)
                );
                bridged += usize::from(sent.first().is_some_and(|&c| c == b'a'));
            }
        }
    }
    assert!(bridged > 0, "no move re-printed cells");
    // The greedy orders' prune: never more than the move, and often less (it skips the
    // bridges).
    let mut below = 0;
    for (cx, cy) in [(0, 0), (5, 1), (12, 2), (39, 5), (20, 3)] {
        for y in 0..6 {
            for x in 0..40 {
                let from = Some((cx, cy));
                let (least, len) = (
                    b.move_len_at_least(from, x, y),
                    b.move_len(from, b.pen, x, y),
                );
                assert!(least <= len, "from {cx},{cy} to {x},{y}: {least} > {len}");
                below += usize::from(least < len);
            }
        }
    }
    assert!(below > 0);
    // After a line feed, re-printing the cells of the next row beats a cursor move.
    b.cursor = Some((10, 1));
    assert_eq!(show(&b.move_bytes(12, 2)), "\naa");
    assert_eq!(b.move_len(None, b.pen, 12, 2), 7);
}

#[test]
fn only_large_frames_are_synchronized() {
    let (mut t, sink) = term(ColorMode::None, false);
    t.draw(|f| f.render_widget(Paragraph::new("small"), f.area()))
        .expect("draw");
    let out = sink.take();
    assert!(!show(&out).contains("2026"), "{}", show(&out));
    let big = "⣿".repeat(20);
    let sink = Sink::default();
    let mut t = Terminal::new(LeanBackend::with_size(
        sink.clone(),
        20,
        30,
        ColorMode::None,
        false,
    ))
    .expect("terminal");
    t.draw(|f| {
        let lines: Vec<Line> = (0..30).map(|_| Line::raw(big.clone())).collect();
        f.render_widget(Paragraph::new(lines), f.area());
    })
    .expect("draw");
    let out = show(&sink.take());
    assert!(
        out.starts_with("\\e[?2026h") && out.ends_with("\\e[?2026l"),
        "{out}"
    );
    t.backend_mut().set_synchronized(false);
    t.draw(|f| {
        let lines: Vec<Line> = (0..30).map(|_| Line::raw("⣀".repeat(20))).collect();
        f.render_widget(Paragraph::new(lines), f.area());
    })
    .expect("draw");
    assert!(!show(&sink.take()).contains("2026"));
}

#[test]
fn sgr_changes_are_minimal() {
    let p = |fg, m| Pen {
        fg,
        bg: Color::Reset,
        modifier: m,
    };
    let seq = |a, b| sgr_incremental(a, b).join(";");
    assert_eq!(
        seq(
            p(Color::Reset, Modifier::empty()),
            p(Color::Reset, Modifier::BOLD)
        ),
        "1"
    );
    assert_eq!(
        seq(
            p(Color::Reset, Modifier::BOLD | Modifier::DIM),
            p(Color::Reset, Modifier::DIM)
        ),
        "22;2"
    );
    assert_eq!(
        seq(
            p(Color::Cyan, Modifier::REVERSED),
            p(Color::Red, Modifier::REVERSED)
        ),
        "31"
    );
    assert_eq!(
        sgr_from_reset(p(Color::White, Modifier::BOLD)).join(";"),
        "0;1;97"
    );
    assert_eq!(to_ansi(Color::Rgb(255, 90, 90)), Color::LightRed);
    assert_eq!(to_ansi(Color::Indexed(21)), Color::Blue);
}

#[test]
fn repaint_cost_is_the_same_with_every_cell_known_or_not() {
    use super::scroll::repaint_cost;
    // Differing cells in runs: 3 bytes a run plus each cell's bytes.
    let row = [1, 2, 3, 4, 5, 6];
    let bytes = [1, 3, 1, 1, 1, 1];
    let shown = [1, 9, 9, 4, 9, 6];
    assert_eq!(repaint_cost(&row, &bytes, &shown), (3 + 3 + 1) + (3 + 1));
    assert_eq!(repaint_cost(&row, &bytes, &row), 0);
    // An unknown cell is skipped without ending the run it is in.
    let unknown = [1, 2, u64::MAX, 4, 5, 6];
    let shown2 = [1, 9, 9, 9, 9, 6];
    assert_eq!(repaint_cost(&unknown, &bytes, &shown2), 3 + 3 + 1 + 1);
}
