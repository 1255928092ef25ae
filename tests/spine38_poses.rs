//! Spine 3.8 poses against the official runtime's goldens (`../shared/golden/spine/3.8`) and
//! the project's own sample goldens (`tests/fixtures/spine38`).

mod common;

use bonescope::cli::poses::{self, PosesOptions};
use common::*;
use std::path::Path;
use std::sync::Arc;

/// Runs bonescope on `skeleton` with the golden's settings and compares. Returns a summary line
/// or the mismatch report.
fn check(skeleton: &Path, golden_path: &Path) -> Result<String, String> {
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
    let report = poses::sample(Arc::new(data), file, options)?;
    let ours = report.to_json();
    let m = compare_poses_file(&ours, &golden);
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

fn run_all(pairs: Vec<(std::path::PathBuf, std::path::PathBuf)>) {
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

#[test]
fn official_runtime_goldens_3_8() {
    let Some(shared) = shared_dir("Spine 3.8 golden poses") else {
        return;
    };
    let golden_dir = shared.join("golden/spine/3.8");
    let corpus = shared.join("corpus/spine/3.8");
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(&golden_dir).expect("golden dir") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        // `*.skel.poses.json` are the binary twins' goldens (their own test).
        if let Some(stem) = name.strip_suffix(".poses.json")
            && !stem.ends_with(".skel")
        {
            pairs.push((corpus.join(format!("{stem}.json")), path));
        }
    }
    pairs.sort();
    assert_eq!(
        pairs.len(),
        21,
        "expected the 21 Spine 3.8 golden pose files"
    );
    run_all(pairs);
}

#[test]
fn project_sample_goldens() {
    let dir = project_dir().join("tests/fixtures/spine38");
    let sample = project_dir().join("samples/spine/lantern-keeper.json");
    let pairs = [
        "lantern-keeper.poses.json",
        "lantern-keeper.alt.poses.json",
        "lantern-keeper.s7.poses.json",
    ]
    .iter()
    .map(|g| (sample.clone(), dir.join(g)))
    .collect();
    run_all(pairs);
}
