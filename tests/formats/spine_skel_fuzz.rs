//! No input makes the Spine binary reader panic or hang: every prefix of a real `.skel`, every single-bit flip, and seeded multi-byte
//! mutations of larger files give `Ok` (then posed without panicking) or a located `Err`
//! whose offset lies inside the file.

use crate::common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use bonescope::cli::poses::{self, PosesOptions};
use bonescope::format::{LoadError, Location};

/// The slowest single load allowed (a hang or a quadratic blow-up fails it).
const SLOWEST: Duration = Duration::from_secs(2);

/// Loads `bytes`, checking the time taken and the error's location (allocation is bounded by
/// construction: every count is checked against the bytes left, see
/// `absurd_counts_fail_before_allocating`; the crate forbids the unsafe code a counting
/// allocator would need). With `pose`, samples
/// every animation of what loaded.
fn exercise(bytes: &[u8], pose: bool) -> Result<(), LoadError> {
    let start = Instant::now();
    let result = bonescope::format::load(bytes, "fuzz");
    match &result {
        Ok(data) if pose => {
            let options = PosesOptions {
                samples: 2,
                times: None,
                skins: vec![],
                animations: vec![],
            };
            let _ = poses::sample(Arc::new(data.clone()), "fuzz.skel".into(), options);
        }
        Ok(_) => {}
        // An error without a byte offset: the header was hit and it is not a .skel any more.
        Err(e) => {
            if let Some(Location::Byte { offset }) = e.location {
                assert!(offset <= bytes.len() as u64, "{e}: offset beyond the file");
            }
        }
    }
    assert!(start.elapsed() < SLOWEST, "took {:?}", start.elapsed());
    result.map(|_| ())
}

/// The versions whose small export (spinosaurus; 4.3: vine) is cut and bit-flipped.
const VERSIONS: [&str; 6] = ["3.7", "3.8", "4.0", "4.1", "4.2", "4.3"];

/// The small export of `version` that is cut and bit-flipped.
fn small(version: &str) -> &'static str {
    if version == "4.3" {
        "vine-pro.skel"
    } else {
        "spinosaurus-ess.skel"
    }
}

/// A corpus `.skel`. Spine 4.3 has none: its JSON twin written as `.skel` by
/// `convert --to skel` (which the official 4.3 reader reads as the JSON, see
/// `spine_skel_writer.rs`).
fn corpus(version: &str, name: &str) -> Option<Vec<u8>> {
    let shared = common::shared_dir("Spine .skel fuzzing")?;
    let path = shared.join("corpus/spine").join(version).join(name);
    if version == "4.3" {
        let json = path.with_extension("json");
        let text = std::fs::read(&json).unwrap_or_else(|e| panic!("{}: {e}", json.display()));
        let data = bonescope::format::load(&text, name).expect("the 4.3 JSON loads");
        return Some(
            bonescope::format::spine_binary_writer::write(&data).expect("4.3 written as .skel"),
        );
    }
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

use common::rng::Rng;

#[test]
fn every_prefix_is_a_located_error() {
    for version in VERSIONS {
        every_prefix(version);
    }
}

fn every_prefix(version: &str) {
    let Some(bytes) = corpus(version, small(version)) else {
        return;
    };
    exercise(&bytes, true).expect("the whole file loads");
    for len in 0..bytes.len() {
        let e = exercise(&bytes[..len], false).expect_err("a cut file must not load");
        if len > 40 {
            // Past the header the file is recognised and the error is at the cut.
            assert!(
                matches!(e.location, Some(Location::Byte { offset }) if offset <= len as u64),
                "prefix {len}: {e}"
            );
            let m = e.to_string();
            assert!(
                m.contains("unexpected end of file") || m.contains("is impossible"),
                "prefix {len}: {e}"
            );
        }
    }
}

#[test]
fn every_bit_flip_loads_or_fails_located() {
    for version in VERSIONS {
        every_bit_flip(version);
    }
}

fn every_bit_flip(version: &str) {
    let Some(bytes) = corpus(version, small(version)) else {
        return;
    };
    let (mut ok, mut err) = (0, 0);
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[i] ^= 1 << bit;
            match exercise(&b, false) {
                Ok(()) => ok += 1,
                Err(_) => err += 1,
            }
        }
    }
    println!("{version}: {ok} flips loaded, {err} failed with a located error");
    assert!(err > 0 && ok > 0);
}

