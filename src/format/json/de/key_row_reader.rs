//! The fast reader's side of the key-row request ([`crate::format::json::key_row`]): a key
//! object read member by member into a row of numbers, with the same grammar and the same
//! number conversions as the general path (`Raw32` / `F32` for the time and values, `f64` for
//! the curve numbers), or not at all.

use serde::de::{DeserializeSeed, SeqAccess, Visitor};

use super::{GaveUp, Number, Numbers, ReadNumber, Result, SliceDeserializer, Text};
use crate::format::json::key_row::{
    CURVE_NONE, CURVE_NUMBER, CURVE_POINTS, CURVE_STEPPED, MAX_CURVE,
};
use crate::format::json::number::to_f32;

/// The longest row: time, two values, curve code, then [`MAX_CURVE`] curve numbers (4.x) or
/// four curve numbers and `c2` to `c4` (3.x).
const ROW: usize = 4 + MAX_CURVE;

/// The key shapes the request knows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// 4.x, one value (`value`).
    Value4 = 0,
    /// 4.x, two values (`x`, `y`).
    Xy4 = 1,
    /// 3.x rotate (`angle`).
    Rotate3 = 2,
    /// 3.x, two values (`x`, `y`).
    Xy3 = 3,
}

impl Shape {
    /// The shape numbered `n` (`Shape::X as u8`).
    #[inline(always)]
    const fn of(n: u8) -> Shape {
        match n {
            0 => Shape::Value4,
            1 => Shape::Xy4,
            2 => Shape::Rotate3,
            _ => Shape::Xy3,
        }
    }

    fn values(self) -> usize {
        match self {
            Shape::Value4 | Shape::Rotate3 => 1,
            Shape::Xy4 | Shape::Xy3 => 2,
        }
    }

    fn v3(self) -> bool {
        matches!(self, Shape::Rotate3 | Shape::Xy3)
    }
}

impl<'de> SliceDeserializer<'de> {
    /// Reads the key object of `shape` at the position and hands its row to
    /// `visitor.visit_seq`; a key this pass does not read is read from the start again
    /// through `visitor.visit_newtype_struct`.
    ///
    /// `S` is a [`Shape`] as a number (`Shape::X as u8`): each shape gets its own copy, with
    /// its member names and row layout known when compiled.
    pub(super) fn key_row<const S: u8, V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        let shape = Shape::of(S);
        let (pos, depth) = (self.pos, self.depth);
        let mut row = [0.0; ROW];
        match self.key_object(shape, &mut row) {
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
    fn key_object(&mut self, shape: Shape, row: &mut [f64; ROW]) -> Option<usize> {
        if self.skip_ws() != Some(b'{') {
            return None;
        }
        self.enter().ok()?;
        let values = shape.values();
        let code_at = 1 + values;
        let mut len = code_at + 1;
        row[1] = f64::NAN;
        row[values] = f64::NAN;
        row[code_at] = CURVE_NONE;
        if shape.v3() {
            // p1..p4 stay 0; c2, c3, c4 absent.
            len = code_at + 8;
            row[code_at + 5..len].fill(f64::NAN);
        }
        let mut seen = 0u8;
        let mut first = true;
        while self.next_key(&mut first).ok()? {
            let field = self.member(shape)?;
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
                row[0] = self.stored_f32()?;
            } else if field < code_at {
                if self.skip_ws() == Some(b'n') {
                    self.literal(b"null").ok()?;
                } else {
                    row[field] = self.stored_f32()?;
                }
            } else if field == code_at {
                if shape.v3() {
                    let curve: &mut [f64; 4] =
                        (&mut row[code_at + 1..code_at + 5]).try_into().ok()?;
                    row[code_at] = self.curve3(curve)?;
                } else {
                    let (code, numbers) = self.curve4(&mut row[code_at + 1..])?;
                    row[code_at] = code;
                    len = code_at + 1 + numbers;
                }
            } else {
                // c2, c3, c4 (`Option<f64>`), after the four curve numbers.
                if self.skip_ws() == Some(b'n') {
                    self.literal(b"null").ok()?;
                } else {
                    row[field + 4] = self.any_f64()?;
                }
            }
        }
        self.leave(b'}').ok()?;
        Some(len)
    }

