//! `bonescope poses --armature` on DragonBones files: the contract outside checks use (bone
//! records `[a, b, c, d, worldX, worldY, ...]` in the core's y-up convention), armature
//! selection errors, and located load errors.

use crate::common;

use common::bonescope;

use serde_json::Value;

const SAMPLE: &str = "samples/dragonbones/paper-crane.json";

#[test]
fn poses_of_a_chosen_armature_match_the_oracle_in_y_up() {
    let golden = common::read_json(
        &common::project_dir().join("tests/fixtures/dragonbones/paper-crane.golden.json"),
    );
    let arm = golden["armatures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "Lantern")
        .expect("Lantern in golden");
    let anim = &arm["animations"][0];
    let samples: Vec<&Value> = anim["samples"]
        .as_array()
        .unwrap()
        .iter()
        .step_by(7)
        .collect();
    let times: Vec<String> = samples.iter().map(|s| format!("{}", s["t"])).collect();
    let (code, out, err) = bonescope(&[
        "poses",
        SAMPLE,
        "--json",
        "--armature",
        "Lantern",
        "--animation",
        "swing",
        "--times",
        &times.join(","),
    ]);
    assert_eq!(code, 0, "{err}");
    let ours: Value = serde_json::from_str(&out).expect("json");
    let bone_names: Vec<&str> = ours["bones"]
        .as_array()
        .expect("bone names")
        .iter()
        .map(|b| b.as_str().unwrap())
        .collect();
    let got = ours["animations"][0]["samples"].as_array().unwrap();
    assert_eq!(got.len(), samples.len());
    let mut checked = 0;
    for (s, g) in got.iter().zip(&samples) {
        for (i, name) in bone_names.iter().enumerate() {
            let rec = &s["bones"][i];
            let m: Vec<f64> = g["bones"][name]["m"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            // y-down m = [a, b, c, d, tx, ty] is [a, -c, -b, d, tx, -ty] in y-up records.
            let want = [m[0], -m[2], -m[1], m[3], m[4], -m[5]];
            for k in 0..6 {
                let v = rec[k].as_f64().unwrap();
                assert!(
                    (v - want[k]).abs() <= 1e-3 * want[k].abs().max(1.0),
                    "t={} bone {name} [{k}]: ours {v}, oracle {}",
                    g["t"],
                    want[k]
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 6 * 3 * 5, "{checked}");
}

#[test]
fn unknown_armature_lists_the_real_ones() {
    let (code, _, err) = bonescope(&["poses", SAMPLE, "--armature", "Heron"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown armature \"Heron\" (the file has \"Crane\", \"Lantern\")"),
        "{err}"
    );
}

#[test]
fn malformed_files_say_where() {
    let dir = std::env::temp_dir().join(format!("bonescope-db-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "{\"version\": \"4.5\", \"armature\": [{\"name\": \"a\",\n \"bone\": [{\"name\": \"r\", \"transform\": {\"x\": [1]}}]}]}",
            "armature[0].bone[0].transform.x",
            "line 2",
        ),
        (
            "{\"version\": \"4.5\", \"armature\": [{\"name\": \"a\", \"bone\": [{\"name\": \"r\"}],\n \"slot\": [{\"name\": \"s\", \"parent\": \"r\"}],\n \"animation\": [{\"name\": \"x\", \"slot\": [{\"name\": \"ghost\"}]}]}]}",
            "armature[0].animation[0].slot[0].name",
            "line 3",
        ),
        (
            "{\"version\": \"3.0\", \"armature\": []}",
            "version",
            "unsupported DragonBones version 3.0",
        ),
        (
            "{\"version\": \"4.5\", \"armature\": [{\"name\": \"a\"",
            "",
            "EOF",
        ),
    ];
    for (i, (text, path, what)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{i}.json"));
        std::fs::write(&file, text).unwrap();
        let (code, out, err) = bonescope(&["poses", file.to_str().unwrap()]);
        assert_eq!(code, 2, "case {i}: {out}{err}");
        assert!(err.contains(path) && err.contains(what), "case {i}: {err}");
        assert_eq!(err.lines().count(), 1, "case {i}: one line: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn curves_list_the_chosen_armature() {
    let (code, out, err) = bonescope(&["curves", SAMPLE, "--json", "--armature", "Lantern"]);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).expect("json");
    let paths: Vec<&str> = v["curves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["path"].as_str().unwrap())
        .collect();
    assert!(paths.contains(&"swing/bone.cord.rotate.angle"), "{paths:?}");
    assert!(paths.iter().all(|p| p.starts_with("swing/")), "{paths:?}");
    let (code, _, err) = bonescope(&["curves", SAMPLE, "--armature", "Heron"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown armature \"Heron\""), "{err}");
}

/// `check` on the DragonBones 5.x corpus folder: every 5.0 / 5.5 JSON and `.dbbin` loads
/// (the README is skipped; lint warnings such as an empty animation are fine), each reported
/// with its format and version.
#[test]
fn check_reads_every_5x_json_and_dbbin() {
    let Some(shared) = common::shared_dir("check on DragonBones 5.x") else {
        return;
    };
    let dir = shared.join("corpus/dragonbones/5.x");
    let (code, out, err) = bonescope(&["check", dir.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{out}{err}");
    let v: Value = serde_json::from_str(&out).expect("check --json");
    let files = v["files"].as_array().expect("files");
    assert_eq!(files.len(), 24, "{out}");
    let binaries = files
        .iter()
        .filter(|f| f["file"].as_str().unwrap_or("").ends_with(".dbbin"))
        .inspect(|f| {
            let status = f["status"].as_str().unwrap_or("");
            assert!(matches!(status, "ok" | "findings"), "{f}");
            assert!(
                f["format"]
                    .as_str()
                    .unwrap_or("")
                    .starts_with("DragonBones 5."),
                "{f}"
            );
        })
        .count();
    assert_eq!(binaries, 3);
}

/// `diff` across DragonBones forms: a `.dbbin` and its exact JSON twin, and a `.dbbin` and
/// its `convert`ed JSON, are the same (exit 0); a moved bone in the converted JSON is a
/// difference (exit 1) named by the bone.
#[test]
fn diff_compares_dbbin_with_json() {
    let Some(shared) = common::shared_dir("diff on DragonBones .dbbin") else {
        return;
    };
    let bin = shared.join("corpus/dragonbones/5.x/5.5/starter_ske.dbbin");
    let twin = bin.with_extension("json");
    let (code, out, err) = bonescope(&["diff", bin.to_str().unwrap(), twin.to_str().unwrap()]);
    assert_eq!(code, 0, "twin: {out}{err}");
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("db-diff");
    std::fs::create_dir_all(&dir).unwrap();
    let conv = dir.join("starter.json");
    let (code, out, err) = bonescope(&[
        "convert",
        bin.to_str().unwrap(),
        "-o",
        conv.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "convert: {out}{err}");
    let (code, out, err) = bonescope(&["diff", bin.to_str().unwrap(), conv.to_str().unwrap()]);
    assert_eq!(code, 0, "converted: {out}{err}");
    let mut doc: Value = common::read_json(&conv);
    doc["armature"][0]["bone"][1]["transform"]["x"] = serde_json::json!(12345.0);
    let moved = dir.join("moved.json");
    std::fs::write(&moved, doc.to_string()).unwrap();
    let name = doc["armature"][0]["bone"][1]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let (code, out, err) = bonescope(&["diff", bin.to_str().unwrap(), moved.to_str().unwrap()]);
    assert_eq!(code, 1, "moved: {out}{err}");
    assert!(out.contains(&name), "{out}");
}
