//! Every finding of a JSON export, not only the loader's first refusal.
//!
//! Loaders stop at the first problem. When a JSON export (Spine or DragonBones) is refused
//! for something in one place (a dangling reference, a duplicate name, a bad value), `check`
//! blanks out the smallest member holding the refused value in the text (see
//! [`check_span::blank`](super::check_span::blank): the text stays JSON and every other
//! line:column stays what it is in the user's file), loads again, and repeats: each pass is
//! one finding. The loaders are not changed; the recovery is driven by their errors only.
//!
//! The smallest member is tried first (the refused value itself: a key of a timeline, a
//! timeline, a list entry, an optional field); when the loader then refuses the member that
//! held it (a required field gone: an error located at the holder or around it, or a file
//! that no longer reads), the holder is dropped instead, up to one item of the export's
//! top-level lists (a bone, a slot, an animation; for DragonBones an item of an armature).
//! Dropping such an item can make references to it dangle: those refusals name a dropped item
//! and are not reported (they are not in the user's file). Binary files stay first-error:
//! after an error the rest of a binary file cannot be located.
//!
//! Bounds: at most [`MAX_FINDINGS`] findings, [`MAX_LOADS`] loads and [`MAX_RELOAD_BYTES`]
//! bytes loaded again per file; reaching one is said in the report.

use std::collections::HashSet;

use super::check_span::{Member, blank, enclosing, offset_of, path_of};
use crate::core::model::SkeletonData;
use crate::format::{LoadError, Location};
use crate::lint::{Finding, LoadOutcome, from_load_error};

/// The most loader findings reported for one file.
pub const MAX_FINDINGS: usize = 100;
/// The most loads of one file (a finding can take several when holders are dropped).
pub const MAX_LOADS: usize = 4 * MAX_FINDINGS;
/// The most bytes loaded again for one file, whatever its size (the work bound of large files).
pub const MAX_RELOAD_BYTES: u64 = 128 << 20;

/// What loading a file with recovery gave.
#[derive(Debug, Default)]
pub struct Recovery {
    /// The skeletons, when the file (with the refused members dropped) loaded.
    pub loaded: Option<Vec<SkeletonData>>,
    /// The loader's findings in file order (line, column).
    pub findings: Vec<Finding>,
    /// The file could not be read at all (one finding says why).
    pub unreadable: bool,
    /// Why findings may be missing (a bound reached, a binary file, a refusal that could not be
    /// dropped); `None` when the whole file was checked.
    pub incomplete: Option<String>,
    /// How many times the file was loaded.
    pub loads: usize,
    /// The JSON paths (in the user's file) of the members left out, in the order they were.
    pub left_out: Vec<String>,
}

impl Recovery {
    /// Whether a lint finding at model path `path` is about an item that holds a member the
    /// recovery left out (an animation whose only timeline was refused is not "empty" in the
    /// user's file): such findings are not reported.
    pub fn changed(&self, path: &str) -> bool {
        !path.is_empty()
            && self.left_out.iter().any(|p| {
                p.strip_prefix(path)
                    .is_some_and(|rest| rest.starts_with(['.', '[']))
            })
    }
}

const BOM: &[u8] = b"\xef\xbb\xbf";

/// Loads `bytes` (named `name`), reporting every refusal of a JSON export (see the module docs).
pub fn load_recovering(bytes: &[u8], name: &str) -> Recovery {
    let first = match crate::format::load_all(bytes, name) {
        Ok(all) => {
            return Recovery {
                loaded: Some(all),
                loads: 1,
                ..Recovery::default()
            };
        }
        Err(e) => e,
    };
    let mut out = Recovery {
        loads: 1,
        ..Recovery::default()
    };
    match from_load_error(&first) {
        LoadOutcome::Unreadable(f) => {
            out.unreadable = true;
            out.findings.push(f);
            return out;
        }
        LoadOutcome::Refused(f) => out.findings.push(f),
    }
    // The loader strips a byte order mark before reading: so do its line:columns.
    let original = bytes.strip_prefix(BOM).unwrap_or(bytes);
    let (Some(Location::Json { .. }), Some(definition_depth)) =
        (&first.location, definition_depth(original))
    else {
        out.incomplete = Some(
            "only the first finding of a binary file is reported: after an error the rest \
             of it cannot be located"
                .into(),
        );
        return out;
    };
    Recoverer {
        original,
        text: original.to_vec(),
        name,
        definition_depth,
        dropped_names: HashSet::new(),
        reloaded: 0,
        out,
    }
    .run(first)
}

/// How deep the items of an export's top-level lists are, counted in members from the root:
/// Spine `bones[3]` is 1, DragonBones `armature[0].bone[3]` is 3. `None`: not a JSON export.
fn definition_depth(text: &[u8]) -> Option<usize> {
    use crate::format::sniff::{Format, sniff};
    match sniff(text).ok()? {
        Format::SpineJson { .. } => Some(1),
        Format::DragonBones => Some(3),
        _ => None,
    }
}

