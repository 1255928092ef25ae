//! Issue 28 point 2: `check` reports every finding of a JSON export, each at the line and
//! column of the user's file, its code from the error's kind; a file that does not read has
//! one finding; a file with very many refusals stops at the bound, saying so, in bounded time.

use crate::common;

use common::bonescope;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A scratch folder for this test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-every-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The project sample `sample`, edited as JSON by `edit`, written to `dir/name` (pretty).
#[allow(clippy::disallowed_methods)] // builds an input file, not output
fn edited(sample: &str, dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut v = common::read_json(&common::project_dir().join(sample));
    edit(&mut v);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec_pretty(&v).expect("json")).expect("write");
    path
}

/// Renames the member `old` of the object `map` to `new`.
fn rename(map: &mut Value, old: &str, new: &str) {
    let m = map.as_object_mut().expect("an object");
    let v = m.remove(old).unwrap_or_else(|| panic!("no member {old}"));
    m.insert(new.to_string(), v);
}

/// The `--json` report of one file: (exit status, its findings, its `incomplete` note).
fn check_json(file: &Path) -> (i32, Vec<Value>, Value) {
    let (code, out, err) = bonescope(&["check", "--json", file.to_str().expect("utf-8")]);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let f = &v["files"][0];
    (
        code,
        f["findings"].as_array().expect("findings").clone(),
        f["incomplete"].clone(),
    )
}

/// Asserts that `finding` is located at `name` in `text`: the value at its line and column is
/// the string `"name"`, or the value of a member keyed `"name"`.
fn assert_at(text: &str, finding: &Value, name: &str) {
    let line = finding["line"].as_u64().expect("line") as usize;
    let column = finding["column"].as_u64().expect("column") as usize;
    let start = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum::<usize>();
    let at = &text[start + column - 1..];
    let before = text[..start + column - 1].trim_end();
    let quoted = format!("\"{name}\"");
    assert!(
        at.starts_with(&quoted) || before.ends_with(&format!("{quoted}:")),
        "{finding} is not at {quoted}: line {line} reads {:?}",
        text[start..].lines().next()
    );
}

/// Checks `file`: exit 1, exactly the dangling `names` (any order in the file), each at its
/// place, in file order, with `dangling-reference` codes.
fn assert_every_dangling(file: &Path, names: &[&str]) -> Vec<Value> {
    let text = std::fs::read_to_string(file).expect("read");
    let (code, findings, incomplete) = check_json(file);
    assert_eq!(code, 1, "{findings:?}");
    assert_eq!(incomplete, Value::Null);
    let errors: Vec<&Value> = findings
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert_eq!(errors.len(), names.len(), "{errors:#?}");
    let mut lines: Vec<u64> = Vec::new();
    for name in names {
        let f = errors
            .iter()
            .find(|f| f["message"].as_str().is_some_and(|m| m.contains(name)))
            .unwrap_or_else(|| panic!("no finding for {name}: {errors:#?}"));
        assert_eq!(f["code"], "dangling-reference", "{f}");
        assert_at(&text, f, name);
        lines.push(f["line"].as_u64().expect("line"));
    }
    let in_order: Vec<u64> = errors.iter().map(|f| f["line"].as_u64().unwrap()).collect();
    assert!(in_order.is_sorted(), "{in_order:?}");
    errors.into_iter().cloned().collect()
}

