//! `bonescope convert --to skel`: every Spine JSON export of the corpus (3.8-4.3) written as a
//! binary export of its own version, read back by our binary reader and compared with the
//! JSON load (the twin comparison of `tests/common/twins.rs`: 0 differences; poses within
//! f32 storage), and read by the official runtime of its version (the oracle), whose poses
//! must equal the JSON golden. The slot colour fixtures (`tests/fixtures/skel-colors`) pin
//! the 4.x rgb / alpha / rgb2 timelines that no corpus `.skel` has.

use crate::common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bonescope::cli::poses::{self, PosesOptions};
use bonescope::core::animation::{ColorKind, Timeline, TwoColorKind};
use bonescope::core::model::SkeletonData;
use bonescope::format::spine_binary_writer;
use common::oracle::{dump, spine_oracle};
use common::twins::{Known, compare};
use common::*;
use serde_json::Value;

/// The versions whose binary the writer writes, with their number of JSON exports.
const VERSIONS: [(&str, usize); 5] = [
    ("3.8", 21),
    ("4.0", 21),
    ("4.1", 22),
    ("4.2", 26),
    ("4.3", 7),
];

/// Pose tolerance beyond the goldens' absolute [`TOL`]: relative to the value, as in
/// `spine_convert.rs`. A binary holds setup values as `f32` where the JSON runtimes keep
/// `f64`; chains of constraints carry that rounding to a few 1e-5 of a value (4.x
/// mix-and-match-pro's leg path: 36.3813 from JSON, 36.3824 from any `.skel`).
const RELATIVE: f64 = 1e-4;

pub(crate) fn load(bytes: &[u8], what: &str) -> SkeletonData {
    bonescope::format::load(bytes, "x").unwrap_or_else(|e| panic!("{what}: {e}"))
}

pub(crate) fn write(data: &SkeletonData, what: &str) -> Vec<u8> {
    spine_binary_writer::write(data).unwrap_or_else(|e| panic!("{what}: {e}"))
}

pub(crate) fn poses_json(data: &SkeletonData) -> Value {
    let options = PosesOptions {
        samples: 7,
        times: None,
        skins: vec![],
        animations: vec![],
    };
    poses::sample(Arc::new(data.clone()), "x".into(), options)
        .expect("sample")
        .to_json()
}

