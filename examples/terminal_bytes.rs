//! Measures the bytes the viewer writes to the terminal per second while playing at 30 fps,
//! through the viewer's own backend (diffed redraws; synchronized-update markers where the
//! backend sends them, around frames of 1 KB or more).
//!
//! `cargo run --release --example terminal_bytes -- [WIDTHxHEIGHT=120x40] [animation=walk] [seconds=10] [--color] [--marker NAME]`
//!
//! `--file PATH` plays an export instead of the built-in sample (on the animation the viewer
//! opens it on, unless one is named; `-` names none); `--frames N` plays N frames instead of
//! `seconds` (for callgrind: instructions per frame drawn).
//!
//! `--search` also tries the backend's searched orders of output (off in the viewer).
//!
//! `--color` draws with the 16-colour theme (default: colourless, as with `NO_COLOR`);
//! `--marker` picks the preview marker (default braille); `--breakdown` prints where the
//! bytes go per frame (each panel and the status line; glyphs, re-printed cells, cursor
//! moves, SGR).

use bonescope::tui::app::App;
use bonescope::tui::offscreen::{counting_terminal_for, file_app, recording_terminal, sample_app};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;
use ratatui::layout::{Position, Rect};
use std::collections::BTreeMap;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let color = if let Some(i) = args.iter().position(|a| a == "--color") {
        args.remove(i);
        ColorMode::Ansi
    } else {
        ColorMode::None
    };
    let breakdown_only = if let Some(i) = args.iter().position(|a| a == "--breakdown") {
        args.remove(i);
        true
    } else {
        false
    };
    let mut marker = MarkerKind::Braille;
    if let Some(i) = args.iter().position(|a| a == "--marker") {
        args.remove(i);
        let name = if i < args.len() {
            args.remove(i)
        } else {
            String::new()
        };
        marker = MarkerKind::ALL
            .into_iter()
            .find(|m| m.name() == name)
            .unwrap_or_else(|| {
                eprintln!("unknown marker {name:?}");
                std::process::exit(2)
            });
    }
    let search = if let Some(i) = args.iter().position(|a| a == "--search") {
        args.remove(i);
        true
    } else {
        false
    };
    let file = take_value(&mut args, "--file");
    let frames_flag: Option<u32> = take_value(&mut args, "--frames").and_then(|s| s.parse().ok());
    let mut args = args.into_iter();
    let size = args.next().unwrap_or_else(|| "120x40".into());
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .unwrap_or((120u16, 40u16));
    let anim = args
        .next()
        .unwrap_or_else(|| if file.is_some() { "-" } else { "walk" }.into());
    let seconds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut app = match &file {
        Some(path) => {
            let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            let mut app = file_app(&bytes, path, 0.0).unwrap_or_else(|e| panic!("{path}: {e}"));
            if anim != "-"
                && let Some(i) = app.doc.data.find_animation(&anim)
            {
                app.play_animation(i);
            }
            app
        }
        None => sample_app(&anim, 0.0),
    };
    let anim = app
        .session
        .state()
        .current(0)
        .and_then(|id| app.session.state().entry(id))
        .and_then(|e| e.animation)
        .map_or(anim, |a| app.doc.data.animations[a].name.to_string());
    app.theme = Theme::new(color);
    app.marker = marker;
    app.playing = true;
    let ascii = app.theme.ascii(marker);
    if breakdown_only {
        breakdown(&mut app, w, h, color, ascii, 30 * seconds);
        return;
    }
    let (mut term, sink) = counting_terminal_for(w, h, color, ascii);
    term.backend_mut().set_order_search(search);
    // The first frame paints everything; count steady-state frames only.
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    sink.reset();
    let frames = frames_flag.unwrap_or(30 * seconds);
    let seconds = f64::from(frames) / 30.0;
    for _ in 0..frames {
        app.tick(1.0 / 30.0);
        term.draw(|f| bonescope::tui::render::draw(f, &mut app))
            .expect("draw");
    }
    let total = sink.bytes();
    let per_second = total as f64 / seconds;
    println!(
        "{w}x{h} playing \"{anim}\" at 30 fps for {seconds} s, {} colour, {} marker: {total} bytes, {per_second:.0} bytes/s ({:.1} KiB/s), {:.0} bytes/frame",
        match color {
            ColorMode::None => "no",
            ColorMode::Ansi => "16",
            ColorMode::TrueColor => "24-bit",
        },
        marker.name(),
        per_second / 1024.0,
        total as f64 / frames as f64
    );
}

