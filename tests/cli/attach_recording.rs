//! The attach protocol end to end through a file: a Node test game (`tests/attach/game.mjs`)
//! plays every shipped oracle scenario on the official runtimes (4.2.119, 4.3.13 and the
//! spine-ts 3.8 build, run as black boxes) with the spine-ts recorder attached; then
//! `bonescope session --recording` replays each recording: no divergence, and the game's
//! callbacks equal the golden's order. A listener's `setAnimation` from `complete` is
//! recorded and replayed; a stream with one callback altered is flagged at that frame.
//! Without node/npm or `../shared`: skipped locally, failing under CI=true.

use crate::common;

use common::oracle::spine_oracle;
use common::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the test game; the recordings land in `out/<scenario>.ndjson`.
fn play(
    oracle: &Path,
    runtime: &str,
    corpus: &Path,
    out: &Path,
    extra: &[&str],
    scenarios: &[PathBuf],
) {
    std::fs::create_dir_all(out).expect("recording folder");
    let o = Command::new("node")
        .arg(project().join("tests/attach/game.mjs"))
        .args(["--oracle".as_ref(), oracle.as_os_str()])
        .args(["--runtime", runtime])
        .args(["--corpus".as_ref(), corpus.as_os_str()])
        .arg("--to")
        .arg(format!("file:{}/", out.display()))
        .args(["--token", "test"])
        .args(extra)
        .args(scenarios)
        .output()
        .expect("run node");
    assert!(
        o.status.success(),
        "test game: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The game's callbacks of a recording, as the golden's fields.
fn recorded_callbacks(rec: &Path) -> Vec<(String, u64, u64, String, String)> {
    let text = std::fs::read_to_string(rec).expect("recording");
    let mut out = Vec::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).expect("a JSON line");
        if v["kind"] != "frame" {
            continue;
        }
        for item in v["items"].as_array().expect("items") {
            if item.get("callback").is_some() {
                out.push(fields(item, "callback", &item["event"]["name"]));
            }
        }
    }
    out
}

fn fields(v: &Value, kind: &str, event: &Value) -> (String, u64, u64, String, String) {
    (
        v[kind].as_str().unwrap_or("").to_string(),
        v["track"].as_u64().unwrap_or(0),
        v["entry"].as_u64().unwrap_or(0),
        v["animation"].as_str().unwrap_or("<empty>").to_string(),
        event.as_str().unwrap_or("").to_string(),
    )
}

fn golden_callbacks(out_json: &Path) -> Vec<(String, u64, u64, String, String)> {
    let v: Value = serde_json::from_slice(&std::fs::read(out_json).expect("golden")).expect("json");
    v["callbacks"]
        .as_array()
        .expect("callbacks")
        .iter()
        .map(|c| fields(c, "type", &c["event"]))
        .collect()
}

fn replay(rec: &Path) -> (i32, String, String) {
    bonescope(&["session", "--recording", &rec.to_string_lossy(), "--json"])
}

fn every_scenario(version: &str, runtime: &str) {
    let what = format!("attach recordings of the Spine {version} scenarios");
    let Some(shared) = shared_dir(&what) else {
        return;
    };
    let Some(oracle) = spine_oracle(&what) else {
        return;
    };
    let list = common::golden_scenarios::scenarios_with_golden(&shared, version);
    assert!(list.len() >= 20, "{version}: only {} scenarios", list.len());
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("attach-{version}"));
    let _ = std::fs::remove_dir_all(&out);
    play(
        &oracle,
        runtime,
        &shared.join("corpus/spine").join(version),
        &out,
        &[],
        &list,
    );
    for sc in &list {
        let name = sc.file_stem().expect("name").to_string_lossy().into_owned();
        let rec = out.join(format!("{name}.ndjson"));
        let (code, stdout, stderr) = replay(&rec);
        assert_eq!(
            code,
            0,
            "{version} {name}: {}\n{stderr}",
            stdout.lines().last().unwrap_or("")
        );
        assert!(stderr.is_empty(), "{version} {name}: {stderr}");
        let last: Value =
            serde_json::from_str(stdout.lines().last().expect("summary")).expect("json");
        assert_eq!(last["summary"]["verdict"], "same", "{version} {name}");
        assert_eq!(
            recorded_callbacks(&rec),
            golden_callbacks(&sc.with_extension("out.json")),
            "{version} {name}: the recorded callbacks are not the golden's"
        );
    }
}

