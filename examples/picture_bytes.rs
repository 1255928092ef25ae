//! Measures what the viewer sends for the Preview panel's textured picture while playing at
//! 30 fps, per protocol: picture bytes and pictures per second, all bytes per second, the
//! share of one core spent drawing and encoding, and the bytes sent once paused (none: the
//! picture did not change).
//!
//! `cargo run --release --example picture_bytes -- [SKELETON=../shared/corpus/spine/4.2/spineboy-pro.json] [animation=walk] [seconds=5] [WIDTHxHEIGHT=120x40] [CELLWxCELLH=10x20] [--real-time] [--protocol NAME]`
//!
//! By default frame `i` is drawn at `i / 30` s on a clock of the example's own (the picture
//! frame-rate cap and the byte budget see that clock), so the rates are per second of
//! playback whatever the machine's load: bytes / (frames / 30). The CPU share is the
//! process's user + system time spent on those frames over the same playback time (what
//! the viewer would use drawing them in real time). `--real-time` paces frames on the wall
//! clock instead (sleeping until each is due) and divides by the wall time the frames really
//! took; when the machine falls behind, it says so.

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

/// User + system CPU time of this process in seconds (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    let Some(close) = stat.rfind(')') else {
        return 0.0;
    };
    let f: Vec<&str> = stat[close + 2..].split(' ').collect();
    let field = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (field(11) + field(12)) / 100.0
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let real_time = if let Some(i) = args.iter().position(|a| a == "--real-time") {
        args.remove(i);
        true
    } else {
        false
    };
    let only = args.iter().position(|a| a == "--protocol").map(|i| {
        args.remove(i);
        if i < args.len() {
            args.remove(i)
        } else {
            String::new()
        }
    });
    let mut args = args.into_iter();
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
        if only.as_deref().is_some_and(|o| o != protocol.name()) {
            continue;
        }
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
        let mut frame = |app: &mut App, pictures: &mut Pictures, now: Instant| {
            term.draw(|f| bonescope::tui::render::draw(f, app))
                .expect("draw");
            let wanted = app.panels.preview.picture.take();
            pictures
                .after_draw_at(term.backend_mut(), wanted, [0, 0, 0], now)
                .expect("send");
        };
        app.playing = true;
        let t0 = Instant::now();
        frame(&mut app, &mut pictures, t0);
        sink.reset();
        let (start_bytes, start_count) = (pictures.bytes_sent(), pictures.pictures_sent());
        let frames = 30 * seconds;
        let frame_time = |i: u32| Duration::from_secs_f64(f64::from(i) / 30.0);
        let (wall0, cpu0) = (Instant::now(), cpu_seconds());
        let mut late = 0u32;
        for i in 1..=frames {
            let now = if real_time {
                let due = wall0 + frame_time(i);
                match due.checked_duration_since(Instant::now()) {
                    Some(d) => std::thread::sleep(d),
                    None => late += 1,
                }
                Instant::now()
            } else {
                t0 + frame_time(i)
            };
            app.tick(1.0 / 30.0);
            frame(&mut app, &mut pictures, now);
        }
        let (wall, cpu) = (wall0.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
        // The time the rates are per: playback time, or the wall time really taken.
        let span = if real_time {
            wall
        } else {
            f64::from(frames) / 30.0
        };
        let total = sink.bytes();
        let pics = pictures.bytes_sent() - start_bytes;
        let count = pictures.pictures_sent() - start_count;
        // Paused: the same frame drawn again sends nothing.
        app.playing = false;
        let mut now = t0 + frame_time(frames + 1);
        frame(&mut app, &mut pictures, now);
        now += Duration::from_millis(50);
        frame(&mut app, &mut pictures, now);
        sink.reset();
        for _ in 0..30 {
            now += Duration::from_millis(34);
            frame(&mut app, &mut pictures, now);
        }
        let paused = sink.bytes();
        println!(
            "{:<9} {w}x{h} cells, {}x{} px cells, \"{anim}\", {frames} frames at 30 fps{}: {:.0} KiB/s in all, pictures {:.0} KiB/s ({:.0} kB/s), {:.1} pictures/s ({:.0} KiB each); CPU {:.2} s = {:.1} % of a core; paused: {paused} bytes in 1 s",
            protocol.name(),
            cell.0,
            cell.1,
            if real_time {
                format!(
                    " in real time ({wall:.2} s wall, {late} frames late{})",
                    if late > 0 {
                        ": the machine fell behind"
                    } else {
                        ""
                    }
                )
            } else {
                " on the playback clock".into()
            },
            total as f64 / span / 1024.0,
            pics as f64 / span / 1024.0,
            pics as f64 / span / 1000.0,
            count as f64 / span,
            if count > 0 {
                pics as f64 / count as f64 / 1024.0
            } else {
                0.0
            },
            cpu,
            100.0 * cpu / span,
        );
    }
}
