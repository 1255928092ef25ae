//! The malformed and suspicious MRTK files of `../shared/corpus/mrtk/invalid` behave as
//! `golden/mrtk/invalid_expectations.json` says: rejected files fail with the expected error
//! kind at the expected byte offset; suspicious files load with a warning of the expected kind
//! at the expected offset (and the same warnings as the reference reader).

use crate::common;

use bonescope::format::{LoadError, Location, mrtk};
use serde_json::Value;

/// The kind code at the start of one of our warning messages (`"unsorted_keys: ..."`).
fn kind_of(message: &str) -> &str {
    message.split(':').next().unwrap_or("")
}

/// The kind code inside a reference-reader warning (`"path: kind: detail"` or `"kind: ..."`).
fn reference_kind(message: &str) -> &str {
    message
        .split(": ")
        .find(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .unwrap_or("")
}

/// Checks one expectation; returns a failure description.
fn check(shared: &std::path::Path, exp: &Value) -> Result<String, String> {
    let rel = exp["file"].as_str().ok_or("no file")?;
    let bytes = std::fs::read(shared.join(rel)).map_err(|e| format!("{rel}: {e}"))?;
    if bytes.len() as u64 != exp["file_size"].as_u64().unwrap_or(0) {
        return Err(format!("{rel}: size differs from the expectation"));
    }
    let accepted: Vec<&str> = exp["accepted_error_kinds"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let offset = exp["offset"].as_u64().ok_or("no offset")?;
    let reference = &exp["reference_reader"];
    match (exp["category"].as_str(), mrtk::read(&bytes)) {
        (Some("reject"), Err(e)) => {
            let kind = e.kind.code();
            if !accepted.contains(&kind) {
                return Err(format!("{rel}: {kind} not in {accepted:?} ({e})"));
            }
            // The expectation's offset, or for a length-checking reader the count's offset.
            let allowed = [Some(offset), exp["count_offset"].as_u64()];
            if !allowed.contains(&Some(e.offset)) {
                return Err(format!(
                    "{rel}: error at byte {}, expected {offset}",
                    e.offset
                ));
            }
            // Same as the reference reader, which checks counts the same way.
            if reference["error"].as_str() != Some(kind)
                || reference["offset"].as_u64() != Some(e.offset)
            {
                return Err(format!("{rel}: {e} differs from the reference {reference}"));
            }
            // The LoadError carries the same offset.
            let le = LoadError::from(e.clone());
            if le.location != Some(Location::Byte { offset: e.offset }) {
                return Err(format!("{rel}: LoadError location {:?}", le.location));
            }
            Ok(format!("{rel}: rejected, {kind} at byte {}", e.offset))
        }
        (Some("warn"), Ok(rec)) => {
            let hit = rec
                .warnings
                .iter()
                .find(|(at, m)| *at == offset && accepted.contains(&kind_of(m)));
            let Some((_, m)) = hit else {
                return Err(format!(
                    "{rel}: no {accepted:?} warning at byte {offset}: {:?}",
                    rec.warnings
                ));
            };
            let mut ours: Vec<&str> = rec.warnings.iter().map(|(_, m)| kind_of(m)).collect();
            let mut theirs: Vec<&str> = reference["warnings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(reference_kind)
                .collect();
            ours.sort_unstable();
            theirs.sort_unstable();
            if ours != theirs {
                return Err(format!("{rel}: warnings {ours:?}, reference {theirs:?}"));
            }
            if let Some(rows) = exp["evaluation_after_sort"].as_array() {
                let c = rec
                    .curve("camera.position.x")
                    .ok_or("no camera.position.x")?;
                for row in rows {
                    let (t, v) = (
                        row[0].as_f64().unwrap_or(0.0),
                        row[1].as_f64().unwrap_or(0.0),
                    );
                    let ours = c.value(t);
                    if (ours - v).abs() > 1e-5 * v.abs().max(1.0) {
                        return Err(format!("{rel}: after sorting, {t} -> {ours}, expected {v}"));
                    }
                }
            }
            Ok(format!("{rel}: loads, warning at byte {offset}: {m}"))
        }
        (category, Ok(_)) => Err(format!("{rel}: loaded, expected {category:?}")),
        (category, Err(e)) => Err(format!("{rel}: {e}, expected {category:?}")),
    }
}

#[test]
fn every_invalid_file_behaves_as_expected() {
    let Some(shared) = common::shared_dir("MRTK invalid files") else {
        return;
    };
    let exp = common::read_json(&shared.join("golden/mrtk/invalid_expectations.json"));
    let files = exp["files"].as_array().expect("files");
    assert_eq!(files.len(), 23);
    let mut failures = Vec::new();
    for f in files {
        match check(&shared, f) {
            Ok(line) => println!("ok   {line}"),
            Err(line) => {
                println!("FAIL {line}");
                failures.push(line);
            }
        }
    }
    println!(
        "{} files: {} as expected",
        files.len(),
        files.len() - failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_file_in_the_folder_has_an_expectation() {
    let Some(shared) = common::shared_dir("MRTK invalid files") else {
        return;
    };
    let exp = common::read_json(&shared.join("golden/mrtk/invalid_expectations.json"));
    let listed: Vec<&str> = exp["files"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|f| f["file"].as_str())
        .collect();
    for entry in std::fs::read_dir(shared.join("corpus/mrtk/invalid")).expect("invalid/") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".bin") {
            let rel = format!("corpus/mrtk/invalid/{name}");
            assert!(listed.contains(&rel.as_str()), "{rel} has no expectation");
        }
    }
}
