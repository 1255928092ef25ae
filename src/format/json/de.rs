//! A JSON deserializer for the loaders' success path: it yields exactly the values serde_json
//! (with `float_roundtrip`) would, for less work, and gives up on anything else.
//!
//! Loading a good file is the common case and worth making cheap; a bad file's error must be
//! exactly serde_json's (message, path, line and column), so [`super::parse::from_slice`]
//! re-reads a file this deserializer gave up on with serde_json. That split lets this one skip
//! what only matters on failure: it validates UTF-8 once for the whole text instead of once per
//! string, hands out keys and strings borrowed from the text, reads decimal numbers with one
//! exact floating-point operation when that is correctly rounded (falling back to the standard
//! library's correctly rounded parser otherwise, which is what `float_roundtrip` guarantees),
//! and carries no position or message in its error.
//!
//! What it must never do is accept a text serde_json rejects, or produce another value: the
//! grammar is checked as strictly (numbers, escapes, control characters, trailing commas,
//! trailing text, nesting depth), and every `deserialize_*` method calls the visitor method
//! serde_json would call. Anything unusual (a `\u` escape, an enum written as a map, byte
//! strings) is simply refused and left to serde_json.

use std::fmt;

use serde::de::value::{StrDeserializer, StringDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::key_row::{KEY_ROW_1, KEY_ROW_2, KEY_ROW_3_ROTATE, KEY_ROW_3_XY};
use super::number::{NUMBER_ARRAY, NUMBER_ARRAY_OR_ANY};

mod key_row_reader;

/// Why the fast path gave up (deliberately empty: serde_json says why on the second read).
#[derive(Debug)]
pub struct GaveUp;

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not read by the fast JSON path")
    }
}

impl std::error::Error for GaveUp {}

impl de::Error for GaveUp {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        GaveUp
    }
}

type Result<T> = std::result::Result<T, GaveUp>;

/// Nesting deeper than this is left to serde_json (whose own limit is 128).
const MAX_DEPTH: u32 = 100;

/// Parses `text` as one JSON value into `T`, or gives up (see the module documentation).
pub fn from_slice<'de, T: de::Deserialize<'de>>(text: &'de [u8]) -> Result<T> {
    let text = std::str::from_utf8(text).map_err(|_| GaveUp)?;
    let mut de = SliceDeserializer {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        depth: 0,
    };
    let value = T::deserialize(&mut de)?;
    match de.skip_ws() {
        None => Ok(value),
        Some(_) => Err(GaveUp),
    }
}

/// The reader: the text (valid UTF-8) and a byte position in it.
struct SliceDeserializer<'de> {
    text: &'de str,
    bytes: &'de [u8],
    pos: usize,
    depth: u32,
}

/// A string value: borrowed from the text, or unescaped into a new `String`.
enum Text<'de> {
    Borrowed(&'de str),
    Owned(String),
}

/// A number as serde_json reports it to visitors.
enum Number {
    U64(u64),
    I64(i64),
    F64(f64),
}

