//! JSON paths: where a value is, as segments (for the locator) and as text (for messages).

/// One step into a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seg<'a> {
    /// The member of an object with this key (the first one, if the key repeats).
    Key(&'a str),
    /// The element of an array at this index.
    Index(usize),
    /// The member of an object at this position (0-based), shown by its key. Names the right
    /// member even when keys repeat.
    Entry(usize, &'a str),
}

/// Formats a path as `bones[3].parent` or `skins[0].attachments["left arm"].uvs`.
pub fn format_path(segs: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in segs {
        match *seg {
            Seg::Key(k) | Seg::Entry(_, k) => push_key(&mut out, k),
            Seg::Index(i) => push_index(&mut out, i),
        }
    }
    out
}

/// Appends `.key`, or `["key"]` when the key is not a plain word.
pub fn push_key(out: &mut String, key: &str) {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(key);
    } else {
        out.push_str("[\"");
        for c in key.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]");
    }
}

/// Appends `[index]`.
pub fn push_index(out: &mut String, index: usize) {
    out.push('[');
    out.push_str(&index.to_string());
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_paths() {
        assert_eq!(format_path(&[]), "");
        assert_eq!(
            format_path(&[Seg::Key("bones"), Seg::Index(3), Seg::Key("parent")]),
            "bones[3].parent"
        );
        assert_eq!(
            format_path(&[
                Seg::Key("skins"),
                Seg::Index(0),
                Seg::Key("attachments"),
                Seg::Entry(2, "left arm"),
                Seg::Key("x")
            ]),
            "skins[0].attachments[\"left arm\"].x"
        );
        assert_eq!(format_path(&[Seg::Key("a\"b")]), "[\"a\\\"b\"]");
        assert_eq!(format_path(&[Seg::Index(1)]), "[1]");
        assert_eq!(format_path(&[Seg::Key("")]), "[\"\"]");
    }
}