#[test]
fn spine_42_scenarios_replay_without_divergence() {
    every_scenario("4.2", "4.2");
}

#[test]
fn spine_43_scenarios_replay_without_divergence() {
    every_scenario("4.3", "4.3");
}

#[test]
fn spine_38_scenarios_replay_without_divergence() {
    every_scenario("3.8", "3.8");
}

/// The scenario with a non-looping animation, recorded with a listener that starts `walk`
/// from `complete`; and the same recording with one callback altered.
/// `dir` is the caller's own folder: tests run in parallel and each clears its folder.
fn listener_recording(what: &str, dir: &str) -> Option<PathBuf> {
    let shared = shared_dir(what)?;
    let oracle = spine_oracle(what)?;
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(dir);
    let _ = std::fs::remove_dir_all(&out);
    let sc = shared.join("golden/spine/4.2/scenarios/spineboy-nonloop-complete.json");
    play(
        &oracle,
        "4.2",
        &shared.join("corpus/spine/4.2"),
        &out,
        &["--listener-test"],
        &[sc],
    );
    Some(out.join("spineboy-nonloop-complete.ndjson"))
}

#[test]
fn a_set_animation_from_a_complete_listener_is_recorded_and_replayed_in_order() {
    let Some(rec) = listener_recording(
        "attach: a listener's setAnimation",
        "attach-listener-nested",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&rec).expect("recording");
    // The nested call comes right after the complete callback it was made from.
    let frame = text
        .lines()
        .find(|l| l.contains("\"nested\":true"))
        .expect("a nested call was recorded");
    let v: Value = serde_json::from_str(frame).expect("json");
    let items = v["items"].as_array().expect("items");
    let at = items
        .iter()
        .position(|i| i["nested"] == true)
        .expect("nested");
    assert_eq!(items[at - 1]["callback"], "complete", "{frame}");
    assert_eq!(items[at]["call"], "setAnimation");
    assert_eq!(items[at]["animation"], "walk");
    // Its interrupt / start follow in the same frame.
    assert!(
        items[at + 1..]
            .iter()
            .any(|i| i["callback"] == "start" && i["animation"] == "walk")
    );
    let (code, stdout, stderr) = replay(&rec);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
}

#[test]
fn one_altered_callback_is_flagged_at_its_frame() {
    let Some(rec) = listener_recording("attach: an altered callback", "attach-listener-altered")
    else {
        return;
    };
    let text = std::fs::read_to_string(&rec).expect("recording");
    let (n, line) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("\"callback\":\"complete\""))
        .expect("a complete callback");
    let frame: Value = serde_json::from_str(line).expect("json");
    let altered: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            if i == n {
                l.replacen("\"callback\":\"complete\"", "\"callback\":\"end\"", 1)
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let bad = rec.with_file_name("altered.ndjson");
    std::fs::write(&bad, altered).expect("write");
    let (code, stdout, _) = bonescope(&[
        "session",
        "--recording",
        &bad.to_string_lossy(),
        "--json",
        "--skeleton",
        &shared_file("attach", "corpus/spine/4.2/spineboy-pro.json")
            .expect("corpus")
            .to_string_lossy(),
    ]);
    assert_eq!(code, 1, "{stdout}");
    let last: Value = serde_json::from_str(stdout.lines().last().expect("verdict")).expect("json");
    assert_eq!(last["verdict"], "differs");
    assert_eq!(last["frame"], frame["frame"]);
    let d = &last["divergence"];
    assert!(
        d["game"].as_str().expect("game").starts_with("end track 0"),
        "{d}"
    );
    assert!(
        d["bonescope"]
            .as_str()
            .expect("ours")
            .starts_with("complete track 0"),
        "{d}"
    );
    assert!(d["likelyCauses"].as_array().is_some_and(|c| !c.is_empty()));
}

