//! The fast reader's side of the key-row request ([`crate::format::json::key_row`]): a 4.x
//! key object read member by member into a row of numbers, with the same grammar and the
//! same number conversions as the general path (`Raw32` for the time and values, `f64` for
//! the curve numbers), or not at all.

use serde::de::{DeserializeSeed, SeqAccess, Visitor};

use super::{GaveUp, Number, Numbers, ReadNumber, Result, SliceDeserializer, Text};
use crate::format::json::key_row::{CURVE_NONE, CURVE_STEPPED, MAX_CURVE};
use crate::format::json::number::to_f32;

/// Time, up to two values, curve code, up to [`MAX_CURVE`] curve numbers.
const ROW: usize = 4 + MAX_CURVE;

impl<'de> SliceDeserializer<'de> {
    /// Reads the key object of `values` values (1 or 2) at the position and hands its row
    /// to `visitor.visit_seq`; a key this pass does not read is read from the start again
    /// through `visitor.visit_newtype_struct`.
    pub(super) fn key_row<V: Visitor<'de>>(
        &mut self,
        values: usize,
        visitor: V,
    ) -> Result<V::Value> {
        let (pos, depth) = (self.pos, self.depth);
        let mut row = [0.0; ROW];
        match self.key_object(values, &mut row) {
            Some(len) => visitor.visit_seq(RowSeq { row: &row[..len] }),
            None => {
                self.pos = pos;
                self.depth = depth;
                visitor.visit_newtype_struct(self)
            }
        }
    }

    /// Reads the key object at the position into `row` (zeros): the row's length, or `None`
    /// (the position is then anywhere).
    #[inline(always)]
    fn key_object(&mut self, values: usize, row: &mut [f64; ROW]) -> Option<usize> {
        if self.skip_ws() != Some(b'{') {
            return None;
        }
        self.enter().ok()?;
        let code_at = 1 + values;
        let mut len = code_at + 1;
        row[1] = f64::NAN;
        row[values] = f64::NAN;
        row[code_at] = CURVE_NONE;
        let mut seen = 0u8;
        let mut first = true;
        while self.next_key(&mut first).ok()? {
            let field = self.member(values)?;
            if seen & (1 << field) != 0 {
                return None;
            }
            seen |= 1 << field;
            if self.bytes.get(self.pos) == Some(&b':') {
                self.pos += 1;
            } else {
                self.colon().ok()?;
            }
            if field == 0 {
                row[0] = self.raw32()?;
            } else if field < code_at {
                if self.skip_ws() == Some(b'n') {
                    self.literal(b"null").ok()?;
                } else {
                    row[field] = self.raw32()?;
                }
            } else {
                let (code, numbers) = self.curve(&mut row[code_at + 1..])?;
                row[code_at] = code;
                len = code_at + 1 + numbers;
            }
        }
        self.leave(b'}').ok()?;
        Some(len)
    }

    /// The member name at the position (its opening quote): its place in the row. The names
    /// a key has are compared as words of the text, quotes included; any other name (or one
    /// near the end of the text) is read as a string.
    #[inline(always)]
    fn member(&mut self, values: usize) -> Option<usize> {
        const fn word(name: &[u8]) -> u64 {
            let mut w = [0u8; 8];
            let mut i = 0;
            while i < name.len() {
                w[i] = name[i];
                i += 1;
            }
            u64::from_le_bytes(w)
        }
        const fn mask(len: usize) -> u64 {
            u64::MAX >> (64 - 8 * len)
        }
        const TIME: u64 = word(b"\"time\"");
        const VALUE: u64 = word(b"\"value\"");
        const CURVE: u64 = word(b"\"curve\"");
        const X: u64 = word(b"\"x\"");
        const Y: u64 = word(b"\"y\"");
        if let Some(w) = self
            .bytes
            .get(self.pos..)
            .and_then(<[u8]>::first_chunk::<8>)
        {
            let w = u64::from_le_bytes(*w);
            let (field, len) = if w & mask(6) == TIME {
                (0, 6)
            } else if values == 1 && w & mask(7) == VALUE {
                (1, 7)
            } else if w & mask(7) == CURVE {
                (values + 1, 7)
            } else if values == 2 && w & mask(3) == X {
                (1, 3)
            } else if values == 2 && w & mask(3) == Y {
                (2, 3)
            } else {
                (usize::MAX, 0)
            };
            if len != 0 {
                self.pos += len;
                return Some(field);
            }
        }
        match self.string().ok()? {
            Text::Borrowed(name) => field(values, name),
            Text::Owned(_) => None,
        }
    }

    /// A number stored as `f32` but kept in the file's precision (`Raw32`): it must fit.
    #[inline(always)]
    fn raw32(&mut self) -> Option<f64> {
        if !matches!(self.skip_ws(), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        let v = as_f64(self.number().ok()?);
        to_f32(v).map(|_| v)
    }

    /// A `curve` value: its code, and how many numbers it wrote to `out`.
    fn curve(&mut self, out: &mut [f64]) -> Option<(f64, usize)> {
        match self.skip_ws()? {
            b'n' => {
                self.literal(b"null").ok()?;
                Some((CURVE_NONE, 0))
            }
            b'"' => match self.string().ok()? {
                Text::Borrowed("stepped") => Some((CURVE_STEPPED, 0)),
                _ => None,
            },
            b'[' => {
                self.enter().ok()?;
                // The number arrays' own loop (see `Numbers`), element type `f64` as serde
                // reads it for the curve.
                let mut numbers = Numbers {
                    bytes: self.bytes,
                    de: &mut *self,
                    first: true,
                };
                let mut len = 0;
                while let Some(v) = numbers.next_element::<f64>().ok()? {
                    *out.get_mut(len)? = v;
                    len += 1;
                }
                self.leave(b']').ok()?;
                Some((len as f64, len))
            }
            _ => None,
        }
    }
}

/// A member name's place in the row: 0 time, then the values, then the curve.
#[inline(always)]
fn field(values: usize, name: &str) -> Option<usize> {
    match (values, name) {
        (_, "time") => Some(0),
        (1, "value") | (2, "x") => Some(1),
        (2, "y") => Some(2),
        (_, "curve") => Some(values + 1),
        _ => None,
    }
}

/// A number as an `f64` visitor gets it (serde's `u64` and `i64` conversions: `as`).
#[inline(always)]
fn as_f64(n: Number) -> f64 {
    match n {
        Number::U64(v) => v as f64,
        Number::I64(v) => v as f64,
        Number::F64(v) => v,
    }
}

/// A row handed over as a sequence of `f64`.
struct RowSeq<'r> {
    row: &'r [f64],
}

impl<'de> SeqAccess<'de> for RowSeq<'_> {
    type Error = GaveUp;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match self.row.split_first() {
            Some((&v, rest)) => {
                self.row = rest;
                seed.deserialize(ReadNumber(Number::F64(v))).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.row.len())
    }
}
