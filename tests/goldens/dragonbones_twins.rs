//! Every DragonBones `.dbbin` of the corpus against its JSON twin (the same project exported
//! as JSON): every armature's names, hierarchy, displays, key counts and times, values within
//! rounding. The pose goldens check what the runtime shows; this checks that the binary reader
//! reads everything the JSON has.

use crate::common;

use common::twins::{Known, compare};
use common::*;

/// The `.dbbin` files of `corpus/dragonbones/5.x` (relative to it).
const BINARIES: [&str; 3] = [
    "5.0/dragon_boy_ske.dbbin",
    "5.5/mecha_1002_101d_show_ske.dbbin",
    "5.5/starter_ske.dbbin",
];

#[test]
fn every_dbbin_matches_its_json_twin() {
    let Some(shared) = shared_dir("DragonBones .dbbin twins") else {
        return;
    };
    let dir = shared.join("corpus/dragonbones/5.x");
    let mut failures = Vec::new();
    for rel in BINARIES {
        let bin = dir.join(rel);
        let load = |p: &std::path::Path| {
            let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            bonescope::format::load_all(&bytes, "t")
                .unwrap_or_else(|e| panic!("{}: {e}", p.display()))
        };
        let ours = load(&bin);
        let twin = load(&bin.with_extension("json"));
        assert_eq!(ours.len(), twin.len(), "{rel}: armatures");
        for (o, t) in ours.iter().zip(&twin) {
            // dragon_boy's binary was exported from data rounded to 2 decimals, which the
            // comparison's tolerance covers; the other two are exact exports.
            let d = compare(o, t, Known::default());
            let name = format!("{rel} {}", o.name);
            assert!(d.compared > 50, "{name}: too little compared");
            if d.count == 0 {
                println!("ok   {name:<50} {:>6} values", d.compared);
            } else {
                println!(
                    "FAIL {name} {} of {} values differ:\n      {}",
                    d.count,
                    d.compared,
                    d.lines.join("\n      ")
                );
                failures.push(name);
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// Every corpus `.dbbin` against itself `convert`ed to DragonBones JSON: the same model
/// (names, hierarchy, skinned vertices in bone space, key counts, times and values, curve
/// kinds), which the pose goldens alone do not pin (they show no mesh vertices).
#[test]
fn every_dbbin_matches_its_converted_json() {
    let Some(shared) = shared_dir("DragonBones .dbbin converted") else {
        return;
    };
    let dir = shared.join("corpus/dragonbones/5.x");
    let mut failures = Vec::new();
    for rel in BINARIES {
        let bytes = std::fs::read(dir.join(rel)).expect("corpus .dbbin");
        let json = bonescope::format::dragonbones::json_writer::write(&bytes, "t")
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let ours = bonescope::format::load_all(&bytes, "t").expect("binary");
        let conv = bonescope::format::load_all(json.as_bytes(), "t").expect("converted");
        assert_eq!(ours.len(), conv.len(), "{rel}: armatures");
        for (o, c) in ours.iter().zip(&conv) {
            let d = compare(o, c, Known::default());
            let name = format!("{rel} {}", o.name);
            assert!(d.compared > 50, "{name}: too little compared");
            if d.count > 0 {
                failures.push(format!("{name}: {}", d.lines.join("\n      ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
