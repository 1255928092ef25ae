//! `bonescope convert --to json` of Spine 4.3 data (a 4.3 `.skel`, or 4.3 JSON again): the
//! one `constraints` list, sliders and their timelines, draw-order folders, linked meshes
//! under another slot. Every 4.3 corpus JSON is written as `.skel`, read back, written as JSON
//! and read again: our reader finds the same data (the twin comparison: 0 differences) and
//! poses; the official 4.3 reader (spine-core 4.3.13, the oracle) poses the JSON as the
//! golden of the source. The 4.3 fixtures with goldens go through JSON -> JSON (their slider
//! times and colours need more than the `f32` and byte precision of a `.skel`) and the ones
//! written for the binary format through `.skel` -> JSON as well.

use crate::common;

use std::path::{Path, PathBuf};

use super::spine_skel_writer::{differences, load, poses_json, scratch, spine_files, write};
use bonescope::core::model::SkeletonData;
use bonescope::format::spine_json_writer;
use common::oracle::{dump, spine_oracle};
use common::twins::{Known, compare};
use common::*;

/// The 4.3 JSON text of `data`.
fn json_text(data: &SkeletonData, what: &str) -> String {
    spine_json_writer::write(data).unwrap_or_else(|e| panic!("{what}: {e}"))
}

/// A 4.3 file to write, with its golden (the official 4.3 runtime's poses of the source).
struct Case {
    source: PathBuf,
    golden: PathBuf,
    /// Through `.skel` first (`.skel` -> JSON), or JSON -> JSON.
    via_skel: bool,
}

impl Case {
    fn stem(&self) -> String {
        self.source
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned()
    }
}

/// The fixtures of `tests/fixtures` with 4.3 goldens.
fn fixture_cases() -> Vec<Case> {
    let fixtures = project_dir().join("tests/fixtures");
    let spec = fixtures.join("spine43/spec");
    let mut cases: Vec<Case> = spine_files(&spec, "json")
        .into_iter()
        .filter(|f| !f.to_string_lossy().ends_with(".poses.json"))
        .map(|source| Case {
            golden: source.with_extension("poses.json"),
            source,
            via_skel: false,
        })
        .collect();
    // Written for the binary format: every attachment and timeline kind, sliders and
    // folders (`skel-kinds`), linked meshes under another slot (`ik-volume-43`).
    for (dir, stem) in [
        (fixtures.join("skel-kinds/4.3"), "kinds"),
        (fixtures.join("spine43"), "ik-volume-43"),
        (fixtures.join("spine43"), "ik-rules-43"),
    ] {
        cases.push(Case {
            source: dir.join(format!("{stem}.json")),
            golden: dir.join(format!("{stem}.poses.json")),
            via_skel: true,
        });
    }
    assert!(cases.len() >= 10, "4.3 fixtures: {}", cases.len());
    cases
}

/// Every 4.3 corpus JSON (through `.skel`) with its golden in `shared/golden/spine/4.3`.
fn corpus_cases(shared: &Path) -> Vec<Case> {
    let files = spine_corpus_files(shared, "4.3", "json");
    assert_eq!(files.len(), 7, "4.3: JSON exports");
    files
        .into_iter()
        .map(|source| {
            let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
            Case {
                golden: shared.join(format!("golden/spine/4.3/{stem}.poses.json")),
                source,
                via_skel: true,
            }
        })
        .collect()
}

