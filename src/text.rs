//! Making text from files safe to show.
//!
//! Names and strings in animation files are untrusted: an escape sequence or a bidi override in
//! a bone name must never reach the terminal raw. One policy, [`needs_escape`], decides which
//! characters are unsafe, for every string that leaves bonescope: text (the TUI, headless text
//! output, error messages) goes through [`sanitize`], which makes them visible (`\u{202e}`);
//! JSON goes through [`write_json`], which writes them as JSON escapes (`\u202e`), so the
//! value a script reads is the file's own string and the bytes are safe on a terminal.

use std::borrow::Cow;

/// Returns `s` with control, escape, bidi and zero-width characters replaced by visible
/// escapes (`\e`, `\n`, `\u{202e}`, ...). Borrows when nothing needs escaping.
pub fn sanitize(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for ch in s.chars() {
        if !needs_escape(ch) {
            out.push(ch);
            continue;
        }
        match ch {
            '\u{1b}' => out.push_str("\\e"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            _ => out.push_str(&format!("\\u{{{:x}}}", ch as u32)),
        }
    }
    Cow::Owned(out)
}

/// True for characters that must not be shown raw.
pub fn needs_escape(ch: char) -> bool {
    ch.is_control()
        || matches!(ch,
            '\u{061c}' // Arabic letter mark (a bidi control)
            | '\u{180e}' // Mongolian vowel separator (zero-width)
            | '\u{200b}'..='\u{200f}' // zero-width and directional marks
            | '\u{2028}' | '\u{2029}' // line and paragraph separators
            | '\u{202a}'..='\u{202e}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}' // word joiner and invisible operators
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{feff}' // zero-width no-break space
            | '\u{fff9}'..='\u{fffb}' // interlinear annotation controls
        )
}

/// Writes `value` as compact JSON (the same bytes as `serde_json::to_writer`) except that
/// every character [`needs_escape`] refuses is written as a `\uXXXX` escape.
pub fn write_json<W: std::io::Write, T: serde::Serialize + ?Sized>(
    out: W,
    value: &T,
) -> std::io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, SafeFormatter);
    value.serialize(&mut ser).map_err(std::io::Error::other)
}

/// [`write_json`] into a string.
pub fn to_json_string<T: serde::Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    // Writing into a Vec fails only if `value` cannot be serialized (never for our values).
    let _ = write_json(&mut out, value);
    String::from_utf8(out).unwrap_or_default()
}

/// serde_json's compact formatter, escaping what [`needs_escape`] refuses. serde_json
/// already escapes C0 controls; this adds DEL, C1, bidi and zero-width characters.
struct SafeFormatter;

impl serde_json::ser::Formatter for SafeFormatter {
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        // Names are nearly always printable ASCII: one byte scan instead of decoding chars.
        if fragment.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            return writer.write_all(fragment.as_bytes());
        }
        let mut start = 0;
        for (i, ch) in fragment.char_indices() {
            if !needs_escape(ch) {
                continue;
            }
            writer.write_all(&fragment.as_bytes()[start..i])?;
            let mut units = [0u16; 2];
            for u in ch.encode_utf16(&mut units) {
                write!(writer, "\\u{:04x}", u)?;
            }
            start = i + ch.len_utf8();
        }
        writer.write_all(&fragment.as_bytes()[start..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        assert!(matches!(sanitize("left arm"), Cow::Borrowed(_)));
        assert_eq!(sanitize("bras gauche é 腕"), "bras gauche é 腕");
    }

    #[test]
    fn escapes_are_made_visible() {
        assert_eq!(sanitize("a\u{1b}[31mred"), "a\\e[31mred");
        assert_eq!(sanitize("evil\u{202e}txt"), "evil\\u{202e}txt");
        assert_eq!(sanitize("zw\u{200b}j"), "zw\\u{200b}j");
        assert_eq!(sanitize("bell\u{7}"), "bell\\u{7}");
        assert_eq!(sanitize("c1\u{9b}x"), "c1\\u{9b}x");
        assert_eq!(sanitize("l1\nl2"), "l1\\nl2");
        assert_eq!(sanitize("alm\u{61c}x"), "alm\\u{61c}x");
        assert_eq!(sanitize("iso\u{2066}x\u{2069}"), "iso\\u{2066}x\\u{2069}");
    }

    #[test]
    #[allow(clippy::disallowed_methods)] // compares with serde_json's own bytes
    fn json_escapes_the_same_characters_and_keeps_the_value() {
        let name = "a\u{9b}b\u{202e}c\u{61c}d\u{200b}e\u{1b}f\u{7f}g é 腕";
        let text = to_json_string(&serde_json::json!({ "name": name }));
        assert!(!text.chars().any(needs_escape), "{text:?}");
        assert!(text.contains("\\u009b") && text.contains("\\u202e") && text.contains("\\u061c"));
        let back: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back["name"], name);
        // All-ASCII text takes the byte-scan path: DEL must still leave it.
        assert_eq!(to_json_string(&"del\u{7f}x ~"), "\"del\\u007fx ~\"");
        let plain = serde_json::json!({"b": [1.5, null, "x\"y"], "a": true});
        assert_eq!(
            to_json_string(&plain),
            serde_json::to_string(&plain).expect("json")
        );
    }
}
