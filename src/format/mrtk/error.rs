//! Why an MRTK file was rejected: a kind (for tests and scripts), the byte offset, a message.

use crate::format::LoadError;

/// What went wrong. [`ErrorKind::code`] gives the names used by the shared corpus expectations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The file ends inside a field.
    UnexpectedEof,
    /// The first 8 bytes are not the MRTK magic number.
    BadMagic,
    /// A version other than 1.0 or 1.1.
    UnsupportedVersion,
    /// A key or marker count below zero.
    NegativeCount,
    /// A count that needs more bytes than the file has left.
    CountExceedsRemaining,
    /// A .NET 7-bit encoded string length longer than 5 bytes or above `i32::MAX`.
    Bad7BitLength,
}

impl ErrorKind {
    /// The snake_case name (`unexpected_eof`, `count_exceeds_remaining`, ...).
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::UnexpectedEof => "unexpected_eof",
            ErrorKind::BadMagic => "bad_magic",
            ErrorKind::UnsupportedVersion => "unsupported_version",
            ErrorKind::NegativeCount => "negative_count",
            ErrorKind::CountExceedsRemaining => "count_exceeds_remaining",
            ErrorKind::Bad7BitLength => "bad_7bit_length",
        }
    }
}

/// A rejected file: what, where (byte offset) and a message naming what was expected there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("byte {offset}: {message}")]
pub struct ReadError {
    pub kind: ErrorKind,
    pub offset: u64,
    pub message: String,
}

impl ReadError {
    pub(super) fn new(kind: ErrorKind, offset: u64, message: impl Into<String>) -> ReadError {
        ReadError {
            kind,
            offset,
            message: message.into(),
        }
    }
}

impl From<ReadError> for LoadError {
    fn from(e: ReadError) -> LoadError {
        use crate::format::ErrorKind as Kind;
        let kind = match e.kind {
            ErrorKind::BadMagic => Kind::UnsupportedFormat,
            ErrorKind::UnsupportedVersion => Kind::UnsupportedVersion,
            ErrorKind::UnexpectedEof
            | ErrorKind::NegativeCount
            | ErrorKind::CountExceedsRemaining
            | ErrorKind::Bad7BitLength => Kind::Malformed,
        };
        LoadError::byte(e.offset, e.message).with_kind(kind)
    }
}
