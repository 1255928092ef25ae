//! Entering and leaving the terminal's full-screen mode, on every exit path: normal quit,
//! error, panic (hook) and SIGTERM. On SIGHUP the terminal is gone and nothing is written.

use crate::tui::backend::LeanBackend;
use crate::tui::theme::ColorMode;
use ratatui::Terminal;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::style::{Attribute, SetAttribute};
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{Stdout, Write, stdout};
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether mouse capture was turned on (so restore turns it off).
static MOUSE_ON: AtomicBool = AtomicBool::new(false);
/// Whether the terminal is in full-screen mode (restore is idempotent).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The terminal bonescope draws on.
pub type Term = Terminal<LeanBackend<Stdout>>;

/// Enters raw mode and the alternate screen, hides the cursor, optionally captures the mouse,
/// and installs a panic hook that restores the terminal before the panic message prints.
/// `color` and `ascii` say what the terminal gets ([`crate::tui::capabilities`]).
///
/// `probe` runs once raw mode is on and before anything makes crossterm read the input
/// (the first erase asks the cursor position, and crossterm queues every key it reads
/// meanwhile): the terminal query reads stdin itself, so the keys it sees are the first
/// typed and nothing typed later can overtake them.
pub fn enter<T>(
    mouse: bool,
    color: ColorMode,
    ascii: bool,
    probe: impl FnOnce() -> T,
) -> std::io::Result<(Term, T)> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        hook(info);
    }));
    reenter(mouse)?;
    let probed = probe();
    let mut term = Terminal::new(LeanBackend::new(stdout(), color, ascii))?;
    // Erase once so the backend knows every cell (blank) from the start.
    term.clear()?;
    Ok((term, probed))
}

/// Raw mode, alternate screen, hidden cursor and (optionally) mouse capture: entering, and
/// coming back after a suspend.
pub fn reenter(mouse: bool) -> std::io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = stdout();
    execute!(out, EnterAlternateScreen, Hide)?;
    if mouse {
        execute!(out, EnableMouseCapture)?;
        MOUSE_ON.store(true, Ordering::SeqCst);
    }
    Ok(())
}

/// Whether the mouse is captured now.
pub fn mouse_on() -> bool {
    MOUSE_ON.load(Ordering::SeqCst)
}

/// Leaves full-screen mode: mouse off, main screen, cursor shown, raw mode off. Safe to call
/// more than once; errors are ignored (the terminal may be gone).
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = stdout();
    if MOUSE_ON.swap(false, Ordering::SeqCst) {
        let _ = execute!(out, DisableMouseCapture);
    }
    // The backend leaves attributes set between frames: reset them before leaving.
    let _ = execute!(
        out,
        SetAttribute(Attribute::Reset),
        LeaveAlternateScreen,
        Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

/// Forgets the terminal without writing to it (after SIGHUP the pty is gone).
pub fn abandon() {
    ACTIVE.store(false, Ordering::SeqCst);
    MOUSE_ON.store(false, Ordering::SeqCst);
}