#[test]
fn spine_4_2_every_refusal_at_its_place() {
    let dir = scratch("spine42");
    let file = edited("samples/spine/kite-fox-42.json", &dir, "four.json", |v| {
        v["slots"][0]["attachment"] = "ghost-att".into();
        v["animations"]["idle"]["events"][1]["name"] = "no-such-event".into();
        rename(
            &mut v["animations"]["walk"]["bones"],
            "lamp",
            "ghost-bone-1",
        );
        rename(&mut v["animations"]["hop"]["bones"], "head", "ghost-bone-2");
    });
    let errors = assert_every_dangling(
        &file,
        &["ghost-att", "no-such-event", "ghost-bone-1", "ghost-bone-2"],
    );
    // Paths are the user's file's.
    let paths: Vec<&str> = errors.iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"slots[0].attachment"), "{paths:?}");
    assert!(
        paths.contains(&"animations.idle.events[1].name"),
        "{paths:?}"
    );
    // Text and SARIF list them all too.
    let (code, out, _) = bonescope(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(
        out.matches("error[dangling-reference] line ").count(),
        4,
        "{out}"
    );
    let (_, out, _) = bonescope(&["check", "--format", "sarif", file.to_str().unwrap()]);
    let sarif: Value = serde_json::from_str(&out).expect("sarif");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(
        results
            .iter()
            .filter(|r| r["ruleId"] == "dangling-reference")
            .count(),
        4
    );
    let lines: Vec<u64> = results
        .iter()
        .filter_map(|r| r["locations"][0]["physicalLocation"]["region"]["startLine"].as_u64())
        .collect();
    let json_lines: Vec<u64> = errors.iter().map(|f| f["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, json_lines);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn spine_3_8_every_refusal_at_its_place() {
    let dir = scratch("spine38");
    let file = edited(
        "samples/spine/lantern-keeper.json",
        &dir,
        "three.json",
        |v| {
            v["slots"][0]["attachment"] = "ghost-att".into();
            v["animations"]["jump"]["events"][0]["name"] = "no-such-event".into();
            let walk = &mut v["animations"]["walk"]["bones"];
            let first = walk.as_object().unwrap().keys().next().unwrap().clone();
            rename(walk, &first, "ghost-bone-1");
            let wave = &mut v["animations"]["wave"]["bones"];
            let first = wave.as_object().unwrap().keys().next().unwrap().clone();
            rename(wave, &first, "ghost-bone-2");
        },
    );
    assert_every_dangling(
        &file,
        &["ghost-att", "no-such-event", "ghost-bone-1", "ghost-bone-2"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn dragonbones_every_refusal_at_its_place() {
    let dir = scratch("dragonbones");
    let file = edited(
        "samples/dragonbones/paper-crane.json",
        &dir,
        "db.json",
        |v| {
            let a = &mut v["armature"][0];
            a["bone"][3]["parent"] = "ghost-parent".into();
            a["animation"][0]["bone"][0]["name"] = "ghost-bone-1".into();
            a["animation"][0]["slot"][0]["name"] = "ghost-slot".into();
            a["animation"][1]["bone"][1]["name"] = "ghost-bone-2".into();
        },
    );
    assert_every_dangling(
        &file,
        &["ghost-parent", "ghost-bone-1", "ghost-slot", "ghost-bone-2"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Names that read like other kinds' words: every one is a dangling reference (exit 1, not
/// unreadable), and a bone left out for its dangling parent does not make its children
/// dangle.
#[test]
fn misleading_names_keep_their_kind() {
    let dir = scratch("misleading");
    let file = edited("samples/spine/kite-fox-42.json", &dir, "names.json", |v| {
        let bones = v["bones"].as_array_mut().unwrap();
        let parent = bones[2]["name"].as_str().unwrap().to_string();
        bones[2]["parent"] = "duplicate-arm".into();
        assert!(bones.iter().any(|b| b["parent"] == parent.as_str()));
        rename(
            &mut v["animations"]["walk"]["bones"],
            "lamp",
            "unsupported-arm",
        );
        rename(
            &mut v["animations"]["hop"]["bones"],
            "head",
            "not supported NaN",
        );
    });
    assert_every_dangling(
        &file,
        &["duplicate-arm", "unsupported-arm", "not supported NaN"],
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_syntax_error_is_one_finding() {
    let dir = scratch("syntax");
    let sample =
        std::fs::read_to_string(common::project_dir().join("samples/spine/kite-fox-42.json"))
            .expect("sample");
    let file = dir.join("half.json");
    // Half a file: also its dangling references further on cannot be looked for.
    std::fs::write(&file, &sample[..sample.len() / 2]).expect("write");
    let (code, findings, incomplete) = check_json(&file);
    assert_eq!(code, 2, "{findings:?}");
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(incomplete, Value::Null);
    std::fs::remove_dir_all(&dir).ok();
}

/// 1000 dangling bones: 100 findings, then a note; the time stays bounded (each finding is
/// one more load of the file, and the reloads are bounded in bytes too).
#[test]
fn a_thousand_refusals_stop_at_the_bound() {
    let dir = scratch("thousand");
    let file = edited("samples/spine/kite-fox-42.json", &dir, "many.json", |v| {
        let timelines: serde_json::Map<String, Value> = (0..1000)
            .map(|i| (format!("ghost-{i:04}"), json!({"rotate": [{"value": i}]})))
            .collect();
        v["animations"]["many"] = json!({"bones": timelines});
    });
    let started = std::time::Instant::now();
    let (code, findings, incomplete) = check_json(&file);
    let took = started.elapsed();
    assert_eq!(code, 1);
    assert_eq!(findings.len(), 100, "{findings:?}");
    assert!(findings.iter().all(|f| f["code"] == "dangling-reference"));
    assert!(
        incomplete
            .as_str()
            .is_some_and(|s| s.starts_with("stopped after 100 findings")),
        "{incomplete}"
    );
    let (_, out, _) = bonescope(&["check", file.to_str().unwrap()]);
    assert!(out.contains(": note: stopped after 100 findings"), "{out}");
    // About 0.5 s on a loaded 2-core machine; far below what a quadratic search would take.
    assert!(took.as_secs() < 30, "{took:?}");
    std::fs::remove_dir_all(&dir).ok();
}