#[test]
fn seeded_mutations_of_larger_files() {
    for (version, name, rounds) in [
        ("3.8", "coin-pro.skel", 3000),
        ("3.8", "goblins-pro.skel", 1500),
        ("3.8", "hero-ess.skel", 1500),
        ("3.8", "stretchyman-pro.skel", 800),
        ("3.8", "alien-pro.skel", 400),
        ("4.0", "coin-pro.skel", 1500),
        ("4.0", "spineboy-pro.skel", 300),
        ("4.1", "dragon-ess.skel", 800),
        ("4.1", "hero-ess.skel", 800),
        ("4.2", "dragon-ess.skel", 800),
        ("4.2", "goblins-pro.skel", 600),
        ("4.2", "cloud-pot.skel", 600),
        ("4.2", "spineboy-pro.skel", 300),
        ("4.3", "diamond-pro.skel", 600),
        ("4.3", "owl-pro.skel", 600),
        ("4.3", "spineboy-pro.skel", 300),
    ] {
        let Some(bytes) = corpus(version, name) else {
            return;
        };
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15 ^ bytes.len() as u64);
        let (mut ok, mut err) = (0, 0);
        for round in 0..rounds {
            let mut b = bytes.clone();
            for _ in 0..1 + rng.index(4) {
                let i = rng.index(b.len());
                // Mostly small values and all-ones, the likeliest to reach counts and indices.
                b[i] = match rng.index(4) {
                    0 => 0xff,
                    1 => rng.index(8) as u8,
                    2 => b[i] ^ (1 << rng.index(8)),
                    _ => rng.next_u64() as u8,
                };
            }
            match exercise(&b, round % 10 == 0) {
                Ok(()) => ok += 1,
                Err(_) => err += 1,
            }
        }
        println!("{version}/{name}: {ok} mutations loaded, {err} failed with a located error");
        assert!(err > 0);
    }
}

#[test]
fn absurd_counts_fail_before_allocating() {
    absurd_bone_count("3.8");
}

#[test]
fn absurd_counts_fail_before_allocating_4_2() {
    absurd_bone_count("4.2");
    // A 4.2 mesh whose implied triangle count exceeds the bytes left names what it read.
    let Some(bytes) = corpus("4.2", "goblins-pro.skel") else {
        return;
    };
    let cut = &bytes[..2760];
    let e = exercise(cut, false).unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("byte "), "{text}");
    assert!(
        text.contains("default skin") && text.contains("attachment"),
        "{text}"
    );
}

/// Sets the bone count of `version`'s spinosaurus export (after the header and the string
/// table) to 2^31 - 1 and checks the load fails, naming the count and the bytes left, before
/// allocating for it (skipped when the corpus is absent).
fn absurd_bone_count(version: &str) {
    let Some(bytes) = corpus(version, "spinosaurus-ess.skel") else {
        return;
    };
    let at = bytes
        .windows(6)
        .position(|w| w == b"\x06\x05root")
        .expect("bone count before \"root\"");
    let mut b = bytes[..at].to_vec();
    b.extend_from_slice(&[0xff, 0xff, 0xff, 0xff, 0x07]);
    b.extend_from_slice(&bytes[at + 1..]);
    let e = exercise(&b, false).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "byte {at}: bone count 2147483647 is impossible: it needs at least 75161927645 bytes, only {} left",
            b.len() - at - 5
        )
    );
}