/// Writes `case` as 4.3 JSON into `dir` (`<stem>.json`) and checks it with our reader: the
/// same data as what it was written from (and, through `.skel`, as the source JSON), the same
/// poses, and the golden. Returns the failure, if any.
fn write_and_check(case: &Case, dir: &Path) -> Result<(), String> {
    let stem = case.stem();
    let from_json = load(&std::fs::read(&case.source).expect("read"), &stem);
    let written_from = if case.via_skel {
        load(&write(&from_json, &stem), &stem)
    } else {
        from_json.clone()
    };
    let text = json_text(&written_from, &stem);
    let out = dir.join(format!("{stem}.json"));
    std::fs::write(&out, &text).expect("write");
    let back = bonescope::format::load(text.as_bytes(), "x")
        .map_err(|e| format!("{stem}: the written JSON does not load: {e}"))?;
    let mut problems = Vec::new();
    for (what, other) in [
        ("the data written", &written_from),
        ("the source", &from_json),
    ] {
        let d = compare(&back, other, Known::default());
        if d.count != 0 {
            problems.push(format!(
                "{} data differences from {what}: {:?}",
                d.count, d.lines
            ));
        }
    }
    let mut lines = Vec::new();
    let n = differences(
        &poses_json(&back),
        &poses_json(&written_from),
        "",
        &mut lines,
    );
    if n != 0 {
        problems.push(format!("{n} pose differences: {lines:?}"));
    }
    if let Err(e) = common::golden_poses::check(&out, &case.golden) {
        problems.push(format!("golden: {e}"));
    }
    if problems.is_empty() {
        // Written again and read, the data is still the same (nothing drifts; the text may:
        // beziers are solved back from sampled tables).
        let again = bonescope::format::load(json_text(&back, &stem).as_bytes(), "x")
            .map_err(|e| format!("{stem}: written again, the JSON does not load: {e}"))?;
        let d = compare(&again, &back, Known::default());
        if d.count != 0 {
            problems.push(format!(
                "written again: {} data differences: {:?}",
                d.count, d.lines
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("{stem}: {}", problems.join("; ")))
    }
}

fn check_all(cases: &[Case], dir: &Path) -> Vec<String> {
    let mut failures = Vec::new();
    for case in cases {
        match write_and_check(case, dir) {
            Ok(()) => println!("ok   {} (via .skel: {})", case.stem(), case.via_skel),
            Err(e) => {
                println!("FAIL {e}");
                failures.push(e);
            }
        }
    }
    failures
}

#[test]
fn fixtures_4_3_written_as_json_read_back_the_same() {
    let dir = scratch("json-writer-4.3-fixtures");
    let failures = check_all(&fixture_cases(), &dir);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn corpus_4_3_skel_written_as_json_reads_back_the_same() {
    let Some(shared) = shared_dir("Spine 4.3 .skel -> JSON") else {
        return;
    };
    let dir = scratch("json-writer-4.3-corpus");
    let failures = check_all(&corpus_cases(&shared), &dir);
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The official 4.3 reader loads every JSON written (corpus through `.skel`, the fixtures)
/// and poses it as the golden of the source.
#[test]
fn official_4_3_runtime_reads_the_written_json_to_the_goldens() {
    let Some(shared) = shared_dir("Spine 4.3 JSON written, official 4.3 runtime") else {
        return;
    };
    let Some(oracle) = spine_oracle("Spine 4.3 JSON written, official 4.3 runtime") else {
        return;
    };
    let dir = scratch("json-writer-4.3-official");
    let official = dir.join("official");
    std::fs::create_dir_all(&official).expect("folder");
    let mut cases = corpus_cases(&shared);
    cases.extend(fixture_cases());
    for case in &cases {
        let stem = case.stem();
        let data = load(&std::fs::read(&case.source).expect("read"), &stem);
        let data = if case.via_skel {
            load(&write(&data, &stem), &stem)
        } else {
            data
        };
        std::fs::write(dir.join(format!("{stem}.json")), json_text(&data, &stem)).expect("write");
    }
    let args = ["all", "--runtime", "4.3", "--corpus"];
    let mut args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_ref()).collect();
    args.extend([dir.as_os_str(), "--out".as_ref(), official.as_os_str()]);
    dump(&oracle, &args).unwrap_or_else(|e| panic!("the official 4.3 runtime: {e}"));
    let mut failures = Vec::new();
    for case in &cases {
        let stem = case.stem();
        let poses = official.join(format!("{stem}.poses.json"));
        if !poses.is_file() {
            failures.push(format!("{stem}: the official runtime wrote no poses"));
            continue;
        }
        let mut lines = Vec::new();
        let n = differences(&read_json(&poses), &read_json(&case.golden), "", &mut lines);
        if n == 0 {
            println!("ok   {stem:<24} read by the official 4.3 runtime as the golden");
        } else {
            println!(
                "FAIL {stem}: {n} pose differences\n      {}",
                lines.join("\n      ")
            );
            failures.push(stem);
        }
    }
    assert!(
        failures.is_empty(),
        "{} files differ: {failures:?}",
        failures.len()
    );
    assert_eq!(
        spine_files(&official, "json").len(),
        cases.len(),
        "one pose file per JSON written"
    );
}
