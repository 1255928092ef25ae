//! Every Spine binary export (`.skel`) of the corpus decoded and checked against its JSON
//! twin (the same project exported as JSON at the same commit): names, hierarchy, constraint
//! and attachment data, key counts and times, values within the JSON's rounding. This is how
//! we know the binary reader reads everything, not only what the pose goldens exercise.

use crate::common;

use common::twins::{Known, compare};
use common::*;

/// The versions whose binary reader exists, with their number of `.skel` files.
const VERSIONS: [(&str, usize); 5] = [
    ("3.7", 21),
    ("3.8", 21),
    ("4.0", 21),
    ("4.1", 22),
    ("4.2", 26),
];

#[test]
fn every_skel_matches_its_json_twin() {
    let Some(shared) = shared_dir("Spine .skel twins") else {
        return;
    };
    let mut failures = Vec::new();
    for (version, expected) in VERSIONS {
        let skels = spine_corpus_files(&shared, version, "skel");
        assert_eq!(skels.len(), expected, "{version}: .skel files");
        for skel in skels {
            let stem = skel.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let load = |p: &std::path::Path| {
                let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
                bonescope::format::load(&bytes, stem)
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
            };
            let ours = load(&skel);
            let twin = load(&skel.with_extension("json"));
            let known = Known {
                fewer_skins: (version, stem) == ("3.8", "hero-pro"),
                stepped_as_linear: matches!(version, "3.7" | "3.8") && stem.starts_with("powerup-"),
            };
            let d = compare(&ours, &twin, known);
            let name = format!("{version}/{stem}");
            assert!(d.compared > 100, "{name}: too little compared");
            if d.count == 0 {
                println!(
                    "ok   {name:<28} {:>7} values ({} known export differences)",
                    d.compared, d.known_seen
                );
            } else {
                println!(
                    "FAIL {name:<28} {} of {} values differ:\n      {}",
                    d.count,
                    d.compared,
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
