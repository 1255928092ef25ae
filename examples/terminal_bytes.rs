//! Measures the bytes the viewer writes to the terminal per second while playing at 30 fps,
//! through the real crossterm backend (diffed redraws, synchronized-update wrapping included).
//!
//! `cargo run --release --example terminal_bytes -- [WIDTHxHEIGHT=120x40] [animation=walk] [seconds=10]`

use bonescope::tui::offscreen::{counting_terminal, sample_app};

fn main() {
    let mut args = std::env::args().skip(1);
    let size = args.next().unwrap_or_else(|| "120x40".into());
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .unwrap_or((120u16, 40u16));
    let anim = args.next().unwrap_or_else(|| "walk".into());
    let seconds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut app = sample_app(&anim, 0.0);
    app.playing = true;
    let (mut term, sink) = counting_terminal(w, h);
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
        "{w}x{h} playing \"{anim}\" at 30 fps for {seconds} s: {total} bytes, {per_second:.0} bytes/s ({:.1} KiB/s), {:.0} bytes/frame",
        per_second / 1024.0,
        total as f64 / frames as f64
    );
}
