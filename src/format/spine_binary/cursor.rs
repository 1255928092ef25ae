//! The primitives of Spine's binary format (big-endian, varints, length-prefixed UTF-8
//! strings, RGBA8888 colors) read from a byte slice by a cursor that knows its offset and
//! what it is reading, so every error says "byte N: animation 'walk', bone timeline 3, key 7:
//! ...".
//!
//! Nothing here panics or allocates more than the bytes that are actually present: counts go
//! through [`Cursor::count`], which checks them against the bytes left before the caller
//! reserves anything.

use std::fmt::Write as _;

use crate::core::color::Color;
use crate::format::ErrorKind;
use crate::format::LoadError;

/// One level of "what is being read": a kind, an index and, for named things, where its
/// name is in [`Cursor::names`].
struct Frame {
    what: &'static str,
    index: Option<usize>,
    name: Option<std::ops::Range<usize>>,
}

/// A reader over a `.skel` file's bytes.
pub struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    context: Vec<Frame>,
    /// The names of the context levels, one after the other: one buffer for all of them
    /// rather than an allocation per named level (one per slot of every skin).
    names: String,
}

/// Result of every read.
pub type Read<T> = Result<T, LoadError>;

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Cursor<'a> {
        Cursor {
            bytes,
            pos: 0,
            context: Vec::new(),
            names: String::new(),
        }
    }

    /// The offset of the next byte.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes left after the offset.
    pub fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    /// Enters a context level: `what` alone ("skeleton header"), with an index ("bone
    /// timeline 3"), or with a name ("animation 'walk'"). Pair with [`Cursor::leave`].
    pub fn enter(&mut self, what: &'static str, index: Option<usize>, name: Option<&str>) {
        let name = name.map(|n| {
            let start = self.names.len();
            self.names.push_str(n);
            start..self.names.len()
        });
        self.context.push(Frame { what, index, name });
    }

    /// Leaves the innermost context level.
    pub fn leave(&mut self) {
        if let Some(Frame {
            name: Some(name), ..
        }) = self.context.pop()
        {
            self.names.truncate(name.start);
        }
    }

    /// Replaces the innermost level's index (keys of a timeline, without a push per key).
    pub fn set_index(&mut self, index: usize) {
        if let Some(f) = self.context.last_mut() {
            f.index = Some(index);
        }
    }

    /// Runs `f` inside a context level.
    pub fn within<T>(
        &mut self,
        what: &'static str,
        index: Option<usize>,
        name: Option<&str>,
        f: impl FnOnce(&mut Self) -> Read<T>,
    ) -> Read<T> {
        self.enter(what, index, name);
        let out = f(self);
        // On error the context is part of the message already; leaving keeps the stack right
        // for a caller that recovers (none do today).
        self.leave();
        out
    }

    /// An error at byte `offset`, prefixed with the current context.
    pub fn error_at(&self, offset: usize, message: impl AsRef<str>) -> LoadError {
        let mut text = String::new();
        for f in &self.context {
            if !text.is_empty() {
                text.push_str(", ");
            }
            text.push_str(f.what);
            if let Some(name) = &f.name {
                let _ = write!(text, " '{}'", &self.names[name.clone()]);
            }
            if let Some(i) = f.index {
                let _ = write!(text, " {i}");
            }
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(message.as_ref());
        LoadError::byte(offset as u64, text)
    }

    /// An error at the current offset.
    pub fn error(&self, message: impl AsRef<str>) -> LoadError {
        self.error_at(self.pos, message)
    }

    /// The next `n` bytes, or an end-of-file error naming `what`.
    #[inline]
    pub fn take(&mut self, n: usize, what: &str) -> Read<&'a [u8]> {
        if n > self.remaining() {
            return Err(self.end_of_file(n, what));
        }
        let start = self.pos;
        self.pos += n;
        Ok(&self.bytes[start..self.pos])
    }

    /// The error of a read past the end (out of line: the hot paths only test and jump).
    #[cold]
    #[inline(never)]
    fn end_of_file(&self, n: usize, what: &str) -> LoadError {
        self.error(format!(
            "unexpected end of file reading {what}: {n} bytes needed, {} left",
            self.remaining()
        ))
    }

    /// `N` bytes as an array.
    #[inline]
    fn array<const N: usize>(&mut self, what: &str) -> Read<[u8; N]> {
        match self
            .bytes
            .get(self.pos..)
            .and_then(|b| b.first_chunk::<N>())
        {
            Some(b) => {
                self.pos += N;
                Ok(*b)
            }
            None => Err(self.end_of_file(N, what)),
        }
    }

    #[inline]
    pub fn u8(&mut self, what: &str) -> Read<u8> {
        match self.bytes.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.end_of_file(1, what)),
        }
    }

    /// A signed byte.
    pub fn i8(&mut self, what: &str) -> Read<i8> {
        Ok(self.u8(what)? as i8)
    }

    /// A boolean: exactly 0 or 1.
    #[inline]
    pub fn bool(&mut self, what: &str) -> Read<bool> {
        let at = self.pos;
        match self.u8(what)? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(self.error_at(at, format!("{what}: a boolean must be 0 or 1, not {b}"))),
        }
    }

    /// A big-endian 16-bit unsigned integer.
    #[inline]
    pub fn u16(&mut self, what: &str) -> Read<u16> {
        self.array(what).map(u16::from_be_bytes)
    }

    /// A big-endian 32-bit integer.
    pub fn i32(&mut self, what: &str) -> Read<i32> {
        self.array(what).map(i32::from_be_bytes)
    }

    /// A varint: 1 to 5 bytes, 7 bits each, low bits first; `positive` false means zigzag
    /// encoded (small negative values are short too).
    #[inline]
    pub fn varint(&mut self, positive: bool, what: &str) -> Read<i32> {
        // One byte (values below 128) is by far the most common case.
        if let Some(&b) = self.bytes.get(self.pos)
            && b & 0x80 == 0
        {
            self.pos += 1;
            let value = b as u32;
            return Ok(if positive {
                value as i32
            } else {
                ((value >> 1) as i32) ^ -((value & 1) as i32)
            });
        }
        let mut value: u32 = 0;
        for i in 0..5 {
            let b = self.u8(what)?;
            value |= ((b & 0x7f) as u32) << (7 * i);
            if b & 0x80 == 0 {
                break;
            }
        }
        Ok(if positive {
            value as i32
        } else {
            ((value >> 1) as i32) ^ -((value & 1) as i32)
        })
    }

    /// A varint+ that must be >= 0 (an index or a count).
    #[inline(always)]
    pub fn uvarint(&mut self, what: &str) -> Read<usize> {
        // Inline only the one-byte case (counts, indices, triangle indices): the rest is a
        // call.
        if let Some(&b) = self.bytes.get(self.pos)
            && b & 0x80 == 0
        {
            self.pos += 1;
            return Ok(b as usize);
        }
        self.uvarint_long(what)
    }

    #[inline(never)]
    fn uvarint_long(&mut self, what: &str) -> Read<usize> {
        let at = self.pos;
        let v = self.varint(true, what)?;
        usize::try_from(v).map_err(|_| self.negative(at, v, what))
    }

    #[cold]
    #[inline(never)]
    fn negative(&self, at: usize, v: i32, what: &str) -> LoadError {
        self.error_at(at, format!("{what} {v} is negative"))
    }

    /// A count of items each at least `min_bytes` long: fails unless that many could fit in
    /// the bytes left, so the caller may reserve `count` items.
    #[inline]
    pub fn count(&mut self, min_bytes: usize, what: &str) -> Read<usize> {
        let at = self.pos;
        let n = self.uvarint(what)?;
        self.check_fits(at, n, min_bytes, what)?;
        Ok(n)
    }

    /// Fails (at `at`) unless `n` items of at least `min_bytes` fit in the bytes left.
    #[inline]
    pub fn check_fits(&self, at: usize, n: usize, min_bytes: usize, what: &str) -> Read<()> {
        let need = n.checked_mul(min_bytes.max(1));
        if need.is_none_or(|need| need > self.remaining()) {
            return Err(self.impossible(at, n, need, what));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn impossible(&self, at: usize, n: usize, need: Option<usize>, what: &str) -> LoadError {
        self.error_at(
            at,
            format!(
                "{what} {n} is impossible: it needs at least {} bytes, only {} left",
                need.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string()),
                self.remaining()
            ),
        )
    }

    /// An index that must be below `len` (the number of bones, slots, ...).
    #[inline]
    pub fn index(&mut self, len: usize, what: &str) -> Read<usize> {
        let at = self.pos;
        let i = self.uvarint(what)?;
        if i >= len {
            return Err(self.out_of_range(at, i, len, what));
        }
        Ok(i)
    }

    #[cold]
    #[inline(never)]
    fn out_of_range(&self, at: usize, i: usize, len: usize, what: &str) -> LoadError {
        self.error_at(at, format!("{what} {i} is out of range (there are {len})"))
    }

    /// A big-endian IEEE float; NaN and infinities are errors.
    #[inline]
    pub fn f32(&mut self, what: &str) -> Read<f32> {
        let v = f32::from_be_bytes(self.array(what)?);
        if !v.is_finite() {
            return Err(self.not_finite(self.pos - 4, v, what));
        }
        Ok(v)
    }

    /// `N` consecutive floats (one bounds check), each named for errors.
    #[inline]
    pub fn f32_array<const N: usize>(&mut self, names: [&str; N]) -> Read<[f32; N]> {
        let at = self.pos;
        let Some(b) = self.bytes.get(at..).and_then(|b| b.get(..N * 4)) else {
            return Err(self.end_of_file(N * 4, names.first().copied().unwrap_or("floats")));
        };
        let mut out = [0.0; N];
        for (i, v) in out.iter_mut().enumerate() {
            *v = f32::from_be_bytes([b[i * 4], b[i * 4 + 1], b[i * 4 + 2], b[i * 4 + 3]]);
        }
        if let Some(i) = out.iter().position(|v| !v.is_finite()) {
            return Err(self.not_finite(at + i * 4, out[i], names[i]));
        }
        self.pos += N * 4;
        Ok(out)
    }

    #[cold]
    #[inline(never)]
    fn not_finite(&self, at: usize, v: f32, what: &str) -> LoadError {
        self.error_at(at, format!("{what} is not a finite number ({v})"))
            .with_kind(ErrorKind::NonFinite)
    }

    /// [`Cursor::f32`] widened to `f64` (the model's setup values).
    #[inline]
    pub fn f64(&mut self, what: &str) -> Read<f64> {
        self.f32(what).map(f64::from)
    }

    /// An RGBA8888 color.
    #[inline]
    pub fn color(&mut self, what: &str) -> Read<Color> {
        let b: [u8; 4] = self.array(what)?;
        let c = |v: u8| v as f64 / 255.0;
        Ok(Color::rgba(c(b[0]), c(b[1]), c(b[2]), c(b[3])))
    }

    /// A string: varint+ length + 1 (0 is null, 1 empty), then that many UTF-8 bytes.
    pub fn string(&mut self, what: &str) -> Read<Option<String>> {
        Ok(self.str(what)?.map(str::to_string))
    }

    /// [`Cursor::string`] borrowed from the file's bytes (no allocation).
    pub fn str(&mut self, what: &str) -> Read<Option<&'a str>> {
        let at = self.pos;
        let n = self.uvarint(what)?;
        if n == 0 {
            return Ok(None);
        }
        let bytes = self.take(n - 1, what)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(Some(s)),
            Err(e) => Err(self.error_at(
                at,
                format!(
                    "{what} is not UTF-8 (bad byte at offset {})",
                    at + 1 + e.valid_up_to()
                ),
            )),
        }
    }

    /// A string that must be present (null is an error).
    pub fn name(&mut self, what: &str) -> Read<String> {
        self.name_str(what).map(str::to_string)
    }

    /// [`Cursor::name`] borrowed from the file's bytes.
    pub fn name_str(&mut self, what: &str) -> Read<&'a str> {
        let at = self.pos;
        self.str(what)?
            .ok_or_else(|| self.error_at(at, format!("{what} is missing (null string)")))
    }

    /// A reference into the string table: 0 is null, n is `strings[n - 1]`.
    #[inline]
    pub fn string_ref(&mut self, strings: &[&'a str], what: &str) -> Read<Option<&'a str>> {
        let at = self.pos;
        let i = self.uvarint(what)?;
        if i == 0 {
            return Ok(None);
        }
        match strings.get(i - 1) {
            Some(&s) => Ok(Some(s)),
            None => Err(self.bad_ref(at, i, strings.len(), what)),
        }
    }

    #[cold]
    #[inline(never)]
    fn bad_ref(&self, at: usize, i: usize, len: usize, what: &str) -> LoadError {
        self.error_at(
            at,
            format!("{what}: string reference {i} is out of range (the table has {len})"),
        )
    }

    /// `n` floats into a vector (the caller has checked that they fit, or this fails first).
    pub fn f32s(&mut self, n: usize, what: &str) -> Read<Vec<f32>> {
        let at = self.pos;
        self.check_fits(at, n, 4, what)?;
        let start = self.pos;
        let bytes = self.take(n * 4, what)?;
        let out: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|b| f32::from_be_bytes([b[0], b[1], b[2], b[3]]))
            .collect();
        if let Some(i) = out.iter().position(|v| !v.is_finite()) {
            return Err(self.not_finite(start + i * 4, out[i], what));
        }
        Ok(out)
    }

    /// The common case of `n` vertex indices, each a varint+ below `below`: reads the
    /// leading run of one-byte indices in range (up to `n`) into `out` without a check per
    /// read, and returns how many it read. The caller reads the rest one by one, which
    /// reports a bad one.
    #[inline]
    pub fn small_indices(&mut self, n: usize, below: usize, out: &mut Vec<u32>) -> usize {
        let rest = &self.bytes[self.pos..];
        let rest = &rest[..n.min(rest.len())];
        let run = rest
            .iter()
            .position(|&b| b & 0x80 != 0 || b as usize >= below)
            .unwrap_or(rest.len());
        out.extend(rest[..run].iter().map(|&b| b as u32));
        self.pos += run;
        run
    }

    /// The common case of `n` weighted-vertex influences (a varint+ bone index below
    /// `bones`, then bind x, bind y and weight): reads the leading run of influences whose
    /// index takes one byte and is in range and whose floats are finite, pushing the index
    /// to `indices` and the floats to `floats`, and returns how many it read. The caller
    /// reads the rest with the checked reads, which report a bad one.
    #[inline]
    pub fn small_influences(
        &mut self,
        n: usize,
        bones: usize,
        indices: &mut Vec<u32>,
        floats: &mut Vec<f32>,
    ) -> usize {
        let (chunks, _) = self.bytes[self.pos..].as_chunks::<13>();
        let mut done = 0;
        for c in chunks.iter().take(n) {
            let b = c[0];
            let f = |i: usize| f32::from_be_bytes([c[i], c[i + 1], c[i + 2], c[i + 3]]);
            let v = [f(1), f(5), f(9)];
            if b & 0x80 != 0 || b as usize >= bones || !v.iter().all(|v| v.is_finite()) {
                break;
            }
            indices.push(b as u32);
            floats.extend_from_slice(&v);
            done += 1;
        }
        self.pos += done * 13;
        done
    }

    /// A varint+ count then that many big-endian 16-bit values.
    pub fn u16s(&mut self, what: &str) -> Read<Vec<u32>> {
        let n = self.count(2, what)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(self.u16(what)? as u32);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints() {
        let mut c = Cursor::new(&[0x05, 0xac, 0x02, 0x03, 0xff, 0xff, 0xff, 0xff, 0x0f]);
        assert_eq!(c.varint(true, "a").unwrap(), 5);
        assert_eq!(c.varint(true, "a").unwrap(), 300);
        assert_eq!(c.varint(false, "a").unwrap(), -2);
        assert_eq!(c.varint(true, "a").unwrap(), -1);
        assert_eq!(c.remaining(), 0);
        assert!(c.varint(true, "a").is_err());
    }

    #[test]
    fn strings_and_refs() {
        let mut c = Cursor::new(b"\x00\x01\x04abc\x00\x01\x02");
        assert_eq!(c.string("s").unwrap(), None);
        assert_eq!(c.string("s").unwrap().as_deref(), Some(""));
        assert_eq!(c.string("s").unwrap().as_deref(), Some("abc"));
        let table = ["x"];
        assert_eq!(c.string_ref(&table, "r").unwrap(), None);
        assert_eq!(c.string_ref(&table, "r").unwrap(), Some("x"));
        assert!(c.string_ref(&table, "r").is_err());
        assert!(Cursor::new(b"\x03\xff\xfe").string("s").is_err());
        assert!(Cursor::new(b"\x09ab").string("s").is_err());
    }

    #[test]
    fn counts_are_checked_before_allocating() {
        let mut c = Cursor::new(&[0xff, 0xff, 0xff, 0xff, 0x07, 0, 0]);
        let e = c.count(4, "vertex count").unwrap_err();
        assert!(e.to_string().starts_with("byte 0: vertex count"), "{e}");
        assert!(Cursor::new(&[0x02, 0, 0, 0, 0]).f32s(2, "v").is_err());
    }

    #[test]
    fn index_and_influence_runs_stop_where_the_checked_reads_take_over() {
        let mut c = Cursor::new(&[1, 2, 9, 0x81, 0x01, 3]);
        let mut out = Vec::new();
        assert_eq!(c.small_indices(6, 5, &mut out), 2);
        assert_eq!((out.as_slice(), c.offset()), (&[1u32, 2][..], 2));
        assert_eq!(c.small_indices(1, 10, &mut out), 1);
        assert_eq!(c.small_indices(3, 10, &mut out), 0);
        let mut bytes = vec![2];
        bytes.extend([1.0f32, 2.0, 0.5].iter().flat_map(|v| v.to_be_bytes()));
        bytes.push(7);
        bytes.extend([1.0f32, f32::NAN, 0.5].iter().flat_map(|v| v.to_be_bytes()));
        bytes.push(1);
        let (mut idx, mut fl) = (Vec::new(), Vec::new());
        let mut c = Cursor::new(&bytes);
        assert_eq!(c.small_influences(3, 8, &mut idx, &mut fl), 1);
        assert_eq!(
            (idx.as_slice(), fl.as_slice()),
            (&[2u32][..], &[1.0f32, 2.0, 0.5][..])
        );
        assert_eq!(c.offset(), 13);
        // Too few bytes for a whole influence: none.
        let mut c = Cursor::new(&bytes[26..]);
        assert_eq!(c.small_influences(1, 8, &mut idx, &mut fl), 0);
    }

    #[test]
    fn errors_name_the_context() {
        let mut c = Cursor::new(&[0, 0, 0x7f, 0xc0, 0, 0]);
        c.enter("skin", None, Some("gone"));
        c.leave();
        c.enter("animation", None, Some("walk"));
        c.enter("bone timeline", Some(3), None);
        c.enter("slot", None, Some("hand"));
        c.enter("key", Some(0), None);
        c.set_index(7);
        c.u16("x").unwrap();
        let e = c.f32("time").unwrap_err();
        assert_eq!(
            e.to_string(),
            "byte 2: animation 'walk', bone timeline 3, slot 'hand', key 7: time is not a finite number (NaN)"
        );
        assert!(Cursor::new(&[2]).bool("b").is_err());
    }
}
