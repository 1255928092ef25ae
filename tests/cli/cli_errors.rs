//! The binary on bad input: exit status 2, one line on stderr naming the location, no panic,
//! nothing from the file printed raw.

use std::path::PathBuf;
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bonescope"))
}

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json")
}

/// Writes `bytes` to a fresh temp file and returns its path.
fn temp_file(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(format!("{name}.json"));
    std::fs::write(&p, bytes).expect("write");
    p
}

/// Runs `poses` on `bytes`; asserts exit 2 and a single-line error; returns the line.
fn poses_error(name: &str, bytes: &[u8]) -> String {
    let p = temp_file(name, bytes);
    let out = bin()
        .args(["poses", "--json"])
        .arg(&p)
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{name}: status {:?}, stderr {stderr}",
        out.status
    );
    assert!(out.stdout.is_empty(), "{name}: printed to stdout");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{name}: not one line: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{name}: {stderr}");
    assert!(
        !stderr.contains('\u{1b}'),
        "{name}: raw escape in {stderr:?}"
    );
    stderr
}

fn sample_text() -> String {
    std::fs::read_to_string(sample()).expect("sample")
}

#[test]
fn truncated_json() {
    let text = sample_text();
    let e = poses_error("truncated", &text.as_bytes()[..text.len() / 2]);
    assert!(e.contains("line "), "{e}");
}

#[test]
fn wrong_type() {
    let text = sample_text().replacen("\"length\": ", "\"length\": \"long\", \"_x\": ", 1);
    let e = poses_error("wrong-type", text.as_bytes());
    assert!(e.contains("line ") && e.contains("bones"), "{e}");
}

#[test]
fn dangling_bone_name() {
    let text = sample_text().replacen("\"parent\": \"root\"", "\"parent\": \"no-such-bone\"", 1);
    let e = poses_error("dangling", text.as_bytes());
    assert!(e.contains("no-such-bone") && e.contains("line "), "{e}");
}

#[test]
fn random_bytes() {
    let mut x: u64 = 0x9e3779b97f4a7c15;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    poses_error("random", &bytes);
}

#[test]
fn empty_file() {
    poses_error("empty", b"");
}

#[test]
fn escape_sequences_in_names_are_shown_escaped() {
    let text = sample_text().replacen(
        "\"parent\": \"root\"",
        "\"parent\": \"evil\\u001b[31m\\u202e\"",
        1,
    );
    let e = poses_error("escapes", text.as_bytes());
    assert!(e.contains("\\e[31m") && e.contains("\\u{202e}"), "{e}");
}

#[test]
fn missing_file() {
    let out = bin()
        .args(["poses", "/nonexistent/bonescope/x.json"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("x.json"));
}

#[test]
fn unknown_skin_and_animation() {
    for args in [["--skin", "nope"], ["--animation", "nope"]] {
        let out = bin()
            .arg("poses")
            .arg(sample())
            .args(args)
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2));
        let e = String::from_utf8_lossy(&out.stderr);
        assert!(e.contains("\"nope\""), "{e}");
    }
}

#[test]
fn poses_json_parses_and_has_the_contract_fields() {
    let out = bin()
        .args(["poses", "--json", "--samples", "4"])
        .arg(sample())
        .output()
        .expect("run");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    for k in ["bones", "slots", "inactiveBones", "setup", "animations"] {
        assert!(v.get(k).is_some(), "missing {k}");
    }
    let s = &v["animations"][0]["samples"][0];
    for k in [
        "time",
        "lastTime",
        "loop",
        "events",
        "bones",
        "slots",
        "drawOrder",
        "vertices",
        "points",
    ] {
        assert!(s.get(k).is_some(), "sample missing {k}");
    }
    assert_eq!(
        v["animations"][0]["samples"].as_array().map(Vec::len),
        Some(4 + 1 + 2)
    );
    assert_eq!(s["bones"][0].as_array().map(Vec::len), Some(13));
}

#[test]
fn poses_times_samples_exactly_those_times() {
    let out = bin()
        .args(["poses", "--json", "--times", "0,0.5,0.25"])
        .arg(sample())
        .output()
        .expect("run");
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let s = &v["animations"][0]["samples"];
    let times: Vec<f64> = s
        .as_array()
        .expect("samples")
        .iter()
        .map(|x| x["time"].as_f64().unwrap_or(-9.0))
        .collect();
    let last: Vec<f64> = s
        .as_array()
        .expect("samples")
        .iter()
        .map(|x| x["lastTime"].as_f64().unwrap_or(-9.0))
        .collect();
    assert_eq!(times, vec![0.0, 0.5, 0.25]);
    assert_eq!(last, vec![-1.0, 0.0, 0.5]);
}

#[test]
fn scenario_errors_name_the_step() {
    let dir = std::env::temp_dir().join(format!("bonescope-cli-{}-scn", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::copy(sample(), dir.join("lantern-keeper.json")).expect("copy");
    let cases = [
        (
            r#"{"skeleton":"lantern-keeper.json","steps":[{"op":"setAnimation","track":0,"animation":"walk"},{"op":"setAnimation","track":0,"animation":"nope"}]}"#,
            "step 1",
        ),
        (
            r#"{"skeleton":"lantern-keeper.json","steps":[{"op":"fly"}]}"#,
            "fly",
        ),
        (
            r#"{"skeleton":"lantern-keeper.json","steps":[{"op":"entry","alpha":0.5}]}"#,
            "step 0",
        ),
        (
            r#"{"skeleton":"lantern-keeper.json","steps":[{"op":"update","dt":0.1,"count":1000000000}]}"#,
            "frames",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = dir.join(format!("s{i}.json"));
        std::fs::write(&p, text).expect("write");
        let out = bin().arg("scenario").arg(&p).output().expect("run");
        let e = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {e}");
        assert!(e.contains(want), "{text}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    }
}

/// `bonescope poses FILE | head -1`: when the reader stops reading, the command ends quietly
/// with status 0, as command-line tools do (no "Broken pipe" message).
#[test]
fn a_reader_that_stops_reading_ends_the_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(["poses", "--json", "--samples", "200"])
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/samples/spine/lantern-keeper.json"
        ))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bonescope");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("read a line");
    assert!(!first.is_empty());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
