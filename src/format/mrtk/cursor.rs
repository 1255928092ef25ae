//! A little-endian reader over the file's bytes that knows its offset and reports the end of
//! the file as an error naming the field it was reading.

use super::error::{ErrorKind, ReadError};
use byteorder::{ByteOrder, LittleEndian};

/// Reads .NET `BinaryWriter` primitives from a byte slice.
pub(super) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Cursor<'a> {
        Cursor { data, pos: 0 }
    }

    /// The offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.pos as u64
    }

    /// Bytes left after the offset.
    pub fn remaining(&self) -> u64 {
        (self.data.len() - self.pos) as u64
    }

    /// The next `n` bytes; at the end of the file, an [`ErrorKind::UnexpectedEof`] at the
    /// file's length naming `what` (called only then).
    pub fn take(&mut self, n: u64, what: impl FnOnce() -> String) -> Result<&'a [u8], ReadError> {
        if n > self.remaining() {
            let len = self.data.len();
            return Err(ReadError::new(
                ErrorKind::UnexpectedEof,
                len as u64,
                format!(
                    "unexpected end of file: expected {} in bytes {}..{}, the file has {len} bytes",
                    what(),
                    self.pos,
                    self.offset() + n
                ),
            ));
        }
        let start = self.pos;
        // n <= remaining, which fits in usize.
        self.pos += n as usize;
        Ok(&self.data[start..self.pos])
    }

    pub fn u8(&mut self, what: impl FnOnce() -> String) -> Result<u8, ReadError> {
        Ok(self.take(1, what)?[0])
    }

    pub fn i32(&mut self, what: impl FnOnce() -> String) -> Result<i32, ReadError> {
        Ok(LittleEndian::read_i32(self.take(4, what)?))
    }

    pub fn u64(&mut self, what: impl FnOnce() -> String) -> Result<u64, ReadError> {
        Ok(LittleEndian::read_u64(self.take(8, what)?))
    }

    pub fn f32(&mut self, what: impl FnOnce() -> String) -> Result<f32, ReadError> {
        Ok(LittleEndian::read_f32(self.take(4, what)?))
    }
}
