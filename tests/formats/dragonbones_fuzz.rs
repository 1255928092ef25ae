//! No input makes the DragonBones loader (or playing what it loaded) panic or hang: every
//! prefix of a small real file, single-byte replacements at every offset, and seeded
//! mutations of the project sample give `Ok` or a located `Err` in bounded time.

use crate::common;

use bonescope::core::skeleton::Skeleton;
use bonescope::core::snapshot::SampleSpec;
use bonescope::format::{self, Location};
use std::sync::Arc;
use std::time::{Duration, Instant};

const BUDGET: Duration = Duration::from_secs(2);

/// Loads `bytes`; on success poses every animation of every armature at a few times.
fn exercise(bytes: &[u8]) {
    let start = Instant::now();
    match format::load_all(bytes, "fuzz") {
        Ok(all) => {
            for data in all {
                let data = Arc::new(data);
                let mut sk = Skeleton::new(data.clone());
                for anim in &data.animations {
                    for t in [0.0, 0.37, anim.duration, anim.duration * 2.5, -1.0] {
                        let spec = SampleSpec {
                            time: t,
                            last_time: -1.0,
                            looping: t > anim.duration,
                        };
                        let pose = spec.pose(&mut sk, anim);
                        let _ = pose.vertices.len();
                    }
                }
            }
        }
        Err(e) => match e.location {
            Some(Location::Json { line, column, .. }) => assert!(line >= 1 && column >= 1),
            // A `.dbbin` (and only a `.dbbin`) fails at a byte inside the file.
            Some(Location::Byte { offset }) if bytes.starts_with(b"DBDT") => {
                assert!(
                    offset <= bytes.len() as u64,
                    "{offset} past {}",
                    bytes.len()
                )
            }
            other => panic!("error without a location: {other:?} ({})", e.message),
        },
    }
    assert!(start.elapsed() < BUDGET, "took {:?}", start.elapsed());
}

fn sample() -> Vec<u8> {
    std::fs::read(common::project_dir().join("samples/dragonbones/paper-crane.json")).unwrap()
}

#[test]
fn every_prefix_and_byte_replacement_of_the_sample() {
    let bytes = sample();
    let step = if cfg!(debug_assertions) { 97 } else { 7 };
    for end in (0..bytes.len()).step_by(step) {
        exercise(&bytes[..end]);
    }
    let mut copy = bytes.clone();
    for i in (0..bytes.len()).step_by(step) {
        for b in [b'9', b'-', b'"', b'}', b'[', 0xff] {
            copy[i] = b;
            exercise(&copy);
        }
        copy[i] = bytes[i];
    }
}

#[test]
fn seeded_mutations_of_numbers_and_names() {
    let text = String::from_utf8(sample()).unwrap();
    let mut rng = common::rng::Rng::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.next_u64();
    let swaps = [
        ("24", "1e300"),
        ("24", "-5"),
        ("1", "4294967296"),
        ("0.5", "\"NaN\""),
        ("\"duration\"", "\"durationX\""),
        ("\"parent\": \"body\"", "\"parent\": \"nobody\""),
        ("\"name\": \"wing\"", "\"name\": \"w\\u001b[2Jing\""),
        ("12", "-12"),
        ("\"zOrder\": [6, -5]", "\"zOrder\": [6, -50, 6, 1]"),
        ("\"offset\": 2", "\"offset\": 9999"),
        ("[0,1,4", "[0,1,400"),
        ("\"weights\": [1", "\"weights\": [900"),
    ];
    for _ in 0..400 {
        let mut t = text.clone();
        for _ in 0..3 {
            let (from, to) = swaps[(next() % swaps.len() as u64) as usize];
            let hits: Vec<usize> = t.match_indices(from).map(|(i, _)| i).collect();
            if hits.is_empty() {
                continue;
            }
            let at = hits[(next() % hits.len() as u64) as usize];
            t.replace_range(at..at + from.len(), to);
        }
        exercise(t.as_bytes());
    }
}

#[test]
fn prefixes_of_a_real_file() {
    let Some(shared) = common::shared_dir("DragonBones fuzz on the corpus") else {
        return;
    };
    let bytes = std::fs::read(shared.join("corpus/dragonbones/4.5/robot_ske.json")).unwrap();
    let step = if cfg!(debug_assertions) { 211 } else { 13 };
    for end in (0..bytes.len()).step_by(step) {
        exercise(&bytes[..end]);
    }
}

/// Every `.dbbin` of the corpus: prefixes, single-byte replacements across header and
/// arrays, and numbers of the binary block set to extremes.
#[test]
fn prefixes_and_replacements_of_the_dbbin_files() {
    let Some(shared) = common::shared_dir("DragonBones .dbbin fuzz on the corpus") else {
        return;
    };
    let step = if cfg!(debug_assertions) { 97 } else { 5 };
    for rel in [
        "5.0/dragon_boy_ske.dbbin",
        "5.5/mecha_1002_101d_show_ske.dbbin",
        "5.5/starter_ske.dbbin",
    ] {
        let bytes = std::fs::read(shared.join("corpus/dragonbones/5.x").join(rel)).unwrap();
        for end in (0..bytes.len()).step_by(step * 3) {
            exercise(&bytes[..end]);
        }
        let mut copy = bytes.clone();
        for i in (4..bytes.len()).step_by(step) {
            for b in [0x00, 0x7f, 0x80, 0xff, b'9', b'"'] {
                copy[i] = b;
                exercise(&copy);
            }
            copy[i] = bytes[i];
        }
    }
}

/// The bent and animated surface lattices of the own 5.6 fixture: prefixes, single-byte
/// replacements, and lattice numbers and segment counts set to extremes (the lattice maps
/// then meet infinities and NaN, and must still neither panic nor hang).
#[test]
fn surface_lattices_cut_and_mutated() {
    let path = common::project_dir().join("tests/fixtures/dragonbones5/surfacebent56.json");
    let bytes = std::fs::read(path).expect("fixture");
    let step = if cfg!(debug_assertions) { 97 } else { 11 };
    for end in (0..bytes.len()).step_by(step) {
        exercise(&bytes[..end]);
    }
    let mut copy = bytes.clone();
    for i in (0..bytes.len()).step_by(step) {
        for b in [b'9', b'-', b'"', b']', 0xff] {
            copy[i] = b;
            exercise(&copy);
        }
        copy[i] = bytes[i];
    }
    let text = String::from_utf8(bytes).expect("utf-8");
    for (from, to) in [
        ("\"segmentX\": 2", "\"segmentX\": 1e300"),
        ("\"segmentX\": 2", "\"segmentX\": 0"),
        ("\"segmentY\": 1", "\"segmentY\": 4294967296"),
        ("-100,", "1e308,"),
        ("-100,", "-1e308,"),
        ("110,", "1e-320,"),
        ("\"x\": 1500", "\"x\": 1e308"),
        ("\"offset\": 6", "\"offset\": 99999"),
        ("\"offset\": 2", "\"offset\": -3"),
        ("\"name\": \"net\"", "\"name\": \"nowhere\""),
    ] {
        assert!(text.contains(from), "the fixture no longer has {from}");
        for (at, _) in text.match_indices(from) {
            let mut t = text.clone();
            t.replace_range(at..at + from.len(), to);
            exercise(t.as_bytes());
        }
    }
}
