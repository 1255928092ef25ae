//! Comparing `scenario` runs with official-runtime AnimationState goldens: the listener
//! callbacks must come in exactly the same order with the same fields; checkpoints within
//! the golden tolerances.

use super::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

pub fn compare_callbacks(m: &mut Mismatches, ours: &Value, golden: &Value) {
    let empty = vec![];
    let (o, g) = (
        ours.as_array().unwrap_or(&empty),
        golden.as_array().unwrap_or(&empty),
    );
    if o.len() != g.len() {
        m.fail(format!("callbacks: ours {}, golden {}", o.len(), g.len()));
    }
    for (i, (oc, gc)) in o.iter().zip(g).enumerate() {
        for f in [
            "step",
            "frame",
            "phase",
            "type",
            "track",
            "entry",
            "animation",
            "event",
            "int",
            "string",
        ] {
            if gc.get(f).is_some() || oc.get(f).is_some() {
                m.exact(&|| format!("callback {i} ({}) {f}", gc), &oc[f], &gc[f]);
            }
        }
        for f in [
            "trackTime",
            "animationTime",
            "float",
            "eventTime",
            "volume",
            "balance",
        ] {
            if gc.get(f).is_some() {
                m.num(&|| format!("callback {i} {f}"), &oc[f], &gc[f], TOL, None);
            }
        }
        if m.count > 0 {
            // The first divergence explains the rest.
            return;
        }
    }
}

pub fn compare_checkpoints(
    m: &mut Mismatches,
    wraps: bool,
    ours: &Value,
    golden: &Value,
    bones: &[String],
    slots: &[String],
) {
    let empty = vec![];
    let (o, g) = (
        ours.as_array().unwrap_or(&empty),
        golden.as_array().unwrap_or(&empty),
    );
    if o.len() != g.len() {
        m.fail(format!("checkpoints: ours {}, golden {}", o.len(), g.len()));
        return;
    }
    for (oc, gc) in o.iter().zip(g) {
        let ctx = format!("checkpoint frame {}", gc["frame"]);
        m.exact(&|| format!("{ctx} frame"), &oc["frame"], &gc["frame"]);
        m.exact(&|| format!("{ctx} step"), &oc["step"], &gc["step"]);
        m.num(
            &|| format!("{ctx} time"),
            &oc["time"],
            &gc["time"],
            TOL,
            None,
        );
        let (ot, gt) = (
            oc["tracks"].as_array().unwrap_or(&empty),
            gc["tracks"].as_array().unwrap_or(&empty),
        );
        if ot.len() != gt.len() {
            m.fail(format!(
                "{ctx} tracks: ours {}, golden {}",
                Value::from(ot.clone()),
                Value::from(gt.clone())
            ));
        } else {
            for (t, (a, b)) in ot.iter().zip(gt).enumerate() {
                if b.is_null() || a.is_null() {
                    m.exact(&|| format!("{ctx} track {t}"), a, b);
                    continue;
                }
                for f in ["track", "entry", "animation", "from", "next"] {
                    m.exact(&|| format!("{ctx} track {t} {f}"), &a[f], &b[f]);
                }
                for f in [
                    "trackTime",
                    "animationTime",
                    "delay",
                    "mixTime",
                    "mixDuration",
                ] {
                    m.num(&|| format!("{ctx} track {t} {f}"), &a[f], &b[f], TOL, None);
                }
            }
        }
        compare_pose(m, wraps, &ctx, oc, gc, bones, slots);
    }
}

pub fn check(scenario: &Path, corpus: &Path) -> Result<String, String> {
    let golden = read_json(&scenario.with_extension("out.json"));
    let run = bonescope::cli::run_scenario(scenario, Some(corpus)).map_err(|e| e.0)?;
    let ours = run.to_json();
    let mut m = Mismatches::default();
    compare_callbacks(&mut m, &ours["callbacks"], &golden["callbacks"]);
    let bones = names(&golden["bones"]);
    let slots = names(&golden["slots"]);
    compare_checkpoints(
        &mut m,
        rotation_wraps(&golden),
        &ours["checkpoints"],
        &golden["checkpoints"],
        &bones,
        &slots,
    );
    let name = scenario.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let n = golden["callbacks"].as_array().map_or(0, Vec::len);
    if m.count == 0 {
        Ok(format!(
            "ok   {name:<45} {n:>4} callbacks, {:>7} values",
            m.compared
        ))
    } else {
        Err(format!(
            "FAIL {name:<45} {} of {} differ:\n      {}",
            m.count,
            m.compared,
            m.first.join("\n      ")
        ))
    }
}

pub fn scenarios_in(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("scenario dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
            n.ends_with(".json") && !n.ends_with(".out.json")
        })
        .collect();
    v.sort();
    v
}

pub fn run_all(scenarios: Vec<PathBuf>, corpus: &Path) {
    assert!(!scenarios.is_empty());
    let mut failures = Vec::new();
    for s in &scenarios {
        match check(s, corpus) {
            Ok(line) => println!("{line}"),
            Err(report) => {
                println!("{report}");
                failures.push(
                    s.file_stem()
                        .and_then(|s| s.to_str())
                        .unwrap_or("")
                        .to_string(),
                );
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios differ: {failures:?}",
        failures.len(),
        scenarios.len()
    );
}

/// The scenario inputs of a version that have a golden output, in name order.
pub fn scenarios_with_golden(shared: &Path, version: &str) -> Vec<PathBuf> {
    let dir = shared.join("golden/spine").join(version).join("scenarios");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            let n = p.to_string_lossy();
            n.ends_with(".json")
                && !n.ends_with(".out.json")
                && p.with_extension("out.json").is_file()
        })
        .collect();
    v.sort();
    v
}
