//! Where the members of a JSON text are, as byte spans: the chain of members that encloses a
//! byte offset, and blanking one member out so that the text stays valid JSON and every other
//! byte keeps its offset (so every other line:column stays what it was in the user's file).
//!
//! `check` uses it to drop the member a loader refused and load the rest again. The scanner
//! follows only the containers that enclose the offset and skips every other value by
//! bracket counting (strings aware), so one scan is linear in the text; nesting is followed
//! iteratively, so deep documents cannot overflow the stack. It does not validate the JSON: it
//! is run on texts the loader has already parsed.

use crate::format::json::Seg;
use crate::format::json::locate::{find, string_at};

/// One member of an object, or one element of an array, with its byte spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The offset of the key's opening quote (object members), `None` for array elements.
    pub key_start: Option<usize>,
    /// The position in its container (0-based).
    pub index: usize,
    /// The first byte of the value.
    pub value_start: usize,
    /// Just past the value's last byte.
    pub end: usize,
}

impl Member {
    /// Where the member starts: its key, or its value for an array element.
    pub fn start(&self) -> usize {
        self.key_start.unwrap_or(self.value_start)
    }

    /// The key (unescaped), for an object member.
    pub fn key(&self, text: &[u8]) -> Option<String> {
        string_at(text, self.key_start?)
    }

    /// The name of what the member defines: its key, or the `name` string of an element that
    /// is an object.
    pub fn name(&self, text: &[u8]) -> Option<String> {
        if self.key_start.is_some() {
            return self.key(text);
        }
        let value = text.get(self.value_start..self.end)?;
        let at = find(value, &[Seg::Key("name")])?;
        string_at(value, at)
    }
}

/// The members enclosing `offset`, outermost first: the root's member that holds it, that
/// member's member that holds it, and so on down to the innermost. Empty when `offset` is not
/// inside any member (the root value itself, or outside the document).
pub fn enclosing(text: &[u8], offset: usize) -> Vec<Member> {
    let mut chain = Vec::new();
    let Some(mut container) = first_non_ws(text, 0) else {
        return chain;
    };
    // Each round: look among the members of `container` for the one holding `offset`.
    'down: loop {
        let open = text.get(container).copied();
        let is_object = match open {
            Some(b'{') => true,
            Some(b'[') => false,
            _ => return chain,
        };
        let mut p = skip_ws(text, container + 1);
        let mut index = 0;
        loop {
            if matches!(text.get(p), None | Some(b'}' | b']')) {
                return chain;
            }
            let key_start = if is_object {
                let k = p;
                let Some(after) = skip_string(text, p) else {
                    return chain;
                };
                p = skip_ws(text, after);
                if text.get(p) != Some(&b':') {
                    return chain;
                }
                p = skip_ws(text, p + 1);
                Some(k)
            } else {
                None
            };
            let Some(end) = skip_value(text, p) else {
                return chain;
            };
            let member = Member {
                key_start,
                index,
                value_start: p,
                end,
            };
            if member.start() <= offset && offset < end {
                let value_start = member.value_start;
                chain.push(member);
                if value_start == offset {
                    return chain;
                }
                container = value_start;
                continue 'down;
            }
            p = skip_ws(text, end);
            if text.get(p) != Some(&b',') {
                return chain;
            }
            p = skip_ws(text, p + 1);
            index += 1;
        }
    }
}

/// Replaces `member` and one comma next to it (the one after it, else the one before it) by
/// spaces, keeping line breaks: the text stays valid JSON and no other byte moves.
pub fn blank(text: &mut [u8], member: &Member) {
    let mut from = member.start();
    let mut to = member.end;
    let after = skip_ws(text, to);
    if text.get(after) == Some(&b',') {
        to = after + 1;
    } else if let Some(before) = text[..from].iter().rposition(|b| !b.is_ascii_whitespace())
        && text[before] == b','
    {
        from = before;
    }
    for b in text.get_mut(from..to).unwrap_or_default() {
        if !matches!(*b, b'\n' | b'\r') {
            *b = b' ';
        }
    }
}

/// The byte offset of a 1-based line and column (columns count bytes), clamped to the text.
pub fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].iter().position(|&b| b == b'\n') {
            Some(n) => start += n + 1,
            None => return text.len(),
        }
    }
    start
        .saturating_add(column.saturating_sub(1))
        .min(text.len())
}

/// The JSON path of a chain of members (`animations.walk.events[2]`), keys unescaped.
pub fn path_of(text: &[u8], chain: &[Member]) -> String {
    let keys: Vec<Option<String>> = chain.iter().map(|m| m.key(text)).collect();
    let segs: Vec<Seg<'_>> = chain
        .iter()
        .zip(&keys)
        .map(|(m, k)| match k {
            Some(k) => Seg::Key(k),
            None => Seg::Index(m.index),
        })
        .collect();
    crate::format::json::format_path(&segs)
}