/// Counts numbers of `a` and `b` (same shape) further apart than [`TOL`] ([`APPLIED_TOL`]
/// in `applied` records) + [`RELATIVE`],
/// noting the first few paths; `skeleton` (file name, hash) is skipped.
pub(crate) fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) -> usize {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            // `applied` records amplify the world matrix's rounding (as for the goldens).
            let tol = if path.contains(".applied") {
                APPLIED_TOL
            } else {
                TOL
            };
            if (x - y).abs() > tol + RELATIVE * y.abs() {
                if out.len() < 6 {
                    out.push(format!("{path}: {x} != {y}"));
                }
                return 1;
            }
            0
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .map(|(i, (p, q))| differences(p, q, &format!("{path}[{i}]"), out))
            .sum(),
        (Value::Object(x), Value::Object(y)) if x.len() == y.len() => x
            .iter()
            .filter(|(k, _)| path.is_empty() && k.as_str() != "skeleton" || !path.is_empty())
            .map(|(k, p)| match y.get(k) {
                Some(q) => differences(p, q, &format!("{path}.{k}"), out),
                None => {
                    out.push(format!("{path}.{k}: missing"));
                    1
                }
            })
            .sum(),
        (x, y) if x == y => 0,
        _ => {
            out.push(format!("{path}: shapes differ"));
            1
        }
    }
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
            let skel = write(&from_json, &name);
            let back = match bonescope::format::load(&skel, "x") {
                Ok(d) => d,
                Err(e) => {
                    println!("FAIL {name}: the .skel does not load: {e}");
                    failures.push(name);
                    continue;
                }
            };
            let d = compare(&back, &from_json, Known::default());
            // A .skel converted to .skel again holds the same data.
            let again = load(&write(&back, &name), &name);
            let d2 = compare(&again, &back, Known::default());
            let mut lines = Vec::new();
            let poses = differences(&poses_json(&back), &poses_json(&from_json), "", &mut lines);
            if d.count == 0 && d2.count == 0 && poses == 0 {
                println!("ok   {name:<32} {:>7} values", d.compared);
            } else {
                println!(
                    "FAIL {name}: {} data differences, {} written again, {poses} pose differences\n      {}\n      {}",
                    d.count,
                    d2.count,
                    d.lines
                        .iter()
                        .chain(&d2.lines)
                        .cloned()
                        .collect::<Vec<_>>()
                        .join("\n      "),
                    lines.join("\n      ")
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

/// Spine 4.3 has no corpus `.skel`: every 4.3 JSON written as `.skel` and read by our
/// reader must pose as the official 4.3 golden of the JSON.
#[test]
fn converted_4_3_skel_passes_the_4_3_pose_goldens() {
    let Some(shared) = shared_dir("Spine 4.3 .skel pose goldens") else {
        return;
    };
    let dir = scratch("skel-writer-4.3-goldens");
    let files = spine_corpus_files(&shared, "4.3", "json");
    assert_eq!(files.len(), 7, "4.3: JSON exports");
    let mut failures = Vec::new();
    for json in &files {
        let stem = json.file_stem().unwrap().to_string_lossy().into_owned();
        let data = load(&std::fs::read(json).expect("read"), &stem);
        let skel = dir.join(format!("{stem}.skel"));
        std::fs::write(&skel, write(&data, &stem)).expect("write");
        let golden = shared.join(format!("golden/spine/4.3/{stem}.poses.json"));
        match common::golden_poses::check(&skel, &golden) {
            Ok(summary) => println!("ok   4.3/{stem}.skel {summary}"),
            Err(e) => {
                println!("FAIL 4.3/{stem}.skel: {e}");
                failures.push(stem);
            }
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// A 4.3 binary that does not read as the 4.3 runtimes' layout (here: cut short, or a byte
/// changed into an unknown constraint type) is refused at a byte offset, naming the version.
#[test]
fn a_4_3_binary_that_does_not_read_names_the_version_and_offset() {
    let Some(shared) = shared_dir("Spine 4.3 .skel refusals") else {
        return;
    };
    let json = shared.join("corpus/spine/4.3/vine-pro.json");
    let data = load(&std::fs::read(&json).expect("read"), "vine-pro");
    let skel = write(&data, "vine-pro");
    let cut = &skel[..skel.len() / 2];
    let e = bonescope::format::load(cut, "x").expect_err("half a file");
    let text = e.to_string();
    assert!(
        text.contains("4.3.44-beta") && text.contains("byte"),
        "{text}"
    );
    // The constraint type byte follows the one constraint's name, "vine-path" (also a slot's
    // name, written before it; animations name constraints by index).
    let name = b"\x0avine-path";
    let at = skel
        .windows(name.len())
        .rposition(|w| w == name)
        .expect("the path constraint's name")
        + name.len();
    assert_eq!(skel[at], 1, "a path constraint's type");
    let mut bad = skel.clone();
    bad[at] = 9;
    let e = bonescope::format::load(&bad, "x").expect_err("unknown constraint type");
    let text = e.to_string();
    assert!(
        text.contains("unknown constraint type 9") && text.contains(&format!("byte {at}")),
        "{text}"
    );
}

/// A fresh folder under the test target folder.
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Runs the official runtime of `version` over every `.skel` of `dir` (`dump.mjs all
/// --input skel`), then compares each `<name>.skel.poses.json` with `goldens/<name>.poses.json`.
/// Returns the failures.
fn official_poses(oracle: &Path, version: &str, dir: &Path, goldens: &Path) -> Vec<String> {
    let args = ["all", "--runtime", version, "--input", "skel", "--corpus"];
    let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    args.extend([dir.as_os_str(), "--out".as_ref(), dir.as_os_str()]);
    if let Err(e) = dump(oracle, &args) {
        return vec![format!("{version}: the official runtime failed: {e}")];
    }
    let mut failures = Vec::new();
    for skel in spine_files(dir, "skel") {
        let stem = skel.file_stem().unwrap().to_string_lossy().into_owned();
        let name = format!("{version}/{stem}.skel");
        let official = dir.join(format!("{stem}.skel.poses.json"));
        if !official.is_file() {
            failures.push(format!("{name}: the official runtime wrote no poses"));
            continue;
        }
        let golden = read_json(&goldens.join(format!("{stem}.poses.json")));
        let mut lines = Vec::new();
        let n = differences(&read_json(&official), &golden, "", &mut lines);
        if n == 0 {
            println!("ok   {name:<32} read by the official {version} runtime as the JSON golden");
        } else {
            println!(
                "FAIL {name}: {n} pose differences\n      {}",
                lines.join("\n      ")
            );
            failures.push(name);
        }
    }
    failures
}

/// The files of `dir` whose extension is `ext`, sorted.
pub(crate) fn spine_files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

#[test]
fn official_runtimes_read_every_converted_json_to_its_golden() {
    let Some(shared) = shared_dir("Spine JSON -> .skel, official runtimes") else {
        return;
    };
    let Some(oracle) = spine_oracle("Spine JSON -> .skel, official runtimes") else {
        return;
    };
    let mut failures = Vec::new();
    for (version, expected) in VERSIONS {
        let dir = scratch(&format!("skel-writer-{version}"));
        let files = spine_corpus_files(&shared, version, "json");
        assert_eq!(files.len(), expected, "{version}: JSON exports");
        for json in &files {
            let name = json.file_stem().unwrap().to_string_lossy().into_owned();
            let data = load(&std::fs::read(json).expect("read"), &name);
            std::fs::write(dir.join(format!("{name}.skel")), write(&data, &name)).expect("write");
        }
        let goldens = shared.join("golden/spine").join(version);
        failures.extend(official_poses(&oracle, version, &dir, &goldens));
    }
    assert!(
        failures.is_empty(),
        "{} files differ: {failures:?}",
        failures.len()
    );
}

/// The slot colour fixtures of `version`: (JSON, committed .skel, folder).
fn colour_fixture(version: &str) -> (PathBuf, PathBuf, PathBuf) {
    let dir = project_dir()
        .join("tests/fixtures/skel-colors")
        .join(version);
    (
        dir.join("slot-colors.json"),
        dir.join("slot-colors.skel"),
        dir,
    )
}

#[test]
fn rgb_alpha_rgb2_timelines_in_skel_4_0_to_4_2() {
    for version in ["4.0", "4.1", "4.2"] {
        let (json, skel, dir) = colour_fixture(version);
        // Our reader reads the bytes the official reader read (the committed golden).
        let data = load(
            &std::fs::read(&skel).expect("read"),
            &format!("{version} .skel"),
        );
        let kinds: Vec<String> = data.animations[0]
            .timelines
            .iter()
            .filter_map(|t| match t {
                Timeline::Color(c) => Some(format!("{:?}", c.kind)),
                Timeline::TwoColor(c) => Some(format!("{:?}", c.kind)),
                _ => None,
            })
            .collect();
        for k in [
            format!("{:?}", ColorKind::Rgb),
            format!("{:?}", ColorKind::Alpha),
            format!("{:?}", ColorKind::Rgba),
            format!("{:?}", TwoColorKind::Rgb2),
            format!("{:?}", TwoColorKind::Rgba2),
        ] {
            assert!(
                kinds.contains(&k),
                "{version}: no {k} timeline in {kinds:?}"
            );
        }
        for (file, golden) in [
            (&skel, "slot-colors.skel.poses.json"),
            (&json, "slot-colors.poses.json"),
        ] {
            let r = common::golden_poses::check(file, &dir.join(golden));
            assert!(r.is_ok(), "{version}: {}", r.unwrap_err());
        }
        // The official runtime read the JSON and the .skel to the same poses.
        let (a, b) = (
            read_json(&dir.join("slot-colors.skel.poses.json")),
            read_json(&dir.join("slot-colors.poses.json")),
        );
        let mut lines = Vec::new();
        assert_eq!(
            differences(&a, &b, "", &mut lines),
            0,
            "{version}: {lines:?}"
        );
        // The writer writes the JSON to bytes our reader reads to the same data.
        let from_json = load(&std::fs::read(&json).expect("read"), version);
        let back = load(&write(&from_json, version), version);
        let d = compare(&back, &from_json, Known::default());
        assert_eq!(d.count, 0, "{version}: {:?}", d.lines);
    }
}

/// The fixture families written by hand for the binary format: (folder, file stem).
const FIXTURES: [(&str, &str); 2] = [("skel-colors", "slot-colors"), ("skel-kinds", "kinds")];

#[test]
fn kinds_fixtures_convert_to_skel_that_poses_as_the_official_json() {
    for version in ["4.0", "4.1", "4.2", "4.3"] {
        let dir = project_dir()
            .join("tests/fixtures/skel-kinds")
            .join(version);
        let (json, golden) = (dir.join("kinds.json"), dir.join("kinds.poses.json"));
        // 4.2's point rotation is its runtime's degrees x degRad^2 (`PointRotationRule`,
        // `tests/fixtures/point-rotation`).
        let r = common::golden_poses::check(&json, &golden);
        assert!(r.is_ok(), "{version} JSON: {}", r.unwrap_err());
        let from_json = load(&std::fs::read(&json).expect("read"), version);
        let back = load(&write(&from_json, version), version);
        let d = compare(&back, &from_json, Known::default());
        assert_eq!(d.count, 0, "{version}: {:?}", d.lines);
        let mut lines = Vec::new();
        let n = differences(&poses_json(&back), &poses_json(&from_json), "", &mut lines);
        assert_eq!(n, 0, "{version}: {lines:?}");
    }
}

#[test]
fn official_runtimes_read_the_fixtures_converted() {
    let Some(oracle) = spine_oracle("Spine .skel fixtures, official runtimes") else {
        return;
    };
    let mut failures = Vec::new();
    for (family, stem) in FIXTURES {
        for version in ["4.0", "4.1", "4.2", "4.3"] {
            // The 4.3 colour timelines are in the kinds fixture.
            if (family, version) == ("skel-colors", "4.3") {
                continue;
            }
            let goldens = project_dir()
                .join("tests/fixtures")
                .join(family)
                .join(version);
            let dir = scratch(&format!("{family}-{version}"));
            let json = goldens.join(format!("{stem}.json"));
            let data = load(&std::fs::read(&json).expect("read"), version);
            std::fs::write(dir.join(format!("{stem}.skel")), write(&data, version)).expect("write");
            failures.extend(official_poses(&oracle, version, &dir, &goldens));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

/// 4.3 linked meshes whose parent mesh is under another slot (`tests/fixtures/spine43/
/// ik-volume-43.json`: `copy-quad` follows the parent's deform keys, `copy-quad2` does not):
/// the `.skel` carries the parent's slot on each linked mesh and, on the parent, the slots
/// that follow its timelines. Ours reads it back unchanged; the official 4.3 reader poses it as
/// the JSON golden.
#[test]
fn linked_meshes_under_another_slot_4_3() {
    let goldens = project_dir().join("tests/fixtures/spine43");
    let json = goldens.join("ik-volume-43.json");
    let data = load(&std::fs::read(&json).expect("read"), "4.3");
    let bytes = write(&data, "4.3");
    let back = load(&bytes, "4.3");
    let d = compare(&back, &data, Known::default());
    assert_eq!(d.count, 0, "{:?}", d.lines);
    let mut lines = Vec::new();
    let n = differences(&poses_json(&back), &poses_json(&data), "", &mut lines);
    assert_eq!(n, 0, "{lines:?}");
    let deform_slots = |d: &SkeletonData| {
        let mut slots: Vec<String> = d
            .animations
            .iter()
            .flat_map(|a| &a.timelines)
            .filter_map(|t| match t {
                bonescope::core::animation::Timeline::Deform(t) => {
                    Some(d.slots[t.slot].name.clone())
                }
                _ => None,
            })
            .collect();
        slots.sort();
        slots
    };
    assert_eq!(
        deform_slots(&back),
        ["base", "copy"],
        "the follower's deform keys are shared"
    );
    let Some(oracle) = spine_oracle("Spine 4.3 linked meshes under another slot") else {
        return;
    };
    let dir = scratch("linked-slot-4.3");
    std::fs::write(dir.join("ik-volume-43.skel"), bytes).expect("write");
    let failures = official_poses(&oracle, "4.3", &dir, &goldens);
    assert!(failures.is_empty(), "{failures:?}");
}

/// A 4.3 mesh's timeline slots (the slots of linked meshes under other slots that follow its
/// deform and sequence keys) must be those linked meshes' slots: bytes of the converted
/// `ik-volume-43` edited to say otherwise are refused at the list's byte offset, naming the
/// mesh and both lists; a follower whose source lists no slots is refused at the follower.
#[test]
fn a_4_3_mesh_whose_timeline_slots_disagree_is_refused_where_they_are() {
    let json = project_dir().join("tests/fixtures/spine43/ik-volume-43.json");
    let data = load(&std::fs::read(&json).expect("read"), "4.3");
    let skel = write(&data, "4.3");
    // Slots base (0), copy (1: its linked mesh follows "quad"), copy2 (2: does not). The mesh
    // "quad": triangles 0 1 2 2 3 0, then its timeline slots (count 1, slot 1), then no edges.
    let quad = [0u8, 1, 2, 2, 3, 0, 1, 1, 0];
    let found: Vec<usize> = skel
        .windows(quad.len())
        .enumerate()
        .filter(|(_, w)| *w == quad)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(found.len(), 1, "the mesh's triangles and timeline slots");
    let count_at = found[0] + 6;
    assert!(bonescope::format::load(&skel, "x").is_ok());
    // The list names copy2, whose linked mesh does not follow, and then the own slot.
    for (slot, named) in [(2u8, "[2]"), (0, "[0]")] {
        let mut bad = skel.clone();
        bad[count_at + 1] = slot;
        let text = bonescope::format::load(&bad, "x")
            .expect_err("timeline slots that disagree")
            .to_string();
        for part in [
            "Spine 4.3 mesh \"quad\"",
            &format!("timeline slots {named} where the linked meshes following it are under [1]"),
            &format!("byte {count_at}"),
        ] {
            assert!(text.contains(part), "{part:?} in {text}");
        }
    }
    // No timeline slots at all: the follower (`copy-quad` under `copy`) is refused.
    let mut bad = skel.clone();
    bad[count_at] = 0;
    bad.remove(count_at + 1);
    let text = bonescope::format::load(&bad, "x")
        .expect_err("a follower whose source lists no slots")
        .to_string();
    assert!(
        text.contains(
            "Spine 4.3 linked mesh \"copy-quad\" follows the timelines of \"quad\" under another slot, which lists no timeline slots"
        ) && text.contains("byte "),
        "{text}"
    );
}
