//! A small JSON tree with exact number formatting: every number is written as the shortest
//! text that reads back as the same value (`f32` key values as `f32`s, `f64` setup values as
//! `f64`s), and a pretty printer
//! that keeps arrays and objects of plain values on one line so exports stay diffable.

use std::fmt::Write as _;

/// A JSON value whose numbers are already formatted.
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    /// A float as the shortest text that round-trips through `f32`.
    pub fn f32(v: f32) -> Json {
        // `-0` reads back as 0 in every runtime; keep it plain.
        let v = if v == 0.0 { 0.0 } else { v };
        Json::Num(format!("{v}"))
    }

    /// A value the model keeps in `f64` (setup values, solved control points): the shortest
    /// text that reads back as the same `f64`. Values read from a `.skel` are `f32`s, so an
    /// `f32` reader gets exactly the binary's number and an `f64` reader (bonescope, spine-ts)
    /// exactly the double the binary gave it.
    pub fn f64(v: f64) -> Json {
        let v = if v == 0.0 { 0.0 } else { v };
        Json::Num(format!("{v}"))
    }

    pub fn int(v: i64) -> Json {
        Json::Num(v.to_string())
    }

    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    pub fn floats(v: &[f32]) -> Json {
        Json::Arr(v.iter().map(|&x| Json::f32(x)).collect())
    }

    fn is_plain(&self) -> bool {
        !matches!(self, Json::Arr(_) | Json::Obj(_))
    }

    /// The text, indented with tabs like Spine's own exports.
    pub fn pretty(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, depth: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => out.push_str(n),
            Json::Str(s) => string(out, s),
            Json::Arr(items) => {
                if items.iter().all(Json::is_plain) {
                    out.push_str("[ ");
                    for (i, v) in items.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        v.write(out, depth);
                    }
                    out.push_str(if items.is_empty() { "]" } else { " ]" });
                } else {
                    out.push_str("[\n");
                    for (i, v) in items.iter().enumerate() {
                        indent(out, depth + 1);
                        v.write(out, depth + 1);
                        out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
                    }
                    indent(out, depth);
                    out.push(']');
                }
            }
            Json::Obj(entries) => {
                let inline = entries.iter().all(|(_, v)| v.is_plain())
                    || entries.iter().all(|(_, v)| {
                        matches!(v, Json::Arr(a) if a.iter().all(Json::is_plain)) || v.is_plain()
                    }) && entries.len() <= 12;
                if inline && depth > 0 {
                    out.push_str("{ ");
                    for (i, (k, v)) in entries.iter().enumerate() {
                        if i > 0 {
                            out.push_str(", ");
                        }
                        string(out, k);
                        out.push_str(": ");
                        v.write(out, depth);
                    }
                    out.push_str(if entries.is_empty() { "}" } else { " }" });
                } else {
                    out.push_str("{\n");
                    for (i, (k, v)) in entries.iter().enumerate() {
                        indent(out, depth + 1);
                        string(out, k);
                        out.push_str(": ");
                        v.write(out, depth + 1);
                        out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
                    }
                    indent(out, depth);
                    out.push('}');
                }
            }
        }
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push('\t');
    }
}

/// A JSON string literal: control, bidi and zero-width characters (the one policy,
/// [`crate::text::needs_escape`]) escaped, so a converted file never carries them raw.
fn string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if crate::text::needs_escape(c) => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{:04x}", u);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Builds an object entry by entry.
#[derive(Default)]
pub struct Obj(pub Vec<(String, Json)>);

impl Obj {
    pub fn new() -> Obj {
        Obj(Vec::new())
    }

    pub fn put(&mut self, key: &str, v: Json) -> &mut Obj {
        self.0.push((key.to_string(), v));
        self
    }

    pub fn num(&mut self, key: &str, v: f64) -> &mut Obj {
        self.put(key, Json::f64(v))
    }

    /// A number unless it equals `default` (what the loader assumes when it is missing).
    pub fn num_or(&mut self, key: &str, v: f64, default: f64) -> &mut Obj {
        if v as f32 != default as f32 {
            self.num(key, v);
        }
        self
    }

    pub fn flag(&mut self, key: &str, v: bool) -> &mut Obj {
        if v {
            self.put(key, Json::Bool(true));
        }
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn done(self) -> Json {
        Json::Obj(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_f32() {
        for v in [0.1f32, 1.0, -26.4, 1e-7, 3.4e38, 0.33333334, -0.0] {
            let Json::Num(s) = Json::f32(v) else { panic!() };
            assert_eq!(s.parse::<f32>().unwrap(), v, "{s}");
        }
        assert_eq!(Json::f32(1.0), Json::Num("1".into()));
        assert_eq!(Json::f32(-0.0), Json::Num("0".into()));
    }

    #[test]
    fn strings_escape_controls() {
        let j = Json::Arr(vec![Json::str("a\"b\\c\n\u{1b}")]);
        assert_eq!(j.pretty(), "[ \"a\\\"b\\\\c\\n\\u001b\" ]\n");
        let j = Json::str("x\u{9b}\u{202e}\u{200d}\u{7f}é");
        assert_eq!(j.pretty(), "\"x\\u009b\\u202e\\u200d\\u007fé\"\n");
    }
}
