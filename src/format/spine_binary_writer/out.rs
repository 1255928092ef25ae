//! The primitives of Spine's binary format written to a byte buffer (big-endian, varints,
//! length-prefixed UTF-8 strings, RGBA8888 colors) and the string table that attachment
//! keys, names and paths are referenced through.

use std::collections::HashMap;

use crate::core::color::Color;

/// A growing `.skel` byte buffer.
#[derive(Default)]
pub struct Out {
    pub bytes: Vec<u8>,
}

impl Out {
    pub fn u8(&mut self, v: u8) {
        self.bytes.push(v);
    }

    pub fn i8(&mut self, v: i8) {
        self.bytes.push(v as u8);
    }

    pub fn bool(&mut self, v: bool) {
        self.bytes.push(u8::from(v));
    }

    pub fn u16(&mut self, v: u16) {
        self.bytes.extend_from_slice(&v.to_be_bytes());
    }

    pub fn i32(&mut self, v: i32) {
        self.bytes.extend_from_slice(&v.to_be_bytes());
    }

    /// A varint+ (7 bits a byte, low bits first; a negative value takes 5 bytes).
    pub fn varint(&mut self, v: i32) {
        let mut v = v as u32;
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.bytes.push(b);
                return;
            }
            self.bytes.push(b | 0x80);
        }
    }

    /// A varint- (zigzag: small negative values are short too).
    pub fn zigzag(&mut self, v: i32) {
        self.varint((v << 1) ^ (v >> 31));
    }

    /// A count or index (varint+).
    pub fn uvarint(&mut self, v: usize) {
        // Counts and indices are bounded by what a model holds, far below 2^31.
        self.varint(i32::try_from(v).unwrap_or(i32::MAX));
    }

    pub fn f32(&mut self, v: f32) {
        self.bytes.extend_from_slice(&v.to_be_bytes());
    }

    /// A setup value: the model keeps `f64`, the format `f32`.
    pub fn f64(&mut self, v: f64) {
        self.f32(v as f32);
    }

    /// A string: varint+ length + 1 (0 is null), then its UTF-8 bytes.
    pub fn string(&mut self, s: Option<&str>) {
        match s {
            None => self.varint(0),
            Some(s) => {
                self.uvarint(s.len() + 1);
                self.bytes.extend_from_slice(s.as_bytes());
            }
        }
    }

    pub fn str(&mut self, s: &str) {
        self.string(Some(s));
    }

    /// RGBA8888.
    pub fn color(&mut self, c: Color) {
        for v in [c.r, c.g, c.b, c.a] {
            self.u8(byte(v));
        }
    }

    /// RGB888 (no alpha).
    pub fn rgb(&mut self, c: [f64; 3]) {
        for v in c {
            self.u8(byte(v));
        }
    }
}

/// A color channel (0..1) as the byte it was read from.
pub fn byte(v: f64) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The string table: every referenced string once, referenced as its index + 1 (0 is null).
#[derive(Default)]
pub struct Strings {
    pub list: Vec<String>,
    index: HashMap<String, usize>,
}

impl Strings {
    /// Writes a reference to `s` (null for `None`), adding it to the table when new.
    pub fn write(&mut self, o: &mut Out, s: Option<&str>) {
        let Some(s) = s else {
            o.varint(0);
            return;
        };
        let n = match self.index.get(s) {
            Some(&n) => n,
            None => {
                self.list.push(s.to_string());
                self.index.insert(s.to_string(), self.list.len());
                self.list.len()
            }
        };
        o.uvarint(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::spine_binary::cursor::Cursor;

    #[test]
    fn varints_read_back() {
        let mut o = Out::default();
        for v in [0, 5, 127, 128, 300, -1, i32::MAX, i32::MIN] {
            o.varint(v);
            o.zigzag(v);
        }
        let mut c = Cursor::new(&o.bytes);
        for v in [0, 5, 127, 128, 300, -1, i32::MAX, i32::MIN] {
            assert_eq!(c.varint(true, "a").unwrap(), v);
            assert_eq!(c.varint(false, "b").unwrap(), v);
        }
        assert_eq!(c.remaining(), 0);
    }
}
