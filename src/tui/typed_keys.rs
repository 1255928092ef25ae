//! Keys typed while the start-up terminal query was reading stdin (before the input thread
//! starts): the bytes that were not the terminal's replies, turned into the key events
//! crossterm would have read, so the viewer handles them before its first poll. crossterm's
//! reader cannot be fed bytes, so this is a small decoder of what a user types at once:
//! text (UTF-8), Enter, Tab, Backspace, Esc, Ctrl+letter, and the cursor / editing keys in
//! their CSI and SS3 forms. Anything else is dropped (a key the decoder does not know is
//! better lost than misread).

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

/// The key events in `bytes`, in order.
pub fn events(bytes: &[u8]) -> Vec<Event> {
    let mut out = Vec::new();
    let mut i = 0;
    let key = |code, mods| Event::Key(KeyEvent::new(code, mods));
    let none = KeyModifiers::NONE;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            0x1b => {
                let (code, len) = escape(&bytes[i..]);
                if let Some(code) = code {
                    out.push(key(code, none));
                }
                i += len;
                continue;
            }
            b'\r' | b'\n' => out.push(key(KeyCode::Enter, none)),
            b'\t' => out.push(key(KeyCode::Tab, none)),
            0x7f | 0x08 => out.push(key(KeyCode::Backspace, none)),
            0x01..=0x1a => {
                let c = char::from(b - 1 + b'a');
                out.push(key(KeyCode::Char(c), KeyModifiers::CONTROL));
            }
            0x20..=0x7e => out.push(key(KeyCode::Char(char::from(b)), none)),
            _ if b >= 0xc0 => {
                // One UTF-8 character (2 to 4 bytes); a broken one is skipped.
                let len = match b {
                    0xc0..=0xdf => 2,
                    0xe0..=0xef => 3,
                    _ => 4,
                };
                let end = (i + len).min(bytes.len());
                if let Ok(s) = std::str::from_utf8(&bytes[i..end])
                    && let Some(c) = s.chars().next()
                {
                    out.push(key(KeyCode::Char(c), none));
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The key an escape sequence at the start of `s` stands for, and its length.
fn escape(s: &[u8]) -> (Option<KeyCode>, usize) {
    match s.get(1) {
        // ESC alone (or before another ESC): the Esc key.
        None | Some(0x1b) => (Some(KeyCode::Esc), 1),
        Some(b'[') | Some(b'O') => {
            // Parameters, then a final byte in 0x40..=0x7e.
            let Some(end) = s[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
                return (None, s.len());
            };
            let params = &s[2..2 + end];
            let fin = s[2 + end];
            let code = match (fin, params) {
                (b'A', _) => Some(KeyCode::Up),
                (b'B', _) => Some(KeyCode::Down),
                (b'C', _) => Some(KeyCode::Right),
                (b'D', _) => Some(KeyCode::Left),
                (b'H', _) => Some(KeyCode::Home),
                (b'F', _) => Some(KeyCode::End),
                (b'Z', _) => Some(KeyCode::BackTab),
                (b'~', b"1" | b"7") => Some(KeyCode::Home),
                (b'~', b"4" | b"8") => Some(KeyCode::End),
                (b'~', b"2") => Some(KeyCode::Insert),
                (b'~', b"3") => Some(KeyCode::Delete),
                (b'~', b"5") => Some(KeyCode::PageUp),
                (b'~', b"6") => Some(KeyCode::PageDown),
                _ => None,
            };
            (code, 3 + end)
        }
        // Alt+key and the like: not bound in the viewer, dropped with its key.
        Some(_) => (None, 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(bytes: &[u8]) -> Vec<(KeyCode, KeyModifiers)> {
        events(bytes)
            .into_iter()
            .filter_map(|e| match e {
                Event::Key(k) => Some((k.code, k.modifiers)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn typed_bytes_become_the_keys_crossterm_reads() {
        let n = KeyModifiers::NONE;
        assert_eq!(
            codes(b"l:\x1b[A\x1bOB\x1b[6~\r\x7f\t\x03\x1b"),
            vec![
                (KeyCode::Char('l'), n),
                (KeyCode::Char(':'), n),
                (KeyCode::Up, n),
                (KeyCode::Down, n),
                (KeyCode::PageDown, n),
                (KeyCode::Enter, n),
                (KeyCode::Backspace, n),
                (KeyCode::Tab, n),
                (KeyCode::Char('c'), KeyModifiers::CONTROL),
                (KeyCode::Esc, n),
            ]
        );
        assert_eq!(
            codes("é→".as_bytes()),
            vec![(KeyCode::Char('é'), n), (KeyCode::Char('→'), n)]
        );
        // Cut off or unknown sequences are dropped, the rest kept.
        assert_eq!(codes(b"\x1b[99zq\x1b["), vec![(KeyCode::Char('q'), n)]);
        assert!(codes(b"").is_empty());
    }
}
