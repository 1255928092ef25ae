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

/// Classifies a loader's refusal.
pub fn from_load_error(e: &LoadError) -> LoadOutcome {
    let msg = e.message.as_str();
    let lower = msg.to_lowercase();
    let (path, line_column) = match &e.location {
        Some(Location::Json { path, line, column }) => (path.clone(), Some((*line, *column))),
        Some(Location::Byte { offset }) => (format!("byte {offset}"), None),
        None => (String::new(), None),
    };
    let code = if lower.contains("unrecognised") || lower.contains("empty file") {
        "unsupported-format"
    } else if lower.contains("unsupported") || lower.contains("not supported") {
        "unsupported-version"
    } else if lower.contains("duplicate") {
        "duplicate-name"
    } else if lower.contains("unknown ")
        || lower.contains("not found")
        || lower.contains("no such")
        || lower.contains("does not exist")
        || lower.contains("no skin has")
    {
        "dangling-reference"
    } else if lower.contains("nan") || lower.contains("infinit") || lower.contains("finite") {
        "non-finite"
    } else {
        "unreadable"
    };
    let has_path = !path.is_empty();
    let finding = Finding {
        severity: Severity::Error,
        code,
        message: msg.to_string(),
        path,
        line_column,
    };
    match code {
        "unsupported-version" | "unsupported-format" => LoadOutcome::Unreadable(finding),
        "duplicate-name" | "dangling-reference" | "non-finite" => LoadOutcome::Refused(finding),
        _ if line_column.is_some() && has_path && !lower.contains("expected") => {
            LoadOutcome::Refused(Finding {
                code: "invalid-value",
                ..finding
            })
        }
        _ => LoadOutcome::Unreadable(finding),
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

    #[test]
    fn load_errors_are_classified() {
        let refused =
            |msg: &str| match from_load_error(&LoadError::json("bones[2].parent", 3, 4, msg)) {
                LoadOutcome::Refused(f) => f.code,
                LoadOutcome::Unreadable(f) => panic!("{msg}: unreadable {}", f.code),
            };
        let unreadable = |e: LoadError| match from_load_error(&e) {
            LoadOutcome::Unreadable(f) => f.code,
            LoadOutcome::Refused(f) => panic!("refused {}", f.code),
        };
        assert_eq!(refused("unknown bone \"x\""), "dangling-reference");
        assert_eq!(refused("duplicate bone name \"x\""), "duplicate-name");
        assert_eq!(refused("scale must be positive"), "invalid-value");
        assert_eq!(
            unreadable(LoadError::json(
                "skeleton.spine",
                4,
                11,
                "Spine 4.x JSON is not supported yet"
            )),
            "unsupported-version"
        );
        assert_eq!(
            unreadable(LoadError::json(
                "",
                1,
                1,
                "unrecognised file: not a JSON object"
            )),
            "unsupported-format"
        );
        assert_eq!(
            unreadable(LoadError::json("bones", 2, 3, "expected a list")),
            "unreadable"
        );
    }
}
