//! The viewer attached to a game (`bonescope attach` on a terminal): every record the game
//! sends is replayed (the verdict, `session::recording::Replay`) and what each frame ran
//! becomes an input of the viewer's recorded session ([`crate::session::Session::recorded`]),
//! so Tracks, the preview, Bones and Events follow the game and the user can pause, step and
//! scrub back while frames keep arriving; [`BACK_TO_LIVE`] returns to the newest frame.
//!
//! The feed is a bounded channel polled by the event loop: nothing here blocks, a malformed
//! record is a located message in the status line and the message log, never a crash.

mod follow;
pub mod run;

pub use follow::Follow;

use crate::core::model::SkeletonData;
use crate::session::recording::{Hello, Record, Replay, parse_line};
use crate::session::{Input, MAX_FRAMES, Session};
use crate::text::sanitize;
use crate::tui::app::{App, Overlay};
use crate::tui::views::message_log::Kind;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, TryRecvError};

/// What the network or a recording delivers, in order (`crate::attach::Incoming`, kept apart
/// so the viewer does not depend on the network feature).
#[derive(Debug, Clone, PartialEq)]
pub enum Feed {
    /// A client was accepted (or a recording opened).
    Connected { peer: String, websocket: bool },
    /// One line of the stream, with its number.
    Line { line: u64, bytes: Vec<u8> },
    /// A located problem with the stream.
    Problem(String),
    /// The client went away (or the recording ended).
    Closed { reason: String },
}

/// The skeleton a hello names, loaded.
pub struct Opened {
    /// What the status line calls it.
    pub label: String,
    pub data: Arc<SkeletonData>,
    /// Differences from the file the game loaded (size, hash), said as warnings.
    pub warnings: Vec<String>,
}

/// Opens the skeleton a hello names (the command line's `--skeleton` wins).
pub type Loader = Box<dyn Fn(&Hello) -> Result<Opened, String>>;

/// The key that returns to the newest frame and follows the stream again.
/// `.`, the viewer's "newest frame" key: attached, the newest frame is live (`L` stays the
/// preview's pan right).
pub const BACK_TO_LIVE: KeyCode = KeyCode::Char('.');

/// The most records handled per poll, so keys stay responsive under a flood.
const BATCH: usize = 512;

/// Where the connection is.
#[derive(Debug, Clone, PartialEq)]
pub enum Connection {
    /// No client yet: where the game should connect.
    Waiting(String),
    Connected(String),
    /// The client went away: why.
    Left(String),
}

/// The attached stream: its feed, the replay that judges it, and what the view follows.
pub struct Live {
    rx: Receiver<Feed>,
    loader: Loader,
    pub follow: Follow,
    pub connection: Connection,
    /// The game's runtime, from its hello (`spine-ts 4.2.119`).
    pub client: Option<String>,
    replay: Option<Replay>,
    /// Frames received from this client.
    pub frames: u64,
    /// The first divergence: its frame.
    pub diverged: Option<u64>,
    /// The session frame the last record went to.
    last: Option<u64>,
    /// The feed ended (its sender is gone).
    ended: bool,
}

impl Live {
    /// Attached to `rx`; `waiting` says where a game should connect.
    pub fn new(rx: Receiver<Feed>, loader: Loader, waiting: String) -> Live {
        Live {
            rx,
            loader,
            follow: Follow::default(),
            connection: Connection::Waiting(waiting),
            client: None,
            replay: None,
            frames: 0,
            diverged: None,
            last: None,
            ended: false,
        }
    }
}

/// An app showing nothing yet (no hello received), attached to `live`.
pub fn waiting_app(
    label: String,
    data: Option<Arc<SkeletonData>>,
    live: Live,
    theme: crate::tui::theme::Theme,
    marker: crate::tui::views::MarkerKind,
) -> Result<App, String> {
    let data = data.unwrap_or_else(|| Arc::new(SkeletonData::default()));
    let mut app = App::open(label, vec![data.clone()], theme, marker)?;
    app.session = Session::recorded(data, Vec::new()).map_err(|e| e.to_string())?;
    app.message = None;
    app.live = Some(Box::new(live));
    Ok(app)
}

/// Handles what arrived since the last call; true when something visible changed.
pub fn poll(app: &mut App) -> bool {
    let Some(mut live) = app.live.take() else {
        return false;
    };
    let mut changed = false;
    for _ in 0..BATCH {
        match live.rx.try_recv() {
            Ok(feed) => {
                handle(app, &mut live, feed);
                changed = true;
            }
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Disconnected) => {
                if !live.ended {
                    live.ended = true;
                    changed = true;
                }
                break;
            }
        }
    }
    // Playing from a paused frame reaches the stream: following again.
    if !live.follow.following() && app.playing && app.session.frame() >= live.follow.newest() {
        app.playing = false;
        live.follow.back_to_live();
        changed = true;
    }
    if app.session.frame() > live.follow.newest() {
        app.session.seek_frame(live.follow.newest());
        changed = true;
    }
    if live.follow.following() && app.session.frame() != live.follow.newest() {
        app.session.seek_frame(live.follow.newest());
        app.follow_playing();
        changed = true;
    }
    app.live = Some(live);
    changed
}