/// Powers of ten that are exact in `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The high bit of each byte of `word` (little-endian) that ends a plain run of string text, or
/// of a byte above it: the lowest set bit is exact (the first `"`, `\\` or byte below 0x20),
/// since a false flag needs a borrow from a true one below it.
#[inline(always)]
fn string_specials(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    let quote = zero_byte(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_byte(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGH;
    quote | backslash | control
}

impl<'de> SliceDeserializer<'de> {
    /// Skips whitespace; the next byte, if any.
    #[inline]
    fn skip_ws(&mut self) -> Option<u8> {
        while let Some(&b) = self.bytes.get(self.pos) {
            if !matches!(b, b' ' | b'\n' | b'\t' | b'\r') {
                return Some(b);
            }
            self.pos += 1;
        }
        None
    }

    /// Consumes `word` (`null`, `true`, `false`) at the position.
    fn literal(&mut self, word: &[u8]) -> Result<()> {
        if self.bytes[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    /// Reads the string whose opening quote is at the position. Eight bytes at a time while
    /// eight are left: a string's bytes were 9 % of a small load's instructions one by one.
    /// Always inlined: most strings are short names, and as a call its prologue and epilogue
    /// were a third of its cost.
    #[inline(always)]
    fn string(&mut self) -> Result<Text<'de>> {
        let start = self.pos + 1;
        let mut i = start;
        loop {
            if let Some(word) = self.bytes.get(i..).and_then(<[u8]>::first_chunk::<8>) {
                let special = string_specials(u64::from_le_bytes(*word));
                if special == 0 {
                    i += 8;
                    continue;
                }
                // The lowest flagged byte is a quote, a backslash or a control character.
                i += (special.trailing_zeros() / 8) as usize;
            }
            match *self.bytes.get(i).ok_or(GaveUp)? {
                b'"' => {
                    self.pos = i + 1;
                    // Quotes are ASCII, so both ends are character boundaries.
                    return Ok(Text::Borrowed(&self.text[start..i]));
                }
                b'\\' => return self.escaped_string(start, i),
                0..=0x1f => return Err(GaveUp),
                _ => i += 1,
            }
        }
    }

    /// The rest of a string that holds escapes (`start` is its first byte, `i` the first
    /// backslash). `\u` escapes are left to serde_json (surrogate rules).
    #[cold]
    fn escaped_string(&mut self, start: usize, mut i: usize) -> Result<Text<'de>> {
        let mut out = String::with_capacity(i - start + 16);
        out.push_str(&self.text[start..i]);
        let mut run = i;
        loop {
            match *self.bytes.get(i).ok_or(GaveUp)? {
                b'"' => {
                    out.push_str(&self.text[run..i]);
                    self.pos = i + 1;
                    return Ok(Text::Owned(out));
                }
                b'\\' => {
                    out.push_str(&self.text[run..i]);
                    let c = match *self.bytes.get(i + 1).ok_or(GaveUp)? {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        _ => return Err(GaveUp),
                    };
                    out.push(c);
                    i += 2;
                    run = i;
                }
                0..=0x1f => return Err(GaveUp),
                _ => i += 1,
            }
        }
    }

    /// Reads the number at the position (JSON grammar), as serde_json reports it. Inlined
    /// into its callers: most of a Spine file is numbers, and the call's cost showed.
    #[inline(always)]
    fn number(&mut self) -> Result<Number> {
        if let Some((number, end)) = short_number(self.bytes, self.pos) {
            self.pos = end;
            return Ok(number);
        }
        self.number_general()
    }

    /// [`Self::number`] for any number, read byte by byte. Not inlined: it is the rare case
    /// beside [`short_number`], and inlined it made the loops over number arrays longer.
    #[inline(never)]
    fn number_general(&mut self) -> Result<Number> {
        let bytes = self.bytes;
        let start = self.pos;
        let negative = bytes.get(start) == Some(&b'-');
        let int_start = start + usize::from(negative);
        // Up to 19 digits cannot overflow a u64; longer numbers take the exact slow path.
        let (mut mantissa, mut i) = digits(bytes, int_start, 0);
        let int_digits = i - int_start;
        if int_digits == 0 || (int_digits > 1 && bytes[int_start] == b'0') {
            return Err(GaveUp); // no digit, or a leading zero
        }
        let mut count = int_digits;
        let mut exp10: i64 = 0;
        let mut float = false;
        if bytes.get(i) == Some(&b'.') {
            float = true;
            let first = i + 1;
            (mantissa, i) = digits(bytes, first, mantissa);
            if i == first {
                return Err(GaveUp);
            }
            count += i - first;
            exp10 = -((i - first) as i64);
        }
        if matches!(bytes.get(i), Some(b'e' | b'E')) {
            float = true;
            i += 1;
            let exp_negative = match bytes.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let first = i;
            let mut exp: i64 = 0;
            while let Some(&c @ b'0'..=b'9') = bytes.get(i) {
                exp = (exp * 10 + i64::from(c - b'0')).min(1 << 40);
                i += 1;
            }
            if i == first {
                return Err(GaveUp);
            }
            exp10 += if exp_negative { -exp } else { exp };
        }
        self.pos = i;
        if !float {
            let mantissa = if count <= 19 {
                mantissa
            } else {
                match self.text[int_start..i].parse::<u64>() {
                    Ok(m) => m,
                    // Past u64: a float, correctly rounded (`float_roundtrip`).
                    Err(_) => return self.float_slow(start, i),
                }
            };
            // serde_json's integer rules, including "-0" as the float -0.0.
            if !negative {
                return Ok(Number::U64(mantissa));
            }
            let n = (mantissa as i64).wrapping_neg();
            return Ok(if n >= 0 {
                Number::F64(-(mantissa as f64))
            } else {
                Number::I64(n)
            });
        }
        if count <= 19 && mantissa <= 1 << 53 && (-22..=22).contains(&exp10) {
            // Both operands are exact, so one IEEE operation rounds correctly.
            let m = mantissa as f64;
            let p = POW10[exp10.unsigned_abs() as usize];
            let value = if exp10 < 0 { m / p } else { m * p };
            return Ok(Number::F64(if negative { -value } else { value }));
        }
        self.float_slow(start, i)
    }

    /// The number `text[start..end]` read by the standard library's correctly rounded parser.
    #[cold]
    fn float_slow(&self, start: usize, end: usize) -> Result<Number> {
        let value = self.text[start..end].parse::<f64>().map_err(|_| GaveUp)?;
        if value.is_infinite() {
            return Err(GaveUp); // serde_json: "number out of range"
        }
        Ok(Number::F64(value))
    }

    /// Reads the number at the position in single precision, as serde_json does for `f32`
    /// (floats rounded once from the text; integers as integers).
    fn number_f32(&mut self) -> Result<Number> {
        let start = self.pos;
        let number = self.number()?;
        if let Number::F64(_) = number {
            let value = self.text[start..self.pos]
                .parse::<f32>()
                .map_err(|_| GaveUp)?;
            if value.is_infinite() {
                return Err(GaveUp);
            }
            return Ok(Number::F64(f64::from(value)));
        }
        Ok(number)
    }

    /// Always inlined: as a call it took the number through memory, and in the loops over
    /// number arrays the visitor could not see which variant it got.
    #[inline(always)]
    fn visit_number<V: Visitor<'de>>(number: Number, visitor: V) -> Result<V::Value> {
        match number {
            Number::U64(v) => visitor.visit_u64(v),
            Number::I64(v) => visitor.visit_i64(v),
            Number::F64(v) => visitor.visit_f64(v),
        }
    }

    /// Inlined: a key's visitor (serde's field matches) then sees a string it can compare
    /// where it was read; as a call it cost 2-3 % of a 4.x load.
    #[inline]
    fn visit_text<V: Visitor<'de>>(text: Text<'de>, visitor: V) -> Result<V::Value> {
        match text {
            Text::Borrowed(s) => visitor.visit_borrowed_str(s),
            Text::Owned(s) => visitor.visit_string(s),
        }
    }

    /// Enters an array or object (the position is at its opening bracket).
    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(GaveUp);
        }
        self.pos += 1;
        Ok(())
    }

    /// Leaves an array or object: its closing bracket must come next (serde_json rejects a
    /// visitor that stopped before the end).
    fn leave(&mut self, close: u8) -> Result<()> {
        self.depth -= 1;
        if self.skip_ws() == Some(close) {
            self.pos += 1;
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    /// An array of numbers asked for by [`NUMBER_ARRAY`]: the visitor gets the elements
    /// from [`Numbers`], which reads each one as a number in place.
    fn number_array<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        if self.skip_ws() != Some(b'[') {
            return Err(GaveUp);
        }
        self.enter()?;
        let value = visitor.visit_seq(Numbers {
            bytes: self.bytes,
            de: &mut *self,
            first: true,
        })?;
        self.leave(b']')?;
        Ok(value)
    }

    /// Skips one value, checking its grammar.
    fn skip_value(&mut self) -> Result<()> {
        match self.skip_ws().ok_or(GaveUp)? {
            b'n' => self.literal(b"null"),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => self.number().map(drop),
            b'[' => {
                self.enter()?;
                let mut first = true;
                while self.next_element(&mut first, b']')? {
                    self.skip_value()?;
                }
                self.leave(b']')
            }
            b'{' => {
                self.enter()?;
                let mut first = true;
                while self.next_key(&mut first)? {
                    self.string()?;
                    self.colon()?;
                    self.skip_value()?;
                }
                self.leave(b'}')
            }
            _ => Err(GaveUp),
        }
    }

    /// Whether another element follows in an array or object closed by `close` (consuming
    /// the comma before it).
    #[inline]
    fn next_element(&mut self, first: &mut bool, close: u8) -> Result<bool> {
        let b = self.skip_ws().ok_or(GaveUp)?;
        if b == close {
            return Ok(false);
        }
        if *first {
            *first = false;
            return Ok(true);
        }
        if b != b',' {
            return Err(GaveUp);
        }
        self.pos += 1;
        match self.skip_ws() {
            Some(b) if b == close => Err(GaveUp), // trailing comma
            Some(_) => Ok(true),
            None => Err(GaveUp),
        }
    }

    /// Whether another member follows in an object; if so the position is at its key.
    #[inline]
    fn next_key(&mut self, first: &mut bool) -> Result<bool> {
        if !self.next_element(first, b'}')? {
            return Ok(false);
        }
        if self.bytes.get(self.pos) == Some(&b'"') {
            Ok(true)
        } else {
            Err(GaveUp)
        }
    }

    /// Consumes the `:` after a key.
    #[inline]
    fn colon(&mut self) -> Result<()> {
        if self.skip_ws() == Some(b':') {
            self.pos += 1;
            Ok(())
        } else {
            Err(GaveUp)
        }
    }
}

