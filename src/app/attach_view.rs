//! `bonescope attach` on a terminal: the live viewer. The stream (network or recording)
//! is forwarded to the viewer's feed (`tui::live`), saved first with `--record`; the
//! skeleton the hello names (or `--skeleton`) is opened when the hello arrives, with its
//! size and hash compared to the game's.

use crate::attach::{Incoming, skeleton_differences};
use crate::cli::attach::AttachArgs;
use crate::cli::session_recording::skeleton_path;
use crate::cli::{CliError, load_file};
use crate::text::sanitize;
use crate::tui::live::{Feed, Live, Loader, Opened};
use std::io::Write;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, sync_channel};

/// Runs the viewer until the user quits; the exit status.
pub fn run(args: &AttachArgs) -> Result<u8, CliError> {
    let (incoming, base, waiting) = match &args.file {
        Some(file) => (
            crate::cli::attach::read_file(file, args.follow)?,
            file.clone(),
            sanitize(&file.display().to_string()).into_owned(),
        ),
        None => {
            let (server, token) = crate::cli::attach::listen(args)?;
            (
                server.events,
                PathBuf::from("."),
                format!("tcp://{} token {token}", server.addr),
            )
        }
    };
    let feed = forward(incoming, args.record.clone());
    let over = args.skeleton.clone();
    let loader: Loader = Box::new(move |h| {
        let path =
            skeleton_path(over.as_deref(), h.skeleton.path.as_deref(), &base).map_err(|e| e.0)?;
        let data = load_file(&path).map_err(|e| e.0)?;
        Ok(Opened {
            label: path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            data,
            warnings: skeleton_differences(&path, &h.skeleton),
        })
    });
    let preload = match &args.skeleton {
        Some(p) => Some(load_file(p)?),
        None => None,
    };
    let opts = crate::tui::live::run::options();
    let live = Live::new(feed, loader, waiting.clone());
    let app = crate::tui::live::waiting_app(
        format!("attach {waiting}"),
        preload,
        live,
        crate::tui::live::run::theme(&opts),
        opts.marker,
    )
    .map_err(CliError)?;
    crate::tui::live::run::run(app, &opts).map_err(CliError)
}

/// Forwards the stream to the viewer's feed, writing each client's lines to `record` first.
fn forward(incoming: Receiver<Incoming>, record: Option<PathBuf>) -> Receiver<Feed> {
    let (tx, rx) = sync_channel(crate::attach::CHANNEL_BOUND);
    std::thread::spawn(move || {
        let mut file: Option<std::io::BufWriter<std::fs::File>> = None;
        for ev in incoming {
            let feed = match ev {
                Incoming::Connected { peer, websocket } => {
                    if let Some(p) = &record {
                        file = match std::fs::File::create(p) {
                            Ok(f) => Some(std::io::BufWriter::new(f)),
                            Err(e) => {
                                let _ = tx.send(Feed::Problem(format!("--record: {e}")));
                                None
                            }
                        };
                    }
                    Feed::Connected { peer, websocket }
                }
                Incoming::Line { line, bytes } => {
                    if let Some(f) = file.as_mut() {
                        let _ = f
                            .write_all(&bytes)
                            .and_then(|()| f.write_all(b"\n"))
                            .and_then(|()| f.flush());
                    }
                    Feed::Line { line, bytes }
                }
                Incoming::Problem(m) => Feed::Problem(m),
                Incoming::Closed { reason } => {
                    if let Some(mut f) = file.take() {
                        let _ = f.flush();
                    }
                    Feed::Closed { reason }
                }
            };
            if tx.send(feed).is_err() {
                return;
            }
        }
    });
    rx
}
