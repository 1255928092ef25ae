//! Spine 4.3 poses against the official 4.3 runtime's goldens
//! (`../shared/golden/spine/4.3`, spine-core 4.3.13), one summary line per file.
//!
//! The 4.3 records: bone local values are the unconstrained pose, `applied` the applied pose
//! brought up to date, world values and slots the applied poses (sliders included).

use crate::common;

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

/// The project's own 4.3 sample (`samples/spine/lever-43.json`: sliders driven by a local
/// bone rotation and by keyed time / mix, mapped transform constraints in local, world and
/// additive modes with clamps, draw-order folders, physics in `constraints[]`) against the
/// 4.3 runtime's goldens in `tests/fixtures/spine43` (README there), at 10 and 13 samples.
#[test]
fn project_sample_goldens_4_3() {
    let dir = project_dir().join("tests/fixtures/spine43");
    let sample = project_dir().join("samples/spine/lever-43.json");
    let pairs = ["lever-43.poses.json", "lever-43.s13.poses.json"]
        .iter()
        .map(|g| (sample.clone(), dir.join(g)))
        .collect();
    run_all(pairs);
}

/// IK `scaleY: "volume"` (one- and two-bone, stretch and compress, with and without mix, beside
/// a `uniform` chain) and linked meshes whose source mesh is found under another slot (`slot`
/// key; with `timelines` they follow the source's deform keys, without they do not):
/// `tests/fixtures/spine43/ik-volume-43.json` against the 4.3 runtime at 10 and 13 samples.
#[test]
fn ik_volume_and_linked_slot_goldens_4_3() {
    let dir = project_dir().join("tests/fixtures/spine43");
    let sample = dir.join("ik-volume-43.json");
    let pairs = ["ik-volume-43.poses.json", "ik-volume-43.s13.poses.json"]
        .iter()
        .map(|g| (sample.clone(), dir.join(g)))
        .collect();
    run_all(pairs);
}

/// What 4.3 changed in IK against 4.2 (`tests/fixtures/spine43/ik-rules-43.json`, chains
/// side by side): a two-bone parent keeps its shear (set up and keyed, with softness, stretch,
/// compress, bend -1, mix < 1, non-uniform and reflected parents); 1e-5 guards (parent scales
/// 5e-5 apart count as uniform, determinants and bone lengths between 1e-5 and 1e-4 still
/// solve, a `noRotationOrReflection` parent axis below 1e-4 squared); the angle wrap at
/// exactly -180 and the runtime's rounded pi. At 10 and 13 samples.
#[test]
fn ik_rules_goldens_4_3() {
    let dir = project_dir().join("tests/fixtures/spine43");
    let sample = dir.join("ik-rules-43.json");
    let pairs = ["ik-rules-43.poses.json", "ik-rules-43.s13.poses.json"]
        .iter()
        .map(|g| (sample.clone(), dir.join(g)))
        .collect();
    run_all(pairs);
}

/// Shipped 4.3 skeletons sampled at times no shipped golden holds (7 samples per animation,
/// made with the 4.3 runtime: `tests/fixtures/spine43/*.s7.poses.json`).
#[test]
fn corpus_unseen_times_4_3() {
    let Some(shared) = shared_dir("Spine 4.3 corpus at unseen times") else {
        return;
    };
    let dir = project_dir().join("tests/fixtures/spine43");
    let corpus = shared.join("corpus/spine/4.3");
    let pairs = [
        "diamond-pro",
        "owl-pro",
        "vine-pro",
        "windmill-ess",
        "spineboy-pro",
        "spineboy-ess",
        "snowglobe-pro",
    ]
    .iter()
    .map(|s| {
        (
            corpus.join(format!("{s}.json")),
            dir.join(format!("{s}.s7.poses.json")),
        )
    })
    .collect();
    run_all(pairs);
}

/// Fixtures written from the 4.3 spec to pin what no other golden does
/// (`tests/fixtures/spine43/spec`, README there): every transform from/to property pair in
/// four source/target/additive/clamp modes with the mix-default rules, physics with wind and
/// gravity on every channel, colour curves overshooting [0, 1], events, draw-order folders,
/// sliders on every bone property (local and world) and skin-gated constraints, path
/// position / mix keys; against the 4.3 runtime at 10 and 13 samples.
#[test]
fn spec_fixture_goldens_4_3() {
    let dir = project_dir().join("tests/fixtures/spine43/spec");
    let pairs = [
        "transform-pairs-43",
        "physics-forces-43",
        "colors-43",
        "events-43",
        "folders-43",
        "sliders-43",
        "path-add-43",
    ]
    .iter()
    .flat_map(|s| {
        let skel = dir.join(format!("{s}.json"));
        ["poses", "s13.poses"].map(|g| (skel.clone(), dir.join(format!("{s}.{g}.json"))))
    })
    .collect();
    run_all(pairs);
}
