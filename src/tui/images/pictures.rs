//! The viewer's pictures at run time: deciding the protocol at start-up, sending the Preview
//! panel's picture after each drawn frame, and taking it away again (exit, suspend, Ctrl+L,
//! an overlay over the panel, the panel hidden or moved).

use super::detect::{self, Env, Replies};
use super::sender::{Send, Sender};
use super::{Placement, Protocol, Rgba};
use crate::tui::backend::LeanBackend;
use std::io::Write;
use std::time::{Duration, Instant};

/// Pictures a second at most unless `BONESCOPE_IMAGE_FPS` says otherwise (and never more
/// than the viewer's `--fps`).
pub const DEFAULT_FPS: u32 = 30;

/// What the Preview panel needs to know to draw pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    pub protocol: Protocol,
    /// One cell in pixels (width, height); a guess of 8x16 when the terminal did not say.
    pub cell_px: (u16, u16),
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            protocol: Protocol::Off,
            cell_px: (8, 16),
        }
    }
}

/// The picture state of a running viewer.
#[derive(Debug)]
pub struct Pictures {
    pub setup: Setup,
    /// The textures pictures are drawn with, watched for changes.
    pub textures: super::textures::TextureSource,
    sender: Sender,
    /// Where the picture is on screen now (cell protocols need a repaint when it moves).
    at: Option<Placement>,
    /// Bytes the user typed while the terminal was being asked (the event loop turns them
    /// into keys before its first poll).
    pub typed: Vec<u8>,
    /// Why pictures fell back to cells (tmux blocks them), held until there is a picture to
    /// show: a skeleton without textures draws a wireframe, and the note would only puzzle.
    fallback_note: Option<String>,
}

/// What [`Pictures::after_draw`] asks of the event loop.
#[derive(Debug, PartialEq, Eq)]
pub enum After {
    Done,
    /// The picture changed but waits for the frame-rate cap: draw again after this long.
    Retry(Duration),
    /// Cells under an old sixel or iTerm2 picture must be repainted: redraw everything.
    Repaint,
}

impl Pictures {
    /// Pictures by `protocol` (tests, off-screen use).
    pub fn new(setup: Setup, fps: u32, tmux: bool) -> Pictures {
        Pictures {
            setup,
            textures: Default::default(),
            sender: Sender::new(setup.protocol, fps, tmux),
            at: None,
            typed: Vec::new(),
            fallback_note: None,
        }
    }

    /// Decides the protocol for the terminal on stdin/stdout (raw mode on): the
    /// `BONESCOPE_IMAGES` override, else the terminal's answers ([`detect`]). `colours`:
    /// the screen shows colours (else half blocks are no use). `fps`: the viewer's cap.
    /// Returns a note for the log when something is worth saying now (a bad override); why
    /// pictures fell back to cells waits for [`Self::take_fallback_note`].
    pub fn start(colours: bool, fps: u32) -> (Pictures, Option<String>) {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let mut notes = Vec::new();
        let override_ = match var("BONESCOPE_IMAGES").map(|v| Protocol::parse_override(&v)) {
            Some(Ok(p)) => p,
            Some(Err(e)) => {
                notes.push(e);
                None
            }
            None => None,
        };
        let in_tmux = super::tmux::inside(var);
        let tmux_passthrough = if in_tmux {
            super::tmux::query_passthrough()
        } else {
            None
        };
        let ask = override_.is_none_or(Protocol::is_graphics);
        #[cfg(unix)]
        let replies = if ask {
            detect::probe(detect::WAIT, in_tmux && tmux_passthrough == Some(true))
                .unwrap_or_default()
        } else {
            Replies::default()
        };
        #[cfg(not(unix))]
        let replies = Replies::default();
        let env = Env {
            override_,
            term_program: var("TERM_PROGRAM"),
            in_tmux,
            tmux_passthrough,
            colours,
        };
        let (mut protocol, mut fallback_note) = detect::choose(&replies, &env);
        // tmux draws sixel itself (3.4+ built with it): that needs no passthrough.
        if in_tmux
            && protocol == Protocol::HalfBlock
            && override_.is_none()
            && replies.da1.as_ref().is_some_and(|a| a.contains(&4))
        {
            protocol = Protocol::Sixel;
            fallback_note = None;
        }
        #[cfg(unix)]
        let cell_px = replies
            .cell_pixels
            .or_else(detect::cell_pixels_from_winsize)
            .unwrap_or(Setup::default().cell_px);
        #[cfg(not(unix))]
        let cell_px = replies.cell_pixels.unwrap_or(Setup::default().cell_px);
        let image_fps = var("BONESCOPE_IMAGE_FPS")
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(DEFAULT_FPS)
            .clamp(1, fps.max(1));
        // Sixel inside tmux is tmux's own; only kitty and iTerm2 go through.
        let wrap = in_tmux && protocol != Protocol::Sixel;
        let mut pictures = Pictures::new(Setup { protocol, cell_px }, image_fps, wrap);
        if let Some(budget) = var("BONESCOPE_IMAGE_BYTES").and_then(|v| v.parse::<u64>().ok()) {
            pictures.sender.set_budget(budget);
        }
        pictures.typed = replies.typed;
        pictures.fallback_note = fallback_note;
        let note = (!notes.is_empty()).then(|| notes.join("; "));
        (pictures, note)
    }

