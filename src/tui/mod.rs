//! The terminal UI: a consumer of the core and the playback session. It never asks which
//! format a file came from.

pub mod app;
pub mod commands;
pub mod default_choice;
pub mod event_loop;
pub mod key_help;
pub mod keymap;
pub mod layout;
pub mod offscreen;
pub mod prompt;
pub mod render;
pub mod terminal;
pub mod theme;
pub mod viewer_commands;
pub mod views;
pub mod widgets;

use app::App;
use theme::{ColorMode, Theme};
use views::MarkerKind;

/// The project's own sample, built into the binary so `bonescope` alone shows something.
pub const EMBEDDED_SAMPLE: &[u8] = include_bytes!("../../samples/spine/lantern-keeper.json");

/// TUI options from the command line.
#[derive(Clone, Debug)]
pub struct Options {
    pub marker: MarkerKind,
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
/// given), and runs until the user quits. Restores the terminal on every path.
pub fn run(
    label: String,
    armatures: Vec<std::sync::Arc<crate::core::model::SkeletonData>>,
    path: Option<&std::path::Path>,
    opts: &Options,
) -> Result<(), String> {
    use std::io::IsTerminal;
    // Names from the command line are checked first: a typo is reported even without a TTY.
    let mut app = App::open(label, armatures, Theme::new(opts.color), opts.marker)?;
    default_choice::start(&mut app, opts.animation.as_deref(), opts.skins.as_deref())?;
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err("the interactive viewer needs a terminal; for scripts use `bonescope poses|scenario ...`".into());
    }
    app.source = path.map(std::path::Path::to_path_buf);
    let reloader = match path {
        Some(p) => {
            let wopts = crate::watch::WatchOptions {
                poll: opts.poll,
                ..Default::default()
            };
            Some(crate::watch::Reloader::start(
                p,
                app.doc.data.clone(),
                wopts,
            )?)
        }
        None => None,
    };
    let mut term =
        terminal::enter(opts.mouse).map_err(|e| format!("cannot set up the terminal: {e}"))?;
    let result = event_loop::run(&mut term, &mut app, opts.fps, reloader);
    match &result {
        Ok(exit) => event_loop::finish(exit),
        Err(_) => terminal::restore(),
    }
    result
        .map(|_| ())
        .map_err(|e| format!("terminal error: {e}"))
}
