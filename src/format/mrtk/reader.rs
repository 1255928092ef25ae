//! The strict reader: header, stream flags, every curve in order, the marker list.
//!
//! Counts are checked against the bytes that remain before anything is allocated, so no
//! allocation is larger than the file. Whatever MRTK's own reader tolerates loads with a
//! warning; everything else is a [`ReadError`] at the offending byte.

use super::MAGIC;
use super::cursor::Cursor;
use super::error::{ErrorKind, ReadError};
use super::layout::Sections;
use super::lint::{CurveSite, lint_curve};
use super::model::{CurveKind, Marker, NamedCurve, Recording, Version};
use crate::core::unity_curve::{UnityCurve, UnityKey, WEIGHTED_BOTH, WrapMode};
use byteorder::{ByteOrder, LittleEndian};

/// The out-weight MRTK gives every bool key so that Unity's weighted Bezier holds the value.
const BOOL_OUT_WEIGHT: f32 = 1.0e6;

/// Reads a whole recording.
pub fn read(bytes: &[u8]) -> Result<Recording, ReadError> {
    let mut c = Cursor::new(bytes);
    let mut warnings = Vec::new();
    let magic = c.u64(|| "the 8-byte magic number".into())?;
    if magic != MAGIC {
        return Err(ReadError::new(
            ErrorKind::BadMagic,
            0,
            format!(
                "expected the MRTK input animation magic number 0x{MAGIC:016x}, found 0x{magic:016x}"
            ),
        ));
    }
    let major = c.i32(|| "the major version (Int32)".into())?;
    let minor = c.i32(|| "the minor version (Int32)".into())?;
    let version = Version { major, minor };
    let sections = match (major, minor) {
        (1, 0) => Sections {
            camera: true,
            hands: true,
            eye_gaze: false,
        },
        (1, 1) => read_flags(&mut c, &mut warnings)?,
        _ => {
            return Err(ReadError::new(
                ErrorKind::UnsupportedVersion,
                8,
                format!("expected version 1.0 or 1.1, found {major}.{minor}"),
            ));
        }
    };
    let full_keys = minor == 0;
    let layout = sections.curves();
    let mut curves = Vec::with_capacity(layout.len());
    for (path, kind) in layout {
        curves.push(read_curve(&mut c, path, kind, full_keys, &mut warnings)?);
    }
    let markers = read_markers(&mut c, &mut warnings)?;
    if c.remaining() > 0 {
        warnings.push((
            c.offset(),
            format!(
                "trailing_bytes: {} bytes after the marker list (MRTK ignores them)",
                c.remaining()
            ),
        ));
    }
    let duration = curves
        .iter()
        .filter_map(|nc| nc.curve.keys.iter().rev().find(|k| k.time.is_finite()))
        .map(|k| k.time as f64)
        .fold(0.0, f64::max);
    Ok(Recording {
        version,
        has_camera: sections.camera,
        has_hands: sections.hands,
        has_eye_gaze: sections.eye_gaze,
        curves,
        markers,
        duration,
        warnings,
    })
}

/// The three 1.1 stream flags (.NET booleans: any non-zero byte is true).
fn read_flags(
    c: &mut Cursor<'_>,
    warnings: &mut Vec<(u64, String)>,
) -> Result<Sections, ReadError> {
    let mut flags = [false; 3];
    for (i, name) in ["has camera pose", "has hand data", "has eye gaze"]
        .into_iter()
        .enumerate()
    {
        let at = c.offset();
        let b = c.u8(|| format!("the \"{name}\" flag (Boolean)"))?;
        if b > 1 {
            warnings.push((
                at,
                format!("flag_byte_not_0_or_1: the \"{name}\" flag byte is {b} (read as true, like .NET)"),
            ));
        }
        flags[i] = b != 0;
    }
    Ok(Sections {
        camera: flags[0],
        hands: flags[1],
        eye_gaze: flags[2],
    })
}

/// One curve: wrap modes, key count, keys (28-byte full keys in 1.0 float curves, else time
/// and value).
fn read_curve(
    c: &mut Cursor<'_>,
    path: String,
    kind: CurveKind,
    full_keys: bool,
    warnings: &mut Vec<(u64, String)>,
) -> Result<NamedCurve, ReadError> {
    let offset = c.offset();
    let pre = c.i32(|| format!("the pre-wrap mode (Int32) of curve {path}"))?;
    let post = c.i32(|| format!("the post-wrap mode (Int32) of curve {path}"))?;
    let count = c.i32(|| format!("the key count (Int32) of curve {path}"))?;
    let full = full_keys && kind == CurveKind::Float;
    let key_size: u64 = if full { 28 } else { 8 };
    let count = check_count(c, count, key_size, offset + 8, || {
        format!("the key count of curve {path}")
    })?;
    let block = c.take(count * key_size, || format!("the keys of curve {path}"))?;
    let keys: Vec<UnityKey> = block
        .chunks_exact(key_size as usize)
        .map(|b| decode_key(b, kind, full))
        .collect();
    let site = CurveSite {
        path: &path,
        kind,
        offset,
        key_size,
    };
    lint_curve(&site, [pre, post], &keys, warnings);
    Ok(NamedCurve {
        path,
        kind,
        offset,
        curve: UnityCurve::new(keys, WrapMode::from_code(pre), WrapMode::from_code(post)),
    })
}

