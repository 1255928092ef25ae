//! AnimationState scenarios of Spine 4.0, 4.1 and 4.2 against the official runtimes
//! (`../shared/golden/spine/<version>/scenarios`), one summary line per scenario.

use crate::common;

use common::golden_scenarios::{run_all, scenarios_in};
use common::*;

fn version(v: &str, count: usize) {
    let Some(shared) = shared_dir(&format!("Spine {v} AnimationState scenarios")) else {
        return;
    };
    let scenarios = scenarios_in(&shared.join(format!("golden/spine/{v}/scenarios")));
    assert_eq!(
        scenarios.len(),
        count,
        "expected the {count} Spine {v} scenarios"
    );
    run_all(scenarios, &shared.join(format!("corpus/spine/{v}")));
}

#[test]
fn official_runtime_scenarios_4_0() {
    version("4.0", 29);
}

#[test]
fn official_runtime_scenarios_4_1() {
    version("4.1", 30);
}

#[test]
fn official_runtime_scenarios_4_2() {
    version("4.2", 34);
}

/// AnimationState runs of the project's 4.2 sample (`samples/spine/kite-fox-42.json`) against
/// the 4.2 runtime (`tests/fixtures/spine42/scenarios`): physics update with parameter, global
/// and reset timelines through mixes; reverse / shortestRotation / setMixDuration entries;
/// holdPrevious and an additive track mixing out under Physics.pose.
#[test]
fn project_sample_scenarios_4_2() {
    let root = project_dir();
    let scenarios = scenarios_in(&root.join("tests/fixtures/spine42/scenarios"));
    assert_eq!(scenarios.len(), 3, "expected the 3 kite-fox scenarios");
    run_all(scenarios, &root.join("samples/spine"));
}

/// Scenarios on corpus 4.2 skeletons that the shipped set does not cover
/// (`tests/fixtures/spine42/corpus-scenarios`): owl additive tracks mixing out, cloud-pot
/// holdPrevious over split translatex/translatey keys, celestial-circus with Physics.pose and
/// Physics.reset.
#[test]
fn corpus_scenarios_4_2_extra() {
    let Some(shared) = shared_dir("extra Spine 4.2 AnimationState scenarios") else {
        return;
    };
    let root = project_dir();
    let scenarios = scenarios_in(&root.join("tests/fixtures/spine42/corpus-scenarios"));
    assert_eq!(scenarios.len(), 4, "expected the 4 extra corpus scenarios");
    run_all(scenarios, &shared.join("corpus/spine/4.2"));
}
