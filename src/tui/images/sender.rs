//! When pictures go out: only when the picture or its place changed (a hash of the pixels),
//! not more often than a frame-rate cap, so a paused viewer sends nothing; and what removes
//! them again (on exit, resize, hiding the panel, a full redraw, a suspend).

use super::{Placement, Protocol, Rgba, iterm2, kitty, sixel, tmux};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::time::{Duration, Instant};

/// Picture bytes a second by default (`BONESCOPE_IMAGE_BYTES` changes it): what a modest
/// SSH link carries beside the cells.
pub const DEFAULT_BUDGET: u64 = 1_000_000;

/// The kitty image id bonescope draws its preview with.
pub const IMAGE_ID: u32 = 4242;

/// What to do with a frame.
#[derive(Debug, PartialEq, Eq)]
pub enum Send {
    /// Write these bytes after the frame's cells.
    Bytes(Vec<u8>),
    /// The terminal already shows this picture.
    Unchanged,
    /// The picture changed, but the frame-rate cap says wait this long.
    Later(Duration),
}

/// Sends pictures by one protocol, remembering what the terminal shows.
#[derive(Debug)]
pub struct Sender {
    protocol: Protocol,
    /// Wrap graphics in tmux passthrough.
    tmux: bool,
    /// Time between pictures, at least.
    min_interval: Duration,
    /// Hash of the picture and placement on screen now (`None`: nothing shown).
    shown: Option<u64>,
    last_sent: Option<Instant>,
    /// Size of the last picture sent (the byte budget spaces pictures by it).
    last_len: u64,
    /// Picture bytes a second, at most: larger pictures come less often.
    budget: u64,
    /// Bytes sent so far (for measurement).
    pub bytes_sent: u64,
    /// Pictures sent so far (for measurement).
    pub pictures_sent: u64,
}

fn hash(img: &Rgba, at: Placement) -> u64 {
    let mut h = DefaultHasher::new();
    img.width.hash(&mut h);
    img.height.hash(&mut h);
    img.pixels.hash(&mut h);
    at.hash(&mut h);
    h.finish()
}

/// Wraps the graphics of `bytes` for tmux: the leading cursor move stays outside (tmux
/// places the cursor in its pane), each string command (up to ST or BEL) is wrapped alone.
fn wrap_for_tmux(bytes: &[u8]) -> Vec<u8> {
    let body_start = if bytes.starts_with(b"\x1b[") {
        bytes.iter().position(|&b| b == b'H').map_or(0, |p| p + 1)
    } else {
        0
    };
    let mut out = bytes[..body_start].to_vec();
    let mut rest = &bytes[body_start..];
    while !rest.is_empty() {
        let end = (1..rest.len())
            .find(|&j| rest[j] == 0x07 || (rest[j] == b'\\' && rest[j - 1] == 0x1b))
            .map_or(rest.len(), |j| j + 1);
        out.extend_from_slice(&tmux::wrap(&rest[..end]));
        rest = &rest[end..];
    }
    out
}

impl Sender {
    /// A sender by `protocol` sending at most `fps` pictures a second (`tmux`: wrap them in
    /// tmux's passthrough).
    pub fn new(protocol: Protocol, fps: u32, tmux: bool) -> Sender {
        Sender {
            protocol,
            tmux,
            min_interval: Duration::from_secs_f64(1.0 / f64::from(fps.clamp(1, 240))),
            shown: None,
            last_sent: None,
            last_len: 0,
            budget: DEFAULT_BUDGET,
            bytes_sent: 0,
            pictures_sent: 0,
        }
    }

    /// Sets the byte budget (picture bytes a second, at least 1 KiB).
    pub fn set_budget(&mut self, bytes_per_second: u64) {
        self.budget = bytes_per_second.max(1024);
    }

    /// The time the last picture's bytes take at the budget, or the frame-rate cap's interval
    /// when longer.
    fn interval(&self) -> Duration {
        self.min_interval.max(Duration::from_secs_f64(
            self.last_len as f64 / self.budget as f64,
        ))
    }

    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// Whether a picture is on screen.
    pub fn showing(&self) -> bool {
        self.shown.is_some()
    }

    /// The bytes (if any) that show `img` over the cells of `at` at time `now`. Protocols
    /// without transparency (sixel) get the picture composited over `bg`.
    pub fn frame(&mut self, img: &Rgba, at: Placement, bg: [u8; 3], now: Instant) -> Send {
        if !self.protocol.is_graphics() || !img.is_consistent() || img.width == 0 || img.height == 0
        {
            return Send::Unchanged;
        }
        let h = hash(img, at);
        if self.shown == Some(h) {
            return Send::Unchanged;
        }
        if let Some(last) = self.last_sent {
            let since = now.saturating_duration_since(last);
            let interval = self.interval();
            if since < interval {
                return Send::Later(interval - since);
            }
        }
        let mut bytes = match self.protocol {
            Protocol::Kitty => kitty::encode(img, IMAGE_ID, at),
            Protocol::Iterm2 => match iterm2::encode(img, at) {
                Ok(b) => b,
                Err(_) => return Send::Unchanged,
            },
            Protocol::Sixel => sixel::encode(&super::flatten(img, bg), at),
            Protocol::HalfBlock | Protocol::Off => return Send::Unchanged,
        };
        if self.tmux {
            bytes = wrap_for_tmux(&bytes);
        }
        self.shown = Some(h);
        self.last_sent = Some(now);
        self.last_len = bytes.len() as u64;
        self.bytes_sent += bytes.len() as u64;
        self.pictures_sent += 1;
        Send::Bytes(bytes)
    }