struct Recoverer<'a> {
    original: &'a [u8],
    /// The original text with the refused members blanked out so far.
    text: Vec<u8>,
    name: &'a str,
    definition_depth: usize,
    /// Names of the top-level items dropped: refusals naming them are consequences of the
    /// recovery, not findings.
    dropped_names: HashSet<String>,
    reloaded: u64,
    out: Recovery,
}

/// What one pass found next.
enum Next {
    /// The file loads now.
    Loaded(Vec<SkeletonData>),
    /// The next refusal (in the text with the member dropped).
    Refused(LoadError),
    /// No member holding the refusal could be dropped; the note says why.
    Stuck(String),
}

impl Recoverer<'_> {
    fn run(mut self, first: LoadError) -> Recovery {
        let mut error = first;
        loop {
            match self.pass(&error) {
                Next::Loaded(all) => {
                    self.out.loaded = Some(all);
                    break;
                }
                Next::Stuck(why) => {
                    self.out.incomplete = Some(why);
                    break;
                }
                Next::Refused(e) => {
                    if !self.is_consequence(&e) {
                        if let LoadOutcome::Refused(mut f) = from_load_error(&e) {
                            f.path = self.original_path(&e, &f.path);
                            self.out.findings.push(f);
                        }
                        if self.out.findings.len() >= MAX_FINDINGS {
                            self.out.incomplete = Some(format!(
                                "stopped after {MAX_FINDINGS} findings: the rest of the file \
                                 was not checked"
                            ));
                            break;
                        }
                    }
                    error = e;
                }
            }
        }
        self.out
            .findings
            .sort_by_key(|f| f.line_column.unwrap_or((0, 0)));
        self.out
    }

    /// Drops the smallest member holding `error`'s value that the loader then accepts, and
    /// loads again.
    fn pass(&mut self, error: &LoadError) -> Next {
        let Some(Location::Json { line, column, .. }) = &error.location else {
            return Next::Stuck(
                "the rest of the file was not checked: a refusal without a place".into(),
            );
        };
        let offset = offset_of(&self.text, *line, *column);
        let chain = enclosing(&self.text, offset);
        let stuck = format!(
            "the rest of the file was not checked: the refusal at line {line}, column {column} \
             is not inside an item that can be left out"
        );
        for k in (self.definition_depth..chain.len()).rev() {
            let size = self.text.len() as u64;
            if self.out.loads >= MAX_LOADS || self.reloaded.saturating_add(size) > MAX_RELOAD_BYTES
            {
                return Next::Stuck(format!(
                    "stopped after {} loads of the file: the rest of it was not checked",
                    self.out.loads
                ));
            }
            let mut trial = self.text.clone();
            blank(&mut trial, &chain[k]);
            self.out.loads += 1;
            self.reloaded += size;
            let result = crate::format::load_all(&trial, self.name);
            if let Err(e) = &result
                && caused_by_drop(e, &trial, &chain[..k])
            {
                continue; // the holder needs what was dropped: drop the holder
            }
            if k == self.definition_depth
                && let Some(n) = chain[k].name(&self.text)
            {
                self.dropped_names.insert(n);
            }
            self.out.left_out.push(path_of(
                self.original,
                &enclosing(self.original, chain[k].value_start),
            ));
            self.text = trial;
            return match result {
                Ok(all) => Next::Loaded(all),
                Err(e) => Next::Refused(e),
            };
        }
        Next::Stuck(stuck)
    }

    /// Whether `e` refers by name to a top-level item the recovery dropped (so it is not in
    /// the user's file). Compares names from the text, never words of the message.
    fn is_consequence(&self, e: &LoadError) -> bool {
        let Some(Location::Json { line, column, .. }) = &e.location else {
            return false;
        };
        if self.dropped_names.is_empty() {
            return false;
        }
        let offset = offset_of(&self.text, *line, *column);
        let named = if self.text.get(offset) == Some(&b'"') {
            crate::format::json::locate::string_at(&self.text, offset)
        } else {
            enclosing(&self.text, offset)
                .last()
                .filter(|m| m.value_start == offset)
                .and_then(|m| m.key(&self.text))
        };
        named.is_some_and(|n| self.dropped_names.contains(&n))
    }

    /// The loader's path of `e` with the indexes of the user's file: members dropped before
    /// it in a list shift the indexes the loader saw.
    fn original_path(&self, e: &LoadError, path: &str) -> String {
        let Some(Location::Json { line, column, .. }) = &e.location else {
            return path.to_string();
        };
        let offset = offset_of(&self.text, *line, *column);
        let seen = path_of(&self.text, &enclosing(&self.text, offset));
        let Some(rest) = path.strip_prefix(seen.as_str()) else {
            return path.to_string();
        };
        if !(rest.is_empty() || rest.starts_with(['.', '['])) {
            return path.to_string();
        }
        let mut fixed = path_of(self.original, &enclosing(self.original, offset));
        if !fixed.is_empty() && rest.starts_with(|c: char| c.is_ascii_alphanumeric()) {
            fixed.push('.');
        }
        fixed.push_str(rest);
        fixed
    }
}

