//! Spine 4.0, 4.1 and 4.2 binary exports (`.skel`) against the official runtime's goldens
//! made from the same `.skel` files (`../shared/golden/spine/<v>/<name>.skel.poses.json`;
//! the JSON goldens do not apply to them: the JSON export is rounded).

mod common;

use common::golden_poses::run_all;
use common::*;

/// Runs every `.skel` golden of `version`, which must number `expected`.
fn run_version(version: &str, expected: usize) {
    let Some(shared) = shared_dir(&format!("Spine {version} .skel golden poses")) else {
        return;
    };
    let golden_dir = shared.join("golden/spine").join(version);
    let corpus = shared.join("corpus/spine").join(version);
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
        expected,
        "expected the {expected} Spine {version} .skel golden pose files"
    );
    run_all(pairs);
}

#[test]
fn official_runtime_skel_goldens_4_0() {
    run_version("4.0", 21);
}

#[test]
fn official_runtime_skel_goldens_4_1() {
    run_version("4.1", 22);
}