/// A key as MRTK's reader builds it: a full 1.0 float key as stored; a (time, value) key with
/// zero tangents and weights, weighted Both, and for bool curves an out-weight of 1e6.
fn decode_key(b: &[u8], kind: CurveKind, full: bool) -> UnityKey {
    let f = |i: usize| LittleEndian::read_f32(&b[4 * i..4 * i + 4]);
    if full {
        return UnityKey {
            time: f(0),
            value: f(1),
            in_tangent: f(2),
            out_tangent: f(3),
            in_weight: f(4),
            out_weight: f(5),
            weighted_mode: LittleEndian::read_i32(&b[24..28]),
        };
    }
    UnityKey {
        out_weight: if kind == CurveKind::Bool {
            BOOL_OUT_WEIGHT
        } else {
            0.0
        },
        weighted_mode: WEIGHTED_BOTH,
        ..UnityKey::new(f(0), f(1))
    }
}

/// Checks a count read at `at` against the bytes left (each item needs at least
/// `min_size`); returns it as a `u64`.
fn check_count(
    c: &Cursor<'_>,
    count: i32,
    min_size: u64,
    at: u64,
    what: impl Fn() -> String,
) -> Result<u64, ReadError> {
    let Ok(n) = u64::try_from(count) else {
        return Err(ReadError::new(
            ErrorKind::NegativeCount,
            at,
            format!("expected {} (0 or more), found {count}", what()),
        ));
    };
    if n * min_size > c.remaining() {
        return Err(ReadError::new(
            ErrorKind::CountExceedsRemaining,
            at,
            format!(
                "{} is {n}, which needs at least {} bytes, but only {} bytes remain",
                what(),
                n * min_size,
                c.remaining()
            ),
        ));
    }
    Ok(n)
}

/// The marker list (missing from the published spec): count, then time and name per marker.
/// A file that ends where the count should be loads with a warning.
fn read_markers(
    c: &mut Cursor<'_>,
    warnings: &mut Vec<(u64, String)>,
) -> Result<Vec<Marker>, ReadError> {
    if c.remaining() == 0 {
        warnings.push((
            c.offset(),
            "missing_marker_list: the file ends where the marker count (Int32) should be; \
             MRTK itself fails to load such a file"
                .into(),
        ));
        return Ok(Vec::new());
    }
    let at = c.offset();
    let count = c.i32(|| "the marker count (Int32)".into())?;
    // A marker is at least a 4-byte time and a 1-byte name length.
    let count = check_count(c, count, 5, at, || "the marker count".into())?;
    let mut markers = Vec::with_capacity(count as usize);
    for i in 0..count {
        let time_at = c.offset();
        let time = c.f32(|| format!("the time (Float32) of marker {i}"))?;
        if !time.is_finite() {
            warnings.push((
                time_at,
                format!("non_finite_marker_time: marker {i} time is {time}"),
            ));
        }
        let name = read_string(c, i, warnings)?;
        markers.push(Marker { time, name });
    }
    Ok(markers)
}