fn handle(app: &mut App, live: &mut Live, feed: Feed) {
    match feed {
        Feed::Connected { peer, websocket } => {
            let peer = format!(
                "{}{}",
                sanitize(&peer),
                if websocket { " (WebSocket)" } else { "" }
            );
            live.connection = Connection::Connected(peer.clone());
            live.replay = None;
            live.client = None;
            live.frames = 0;
            live.diverged = None;
            live.last = None;
            live.follow.restart();
            app.note(format!("{peer} connected"));
        }
        Feed::Problem(m) => app.error(sanitize(&m).into_owned()),
        Feed::Closed { reason } => {
            let reason = sanitize(&reason).into_owned();
            if live.replay.is_some() {
                let at = live.last.unwrap_or(0);
                app.session
                    .append_frame(at, vec![Input::Marker(format!("client left ({reason})"))]);
            }
            app.note(format!("client left ({reason})"));
            live.connection = Connection::Left(reason);
        }
        Feed::Line { line, bytes } => match parse_line(line, &bytes) {
            Err(e) => app.error(e.to_string()),
            Ok(Record::Hello(h)) => hello(app, live, line, &h),
            Ok(Record::Frame { frame, items }) => {
                let Some(replay) = live.replay.as_mut() else {
                    app.error(format!("line {line}: a frame before the hello"));
                    return;
                };
                let v = replay.frame(frame, &items);
                let mut inputs = replay.take_inputs();
                live.frames += 1;
                // Frame numbers only go forward in the session: a late one joins the last.
                let at = live.last.map_or(frame, |l| frame.max(l));
                if at > MAX_FRAMES {
                    if live.last != Some(MAX_FRAMES) {
                        app.error(format!(
                            "line {line}: frame {frame} is past the viewer's {MAX_FRAMES} frames; not shown"
                        ));
                        live.last = Some(MAX_FRAMES);
                    }
                    return;
                }
                for n in &v.notes {
                    app.messages.push(
                        Kind::Warning,
                        &format!("line {line}: frame {frame}: {}", sanitize(n)),
                        at,
                    );
                }
                if !v.same() && live.diverged.is_none() {
                    let mut text = format!("DIVERGED {}", v.summary());
                    if let Some(d) = &v.divergence {
                        for c in &d.causes {
                            text.push_str(&format!("; likely: {c}"));
                        }
                    }
                    inputs.push(Input::Marker(text.clone()));
                    live.diverged = Some(frame);
                    // Later frames follow from a different state: flag only the first.
                    replay.stop();
                    app.error(text);
                }
                app.session.append_frame(at, inputs);
                live.last = Some(at);
                if let Some(f) = live.follow.arrived(at) {
                    app.session.seek_frame(f);
                    app.follow_playing();
                }
            }
            Ok(Record::Gap { dropped }) => {
                if let Some(r) = live.replay.as_mut() {
                    r.stop();
                }
                let text = format!(
                    "line {line}: the game dropped {dropped} lines; not comparing past here"
                );
                let at = live.last.unwrap_or(0);
                app.session
                    .append_frame(at, vec![Input::Marker(text.clone())]);
                app.error(text);
            }
            Ok(Record::Bye { .. }) => {}
        },
    }
}

/// A hello: opens the skeleton it names and starts the session and the replay over.
fn hello(app: &mut App, live: &mut Live, line: u64, h: &Hello) {
    if live.replay.is_some() {
        app.error(format!("line {line}: a second hello (ignored)"));
        return;
    }
    let opened = match (live.loader)(h) {
        Ok(o) => o,
        Err(e) => {
            app.error(format!("line {line}: {}", sanitize(&e)));
            return;
        }
    };
    let replay = match Replay::new(opened.data.clone(), h) {
        Ok(r) => r,
        Err(e) => {
            app.error(format!("line {line}: {e}"));
            return;
        }
    };
    let skins = h.skins.clone().unwrap_or_default();
    let session = match Session::recorded(opened.data.clone(), skins) {
        Ok(s) => s,
        Err(e) => {
            app.error(format!("line {line}: {e}"));
            return;
        }
    };
    let mut fresh = match App::open(
        opened.label.clone(),
        vec![opened.data.clone()],
        app.theme.clone(),
        app.marker,
    ) {
        Ok(a) => a,
        Err(e) => {
            app.error(e);
            return;
        }
    };
    fresh.session = session;
    fresh.select_animation(None);
    fresh.layout = app.layout.clone();
    fresh.may_write = app.may_write;
    fresh.messages = std::mem::take(&mut app.messages);
    fresh.history = std::mem::take(&mut app.history);
    fresh.message = None;
    *app = fresh;
    let client = if h.runtime.name.is_empty() && h.runtime.version.is_empty() {
        "a game".to_string()
    } else {
        format!(
            "{} {}",
            sanitize(&h.runtime.name),
            sanitize(&h.runtime.version)
        )
    };
    let mut markers = vec![Input::Marker(format!("attached: {client}"))];
    let mut warnings: Vec<String> = opened
        .warnings
        .iter()
        .map(|w| sanitize(w).into_owned())
        .collect();
    if let Some(n) = replay.runtime_note() {
        warnings.push(n.to_string());
    }
    for w in &warnings {
        markers.push(Input::Marker(format!("warning: {w}")));
        app.messages
            .push(Kind::Warning, &format!("warning: {w}"), 0);
    }
    app.session.append_frame(0, markers);
    match warnings.first() {
        Some(w) => app.message = Some((format!("warning: {w}"), true)),
        None => app.note(format!("{client} attached")),
    }
    live.client = Some(client);
    live.replay = Some(replay);
}

