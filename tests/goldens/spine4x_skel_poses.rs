//! Spine 4.0, 4.1 and 4.2 binary exports (`.skel`) against the official runtime's goldens
//! made from the same `.skel` files (`../shared/golden/spine/<v>/<name>.skel.poses.json`;
//! the JSON goldens do not apply to them: the JSON export is rounded).

use crate::common;

use common::golden_poses::{run_all, run_skel_goldens};
use common::*;

#[test]
fn official_runtime_skel_goldens_4_0() {
    run_skel_goldens("4.0", 21);
}

#[test]
fn official_runtime_skel_goldens_4_1() {
    run_skel_goldens("4.1", 22);
}

#[test]
fn official_runtime_skel_goldens_4_2() {
    run_skel_goldens("4.2", 26);
}

/// Corpus 4.2 `.skel` exports sampled at 7 and 13 samples per animation (times the shipped
/// 10-sample goldens never hit), made by the 4.2 runtime's `SkeletonBinary` with the oracle:
/// `tests/fixtures/spine42/skel/<name>.skel.s<N>.poses.json` (how: the README beside them).
#[test]
fn corpus_4_2_skel_other_sample_counts() {
    let Some(shared) = shared_dir("Spine 4.2 .skel goldens at other sample counts") else {
        return;
    };
    let corpus = shared.join("corpus/spine/4.2");
    let dir = project_dir().join("tests/fixtures/spine42/skel");
    let mut pairs: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/spine42/skel")
        .filter_map(|e| {
            let path = e.expect("entry").path();
            let name = path.file_name()?.to_str()?.to_string();
            let stem = name.strip_suffix(".poses.json")?.rsplit_once(".skel.s")?.0;
            Some((corpus.join(format!("{stem}.skel")), path))
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs.len(),
        10,
        "expected 10 .skel goldens at other sample counts"
    );
    run_all(pairs);
}
