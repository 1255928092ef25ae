//! Lints for loaded skeletons: what an export pipeline wants to hear about before shipping.
//!
//! Loaders already refuse what cannot be played (dangling references, duplicate names, bad
//! numbers) with a located [`LoadError`]; [`from_load_error`] turns such a refusal into a
//! finding. [`lint`] looks at a skeleton that did load: keys past the end, things nothing
//! uses, empty animations, non-finite numbers, timelines on bones no skin activates,
//! zero-length fades that pop, and what the loader tolerated.
//!
//! Findings hold raw names; printing sanitizes them.

mod rules;
pub mod versions;

use crate::core::model::SkeletonData;
use crate::format::{LoadError, Location};

pub use rules::lint;

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing; never fails a check.
    Info,
    /// Probably a mistake; fails a check with `--deny warnings`.
    Warning,
    /// Broken: the export will not play as authored.
    Error,
}

impl Severity {
    /// `info`, `warning` or `error`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One thing a lint found.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub severity: Severity,
    /// Stable kebab-case rule name, e.g. `key-after-end`.
    pub code: &'static str,
    /// One line for people (raw names: sanitize before printing).
    pub message: String,
    /// Where in the skeleton, as a path of names: `animations.walk.bones.hip.rotate`.
    pub path: String,
    /// Line and column in the file, when the loader said (1-based).
    pub line_column: Option<(usize, usize)>,
}

impl Finding {
    pub(crate) fn new(
        severity: Severity,
        code: &'static str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Finding {
        Finding {
            severity,
            code,
            message: message.into(),
            path: path.into(),
            line_column: None,
        }
    }
}

/// What a load failure means for a check.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadOutcome {
    /// The file has a recognised format and structure, but the loader refused something in it
    /// (a dangling reference, a duplicate name, a bad value): a located error finding.
    Refused(Finding),
    /// The file could not be read at all (not a supported format or version, bad syntax).
    Unreadable(Finding),
}

/// Classifies a loader's refusal by its kind (never by its message, which quotes names from
/// the file).
pub fn from_load_error(e: &LoadError) -> LoadOutcome {
    let (path, line_column) = match &e.location {
        Some(Location::Json { path, line, column }) => (path.clone(), Some((*line, *column))),
        Some(Location::Byte { offset }) => (format!("byte {offset}"), None),
        None => (String::new(), None),
    };
    let finding = Finding {
        severity: Severity::Error,
        code: e.kind.code(),
        message: e.message.clone(),
        path,
        line_column,
    };
    if e.kind.is_unreadable() {
        LoadOutcome::Unreadable(finding)
    } else {
        LoadOutcome::Refused(finding)
    }
}

/// Lints every skeleton of a file (DragonBones files hold several armatures); each finding's
/// path starts with the armature's name when there is more than one.
pub fn lint_all(all: &[std::sync::Arc<SkeletonData>]) -> Vec<Finding> {
    let many = all.len() > 1;
    let mut out = Vec::new();
    for data in all {
        for mut f in lint(data) {
            if many {
                f.path = if f.path.is_empty() {
                    format!("armature {}", data.name)
                } else {
                    format!("armature {}: {}", data.name, f.path)
                };
            }
            out.push(f);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ErrorKind;

    #[test]
    fn load_errors_are_classified_by_kind() {
        let outcome = |kind: ErrorKind, msg: &str| {
            from_load_error(&LoadError::json("bones[2].parent", 3, 4, msg).with_kind(kind))
        };
        let code = |o: LoadOutcome| match o {
            LoadOutcome::Refused(f) => ("refused", f.code),
            LoadOutcome::Unreadable(f) => ("unreadable", f.code),
        };
        // The words of a message never decide: names from the file may say anything.
        assert_eq!(
            code(outcome(
                ErrorKind::DanglingReference,
                "unknown bone \"duplicate-arm\""
            )),
            ("refused", "dangling-reference")
        );
        assert_eq!(
            code(outcome(
                ErrorKind::DanglingReference,
                "unknown bone \"unsupported-arm\""
            )),
            ("refused", "dangling-reference")
        );
        assert_eq!(
            code(outcome(
                ErrorKind::DuplicateName,
                "two bones are named \"unknown x\""
            )),
            ("refused", "duplicate-name")
        );
        assert_eq!(
            code(outcome(ErrorKind::InvalidValue, "scale must be positive")),
            ("refused", "invalid-value")
        );
        assert_eq!(
            code(outcome(ErrorKind::NonFinite, "x is not a finite number")),
            ("refused", "non-finite")
        );
        assert_eq!(
            code(outcome(
                ErrorKind::UnsupportedVersion,
                "Spine 9.9 is not supported"
            )),
            ("unreadable", "unsupported-version")
        );
        assert_eq!(
            code(outcome(ErrorKind::UnsupportedFormat, "unrecognised file")),
            ("unreadable", "unsupported-format")
        );
        assert_eq!(
            code(outcome(ErrorKind::Malformed, "expected a list")),
            ("unreadable", "unreadable")
        );
    }
}