/// Where the bytes of the frames go: per region of the screen (each panel, the status line),
/// glyph bytes of changed cells, bytes re-printing unchanged cells (cheaper than a move),
/// cursor moves and SGR, attributed to the region of the next printed cell (scrolls count
/// as moves).
/// Removes `flag` and the value after it from `args`.
fn take_value(args: &mut Vec<String>, flag: &str) -> Option<String> {
    let i = args.iter().position(|a| a == flag)?;
    args.remove(i);
    (i < args.len()).then(|| args.remove(i))
}

fn breakdown(app: &mut App, w: u16, h: u16, color: ColorMode, ascii: bool, frames: u32) {
    let (mut term, sink) = recording_terminal(w, h, color, ascii);
    term.draw(|f| bonescope::tui::render::draw(f, app))
        .expect("draw");
    let mut screen = Screen::new(w as usize, h as usize);
    screen.feed(&sink.take(), &[], &mut BTreeMap::new());
    let mut rows: BTreeMap<String, Tally> = BTreeMap::new();
    for _ in 0..frames {
        app.tick(1.0 / 30.0);
        term.draw(|f| bonescope::tui::render::draw(f, app))
            .expect("draw");
        let mut regions: Vec<(String, Rect)> = app
            .areas
            .iter()
            .map(|(id, r)| (format!("{id:?}"), *r))
            .collect();
        regions.push(("Status".into(), Rect::new(0, h - 1, w, 1)));
        screen.feed(&sink.take(), &regions, &mut rows);
    }
    let total: Tally = rows.values().fold(Tally::default(), |a, b| a.plus(b));
    let f = f64::from(frames);
    println!(
        "{:<10} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} {:>8}",
        "per frame", "cells", "glyph", "reprint", "moves", "move B", "sgr", "total", "B/s"
    );
    for (name, t) in rows.iter().chain([(&"all".to_string(), &total)]) {
        let sum = t.glyph + t.reprint + t.moves + t.sgr;
        println!(
            "{name:<10} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>8.0}",
            t.cells as f64 / f,
            t.glyph as f64 / f,
            t.reprint as f64 / f,
            t.jumps as f64 / f,
            t.moves as f64 / f,
            t.sgr as f64 / f,
            sum as f64 / f,
            sum as f64 / f * 30.0
        );
    }
    println!(
        "(and synchronized-update markers around large frames: {:.1} bytes per frame, {:.0} B/s)",
        screen.sync as f64 / f,
        screen.sync as f64 / f * 30.0
    );
}

#[derive(Clone, Copy, Default)]
struct Tally {
    cells: u64,
    glyph: u64,
    reprint: u64,
    moves: u64,
    sgr: u64,
    /// Cursor moves (each run of printed cells starts with one, except at the cursor).
    jumps: u64,
}

impl Tally {
    fn plus(self, o: &Tally) -> Tally {
        Tally {
            cells: self.cells + o.cells,
            glyph: self.glyph + o.glyph,
            reprint: self.reprint + o.reprint,
            moves: self.moves + o.moves,
            sgr: self.sgr + o.sgr,
            jumps: self.jumps + o.jumps,
        }
    }
}

/// A minimal terminal model following the cursor through the stream (the sequences the
/// viewer's backend sends) to tell which cell each printed byte lands on.
struct Screen {
    grid: Vec<Vec<String>>,
    x: usize,
    y: usize,
    /// Scroll margins (DECSTBM), first and last row.
    top: usize,
    bottom: usize,
    /// Bytes of synchronized-update markers.
    sync: u64,
}

