//! What an export's version means for the official runtimes: which runtime line reads it
//! (Spine runtimes read only exports of their own major.minor) and the versions those
//! runtimes refuse although bonescope loads them.

use super::{Finding, Severity};
use crate::core::model::SkeletonData;

/// The Spine runtime line that reads an export of `format` `version` (`"Spine 3.8"` for
/// `3.8.75`), or `None` when the format has no such rule or the version has no minor.
pub fn runtime_line(format: &str, version: &str) -> Option<String> {
    if format != "Spine" {
        return None;
    }
    let mut parts = version.split('.');
    let major = parts.next().filter(|m| !m.is_empty())?;
    let minor: String = parts
        .next()?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    if minor.is_empty() || !major.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(format!("Spine {major}.{minor}"))
}

/// Why the official runtimes of the export's own line refuse it, with the fix; `None` when
/// they read it.
pub fn runtime_refusal(format: &str, version: &str) -> Option<&'static str> {
    // Spine 3.8.75 was a broken beta export: every official 3.8 runtime checks for exactly
    // this version and refuses the file.
    (format == "Spine" && version == "3.8.75").then_some(
        "exported by Spine 3.8.75, a broken beta: the official Spine 3.8 runtimes refuse it \
         (\"Unsupported skeleton data, please export with a newer version of Spine\"); \
         bonescope loads it, but re-export it with a newer 3.8 (3.8.76 or later) for your game",
    )
}

/// Lint rule `version-refused-by-runtime`.
pub(super) fn refused_by_runtime(data: &SkeletonData, out: &mut Vec<Finding>) {
    if let Some(why) = runtime_refusal(&data.source.format, &data.source.version) {
        out.push(Finding::new(
            Severity::Warning,
            "version-refused-by-runtime",
            "skeleton",
            why,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_lines() {
        assert_eq!(
            runtime_line("Spine", "3.8.75").as_deref(),
            Some("Spine 3.8")
        );
        assert_eq!(
            runtime_line("Spine", "4.2.43").as_deref(),
            Some("Spine 4.2")
        );
        assert_eq!(
            runtime_line("Spine", "4.3.44-beta").as_deref(),
            Some("Spine 4.3")
        );
        assert_eq!(runtime_line("Spine", "3.7").as_deref(), Some("Spine 3.7"));
        assert_eq!(runtime_line("Spine", "3"), None);
        assert_eq!(runtime_line("Spine", ""), None);
        assert_eq!(runtime_line("DragonBones", "5.5"), None);
    }

    #[test]
    fn only_3_8_75_is_refused() {
        assert!(runtime_refusal("Spine", "3.8.75").is_some());
        for v in ["3.8.76", "3.8.99", "3.8.7", "4.2.75"] {
            assert!(runtime_refusal("Spine", v).is_none(), "{v}");
        }
        let mut data = SkeletonData::default();
        data.source.format = "Spine".into();
        data.source.version = "3.8.75".into();
        let mut out = Vec::new();
        refused_by_runtime(&data, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].severity, Severity::Warning);
        assert!(out[0].message.contains("re-export"), "{}", out[0].message);
    }
}
