//! Finding a value in raw JSON text by its path.
//!
//! Loaders parse straight into typed structs, without a DOM, so a semantic error found later
//! (a dangling bone name, say) knows its path but not its line. This module rescans the text
//! along that path, only when an error is being reported. It is a tiny tokenizer: it walks the
//! objects and arrays on the path and skips everything else by bracket counting (iteratively, so
//! deep nesting cannot overflow the stack). It does not validate the JSON.

use std::borrow::Cow;

use super::path::Seg;

/// The 1-based line and column (in bytes) of the first byte of the value at `path`, or `None`
/// when the path does not lead to a value (the loaders use [`locate_nearest`]).
#[cfg(test)]
pub fn locate(text: &[u8], path: &[Seg<'_>]) -> Option<(usize, usize)> {
    find(text, path).map(|offset| line_col(text, offset))
}

/// The 1-based line and column of the value at `path`; when the path cannot be followed to
/// its end, of the deepest value it reaches (the start of the document at worst).
pub fn locate_nearest(text: &[u8], path: &[Seg<'_>]) -> (usize, usize) {
    let offset = walk(text, path).map_or(0, |(offset, _)| offset);
    line_col(text, offset)
}

/// The byte offset of the first byte of the value at `path`.
pub fn find(text: &[u8], path: &[Seg<'_>]) -> Option<usize> {
    let (offset, matched) = walk(text, path)?;
    (matched == path.len()).then_some(offset)
}

/// Which of `keys` the top-level object names first (its index in `keys`), and the offset
/// of that member's value. Stops at the first match, so nothing after it is scanned.
pub fn first_top_member(text: &[u8], keys: &[&str]) -> Option<(usize, usize)> {
    let which = std::cell::Cell::new(0);
    let at = find_member(text, skip_ws(text, 0), |_, k| {
        keys.iter()
            .position(|&w| w == k)
            .inspect(|&i| which.set(i))
            .is_some()
    })?;
    Some((which.get(), at))
}

/// The 1-based line and column (in bytes, like serde_json) of a byte offset.
pub fn line_col(text: &[u8], offset: usize) -> (usize, usize) {
    let offset = offset.min(text.len());
    let before = &text[..offset];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset - line_start + 1)
}

/// The string value starting at `offset` (at its opening quote), unescaped.
pub fn string_at(text: &[u8], offset: usize) -> Option<String> {
    read_string(text, offset).map(|(s, _)| s.into_owned())
}

/// Follows `path` as far as it goes: (offset of the deepest value reached, segments followed).
/// `None` when the text holds no value at all.
fn walk(text: &[u8], path: &[Seg<'_>]) -> Option<(usize, usize)> {
    let mut pos = skip_ws(text, 0);
    text.get(pos)?;
    for (matched, seg) in path.iter().enumerate() {
        let next = match *seg {
            Seg::Key(key) => find_member(text, pos, |_, k| k == key),
            Seg::Entry(n, _) => find_member(text, pos, |i, _| i == n),
            Seg::Index(n) => find_element(text, pos, n),
        };
        match next {
            Some(p) => pos = p,
            None => return Some((pos, matched)),
        }
    }
    Some((pos, path.len()))
}

/// In the object at `pos`, the value of the first member for which `pred(index, key)` holds.
fn find_member(text: &[u8], pos: usize, pred: impl Fn(usize, &str) -> bool) -> Option<usize> {
    if text.get(pos) != Some(&b'{') {
        return None;
    }
    let mut p = skip_ws(text, pos + 1);
    let mut index = 0;
    loop {
        if text.get(p) != Some(&b'"') {
            return None; // `}` (not found) or not well-formed
        }
        let (key, end) = read_string(text, p)?;
        p = skip_ws(text, end);
        if text.get(p) != Some(&b':') {
            return None;
        }
        p = skip_ws(text, p + 1);
        if pred(index, &key) {
            return text.get(p).is_some().then_some(p);
        }
        p = skip_ws(text, skip_value(text, p)?);
        if text.get(p) != Some(&b',') {
            return None;
        }
        p = skip_ws(text, p + 1);
        index += 1;
    }
}

/// In the array at `pos`, the element at index `n`.
fn find_element(text: &[u8], pos: usize, n: usize) -> Option<usize> {
    if text.get(pos) != Some(&b'[') {
        return None;
    }
    let mut p = skip_ws(text, pos + 1);
    let mut index = 0;
    loop {
        match text.get(p) {
            None | Some(b']') => return None,
            Some(_) if index == n => return Some(p),
            Some(_) => {}
        }
        p = skip_ws(text, skip_value(text, p)?);
        if text.get(p) != Some(&b',') {
            return None;
        }
        p = skip_ws(text, p + 1);
        index += 1;
    }
}

/// The offset just past the value starting at `p`.
fn skip_value(text: &[u8], p: usize) -> Option<usize> {
    match *text.get(p)? {
        b'"' => skip_string(text, p),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = p;
            loop {
                match *text.get(i)? {
                    b'"' => {
                        i = skip_string(text, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        _ => {
            let end = text[p..]
                .iter()
                .position(|&c| {
                    matches!(c, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\r' | b'\n')
                })
                .map_or(text.len(), |n| p + n);
            (end > p).then_some(end)
        }
    }
}

/// The offset just past the string whose opening quote is at `p`.
fn skip_string(text: &[u8], p: usize) -> Option<usize> {
    let mut i = p + 1;
    loop {
        match *text.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The unescaped string whose opening quote is at `p`, and the offset just past it.
fn read_string(text: &[u8], p: usize) -> Option<(Cow<'_, str>, usize)> {
    if text.get(p) != Some(&b'"') {
        return None;
    }
    let end = skip_string(text, p)?;
    let raw = &text[p + 1..end - 1];
    if !raw.contains(&b'\\') {
        return Some((String::from_utf8_lossy(raw), end));
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let c = raw[i];
        i += 1;
        if c != b'\\' {
            out.push(c);
            continue;
        }
        let esc = *raw.get(i)?;
        i += 1;
        let simple = match esc {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let unit = hex4(raw, i)?;
                i += 4;
                let ch = if (0xd800..0xdc00).contains(&unit)
                    && raw.get(i..i + 2) == Some(b"\\u")
                    && hex4(raw, i + 2).is_some_and(|lo| (0xdc00..0xe000).contains(&lo))
                {
                    let lo = hex4(raw, i + 2)?;
                    i += 6;
                    char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (lo - 0xdc00))
                } else {
                    char::from_u32(unit)
                };
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.unwrap_or('\u{fffd}').encode_utf8(&mut buf).as_bytes());
                continue;
            }
            _ => return None,
        };
        out.push(simple);
    }
    Some((Cow::Owned(String::from_utf8_lossy(&out).into_owned()), end))
}

/// Four hex digits at `raw[i..]`.
fn hex4(raw: &[u8], i: usize) -> Option<u32> {
    let digits = std::str::from_utf8(raw.get(i..i + 4)?).ok()?;
    u32::from_str_radix(digits, 16).ok()
}

fn skip_ws(text: &[u8], mut p: usize) -> usize {
    while matches!(text.get(p), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        p += 1;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use Seg::{Entry, Index, Key};

    const DOC: &str = r#"{
  "skeleton": { "spine": "3.8.55" },
  "bones": [
    { "name": "root" },
    { "name": "a\"b]}", "parent": "root", "x": -1.5e3 },
    { "name": "c", "parent":"nope" }
  ],
  "anims": { "walk": { "k": [1, [2, {"z": 3}], 4] }, "walk": { "k": "second" } },
  "esc\u00e9\n": true
}"#;

    fn at(path: &[Seg<'_>]) -> Option<(usize, usize)> {
        locate(DOC.as_bytes(), path)
    }

    #[test]
    fn finds_values_by_path() {
        assert_eq!(at(&[]), Some((1, 1)));
        assert_eq!(at(&[Key("skeleton"), Key("spine")]), Some((2, 26)));
        assert_eq!(at(&[Key("bones"), Index(0)]), Some((4, 5)));
        assert_eq!(at(&[Key("bones"), Index(2), Key("parent")]), Some((6, 29)));
        // Strings holding brackets and escaped quotes are skipped correctly.
        assert_eq!(at(&[Key("bones"), Index(1), Key("x")]), Some((5, 48)));
        assert_eq!(
            at(&[Key("anims"), Key("walk"), Key("k"), Index(2)]),
            Some((8, 48))
        );
        assert_eq!(
            at(&[
                Key("anims"),
                Key("walk"),
                Key("k"),
                Index(1),
                Index(1),
                Key("z")
            ]),
            Some((8, 43))
        );
    }

    #[test]
    fn first_top_member_names_the_first_key_found() {
        let doc = DOC.as_bytes();
        // "bones" comes before "anims" in the document, whatever order the keys are asked in.
        let (which, at) = first_top_member(doc, &["anims", "bones"]).unwrap();
        assert_eq!((which, line_col(doc, at)), (1, (3, 12)));
        // Keys of nested objects are not top-level members.
        assert_eq!(first_top_member(doc, &["spine", "walk"]), None);
        assert_eq!(first_top_member(b"[1]", &["a"]), None);
        assert_eq!(first_top_member(b"{\"a\": [", &["b"]), None);
    }

    #[test]
    fn entries_tell_repeated_keys_apart() {
        assert_eq!(
            at(&[Key("anims"), Entry(1, "walk"), Key("k")]),
            Some((8, 69))
        );
        assert_eq!(at(&[Key("anims"), Key("walk"), Key("k")]), Some((8, 29)));
    }

    #[test]
    fn escaped_keys_compare_unescaped() {
        assert_eq!(at(&[Key("esc\u{e9}\n")]), Some((9, 18)));
    }

    #[test]
    fn missing_paths() {
        assert_eq!(at(&[Key("nope")]), None);
        assert_eq!(at(&[Key("bones"), Index(3)]), None);
        assert_eq!(at(&[Key("bones"), Key("x")]), None);
        assert_eq!(at(&[Key("skeleton"), Key("spine"), Index(0)]), None);
        assert_eq!(
            locate_nearest(DOC.as_bytes(), &[Key("bones"), Index(2), Key("nope")]),
            (6, 5)
        );
        assert_eq!(locate_nearest(b"", &[Key("x")]), (1, 1));
        assert_eq!(locate(b"   ", &[]), None);
    }

    #[test]
    fn malformed_text_gives_none_not_panic() {
        for text in [
            &b"{"[..],
            b"{\"a\"",
            b"{\"a\":",
            b"{\"a\" 1}",
            b"[1,",
            b"{\"a\":\"unterminated",
            b"{\"a\\",
            b"{\"\\u12\":1}",
            b"\xff\xfe{",
            b"}}}}",
        ] {
            assert_eq!(locate(text, &[Key("a"), Index(0)]), None, "{text:?}");
            let _ = locate_nearest(text, &[Key("b"), Index(3)]);
        }
    }

    #[test]
    fn deep_nesting_is_skipped_without_recursion() {
        let mut text = String::from("{\"deep\": ");
        text.push_str(&"[".repeat(200_000));
        text.push_str(&"]".repeat(200_000));
        text.push_str(", \"after\": 7}");
        assert_eq!(locate(text.as_bytes(), &[Key("after")]), Some((1, 400_021)));
    }

    #[test]
    fn reads_strings() {
        let text = br#"{"s": "a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud800x"}"#;
        let off = find(text, &[Key("s")]).unwrap();
        assert_eq!(
            string_at(text, off).unwrap(),
            "a\"\\/\u{8}\u{c}\n\r\t\u{e9}\u{1f600}\u{fffd}x"
        );
        assert_eq!(string_at(b"123", 0), None);
    }

    #[test]
    fn line_col_counts_bytes() {
        assert_eq!(line_col(b"ab\ncd", 0), (1, 1));
        assert_eq!(line_col(b"ab\ncd", 4), (2, 2));
        assert_eq!(line_col(b"ab\ncd", 99), (2, 3));
    }
}
