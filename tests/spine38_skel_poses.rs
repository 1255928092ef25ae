//! Spine 3.8 binary exports (`.skel`) against the official runtime's goldens made from the
//! same `.skel` files (`../shared/golden/spine/3.8/<name>.skel.poses.json`; the JSON goldens
//! do not apply to them: the JSON export is rounded).

mod common;

use common::golden_poses::run_all;
use common::*;

#[test]
fn official_runtime_skel_goldens_3_8() {
    let Some(shared) = shared_dir("Spine 3.8 .skel golden poses") else {
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
        if let Some(stem) = name.strip_suffix(".skel.poses.json") {
            pairs.push((corpus.join(format!("{stem}.skel")), path));
        }
    }
    pairs.sort();
    assert_eq!(
        pairs.len(),
        21,
        "expected the 21 Spine 3.8 .skel golden pose files"
    );
    run_all(pairs);
}