/// Integer powers of ten up to 10^7 (for the fraction digits read as one word).
const POW10_INT: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// `t`, eight bytes of text with `'0'` taken from each (a digit byte becomes its value),
/// with the high bit of its first byte that is not an ASCII digit set, and maybe of bytes
/// after that one: a byte carries into the next only if it is not a digit itself (digits
/// stay below 0x80 after the add, and a byte with its high bit set is no digit).
#[inline(always)]
fn non_digits(t: u64) -> u64 {
    (t.wrapping_add(0x7676_7676_7676_7676) | t) & 0x8080_8080_8080_8080
}

/// The value of the first `n` (1 to 8) digits of `t` (digit values, first digit in the low
/// byte): moved to the top so that zeros lead, then combined in pairs, fours and eights by
/// the usual multiply-and-shift steps.
#[inline(always)]
fn digits_value(t: u64, n: u32) -> u64 {
    let v = t << (64 - 8 * n);
    let v = v.wrapping_mul(2561) >> 8;
    let v = (v & 0x00ff_00ff_00ff_00ff).wrapping_mul(6_553_601) >> 16;
    (v & 0x0000_ffff_0000_ffff).wrapping_mul(42_949_672_960_001) >> 32
}

/// The number at `start` and the position after it when it is a short plain one (optional
/// `-`, 1 to 7 integer digits without a leading zero, optionally `.` and 1 to 7 fraction
/// digits, no exponent) with at least 16 bytes of text from its first digit on. `None`
/// leaves everything else, errors included, to [`SliceDeserializer::number_general`], whose
/// values these are: at most 14 digits and 7 decimals, read with one exact division.
///
/// The integer digits (mostly one to three) are read one by one, which takes fewer
/// instructions than a word; the fraction's (mostly four to seven) as one word.
#[inline(always)]
fn short_number(bytes: &[u8], start: usize) -> Option<(Number, usize)> {
    let negative = bytes.get(start) == Some(&b'-');
    let int_start = start + usize::from(negative);
    let (number, len) = short_number_in(bytes.get(int_start..)?.first_chunk()?, negative)?;
    Some((number, int_start + len))
}

