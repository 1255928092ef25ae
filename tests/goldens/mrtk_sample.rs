//! The project's own MRTK sample (`samples/mrtk/wave-and-pinch.bin`): it is exactly what
//! `examples/make_mrtk_sample.rs` writes, loads without warnings, shows the motion it
//! promises, and `bonescope curves` prints it.

use bonescope::format::mrtk::{self, Hand, JOINT_NAMES, Recording};
use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

#[allow(dead_code)]
#[path = "../../examples/make_mrtk_sample.rs"]
mod generator;

fn sample_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/mrtk/wave-and-pinch.bin")
}

fn sample() -> Recording {
    let bytes = std::fs::read(sample_path()).expect("sample");
    mrtk::read(&bytes).expect("sample loads")
}

#[test]
fn committed_file_is_what_the_generator_writes() {
    let (bytes, _) = generator::recording().expect("generate");
    assert!(
        bytes == std::fs::read(sample_path()).expect("sample"),
        "samples/mrtk/wave-and-pinch.bin is stale: cargo run --example make_mrtk_sample"
    );
}

#[test]
fn loads_without_warnings() {
    let rec = sample();
    assert!(rec.warnings.is_empty(), "{:?}", rec.warnings);
    assert_eq!((rec.version.major, rec.version.minor), (1, 1));
    assert!(rec.has_camera && rec.has_hands && rec.has_eye_gaze);
    assert_eq!(rec.curves.len(), 395);
    assert_eq!(rec.duration, 3.0);
    let markers: Vec<(f32, &str)> = rec
        .markers
        .iter()
        .map(|m| (m.time, m.name.as_str()))
        .collect();
    assert_eq!(
        markers,
        [(0.25, "wave"), (1.0, "pinch 1"), (1.9, "pinch 2")]
    );
}

fn tip_gap(rec: &Recording, t: f64) -> f64 {
    let joint = |name: &str| {
        let j = JOINT_NAMES.iter().position(|n| *n == name).expect("joint");
        rec.joint_pose(Hand::Right, j, t)
            .expect("joint pose")
            .position
    };
    let (a, b) = (joint("ThumbTip"), joint("IndexTip"));
    (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt()
}

#[test]
fn the_right_hand_waves_and_pinches_twice() {
    let rec = sample();
    let state = |t: f64| rec.hand_state(Hand::Right, t).expect("hand data");
    assert!(!state(0.1).tracked && state(0.5).tracked && !state(2.9).tracked);
    for t in [0.5, 1.6, 2.5] {
        assert!(!state(t).pinching, "{t}");
        assert!(tip_gap(&rec, t) > 0.03, "open at {t}: {}", tip_gap(&rec, t));
    }
    for t in [1.2, 2.1] {
        assert!(state(t).pinching, "{t}");
        assert!(
            tip_gap(&rec, t) < 0.01,
            "pinched at {t}: {}",
            tip_gap(&rec, t)
        );
    }
    assert!(!rec.hand_state(Hand::Left, 1.0).expect("hand data").tracked);
    // Waving: the wrist rocks about the forward axis, so its rotation z changes sign.
    let wrist_z: Vec<f64> = (0..20)
        .map(|i| {
            rec.joint_pose(Hand::Right, 1, 0.3 + 0.12 * i as f64)
                .expect("wrist")
                .rotation_raw[2]
        })
        .collect();
    assert!(wrist_z.iter().any(|&z| z > 0.1) && wrist_z.iter().any(|&z| z < -0.1));
}

#[test]
fn camera_turns_a_little_and_gaze_sweeps() {
    let rec = sample();
    let yaw = |t: f64| {
        let q = rec.camera_pose(t).expect("camera").rotation();
        2.0 * q[1].atan2(q[3]).to_degrees()
    };
    assert!(yaw(0.5).abs() < 0.5 && (yaw(1.8) - 12.0).abs() < 0.5 && yaw(2.9).abs() < 0.5);
    let dir_x = |t: f64| rec.eye_gaze(t).expect("gaze").direction[0];
    assert!(dir_x(0.0) < -0.3 && dir_x(1.5).abs() < 0.02 && dir_x(3.0) > 0.3);
}

#[test]
fn curves_command_prints_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["curves", "--json", "--times", "0,1.2,3"])
        .arg(sample_path())
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["duration"], 3.0);
    assert_eq!(
        v["markers"][1],
        serde_json::json!({"time": 1.0, "name": "pinch 1"})
    );
    let curves = v["curves"].as_array().expect("curves");
    assert_eq!(curves.len(), 395);
    let pinch = curves
        .iter()
        .find(|c| c["path"] == "hand.right.pinching")
        .expect("pinching curve");
    assert_eq!(
        pinch["samples"],
        serde_json::json!([[0.0, 0.0], [1.2, 1.0], [3.0, 0.0]])
    );

    // Default sampling: each curve at its own key times.
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["curves", "--json"])
        .arg(sample_path())
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    // Fixed expectations from how examples/make_mrtk_sample.rs authored the recording, not
    // from the reader under test.
    let curves = v["curves"].as_array().expect("curves");
    assert_eq!(curves.len(), 395);
    let samples = |path: &str| {
        curves
            .iter()
            .find(|c| c["path"] == path)
            .unwrap_or_else(|| panic!("{path}"))["samples"]
            .clone()
    };
    // Pinches 1.0-1.4 s and 1.9-2.3 s (key times stored as f32); the left hand never tracks.
    assert_eq!(
        samples("hand.right.pinching"),
        serde_json::json!([
            [0.0, 0.0],
            [1.0, 1.0],
            [1.4f32 as f64, 0.0],
            [1.9f32 as f64, 1.0],
            [2.3f32 as f64, 0.0]
        ])
    );
    assert_eq!(
        samples("hand.left.tracked"),
        serde_json::json!([[0.0, 0.0]])
    );
    // The head turns 12° about y at 1.8 s: quaternion y = sin(6°), keyed on the 30 fps grid.
    let yaw = samples("camera.rotation.y");
    let at = |t: f64| {
        yaw.as_array()
            .unwrap()
            .iter()
            .find(|s| (s[0].as_f64().unwrap() - t).abs() < 1e-6)
            .map(|s| s[1].as_f64().unwrap())
    };
    let peak = at(1.8).expect("a key at 1.8 s");
    assert!((peak - 6f64.to_radians().sin()).abs() < 1e-3, "{peak}");
    assert_eq!(at(0.0), Some(0.0));
    assert_eq!(at(3.0), Some(0.0));
    let eye = samples("eye_gaze.direction.x");
    assert_eq!(eye.as_array().unwrap().len(), 4, "{eye}");
    assert_eq!(eye[0][0], 0.0);
    assert_eq!(eye[3][0], 3.0);

    let out = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .arg("curves")
        .arg(sample_path())
        .output()
        .expect("run");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.starts_with("wave-and-pinch.bin: MRTK input animation 1.1 (camera, hands, eye gaze)")
    );
    assert!(text.contains("hand.right.joint.IndexTip.position.y"));
}
