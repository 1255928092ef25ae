//! The start of a `.skel` file: the skeleton hash and the editor version that wrote it.
//!
//! Spine 3.x writes the hash as a string; 4.x as 8 raw bytes. Either way the version string
//! follows, so a file is recognised by finding a plausible version string in one of the two
//! places (see [`detect`]).

use super::cursor::{Cursor, Read};

/// How the hash is stored (it decides where the version string is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashLayout {
    /// Spine 3.x: a string.
    String,
    /// Spine 4.x: two big-endian ints (8 bytes).
    Bytes8,
}

/// What [`detect`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub layout: HashLayout,
    pub hash: String,
    pub version: String,
}

/// Longest hash string accepted (exports write 27 base64 characters).
const MAX_HASH: usize = 64;
/// Longest version string accepted ("4.3.44-beta" is 11).
const MAX_VERSION: usize = 32;

/// `"major.minor..."`: digits, a dot, then digits, dots, letters and dashes only.
fn plausible_version(v: &str) -> bool {
    let mut parts = v.splitn(3, '.');
    let digits =
        |s: Option<&str>| s.is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    let (major, minor, rest) = (parts.next(), parts.next(), parts.next());
    let minor_digits = minor.map(|m| m.split(|c: char| !c.is_ascii_digit()).next().unwrap_or(""));
    digits(major)
        && digits(minor_digits)
        && v.len() <= MAX_VERSION
        && rest.is_none_or(|r| {
            r.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        })
        && minor.is_some_and(|m| m.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
}

/// Reads a short printable string without failing loudly (detection only).
fn short_string(c: &mut Cursor<'_>, max: usize) -> Option<String> {
    let n = c.uvarint("length").ok()?;
    if n == 0 || n - 1 > max {
        return None;
    }
    let s = c.take(n - 1, "string").ok()?;
    let s = std::str::from_utf8(s).ok()?;
    s.bytes()
        .all(|b| b.is_ascii_graphic())
        .then(|| s.to_string())
}

/// Recognises a Spine binary export by its header. `None`: not one.
pub fn detect(bytes: &[u8]) -> Option<Header> {
    // 3.x: hash string (or null), version string. Exports write base64, but the JSON's
    // `hash` is any string and `convert --to skel` keeps it; no JSON punctuation and no
    // spaces (`short_string` takes graphic characters only), so no JSON text within its
    // first bytes can pass for a hash.
    let mut c = Cursor::new(bytes);
    let hash_like = |h: &String| !h.bytes().any(|b| b"\"{}[]:,".contains(&b));
    let hash = if bytes.first() == Some(&0) {
        c.take(1, "hash").ok().map(|_| String::new())
    } else {
        short_string(&mut c, MAX_HASH).filter(hash_like)
    };
    if let Some(hash) = hash
        && let Some(version) = short_string(&mut c, MAX_VERSION).filter(|v| plausible_version(v))
    {
        return Some(Header {
            layout: HashLayout::String,
            hash,
            version,
        });
    }
    // 4.x: 8 hash bytes, version string.
    let mut c = Cursor::new(bytes);
    let raw = c.take(8, "hash").ok()?;
    let version = short_string(&mut c, MAX_VERSION).filter(|v| plausible_version(v))?;
    let hash = raw.iter().map(|b| format!("{b:02x}")).collect();
    Some(Header {
        layout: HashLayout::Bytes8,
        hash,
        version,
    })
}

/// Reads the hash and version (already recognised by [`detect`]) so the cursor is after them.
pub fn read(c: &mut Cursor<'_>, layout: HashLayout) -> Read<(String, String)> {
    let hash = match layout {
        HashLayout::String => c.string("skeleton hash")?.unwrap_or_default(),
        HashLayout::Bytes8 => c
            .take(8, "skeleton hash")?
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    };
    let version = c.name("editor version")?;
    Ok((hash, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        for v in ["3.8.55", "3.8", "4.2.22", "4.3.44-beta", "3.8.76"] {
            assert!(plausible_version(v), "{v}");
        }
        for v in ["", "3", "x.8", "3.", ".8", "3.8 55", "{\"a\"", "3.8\u{1b}"] {
            assert!(!plausible_version(v), "{v}");
        }
    }

    #[test]
    fn both_layouts() {
        let h = detect(b"\x04abc\x073.8.55\xc4").unwrap();
        assert_eq!(h.layout, HashLayout::String);
        assert_eq!(h.version, "3.8.55");
        assert_eq!(h.hash, "abc");
        let h = detect(b"\x62\xd9\x3b\x66\x8b\x3a\x0d\x1e\x074.0.31\xc4").unwrap();
        assert_eq!(h.layout, HashLayout::Bytes8);
        assert_eq!(h.version, "4.0.31");
        assert_eq!(h.hash, "62d93b668b3a0d1e");
        assert!(detect(b"{\"skeleton\": {\"spine\": \"3.8.55\"}}").is_none());
        // A JSON text whose first byte would be a plausible length.
        assert!(detect(b" \"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4,\x073.8.55").is_none());
        // A hand-written JSON hash, kept by `convert --to skel`.
        let h = detect(b"\x0fpoint-rotation\x073.8.55\xc4").unwrap();
        assert_eq!(h.hash, "point-rotation");
        assert!(detect(b"\x0a{\"a\":\"b\"}\x073.8.55").is_none());
        let h = detect(b"\x00\x073.8.55\xc4").unwrap();
        assert_eq!((h.hash.as_str(), h.version.as_str()), ("", "3.8.55"));
        assert!(detect(b"").is_none());
        assert!(detect(b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00").is_none());
    }
}
