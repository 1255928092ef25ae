//! Spine 4.x JSON that the loader must refuse, each with a located, one-sentence error; and
//! mutations of a real 4.2 export (physics, sequences, split timelines) that must give `Ok` or
//! a located `Err` in bounded time, never a panic, also when what loaded is played with
//! physics.

use crate::common;

use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::core::state::{AnimationState, AnimationStateData};
use bonescope::format::{self, LoadError, Location};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn err(text: &str) -> LoadError {
    match format::load(text.as_bytes(), "t") {
        Ok(_) => panic!("expected an error for {text}"),
        Err(e) => e,
    }
}

/// The error is located at JSON `path` and its message contains `needle`.
fn refused(text: &str, path: &str, needle: &str) {
    let e = err(text);
    let shown = e.to_string();
    match &e.location {
        Some(Location::Json { path: p, .. }) => assert_eq!(p, path, "{shown}"),
        other => panic!("no JSON location ({other:?}): {shown}"),
    }
    assert!(shown.contains(needle), "{shown}");
}

/// A minimal 4.x skeleton of `version` with `extra` top-level members.
fn doc(version: &str, extra: &str) -> String {
    format!(
        r#"{{"skeleton": {{"spine": "{version}"}},
"bones": [{{"name": "root"}}, {{"name": "arm", "parent": "root", "length": 10}}],
"slots": [{{"name": "s", "bone": "arm", "attachment": "a"}}],
"skins": [{{"name": "default", "attachments": {{"s": {{"a": {{"width": 4, "height": 4}}}}}}}}]{extra}}}"#
    )
}

#[test]
fn keys_of_other_versions_are_refused_by_name() {
    refused(
        &doc(
            "3.8.99",
            r#", "transform": [{"name": "t", "bones": ["arm"], "target": "root", "mixRotate": 1}]"#,
        ),
        "transform[0].mixRotate",
        "Spine 4.x key",
    );
    refused(
        &doc(
            "4.2.22",
            r#", "transform": [{"name": "t", "bones": ["arm"], "target": "root", "rotateMix": 1}]"#,
        ),
        "transform[0].rotateMix",
        "Spine 3.8 key",
    );
    refused(
        &doc(
            "4.1.17",
            r#", "physics": [{"name": "p", "bone": "arm", "rotate": 1}]"#,
        ),
        "physics",
        "new in Spine 4.2",
    );
    refused(
        &doc(
            "4.0.31",
            r#", "animations": {"a": {"attachments": {"default": {"s": {"a": {"deform": []}}}}}}"#,
        ),
        "animations.a.attachments",
        "new in Spine 4.1",
    );
    refused(
        &doc(
            "4.1.17",
            r#", "animations": {"a": {"bones": {"arm": {"inherit": [{"inherit": "noScale"}]}}}}"#,
        ),
        "animations.a.bones.arm.inherit",
        "new in Spine 4.2",
    );
}

#[test]
fn malformed_4x_keys_are_located() {
    refused(
        &doc(
            "4.2.22",
            r#", "animations": {"a": {"bones": {"arm": {"translate": [{"x": 1, "curve": [0, 0, 1, 1]}, {"time": 1}]}}}}"#,
        ),
        "animations.a.bones.arm.translate[0].curve",
        "8 numbers",
    );
    refused(
        &doc(
            "4.2.22",
            r#", "animations": {"a": {"bones": {"arm": {"spin": [{"value": 1}]}}}}"#,
        ),
        "animations.a.bones.arm",
        "spin",
    );
    refused(
        &doc(
            "4.2.22",
            r#", "physics": [{"name": "p", "bone": "arm", "rotate": 1, "fps": 0}]"#,
        ),
        "physics[0].fps",
        "positive",
    );
    refused(
        &doc(
            "4.2.22",
            r#", "physics": [{"name": "p", "bone": "nowhere"}]"#,
        ),
        "physics[0].bone",
        "unknown bone",
    );
    refused(
        &doc(
            "4.2.22",
            r#", "animations": {"a": {"physics": {"q": {"mix": [{"value": 0}]}}}}"#,
        ),
        "animations.a.physics.q",
        "unknown physics constraint",
    );
    refused(
        &doc(
            "4.2.22",
            r#", "animations": {"a": {"slots": {"s": {"rgba": [{"color": "zz"}]}}}}"#,
        ),
        "animations.a.slots.s.rgba[0].color",
        "bad color",
    );
}

/// Loads `bytes`; on success plays every animation for a few frames with physics.
fn exercise(bytes: &[u8]) {
    let start = Instant::now();
    match format::load(bytes, "fuzz") {
        Ok(data) => {
            let data = Arc::new(data);
            let mut sk = Skeleton::new(data.clone());
            let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
            for a in 0..data.animations.len().min(4) {
                state.set_animation(0, Some(a), true);
                for _ in 0..5 {
                    state.update(1.0 / 60.0);
                    state.apply(&mut sk);
                    sk.update(1.0 / 60.0);
                    sk.update_world_transform_with(Physics::Update);
                }
            }
        }
        Err(e) => match e.location {
            Some(Location::Json { line, column, .. }) => assert!(line >= 1 && column >= 1),
            other => panic!("error without a JSON location: {other:?} ({})", e.message),
        },
    }
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "took {:?}",
        start.elapsed()
    );
}

#[test]
fn mutations_of_a_42_export_with_physics() {
    let Some(path) = common::shared_file(
        "a Spine 4.2 export with physics",
        "corpus/spine/4.2/cloud-pot.json",
    ) else {
        return;
    };
    let bytes = std::fs::read(path).expect("read cloud-pot");
    let step = if cfg!(debug_assertions) { 997 } else { 61 };
    for end in (0..bytes.len()).step_by(step) {
        exercise(&bytes[..end]);
    }
    let mut copy = bytes.clone();
    for i in (0..bytes.len()).step_by(step) {
        for b in [b'9', b'-', b'"', b'}', b'e', 0xff] {
            copy[i] = b;
            exercise(&copy);
        }
        copy[i] = bytes[i];
    }
    // Absurd values where numbers are.
    let text = String::from_utf8(bytes).expect("utf-8");
    for (from, to) in [
        ("\"fps\"", "\"fps\": 1e-300, \"x\""),
        ("\"mass\"", "\"mass\": 1e300, \"y\""),
        ("\"value\": ", "\"value\": 1e38 , \"v\": "),
        ("\"time\": ", "\"time\": 3e38 , \"t\": "),
    ] {
        if let Some(i) = text.find(from) {
            let mutated = format!("{}{}{}", &text[..i], to, &text[i + from.len()..]);
            exercise(mutated.as_bytes());
        }
    }
}
