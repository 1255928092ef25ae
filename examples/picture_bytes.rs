//! Measures what the viewer sends for the Preview panel's textured picture while playing at
//! 30 fps (real time: the picture frame-rate cap uses the clock), per protocol: cells and
//! picture bytes per second, the share of one core spent drawing and encoding, and the bytes
//! sent once paused (none: the picture did not change).
//!
//! `cargo run --release --example picture_bytes -- [SKELETON=../shared/corpus/spine/4.2/spineboy-pro.json] [animation=walk] [seconds=5] [WIDTHxHEIGHT=120x40] [CELLWxCELLH=10x20]`

use bonescope::tui::app::App;
use bonescope::tui::images::Protocol;
use bonescope::tui::images::pictures::{Pictures, Setup};
use bonescope::tui::images::textures::TextureSource;
use bonescope::tui::offscreen::counting_terminal_for;
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn pair(s: Option<String>, default: (u16, u16)) -> (u16, u16) {
    s.and_then(|s| {
        let (a, b) = s.split_once('x')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    })
    .unwrap_or(default)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = std::path::PathBuf::from(
        args.next()
            .unwrap_or_else(|| "../shared/corpus/spine/4.2/spineboy-pro.json".into()),
    );
    let anim = args.next().unwrap_or_else(|| "walk".into());
    let seconds: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(5);
    let (w, h) = pair(args.next(), (120, 40));
    let cell = pair(args.next(), (10, 20));
    let bytes = std::fs::read(&path).expect("read the skeleton");
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let data =
        Arc::new(bonescope::format::load(&bytes, name.as_deref().unwrap_or("x")).expect("load"));
    let mut source = TextureSource::default();
    let (textures, notes) = source.load(&path, &data);
    for n in notes {
        eprintln!("{n}");
    }
    for protocol in [
        Protocol::Kitty,
        Protocol::Sixel,
        Protocol::Iterm2,
        Protocol::HalfBlock,
    ] {
        let mut app = App::open(
            "x".into(),
            vec![data.clone()],
            Theme::new(ColorMode::TrueColor),
            MarkerKind::Braille,
        )
        .expect("app");
        bonescope::tui::default_choice::start(&mut app, Some(&anim), None).expect("animation");
        app.focus = bonescope::tui::views::PanelId::Preview;
        app.panels.preview.textures = textures.clone();
        app.panels.preview.pictures.setup = Setup {
            protocol,
            cell_px: cell,
        };
        app.panels.preview.pictures.on = Some(true);
        let mut pictures = Pictures::new(app.panels.preview.pictures.setup, 30, false);
        let (mut term, sink) = counting_terminal_for(w, h, ColorMode::TrueColor, false);
        let mut frame = |app: &mut App, pictures: &mut Pictures| {
            term.draw(|f| bonescope::tui::render::draw(f, app))
                .expect("draw");
            let wanted = app.panels.preview.picture.take();
            pictures
                .after_draw(term.backend_mut(), wanted, [0, 0, 0])
                .expect("send");
        };
        app.playing = true;
        frame(&mut app, &mut pictures);
        sink.reset();
        let start_pictures = pictures.bytes_sent();
        let frames = 30 * seconds;
        let mut busy = Duration::ZERO;
        let t0 = Instant::now();
        for i in 0..frames {
            let due = t0 + Duration::from_secs_f64(f64::from(i) / 30.0);
            if let Some(d) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(d);
            }
            let b = Instant::now();
            app.tick(1.0 / 30.0);
            frame(&mut app, &mut pictures);
            busy += b.elapsed();
        }
        let total = sink.bytes();
        let pics = pictures.bytes_sent() - start_pictures;
        // Paused: the same frame drawn again sends nothing.
        app.playing = false;
        frame(&mut app, &mut pictures);
        std::thread::sleep(Duration::from_millis(50));
        frame(&mut app, &mut pictures);
        sink.reset();
        for _ in 0..30 {
            std::thread::sleep(Duration::from_millis(34));
            frame(&mut app, &mut pictures);
        }
        let paused = sink.bytes();
        println!(
            "{:<9} {w}x{h} cells, {}x{} px cells, \"{anim}\" at 30 fps for {seconds} s: {:.0} KiB/s in all ({:.0} KiB/s pictures), {:.1} ms/frame = {:.0}% of a core; paused: {paused} bytes in 1 s",
            protocol.name(),
            cell.0,
            cell.1,
            total as f64 / f64::from(seconds) / 1024.0,
            pics as f64 / f64::from(seconds) / 1024.0,
            busy.as_secs_f64() * 1000.0 / f64::from(frames),
            busy.as_secs_f64() / (f64::from(seconds)) * 100.0,
        );
    }
}