/// [`short_number`] in the sixteen bytes `s` from its first digit on (they hold the integer
/// digits, the point and the fraction's word): the number and its length in `s`.
#[inline(always)]
fn short_number_in(s: &[u8; 16], negative: bool) -> Option<(Number, usize)> {
    let first = s[0].wrapping_sub(b'0');
    if first > 9 {
        return None;
    }
    let mut int = u64::from(first);
    let mut n1 = 1;
    let after = loop {
        let d = s[n1].wrapping_sub(b'0');
        if d > 9 {
            break s[n1];
        }
        if n1 == 7 {
            return None; // eight digits or more
        }
        int = int * 10 + u64::from(d);
        n1 += 1;
    };
    if n1 > 1 && first == 0 {
        return None; // a leading zero
    }
    if after == b'.' {
        let frac = n1 + 1;
        let word = s[frac..].first_chunk::<8>()?;
        let t = u64::from_le_bytes(*word) ^ 0x3030_3030_3030_3030;
        let n2 = non_digits(t).trailing_zeros() / 8;
        // Seven digits at most (n2 is 8 when all eight bytes are digits), and at least one.
        if n2 == 0 || n2 == 8 {
            return None;
        }
        let end = frac + n2 as usize;
        if s[end & 15] | 0x20 == b'e' {
            return None; // an exponent
        }
        let mantissa = int * POW10_INT[n2 as usize & 7] + digits_value(t, n2);
        // Both operands are exact, so one IEEE operation rounds correctly. (The mantissa
        // is below 10^14: as i64 it converts in one instruction, as u64 in five.)
        let value = mantissa as i64 as f64 / POW10[n2 as usize & 7];
        let value = if negative { -value } else { value };
        return Some((Number::F64(value), end));
    }
    if after | 0x20 == b'e' {
        return None;
    }
    // serde_json's integer rules, including "-0" as the float -0.0.
    let number = if !negative {
        Number::U64(int)
    } else if int == 0 {
        Number::F64(-0.0)
    } else {
        Number::I64(-(int as i64))
    };
    Some((number, n1))
}

/// Reads the decimal digits from `i` on into `mantissa` (wrapping: the caller counts them);
/// the new mantissa and the position after the digits.
#[inline]
fn digits(bytes: &[u8], mut i: usize, mut mantissa: u64) -> (u64, usize) {
    while let Some(&c) = bytes.get(i) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
        i += 1;
    }
    (mantissa, i)
}

/// Numbers of each width: a number is required, as in serde_json.
macro_rules! numbers {
    ($($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            match self.skip_ws() {
                Some(b'-' | b'0'..=b'9') => {
                    let n = self.number()?;
                    SliceDeserializer::visit_number(n, visitor)
                }
                _ => Err(GaveUp),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for &mut SliceDeserializer<'de> {
    type Error = GaveUp;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws().ok_or(GaveUp)? {
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            b't' => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            b'f' => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            b'"' => {
                let text = self.string()?;
                SliceDeserializer::visit_text(text, visitor)
            }
            b'-' | b'0'..=b'9' => {
                let n = self.number()?;
                SliceDeserializer::visit_number(n, visitor)
            }
            b'[' => {
                self.enter()?;
                let value = visitor.visit_seq(Seq {
                    de: &mut *self,
                    first: true,
                })?;
                self.leave(b']')?;
                Ok(value)
            }
            b'{' => {
                self.enter()?;
                let value = visitor.visit_map(Map {
                    de: &mut *self,
                    first: true,
                })?;
                self.leave(b'}')?;
                Ok(value)
            }
            _ => Err(GaveUp),
        }
    }

    numbers!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f64
    );

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'-' | b'0'..=b'9') => {
                let n = self.number_f32()?;
                SliceDeserializer::visit_number(n, visitor)
            }
            _ => Err(GaveUp),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b't' | b'f') => self.deserialize_any(visitor),
            _ => Err(GaveUp),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'"') => {
                let text = self.string()?;
                SliceDeserializer::visit_text(text, visitor)
            }
            _ => Err(GaveUp),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'n') => {
                self.literal(b"null")?;
                visitor.visit_none()
            }
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'n') => self.deserialize_any(visitor),
            _ => Err(GaveUp),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        if name == NUMBER_ARRAY {
            return self.number_array(visitor);
        }
        if name == NUMBER_ARRAY_OR_ANY {
            return match self.skip_ws() {
                Some(b'[') => self.number_array(visitor),
                _ => self.deserialize_any(visitor),
            };
        }
        use key_row_reader::Shape;
        match name {
            KEY_ROW_1 => self.key_row::<{ Shape::Value4 as u8 }, V>(visitor),
            KEY_ROW_2 => self.key_row::<{ Shape::Xy4 as u8 }, V>(visitor),
            KEY_ROW_3_ROTATE => self.key_row::<{ Shape::Rotate3 as u8 }, V>(visitor),
            KEY_ROW_3_XY => self.key_row::<{ Shape::Xy3 as u8 }, V>(visitor),
            _ => visitor.visit_newtype_struct(self),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'[') => self.deserialize_any(visitor),
            _ => Err(GaveUp),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'{') => self.deserialize_any(visitor),
            _ => Err(GaveUp),
        }
    }

    /// Objects, and arrays of the fields in order, as serde_json accepts both.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'{' | b'[') => self.deserialize_any(visitor),
            _ => Err(GaveUp),
        }
    }

    /// Unit variants written as strings (the only form the loaders' types use).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        match self.skip_ws() {
            Some(b'"') => match self.string()? {
                Text::Borrowed(s) => visitor.visit_enum(StrDeserializer::<GaveUp>::new(s)),
                Text::Owned(s) => visitor.visit_enum(StringDeserializer::<GaveUp>::new(s)),
            },
            _ => Err(GaveUp),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.skip_value()?;
        visitor.visit_unit()
    }
}

