//! The binary: the command line (`cli`) with the terminal viewer (`tui`) plugged in. This is
//! the one place that knows both; `cli` reaches the viewer only through
//! [`crate::cli::Interactive`], which [`TerminalViewer`] implements.

pub mod attach_view;
pub mod man;
pub mod render_preview;

use crate::cli::{CliError, ColorArg, Interactive, MarkerArg, ViewArgs, file_name, load_all};
use crate::tui::theme::ColorMode;
use crate::tui::views::MarkerKind;
use clap::Parser;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

/// The binary's entry point.
pub fn main() -> ExitCode {
    crate::cli::main_with(crate::cli::Cli::parse(), &TerminalViewer)
}

/// The interactive side of the command line: the ratatui viewer.
pub struct TerminalViewer;

impl Interactive for TerminalViewer {
    fn open(
        &self,
        file: Option<&Path>,
        view: &ViewArgs,
        poll_ms: Option<u64>,
    ) -> Result<u8, CliError> {
        open_viewer(file, view, poll_ms)
    }

    fn attach(&self, args: &crate::cli::attach::AttachArgs) -> Result<u8, CliError> {
        attach_view::run(args)
    }

    fn render_preview(&self, args: &crate::cli::render::RenderArgs) -> Result<(), CliError> {
        render_preview::run(args)
    }

    fn man_page(&self) -> Result<Vec<u8>, CliError> {
        man::page()
    }
}

/// The marker `--marker` names.
pub fn marker_kind(arg: MarkerArg) -> MarkerKind {
    match arg {
        MarkerArg::Octant => MarkerKind::Octant,
        MarkerArg::Sextant => MarkerKind::Sextant,
        MarkerArg::Braille => MarkerKind::Braille,
        MarkerArg::Halfblock => MarkerKind::HalfBlock,
        MarkerArg::Ascii => MarkerKind::Ascii,
    }
}

/// The viewer's options from its flags and what the terminal shows.
pub fn view_options(view: &ViewArgs) -> crate::tui::Options {
    let caps = crate::tui::capabilities::Capabilities::from_env();
    crate::tui::Options {
        marker: view.marker.map_or(caps.marker, marker_kind),
        unicode: caps.unicode,
        fps: view.fps,
        mouse: view.mouse,
        poll: None,
        animation: view.animation.clone(),
        skins: view.skin.clone(),
        color: match view.color {
            ColorArg::Auto => caps.color,
            ColorArg::Always => match caps.color {
                ColorMode::None => ColorMode::Ansi,
                m => m,
            },
            ColorArg::Never => ColorMode::None,
        },
    }
}

/// Opens the interactive viewer on `file`, or on the built-in sample.
/// A file that does not exist yet is waited for (an exporter about to write it). Returns the
/// exit status.
fn open_viewer(file: Option<&Path>, view: &ViewArgs, poll_ms: Option<u64>) -> Result<u8, CliError> {
    let (label, armatures) = match file {
        Some(path) if crate::tui::waiting::absent(path) => (file_name(path), Vec::new()),
        Some(path) => (file_name(path), load_all(path)?),
        None => (
            "lantern-keeper.json (built-in sample)".to_string(),
            vec![Arc::new(
                crate::format::load(crate::EMBEDDED_SAMPLE, "lantern-keeper")
                    .map_err(|e| CliError(format!("built-in sample: {e}")))?,
            )],
        ),
    };
    let mut opts = view_options(view);
    opts.poll = poll_ms.map(std::time::Duration::from_millis);
    crate::tui::run(label, armatures, file, &opts).map_err(CliError)
}
