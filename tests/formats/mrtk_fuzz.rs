//! No input makes the MRTK reader (or evaluating what it loaded) panic or hang: prefixes of
//! real files at every offset, single-byte flips at every offset (both thinned in debug builds
//! and for the larger project sample), and seeded multi-byte mutations give `Ok` or a
//! located `Err`, each in bounded time.

use crate::common;

use bonescope::cli::curves::from_recording;
use bonescope::format::mrtk::{self, Hand};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The slowest single read allowed (debug build; a hang or a quadratic blow-up fails it).
const BUDGET: Duration = Duration::from_secs(2);

/// Reads `bytes`; on success evaluates every curve (and with `print`, renders the `curves`
/// report as JSON and as a table); returns the error offset on failure.
fn exercise(bytes: &[u8], print: bool) -> Result<(), u64> {
    let start = Instant::now();
    let result = mrtk::read(bytes);
    match &result {
        Ok(rec) => {
            for t in [f64::NAN, -1e30, 0.37, rec.duration, f64::INFINITY] {
                let _ = rec.camera_pose(t).map(|p| p.rotation());
                let _ = rec.hand_state(Hand::Right, t);
                let _ = rec.joint_pose(Hand::Left, 11, t);
                let _ = rec.eye_gaze(t);
            }
            let report = from_recording(rec, String::new(), Some(&[f64::NAN, -1e30, 0.0, 1e9]));
            if print {
                let _ = (report.to_json(), report.to_text());
            }
        }
        Err(e) => assert!(e.offset <= bytes.len() as u64, "{e} beyond the file"),
    }
    assert!(start.elapsed() < BUDGET, "took {:?}", start.elapsed());
    result.map(|_| ()).map_err(|e| e.offset)
}

/// Files to mutate: the project's sample, and real and showcase files from ../shared.
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut files =
        vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/mrtk/wave-and-pinch.bin")];
    if let Some(shared) = common::shared_dir("MRTK fuzzing of the shared corpus") {
        let c = shared.join("corpus/mrtk");
        files.push(c.join("real/InputAnimation-20201011-130542.bin"));
        files.push(c.join("valid/v1_0_curve_showcase.bin"));
        files.push(c.join("valid/v1_0_edge_cases.bin"));
        files.push(c.join("valid/v1_1_camera_only.bin"));
    }
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p.display().to_string(), bytes)
        })
        .collect()
}

/// The offset where the marker list starts (the file minus its markers), for a file that
/// loads: reading stops with a missing-marker-list warning exactly there.
fn marker_list_offset(bytes: &[u8]) -> Option<usize> {
    let rec = mrtk::read(bytes).ok()?;
    let markers: usize = rec.markers.iter().map(|m| 4 + name_len(m.name.len())).sum();
    Some(bytes.len() - 4 - markers)
}

fn name_len(n: usize) -> usize {
    let mut prefix = 1;
    while n >> (7 * prefix) != 0 {
        prefix += 1;
    }
    prefix + n
}

/// Offsets to cut or flip at: every one of a file up to 8 KiB in an optimised build (CI runs
/// `cargo test --release`); otherwise every one in the first 1 KiB and the last 512 bytes
/// (header, first curves, markers) and every 17th between, to stay within seconds.
fn offsets(len: usize) -> impl Iterator<Item = usize> {
    let every = !cfg!(debug_assertions) && len <= 8192;
    (0..len).filter(move |&i| every || i < 1024 || i + 512 >= len || i % 17 == 0)
}

#[test]
fn truncations_are_errors_at_or_before_the_cut() {
    for (name, bytes) in inputs() {
        let keep = marker_list_offset(&bytes).expect("input loads");
        for cut in offsets(bytes.len()) {
            match exercise(&bytes[..cut], false) {
                Ok(()) => assert_eq!(cut, keep, "{name}: prefix of {cut} bytes loaded"),
                Err(at) => assert!(at <= cut as u64, "{name}: cut {cut}, error at {at}"),
            }
        }
    }
}

#[test]
fn single_byte_flips_never_panic() {
    for (_, bytes) in inputs() {
        for i in offsets(bytes.len()) {
            // All three masks at every offset when optimised; one, in turn, in debug builds.
            let masks = [0xff, 0x80, 0x01];
            let masks = if cfg!(debug_assertions) {
                &masks[i % 3..=i % 3]
            } else {
                &masks[..]
            };
            for mask in masks {
                let mut m = bytes.clone();
                m[i] ^= mask;
                let _ = exercise(&m, false);
            }
        }
    }
}

#[test]
fn seeded_multi_byte_mutations_never_panic() {
    let mut rng = common::rng::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut next = move || rng.next_u64();
    let specials: [[u8; 4]; 6] = [
        0x7fff_ffffu32.to_le_bytes(),
        0x8000_0000u32.to_le_bytes(),
        u32::MAX.to_le_bytes(),
        f32::NAN.to_le_bytes(),
        f32::INFINITY.to_le_bytes(),
        (-1.0e30f32).to_le_bytes(),
    ];
    for (_, bytes) in inputs() {
        for _ in 0..200 {
            let mut m = bytes.clone();
            for _ in 0..1 + next() % 8 {
                let at = (next() % m.len() as u64) as usize;
                if next() % 2 == 0 {
                    m[at] = next() as u8;
                } else {
                    let word = specials[(next() % specials.len() as u64) as usize];
                    let end = (at + 4).min(m.len());
                    m[at..end].copy_from_slice(&word[..end - at]);
                }
            }
            let _ = exercise(&m, true);
        }
    }
}