/// The elements of an array.
struct Seq<'a, 'de> {
    de: &'a mut SliceDeserializer<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Seq<'_, 'de> {
    type Error = GaveUp;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.de.next_element(&mut self.first, b']')? {
            seed.deserialize(&mut *self.de).map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The elements of an array of numbers ([`NUMBER_ARRAY`]): each is read here, where the
/// loop over them is, and handed to its element type already read.
struct Numbers<'a, 'de> {
    /// The text, as in `de`: a copy the loop keeps in a register (the compiler reloaded
    /// `de.bytes` after every element stored, not knowing the vector's memory apart).
    bytes: &'de [u8],
    de: &'a mut SliceDeserializer<'de>,
    first: bool,
}

impl<'de> SeqAccess<'de> for Numbers<'_, 'de> {
    type Error = GaveUp;

    // Always inlined: with several element types the compiler stopped inlining it into the
    // loops over mesh arrays (+6 % of a 3.8 load).
    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        // The separator exports write between numbers (`, ` or `,`) followed by a short
        // number is taken at once, from one window of 19 bytes (separator, sign, number:
        // no bounds check of its own for each); anything else goes through the general
        // element step from the comma on (it reaches a short number and reads it the
        // same way).
        let de = &mut *self.de;
        let (at, bytes) = (de.pos, self.bytes);
        let window = bytes.get(at..).and_then(<[u8]>::first_chunk::<19>);
        if let Some(w) = window.filter(|w| w[0] == b',' && !self.first) {
            let p = 1 + usize::from(w[1] == b' ');
            let negative = w[p] == b'-';
            let q = p + usize::from(negative);
            let short = w[q..]
                .first_chunk()
                .and_then(|s| short_number_in(s, negative));
            if let Some((n, len)) = short {
                de.pos = at + q + len;
                return seed.deserialize(ReadNumber(n)).map(Some);
            }
        }
        if !de.next_element(&mut self.first, b']')? {
            return Ok(None);
        }
        // The position is at the element: `number` refuses anything but a number (it needs
        // an integer digit, after an optional `-`).
        let n = de.number()?;
        seed.deserialize(ReadNumber(n)).map(Some)
    }

    #[inline(always)]
    fn next_element<T: de::Deserialize<'de>>(&mut self) -> Result<Option<T>> {
        self.next_element_seed(std::marker::PhantomData)
    }
}

/// A number already read, handed to an element type as serde_json would hand it over for
/// the same request; requests that would read the text differently (`f32`, which serde_json
/// reads in single precision) or expect something else are refused (serde_json decides).
struct ReadNumber(Number);

/// The requests answered with the number as read (those of [`SliceDeserializer`]'s
/// `numbers!` methods, where serde_json calls the same visitor method).
macro_rules! read_numbers {
    ($($method:ident)*) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            SliceDeserializer::visit_number(self.0, visitor)
        }
    )*};
}

/// Requests refused (serde_json decides): plain ones, and with `(arguments)` those that take
/// more than the visitor.
macro_rules! refused {
    ($($method:ident $(($($arg:ident: $ty:ty),*))?)*) => {$(
        fn $method<V: Visitor<'de>>(
            self,
            $($($arg: $ty,)*)?
            _visitor: V,
        ) -> Result<V::Value> {
            Err(GaveUp)
        }
    )*};
}

impl<'de> Deserializer<'de> for ReadNumber {
    type Error = GaveUp;

    read_numbers!(
        deserialize_any
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f64
    );

    refused!(
        deserialize_f32 deserialize_bool deserialize_char deserialize_str deserialize_string
        deserialize_bytes deserialize_byte_buf deserialize_option deserialize_unit
        deserialize_seq deserialize_map deserialize_identifier deserialize_ignored_any
    );

