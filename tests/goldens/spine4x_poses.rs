//! Spine 4.0, 4.1 and 4.2 poses against the official runtimes' goldens
//! (`../shared/golden/spine/<version>`), one summary line per file.

use crate::common;

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

/// The project's own 4.2 sample (`samples/spine/kite-fox-42.json`) against the 4.2 runtime's
/// goldens in `tests/fixtures/spine42` (how they were made: its README), at 10 and 13 samples.
#[test]
fn project_sample_goldens_4_2() {
    let dir = project_dir().join("tests/fixtures/spine42");
    let sample = project_dir().join("samples/spine/kite-fox-42.json");
    let pairs = ["kite-fox-42.poses.json", "kite-fox-42.s13.poses.json"]
        .iter()
        .map(|g| (sample.clone(), dir.join(g)))
        .collect();
    run_all(pairs);
}

/// Corpus 4.2 exports sampled at 7 and 13 samples per animation (times the shipped 10-sample
/// goldens never hit), goldens in `tests/fixtures/spine42/<name>.s<N>.poses.json`.
#[test]
fn corpus_4_2_other_sample_counts() {
    let Some(shared) = shared_dir("Spine 4.2 goldens at other sample counts") else {
        return;
    };
    let corpus = shared.join("corpus/spine/4.2");
    let dir = project_dir().join("tests/fixtures/spine42");
    let mut pairs: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/spine42")
        .filter_map(|e| {
            let path = e.expect("entry").path();
            let name = path.file_name()?.to_str()?.to_string();
            let stem = name.strip_suffix(".poses.json")?.rsplit_once(".s")?.0;
            let skeleton = corpus.join(format!("{stem}.json"));
            skeleton.is_file().then_some((skeleton, path))
        })
        .collect();
    pairs.sort();
    assert_eq!(
        pairs.len(),
        9,
        "expected the 9 corpus goldens at 7 / 13 samples"
    );
    run_all(pairs);
}
