//! Spine 3.7 JSON: what its layout differs in from 3.8, and what a 3.7 file may not hold.

use crate::core::model::{RuntimeVersion, StateRule};
use crate::format::{ErrorKind, load};

const HEAD: &str = r#""skeleton": {"hash": "h", "spine": "3.7.90", "width": 1, "height": 1},
    "bones": [{"name": "root"}, {"name": "arm", "parent": "root"}],
    "slots": [{"name": "s", "bone": "arm", "attachment": "a"}],
    "path": [{"name": "p", "bones": ["arm"], "target": "s"}]"#;

fn doc(rest: &str) -> String {
    format!("{{{HEAD}, {rest}}}")
}

fn err(text: &str) -> crate::format::LoadError {
    match load(text.as_bytes(), "t") {
        Ok(_) => panic!("loaded: {text}"),
        Err(e) => e,
    }
}

const SKINS: &str = r#""skins": {"default": {"s": {"a": {"width": 2, "height": 2}}},
    "other": {"s": {"b": {"type": "linkedmesh", "parent": "m", "skin": "default"}}}}"#;

#[test]
fn skins_object_curve_arrays_and_paths_load_under_the_37_rules() {
    let text = doc(&format!(
        r#"{SKINS}, "animations": {{"go": {{
            "bones": {{"arm": {{"rotate": [{{"time": 0, "angle": 0, "curve": [0.25, 0, 0.75, 1]}}, {{"time": 1, "angle": 90}}]}}}},
            "paths": {{"p": {{"position": [{{"time": 0}}, {{"time": 1, "position": 0.5}}]}}}}
        }}}}"#
    ))
    .replace(
        r#""b": {"type": "linkedmesh", "parent": "m", "skin": "default"}"#,
        r#""b": {"width": 1, "height": 1}"#,
    );
    let data = load(text.as_bytes(), "t").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(data.rules.version, RuntimeVersion::Spine37);
    assert_eq!(data.rules.state, StateRule::V37);
    assert_eq!(data.source.version, "3.7.90");
    let names: Vec<_> = data.skins.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["default", "other"]);
    assert_eq!(data.default_skin, Some(0));
    assert_eq!(data.animations[0].timelines.len(), 2);
}

#[test]
fn errors_in_keyed_skins_are_located_by_skin_name() {
    let e = err(&doc(SKINS));
    assert_eq!(e.kind, ErrorKind::DanglingReference, "{e}");
    let m = e.to_string();
    assert!(m.contains("(skins.other.s.b.parent)"), "{m}");
}

#[test]
fn the_skins_form_must_match_the_version() {
    let list = doc(r#""skins": [{"name": "default", "attachments": {"s": {"a": {}}}}]"#);
    let e = err(&list);
    assert_eq!(e.kind, ErrorKind::InvalidValue);
    assert!(
        e.to_string()
            .contains("Spine 3.7 writes skins as an object"),
        "{e}"
    );
    let object38 = doc(r#""skins": {"default": {"s": {"a": {}}}}"#).replace("3.7.90", "3.8.99");
    let e = err(&object38);
    assert!(
        e.to_string()
            .contains("(skins): skins are a list from Spine 3.8 on"),
        "{e}"
    );
}

#[test]
fn keys_new_in_38_are_refused() {
    let skins = r#""skins": {"default": {"s": {"a": {}}}}"#;
    let cases = [
        (
            doc(skins).replace(
                r#"{"name": "arm", "parent": "root"}"#,
                r#"{"name": "arm", "parent": "root", "skin": true}"#,
            ),
            "(bones[1].skin): skin-required bones: new in Spine 3.8",
        ),
        (
            doc(&format!(
                r#"{skins}, "ik": [{{"name": "i", "bones": ["arm"], "target": "root", "softness": 2}}]"#
            )),
            "(ik[0].softness): IK softness: new in Spine 3.8",
        ),
        (
            doc(&format!(
                r#"{skins}, "ik": [{{"name": "i", "bones": ["arm"], "target": "root"}}],
                "animations": {{"a": {{"ik": {{"i": [{{"time": 0, "softness": 1}}]}}}}}}"#
            )),
            "(animations.a.ik.i[0].softness): IK softness keys: new in Spine 3.8",
        ),
    ];
    for (text, want) in cases {
        let m = err(&text).to_string();
        assert!(m.contains(want), "{m}");
    }
    let paths38 = doc(&format!(
        r#"{skins}, "animations": {{"a": {{"paths": {{"p": {{}}}}}}}}"#
    ))
    .replace(
        r#""skins": {"default": {"s": {"a": {}}}}"#,
        r#""skins": [{"name": "default", "attachments": {"s": {"a": {}}}}]"#,
    )
    .replace("3.7.90", "3.8.99");
    let m = err(&paths38).to_string();
    assert!(
        m.contains("\"paths\" is the Spine 3.7 name of \"path\""),
        "{m}"
    );
}