impl Screen {
    fn new(w: usize, h: usize) -> Screen {
        Screen {
            grid: vec![vec![" ".to_string(); w]; h],
            x: 0,
            y: 0,
            top: 0,
            bottom: h - 1,
            sync: 0,
        }
    }

    /// Scrolls the band between the margins by a row (up: content moves up).
    fn scroll(&mut self, up: bool) {
        let (t, b) = (self.top, self.bottom);
        let w = self.grid[0].len();
        if up {
            self.grid[t..=b].rotate_left(1);
            self.grid[b] = vec![" ".to_string(); w];
        } else {
            self.grid[t..=b].rotate_right(1);
            self.grid[t] = vec![" ".to_string(); w];
        }
    }

    fn feed(
        &mut self,
        bytes: &[u8],
        regions: &[(String, Rect)],
        rows: &mut BTreeMap<String, Tally>,
    ) {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let mut it = text.chars().peekable();
        // Overhead waiting for the next printed cell: (moves, sgr).
        let (mut moves, mut sgr) = (0u64, 0u64);
        while let Some(c) = it.next() {
            match c {
                '\x1b' if it.peek() == Some(&'M') => {
                    it.next();
                    if self.y == self.top {
                        self.scroll(false);
                    } else {
                        self.y -= 1;
                    }
                    moves += 2;
                }
                '\x1b' => {
                    it.next();
                    let mut params = String::new();
                    let fin = loop {
                        let c = it.next().expect("final byte");
                        if c.is_ascii_alphabetic() {
                            break c;
                        }
                        params.push(c);
                    };
                    let len = 3 + params.len() as u64;
                    let nums: Vec<usize> = params
                        .trim_start_matches('?')
                        .split(';')
                        .map(|p| p.parse().unwrap_or(0))
                        .collect();
                    let n = nums[0].max(1);
                    match fin {
                        'h' | 'l' if params == "?2026" => self.sync += len,
                        'm' => sgr += len,
                        'H' => {
                            self.y = nums[0].max(1) - 1;
                            self.x = nums.get(1).copied().unwrap_or(1).max(1) - 1;
                            moves += len;
                        }
                        'A' => {
                            self.y -= n;
                            moves += len
                        }
                        'B' => {
                            self.y += n;
                            moves += len
                        }
                        'C' => {
                            self.x += n;
                            moves += len
                        }
                        'D' => {
                            self.x -= n;
                            moves += len
                        }
                        'G' => {
                            self.x = n - 1;
                            moves += len
                        }
                        'r' => {
                            self.top = nums[0].max(1) - 1;
                            self.bottom = nums
                                .get(1)
                                .copied()
                                .filter(|&b| b > 0)
                                .unwrap_or(self.grid.len())
                                - 1;
                            (self.x, self.y) = (0, 0);
                            moves += len;
                        }
                        _ => moves += len,
                    }
                }
                '\n' if self.y == self.bottom => {
                    self.scroll(true);
                    moves += 1
                }
                '\n' => {
                    self.y += 1;
                    moves += 1
                }
                '\r' => {
                    self.x = 0;
                    moves += 1
                }
                '\x08' => {
                    self.x -= 1;
                    moves += 1
                }
                c => {
                    let (x, y) = (self.x, self.y);
                    let name = regions
                        .iter()
                        .find(|(_, r)| r.contains(Position::new(x as u16, y as u16)))
                        .map_or("other", |(n, _)| n.as_str());
                    let t = rows.entry(name.to_string()).or_default();
                    let s = c.to_string();
                    let bytes = s.len() as u64;
                    if y < self.grid.len() && x < self.grid[y].len() {
                        if self.grid[y][x] == s {
                            t.reprint += bytes;
                        } else {
                            t.glyph += bytes;
                            t.cells += 1;
                        }
                        self.grid[y][x] = s;
                    }
                    t.jumps += u64::from(moves > 0);
                    t.moves += moves;
                    t.sgr += sgr;
                    moves = 0;
                    sgr = 0;
                    self.x += unicode_width::UnicodeWidthChar::width(c).unwrap_or(1);
                }
            }
        }
    }
}