    /// The member name at the position (its opening quote): its field number (0 time, then
    /// the values, the curve, `c2` to `c4`). The names a key has are compared as words of
    /// the text, quotes included; any other name (or one near the end of the text) is read
    /// as a string.
    #[inline(always)]
    fn member(&mut self, shape: Shape) -> Option<usize> {
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
        const ANGLE: u64 = word(b"\"angle\"");
        const CURVE: u64 = word(b"\"curve\"");
        const X: u64 = word(b"\"x\"");
        const Y: u64 = word(b"\"y\"");
        const C: u64 = word(b"\"c");
        let values = shape.values();
        if let Some(w) = self
            .bytes
            .get(self.pos..)
            .and_then(<[u8]>::first_chunk::<8>)
        {
            let w = u64::from_le_bytes(*w);
            let (field, len) = if w & mask(6) == TIME {
                (0, 6)
            } else if values == 1 && w & mask(7) == if shape.v3() { ANGLE } else { VALUE } {
                (1, 7)
            } else if w & mask(7) == CURVE {
                (values + 1, 7)
            } else if values == 2 && w & mask(3) == X {
                (1, 3)
            } else if values == 2 && w & mask(3) == Y {
                (2, 3)
            } else if shape.v3() && w & mask(2) == C && (w >> 24) as u8 == b'"' {
                // `"c2"`, `"c3"`, `"c4"`: fields values + 2 to values + 4.
                match (w >> 16) as u8 {
                    d @ b'2'..=b'4' => (values + usize::from(d - b'0'), 4),
                    _ => (usize::MAX, 0),
                }
            } else {
                (usize::MAX, 0)
            };
            if len != 0 {
                self.pos += len;
                return Some(field);
            }
        }
        match self.string().ok()? {
            Text::Borrowed(name) => field(shape, name),
            Text::Owned(_) => None,
        }
    }

    /// A number stored as `f32` (`Raw32`, `F32`): it must fit; the value read, in `f64`.
    #[inline(always)]
    fn stored_f32(&mut self) -> Option<f64> {
        let v = self.any_f64()?;
        to_f32(v).map(|_| v)
    }

    /// A number read as an `f64` visitor reads it.
    #[inline(always)]
    fn any_f64(&mut self) -> Option<f64> {
        if !matches!(self.skip_ws(), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        Some(as_f64(self.number().ok()?))
    }

    /// A 4.x `curve` value: its code, and how many numbers it wrote to `out`.
    fn curve4(&mut self, out: &mut [f64]) -> Option<(f64, usize)> {
        match self.skip_ws()? {
            b'n' => {
                self.literal(b"null").ok()?;
                Some((CURVE_NONE, 0))
            }
            b'"' => self.stepped(),
            b'[' => {
                let len = self.curve_numbers(out)?;
                Some((len as f64, len))
            }
            _ => None,
        }
    }

    /// A 3.x `curve` value (`CurveDto`): its code, its numbers in `out`.
    fn curve3(&mut self, out: &mut [f64; 4]) -> Option<f64> {
        match self.skip_ws()? {
            b'n' => {
                self.literal(b"null").ok()?;
                Some(CURVE_NONE)
            }
            b'"' => self.stepped().map(|(code, _)| code),
            b'-' | b'0'..=b'9' => {
                out[0] = as_f64(self.number().ok()?);
                Some(CURVE_NUMBER)
            }
            b'[' => (self.curve_numbers(out)? == 4).then_some(CURVE_POINTS),
            _ => None,
        }
    }

    /// `"stepped"` at the position.
    fn stepped(&mut self) -> Option<(f64, usize)> {
        match self.string().ok()? {
            Text::Borrowed("stepped") => Some((CURVE_STEPPED, 0)),
            _ => None,
        }
    }

    /// The array of numbers at the position into `out` (it must fit): how many.
    fn curve_numbers(&mut self, out: &mut [f64]) -> Option<usize> {
        self.enter().ok()?;
        // The number arrays' own loop (see `Numbers`), element type `f64` as serde reads it.
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
        Some(len)
    }
}

/// A member name's field number (see [`SliceDeserializer::member`]).
#[inline(always)]
fn field(shape: Shape, name: &str) -> Option<usize> {
    let values = shape.values();
    match (shape, name) {
        (_, "time") => Some(0),
        (Shape::Value4, "value") | (Shape::Rotate3, "angle") => Some(1),
        (Shape::Xy4 | Shape::Xy3, "x") => Some(1),
        (Shape::Xy4 | Shape::Xy3, "y") => Some(2),
        (_, "curve") => Some(values + 1),
        (Shape::Rotate3 | Shape::Xy3, "c2") => Some(values + 2),
        (Shape::Rotate3 | Shape::Xy3, "c3") => Some(values + 3),
        (Shape::Rotate3 | Shape::Xy3, "c4") => Some(values + 4),
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
