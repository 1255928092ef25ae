//! Hot-reload latency: how long from a file write until (a) the new model is ready and (b) the
//! viewer's screen shows it, over repeated atomic re-exports of a copy of FILE.
//!
//! `cargo run --release --example reload_latency -- FILE.json [iterations=40] [--poll MS]`
//!
//! (a) write -> `ReloadEvent::Loaded` (includes the watcher's debounce, the read and the parse);
//! (b) (a) + `App::reload` (replays the session) + one full 120x40 frame through crossterm.

use bonescope::tui::app::{App, Document};
use bonescope::tui::offscreen::counting_terminal;
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;
use bonescope::watch::{ReloadEvent, Reloader, WatchOptions};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return f64::NAN;
    }
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(src) = args.first() else {
        eprintln!("usage: reload_latency FILE.json [iterations] [--poll MS]");
        std::process::exit(2);
    };
    let iterations: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(40);
    let poll = args
        .iter()
        .position(|a| a == "--poll")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    let text = std::fs::read_to_string(src).unwrap_or_else(|e| panic!("{src}: {e}"));
    let dir = std::env::temp_dir().join(format!("bonescope-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("model.json");
    std::fs::write(&path, &text).expect("write");
    let data = Arc::new(bonescope::format::load(text.as_bytes(), "model").expect("loads"));
    let doc = Document {
        label: "model.json".into(),
        data: data.clone(),
    };
    let mut app = App::new(doc, Theme::new(ColorMode::None), MarkerKind::Braille).expect("app");
    app.session.seek_frame(20);
    let (mut term, _sink) = counting_terminal(120, 40);
    term.draw(|f| bonescope::tui::render::draw(f, &mut app))
        .expect("draw");
    let opts = WatchOptions {
        poll: poll.map(Duration::from_millis),
        ..WatchOptions::default()
    };
    let reloader = Reloader::start(&path, data, opts).expect("watch");
    let (mut ready, mut screen) = (Vec::new(), Vec::new());
    for i in 0..iterations {
        // A different but equivalent export each time (the hash field changes).
        let variant = text.replacen("\"hash\": \"", &format!("\"hash\": \"{i}-"), 1);
        let variant = if variant == text {
            format!("{text}\n{}", " ".repeat(i + 1))
        } else {
            variant
        };
        let tmp = dir.join(".model.json.tmp");
        std::fs::write(&tmp, &variant).expect("write");
        let t0 = Instant::now();
        std::fs::rename(&tmp, &path).expect("rename");
        let loaded = loop {
            match reloader.events().recv_timeout(Duration::from_secs(10)) {
                Ok(ReloadEvent::Loaded { data, diff, .. }) => break Some((data, diff)),
                Ok(ReloadEvent::Failed { error }) => panic!("reload failed: {error}"),
                Ok(_) => continue,
                Err(_) => break None,
            }
        };
        let Some((data, diff)) = loaded else {
            eprintln!("iteration {i}: no reload within 10 s");
            continue;
        };
        ready.push(t0.elapsed().as_secs_f64() * 1e3);
        app.reload(data, &diff);
        term.draw(|f| bonescope::tui::render::draw(f, &mut app))
            .expect("draw");
        screen.push(t0.elapsed().as_secs_f64() * 1e3);
        std::thread::sleep(Duration::from_millis(30));
    }
    let bytes = text.len();
    println!(
        "{src} ({:.1} MB), {} reloads{}: model ready p50 {:.1} ms p95 {:.1} ms; screen updated p50 {:.1} ms p95 {:.1} ms",
        bytes as f64 / 1e6,
        ready.len(),
        poll.map_or(String::new(), |p: u64| format!(" (poll {p} ms)")),
        percentile(&mut ready.clone(), 0.5),
        percentile(&mut ready, 0.95),
        percentile(&mut screen.clone(), 0.5),
        percentile(&mut screen, 0.95)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
