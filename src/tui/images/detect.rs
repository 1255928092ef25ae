//! Asking the terminal which pictures it shows. Over SSH the environment says nothing about
//! the terminal at the other end, so the answer comes from the terminal itself: bonescope
//! sends a kitty graphics query, XTVERSION, the cell size in pixels (`CSI 16 t`), and last a
//! primary device attributes request (DA1), which every terminal answers, as the sentinel.
//! It reads the replies for at most [`WAIT`]; a silent terminal costs that and no more.
//! Replies are read before the input thread starts and before anything makes crossterm read
//! the input, so none of them is taken for a key; the other bytes read meanwhile are the keys
//! typed during the query ([`Replies::typed`]), handed to the viewer first.
//!
//! Choice, in order: `BONESCOPE_IMAGES` when set; kitty graphics when the terminal answered
//! the kitty query with OK; iTerm2 inline images when XTVERSION or `TERM_PROGRAM` name iTerm2
//! or WezTerm (the environment only as a hint, after the terminal's own answer); sixel when
//! DA1 lists attribute 4; otherwise half-block cells when the terminal has colours, else off.
//! Inside tmux the query passes through tmux (when allowed); when tmux blocks passthrough the
//! choice is half-block cells and a message says why.

use super::Protocol;
use std::time::Duration;

/// How long to wait for the terminal's replies, at most.
pub const WAIT: Duration = Duration::from_millis(150);
/// The image id of the kitty query.
const QUERY_ID: u32 = 31;

