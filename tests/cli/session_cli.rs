//! `bonescope session`: the viewer's session run from a script, as text and NDJSON.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn session(script: &str, extra: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .arg("session")
        .arg(root().join("samples/spine/lantern-keeper.json"))
        .arg("--script")
        .arg(root().join("tests/fixtures/session").join(script))
        .args(extra)
        .output()
        .expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn mix_then_set_text() {
    // The fixture mixes from idle, the first animation (the viewer opens on walk).
    let (code, out, err) = session("mix-then-set.txt", &["--animation", "idle"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("#2 walk 0.167/1.000s <- #1 idle 56%"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn two_sets_json_at_frames() {
    let (code, out, err) = session(
        "two-sets.txt",
        &["--animation", "idle", "--json", "--at", "18", "--at", "16"],
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("NDJSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["frame"], 18);
    assert_eq!(lines[1]["frame"], 16);
    // walk <- jump <- idle: the chain survives the replay to frame 18.
    let chain: Vec<&str> = lines[0]["tracks"][0]["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["animation"].as_str().expect("name"))
        .collect();
    assert_eq!(chain, ["walk", "jump", "idle"]);
    insta::assert_snapshot!(out);
}

#[test]
fn the_same_frame_reached_twice_reports_the_same() {
    let (_, a, _) = session("two-sets.txt", &["--json", "--at", "18"]);
    let (_, b, _) = session(
        "two-sets.txt",
        &["--json", "--at", "0", "--at", "40", "--at", "18"],
    );
    assert_eq!(Some(a.trim()), b.lines().nth(2));
}

#[test]
fn a_bad_line_is_located() {
    let (code, out, err) = session("typo.txt", &[]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("typo.txt:2: no animation \"wlak\""), "{err}");
}

/// Found by fuzzing: a script's `save` wrote files wherever the script said. Headless
/// scripts print their report and never write.
#[test]
fn scripts_never_write_files() {
    let dir = std::env::temp_dir().join(format!("bonescope-session-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let target = dir.join("log.ndjson");
    let script = dir.join("save.txt");
    std::fs::write(&script, format!("mix 0.2\nsave {}\n", target.display())).expect("script");
    let out = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .arg("session")
        .arg(root().join("samples/spine/lantern-keeper.json"))
        .arg("--script")
        .arg(&script)
        .output()
        .expect("run bonescope");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("save.txt:2:") && err.contains("prints its report"),
        "{err}"
    );
    assert!(!target.exists(), "the script wrote {}", target.display());
    let _ = std::fs::remove_dir_all(&dir);
}

fn session_stdin(args: &[&str], script: &str) -> (i32, String, String) {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .arg("session")
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run bonescope");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("write the script");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 28.3: a script logs what the same keys typed in the viewer log, so the session
/// opens where the viewer opens (a cycle, the dressing skins), and `--script -` reads stdin.
#[test]
fn the_session_opens_where_the_viewer_opens() {
    let sample = root().join("samples/spine/lantern-keeper.json");
    let sample = sample.to_str().expect("utf-8 path");
    let (code, out, err) = session_stdin(&[sample, "--script", "-", "--json"], "step 3\n");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(v["frame"], 3);
    assert_eq!(v["tracks"][0]["entries"][0]["animation"], "walk", "{out}");
    // Named choices win; unknown names list the choices.
    let (code, out, _) = session_stdin(&[sample, "--animation", "idle", "--json"], "");
    assert_eq!(code, 0);
    assert!(out.contains("\"animation\":\"idle\""), "{out}");
    let (code, _, err) = session_stdin(&[sample, "--animation", "fly"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("--animation: no animation \"fly\"; the animations are:"),
        "{err}"
    );
    // A bad line of a piped script is located on `-`.
    let (code, _, err) = session_stdin(&[sample, "--script", "-"], "step 1\nset 0 wlak\n");
    assert_eq!(code, 2);
    assert!(err.contains("-:2: no animation \"wlak\""), "{err}");
}

/// The viewer's choice of skins applies too (mix-and-match dresses the girl).
#[test]
fn the_session_opens_dressed_like_the_viewer() {
    let Some(file) = common::shared_file(
        "session opens dressed",
        "corpus/spine/4.2/mix-and-match-pro.json",
    ) else {
        return;
    };
    let file = file.to_str().expect("utf-8 path");
    let (code, out, err) = session_stdin(&[file, "--script", "-"], "step 2\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("  0: #1 walk "), "{out}");
    assert!(out.contains("skins: default + full-skins/girl\n"), "{out}");
    let (code, out, err) = session_stdin(&[file, "--skin", "skin-base", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert_eq!(v["skins"], serde_json::json!(["skin-base"]));
    let (code, _, err) = session_stdin(&[file, "--skin", "nope"], "");
    assert_eq!(code, 2);
    assert!(err.contains("--skin: no skin \"nope\""), "{err}");
}
