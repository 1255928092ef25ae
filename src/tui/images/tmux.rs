//! Inside tmux, graphics escapes reach the outer terminal only wrapped in tmux's DCS
//! passthrough (`ESC P tmux; ... ESC \`, every ESC inside doubled), and only when the
//! `allow-passthrough` option is on.

/// Whether this process runs inside tmux (from the environment `var` looks up).
pub fn inside(var: impl Fn(&str) -> Option<String>) -> bool {
    var("TMUX").is_some_and(|v| !v.is_empty())
}

/// Wraps `bytes` in tmux's passthrough: `ESC P tmux ;` + the bytes with ESC doubled + `ESC \`.
/// Each escape sequence of `bytes` is wrapped on its own (tmux limits one passthrough's size,
/// and cursor moves between them are better handled by tmux itself).
pub fn wrap(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 64 + 16);
    out.extend_from_slice(b"\x1bPtmux;");
    for &b in bytes {
        if b == 0x1b {
            out.push(0x1b);
        }
        out.push(b);
    }
    out.extend_from_slice(b"\x1b\\");
    out
}

/// What `tmux show-options -gv allow-passthrough` printed: passthrough is allowed for `on`
/// and `all`.
pub fn passthrough_allowed(option: &str) -> bool {
    matches!(option.trim(), "on" | "all")
}

/// Asks the running tmux whether it lets escapes through (`None`: tmux did not answer).
pub fn query_passthrough() -> Option<bool> {
    let out = std::process::Command::new("tmux")
        .args(["show-options", "-gv", "allow-passthrough"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| passthrough_allowed(&String::from_utf8_lossy(&out.stdout)))
}

/// The message shown when tmux blocks pictures.
pub const BLOCKED: &str = "tmux does not pass pictures through: `set -g allow-passthrough on` \
(tmux 3.3+) shows them; `t` draws them in half-block cells meanwhile";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_doubles_every_escape() {
        assert_eq!(
            wrap(b"\x1b_Ga=T;AAAA\x1b\\"),
            b"\x1bPtmux;\x1b\x1b_Ga=T;AAAA\x1b\x1b\\\x1b\\".to_vec()
        );
        // Unwrapping (what tmux does) gives the original back.
        let inner = b"\x1b[3;4H\x1bPq#0;2;0;0;0!5~\x1b\\";
        let w = wrap(inner);
        let body = &w[7..w.len() - 2];
        let mut back = Vec::new();
        let mut i = 0;
        while i < body.len() {
            if body[i] == 0x1b {
                assert_eq!(body[i + 1], 0x1b, "lone ESC inside");
                i += 1;
            }
            back.push(body[i]);
            i += 1;
        }
        assert_eq!(back, inner.to_vec());
    }

    #[test]
    fn option_values() {
        assert!(passthrough_allowed("on\n"));
        assert!(passthrough_allowed("all"));
        assert!(!passthrough_allowed("off"));
        assert!(!passthrough_allowed(""));
        assert!(inside(
            |k| (k == "TMUX").then(|| "/tmp/tmux-1/default,1,0".into())
        ));
        assert!(!inside(|_| None));
    }
}