#[test]
fn malformed_and_unknown_records_get_located_messages() {
    let Some(skel) = shared_file(
        "attach: malformed records",
        "corpus/spine/4.2/spineboy-pro.json",
    ) else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("attach-malformed");
    std::fs::create_dir_all(&dir).expect("dir");
    let rec = dir.join("bad.ndjson");
    std::fs::write(
        &rec,
        "{\"kind\":\"hello\",\"version\":1,\"runtime\":{\"name\":\"spine-ts\",\"version\":\"4.2.119\"}}\n\
         {\"kind\":\"telemetry\"}\n\
         {not json\n\
         {\"kind\":\"frame\",\"frame\":0,\"items\":[{\"call\":\"setAnimation\",\"track\":0,\"animation\":\"walk\",\"loop\":true,\"entry\":1},{\"callback\":\"start\",\"track\":0,\"entry\":1,\"animation\":\"walk\"}]}\n",
    )
    .expect("write");
    let (code, stdout, stderr) = bonescope(&[
        "session",
        &skel.to_string_lossy(),
        "--recording",
        &rec.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("line 2: unknown record kind \"telemetry\""),
        "{stderr}"
    );
    assert!(stderr.contains("line 3: not JSON"), "{stderr}");
}

// Issue 32: `session --recording` compared only the size with the hello's; the sha256 is
// compared too (a warning, as in the viewer: `attach::skeleton_differences`).
#[test]
fn the_hellos_size_and_sha256_are_both_checked() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("attach-hash");
    std::fs::create_dir_all(&dir).expect("dir");
    let skel = dir.join("lantern-keeper.json");
    std::fs::copy(project().join("samples/spine/lantern-keeper.json"), &skel).expect("copy");
    let size = std::fs::metadata(&skel).expect("meta").len();
    let rec = dir.join("hash.ndjson");
    let write = |skeleton: &str| {
        std::fs::write(
            &rec,
            format!(
                "{{\"kind\":\"hello\",\"version\":1,\"runtime\":{{\"name\":\"spine-ts\",\"version\":\"3.8.99\"}},\"skeleton\":{skeleton}}}\n\
                 {{\"kind\":\"frame\",\"frame\":0,\"items\":[{{\"call\":\"setAnimation\",\"track\":0,\"animation\":\"idle\",\"loop\":true,\"entry\":1}},{{\"callback\":\"start\",\"track\":0,\"entry\":1,\"animation\":\"idle\"}}]}}\n"
            ),
        )
        .expect("write");
    };
    let run = || bonescope(&["session", "--recording", &rec.to_string_lossy()]);
    // The same size, another hash: only the hash can tell.
    write(&format!(
        "{{\"path\":\"lantern-keeper.json\",\"size\":{size},\"sha256\":\"{}\"}}",
        "0".repeat(64)
    ));
    let (code, out, err) = run();
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        err.contains("warning") && err.contains("sha256") && err.contains("another version"),
        "{err}"
    );
    assert!(!err.contains("bytes, the game loaded"), "{err}");
    // Another size too: both said.
    write(&format!(
        "{{\"path\":\"lantern-keeper.json\",\"size\":{},\"sha256\":\"{}\"}}",
        size + 1,
        "0".repeat(64)
    ));
    let (_, _, err) = run();
    assert!(
        err.contains(&format!("has {size} bytes, the game loaded {}", size + 1)),
        "{err}"
    );
    assert!(err.contains("sha256"), "{err}");
    // Nothing named beyond the path: no warning.
    write("{\"path\":\"lantern-keeper.json\"}");
    let (code, _, err) = run();
    assert_eq!(code, 0, "{err}");
    assert!(
        !err.contains("sha256") && !err.contains("the game loaded"),
        "{err}"
    );
}