/// Whether refusal `e` (of `text`, after a member of the last holder of `holders` was dropped)
/// is about the holders rather than another place: the file no longer reads, or the error is
/// located at a holder or between its members, not inside another member.
fn caused_by_drop(e: &LoadError, text: &[u8], holders: &[Member]) -> bool {
    if e.kind.is_unreadable() {
        return true;
    }
    let Some(Location::Json { line, column, .. }) = &e.location else {
        return true;
    };
    let at = enclosing(text, offset_of(text, *line, *column));
    at.len() <= holders.len()
        && at
            .iter()
            .zip(holders)
            .all(|(a, h)| a.value_start == h.value_start)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Spine 4.2 document with `body` spliced into it.
    fn spine(body: &str) -> String {
        format!(
            "{{\"skeleton\": {{\"spine\": \"4.2.22\"}},\n\"bones\": [\n{{\"name\": \"root\"}},\n{{\"name\": \"a\", \"parent\": \"root\"}}\n],\n{body}\n}}\n"
        )
    }

    fn codes_and_lines(r: &Recovery) -> Vec<(&'static str, usize)> {
        r.findings
            .iter()
            .map(|f| (f.code, f.line_column.map_or(0, |(l, _)| l)))
            .collect()
    }

    #[test]
    fn a_clean_file_loads_once() {
        let r = load_recovering(spine("\"slots\": []").as_bytes(), "x");
        assert!(r.loaded.is_some() && r.findings.is_empty() && r.incomplete.is_none());
        assert_eq!(r.loads, 1);
    }

    #[test]
    fn every_dangling_reference_is_found_in_file_order() {
        let text = spine(
            "\"animations\": {\"run\": {\"bones\": {\n\"ghost1\": {\"rotate\": [{\"value\": 1}]},\n\"a\": {\"rotate\": [{\"value\": 2}]}\n}},\n\"walk\": {\"bones\": {\n\"ghost2\": {\"rotate\": [{\"value\": 1}]}}}}",
        );
        let r = load_recovering(text.as_bytes(), "x");
        assert!(r.loaded.is_some(), "{r:?}");
        assert_eq!(
            codes_and_lines(&r),
            [("dangling-reference", 7), ("dangling-reference", 11)],
            "{r:?}"
        );
        assert!(r.incomplete.is_none());
    }

    #[test]
    fn a_dropped_bone_does_not_invent_its_children_dangling() {
        // Bone `b` has a dangling parent; `c` is its child. Dropping the whole of `b`
        // (should the loader need it) must not report `c` as dangling.
        let text = "{\"skeleton\": {\"spine\": \"4.2.22\"},\n\"bones\": [\n{\"name\": \"root\"},\n{\"name\": \"b\", \"parent\": \"nowhere\"},\n{\"name\": \"c\", \"parent\": \"b\"},\n{\"name\": \"d\", \"parent\": \"elsewhere\"}\n]\n}\n";
        let r = load_recovering(text.as_bytes(), "x");
        assert_eq!(
            codes_and_lines(&r),
            [("dangling-reference", 4), ("dangling-reference", 6)],
            "{r:?}"
        );
        assert_eq!(r.findings[1].path, "bones[3].parent", "{r:?}");
    }

    #[test]
    fn what_names_a_left_out_item_is_not_a_finding() {
        // Slot `body` needs its bone: the slot is left out, and the skin and the animation
        // naming it are not reported; the other slot's refusal is.
        let text = "{\"skeleton\": {\"spine\": \"4.2.22\"},\n\"bones\": [{\"name\": \"root\"}],\n\"slots\": [\n{\"name\": \"body\", \"bone\": \"ghost\"},\n{\"name\": \"eye\", \"bone\": \"root\", \"attachment\": \"nothing\"}\n],\n\"skins\": [{\"name\": \"default\", \"attachments\": {\"body\": {\"body\": {\"width\": 1, \"height\": 1}}}}],\n\"animations\": {\"a\": {\"slots\": {\"body\": {\"alpha\": [{\"value\": 1}]}}}}\n}\n";
        let r = load_recovering(text.as_bytes(), "x");
        assert!(r.loaded.is_some(), "{r:?}");
        assert_eq!(
            codes_and_lines(&r),
            [("dangling-reference", 4), ("dangling-reference", 5)],
            "{r:?}"
        );
        assert_eq!(r.findings[1].path, "slots[1].attachment");
        assert!(r.left_out.contains(&"slots[0]".to_string()), "{r:?}");
        // The animation that keyed only the left-out slot is not reported empty.
        assert!(r.changed("animations.a"), "{:?}", r.left_out);
        assert!(!r.changed("animations.b"), "{:?}", r.left_out);
        assert!(!r.changed("animations.ab"), "{:?}", r.left_out);
    }

    #[test]
    fn syntax_errors_stay_one_unreadable_finding() {
        let r = load_recovering(b"{\"skeleton\": {\"spine\": \"4.2", "x");
        assert!(r.unreadable && r.findings.len() == 1 && r.loaded.is_none());
        assert_eq!(r.loads, 1);
    }
}
