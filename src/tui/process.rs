//! Process manners: which signals end the viewer and with what exit status, suspending to the
//! shell (Ctrl+Z or SIGTSTP) with the terminal handed back in its normal state, and coming back
//! (`fg`, SIGCONT) with a full redraw.
//!
//! After SIGHUP the terminal is usually gone: the viewer leaves without writing a byte to it
//! and exits 129 (128 + the signal), as shells report a hung-up job. A SIGHUP sent while the
//! terminal is still there (`kill -HUP`) restores it first, as every other signal that ends
//! the viewer does (SIGINT, SIGTERM, SIGQUIT, SIGUSR1/2, SIGALRM, ...: [`ENDING`]).

use crate::tui::terminal::{self, Term};
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use signal_hook::consts::{SIGCONT, SIGHUP, SIGINT, SIGTERM, SIGTSTP};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The other signals whose default action ends the process and that can be caught without
/// `unsafe` code: they restore the terminal and exit 128 + the signal. (Faults such as SIGSEGV
/// cannot be handled by a flag; SIGPIPE is ignored by the Rust runtime; SIGKILL cannot be
/// caught.)
pub const ENDING: &[i32] = &[
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGVTALRM,
    libc::SIGPROF,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGPWR,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGSTKFLT,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGIO,
];

/// Why the viewer ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    Quit,
    /// SIGTERM: restore the terminal and exit.
    Terminated,
    /// SIGINT (from outside: Ctrl+C in the viewer is a key and quits): restore and exit.
    Interrupted,
    /// SIGHUP or the input died: exit without touching a terminal that is gone (one that is
    /// still there is restored).
    HungUp,
    /// Another signal of [`ENDING`] (SIGQUIT, ...): restore and exit.
    Signal(i32),
}

impl Exit {
    /// The process exit status: 0 for a quit, 128 + the signal number otherwise (what a shell
    /// reports for a job the signal ended).
    pub fn status(self) -> u8 {
        match self {
            Exit::Quit => 0,
            Exit::HungUp => 128 + SIGHUP as u8,
            Exit::Interrupted => 128 + SIGINT as u8,
            Exit::Terminated => 128 + SIGTERM as u8,
            Exit::Signal(n) => 128u8.saturating_add(u8::try_from(n).unwrap_or(127)),
        }
    }
}

/// What a signal asks of the main loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    End(Exit),
    /// SIGTSTP: suspend as Ctrl+Z does.
    Suspend,
    /// SIGCONT: the process was stopped and continued; redraw everything.
    Redraw,
}

/// Flags set by the signal handlers, read by the main loop.
pub struct Signals {
    hangup: Arc<AtomicBool>,
    terminate: Arc<AtomicBool>,
    interrupt: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    cont: Arc<AtomicBool>,
    /// The number of the last [`ENDING`] signal received (0: none).
    ending: Arc<AtomicUsize>,
}

impl Signals {
    /// Installs the handlers (they only set flags).
    pub fn register() -> std::io::Result<Signals> {
        let flag = |sig| -> std::io::Result<Arc<AtomicBool>> {
            let f = Arc::new(AtomicBool::new(false));
            signal_hook::flag::register(sig, f.clone())?;
            Ok(f)
        };
        let ending = Arc::new(AtomicUsize::new(0));
        for &sig in ENDING {
            signal_hook::flag::register_usize(sig, ending.clone(), sig as usize)?;
        }
        Ok(Signals {
            hangup: flag(SIGHUP)?,
            terminate: flag(SIGTERM)?,
            interrupt: flag(SIGINT)?,
            stop: flag(SIGTSTP)?,
            cont: flag(SIGCONT)?,
            ending,
        })
    }

    /// The most urgent pending request (hang-up first: nothing may be drawn after it).
    /// A terminal that closed without a SIGHUP reaching the viewer (the shell ignored it and
    /// stays) counts as one: the input reader never reports it.
    pub fn take(&self) -> Option<Request> {
        if self.hung_up() || !terminal_alive() {
            return Some(Request::End(Exit::HungUp));
        }
        if self.terminate.load(Ordering::SeqCst) {
            return Some(Request::End(Exit::Terminated));
        }
        if self.interrupt.load(Ordering::SeqCst) {
            return Some(Request::End(Exit::Interrupted));
        }
        match self.ending.load(Ordering::SeqCst) {
            0 => {}
            n => return Some(Request::End(Exit::Signal(n as i32))),
        }
        if self.stop.swap(false, Ordering::SeqCst) {
            return Some(Request::Suspend);
        }
        if self.cont.swap(false, Ordering::SeqCst) {
            return Some(Request::Redraw);
        }
        None
    }

