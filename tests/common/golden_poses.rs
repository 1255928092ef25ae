//! Comparing `poses` output with official-runtime pose goldens (`*.poses.json`).

use super::*;
use bonescope::cli::poses::{self, PosesOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The JSON export and golden of every `<name>.poses.json` in `golden/spine/<version>`
/// (the `<name>.skel.poses.json` files belong to the binary exports), sorted.
pub fn golden_pairs(shared: &Path, version: &str) -> Vec<(PathBuf, PathBuf)> {
    export_golden_pairs(shared, version, Export::Json)
}

/// Runs every golden of the binary exports of `version`
/// (`golden/spine/<version>/<name>.skel.poses.json` with `corpus/spine/<version>/<name>.skel`),
/// which must number `expected`.
pub fn run_skel_goldens(version: &str, expected: usize) {
    let Some(shared) = shared_dir(&format!("Spine {version} .skel golden poses")) else {
        return;
    };
    let pairs = export_golden_pairs(&shared, version, Export::Skel);
    assert_eq!(
        pairs.len(),
        expected,
        "expected the {expected} Spine {version} .skel golden pose files"
    );
    run_all(pairs);
}

/// Which export of a project a golden was made from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Export {
    Json,
    Skel,
}

/// The exports of kind `export` in `corpus/spine/<version>` paired with their goldens in
/// `golden/spine/<version>` (`<name>.poses.json` for JSON, `<name>.skel.poses.json` for
/// `.skel`), sorted.
fn export_golden_pairs(shared: &Path, version: &str, export: Export) -> Vec<(PathBuf, PathBuf)> {
    let golden_dir = shared.join("golden/spine").join(version);
    let corpus = shared.join("corpus/spine").join(version);
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(&golden_dir).expect("golden dir") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        let (stem, kind) = match name.strip_suffix(".skel.poses.json") {
            Some(stem) => (stem, Export::Skel),
            None => match name.strip_suffix(".poses.json") {
                Some(stem) => (stem, Export::Json),
                None => continue,
            },
        };
        if kind == export {
            let ext = match export {
                Export::Json => "json",
                Export::Skel => "skel",
            };
            pairs.push((corpus.join(format!("{stem}.{ext}")), path));
        }
    }
    pairs.sort();
    pairs
}

/// Runs bonescope on `skeleton` with the golden's settings and compares. Returns a summary line
/// or the mismatch report.
pub fn check(skeleton: &Path, golden_path: &Path) -> Result<String, String> {
    let golden = read_json(golden_path);
    let bytes = std::fs::read(skeleton).map_err(|e| e.to_string())?;
    let stem = skeleton.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let data = bonescope::format::load(&bytes, stem).map_err(|e| e.to_string())?;
    let skins = names(&golden["skeleton"]["skin"]);
    let samples = golden["settings"]["samples"].as_u64().unwrap_or(10) as usize;
    let options = PosesOptions {
        samples,
        times: None,
        skins,
        animations: vec![],
    };
    let file = skeleton
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or("")
        .to_string();
    let data = Arc::new(data);
    let report = poses::sample(Arc::clone(&data), file.clone(), options)?;
    let mut ours = report.to_json();
    // spine-c computes in 32-bit floats: its times are rounded (see `single_precision_times`)
    // and its world values carry f32 rounding: a few ulps on large values (1450.8096 vs
    // 1450.8085 in 3.7 tank-pro), up to 1.3e-3 on the path-constrained treads. The README's
    // f32 column suggests 2e-3 for matrices and up to 0.05 or 1e-4 relative for positions;
    // 2e-3 or 1e-5 relative is what the 3.7 goldens need.
    let single = golden["runtime"]["id"].as_str() == Some("3.7-c");
    if single {
        single_precision_times(&mut ours, &golden, &data, &file)?;
    }
    let m = compare_poses_file_relative(
        &ours,
        &golden,
        if single { (1e-5, 2e-3) } else { (0.0, 0.0) },
    );
    let n_samples: usize = golden["animations"].as_array().map_or(0, |a| {
        a.iter()
            .map(|a| a["samples"].as_array().map_or(0, Vec::len))
            .sum()
    });
    let name = golden_path
        .file_name()
        .and_then(|s| s.to_str())
        .unwrap_or("");
    if m.count == 0 {
        Ok(format!(
            "ok   {name:<40} {n_samples:>4} samples, {:>7} values",
            m.compared
        ))
    } else {
        Err(format!(
            "FAIL {name:<40} {} of {} values differ:\n      {}",
            m.count,
            m.compared,
            m.first.join("\n      ")
        ))
    }
}

