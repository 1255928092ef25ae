//! Spine 4.3 poses against the official 4.3 runtime's goldens
//! (`../shared/golden/spine/4.3`, spine-core 4.3.13), one summary line per file.
//!
//! The 4.3 records: bone local values are the unconstrained pose, `applied` the applied pose
//! brought up to date, world values and slots the applied poses (sliders included).

mod common;

use common::golden_poses::{golden_pairs, run_all};
use common::*;

#[test]
fn official_runtime_goldens_4_3() {
    let Some(shared) = shared_dir("Spine 4.3 golden poses") else {
        return;
    };
    let pairs = golden_pairs(&shared, "4.3");
    assert_eq!(pairs.len(), 7, "expected 7 Spine 4.3 golden pose files");
    run_all(pairs);
}
