//! The terminal UI: a consumer of the core and the playback session. It never asks which
//! format a file came from.

pub mod app;
pub mod backend;
pub mod busy;
pub mod capabilities;
pub mod default_choice;
pub mod event_loop;
pub mod images;
pub mod key_help;
pub mod keymap;
pub mod layout;
pub mod live;
pub mod mouse;
pub mod offscreen;
pub mod panels;
pub mod process;
pub mod prompt;
pub mod render;
pub mod search;
pub mod select;
pub mod terminal;
pub mod theme;
pub mod typed_keys;
pub mod views;
pub mod waiting;
pub mod widgets;

use app::App;
use theme::{ColorMode, Theme};
use views::MarkerKind;

pub use crate::EMBEDDED_SAMPLE;

/// TUI options from the command line.
#[derive(Clone, Debug)]
pub struct Options {
    /// The plot and preview marker (from `--marker`, else the densest the terminal shows).
    pub marker: MarkerKind,
    /// The terminal shows UTF-8; false: the whole screen is ASCII
    /// ([`capabilities::Capabilities`]).
    pub unicode: bool,
    /// Redraw cap while playing.
    pub fps: u32,
    pub mouse: bool,
    pub color: ColorMode,
    /// Poll the watched file at this interval instead of using file system events.
    pub poll: Option<std::time::Duration>,
    /// Open on this animation (`--animation`); default: [`crate::view_defaults`]' choice.
    pub animation: Option<String>,
    /// Combine these skins (`--skin A,B`); default: [`crate::view_defaults`]' choice.
    pub skins: Option<Vec<String>>,
}

/// Opens the TUI on a file's skeletons, called `label` (watching `path` for changes, when
/// given), and runs until the user quits. Restores the terminal on every path (except after
/// a hang-up: the terminal is gone). With no skeletons and a `path`, shows a "waiting for"
/// screen until the file appears. Returns the exit status ([`process::Exit::status`]).
pub fn run(
    label: String,
    armatures: Vec<std::sync::Arc<crate::core::model::SkeletonData>>,
    path: Option<&std::path::Path>,
    opts: &Options,
) -> Result<u8, String> {
    use std::io::IsTerminal;
    let theme = Theme::for_terminal(opts.color, opts.unicode);
    let ascii = theme.ascii(opts.marker);
    let waiting_for = path.filter(|_| armatures.is_empty());
    // Names from the command line are checked first: a typo is reported even without a TTY.
    let opened = if waiting_for.is_none() {
        let mut app = App::open(label.clone(), armatures, theme.clone(), opts.marker)?;
        default_choice::start(&mut app, opts.animation.as_deref(), opts.skins.as_deref())?;
        Some(app)
    } else {
        None
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        if opened.is_none() {
            return Err(format!(
                "{}: no such file (in a terminal the viewer waits for it to appear)",
                crate::text::sanitize(&label)
            ));
        }
        return Err("the interactive viewer needs a terminal; for scripts use `bonescope poses|scenario ...`".into());
    }
    let mut app = match (opened, waiting_for) {
        (Some(app), _) => app,
        (None, Some(p)) => waiting::app(label, p, theme, opts.marker)?,
        (None, None) => return Err("nothing to show".into()),
    };
    app.source = path.map(std::path::Path::to_path_buf);
    let reloader = match path {
        Some(p) => {
            let wopts = crate::watch::WatchOptions {
                poll: opts.poll,
                ..Default::default()
            };
            Some(
                crate::watch::Reloader::start(p, app.doc.data.clone(), wopts)
                    .map_err(|e| e.to_string())?,
            )
        }
        None => None,
    };
    if let Some(p) = path {
        waiting::catch_up(&mut app, p);
    }
    // Ask the terminal which pictures it shows (raw mode is on, nothing has read the input
    // yet: its replies never reach the keys, and keys typed meanwhile come first).
    let (mut term, (mut pictures, note)) = terminal::enter(opts.mouse, opts.color, ascii, || {
        images::pictures::Pictures::start(opts.color != ColorMode::None && !ascii, opts.fps)
    })
    .map_err(|e| format!("cannot set up the terminal: {e}"))?;
    term.backend_mut()
        .set_scroll_regions(capabilities::Capabilities::from_env().scroll_regions);
    app.panels.preview.pictures.setup = pictures.setup;
    // Into the log only: the status line keeps its help hint (pictures are a choice).
    if let Some(note) = note {
        let frame = app.session.frame();
        app.messages
            .push(views::message_log::Kind::Note, &note, frame);
    }
    event_loop::reload_textures(&mut app, &mut pictures);
    if path.is_none() {
        // The built-in sample carries its own atlas and page.
        app.panels.preview.textures = Some(std::sync::Arc::new(crate::embedded_sample_textures()));
        event_loop::note_picture_fallback(&mut app, &mut pictures);
    }
    event_loop::run_to_exit(term, &mut app, opts.fps, reloader, &mut pictures)
}
