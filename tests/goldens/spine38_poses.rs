//! Spine 3.8 poses against the official runtime's goldens (`../shared/golden/spine/3.8`) and
//! the project's own sample goldens (`tests/fixtures/spine38`); Spine 3.7 (the 3.8 loader and
//! runtime under the 3.7 rules) against the spine-ts 3.7 goldens (`../shared/golden/spine/3.7`).

use crate::common;

use common::golden_poses::{golden_pairs, run_all};
use common::*;

#[test]
fn official_runtime_goldens_3_8() {
    let Some(shared) = shared_dir("Spine 3.8 golden poses") else {
        return;
    };
    let pairs = golden_pairs(&shared, "3.8");
    assert_eq!(
        pairs.len(),
        21,
        "expected the 21 Spine 3.8 golden pose files"
    );
    run_all(pairs);
}

#[test]
fn official_runtime_goldens_3_7() {
    let Some(shared) = shared_dir("Spine 3.7 golden poses") else {
        return;
    };
    let pairs = golden_pairs(&shared, "3.7");
    assert_eq!(
        pairs.len(),
        21,
        "expected the 21 Spine 3.7 golden pose files"
    );
    run_all(pairs);
}

#[test]
fn project_sample_goldens() {
    let dir = project_dir().join("tests/fixtures/spine38");
    let sample = project_dir().join("samples/spine/lantern-keeper.json");
    let pairs = [
        "lantern-keeper.poses.json",
        "lantern-keeper.alt.poses.json",
        "lantern-keeper.s7.poses.json",
    ]
    .iter()
    .map(|g| (sample.clone(), dir.join(g)))
    .collect();
    run_all(pairs);
}
