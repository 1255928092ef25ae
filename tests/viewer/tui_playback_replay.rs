//! The viewer's output replayed in a terminal emulator while a physics rig plays in several
//! panels at once (celestial-circus-pro's `swing` at 200x60): after every frame, the screen
//! rebuilt from the bytes is the frame drawn (nothing stale, nothing lost, every cell in the
//! attributes it was drawn with), with bands of rows scrolled by scroll margins where that
//! is cheaper.

use crate::common;

use bonescope::tui::offscreen::recording_terminal;
use bonescope::tui::theme::{ColorMode, Theme};
use bonescope::tui::views::MarkerKind;

use common::terminal_replay::assert_replays_to;

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
            all.extend(sink.take());
            assert_replays_to(
                &all,
                done.buffer,
                color != ColorMode::None,
                &format!("{color:?}: frame {frame}"),
            );
        }
    }
}