fn first_non_ws(text: &[u8], from: usize) -> Option<usize> {
    let p = skip_ws(text, from);
    (p < text.len()).then_some(p)
}

fn skip_ws(text: &[u8], mut p: usize) -> usize {
    while text.get(p).is_some_and(|b| b.is_ascii_whitespace()) {
        p += 1;
    }
    p
}

/// Just past the value starting at `p`.
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
                        depth = depth.checked_sub(1)?;
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
            let n = text[p..]
                .iter()
                .position(|&c| matches!(c, b',' | b'}' | b']' | b':') || c.is_ascii_whitespace())
                .unwrap_or(text.len() - p);
            (n > 0).then_some(p + n)
        }
    }
}

/// Just past the string whose opening quote is at `p`.
fn skip_string(text: &[u8], p: usize) -> Option<usize> {
    if text.get(p) != Some(&b'"') {
        return None;
    }
    let mut i = p + 1;
    loop {
        match *text.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "{\n  \"bones\": [\n    {\"name\": \"root\"},\n    {\"name\": \"a\", \"parent\": \"x\"}\n  ],\n  \"events\": {\"e\\\"1\": {}, \"b\": {\"int\": 1}}\n}\n";

    fn at(text: &str, needle: &str) -> usize {
        text.find(needle).expect("needle")
    }

    #[test]
    fn the_chain_down_to_a_value() {
        let t = DOC.as_bytes();
        let chain = enclosing(t, at(DOC, "\"x\""));
        assert_eq!(path_of(t, &chain), "bones[1].parent");
        assert_eq!(chain[1].name(t).as_deref(), Some("a"));
        assert_eq!(chain[2].value_start, at(DOC, "\"x\""));
        // A key's bytes belong to its member; an escaped key is unescaped.
        let chain = enclosing(t, at(DOC, "\"e\\"));
        assert_eq!(path_of(t, &chain), "events[\"e\\\"1\"]");
        assert_eq!(chain[1].name(t).as_deref(), Some("e\"1"));
        assert_eq!(path_of(t, &enclosing(t, at(DOC, "1}}"))), "events.b.int");
        // The root itself and whitespace between members: no member or the container only.
        assert!(enclosing(t, 0).is_empty());
        assert_eq!(path_of(t, &enclosing(t, 2)), "");
    }

    #[test]
    fn blanking_keeps_json_and_offsets() {
        let check = |needle: &str, expect: serde_json::Value| {
            let mut t = DOC.as_bytes().to_vec();
            let chain = enclosing(&t, at(DOC, needle));
            blank(&mut t, chain.last().expect("member"));
            assert_eq!(t.len(), DOC.len());
            let lines = |b: &[u8]| b.iter().filter(|&&c| c == b'\n').count();
            assert_eq!(lines(&t), lines(DOC.as_bytes()));
            let v: serde_json::Value = serde_json::from_slice(&t).expect("still JSON");
            assert_eq!(v, expect, "{}", String::from_utf8_lossy(&t));
        };
        let doc: serde_json::Value = serde_json::from_str(DOC).expect("json");
        // A last member takes the comma before it; a first one the comma after it.
        let mut v = doc.clone();
        v["bones"][1].as_object_mut().unwrap().remove("parent");
        check("\"x\"", v);
        let mut v = doc.clone();
        v["bones"].as_array_mut().unwrap().remove(0);
        check("{\"name\": \"root\"}", v);
        let mut v = doc.clone();
        v["events"].as_object_mut().unwrap().remove("e\"1");
        check("\"e\\", v);
        // An only member leaves an empty container.
        let mut v = doc;
        v["events"]["b"] = serde_json::json!({});
        check("1}}", v);
    }

    #[test]
    fn lines_and_columns_to_offsets() {
        let t = b"ab\ncd\n";
        assert_eq!(offset_of(t, 1, 1), 0);
        assert_eq!(offset_of(t, 2, 2), 4);
        assert_eq!(offset_of(t, 9, 1), t.len());
        assert_eq!(offset_of(t, 1, 99), t.len());
    }

    #[test]
    fn hostile_text_never_panics() {
        for t in [
            "",
            "{",
            "[1,",
            "{\"a\"",
            "{\"a\":",
            "}}}",
            "\"",
            "{\"a\":[}]",
        ] {
            for o in 0..=t.len() + 1 {
                let chain = enclosing(t.as_bytes(), o);
                let mut b = t.as_bytes().to_vec();
                if let Some(m) = chain.last() {
                    blank(&mut b, m);
                }
                let _ = path_of(t.as_bytes(), &chain);
            }
        }
    }
}
