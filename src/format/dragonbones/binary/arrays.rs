//! The typed arrays of a `.dbbin`'s binary block, with reads that fail at a byte offset.

use super::super::ctx::Ctx;
use crate::format::LoadError;
use crate::format::json::Seg::{Index, Key};

/// One array: its values and where its first byte is in the file.
pub struct Array<T> {
    pub values: Vec<T>,
    start: usize,
    name: &'static str,
}

impl<T: Copy> Array<T> {
    /// Value `i`, or an error at the byte where it would be.
    pub fn at(&self, i: usize) -> Result<T, LoadError> {
        self.values.get(i).copied().ok_or_else(|| self.past(i))
    }

    /// `n` values from `i`.
    pub fn slice(&self, i: usize, n: usize) -> Result<&[T], LoadError> {
        let end = i.checked_add(n).ok_or_else(|| self.past(i))?;
        self.values.get(i..end).ok_or_else(|| self.past(end))
    }

    /// The byte offset in the file of value `i` (the array's end for an index past it).
    pub fn byte(&self, i: usize) -> u64 {
        let size = std::mem::size_of::<T>();
        (self.start + i.min(self.values.len()) * size) as u64
    }

    /// An error about value `i`.
    pub fn err(&self, i: usize, message: impl AsRef<str>) -> LoadError {
        LoadError::byte(
            self.byte(i),
            format!("{} index {i}: {}", self.name, message.as_ref()),
        )
    }

    fn past(&self, i: usize) -> LoadError {
        LoadError::byte(
            self.byte(i),
            format!(
                "{} index {i} is past its end ({} values)",
                self.name,
                self.values.len()
            ),
        )
    }
}

/// The six arrays the runtime reads, in the header's `offset` order.
pub struct Arrays {
    pub int: Array<i16>,
    pub float: Array<f32>,
    pub frame_int: Array<i16>,
    pub frame_float: Array<f32>,
    pub frame: Array<i16>,
    pub timeline: Array<u16>,
}

impl Arrays {
    /// Reads the arrays `offset` (pairs of byte offset and byte length, relative to the block
    /// at `block`) describes; missing pairs are empty arrays, further pairs are ignored (the
    /// runtime reads six).
    pub fn read(
        cx: &Ctx<'_>,
        offset: &[f64],
        bytes: &[u8],
        block: usize,
    ) -> Result<Arrays, LoadError> {
        let range = |k: usize, size: usize| -> Result<(usize, usize), LoadError> {
            let at = [Key("offset"), Index(k * 2)];
            let (Some(&o), Some(&l)) = (offset.get(k * 2), offset.get(k * 2 + 1)) else {
                return Ok((block, block));
            };
            let whole = |v: f64| v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64;
            if !whole(o) || !whole(l) {
                return Err(cx.err(&at, "array offsets and lengths must be whole byte counts"));
            }
            let (o, l) = (o as usize, l as usize);
            let start = block.checked_add(o);
            let end = start.and_then(|s| s.checked_add(l));
            match (start, end) {
                (Some(s), Some(e)) if e <= bytes.len() => {
                    // The runtime views the block through typed arrays, which need aligned,
                    // whole elements.
                    if !s.is_multiple_of(size) || !l.is_multiple_of(size) {
                        return Err(cx.err(
                            &at,
                            format!(
                                "array {k} at byte {s} ({l} bytes) is not aligned to its {size}-byte values"
                            ),
                        ));
                    }
                    Ok((s, e))
                }
                _ => Err(cx.err(
                    &at,
                    format!(
                        "array {k} ({l} bytes at block offset {o}) runs past the end of the file ({} bytes)",
                        bytes.len()
                    ),
                )),
            }
        };
        let i16s = |k: usize, name: &'static str| -> Result<Array<i16>, LoadError> {
            let (s, e) = range(k, 2)?;
            Ok(Array {
                values: bytes[s..e]
                    .chunks_exact(2)
                    .map(|c| i16::from_le_bytes([c[0], c[1]]))
                    .collect(),
                start: s,
                name,
            })
        };
        let f32s = |k: usize, name: &'static str| -> Result<Array<f32>, LoadError> {
            let (s, e) = range(k, 4)?;
            Ok(Array {
                values: bytes[s..e]
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
                start: s,
                name,
            })
        };
        let (s, e) = range(5, 2)?;
        let timeline = Array {
            values: bytes[s..e]
                .chunks_exact(2)
                .map(|c| u16::from_le_bytes([c[0], c[1]]))
                .collect(),
            start: s,
            name: "timeline array",
        };
        Ok(Arrays {
            int: i16s(0, "int array")?,
            float: f32s(1, "float array")?,
            frame_int: i16s(2, "frame int array")?,
            frame_float: f32s(3, "frame float array")?,
            frame: i16s(4, "frame array")?,
            timeline,
        })
    }
}
