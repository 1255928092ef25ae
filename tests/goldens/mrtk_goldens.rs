//! MRTK recordings against the shared goldens (`../shared/golden/mrtk`): layout (paths, offsets,
//! wrap modes, key counts), markers, warnings, duration, every sampled curve value and the
//! derived camera pose, hand state and eye-gaze ray, within the certainty tolerances of the
//! golden README (A 1e-5, B 1e-4, relative to max(1, |golden|); C informative only).

use crate::common;

use bonescope::format::mrtk::{self, Hand, Recording};
use serde_json::Value;
use std::path::Path;

/// Tolerance of a certainty code; `None` for C (informative).
fn tolerance(code: &str) -> Option<f64> {
    match code {
        "A" => Some(1e-5),
        "B" => Some(1e-4),
        _ => None,
    }
}

/// A golden number (JSON number or "NaN" / "Infinity" / "-Infinity").
fn number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
        Value::String(s) if s == "Infinity" => f64::INFINITY,
        Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
        _ => f64::NAN,
    }
}

fn agrees(ours: f64, golden: f64, tol: f64) -> bool {
    if golden.is_nan() || ours.is_nan() || golden.is_infinite() || ours.is_infinite() {
        return (golden.is_nan() && ours.is_nan()) || golden == ours;
    }
    (ours - golden).abs() <= tol * golden.abs().max(1.0)
}

/// Counts per file.
#[derive(Default)]
struct Tally {
    checked: usize,
    informative: usize,
    informative_agreeing: usize,
    failures: Vec<String>,
}

impl Tally {
    fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }

    fn exact<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, ours: T, golden: T) {
        self.checked += 1;
        if ours != golden {
            self.fail(format!("{what}: ours {ours:?}, golden {golden:?}"));
        }
    }

    /// Compares a value with certainty `code`.
    fn value(&mut self, what: &dyn Fn() -> String, ours: f64, golden: f64, code: &str) {
        match tolerance(code) {
            Some(tol) => {
                self.checked += 1;
                if !agrees(ours, golden, tol) {
                    self.fail(format!("{} [{code}]: ours {ours}, golden {golden}", what()));
                }
            }
            None => {
                self.informative += 1;
                if agrees(ours, golden, 1e-4) {
                    self.informative_agreeing += 1;
                } else {
                    println!("  informative (C) {}: ours {ours}, golden {golden}", what());
                }
            }
        }
    }
}

/// `(kind, path)` of a warning message, whatever the order of its `kind:` and `path:` parts.
fn warning_key(msg: &str) -> (String, String) {
    let parts: Vec<&str> = msg.split(": ").collect();
    let is_kind = |p: &&str| {
        !p.is_empty()
            && p.chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    };
    let is_path = |p: &&str| p.contains('.') && !p.contains(' ');
    let kind = parts.iter().copied().find(is_kind).unwrap_or("?");
    let path = parts.iter().copied().find(is_path).unwrap_or("");
    (kind.to_string(), path.to_string())
}