/// Keys the attached viewer handles itself (`None`: the viewer's usual handling).
pub fn key(app: &mut App, key: KeyEvent) -> Option<bool> {
    if app.live.is_none() || !matches!(app.overlay, Overlay::None) || app.search.typing() {
        return None;
    }
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return None;
    }
    match key.code {
        c if c == BACK_TO_LIVE => {
            app.flush_seek();
            app.playing = false;
            let live = app.live.as_mut()?;
            let f = live.follow.back_to_live();
            app.session.seek_frame(f);
            app.follow_playing();
            Some(true)
        }
        KeyCode::Char(' ') => {
            app.flush_seek();
            let frame = app.session.frame();
            let live = app.live.as_mut()?;
            if live.follow.following() {
                live.follow.pause();
            } else if frame >= live.follow.newest() {
                live.follow.back_to_live();
            } else {
                // Plays the received frames; reaching the newest follows again.
                app.playing = !app.playing;
            }
            Some(true)
        }
        // These rewrite the session's inputs; the game's calls are its inputs here.
        KeyCode::Char(c @ ('a' | 'l' | 's' | 'p' | 'R' | 'A')) => {
            let what = match c {
                'a' => "a (set an animation)",
                'l' => "l (loop)",
                's' => "s (skins)",
                'p' => "p (physics mode)",
                'R' => "R (physics reset)",
                _ => "A (another armature)",
            };
            app.error(off_while_attached(what));
            Some(true)
        }
        _ => None,
    }
}

/// Why a key or prompt line that rewrites the session is refused while attached.
fn off_while_attached(what: &str) -> String {
    format!(
        "{what} is off while attached: the game's calls are the session's inputs \
         (moves, views and . back to live work)"
    )
}

/// Refuses, while attached, a prompt line that would rewrite the session: animation
/// commands and skin changes (moves, the loop range, view verbs and `save` run).
pub fn check_line(app: &App, line: &str) -> Result<(), String> {
    use crate::session::language::{PromptLine, ViewerCommand, parse};
    if app.live.is_none() {
        return Ok(());
    }
    match parse(line, app.session.data()) {
        Ok(PromptLine::Animation(_)) => {
            let verb = line.split_whitespace().next().unwrap_or_default();
            Err(off_while_attached(&format!(
                "\"{}\"",
                sanitize(verb.trim_start_matches(':'))
            )))
        }
        Ok(PromptLine::Viewer(ViewerCommand::Skin(Some(_)))) => {
            Err(off_while_attached("changing skins"))
        }
        // Everything else runs (a malformed line says why when it runs).
        _ => Ok(()),
    }
}

/// After a key the viewer handled: a move away from the newest frame pauses; the view never
/// goes past it.
pub fn after_key(app: &mut App) {
    let target = app.target_frame();
    let Some(live) = app.live.as_mut() else {
        return;
    };
    let to = live.follow.moved(target);
    if to != target {
        app.go_to_frame(to);
    }
}

/// The status line's attached segments (priority, text), first the play state's place.
pub fn segments(app: &App) -> Option<Vec<(u8, String)>> {
    let live = app.live.as_ref()?;
    let mut segs = Vec::new();
    match (&live.connection, live.client.is_some()) {
        (Connection::Waiting(at), false) => segs.push((0, format!("waiting for a game on {at}"))),
        (Connection::Connected(peer), false) => {
            segs.push((0, format!("{peer} connected, waiting for its hello")))
        }
        _ => segs.push((0, live.follow.label(app.session.frame()))),
    }
    // The client and its verdict: one segment, kept as long as the play state.
    if let Some(c) = &live.client {
        let verdict = match live.diverged {
            Some(f) => format!("DIVERGED at frame {f}"),
            None => "same".to_string(),
        };
        segs.push((
            1,
            match &live.connection {
                Connection::Left(why) => format!("{c} left ({why}), {verdict}"),
                _ => format!("{c} {verdict}"),
            },
        ));
    }
    Some(segs)
}

#[cfg(test)]
mod tests;
