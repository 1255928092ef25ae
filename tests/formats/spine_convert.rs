//! `bonescope convert`: every `.skel` of the corpus written as Spine JSON of its own version,
//! loaded back and compared with the binary export it came from: the same poses (within 1e-4)
//! and the same data, value by value (the twin comparison of `tests/common/twins.rs`).

use crate::common;

use std::sync::Arc;

use bonescope::cli::poses::{self, PosesOptions};
use common::twins::{Known, compare};
use common::*;
use serde_json::Value;

/// Largest pose difference accepted, relative to the value's size beyond 1. The JSON holds
/// each float as the shortest text that reads back as the same `f32` (what the runtimes store);
/// a reader that keeps JSON numbers in `f64` (bonescope, spine-ts) sees control points up to
/// half an `f32` step away from the binary's, a few float steps in world coordinates.
const POSE: f64 = 1e-4;

fn poses_json(data: &bonescope::core::model::SkeletonData) -> Value {
    let options = PosesOptions {
        samples: 7,
        times: None,
        skins: vec![],
        animations: vec![],
    };
    let report = poses::sample(Arc::new(data.clone()), "x".into(), options).expect("sample");
    let mut out = Vec::new();
    report.write_json(&mut out).expect("write");
    serde_json::from_slice(&out).expect("poses json")
}

/// Counts numbers differing by more than [`POSE`], noting the first few paths.
fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<String>, count: &mut usize) {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            if (x - y).abs() > POSE * y.abs().max(1.0) {
                *count += 1;
                if out.len() < 5 {
                    out.push(format!("{path}: {x} != {y}"));
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff(p, q, &format!("{path}[{i}]"), out, count);
            }
        }
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => {
            for (k, p) in x {
                match y.get(k) {
                    Some(q) => diff(p, q, &format!("{path}.{k}"), out, count),
                    None => {
                        *count += 1;
                        out.push(format!("{path}.{k}: missing"));
                    }
                }
            }
        }
        (x, y) if x == y => {}
        _ => {
            *count += 1;
            out.push(format!("{path}: shapes differ"));
        }
    }
}

#[test]
fn every_skel_converts_to_json_that_poses_the_same() {
    let Some(shared) = shared_dir("Spine .skel conversion") else {
        return;
    };
    let mut failures = Vec::new();
    let mut files = 0;
    for version in ["3.7", "3.8", "4.0", "4.1", "4.2"] {
        let skels = spine_corpus_files(&shared, version, "skel");
        for skel in skels {
            files += 1;
            let name = format!("{version}/{}", skel.file_name().unwrap().to_string_lossy());
            let bytes = std::fs::read(&skel).expect("read");
            let ours =
                bonescope::format::load(&bytes, "x").unwrap_or_else(|e| panic!("{name}: {e}"));
            let text = bonescope::format::spine_json_writer::write(&ours)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let back = match bonescope::format::load(text.as_bytes(), "x") {
                Ok(d) => d,
                Err(e) => {
                    println!("FAIL {name}: the JSON does not load: {e}");
                    failures.push(name);
                    continue;
                }
            };
            let d = compare(&ours, &back, Known::default());
            let (mut lines, mut count) = (Vec::new(), 0);
            diff(
                &poses_json(&ours),
                &poses_json(&back),
                "",
                &mut lines,
                &mut count,
            );
            if d.count == 0 && count == 0 {
                println!("ok   {name:<32} {:>7} values", d.compared);
            } else {
                println!(
                    "FAIL {name}: {} data differences, {count} pose differences\n      {}\n      {}",
                    d.count,
                    d.lines.join("\n      "),
                    lines.join("\n      ")
                );
                failures.push(name);
            }
        }
    }
    assert_eq!(
        files, 111,
        "the corpus has 111 .skel files (21 of them 3.7)"
    );
    assert!(
        failures.is_empty(),
        "{} files differ: {failures:?}",
        failures.len()
    );
}

