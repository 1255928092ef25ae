//! The main loop: input from a reader thread, signals, playback ticks; draws only when
//! something changed, at most `fps` times a second while playing, and sleeps while paused.

use crate::tui::app::{App, Overlay};
use crate::tui::busy::{self, Busy};
use crate::tui::images::pictures::{After, Pictures};
use crate::tui::process::{self, Request};
use crate::tui::render;
use crate::tui::terminal::{self, Term};
use ratatui::crossterm::event::{self, Event, KeyEventKind};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Messages into the loop.
enum Msg {
    Input(Event),
    Reload(Box<crate::watch::ReloadEvent>),
    /// The terminal's input failed (closed or hung up).
    InputGone,
}

/// How often the loop wakes while paused (to notice signals).
const IDLE_WAKE: Duration = Duration::from_millis(250);

pub use crate::tui::process::Exit;

/// Runs until quit. `fps` caps redraws while playing; `pictures` sends the Preview panel's
/// picture after each frame (the caller takes it away at exit).
/// Runs the viewer on the terminal [`terminal::enter`] set up, then leaves it as the way
/// it ended requires (pictures deleted, modes restored); the exit status.
pub fn run_to_exit(
    mut term: Term,
    app: &mut App,
    fps: u32,
    reloader: Option<crate::watch::Reloader>,
    pictures: &mut Pictures,
) -> Result<u8, String> {
    let exit = match run(&mut term, app, fps, reloader, pictures) {
        Ok(exit) if exit != Exit::HungUp => {
            // Kitty images outlive the program otherwise.
            let _ = pictures.clear(term.backend_mut());
            exit
        }
        Ok(exit) => exit,
        // The terminal went away under a write: a hang-up.
        Err(e) if process::terminal_gone(&e) => Exit::HungUp,
        Err(e) => {
            terminal::restore();
            return Err(format!("terminal error: {e}"));
        }
    };
    finish(&exit);
    if exit == Exit::HungUp {
        // Dropping the terminal would show the cursor on the dead pty (and report failing).
        std::mem::forget(term);
    }
    Ok(exit.status())
}