    /// Whether SIGHUP arrived.
    pub fn hung_up(&self) -> bool {
        self.hangup.load(Ordering::SeqCst)
    }
}

/// Whether `ev` is Ctrl+L: repaint the whole screen, whatever the backend believes it shows.
pub fn is_redraw_key(ev: &Event) -> bool {
    matches!(
        ev,
        Event::Key(KeyEvent {
            code: KeyCode::Char('l' | 'L'),
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) if modifiers.contains(KeyModifiers::CONTROL)
    )
}

/// Whether `ev` is Ctrl+Z (in raw mode the terminal sends it as a key, not as SIGTSTP).
pub fn is_suspend_key(ev: &Event) -> bool {
    matches!(
        ev,
        Event::Key(KeyEvent {
            code: KeyCode::Char('z' | 'Z'),
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) if modifiers.contains(KeyModifiers::CONTROL)
    )
}

/// Hands the terminal back to the shell (mouse capture off, main screen, cursor shown, raw
/// mode off) and stops the process as a cooked terminal's Ctrl+Z would. Returns once the
/// shell continues it (`fg`), with full-screen mode back and the screen cleared, so the next
/// draw repaints every cell.
pub fn suspend(term: &mut Term) -> std::io::Result<()> {
    let mouse = terminal::mouse_on();
    terminal::restore();
    // The default action of SIGTSTP (stop), though a handler is installed for it.
    signal_hook::low_level::emulate_default_handler(SIGTSTP)?;
    terminal::reenter(mouse)?;
    full_redraw(term)
}

/// Clears the screen and forgets what is on it, so the next draw repaints every cell.
/// (`Terminal::clear` would ask the terminal for the cursor position, whose answer the input
/// thread takes: it times out.)
pub fn full_redraw<W: std::io::Write>(
    term: &mut ratatui::Terminal<crate::tui::backend::LeanBackend<W>>,
) -> std::io::Result<()> {
    // The shell drew on the screen and moved the cursor meanwhile.
    term.backend_mut().forget();
    let size = term.size()?;
    term.resize(ratatui::layout::Rect::new(0, 0, size.width, size.height))
}

/// Whether stdout is still a terminal: a hung-up terminal answers no (one ioctl).
pub fn terminal_alive() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal()
}

/// Whether an I/O error means the terminal is gone (its pty closed).
pub fn terminal_gone(e: &std::io::Error) -> bool {
    e.raw_os_error() == Some(libc::EIO) || e.kind() == std::io::ErrorKind::BrokenPipe
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_128_plus_the_signal() {
        assert_eq!(Exit::Quit.status(), 0);
        assert_eq!(Exit::HungUp.status(), 129);
        assert_eq!(Exit::Interrupted.status(), 130);
        assert_eq!(Exit::Terminated.status(), 143);
        assert_eq!(Exit::Signal(libc::SIGQUIT).status(), 131);
    }

    #[test]
    fn ending_signals_are_flagged_not_fatal() {
        let signals = Signals::register().expect("handlers");
        // Without a handler SIGUSR2 would end this test process.
        signal_hook::low_level::raise(libc::SIGUSR2).expect("raise");
        assert_eq!(
            signals.ending.load(Ordering::SeqCst),
            libc::SIGUSR2 as usize
        );
    }

    #[test]
    fn ctrl_z_is_the_suspend_key() {
        let ctrl_z = Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::CONTROL));
        assert!(is_suspend_key(&ctrl_z));
        let z = Event::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::NONE));
        assert!(!is_suspend_key(&z), "z zooms the preview");
    }

    #[test]
    fn ctrl_l_is_the_redraw_key() {
        let ctrl_l = Event::Key(KeyEvent::new(KeyCode::Char('l'), KeyModifiers::CONTROL));
        assert!(is_redraw_key(&ctrl_l));
        let l = Event::Key(KeyEvent::new(KeyCode::Char('l'), KeyModifiers::NONE));
        assert!(!is_redraw_key(&l), "l toggles the loop");
    }
}