/// A .NET `BinaryWriter` string: 7-bit encoded byte length, then UTF-8 (decoded lossily, with
/// a warning, like .NET).
fn read_string(
    c: &mut Cursor<'_>,
    marker: u64,
    warnings: &mut Vec<(u64, String)>,
) -> Result<String, ReadError> {
    let at = c.offset();
    let bad_length = |why: &str| {
        ReadError::new(
            ErrorKind::Bad7BitLength,
            at,
            format!("expected the 7-bit encoded name length of marker {marker}, but it {why}"),
        )
    };
    let mut len: u64 = 0;
    let mut shift = 0;
    loop {
        let b = c.u8(|| format!("the name length of marker {marker}"))?;
        if shift == 28 && b > 0x0F {
            return Err(bad_length("does not fit in 32 bits"));
        }
        len |= u64::from(b & 0x7F) << shift;
        shift += 7;
        if b < 0x80 {
            break;
        }
        if shift > 28 {
            return Err(bad_length("is longer than 5 bytes"));
        }
    }
    if len > i32::MAX as u64 {
        return Err(bad_length("is negative as an Int32"));
    }
    let name_at = c.offset();
    let raw = c.take(len, || format!("the {len}-byte name of marker {marker}"))?;
    Ok(match std::str::from_utf8(raw) {
        Ok(s) => s.to_owned(),
        Err(_) => {
            warnings.push((
                name_at,
                format!("invalid_utf8: marker {marker} name is not valid UTF-8 (decoded with U+FFFD, like .NET)"),
            ));
            String::from_utf8_lossy(raw).into_owned()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Header of a 1.1 file with the given stream flags.
    fn v11(flags: [u8; 3]) -> Vec<u8> {
        let mut b = MAGIC.to_le_bytes().to_vec();
        b.extend(1i32.to_le_bytes());
        b.extend(1i32.to_le_bytes());
        b.extend(flags);
        b
    }

    fn curve(b: &mut Vec<u8>, wraps: [i32; 2], keys: &[(f32, f32)]) {
        for v in [wraps[0], wraps[1], keys.len() as i32] {
            b.extend(v.to_le_bytes());
        }
        for (t, v) in keys {
            b.extend(t.to_le_bytes());
            b.extend(v.to_le_bytes());
        }
    }

    fn error(bytes: &[u8]) -> (ErrorKind, u64) {
        let e = read(bytes).expect_err("rejected");
        (e.kind, e.offset)
    }

    #[test]
    fn smallest_file_and_markers() {
        let mut b = v11([0, 0, 0]);
        b.extend(0i32.to_le_bytes());
        let r = read(&b).expect("23 bytes load");
        assert_eq!((r.curves.len(), r.duration, r.warnings.len()), (0, 0.0, 0));
        let mut b = v11([0, 0, 0]);
        b.extend(1i32.to_le_bytes());
        b.extend(0.5f32.to_le_bytes());
        b.extend([2, b'h', b'i']);
        let r = read(&b).expect("loads");
        assert_eq!(
            r.markers,
            [Marker {
                time: 0.5,
                name: "hi".into()
            }]
        );
    }

    #[test]
    fn gaze_curves_and_duration() {
        let mut b = v11([0, 0, 1]);
        for i in 0..6 {
            curve(&mut b, [8, 8], &[(0.0, 0.0), (1.5 + i as f32, 1.0)]);
        }
        b.extend(0i32.to_le_bytes());
        let r = read(&b).expect("loads");
        assert_eq!(r.curves[5].path, "eye_gaze.direction.z");
        assert_eq!(r.curves[5].offset, 19 + 5 * 28);
        assert_eq!(r.duration, 6.5);
    }

    #[test]
    fn located_errors() {
        assert_eq!(error(&[]), (ErrorKind::UnexpectedEof, 0));
        assert_eq!(error(&[0; 16]), (ErrorKind::BadMagic, 0));
        let mut b = v11([1, 0, 0]);
        b[12] = 2;
        assert_eq!(error(&b), (ErrorKind::UnsupportedVersion, 8));
        // A key count of -1, then one of 2^31 - 1, on the first camera curve.
        let mut b = v11([1, 0, 0]);
        curve(&mut b, [8, 8], &[]);
        b[27..31].copy_from_slice(&(-1i32).to_le_bytes());
        assert_eq!(error(&b), (ErrorKind::NegativeCount, 27));
        b[27..31].copy_from_slice(&i32::MAX.to_le_bytes());
        assert_eq!(error(&b), (ErrorKind::CountExceedsRemaining, 27));
        // A marker name length of six 7-bit bytes.
        let mut b = v11([0, 0, 0]);
        b.extend(1i32.to_le_bytes());
        b.extend(0f32.to_le_bytes());
        b.extend([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
        assert_eq!(error(&b), (ErrorKind::Bad7BitLength, 27));
    }

    #[test]
    fn tolerated_conditions_warn() {
        // No marker list, and a flag byte of 2 (read as true: the camera curves follow).
        let mut b = v11([2, 0, 0]);
        for _ in 0..7 {
            curve(&mut b, [3, 8], &[(1.0, 0.0), (0.5, f32::NAN)]);
        }
        let r = read(&b).expect("loads");
        let kinds: Vec<&str> = r
            .warnings
            .iter()
            .map(|(_, m)| m.split(':').next().unwrap_or(""))
            .collect();
        assert_eq!(
            kinds[..4],
            [
                "flag_byte_not_0_or_1",
                "unknown_wrap_mode",
                "non_finite_value",
                "unsorted_keys"
            ]
        );
        assert_eq!(r.warnings[0].0, 16);
        assert_eq!(r.warnings.last().map(|w| w.0), Some(b.len() as u64));
        assert!(
            r.warnings
                .last()
                .is_some_and(|w| w.1.starts_with("missing_marker_list"))
        );
        // Sorted on load.
        assert_eq!(r.curves[0].curve.keys[0].time, 0.5);
    }
}
