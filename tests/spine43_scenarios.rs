//! Spine 4.3 AnimationState scenarios against the official 4.3 runtime
//! (`../shared/golden/spine/4.3/scenarios`), one summary line per scenario.

mod common;

use common::golden_scenarios::{run_all, scenarios_in};
use common::*;

#[test]
fn official_runtime_scenarios_4_3() {
    let Some(shared) = shared_dir("Spine 4.3 AnimationState scenarios") else {
        return;
    };
    let scenarios = scenarios_in(&shared.join("golden/spine/4.3/scenarios"));
    assert_eq!(scenarios.len(), 28, "expected the 28 Spine 4.3 scenarios");
    run_all(scenarios, &shared.join("corpus/spine/4.3"));
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

/// 4.3 AnimationState rules pinned on a minimal skeleton (`tests/fixtures/spine43/state`:
/// constant translate / rotate keys, so each number shows one alpha) against the 4.3 runtime
/// (`tests/fixtures/spine43/state-scenarios`): mixing from a mix, which entry's mix duration
/// lets a hold fade, holds of a `first` timeline fading, keepHold (the scenario's
/// `holdPrevious`), a zero-duration mix over a mix, additive entries mixing out (rotation
/// without direction bookkeeping).
#[test]
fn state_rule_scenarios_4_3() {
    let root = project_dir().join("tests/fixtures/spine43");
    let scenarios = scenarios_in(&root.join("state-scenarios"));
    assert_eq!(
        scenarios.len(),
        17,
        "expected the 17 4.3 state-rule scenarios"
    );
    run_all(scenarios, &root.join("state"));
}

/// The project's own scenarios on shipped 4.3 skeletons (`tests/fixtures/spine43/
/// corpus-scenarios`, made with the 4.3 runtime): a keepHold chain interrupted mid-mix on
/// diamond-pro, additive slider-mix animations replaced and emptied, a zero-duration mix
/// inside a mix chain, additive layers with shortestRotation on spineboy-pro.
#[test]
fn own_corpus_scenarios_4_3() {
    let Some(shared) = shared_dir("Spine 4.3 corpus scenarios") else {
        return;
    };
    let root = project_dir().join("tests/fixtures/spine43/corpus-scenarios");
    let scenarios = scenarios_in(&root);
    assert_eq!(
        scenarios.len(),
        4,
        "expected the 4 own 4.3 corpus scenarios"
    );
    run_all(scenarios, &shared.join("corpus/spine/4.3"));
}
