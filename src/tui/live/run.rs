//! Running the attached viewer on the terminal (the viewer's own `tui::run` opens files;
//! this one starts from an app already attached to a stream).

use crate::tui::app::App;
use crate::tui::theme::{ColorMode, Theme};
use crate::tui::{capabilities, event_loop, images, terminal};

/// The viewer's options for `attach`: what the terminal shows, 30 redraws a second, mouse.
pub fn options() -> crate::tui::Options {
    let caps = capabilities::Capabilities::from_env();
    crate::tui::Options {
        marker: caps.marker,
        unicode: caps.unicode,
        fps: 30,
        mouse: true,
        color: caps.color,
        poll: None,
        animation: None,
        skins: None,
    }
}

/// The theme for `opts`.
pub fn theme(opts: &crate::tui::Options) -> Theme {
    Theme::for_terminal(opts.color, opts.unicode)
}

/// Runs `app` until the user quits; the exit status.
pub fn run(mut app: App, opts: &crate::tui::Options) -> Result<u8, String> {
    let ascii = app.theme.ascii(opts.marker);
    let (mut term, (mut pictures, _)) = terminal::enter(opts.mouse, opts.color, ascii, || {
        images::pictures::Pictures::start(opts.color != ColorMode::None && !ascii, opts.fps)
    })
    .map_err(|e| format!("cannot set up the terminal: {e}"))?;
    term.backend_mut()
        .set_scroll_regions(capabilities::Capabilities::from_env().scroll_regions);
    app.panels.preview.pictures.setup = pictures.setup;
    event_loop::run_to_exit(term, &mut app, opts.fps, None, &mut pictures)
}
