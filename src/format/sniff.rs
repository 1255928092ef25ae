//! Recognising a file's format from its bytes, before parsing it.

use super::LoadError;
use super::json::{
    Seg, error_at,
    locate::{find, first_top_member, string_at},
};
use crate::format::ErrorKind;

/// A format bonescope can load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Spine JSON written by Spine 3.7, 3.8, 4.0, 4.1, 4.2 or 4.3; holds the `skeleton.spine` version.
    SpineJson {
        version: String,
        spine: super::spine_json::SpineVersion,
    },
    /// DragonBones JSON (a top-level `armature` list); the loader checks the version.
    DragonBones,
    /// DragonBones binary data (`.dbbin`), recognised by its `DBDT` tag.
    DragonBonesBinary,
    /// An MRTK2 input animation (binary, recognised by its magic number).
    MrtkInput,
    /// A Spine binary export (`.skel`), recognised by its hash and version string.
    SpineBinary(super::spine_binary::Header),
}

const EXPECTED: &str =
    "expected a Spine 3.7-4.3 or DragonBones 4.x-5.x JSON export or an MRTK input animation";

/// Recognises `text`: an MRTK input animation by its magic number, else JSON. Only the top of the document is read (the `skeleton.spine` version
/// string), so this is cheap; the chosen loader reports any later syntax error.
pub fn sniff(text: &[u8]) -> Result<Format, LoadError> {
    if super::mrtk::is_mrtk(text) {
        return Ok(Format::MrtkInput);
    }
    if super::dragonbones::binary::is_dbbin(text) {
        return Ok(Format::DragonBonesBinary);
    }
    if let Some(header) = super::spine_binary::detect(text) {
        return Ok(Format::SpineBinary(header));
    }
    let Some(start) = text.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Err(
            LoadError::json("", 1, 1, format!("empty file ({EXPECTED})"))
                .with_kind(ErrorKind::UnsupportedFormat),
        );
    };
    if text[start] != b'{' {
        return Err(error_at(
            text,
            &[],
            format!("unrecognised file: not a JSON object ({EXPECTED})"),
        )
        .with_kind(ErrorKind::UnsupportedFormat));
    }
    // A top-level `armature` before any `skeleton` is DragonBones: deciding at the first of the
    // two keys spares a walk over the whole document (DragonBones files have no `skeleton`).
    if let Some((1, _)) = first_top_member(text, &["skeleton", "armature"]) {
        return Ok(Format::DragonBones);
    }
    const VERSION: [Seg<'static>; 2] = [Seg::Key("skeleton"), Seg::Key("spine")];
    let Some(offset) = find(text, &VERSION) else {
        if find(text, &[Seg::Key("armature")]).is_some() {
            return Ok(Format::DragonBones);
        }
        // Not found: either the JSON is broken before we got there, or it is some other file.
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(text) {
            return Err(super::json::parse::convert("", &e));
        }
        let (at, what) = if find(text, &VERSION[..1]).is_some() {
            (&VERSION[..1], "\"skeleton\" has no \"spine\" version")
        } else {
            (&VERSION[..0], "a JSON object without \"skeleton\"")
        };
        return Err(
            error_at(text, at, format!("unrecognised file: {what} ({EXPECTED})"))
                .with_kind(ErrorKind::UnsupportedFormat),
        );
    };
    let Some(version) = string_at(text, offset) else {
        return Err(
            error_at(text, &VERSION, "skeleton.spine must be a version string")
                .with_kind(ErrorKind::Malformed),
        );
    };
    if let Some(spine) = super::spine_json::SpineVersion::from_export(&version) {
        Ok(Format::SpineJson { version, spine })
    } else {
        Err(error_at(
            text,
            &VERSION,
            format!("Spine \"{version}\" JSON is not supported ({EXPECTED})"),
        )
        .with_kind(ErrorKind::UnsupportedVersion))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::spine_json::SpineVersion;

    fn msg(text: &str) -> String {
        sniff(text.as_bytes()).unwrap_err().to_string()
    }

    #[test]
    fn recognises_spine_38() {
        let f = sniff(br#"{"skeleton": {"hash": "x", "spine": "3.8.55"}, "bones": []}"#).unwrap();
        assert_eq!(
            f,
            Format::SpineJson {
                version: "3.8.55".into(),
                spine: SpineVersion::V38,
            }
        );
        // The version is found even when it comes last.
        let f = sniff(br#"{"bones": [[{"a": "}"}]], "skeleton": {"spine": "3.8"}}"#).unwrap();
        assert_eq!(
            f,
            Format::SpineJson {
                version: "3.8".into(),
                spine: SpineVersion::V38,
            }
        );
        let f = sniff(br#"{"skeleton": {"hash": "x", "spine": "3.7.94"}}"#).unwrap();
        assert_eq!(
            f,
            Format::SpineJson {
                version: "3.7.94".into(),
                spine: SpineVersion::V37,
            }
        );
        let f = sniff(br#"{"skeleton": {"spine": "4.2.22"}}"#).unwrap();
        assert_eq!(
            f,
            Format::SpineJson {
                version: "4.2.22".into(),
                spine: SpineVersion::V42,
            }
        );
    }

    #[test]
    fn recognises_dragonbones_by_its_armature_list() {
        let db = br#"{"frameRate": 24, "version": "5.5", "armature": [{"name": "a"}]}"#;
        assert_eq!(sniff(db).unwrap(), Format::DragonBones);
        // Whichever of the two top-level keys comes first decides.
        let spine_first = br#"{"skeleton": {"spine": "4.2.22"}, "armature": []}"#;
        assert!(matches!(sniff(spine_first), Ok(Format::SpineJson { .. })));
        let db_first = br#"{"armature": [], "skeleton": {"spine": "4.2.22"}}"#;
        assert_eq!(sniff(db_first).unwrap(), Format::DragonBones);
        // A nested "armature" is no DragonBones file.
        assert!(sniff(br#"{"a": {"armature": []}}"#).is_err());
    }

    #[test]
    fn recognises_mrtk_by_its_magic() {
        let mut bytes = super::super::mrtk::MAGIC.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[1, 0, 0, 0]);
        assert_eq!(sniff(&bytes).unwrap(), Format::MrtkInput);
        assert!(sniff(&bytes[..7]).is_err(), "a cut magic is not MRTK");
    }

    #[test]
    fn rejects_other_files() {
        assert_eq!(
            msg(""),
            "line 1, column 1: empty file (expected a Spine 3.7-4.3 or DragonBones 4.x-5.x JSON export or an MRTK input animation)"
        );
        assert_eq!(
            msg(" \n "),
            "line 1, column 1: empty file (expected a Spine 3.7-4.3 or DragonBones 4.x-5.x JSON export or an MRTK input animation)"
        );
        assert!(
            msg("\n[1, 2]").starts_with("line 2, column 1: unrecognised file: not a JSON object")
        );
        assert!(msg("\u{7f}ELF").contains("unrecognised file"));
        assert!(msg("{\"a\": 1}").starts_with(
            "line 1, column 1: unrecognised file: a JSON object without \"skeleton\""
        ));
        assert!(msg("{\"skeleton\": {}}").starts_with(
            "line 1, column 14 (skeleton): unrecognised file: \"skeleton\" has no \"spine\" version"
        ));
        assert!(
            msg("{\"skeleton\": {\"spine\": 38}}")
                .contains("(skeleton.spine): skeleton.spine must be a version string")
        );
        assert!(
            msg("{\"skeleton\": {\"spine\": \"5.0.1\"}}")
                .contains("Spine \"5.0.1\" JSON is not supported")
        );
        assert!(
            msg("{\"skeleton\": {\"spine\": \"3.6.53\"}}")
                .contains("Spine \"3.6.53\" JSON is not supported")
        );
        let e = sniff(br#"{"skeleton": {"spine": "4.4.1"}}"#).unwrap_err();
        assert_eq!(e.kind, ErrorKind::UnsupportedVersion);
        assert!(msg("{\"skeleton\": {\"spine\": \"3.80\"}}").contains("not supported"));
    }

    #[test]
    fn broken_json_before_the_version_is_a_syntax_error() {
        let m = msg("{\"bones\": [1, 2] \"skeleton\": {\"spine\": \"3.8.55\"}}");
        assert!(
            m.starts_with("line 1, column 18: expected `,` or `}`"),
            "{m}"
        );
        assert!(msg("{\"bones\": [").contains("EOF while parsing"));
    }
}
