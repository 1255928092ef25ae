//! Spine 3.8 poses against the official runtime's goldens (`../shared/golden/spine/3.8`) and
//! the project's own sample goldens (`tests/fixtures/spine38`).

mod common;

use common::poses::run_all;
use common::*;

#[test]
fn official_runtime_goldens_3_8() {
    let Some(shared) = shared_dir("Spine 3.8 golden poses") else {
        return;
    };
    let golden_dir = shared.join("golden/spine/3.8");
    let corpus = shared.join("corpus/spine/3.8");
    let mut pairs = Vec::new();
    for entry in std::fs::read_dir(&golden_dir).expect("golden dir") {
        let path = entry.expect("entry").path();
        let Some(name) = path.file_name().and_then(|s| s.to_str()) else {
            continue;
        };
        // `<name>.skel.poses.json` are the binary exports' goldens (tests/spine38_skel.rs).
        if let Some(stem) = name
            .strip_suffix(".poses.json")
            .filter(|s| !s.ends_with(".skel"))
        {
            pairs.push((corpus.join(format!("{stem}.json")), path));
        }
    }
    pairs.sort();
    assert_eq!(
        pairs.len(),
        21,
        "expected the 21 Spine 3.8 golden pose files"
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