    refused!(
        deserialize_unit_struct(_name: &'static str)
        deserialize_newtype_struct(_name: &'static str)
        deserialize_tuple(_len: usize)
        deserialize_tuple_struct(_name: &'static str, _len: usize)
        deserialize_struct(_name: &'static str, _fields: &'static [&'static str])
        deserialize_enum(_name: &'static str, _variants: &'static [&'static str])
    );
}

/// The members of an object.
struct Map<'a, 'de> {
    de: &'a mut SliceDeserializer<'de>,
    first: bool,
}

impl<'de> MapAccess<'de> for Map<'_, 'de> {
    type Error = GaveUp;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.de.next_key(&mut self.first)? {
            seed.deserialize(Key { de: &mut *self.de }).map(Some)
        } else {
            Ok(None)
        }
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.de.colon()?;
        seed.deserialize(&mut *self.de)
    }
}

/// An object's key: always a string. (serde_json would also read a number out of a key for
/// an integer key type; the loaders have none, and such a key is simply refused here.)
struct Key<'a, 'de> {
    de: &'a mut SliceDeserializer<'de>,
}

impl<'de> Deserializer<'de> for Key<'_, 'de> {
    type Error = GaveUp;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let text = self.de.string()?;
        SliceDeserializer::visit_text(text, visitor)
    }

    refused!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
        deserialize_f32 deserialize_f64 deserialize_bool deserialize_option
        deserialize_bytes deserialize_byte_buf
        deserialize_enum(_name: &'static str, _variants: &'static [&'static str])
        deserialize_newtype_struct(_name: &'static str)
    );

    serde::forward_to_deserialize_any! {
        i128 u128 char str string unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde_json::Value;

    use super::*;

    /// Ours and serde_json's readings of `text` into `Value`, printed (the print tells every
    /// f64 apart, -0.0 included).
    fn both(text: &[u8]) -> (Option<String>, Option<String>) {
        let ours = from_slice::<Value>(text).ok().map(|v| v.to_string());
        let theirs = serde_json::from_slice::<Value>(text)
            .ok()
            .map(|v| v.to_string());
        (ours, theirs)
    }

    #[test]
    fn numbers_read_as_serde_json_reads_them() {
        for n in [
            "0",
            "-0",
            "-0.0",
            "0.0",
            "1.5",
            "-12.25",
            "1e5",
            "1E+5",
            "-1e-5",
            "123.456e-7",
            "0.1",
            "0.30000000000000004",
            "0.016666666666666666",
            "1.6000000238418581",
            "-104.29244559427953",
            "9007199254740993",
            "9007199254740993.0",
            "1.00000000000000011102230246251565404236316680908203125",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "123456789012345678901234567890",
            "2.2250738585072011e-308",
            "1.7976931348623157e308",
            "4.9e-324",
            "1e-400",
            "0e999999999999",
            "0.000000000000000000000000001",
            "1234567890.0987654321",
        ] {
            let text = format!("[{n}, {{\"k\": {n}}}]");
            let (ours, theirs) = both(text.as_bytes());
            assert!(theirs.is_some(), "{n}");
            assert_eq!(ours, theirs, "{n}");
        }
    }

    #[test]
    fn single_precision_reads_as_serde_json_reads_it() {
        for n in [
            "0.1",
            "16777217",
            "3.4028235e38",
            "1.00000005960464477539",
            "-0",
        ] {
            let ours = from_slice::<f32>(n.as_bytes()).ok().map(f32::to_bits);
            let theirs = serde_json::from_str::<f32>(n).ok().map(f32::to_bits);
            assert_eq!(ours, theirs, "{n}");
        }
    }

    #[test]
    fn everything_serde_json_rejects_is_refused() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let cases: Vec<&[u8]> = vec![
            b"",
            b" ",
            b"[1,]",
            b"[,1]",
            b"{\"a\":1,}",
            b"{,\"a\":1}",
            b"01",
            b"-01",
            b"1.",
            b"1.e5",
            b"-",
            b"1e",
            b"1e+",
            b".5",
            b"+1",
            b"[1 2]",
            b"{\"a\" 1}",
            b"{\"a\":1 \"b\":2}",
            b"{1:2}",
            b"\"a\x01\"",
            b"\"\\x\"",
            b"\"unterminated",
            b"[1]x",
            b"[1]]",
            b"nul",
            b"tru",
            b"NaN",
            b"1e400",
            b"-1e400",
            b"\"\xff\"",
            b"[\"a\", \xff]",
            deep.as_bytes(),
        ];
        for text in cases {
            assert!(
                serde_json::from_slice::<Value>(text).is_err(),
                "serde_json accepts {text:?}"
            );
            assert!(from_slice::<Value>(text).is_err(), "accepted {text:?}");
        }
    }

    #[test]
    fn strings_and_structure_read_as_serde_json_reads_them() {
        for text in [
            &b"{\"a\": \"plain\", \"b\": \"q\\\"b\\\\s\\/n\\nt\\tr\\rb\\bf\\f\", \"\\u00e9\": 1}"[..],
            b"  {\"a\": [true, false, null, {}, [], [[]], {\"b\": {\"c\": []}}]}  ",
            "{\"naïve\": \"日本\"}".as_bytes(),
            b"{\"a\": 1, \"a\": 2}",
        ] {
            let (ours, theirs) = both(text);
            assert!(theirs.is_some());
            // `\u` escapes are left to serde_json.
            if !text.windows(2).any(|w| w == b"\\u") {
                assert_eq!(ours, theirs, "{}", String::from_utf8_lossy(text));
            }
        }
    }

    #[test]
    fn strings_end_where_serde_json_ends_them_wherever_the_special_byte_falls() {
        // Each special byte (and bytes beside the flagged ranges) at every offset of the
        // first, second and third word, after plain ASCII, multi-byte text or both, and
        // strings ending within the last eight bytes of the text.
        let fillers = ["abcdefghijklmnopqrstu", "é日🙂ÿ\u{7f}~ !#[]{}", "a\u{1f}"];
        let specials = [
            "\"", "\\\"", "\\\\", "\\n", "\u{0}", "\u{1f}", "\t", " ", "!", "#", "[", "]", "\u{7f}",
        ];
        for filler in fillers {
            let chars: Vec<char> = filler.chars().collect();
            for len in 0..chars.len() {
                let head: String = chars[..len].iter().collect();
                for special in specials {
                    for tail in ["x\"", "\"", "xxxxxxxxxxxx\""] {
                        for close in ["]", "]                 "] {
                            let text = format!("[\"{head}{special}{tail}{close}");
                            let ours = from_slice::<Value>(text.as_bytes()).ok();
                            let theirs = serde_json::from_slice::<Value>(text.as_bytes()).ok();
                            if ours.is_some() {
                                assert_eq!(ours, theirs, "{text:?}");
                            } else {
                                // Giving up is allowed only where serde_json refuses.
                                assert!(theirs.is_none(), "gave up on {text:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_lowest_flagged_byte_of_a_word_is_the_first_special_one() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let picks = [
            b'"',
            b'\\',
            0,
            0x1f,
            0x20,
            0x21,
            0x5b,
            0x5d,
            0x7f,
            0x80,
            0xff,
            b'a',
            0x22 ^ 0x80,
        ];
        for _ in 0..200_000 {
            let mut word = [0u8; 8];
            for b in &mut word {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                *b = if seed & 1 == 0 {
                    picks[(seed >> 8) as usize % picks.len()]
                } else {
                    (seed >> 16) as u8
                };
            }
            let first = word
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20);
            let flags = string_specials(u64::from_le_bytes(word));
            let found = (flags != 0).then(|| (flags.trailing_zeros() / 8) as usize);
            assert_eq!(found, first, "{word:?}");
        }
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct Doc {
        name: String,
        #[serde(default)]
        scale_x: f64,
        parent: Option<String>,
        mode: Option<Mode>,
        list: Option<Vec<u32>>,
        #[serde(rename = "skip")]
        _skip: Option<serde::de::IgnoredAny>,
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    enum Mode {
        Normal,
        NoScale,
    }

    #[test]
    fn typed_reads_agree_with_serde_json() {
        for text in [
            r#"{"name": "a"}"#,
            r#"{"name": "a", "scaleX": 2, "parent": null, "mode": "noScale", "list": [1, 2]}"#,
            r#"{"name": "a", "skip": {"x": [1, {"y": null}]}, "list": []}"#,
            r#"["a", 1.5, "p", "normal", [3], null]"#,
            r#"{"name": "a", "nope": 1}"#,
            r#"{"name": "a", "name": "b"}"#,
            r#"{"name": "a", "mode": "other"}"#,
            r#"{"name": "a", "mode": {"normal": null}}"#,
            r#"{"name": "a", "list": [1.5]}"#,
            r#"{"name": "a", "list": [-1]}"#,
            r#"{"name": "a", "scaleX": "1"}"#,
            r#"{"name": 1}"#,
            r#"{"scaleX": 1}"#,
            r#"["a", 1.5]"#,
            r#"["a", 1.5, null, null, null, null, 7]"#,
        ] {
            let ours = from_slice::<Doc>(text.as_bytes()).ok();
            let theirs = serde_json::from_str::<Doc>(text).ok();
            // Giving up is always allowed (serde_json then decides); a value must be theirs.
            if ours.is_some() {
                assert_eq!(ours, theirs, "{text}");
            }
        }
        let text = r#"{"name": "a", "scaleX": 2, "mode": "noScale", "list": [1, 2]}"#;
        assert!(from_slice::<Doc>(text.as_bytes()).is_ok());
    }

    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Arrays {
        f: Option<crate::format::json::F32List>,
        u: Option<crate::format::json::number::NumberList<u32>>,
        d: Option<crate::format::json::number::NumberList<f64>>,
    }

    #[test]
    fn number_arrays_read_as_serde_json_reads_them() {
        for text in [
            r#"{"f": [], "u": [], "d": []}"#,
            r#"{"f": [0, -0, 1.5, -2, 0.1, 3.4028235e38, 16777217, 1e-50], "u": [0, 1, 4294967295]}"#,
            r#"{"d": [0.30000000000000004, -0, 18446744073709551616, -9223372036854775809, 1e5]}"#,
            r#"{"f": [ 1 , 2 ,3 ], "u": [ 7 ], "d": null}"#,
            r#"{"f": [1,-2, -3,4,  5], "u": [1,2, 3], "d": [-1,-0.5, 2]}"#,
            r#"{"f": [1,-]}"#,
            r#"{"f": [1, -]}"#,
            r#"{"f": [1, ]}"#,
            r#"{"f": [1,]}"#,
            r#"{"f": [1, "2"]}"#,
            r#"{"f": [1,, 2]}"#,
            r#"{"f": [1, 02]}"#,
            r#"{"f": [1e39]}"#,
            r#"{"u": [4294967296]}"#,
            r#"{"u": [-1]}"#,
            r#"{"u": [1.0]}"#,
            r#"{"u": [-0]}"#,
            r#"{"f": ["1"]}"#,
            r#"{"f": [[1]]}"#,
            r#"{"f": [1,]}"#,
            r#"{"f": [1 2]}"#,
            r#"{"f": {}}"#,
            r#"{"f": 1}"#,
            r#"{"d": [1e400]}"#,
        ] {
            let ours = from_slice::<Arrays>(text.as_bytes()).ok();
            let theirs = serde_json::from_str::<Arrays>(text).ok();
            if ours.is_some() {
                assert_eq!(ours, theirs, "{text}");
            }
            // What serde_json reads, this reader reads too (no needless second pass).
            if theirs.is_some() {
                assert!(ours.is_some(), "{text}");
            }
        }
        let a = from_slice::<Arrays>(br#"{"f": [-0], "u": [3], "d": [-0]}"#).unwrap();
        assert!(a.f.unwrap().0[0].is_sign_negative());
        assert!(a.d.unwrap().0[0].is_sign_negative());
    }

    /// A fixed-seed xorshift generator for the generated differential tests.
    struct Gen(u64);

    impl Gen {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn digits(&mut self, n: usize) -> String {
            (0..n)
                .map(|_| char::from(b'0' + self.below(10) as u8))
                .collect()
        }
    }

    /// Numbers of every integer length 1 to 25 and fraction length none or 0 to 25 (the
    /// short path reads up to 7 and 7), with and without sign and exponent, some invalid
    /// (leading zeros, `1.`, `1e`): both readers' input.
    fn generated_numbers() -> Vec<String> {
        let mut g = Gen(0x9e37_79b9_7f4a_7c15);
        let exponents = ["", "", "e5", "E-3", "e+12", "e", "e-0", "E308", "e-330"];
        let mut out = vec![];
        for int_len in 1..=25 {
            for frac_len in (0..=26).chain(0..=8) {
                for _ in 0..2 {
                    let mut n = String::new();
                    if g.below(2) == 0 {
                        n.push('-');
                    }
                    n += &g.digits(int_len);
                    if g.below(4) == 0 {
                        n.replace_range(n.len() - int_len..n.len() - int_len + 1, "0");
                    }
                    if frac_len > 0 {
                        n.push('.');
                        n += &g.digits(frac_len - 1);
                    }
                    n += exponents[g.below(exponents.len() as u64) as usize];
                    out.push(n);
                }
            }
        }
        out
    }

    /// Every generated number, alone (then up to 17 spaces: the short path needs 16 bytes
    /// from the first digit on), in an array after `[`, `,` and `, ` and before `,`, ` ` and
    /// `]`, and in each kind of number array: read as serde_json reads it, or refused where
    /// it refuses.
    #[test]
    fn generated_numbers_read_as_serde_json_reads_them() {
        let mut g = Gen(0x2545_f491_4f6c_dd1d);
        let mut read = 0;
        for n in generated_numbers() {
            let alone = format!("{n}{}", " ".repeat(g.below(18) as usize));
            let in_array = format!("[{n},{n}, {n} ,{n}]");
            for text in [n.as_str(), &alone, &in_array] {
                let (ours, theirs) = both(text.as_bytes());
                assert_eq!(ours, theirs, "{text}");
                read += usize::from(theirs.is_some());
            }
            let ours = from_slice::<f32>(n.as_bytes()).ok().map(f32::to_bits);
            let theirs = serde_json::from_str::<f32>(&n).ok().map(f32::to_bits);
            assert_eq!(ours, theirs, "{n}");
            for key in ["f", "u", "d"] {
                for text in [
                    format!(r#"{{"{key}": [{n}]}}"#),
                    format!(r#"{{"{key}": [{n}, {n},{n} ,0,{n}]}}"#),
                    format!(r#"{{"{key}": [ {n} , 1, {n}]}}"#),
                ] {
                    // Debug prints tell every f32 and f64 apart, -0.0 included.
                    let ours = from_slice::<Arrays>(text.as_bytes()).ok();
                    let theirs = serde_json::from_str::<Arrays>(&text).ok();
                    assert_eq!(format!("{ours:?}"), format!("{theirs:?}"), "{text}");
                }
            }
        }
        assert!(read > 2_000, "{read} read");
    }

    /// Every Spine export of the corpus reads to the same `Value` (868,000 numbers).
    #[test]
    fn the_spine_corpus_reads_as_serde_json_reads_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/spine");
        let Ok(versions) = std::fs::read_dir(&root) else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "../shared/corpus is missing"
            );
            return;
        };
        let mut files = 0;
        for version in versions.flatten() {
            for file in std::fs::read_dir(version.path())
                .into_iter()
                .flatten()
                .flatten()
            {
                let path = file.path();
                if path.extension().is_some_and(|e| e == "json") {
                    let text = std::fs::read(&path).unwrap();
                    let (ours, theirs) = both(&text);
                    assert!(ours.is_some(), "{}", path.display());
                    assert!(ours == theirs, "{}", path.display());
                    files += 1;
                }
            }
        }
        assert!(files > 50, "{files} files");
    }
}