fn compare_header(t: &mut Tally, rec: &Recording, g: &Value, size: usize) {
    t.exact(
        "file_size",
        size as u64,
        g["file_size"].as_u64().unwrap_or(0),
    );
    t.exact(
        "version",
        (rec.version.major as i64, rec.version.minor as i64),
        (
            g["version"]["major"].as_i64().unwrap_or(-1),
            g["version"]["minor"].as_i64().unwrap_or(-1),
        ),
    );
    let s = &g["streams"];
    t.exact(
        "streams",
        (rec.has_camera, rec.has_hands, rec.has_eye_gaze),
        (
            s["camera"].as_bool().unwrap_or(false),
            s["hands"].as_bool().unwrap_or(false),
            s["eye_gaze"].as_bool().unwrap_or(false),
        ),
    );
    t.exact(
        "curve_count",
        rec.curves.len() as u64,
        g["curve_count"].as_u64().unwrap_or(0),
    );
    t.value(
        &|| "duration".into(),
        rec.duration,
        number(&g["duration"]),
        "A",
    );
    let gm = g["markers"].as_array().cloned().unwrap_or_default();
    t.exact("marker count", rec.markers.len(), gm.len());
    for (i, (m, gm)) in rec.markers.iter().zip(&gm).enumerate() {
        t.exact(
            &format!("marker {i} time"),
            m.time as f64,
            number(&gm["time"]),
        );
        t.exact(
            &format!("marker {i} name"),
            m.name.as_str(),
            gm["name"].as_str().unwrap_or("?"),
        );
    }
    let mut ours: Vec<_> = rec.warnings.iter().map(|(_, m)| warning_key(m)).collect();
    let mut golden: Vec<_> = g["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(warning_key)
        .collect();
    ours.sort();
    golden.sort();
    t.exact("warnings (kind, path)", ours, golden);
}

fn compare_curves(t: &mut Tally, rec: &Recording, g: &Value) {
    let gc = g["curves"].as_array().cloned().unwrap_or_default();
    for (c, gc) in rec.curves.iter().zip(&gc) {
        let path = c.path.as_str();
        t.exact("path", path, gc["path"].as_str().unwrap_or("?"));
        let kind = match c.kind {
            mrtk::CurveKind::Float => "float",
            mrtk::CurveKind::Bool => "bool",
        };
        t.exact(
            &format!("{path} kind"),
            kind,
            gc["kind"].as_str().unwrap_or("?"),
        );
        t.exact(
            &format!("{path} offset"),
            c.offset,
            gc["offset"].as_u64().unwrap_or(0),
        );
        t.exact(
            &format!("{path} wraps"),
            (
                c.curve.pre_wrap.code() as i64,
                c.curve.post_wrap.code() as i64,
            ),
            (
                gc["pre_wrap"].as_i64().unwrap_or(-99),
                gc["post_wrap"].as_i64().unwrap_or(-99),
            ),
        );
        t.exact(
            &format!("{path} key_count"),
            c.curve.keys.len() as u64,
            gc["key_count"].as_u64().unwrap_or(0),
        );
        for s in gc["samples"].as_array().into_iter().flatten() {
            let time = number(&s[0]);
            let code = s[2].as_str().unwrap_or("C");
            t.value(
                &|| format!("{path} at {time}"),
                c.value(time),
                number(&s[1]),
                code,
            );
        }
    }
}

fn compare_triple(t: &mut Tally, what: &str, time: f64, ours: &[f64], golden: &Value, code: &str) {
    for (i, &o) in ours.iter().enumerate() {
        t.value(
            &|| format!("{what}[{i}] at {time}"),
            o,
            number(&golden[i]),
            code,
        );
    }
}

fn compare_derived(t: &mut Tally, rec: &Recording, g: &Value) {
    let d = &g["derived"];
    for row in d["camera_pose"].as_array().into_iter().flatten() {
        let (time, code) = (number(&row["t"]), row["c"].as_str().unwrap_or("C"));
        let Some(p) = rec.camera_pose(time) else {
            t.fail("camera pose missing".into());
            return;
        };
        compare_triple(
            t,
            "camera position",
            time,
            &p.position,
            &row["position"],
            code,
        );
        compare_triple(
            t,
            "camera rotation raw",
            time,
            &p.rotation_raw,
            &row["rotation_raw"],
            code,
        );
        compare_triple(
            t,
            "camera rotation normalized",
            time,
            &p.rotation(),
            &row["rotation_normalized"],
            code,
        );
    }
    for (hand, name) in [(Hand::Left, "left"), (Hand::Right, "right")] {
        for row in d["hand_state"][name].as_array().into_iter().flatten() {
            let (time, code) = (number(&row["t"]), row["c"].as_str().unwrap_or("C"));
            let Some(s) = rec.hand_state(hand, time) else {
                t.fail("hand state missing".into());
                return;
            };
            let golden = (
                row["tracked"].as_bool().unwrap_or(false),
                row["pinching"].as_bool().unwrap_or(false),
            );
            if code == "C" {
                t.informative += 1;
                t.informative_agreeing += usize::from((s.tracked, s.pinching) == golden);
            } else {
                t.exact(
                    &format!("{name} hand (tracked, pinching) at {time}"),
                    (s.tracked, s.pinching),
                    golden,
                );
            }
        }
    }
    for row in d["eye_gaze_ray"].as_array().into_iter().flatten() {
        let (time, code) = (number(&row["t"]), row["c"].as_str().unwrap_or("C"));
        let Some(r) = rec.eye_gaze(time) else {
            t.fail("eye gaze missing".into());
            return;
        };
        compare_triple(t, "gaze origin", time, &r.origin, &row["origin"], code);
        compare_triple(
            t,
            "gaze direction",
            time,
            &r.direction,
            &row["direction_normalized"],
            code,
        );
    }
}

/// Compares one golden; returns its tally.
fn check(shared: &Path, golden_path: &Path) -> Tally {
    let g = common::read_json(golden_path);
    let rel = g["file"].as_str().expect("golden names its file");
    let bytes = std::fs::read(shared.join(rel)).expect("corpus file");
    let mut t = Tally::default();
    let rec = match mrtk::read(&bytes) {
        Ok(r) => r,
        Err(e) => {
            t.fail(format!("does not load: {e}"));
            return t;
        }
    };
    compare_header(&mut t, &rec, &g, bytes.len());
    compare_curves(&mut t, &rec, &g);
    compare_derived(&mut t, &rec, &g);
    t
}

#[test]
fn every_golden_matches() {
    let Some(shared) = common::shared_dir("MRTK goldens") else {
        return;
    };
    let dir = shared.join("golden/mrtk");
    let mut goldens: Vec<_> = std::fs::read_dir(&dir)
        .expect("golden/mrtk")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "json")
                && p.file_name()
                    .is_some_and(|n| n != "invalid_expectations.json")
        })
        .collect();
    goldens.sort();
    assert_eq!(goldens.len(), 10, "8 valid + 2 real goldens expected");
    let mut failed = Vec::new();
    let (mut checked, mut informative, mut agreeing) = (0, 0, 0);
    for path in &goldens {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let t = check(&shared, path);
        println!(
            "{name}: {} checks (A/B/exact), {} failed; C informative {}/{} agree",
            t.checked,
            t.failures.len(),
            t.informative_agreeing,
            t.informative
        );
        checked += t.checked;
        informative += t.informative;
        agreeing += t.informative_agreeing;
        for f in t.failures.iter().take(10) {
            println!("  FAIL {f}");
        }
        if !t.failures.is_empty() {
            failed.push(format!("{name}: {} mismatches", t.failures.len()));
        }
    }
    println!("total: {checked} checks; C informative {agreeing}/{informative} agree");
    assert!(failed.is_empty(), "{failed:?}");
}
