//! AnimationState scenarios against the official runtime (`../shared/golden/spine/3.8/scenarios`)
//! and the project's own (`tests/fixtures/spine38/scenarios`): the listener callbacks must come
//! in exactly the same order with the same fields; checkpoints within the golden tolerances.
//! Spine 3.7 likewise against the spine-ts 3.7 outputs (`../shared/golden/spine/3.7/scenarios`).

use crate::common;

use common::golden_scenarios::{run_all, scenarios_in};
use common::*;

#[test]
fn official_runtime_scenarios_3_8() {
    let Some(shared) = shared_dir("Spine 3.8 AnimationState scenarios") else {
        return;
    };
    let scenarios = scenarios_in(&shared.join("golden/spine/3.8/scenarios"));
    assert_eq!(scenarios.len(), 27, "expected the 27 Spine 3.8 scenarios");
    run_all(scenarios, &shared.join("corpus/spine/3.8"));
}

#[test]
fn official_runtime_scenarios_3_7() {
    let Some(shared) = shared_dir("Spine 3.7 AnimationState scenarios") else {
        return;
    };
    let scenarios = scenarios_in(&shared.join("golden/spine/3.7/scenarios"));
    assert_eq!(scenarios.len(), 25, "expected the 25 Spine 3.7 scenarios");
    run_all(scenarios, &shared.join("corpus/spine/3.7"));
}

/// The project's own 3.7 scenarios (`tests/fixtures/spine37/scenarios`: mixes of entries that
/// key the same slots' attachments, holdPrevious, thresholds), whose outputs the official
/// spine-ts 3.7 build made through the oracle, on the 3.7 corpus.
#[test]
fn project_scenarios_3_7() {
    let Some(shared) = shared_dir("Spine 3.7 corpus for the project's 3.7 scenarios") else {
        return;
    };
    let scenarios = scenarios_in(&project_dir().join("tests/fixtures/spine37/scenarios"));
    assert_eq!(scenarios.len(), 6, "expected the 6 project 3.7 scenarios");
    run_all(scenarios, &shared.join("corpus/spine/3.7"));
}

#[test]
fn project_sample_scenarios() {
    let root = project_dir();
    run_all(
        scenarios_in(&root.join("tests/fixtures/spine38/scenarios")),
        &root.join("samples/spine"),
    );
}
