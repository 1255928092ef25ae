//! Making text from files safe to show.
//!
//! Names and strings in animation files are untrusted: an escape sequence or a bidi override in
//! a bone name must never reach the terminal raw. Everything printed from a file goes through
//! [`sanitize`], in the TUI, in headless text output and in error messages.

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
            '\u{200b}'..='\u{200f}' // zero-width and directional marks
            | '\u{202a}'..='\u{202e}' // bidi embeddings and overrides
            | '\u{2060}'..='\u{2064}' // word joiner and invisible operators
            | '\u{2066}'..='\u{2069}' // bidi isolates
            | '\u{feff}' // zero-width no-break space
            | '\u{fff9}'..='\u{fffb}' // interlinear annotation controls
        )
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
    }
}
