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
