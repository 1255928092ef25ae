//! `bonescope attach [--port N] [--bind ADDR] [--file REC [--follow] | -] [--record FILE]
//! [--skeleton FILE] [--json] [--clients N]`: receives a game's AnimationState calls and
//! callbacks (docs/ATTACH-PROTOCOL.md) over TCP / WebSocket (or from a recording) and
//! replays them live with bonescope's runtime, printing the verdicts: each divergence (and,
//! with `--json`, every frame) as it arrives. Exit 0 when nothing diverged, 1 when something
//! did, 2 on errors.

use crate::attach::{FollowRead, Incoming, Server, ServerOptions, feed_lines, new_token};
use crate::cli::session_recording::skeleton_path;
use crate::cli::{CliError, load_file};
use crate::session::recording::{FrameVerdict, Record, Replay, parse_line};
use crate::text::sanitize;
use serde_json::json;
use std::io::Write;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::Duration;

/// The default port.
pub const DEFAULT_PORT: u16 = 7357;

/// What `attach` was asked for: its flags.
#[derive(clap::Args, Debug, Clone)]
pub struct AttachArgs {
    /// The port (TCP and WebSocket on the same port).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on (default 127.0.0.1; another one only when asked).
    #[arg(long)]
    pub bind: Option<IpAddr>,
    /// Read a recording instead of listening (`-` = stdin).
    #[arg(long, value_name = "REC")]
    pub file: Option<PathBuf>,
    /// With --file: keep reading as the file grows (until its `bye`).
    #[arg(long, requires = "file")]
    pub follow: bool,
    /// Save the received stream (the current client's) to this file.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// The skeleton to replay on, whatever the hello names.
    #[arg(long)]
    pub skeleton: Option<PathBuf>,
    /// Print NDJSON: the listening address and token, a verdict per frame, one line per
    /// client.
    #[arg(long)]
    pub json: bool,
    /// Print the verdicts as lines even on a terminal (default there: the live viewer).
    #[arg(long)]
    pub headless: bool,
    /// Exit after this many clients.
    #[arg(long)]
    pub clients: Option<u64>,
}

/// Runs the command; the exit status.
pub fn run(args: &AttachArgs, ui: &dyn super::Interactive) -> Result<u8, CliError> {
    use std::io::IsTerminal;
    // On a terminal (and not asked for lines) the live viewer; pipes keep the lines.
    let stdin_feeds = args.file.as_deref() == Some(Path::new("-"));
    let viewer = !args.json
        && !args.headless
        && std::io::stdout().is_terminal()
        && (stdin_feeds || std::io::stdin().is_terminal());
    if viewer {
        return ui.attach(args);
    }
    let stdout = std::io::stdout();
    let mut out = std::io::LineWriter::new(stdout.lock());
    let (events, base) = match &args.file {
        Some(file) => (read_file(file, args.follow)?, file.clone()),
        None => {
            let (server, token) = listen(args)?;
            if args.json {
                write_line(
                    &mut out,
                    &json!({"listening": server.addr.to_string(), "token": token}),
                )?;
            }
            (server.events, PathBuf::from("."))
        }
    };
    consume(events, args, &base, &mut out)
}

/// Starts the server `args` ask for (loopback unless `--bind`) with a new token, and says
/// where and with what on stderr (before a viewer takes the screen, and for `2>file`).
pub(crate) fn listen(args: &AttachArgs) -> Result<(Server, String), CliError> {
    let bind = args.bind.unwrap_or(IpAddr::from([127, 0, 0, 1]));
    let token = new_token();
    let server = Server::start(ServerOptions {
        bind,
        port: args.port,
        token: token.clone(),
    })
    .map_err(|e| CliError(format!("listen on {bind}:{}: {e}", args.port)))?;
    if !bind.is_loopback() {
        eprintln!("bonescope: warning: listening on {bind}, reachable from other machines");
    }
    eprintln!(
        "bonescope attach: listening on tcp://{0} and ws://{0}/?token={token}\nbonescope attach: token {token}",
        server.addr
    );
    Ok((server, token))
}

pub(crate) fn read_file(file: &Path, follow: bool) -> Result<Receiver<Incoming>, CliError> {
    let (tx, rx) = sync_channel(crate::attach::CHANNEL_BOUND);
    let shown = sanitize(&file.display().to_string()).into_owned();
    let input: Box<dyn std::io::Read + Send> = if file == Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(file).map_err(|e| CliError(format!("{shown}: {e}")))?)
    };
    std::thread::spawn(move || {
        let input: Box<dyn std::io::Read> = if follow {
            Box::new(FollowRead {
                inner: input,
                poll: Duration::from_millis(100),
            })
        } else {
            input
        };
        let _ = tx.send(Incoming::Connected {
            peer: shown,
            websocket: false,
        });
        let reason = feed_lines(std::io::BufReader::new(input), &tx);
        let _ = tx.send(Incoming::Closed { reason });
    });
    Ok(rx)
}