/// The queries, in the order they are sent (DA1 last: its reply ends the wait).
pub fn queries() -> Vec<u8> {
    let mut q = Vec::new();
    q.extend_from_slice(format!("\x1b_Gi={QUERY_ID},s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\").as_bytes());
    q.extend_from_slice(b"\x1b[>0q");
    q.extend_from_slice(b"\x1b[16t");
    q.extend_from_slice(b"\x1b[c");
    q
}

/// What the terminal said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Replies {
    /// It answered the kitty graphics query with OK.
    pub kitty: bool,
    /// Its DA1 attributes (`None`: no DA1 reply, the wait ran out).
    pub da1: Option<Vec<u32>>,
    /// Its XTVERSION name (`"XTerm(390)"`, `"WezTerm 20240203"`, `"iTerm2 3.5"`).
    pub version: Option<String>,
    /// One cell in pixels (width, height), from `CSI 6 ; h ; w t`.
    pub cell_pixels: Option<(u16, u16)>,
    /// The bytes that were not replies: keys the user typed meanwhile, in order.
    pub typed: Vec<u8>,
}

impl Replies {
    /// Whether the sentinel (DA1) came, so nothing more is to be read.
    pub fn complete(&self) -> bool {
        self.da1.is_some()
    }
}

/// Parses the replies found in `input`; every other byte goes to [`Replies::typed`] (keys
/// typed during the query). Sequences cut off at the end are ignored, so a caller parses
/// again when more arrives.
pub fn parse(input: &[u8]) -> Replies {
    let mut r = Replies::default();
    let mut i = 0;
    while i < input.len() {
        if input[i] != 0x1b || i + 1 >= input.len() {
            r.typed.push(input[i]);
            i += 1;
            continue;
        }
        match input[i + 1] {
            // APC (kitty) or DCS (XTVERSION): up to ST.
            b'_' | b'P' => {
                let Some(end) = find_st(input, i + 2) else {
                    break;
                };
                let body = &input[i + 2..end];
                if let Some(rest) = body.strip_prefix(b"G") {
                    let text = String::from_utf8_lossy(rest);
                    if let Some((keys, msg)) = text.split_once(';')
                        && keys.split(',').any(|k| k == format!("i={QUERY_ID}"))
                        && msg == "OK"
                    {
                        r.kitty = true;
                    }
                } else if let Some(rest) = body.strip_prefix(b">|") {
                    r.version = Some(String::from_utf8_lossy(rest).into_owned());
                }
                i = end + 2;
            }
            b'[' => {
                // CSI: parameters up to a final byte in 0x40..=0x7e.
                let start = i + 2;
                let Some(len) = input[start..]
                    .iter()
                    .position(|b| (0x40..=0x7e).contains(b))
                else {
                    break;
                };
                let params = &input[start..start + len];
                let fin = input[start + len];
                let text = String::from_utf8_lossy(params);
                if fin == b'c'
                    && let Some(list) = text.strip_prefix('?')
                {
                    r.da1 = Some(list.split(';').filter_map(|n| n.parse().ok()).collect());
                } else if fin != b't' {
                    // Not a reply: a key (an arrow, Home, ...).
                    r.typed.extend_from_slice(&input[i..=start + len]);
                } else {
                    let n: Vec<u16> = text.split(';').filter_map(|n| n.parse().ok()).collect();
                    if let [6, h, w] = n[..]
                        && h > 0
                        && w > 0
                    {
                        r.cell_pixels = Some((w, h));
                    }
                }
                i = start + len + 1;
            }
            _ => {
                // ESC before anything but a reply's introducer: Esc, Alt+key or SS3 keys.
                r.typed.push(0x1b);
                i += 1;
            }
        }
    }
    r
}

/// The index of the `ESC \` (or BEL) ending a string started before `from`.
fn find_st(input: &[u8], from: usize) -> Option<usize> {
    (from..input.len())
        .find(|&j| input[j] == 0x07 || (input[j] == 0x1b && input.get(j + 1) == Some(&b'\\')))
}

/// What the environment adds (read through `var`): the override, tmux, and hints.
pub struct Env {
    pub override_: Option<Protocol>,
    pub term_program: Option<String>,
    pub in_tmux: bool,
    /// tmux's `allow-passthrough` (`None`: not asked or not in tmux).
    pub tmux_passthrough: Option<bool>,
    /// The terminal shows colours (else half blocks are no use).
    pub colours: bool,
}

/// The protocol chosen (module docs), and a note for the log when something is worth saying.
pub fn choose(replies: &Replies, env: &Env) -> (Protocol, Option<String>) {
    if let Some(p) = env.override_ {
        return (p, None);
    }
    let fallback = if env.colours {
        Protocol::HalfBlock
    } else {
        Protocol::Off
    };
    if env.in_tmux && env.tmux_passthrough != Some(true) {
        return (fallback, Some(super::tmux::BLOCKED.to_string()));
    }
    let named = |s: &str| {
        let s = s.to_ascii_lowercase();
        s.contains("iterm") || s.contains("wezterm")
    };
    let p = if replies.kitty {
        Protocol::Kitty
    } else if replies.version.as_deref().is_some_and(named)
        || env.term_program.as_deref().is_some_and(named)
    {
        Protocol::Iterm2
    } else if replies.da1.as_ref().is_some_and(|attrs| attrs.contains(&4)) {
        Protocol::Sixel
    } else {
        fallback
    };
    (p, None)
}

/// Sends the queries to the terminal behind stdin/stdout (raw mode already on) and reads the
/// replies for at most `wait`. Inside tmux with passthrough, the kitty query is wrapped.
#[cfg(unix)]
pub fn probe(wait: Duration, tmux: bool) -> std::io::Result<Replies> {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::time::Instant;

    let mut q = queries();
    if tmux {
        // Only the kitty query needs the outer terminal; tmux answers the rest itself, except
        // DA1, which it answers for itself too (with sixel when built with it).
        let kitty_len = q.iter().position(|&b| b == b'\\').map_or(0, |p| p + 1);
        let wrapped = super::tmux::wrap(&q[..kitty_len]);
        q.splice(..kitty_len, wrapped);
    }
    let mut out = std::io::stdout();
    out.write_all(&q)?;
    out.flush()?;
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    let deadline = Instant::now() + wait;
    let mut got = Vec::new();
    let mut buf = [0u8; 512];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let ts = Timespec {
            tv_sec: i64::try_from(left.as_secs()).unwrap_or(1),
            tv_nsec: i64::from(left.subsec_nanos()),
        };
        let mut fds = [PollFd::new(&fd, PollFlags::IN)];
        match poll(&mut fds, Some(&ts)) {
            Ok(0) => break,
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
        let n = rustix::io::read(fd, &mut buf)?;
        if n == 0 {
            break;
        }
        // Bounded: a terminal cannot make us buffer more than a few kilobytes.
        if got.len() + n > 64 * 1024 {
            break;
        }
        got.extend_from_slice(&buf[..n]);
        if parse(&got).complete() {
            break;
        }
    }
    Ok(parse(&got))
}

/// The size of one cell in pixels from the window size in pixels the pty reports
/// (TIOCGWINSZ), when it reports one.
#[cfg(unix)]
pub fn cell_pixels_from_winsize() -> Option<(u16, u16)> {
    let ws = rustix::termios::tcgetwinsize(std::io::stdout()).ok()?;
    (ws.ws_col > 0 && ws.ws_row > 0 && ws.ws_xpixel > 0 && ws.ws_ypixel > 0)
        .then(|| (ws.ws_xpixel / ws.ws_col, ws.ws_ypixel / ws.ws_row))
        .filter(|(w, h)| *w > 0 && *h > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env {
            override_: None,
            term_program: None,
            in_tmux: false,
            tmux_passthrough: None,
            colours: true,
        }
    }

    #[test]
    fn parses_the_replies_of_a_kitty_terminal() {
        let r = parse(b"\x1b_Gi=31;OK\x1b\\\x1bP>|kitty(0.35.2)\x1b\\\x1b[6;20;10t\x1b[?62;c");
        assert!(r.kitty);
        assert_eq!(r.version.as_deref(), Some("kitty(0.35.2)"));
        assert_eq!(r.cell_pixels, Some((10, 20)));
        assert_eq!(r.da1, Some(vec![62]));
        assert_eq!(choose(&r, &env()).0, Protocol::Kitty);
    }

    #[test]
    fn sixel_from_da1_and_errors_are_not_ok() {
        let r = parse(b"\x1b_Gi=31;ENOTSUPPORTED:x\x1b\\\x1b[?63;1;2;4;6;9;15;22c");
        assert!(!r.kitty);
        assert_eq!(r.da1, Some(vec![63, 1, 2, 4, 6, 9, 15, 22]));
        assert_eq!(choose(&r, &env()).0, Protocol::Sixel);
    }

    #[test]
    fn a_silent_or_plain_terminal_gets_half_blocks() {
        let r = parse(b"");
        assert!(!r.complete());
        assert_eq!(choose(&r, &env()).0, Protocol::HalfBlock);
        let plain = parse(b"\x1b[?1;2c");
        assert!(plain.complete());
        let no_colour = Env {
            colours: false,
            ..env()
        };
        assert_eq!(choose(&plain, &no_colour).0, Protocol::Off);
    }

    #[test]
    fn cut_off_and_interleaved_bytes_are_skipped() {
        // A key typed before the replies, a cut-off DA1 at the end.
        let r = parse(b"j\x1b[6;16;8t\x1b[?62;4");
        assert_eq!(r.cell_pixels, Some((8, 16)));
        assert!(r.da1.is_none());
        // Another image id's reply is not ours.
        assert!(!parse(b"\x1b_Gi=1;OK\x1b\\").kitty);
    }

    #[test]
    fn iterm2_by_name_and_override_wins() {
        let r = parse(b"\x1bP>|WezTerm 20240203\x1b\\\x1b[?62;4c");
        assert_eq!(choose(&r, &env()).0, Protocol::Iterm2);
        let hinted = Env {
            term_program: Some("iTerm.app".into()),
            ..env()
        };
        assert_eq!(choose(&parse(b"\x1b[?62c"), &hinted).0, Protocol::Iterm2);
        let forced = Env {
            override_: Some(Protocol::Sixel),
            ..env()
        };
        assert_eq!(choose(&parse(b""), &forced).0, Protocol::Sixel);
    }

    #[test]
    fn tmux_without_passthrough_says_so() {
        let r = parse(b"\x1b_Gi=31;OK\x1b\\\x1b[?62c");
        let blocked = Env {
            in_tmux: true,
            tmux_passthrough: Some(false),
            ..env()
        };
        let (p, note) = choose(&r, &blocked);
        assert_eq!(p, Protocol::HalfBlock);
        assert!(note.expect("note").contains("allow-passthrough"));
        let open = Env {
            in_tmux: true,
            tmux_passthrough: Some(true),
            ..env()
        };
        assert_eq!(choose(&r, &open), (Protocol::Kitty, None));
    }

    #[test]
    fn queries_end_with_the_sentinel() {
        let q = queries();
        assert!(q.starts_with(b"\x1b_Gi=31,"));
        assert!(q.ends_with(b"\x1b[c"));
    }

    #[test]
    fn bytes_that_are_not_replies_are_the_keys_typed_meanwhile() {
        let r = parse(
            b"q\x1b_Gi=31;OK\x1b\\:\x1b[A\x1bP>|kitty(0.35.2)\x1b\\\x1b[6;20;10tl\x1bOB\x1b[?62;c\x1b",
        );
        assert!(r.kitty && r.complete());
        assert_eq!(r.cell_pixels, Some((10, 20)));
        assert_eq!(r.typed, b"q:\x1b[Al\x1bOB\x1b".to_vec());
        assert!(parse(b"\x1b_Gi=31;OK\x1b\\\x1b[?62c").typed.is_empty());
    }
}
