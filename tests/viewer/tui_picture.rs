//! The Preview panel's textured picture as half-block cells (the fallback without an image
//! protocol): a snapshot of spineboy-pro at the setup pose, colours checked against the
//! renderer, and the same in a real viewer under tmux at 80x24 through a resize.

use crate::common;

use bonescope::tui::app::App;
use bonescope::tui::images::Protocol;
use bonescope::tui::offscreen::buffer_text;
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::{MarkerKind, Panel, ViewCtx};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use std::sync::Arc;

fn spineboy() -> Option<(App, std::path::PathBuf)> {
    let json = common::shared_file("spineboy-pro", "corpus/spine/4.2/spineboy-pro.json")?;
    let data = bonescope::format::load(&std::fs::read(&json).expect("read"), "spineboy-pro.json")
        .expect("loads");
    let app = App::open(
        "spineboy-pro.json".into(),
        vec![Arc::new(data)],
        Theme::new(ColorMode::TrueColor),
        MarkerKind::Braille,
    )
    .expect("app");
    Some((app, json))
}

/// The Preview panel alone, focused and paused at the playhead 0, drawn at `w` x `h` with
/// true colour: its cells.
fn preview_cells(app: &mut App, w: u16, h: u16) -> ratatui::buffer::Buffer {
    let theme = Theme::new(ColorMode::TrueColor);
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("backend");
    let ctx = ViewCtx {
        session: &app.session,
        selection: &app.selection,
        timelines: &app.timelines,
        theme: &theme,
        marker: MarkerKind::Braille,
        focused: true,
        playhead: 0.0,
        playing: false,
    };
    term.draw(|f| app.panels.preview.render(f, f.area(), &ctx))
        .expect("draw");
    term.backend().buffer().clone()
}

#[test]
fn textured_half_block_preview() {
    let Some((mut app, json)) = spineboy() else {
        return;
    };
    let mut source = bonescope::tui::images::textures::TextureSource::default();
    let (textures, notes) = source.load(&json, &app.doc.data);
    assert!(
        textures.is_some(),
        "spineboy.atlas beside the export: {notes:?}"
    );
    assert!(notes.is_empty(), "{notes:?}");
    let preview = &mut app.panels.preview;
    preview.textures = textures;
    preview.pictures.setup.protocol = Protocol::HalfBlock;
    preview.pictures.on = Some(true);
    preview.pictures.overlay = false;
    let buf = preview_cells(&mut app, 40, 24);
    let text = buffer_text(&buf);
    assert!(
        text.lines().next().expect("title").contains("blocks"),
        "{text}"
    );
    // Colours: the cells carry the textures' colours (many distinct, none of the markers').
    let mut colours = std::collections::HashSet::new();
    for cell in buf.content() {
        if cell.symbol() == "▀" || cell.symbol() == "▄" {
            for c in [cell.fg, cell.bg] {
                if let Color::Rgb(r, g, b) = c {
                    colours.insert((r, g, b));
                }
            }
        }
    }
    assert!(colours.len() > 30, "{} colours", colours.len());
    insta::assert_snapshot!("spineboy_setup_half_blocks", text);
}