fn write_line(out: &mut dyn Write, v: &serde_json::Value) -> Result<(), CliError> {
    crate::text::write_json(&mut *out, v)
        .and_then(|()| out.write_all(b"\n"))
        .map_err(|e| CliError(e.to_string()))
}

/// One client's replay.
struct Client {
    replay: Option<Replay>,
    frames: u64,
    diverged: Option<FrameVerdict>,
    record: Option<std::io::BufWriter<std::fs::File>>,
}

fn consume(
    events: Receiver<Incoming>,
    args: &AttachArgs,
    base: &Path,
    out: &mut dyn Write,
) -> Result<u8, CliError> {
    let mut status = 0u8;
    let mut served = 0u64;
    let mut client: Option<Client> = None;
    for ev in events {
        match ev {
            Incoming::Connected { peer, websocket } => {
                eprintln!(
                    "bonescope attach: {} connected{}",
                    sanitize(&peer),
                    if websocket { " (WebSocket)" } else { "" }
                );
                let record = match &args.record {
                    Some(p) => Some(std::io::BufWriter::new(
                        std::fs::File::create(p).map_err(|e| CliError(format!("--record: {e}")))?,
                    )),
                    None => None,
                };
                client = Some(Client {
                    replay: None,
                    frames: 0,
                    diverged: None,
                    record,
                });
            }
            Incoming::Problem(m) => eprintln!("bonescope attach: {}", sanitize(&m)),
            Incoming::Line { line, bytes } => {
                let Some(c) = client.as_mut() else { continue };
                if let Some(r) = c.record.as_mut() {
                    let _ = r.write_all(&bytes).and_then(|()| r.write_all(b"\n"));
                }
                let rec = match parse_line(line, &bytes) {
                    Ok(r) => r,
                    Err(e) => {
                        eprintln!("bonescope attach: {e}");
                        continue;
                    }
                };
                match rec {
                    Record::Hello(h) => {
                        if c.replay.is_some() {
                            eprintln!("bonescope attach: line {line}: a second hello (ignored)");
                            continue;
                        }
                        let path = skeleton_path(
                            args.skeleton.as_deref(),
                            h.skeleton.path.as_deref(),
                            base,
                        )?;
                        for w in crate::attach::skeleton_differences(&path, &h.skeleton) {
                            eprintln!("bonescope attach: warning: {w}");
                        }
                        let data = load_file(&path)?;
                        let replay = Replay::new(data, &h).map_err(|e| CliError(e.to_string()))?;
                        if let Some(n) = replay.runtime_note() {
                            eprintln!("bonescope attach: warning: {n}");
                        }
                        c.replay = Some(replay);
                    }
                    Record::Frame { frame, items } => {
                        let Some(replay) = c.replay.as_mut() else {
                            eprintln!("bonescope attach: line {line}: a frame before the hello");
                            continue;
                        };
                        let v = replay.frame(frame, &items);
                        c.frames += 1;
                        for n in &v.notes {
                            eprintln!(
                                "bonescope attach: line {line}: frame {frame}: {}",
                                sanitize(n)
                            );
                        }
                        if args.json {
                            write_line(out, &v.to_json())?;
                        }
                        if !v.same() && c.diverged.is_none() {
                            if !args.json {
                                let _ = writeln!(out, "DIVERGED {}", v.summary());
                                if let Some(d) = &v.divergence {
                                    for cause in &d.causes {
                                        let _ = writeln!(out, "  likely: {cause}");
                                    }
                                }
                            }
                            // Later frames follow from a different state: flag only the first.
                            replay.stop();
                            c.diverged = Some(v);
                            status = 1;
                        }
                    }
                    Record::Gap { dropped } => {
                        eprintln!(
                            "bonescope attach: line {line}: the game dropped {dropped} lines; not comparing past here"
                        );
                        if let Some(r) = c.replay.as_mut() {
                            r.stop();
                        }
                    }
                    Record::Bye { .. } => {}
                }
            }
            Incoming::Closed { reason } => {
                let Some(mut c) = client.take() else { continue };
                if let Some(r) = c.record.as_mut() {
                    let _ = r.flush();
                }
                served += 1;
                let verdict = if c.diverged.is_some() {
                    "differs"
                } else {
                    "same"
                };
                if args.json {
                    write_line(
                        out,
                        &json!({"client": {"frames": c.frames, "verdict": verdict,
                            "closed": sanitize(&reason)}}),
                    )?;
                } else {
                    let _ = writeln!(
                        out,
                        "client closed ({}): {} frames, {verdict}",
                        sanitize(&reason),
                        c.frames
                    );
                }
                if args.file.is_some() || args.clients.is_some_and(|n| served >= n) {
                    break;
                }
            }
        }
    }
    Ok(status)
}