/// The spine-c runtimes take the sample time as a 32-bit float and wrap a looping time with
/// `fmodf` against the f32 duration (README "Spine 3.7"): at a sample that falls on a stepped
/// or attachment key, `0.2` (f64) is before the key at `0.2f` where spine-c's `0.2f` is on it.
/// So each sample's pose (not its events, which keep the standard run's) is taken again at
/// the time spine-c used. `fmod` is exact, so wrapping in f64 after rounding gives the f32
/// result.
fn single_precision_times(
    ours: &mut Value,
    golden: &Value,
    data: &Arc<bonescope::core::model::SkeletonData>,
    file: &str,
) -> Result<(), String> {
    let empty = vec![];
    for (i, ga) in golden["animations"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .enumerate()
    {
        let duration = ga["duration"].as_f64().unwrap_or(0.0) as f32;
        let times: Vec<f64> = ga["samples"]
            .as_array()
            .unwrap_or(&empty)
            .iter()
            .map(|s| {
                let t = s["time"].as_f64().unwrap_or(0.0) as f32;
                let wrapped = s["loop"].as_bool() == Some(true) && duration > 0.0;
                f64::from(if wrapped { t % duration } else { t })
            })
            .collect();
        let options = PosesOptions {
            samples: 0,
            times: Some(times),
            skins: names(&golden["skeleton"]["skin"]),
            animations: vec![ga["name"].as_str().unwrap_or("").to_string()],
        };
        let again = poses::sample(Arc::clone(data), file.to_string(), options)?.to_json();
        let events = single_precision_events(data, golden, ga)?;
        let (Some(samples), Some(poses)) = (
            ours["animations"][i]["samples"].as_array_mut(),
            again["animations"][0]["samples"].as_array(),
        ) else {
            continue;
        };
        for ((s, p), e) in samples.iter_mut().zip(poses).zip(events) {
            if let (Some(s), Some(p)) = (s.as_object_mut(), p.as_object()) {
                s.insert("events".into(), e);
                for (k, v) in p {
                    if !matches!(k.as_str(), "time" | "lastTime" | "loop" | "events") {
                        s.insert(k.clone(), v.clone());
                    }
                }
            }
        }
    }
    Ok(())
}

/// The events spine-c fires at each sample of golden animation `ga`: time and last time
/// rounded to f32, looping as the golden says (3.x events: no volume or balance without
/// audio, and no 3.7 example has audio).
fn single_precision_events(
    data: &Arc<bonescope::core::model::SkeletonData>,
    golden: &Value,
    ga: &Value,
) -> Result<Vec<Value>, String> {
    use bonescope::core::snapshot::SampleSpec;
    let name = ga["name"].as_str().unwrap_or("");
    let index = data
        .find_animation(name)
        .ok_or_else(|| format!("no animation {name}"))?;
    let anim = &data.animations[index];
    let mut sk = poses::skeleton_with_skins(data, &names(&golden["skeleton"]["skin"]))?;
    let f32_time = |v: &Value| f64::from(v.as_f64().unwrap_or(0.0) as f32);
    let empty = vec![];
    Ok(ga["samples"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .map(|s| {
            let spec = SampleSpec {
                time: f32_time(&s["time"]),
                last_time: f32_time(&s["lastTime"]),
                looping: s["loop"].as_bool() == Some(true),
            };
            let pose = spec.pose(&mut sk, anim);
            Value::Array(
                pose.events
                    .iter()
                    .map(|e| {
                        serde_json::json!({
                            "name": data.events[e.data].name, "int": e.int, "float": e.float,
                            "string": e.string, "time": e.time,
                        })
                    })
                    .collect(),
            )
        })
        .collect())
}

pub fn run_all(pairs: Vec<(std::path::PathBuf, std::path::PathBuf)>) {
    assert!(!pairs.is_empty(), "no golden files found");
    let mut failures = Vec::new();
    for (skeleton, golden) in &pairs {
        match check(skeleton, golden) {
            Ok(line) => println!("{line}"),
            Err(report) => {
                println!("{report}");
                failures.push(golden.display().to_string());
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden files differ: {failures:?}",
        failures.len(),
        pairs.len()
    );
}
