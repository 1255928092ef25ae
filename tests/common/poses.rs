//! Running `poses` on a skeleton with a golden's settings and comparing with the golden
//! (the Spine JSON and binary pose tests share it).

use super::*;
use bonescope::cli::poses::{self, PosesOptions};
use std::path::Path;
use std::sync::Arc;

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
