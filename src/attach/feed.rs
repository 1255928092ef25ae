//! Turning a byte stream (socket, WebSocket messages, file, stdin) into [`Incoming`] lines.

use super::Incoming;
use crate::session::recording::RecordReader;
use std::io::{BufRead, Read};
use std::sync::mpsc::SyncSender;
use std::time::Duration;

/// Sends every line of `input` (bounded by the protocol's limit; too-long lines become a
/// located problem) until the end, a `bye`, or the consumer leaving. Returns why it stopped.
pub fn feed_lines(input: impl BufRead, tx: &SyncSender<Incoming>) -> String {
    let mut reader = RecordReader::new(input);
    while let Some(next) = reader.next_line() {
        let event = match next {
            Ok((line, bytes)) => {
                let bye = is_bye(bytes);
                let ev = Incoming::Line {
                    line,
                    bytes: bytes.to_vec(),
                };
                if tx.send(ev).is_err() {
                    return "bonescope stopped reading".into();
                }
                if bye {
                    return "bye".into();
                }
                continue;
            }
            Err(e) if e.recoverable() => Incoming::Problem(e.to_string()),
            Err(e) => return e.to_string(),
        };
        if tx.send(event).is_err() {
            return "bonescope stopped reading".into();
        }
    }
    "end of stream".into()
}

fn is_bye(line: &[u8]) -> bool {
    // Cheap test first; a real parse confirms.
    line.windows(5).any(|w| w == b"\"bye\"")
        && serde_json::from_slice::<serde_json::Value>(line)
            .is_ok_and(|v| v.get("kind").and_then(|k| k.as_str()) == Some("bye"))
}

/// A file being written by someone else (`--follow`): at its current end, waits and reads
/// again instead of ending.
pub struct FollowRead<R> {
    pub inner: R,
    pub poll: Duration,
}

impl<R: Read> Read for FollowRead<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.inner.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            std::thread::sleep(self.poll);
        }
    }
}
