//! Spine 4.3 AnimationState scenarios against the official 4.3 runtime
//! (`../shared/golden/spine/4.3/scenarios`), one summary line per scenario.

mod common;

use common::golden_scenarios::{check, run_all, scenarios_in};
use common::*;

/// Shipped 4.3 scenarios bonescope does not match yet (issue 19), with the 4.3 AnimationState
/// piece each needs. The test fails if one of them starts to match (take it off the list) or
/// any other scenario stops matching.
const NOT_YET: [(&str, &str); 3] = [
    (
        "diamond-keephold-reverse-sizes",
        "TrackEntry.keepHold (B10.5) and the reversed shortestRotation entry mixing in",
    ),
    (
        "diamond-slider-animation-direct-additive",
        "an additive entry mixing out to an empty animation (B10.5 mixing-out modes)",
    ),
    (
        "spineboy-mix-from-mix",
        "mixing out an entry that is itself mixing out (B10.5 alpha chain, keepHold on early removal)",
    ),
];

#[test]
fn official_runtime_scenarios_4_3() {
    let Some(shared) = shared_dir("Spine 4.3 AnimationState scenarios") else {
        return;
    };
    let scenarios = scenarios_in(&shared.join("golden/spine/4.3/scenarios"));
    assert_eq!(scenarios.len(), 28, "expected the 28 Spine 4.3 scenarios");
    let corpus = shared.join("corpus/spine/4.3");
    let mut unexpected = Vec::new();
    for s in &scenarios {
        let name = s.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let known = NOT_YET.iter().find(|(n, _)| *n == name);
        match (check(s, &corpus), known) {
            (Ok(line), None) => println!("{line}"),
            (Err(report), Some((_, why))) => {
                let first = report.lines().next().unwrap_or("");
                println!("{first}\n      (known: {why})");
            }
            (Ok(line), Some(_)) => {
                println!("{line}");
                unexpected.push(format!("{name} now matches: take it off NOT_YET"));
            }
            (Err(report), None) => {
                println!("{report}");
                unexpected.push(name.to_string());
            }
        }
    }
    assert!(unexpected.is_empty(), "{unexpected:?}");
}

/// AnimationState runs of the project's 4.3 sample (`samples/spine/lever-43.json`) against
/// the 4.3 runtime (`tests/fixtures/spine43/scenarios`): sliders and mapped transforms under
/// mixing, physics in `constraints[]` with Physics.update, draw-order folders on a second
/// track, an additive track, a reversed entry.
#[test]
fn project_sample_scenarios_4_3() {
    let root = project_dir();
    let scenarios = scenarios_in(&root.join("tests/fixtures/spine43/scenarios"));
    assert_eq!(scenarios.len(), 2, "expected the 2 lever-43 scenarios");
    run_all(scenarios, &root.join("samples/spine"));
}