    /// Why pictures fell back to cells, once: the caller asks when a textured picture is
    /// first there to show (see the field's docs).
    pub fn take_fallback_note(&mut self) -> Option<String> {
        self.fallback_note.take()
    }

    /// After a frame's cells went out: sends `wanted` (the picture and where), or takes the
    /// shown picture away when nothing is wanted.
    pub fn after_draw<W: Write>(
        &mut self,
        backend: &mut LeanBackend<W>,
        wanted: Option<(Rgba, Placement)>,
        bg: [u8; 3],
    ) -> std::io::Result<After> {
        self.after_draw_at(backend, wanted, bg, Instant::now())
    }

    /// [`Self::after_draw`] at the time `now` (measurements replay frames on a clock of
    /// their own, so the frame-rate cap and the byte budget act as they would in real
    /// time, however slow the machine is).
    pub fn after_draw_at<W: Write>(
        &mut self,
        backend: &mut LeanBackend<W>,
        wanted: Option<(Rgba, Placement)>,
        bg: [u8; 3],
        now: Instant,
    ) -> std::io::Result<After> {
        let cells = matches!(self.setup.protocol, Protocol::Sixel | Protocol::Iterm2);
        let Some((img, at)) = wanted else {
            if self.sender.showing() {
                let bytes = self.sender.clear();
                self.at = None;
                if !bytes.is_empty() {
                    backend.write_raw(&bytes)?;
                }
                if cells {
                    return Ok(After::Repaint);
                }
            }
            return Ok(After::Done);
        };
        if cells && self.at.is_some_and(|old| old != at) {
            // The old picture's pixels stay where the new one does not cover them.
            self.sender.forget();
            self.at = None;
            return Ok(After::Repaint);
        }
        match self.sender.frame(&img, at, bg, now) {
            Send::Bytes(b) => {
                backend.write_raw(&b)?;
                self.at = Some(at);
                Ok(After::Done)
            }
            Send::Unchanged => Ok(After::Done),
            Send::Later(d) => Ok(After::Retry(d)),
        }
    }

    /// Takes the picture away (exit, suspend) and forgets it.
    pub fn clear<W: Write>(&mut self, backend: &mut LeanBackend<W>) -> std::io::Result<()> {
        let bytes = self.sender.clear();
        self.at = None;
        if bytes.is_empty() {
            Ok(())
        } else {
            backend.write_raw(&bytes)
        }
    }

    /// Picture bytes sent so far.
    pub fn bytes_sent(&self) -> u64 {
        self.sender.bytes_sent
    }

    /// Pictures sent so far.
    pub fn pictures_sent(&self) -> u64 {
        self.sender.pictures_sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::images::test_images::sample;
    use crate::tui::theme::ColorMode;

    #[derive(Clone, Default)]
    struct Sink(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl Write for Sink {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    const AT: Placement = Placement {
        col: 2,
        row: 1,
        cols: 10,
        rows: 4,
    };

    #[test]
    fn kitty_sends_changes_and_deletes_when_hidden() {
        let sink = Sink::default();
        let mut b = LeanBackend::with_size(sink.clone(), 40, 10, ColorMode::TrueColor, false);
        let setup = Setup {
            protocol: Protocol::Kitty,
            cell_px: (8, 16),
        };
        let mut p = Pictures::new(setup, 1000, false);
        let img = sample(16, 16);
        assert_eq!(
            p.after_draw(&mut b, Some((img.clone(), AT)), [0; 3])
                .expect("io"),
            After::Done
        );
        let first = sink.0.borrow().len();
        assert!(first > 0);
        std::thread::sleep(Duration::from_millis(2));
        p.after_draw(&mut b, Some((img, AT)), [0; 3]).expect("io");
        assert_eq!(sink.0.borrow().len(), first, "unchanged: nothing sent");
        assert_eq!(p.after_draw(&mut b, None, [0; 3]).expect("io"), After::Done);
        assert!(sink.0.borrow().ends_with(b"\x1b_Ga=d,d=I,i=4242,q=2\x1b\\"));
    }

    #[test]
    fn sixel_repaints_when_the_picture_moves_or_goes() {
        let sink = Sink::default();
        let mut b = LeanBackend::with_size(sink, 40, 10, ColorMode::TrueColor, false);
        let setup = Setup {
            protocol: Protocol::Sixel,
            cell_px: (8, 16),
        };
        let mut p = Pictures::new(setup, 1000, false);
        let img = sample(16, 16);
        p.after_draw(&mut b, Some((img.clone(), AT)), [0; 3])
            .expect("io");
        let moved = Placement { col: 3, ..AT };
        assert_eq!(
            p.after_draw(&mut b, Some((img.clone(), moved)), [0; 3])
                .expect("io"),
            After::Repaint
        );
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(
            p.after_draw(&mut b, Some((img, moved)), [0; 3])
                .expect("io"),
            After::Done
        );
        assert_eq!(
            p.after_draw(&mut b, None, [0; 3]).expect("io"),
            After::Repaint
        );
        assert_eq!(p.after_draw(&mut b, None, [0; 3]).expect("io"), After::Done);
    }
}