#[test]
fn the_command_writes_stdout_or_a_new_file_never_the_input() {
    let Some(shared) = shared_dir("Spine .skel conversion (command)") else {
        return;
    };
    let skel = shared.join("corpus/spine/4.2/spinosaurus-ess.skel");
    let exe = env!("CARGO_BIN_EXE_bonescope");
    let run = |args: &[&std::ffi::OsStr]| {
        let out = std::process::Command::new(exe)
            .args(args)
            .output()
            .expect("run");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, out, _) = run(&["convert".as_ref(), skel.as_os_str()]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&out).expect("JSON on stdout");
    assert_eq!(v["skeleton"]["spine"], "4.2.22");
    let dir = std::env::temp_dir().join(format!("bonescope-convert-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let copy = dir.join("in.skel");
    std::fs::copy(&skel, &copy).expect("copy");
    let before = std::fs::read(&copy).expect("read");
    let (code, _, err) = run(&[
        "convert".as_ref(),
        copy.as_os_str(),
        "-o".as_ref(),
        copy.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("refusing to write the output over the input"),
        "{err}"
    );
    assert_eq!(std::fs::read(&copy).expect("read"), before);
    let json = dir.join("out.json");
    let (code, _, err) = run(&[
        "convert".as_ref(),
        copy.as_os_str(),
        "--to".as_ref(),
        "json".as_ref(),
        "-o".as_ref(),
        json.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    let written = std::fs::read_to_string(&json).expect("written");
    assert_eq!(written, out);
    let _ = std::fs::remove_dir_all(&dir);
}

/// 3.7 `.skel` written as JSON is 3.7 JSON (skins as an object, curves as arrays, no
/// softness, no bounds origin or fps, `paths` timelines) that loads under the 3.7 rules; and
/// every 3.7 corpus JSON written back is read by the official 3.7 runtime (spine-ts 3.7) to
/// its golden.
#[test]
fn spine_37_converts_to_json_the_37_runtime_reads() {
    let Some(shared) = shared_dir("Spine 3.7 conversion to JSON") else {
        return;
    };
    for skel in spine_corpus_files(&shared, "3.7", "skel") {
        let name = skel.file_name().unwrap().to_string_lossy().into_owned();
        let ours = bonescope::format::load(&std::fs::read(&skel).expect("read"), "x")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = bonescope::format::spine_json_writer::write(&ours)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let v: Value = serde_json::from_str(&text).expect("JSON");
        assert!(v["skins"].is_object(), "{name}: 3.7 skins are an object");
        assert!(v["skeleton"].get("fps").is_none(), "{name}: no fps in 3.7");
        let back = bonescope::format::load(text.as_bytes(), "x")
            .unwrap_or_else(|e| panic!("{name}: the JSON does not load: {e}"));
        assert_eq!(back.rules.version, ours.rules.version, "{name}");
        // (Its poses equal the .skel's: `every_skel_converts_to_json_that_poses_the_same`.
        // The corpus JSON twins are separate exports whose numbers differ in the last
        // places, so they are not the reference here.)
    }
    let Some(oracle) = common::oracle::spine_oracle("Spine 3.7 JSON written, official 3.7 runtime")
    else {
        return;
    };
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("json-37");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let jsons = spine_corpus_files(&shared, "3.7", "json");
    let mut failures = Vec::new();
    for json in &jsons {
        let data = bonescope::format::load(&std::fs::read(json).expect("read"), "x")
            .unwrap_or_else(|e| panic!("{}: {e}", json.display()));
        let text = bonescope::format::spine_json_writer::write(&data).expect("write 3.7 JSON");
        std::fs::write(dir.join(json.file_name().unwrap()), text).expect("write");
    }
    let args: Vec<&std::ffi::OsStr> = vec![
        "all".as_ref(),
        "--runtime".as_ref(),
        "3.7".as_ref(),
        "--corpus".as_ref(),
        dir.as_os_str(),
        "--out".as_ref(),
        dir.as_os_str(),
    ];
    common::oracle::dump(&oracle, &args).unwrap_or_else(|e| panic!("the 3.7 runtime: {e}"));
    for json in &jsons {
        let stem = json.file_stem().unwrap().to_string_lossy().into_owned();
        let read = |p: &std::path::Path| -> Value {
            serde_json::from_slice(
                &std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
            )
            .expect("poses JSON")
        };
        let official = read(&dir.join(format!("{stem}.poses.json")));
        let golden = read(&shared.join(format!("golden/spine/3.7/{stem}.poses.json")));
        // Both were printed with 4 decimals: a flip of the last place is 1e-4 (or a hair
        // more in binary), so numbers may be 2e-4 apart (plus f32 rounding on large values).
        let count = count_beyond(&official["animations"], &golden["animations"], 2e-4)
            + count_beyond(&official["setup"], &golden["setup"], 2e-4);
        if count != 0 {
            failures.push(format!("{stem}: {count} differences from the golden"));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// Numbers of `a` and `b` (same shape) further apart than `tol` + 1e-5 relative (path-driven
/// bones at 100+ units carry f32 rounding); a shape difference counts 1.
fn count_beyond(a: &Value, b: &Value, tol: f64) -> usize {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            usize::from((x - y).abs().is_nan() || (x - y).abs() > tol + 1e-5 * y.abs())
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            x.iter().zip(y).map(|(p, q)| count_beyond(p, q, tol)).sum()
        }
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => x
            .iter()
            .map(|(k, p)| y.get(k).map_or(1, |q| count_beyond(p, q, tol)))
            .sum(),
        (x, y) => usize::from(x != y),
    }
}
