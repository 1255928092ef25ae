//! AnimationState scenarios of Spine 4.0, 4.1 and 4.2 against the official runtimes
//! (`../shared/golden/spine/<version>/scenarios`), one summary line per scenario.

mod common;

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