pub fn run(
    term: &mut Term,
    app: &mut App,
    fps: u32,
    reloader: Option<crate::watch::Reloader>,
    pictures: &mut Pictures,
) -> std::io::Result<Exit> {
    let signals = process::Signals::register()?;

    let (tx, rx) = mpsc::channel::<Msg>();
    // Keys typed while the terminal was asked about pictures come first, in order: nothing
    // read the input before that query ([`terminal::enter`]).
    for ev in crate::tui::typed_keys::events(&std::mem::take(&mut pictures.typed)) {
        let _ = tx.send(Msg::Input(ev));
    }
    let reload_tx = tx.clone();
    std::thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            loop {
                match event::read() {
                    Ok(ev) => {
                        if tx.send(Msg::Input(ev)).is_err() {
                            return;
                        }
                    }
                    Err(_) => {
                        let _ = tx.send(Msg::InputGone);
                        return;
                    }
                }
            }
        })?;

    let selector = reloader.as_ref().map(|r| r.selector());
    let mut shown = app.doc.data.clone();
    // The app may already show another skeleton than the watcher started with (a waited-for
    // file that appeared just before the watcher started).
    if let Some(s) = &selector {
        s.select(shown.clone());
    }
    if let Some(reloader) = reloader {
        let tx = reload_tx;
        std::thread::Builder::new()
            .name("reload-forward".into())
            .spawn(move || {
                while let Ok(ev) = reloader.events().recv() {
                    if tx.send(Msg::Reload(Box::new(ev))).is_err() {
                        return;
                    }
                }
            })?;
    }

    let frame_time = Duration::from_secs_f64(1.0 / fps.clamp(1, 240) as f64);
    let mut dirty = true;
    let mut last_tick = Instant::now();
    let mut last_draw = Instant::now() - frame_time;
    let mut busy = Busy::default();
    loop {
        // Set on every turn: a reload or another armature brings a new session.
        app.session.set_slice(Some(busy::SEEK_SLICE));
        // Inputs held back during a long seek, in order, once it is done.
        while let Some(ev) = busy.next_held(app) {
            dirty |= handle_event(app, ev);
            app.flush_seek();
        }
        match signals.take() {
            Some(Request::End(exit)) => return Ok(exit),
            Some(Request::Suspend) => {
                pictures.clear(term.backend_mut())?;
                process::suspend(term)?;
                dirty = true;
            }
            Some(Request::Redraw) => {
                pictures.clear(term.backend_mut())?;
                process::full_redraw(term)?;
                dirty = true;
            }
            None => {}
        }
        if dirty && last_draw.elapsed() >= frame_time {
            let drawn = draw(term, app, pictures);
            if let Err(e) = &drawn {
                // A write to a hung-up terminal fails: that is the hang-up, not an error.
                if signals.hung_up() || process::terminal_gone(e) || !process::terminal_alive() {
                    return Ok(Exit::HungUp);
                }
            }
            last_draw = Instant::now();
            // A changed picture held back by its frame-rate cap goes out with a later frame.
            dirty = drawn?;
        }
        let wait = if app.session.pending().is_some() {
            // A long seek continues right after a look at the input.
            Duration::from_millis(1)
        } else if app.playing || dirty || app.live.is_some() {
            frame_time
                .saturating_sub(last_draw.elapsed())
                .max(Duration::from_millis(1))
        } else {
            IDLE_WAKE
        };
        match rx.recv_timeout(wait) {
            Ok(Msg::Reload(ev)) => {
                apply_reload(app, *ev);
                reload_textures(app, pictures);
                dirty = true;
            }
            Ok(Msg::Input(ev)) if process::is_suspend_key(&ev) => {
                pictures.clear(term.backend_mut())?;
                process::suspend(term)?;
                dirty = true;
            }
            Ok(Msg::Input(ev)) if process::is_redraw_key(&ev) => {
                pictures.clear(term.backend_mut())?;
                process::full_redraw(term)?;
                dirty = true;
            }
            Ok(Msg::Input(ev)) => {
                // Frame moves in this batch replay once, at its end.
                app.defer_seeks = true;
                dirty |= input(app, &mut busy, ev);
                // Drain what else is queued before drawing (key repeat, paste).
                while let Ok(msg) = rx.try_recv() {
                    match msg {
                        Msg::Input(ev) if process::is_suspend_key(&ev) => {
                            pictures.clear(term.backend_mut())?;
                            process::suspend(term)?;
                            dirty = true;
                        }
                        Msg::Input(ev) if process::is_redraw_key(&ev) => {
                            pictures.clear(term.backend_mut())?;
                            process::full_redraw(term)?;
                            dirty = true;
                        }
                        Msg::Input(ev) => dirty |= input(app, &mut busy, ev),
                        Msg::Reload(ev) => {
                            apply_reload(app, *ev);
                            reload_textures(app, pictures);
                            dirty = true;
                        }
                        Msg::InputGone => return Ok(Exit::HungUp),
                    }
                }
                app.defer_seeks = false;
                app.flush_seek();
            }
            Ok(Msg::InputGone) => return Ok(Exit::HungUp),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return Ok(Exit::HungUp),
        }
        if app.quit {
            return Ok(Exit::Quit);
        }
        // The user picked another armature: later reloads follow it.
        if !Arc::ptr_eq(&shown, &app.doc.data) {
            shown = app.doc.data.clone();
            if let Some(s) = &selector {
                s.select(shown.clone());
            }
        }
        let now = Instant::now();
        if pictures.textures.changed(now) {
            reload_textures(app, pictures);
            dirty = true;
        }
        let elapsed = now.duration_since(last_tick).as_secs_f64();
        last_tick = now;
        if app.tick(elapsed.min(0.25)) {
            dirty = true;
        }
        if busy.work(app) {
            dirty = true;
        }
        // Attached to a game: what it sent since.
        dirty |= crate::tui::live::poll(app);
    }
}

/// An input while a seek may be unfinished: quit, cancel and hold then, else handled.
fn input(app: &mut App, busy: &mut Busy, ev: Event) -> bool {
    if app.session.pending().is_some() {
        busy.take(app, ev)
    } else {
        handle_event(app, ev)
    }
}

/// Looks the textures of the shown export up again and loads them (after a reload of the
/// skeleton, or when the atlas or a page changed), with their messages in the log.
pub fn reload_textures(app: &mut App, pictures: &mut Pictures) {
    let Some(path) = app.source.clone() else {
        return;
    };
    if app.waiting.is_some() {
        return;
    }
    let (textures, notes) = pictures.textures.load(&path, &app.doc.data);
    app.panels.preview.textures = textures;
    let frame = app.session.frame();
    for n in notes {
        app.messages
            .push(crate::tui::views::message_log::Kind::Warning, &n, frame);
    }
    note_picture_fallback(app, pictures);
}

