//! Spine 4.0, 4.1 and 4.2 poses against the official runtimes' goldens
//! (`../shared/golden/spine/<version>`), one summary line per file.

mod common;

use common::golden_poses::{golden_pairs, run_all};
use common::*;

fn version(v: &str, files: usize) {
    let Some(shared) = shared_dir(&format!("Spine {v} golden poses")) else {
        return;
    };
    let pairs = golden_pairs(&shared, v);
    assert_eq!(
        pairs.len(),
        files,
        "expected {files} Spine {v} golden pose files"
    );
    run_all(pairs);
}

#[test]
fn official_runtime_goldens_4_0() {
    version("4.0", 21);
}

#[test]
fn official_runtime_goldens_4_1() {
    version("4.1", 22);
}

#[test]
fn official_runtime_goldens_4_2() {
    version("4.2", 26);
}