    /// The bytes that take the picture off the screen (kitty deletes the image; sixel and
    /// iTerm2 pictures are cells, which the caller repaints), and forgets it, so the next
    /// frame is sent whatever it shows.
    pub fn clear(&mut self) -> Vec<u8> {
        let was = self.shown.take().is_some();
        self.last_sent = None;
        if !was || self.protocol != Protocol::Kitty {
            return Vec::new();
        }
        let bytes = kitty::delete(IMAGE_ID);
        let bytes = if self.tmux { tmux::wrap(&bytes) } else { bytes };
        self.bytes_sent += bytes.len() as u64;
        bytes
    }

    /// Forgets what the terminal shows without sending anything (its cells were repainted).
    pub fn forget(&mut self) {
        self.shown = None;
        self.last_sent = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::images::test_images::sample;

    const AT: Placement = Placement {
        col: 1,
        row: 1,
        cols: 10,
        rows: 5,
    };

    #[test]
    fn sends_only_changes_and_respects_the_cap() {
        let t0 = Instant::now();
        let mut s = Sender::new(Protocol::Kitty, 10, false);
        let a = sample(20, 20);
        let mut b = a.clone();
        b.set(10, 10, [1, 2, 3, 255]);
        assert!(matches!(s.frame(&a, AT, [0; 3], t0), Send::Bytes(_)));
        // Paused: the same picture costs nothing, however often it is drawn.
        for i in 1..50 {
            assert_eq!(
                s.frame(&a, AT, [0; 3], t0 + Duration::from_millis(i * 20)),
                Send::Unchanged
            );
        }
        let sent = s.bytes_sent;
        // A change within 100 ms waits; after it, it goes.
        let t1 = t0 + Duration::from_secs(2);
        assert!(matches!(s.frame(&b, AT, [0; 3], t1), Send::Bytes(_)));
        assert_eq!(
            s.frame(&a, AT, [0; 3], t1 + Duration::from_millis(30)),
            Send::Later(Duration::from_millis(70))
        );
        assert!(matches!(
            s.frame(&a, AT, [0; 3], t1 + Duration::from_millis(100)),
            Send::Bytes(_)
        ));
        assert!(s.bytes_sent > sent);
        // Moving the picture is a change too.
        let moved = Placement { col: 2, ..AT };
        assert!(matches!(
            s.frame(&a, moved, [0; 3], t1 + Duration::from_secs(1)),
            Send::Bytes(_)
        ));
    }

    #[test]
    fn large_pictures_come_less_often() {
        let t0 = Instant::now();
        let mut s = Sender::new(Protocol::Kitty, 240, false);
        s.set_budget(1024);
        let a = sample(64, 64);
        let Send::Bytes(b) = s.frame(&a, AT, [0; 3], t0) else {
            panic!("sent");
        };
        let mut c = a.clone();
        c.set(1, 1, [9, 9, 9, 255]);
        let wait = Duration::from_secs_f64(b.len() as f64 / 1024.0);
        assert!(matches!(
            s.frame(&c, AT, [0; 3], t0 + wait / 2),
            Send::Later(_)
        ));
        assert!(matches!(
            s.frame(&c, AT, [0; 3], t0 + wait + Duration::from_millis(1)),
            Send::Bytes(_)
        ));
    }

    #[test]
    fn clearing_deletes_kitty_images_and_resends_after() {
        let t0 = Instant::now();
        let mut s = Sender::new(Protocol::Kitty, 30, false);
        let a = sample(8, 8);
        assert_eq!(
            s.clear(),
            Vec::<u8>::new(),
            "nothing shown, nothing to delete"
        );
        assert!(matches!(s.frame(&a, AT, [0; 3], t0), Send::Bytes(_)));
        assert_eq!(s.clear(), kitty::delete(IMAGE_ID));
        assert!(!s.showing());
        assert!(matches!(s.frame(&a, AT, [0; 3], t0), Send::Bytes(_)));
        let mut six = Sender::new(Protocol::Sixel, 30, false);
        assert!(matches!(six.frame(&a, AT, [0; 3], t0), Send::Bytes(_)));
        assert!(six.clear().is_empty());
        assert!(matches!(six.frame(&a, AT, [0; 3], t0), Send::Bytes(_)));
    }

    #[test]
    fn tmux_wraps_each_command_and_leaves_the_cursor_move() {
        let mut s = Sender::new(Protocol::Kitty, 30, true);
        let Send::Bytes(b) = s.frame(&sample(64, 64), AT, [0; 3], Instant::now()) else {
            panic!("sent");
        };
        assert!(b.starts_with(b"\x1b[2;2H\x1bPtmux;\x1b\x1b_G"));
        let commands = b.windows(7).filter(|w| w == b"\x1bPtmux;").count();
        let chunks = b.windows(3).filter(|w| w == b"\x1b_G").count();
        assert_eq!(commands, chunks);
        assert!(b.ends_with(b"\x1b\x1b\\\x1b\\"));
    }

    #[test]
    fn cell_protocols_send_no_bytes() {
        let mut s = Sender::new(Protocol::HalfBlock, 30, false);
        assert_eq!(
            s.frame(&sample(4, 4), AT, [0; 3], Instant::now()),
            Send::Unchanged
        );
    }
}
