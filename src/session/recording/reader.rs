//! Reads a recording line by line with a bounded line length: a longer line is skipped to
//! its newline and reported, so memory never grows with the input.

use super::record::{ParseProblem, Record};
use std::io::BufRead;

/// The longest line read (bytes, newline excluded).
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// A line that could not be used, with its 1-based number.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ReadError {
    #[error("line {line}: record longer than {MAX_LINE_BYTES} bytes (skipped)")]
    TooLong { line: u64 },
    #[error("line {line}: {message}")]
    Malformed { line: u64, message: String },
    #[error("line {line}: unknown record kind \"{kind}\" (skipped)")]
    UnknownKind { line: u64, kind: String },
    #[error("line {line}: {message}")]
    Io { line: u64, message: String },
}

impl ReadError {
    /// Whether reading can go on after this error (everything but I/O failures).
    pub fn recoverable(&self) -> bool {
        !matches!(self, ReadError::Io { .. })
    }
}

/// Iterates over the records of a `BufRead` (a file, stdin, a socket).
pub struct RecordReader<R> {
    input: R,
    line: u64,
    buf: Vec<u8>,
    done: bool,
}

impl<R: BufRead> RecordReader<R> {
    pub fn new(input: R) -> Self {
        RecordReader {
            input,
            line: 0,
            buf: Vec::new(),
            done: false,
        }
    }

    /// The number of the last line read (1-based).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Reads the next line into `buf`; `Ok(false)` at the end, `Ok(true)` with a too-long
    /// line flagged by `buf` being cleared and `too_long` set.
    fn read_line(&mut self, too_long: &mut bool) -> std::io::Result<bool> {
        self.buf.clear();
        *too_long = false;
        let mut any = false;
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(any);
            }
            any = true;
            let (part, used, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], i + 1, true),
                None => (chunk, chunk.len(), false),
            };
            if !*too_long {
                if self.buf.len() + part.len() > MAX_LINE_BYTES {
                    *too_long = true;
                    self.buf = Vec::new();
                } else {
                    self.buf.extend_from_slice(part);
                }
            }
            self.input.consume(used);
            if end {
                return Ok(true);
            }
        }
    }
}

impl<R: BufRead> RecordReader<R> {
    /// The next non-blank line as it was sent (for `--record`), with its number.
    pub fn next_line(&mut self) -> Option<Result<(u64, &[u8]), ReadError>> {
        while !self.done {
            let mut too_long = false;
            match self.read_line(&mut too_long) {
                Ok(false) => {
                    self.done = true;
                    return None;
                }
                Ok(true) => {}
                Err(e) => {
                    self.done = true;
                    return Some(Err(ReadError::Io {
                        line: self.line + 1,
                        message: e.to_string(),
                    }));
                }
            }
            self.line = self.line.saturating_add(1);
            if too_long {
                return Some(Err(ReadError::TooLong { line: self.line }));
            }
            if !trim(&self.buf).is_empty() {
                return Some(Ok((self.line, trim(&self.buf))));
            }
        }
        None
    }
}

/// Parses one line of a recording (numbered `line`) into a record or a located error.
pub fn parse_line(line: u64, text: &[u8]) -> Result<Record, ReadError> {
    match Record::parse(text) {
        Ok(r) => Ok(r),
        Err(ParseProblem::Fatal(message)) => Err(ReadError::Malformed {
            line,
            message: crate::text::sanitize(&message).into_owned(),
        }),
        Err(ParseProblem::UnknownKind(kind)) => Err(ReadError::UnknownKind { line, kind }),
    }
}

impl<R: BufRead> Iterator for RecordReader<R> {
    type Item = Result<(u64, Record), ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        let read = self.next_line()?;
        Some(read.and_then(|(line, text)| parse_line(line, text).map(|r| (line, r))))
    }
}

fn trim(b: &[u8]) -> &[u8] {
    let b = b.strip_suffix(b"\r").unwrap_or(b);
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[start..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_and_reading_goes_on() {
        let mut text = Vec::new();
        text.extend_from_slice(b"{\"kind\":\"gap\",\"dropped\":1}\n");
        text.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        text.extend_from_slice(b"\n\n{\"kind\":\"what\"}\nnope\n{\"kind\":\"bye\",\"frames\":2}");
        let got: Vec<_> = RecordReader::new(&text[..]).collect();
        assert_eq!(got[0], Ok((1, Record::Gap { dropped: 1 })));
        assert_eq!(got[1], Err(ReadError::TooLong { line: 2 }));
        assert!(matches!(
            &got[2],
            Err(ReadError::UnknownKind { line: 4, .. })
        ));
        assert!(matches!(&got[3], Err(ReadError::Malformed { line: 5, .. })));
        assert_eq!(
            got[4],
            Ok((
                6,
                Record::Bye {
                    frames: 2,
                    dropped: 0
                }
            ))
        );
        assert_eq!(got.len(), 5);
        assert_eq!(
            got[1].as_ref().unwrap_err().to_string(),
            format!("line 2: record longer than {MAX_LINE_BYTES} bytes (skipped)")
        );
    }
}