/// Logs why pictures fell back to cells, the first time the preview has textures to show
/// (into the log only: the status line keeps its help hint, pictures being a choice).
pub fn note_picture_fallback(app: &mut App, pictures: &mut Pictures) {
    if app.panels.preview.textures.is_none() {
        return;
    }
    if let Some(note) = pictures.take_fallback_note() {
        let frame = app.session.frame();
        app.messages
            .push(crate::tui::views::message_log::Kind::Note, &note, frame);
    }
}

fn apply_reload(app: &mut App, ev: crate::watch::ReloadEvent) {
    use crate::watch::ReloadEvent;
    match ev {
        ReloadEvent::Loaded { armatures, .. } if app.waiting.is_some() => {
            crate::tui::waiting::arrived(app, armatures)
        }
        ReloadEvent::Loaded {
            data,
            armatures,
            diff,
            ..
        } => {
            app.armatures = armatures;
            app.reload(data, &diff);
        }
        ReloadEvent::Failed { error } => app.reload_failed(&error.to_string()),
        ReloadEvent::Missing if app.waiting.is_some() => {}
        ReloadEvent::Missing => app.reload_failed("the file is gone; waiting for it to come back"),
        ReloadEvent::WatchError { error } => {
            app.note(format!("watcher: {}", crate::text::sanitize(&error)))
        }
        ReloadEvent::Rewatched { message } => app.note(format!("watcher: {message}")),
    }
}

fn handle_event(app: &mut App, ev: Event) -> bool {
    if app.waiting.is_some() {
        return crate::tui::waiting::handle_event(app, &ev);
    }
    match ev {
        Event::Key(k) if k.kind == KeyEventKind::Press => app.handle_key(k),
        Event::Resize(_, _) => true,
        Event::Mouse(m) => app.handle_mouse(m),
        _ => false,
    }
}

/// One frame (the backend wraps large ones in a synchronized update so slow links never
/// show half a frame), then the Preview panel's picture. Returns whether a changed picture
/// waits for its frame-rate cap (draw again soon).
fn draw(term: &mut Term, app: &mut App, pictures: &mut Pictures) -> std::io::Result<bool> {
    // The ASCII marker (`M`) makes the whole screen ASCII: repaint it all when that changes.
    let ascii = app.theme.ascii(app.marker);
    if term.backend().ascii() != ascii {
        term.backend_mut().set_ascii(ascii);
        term.clear()?;
    }
    term.draw(|f| render::draw(f, app))?;
    match pictures.after_draw(term.backend_mut(), wanted_picture(app), PICTURE_BACKGROUND)? {
        After::Done => Ok(false),
        After::Retry(_) => Ok(true),
        After::Repaint => {
            // An old sixel or iTerm2 picture is in the cells: repaint them all, then send.
            process::full_redraw(term)?;
            term.draw(|f| render::draw(f, app))?;
            let after =
                pictures.after_draw(term.backend_mut(), wanted_picture(app), PICTURE_BACKGROUND)?;
            Ok(after != After::Done)
        }
    }
}

/// What pictures without transparency (sixel) are composited over.
const PICTURE_BACKGROUND: [u8; 3] = [0, 0, 0];

/// The picture the frame drew, unless something covers the Preview panel (help, pickers,
/// logs: a picture would sit on top of them).
fn wanted_picture(
    app: &mut App,
) -> Option<(crate::tui::images::Rgba, crate::tui::images::Placement)> {
    let picture = app.panels.preview.picture.take();
    let covered = !matches!(app.overlay, Overlay::None | Overlay::Prompt(_));
    picture.filter(|_| !covered && app.waiting.is_none())
}

/// Restores the terminal as `exit` demands.
pub fn finish(exit: &Exit) {
    match exit {
        // `kill -HUP` with the terminal still open: it must not stay in full-screen mode.
        Exit::HungUp if process::terminal_alive() => terminal::restore(),
        Exit::HungUp => terminal::abandon(),
        Exit::Quit | Exit::Terminated | Exit::Interrupted | Exit::Signal(_) => terminal::restore(),
    }
}
