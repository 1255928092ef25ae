//! Spine 4.3 AnimationState scenarios against the official 4.3 runtime
//! (`../shared/golden/spine/4.3/scenarios`), one summary line per scenario.

use crate::common;

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

/// AnimationState runs of the spec fixtures (`tests/fixtures/spine43/spec`) against the 4.3
/// runtime (`tests/fixtures/spine43/spec-scenarios`): physics wind / gravity at 60 fps, at dt
/// 0.05, on an additive track and with Physics.pose; colour curves overshooting [0, 1] under
/// alpha and mixes; reversed entries' events (loop wraps, several keys at one time,
/// animationStart / End filters, mixing out); draw-order folders across tracks and mixes;
/// mapped transform constraints under a mix; transform mix keys on additive tracks; sliders
/// under a mix with keyed time / mix; path position / mix keys on additive tracks.
#[test]
fn spec_fixture_scenarios_4_3() {
    let root = project_dir().join("tests/fixtures/spine43");
    let scenarios = scenarios_in(&root.join("spec-scenarios"));
    assert_eq!(scenarios.len(), 16, "expected the 16 4.3 spec scenarios");
    run_all(scenarios, &root.join("spec"));
}

/// Issue 30 point 5: several weighted tracks (alphas below 1) with mixes set on each at once,
/// re-set mid-mix, attachment / draw-order thresholds, empty animations, holds, reverse,
/// additive beside replace, events while mixing, on spineboy-pro 4.3
/// (`tests/fixtures/spine43/weighted-scenarios`, made with the 4.3 runtime).
#[test]
fn weighted_tracks_scenarios_4_3() {
    let Some(shared) = shared_dir("Spine 4.3 weighted-track scenarios") else {
        return;
    };
    let root = project_dir().join("tests/fixtures/spine43/weighted-scenarios");
    let scenarios = scenarios_in(&root);
    assert_eq!(
        scenarios.len(),
        10,
        "expected the 10 weighted-track scenarios"
    );
    run_all(scenarios, &shared.join("corpus/spine/4.3"));
}

/// The same inputs on spineboy-pro 4.2 against the 4.2 runtime
/// (`tests/fixtures/spine42/weighted-scenarios`): what 4.3 changed.
#[test]
fn weighted_tracks_scenarios_4_2() {
    let Some(shared) = shared_dir("Spine 4.2 weighted-track scenarios") else {
        return;
    };
    let root = project_dir().join("tests/fixtures/spine42/weighted-scenarios");
    let scenarios = scenarios_in(&root);
    assert_eq!(
        scenarios.len(),
        10,
        "expected the 10 weighted-track scenarios"
    );
    run_all(scenarios, &shared.join("corpus/spine/4.2"));
}

/// The weighted-track family on a minimal skeleton whose every key is visible in the
/// records (`tests/fixtures/spine43/weights`: attachment keys before their first key and
/// null keys, rgba / rgb / alpha / rgba2 keys, draw orders, events), 4.3 runtime.
#[test]
fn weights_scenarios_4_3() {
    let root = project_dir().join("tests/fixtures/spine43");
    let scenarios = scenarios_in(&root.join("weights-scenarios"));
    assert_eq!(scenarios.len(), 11, "expected the 11 weights scenarios");
    run_all(scenarios, &root.join("weights"));
}

/// The same inputs on the skeleton's 4.2 twin against the 4.2 runtime.
#[test]
fn weights_scenarios_4_2() {
    let root = project_dir().join("tests/fixtures/spine42");
    let scenarios = scenarios_in(&root.join("weights-scenarios"));
    assert_eq!(scenarios.len(), 11, "expected the 11 weights scenarios");
    run_all(scenarios, &root.join("weights"));
}

/// The 4.2 twins run exactly the 4.3 inputs (so their goldens show only what 4.3 changed),
/// and the two weights skeletons differ only in their version string.
#[test]
fn weighted_twins_share_inputs() {
    let fixtures = project_dir().join("tests/fixtures");
    for dir in ["weighted-scenarios", "weights-scenarios"] {
        let inputs = scenarios_in(&fixtures.join("spine43").join(dir));
        assert!(!inputs.is_empty());
        for s43 in inputs {
            let name = s43.file_name().expect("file name");
            let s42 = fixtures.join("spine42").join(dir).join(name);
            assert_eq!(read_json(&s43), read_json(&s42), "{}", s42.display());
        }
    }
    let mut w43 = read_json(&fixtures.join("spine43/weights/weights.json"));
    let mut w42 = read_json(&fixtures.join("spine42/weights/weights.json"));
    assert_eq!(w43["skeleton"]["spine"], "4.3.13");
    assert_eq!(w42["skeleton"]["spine"], "4.2.11");
    for w in [&mut w43, &mut w42] {
        w["skeleton"]["spine"] = serde_json::Value::Null;
        w["skeleton"]["hash"] = serde_json::Value::Null;
    }
    assert_eq!(w43, w42);
}