/// The viewer under tmux at 80x24 with `BONESCOPE_IMAGES=halfblock`: `P` `t` shows the
/// textured half-block picture, which survives a resize to 100x30.
#[test]
fn tmux_textured_half_blocks_survive_a_resize() {
    let Some((_, json)) = spineboy() else {
        return;
    };
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_err()
    {
        assert!(!ci, "tmux is missing (CI=true)");
        return;
    }
    let sock = format!("bs-picture-{}", std::process::id());
    let tmux = |args: &[&str]| {
        std::process::Command::new("tmux")
            .args(["-L", &sock])
            .args(args)
            .output()
            .expect("tmux")
    };
    let cmd = format!(
        "BONESCOPE_IMAGES=halfblock COLORTERM=truecolor LANG=C.UTF-8 {} {}",
        env!("CARGO_BIN_EXE_bonescope"),
        json.display()
    );
    tmux(&["new-session", "-d", "-x", "80", "-y", "24", &cmd]);
    let screen = |want: &str| {
        for _ in 0..100 {
            let out = tmux(&["capture-pane", "-p"]);
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            if text.contains(want) {
                return text;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        String::from_utf8_lossy(&tmux(&["capture-pane", "-p"]).stdout).into_owned()
    };
    screen("Preview");
    tmux(&["send-keys", "P"]);
    std::thread::sleep(std::time::Duration::from_millis(200));
    tmux(&["send-keys", "t"]);
    let shown = screen("blocks");
    let blocks = |s: &str| s.matches(['▀', '▄']).count();
    tmux(&["resize-window", "-x", "100", "-y", "30"]);
    std::thread::sleep(std::time::Duration::from_millis(500));
    let resized = screen("blocks");
    tmux(&["send-keys", "q"]);
    tmux(&["kill-server"]);
    assert!(shown.contains("blocks"), "{shown}");
    assert!(blocks(&shown) > 20, "{shown}");
    assert!(resized.contains("blocks"), "{resized}");
    assert!(blocks(&resized) > blocks(&shown), "{resized}");
}

/// The picture path of the viewer (draw the frame, then send the Preview panel's picture)
/// with the built-in sample at 120x40 cells of 10x20 px: playing sends pictures; paused, the
/// same picture is never sent again, by kitty or sixel.
#[test]
fn a_paused_viewer_sends_no_picture_bytes() {
    use bonescope::tui::images::pictures::{Pictures, Setup};
    use bonescope::tui::offscreen::counting_terminal_for;
    use std::time::Duration;
    for protocol in [Protocol::Kitty, Protocol::Sixel] {
        let data = bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "sample").expect("loads");
        let mut app = App::open(
            "sample".into(),
            vec![Arc::new(data)],
            Theme::new(ColorMode::TrueColor),
            MarkerKind::Braille,
        )
        .expect("app");
        bonescope::tui::default_choice::start(&mut app, None, None).expect("opening");
        app.focus = bonescope::tui::views::PanelId::Preview;
        app.panels.preview.textures = Some(Arc::new(bonescope::embedded_sample_textures()));
        app.panels.preview.pictures.setup = Setup {
            protocol,
            cell_px: (10, 20),
        };
        app.panels.preview.pictures.on = Some(true);
        let mut pictures = Pictures::new(app.panels.preview.pictures.setup, 30, false);
        let (mut term, sink) = counting_terminal_for(120, 40, ColorMode::TrueColor, false);
        let mut frame = |app: &mut App, pictures: &mut Pictures| {
            term.draw(|f| bonescope::tui::render::draw(f, app))
                .expect("draw");
            let wanted = app.panels.preview.picture.take();
            pictures
                .after_draw(term.backend_mut(), wanted, [0, 0, 0])
                .expect("send");
        };
        app.playing = true;
        for _ in 0..3 {
            app.tick(1.0 / 30.0);
            frame(&mut app, &mut pictures);
            std::thread::sleep(Duration::from_millis(40));
        }
        assert!(
            pictures.bytes_sent() > 10_000,
            "{protocol:?}: playing sends pictures"
        );
        // Pausing may still send the picture of the frame it stopped on, once.
        app.playing = false;
        frame(&mut app, &mut pictures);
        std::thread::sleep(Duration::from_millis(50));
        frame(&mut app, &mut pictures);
        let (before, cells) = (pictures.bytes_sent(), sink.bytes());
        for _ in 0..10 {
            std::thread::sleep(Duration::from_millis(34));
            frame(&mut app, &mut pictures);
        }
        assert_eq!(
            pictures.bytes_sent(),
            before,
            "{protocol:?}: paused sends no picture"
        );
        assert_eq!(
            sink.bytes(),
            cells,
            "{protocol:?}: paused sends nothing at all"
        );
    }
}

/// With an atlas that covers none of the rig's attachments the picture is the untextured
/// fallback; the wireframe overlay (on by default) draws the bones, so the renderer must not
/// draw them a second time underneath, in its own colour and a slightly different place.
#[test]
fn an_atlas_covering_nothing_shows_the_bones_once() {
    let Some((mut app, _)) = spineboy() else {
        return;
    };
    let Some(coin) = common::shared_file("coin atlas", "corpus/spine/4.2/coin.atlas") else {
        return;
    };
    let textures = bonescope::format::atlas::Textures::load(&coin).expect("coin atlas");
    let preview = &mut app.panels.preview;
    preview.textures = Some(Arc::new(textures));
    preview.pictures.setup.protocol = Protocol::HalfBlock;
    preview.pictures.on = Some(true);
    // Cells carrying the renderer's bone orange (#d9480f, maybe faded by coverage).
    let mut orange_cells = |overlay: bool| {
        app.panels.preview.pictures.overlay = overlay;
        let buf = preview_cells(&mut app, 60, 40);
        let text = buffer_text(&buf);
        assert!(text.contains("blocks"), "{text}");
        buf.content()
            .iter()
            .filter(|cell| cell.symbol() == "▀" || cell.symbol() == "▄")
            .filter(|cell| {
                [cell.fg, cell.bg].iter().any(|c| {
                    matches!(*c, Color::Rgb(r, g, b)
                        if r >= 60 && u16::from(r) > 2 * u16::from(g) && g > b)
                })
            })
            .count()
    };
    let without_wireframe = orange_cells(false);
    assert!(
        without_wireframe > 10,
        "no wireframe: the renderer draws the bones ({without_wireframe} cells)"
    );
    assert_eq!(orange_cells(true), 0, "the wireframe's bones only");
}
