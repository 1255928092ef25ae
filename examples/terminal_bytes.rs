//! Measures the bytes the viewer writes to the terminal per second while playing at 30 fps,
//! through the viewer's own backend (diffed redraws, synchronized-update wrapping included).
//!
//! `cargo run --release --example terminal_bytes -- [WIDTHxHEIGHT=120x40] [animation=walk] [seconds=10] [--color] [--marker NAME]`
//!
//! `--color` draws with the 16-colour theme (default: colourless, as with `NO_COLOR`);
//! `--marker` picks the preview marker (default braille).

use bonescope::tui::offscreen::{counting_terminal_for, sample_app};
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let color = if let Some(i) = args.iter().position(|a| a == "--color") {
        args.remove(i);
        ColorMode::Ansi
    } else {
        ColorMode::None
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
    let mut args = args.into_iter();
    let size = args.next().unwrap_or_else(|| "120x40".into());
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .unwrap_or((120u16, 40u16));
    let anim = args.next().unwrap_or_else(|| "walk".into());
    let seconds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut app = sample_app(&anim, 0.0);
    app.theme = Theme::new(color);
    app.marker = marker;
    app.playing = true;
    let ascii = app.theme.ascii(marker);
    let (mut term, sink) = counting_terminal_for(w, h, color, ascii);
    // The first frame paints everything; count steady-state frames only.
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    sink.reset();
    let frames = 30 * seconds;
    // Each frame is wrapped in begin/end synchronized update (8 + 8 bytes).
    let sync = 16 * frames as u64;
    for _ in 0..frames {
        app.tick(1.0 / 30.0);
        term.draw(|f| bonescope::tui::render::draw(f, &mut app))
            .expect("draw");
    }
    let total = sink.bytes() + sync;
    let per_second = total as f64 / seconds as f64;
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
