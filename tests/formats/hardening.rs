//! Regressions of issue 17: each reproducer (in `tests/regressions/` or built here) once
//! crashed, hung, exhausted memory or put raw control characters on the terminal.

use crate::common;

use bonescope::core::animation::EventTimeline;
use bonescope::core::model::Event;
use serde_json::Value;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::run_with_deadline as run;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bonescope"))
}

fn regression(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/regressions")
        .join(name)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bonescope-hard-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

/// Asserts a clean failure: status 2, one sanitized line on stderr containing `needle`.
fn assert_refused(args: &[&std::ffi::OsStr], needle: &str) {
    let (code, stdout, stderr) = run(args);
    assert_eq!(code, Some(2), "{args:?}: {stderr}");
    assert!(stdout.is_empty(), "{args:?} printed to stdout");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
}

// Row 1: frameRate 1e-300 made key times infinite and EventTimeline::fire recurse forever.
#[test]
fn dragonbones_tiny_frame_rate_with_events_is_refused() {
    let f = regression("db-framerate-1e-300-events.json");
    assert_refused(
        &[os("poses"), os("--json"), f.as_os_str()],
        "(armature[0].frameRate): frame rate 1e-300 is out of range",
    );
}

#[test]
fn event_timeline_with_infinite_or_nan_times_fires_without_recursing() {
    let ev = |data| Event {
        data,
        time: 0.0,
        int: 0,
        float: 0.0,
        string: String::new(),
        volume: 1.0,
        balance: 0.0,
    };
    let t = EventTimeline {
        times: vec![0.0, f32::INFINITY],
        events: vec![ev(0), ev(1)],
    };
    let mut out = Vec::new();
    // A wrapped window whose start is infinite: what the 1e-300 file produced.
    t.fire(f64::INFINITY, 0.5, &mut out);
    assert_eq!(out.len(), 1, "only the key at 0 is in (-1, 0.5]");
    out.clear();
    t.fire(f64::NAN, 0.5, &mut out);
    t.fire(0.0, f64::NAN, &mut out);
    assert!(out.is_empty());
    t.fire(-1.0, f64::INFINITY, &mut out);
    assert_eq!(out.len(), 2);
}

// Row 2: frameRate 5e-324 gave NaN times, discrete_key returned usize::MAX.
#[test]
fn dragonbones_denormal_frame_rate_with_display_frames_is_refused() {
    let f = regression("db-framerate-5e-324-display.json");
    assert_refused(
        &[os("poses"), os("--json"), f.as_os_str()],
        "frame rate 5e-324 is out of range",
    );
}

#[test]
fn discrete_key_lookup_refuses_nan() {
    use bonescope::core::animation::discrete_key;
    assert_eq!(discrete_key(&[0.0, 1.0], f64::NAN), None);
    assert_eq!(discrete_key(&[0.0, f32::INFINITY], f64::NAN), None);
    assert_eq!(discrete_key(&[0.0, 1.0], f64::INFINITY), Some(1));
    assert_eq!(discrete_key(&[0.0, 1.0], f64::NEG_INFINITY), None);
}

// Row 3: a weight influence count of 2^63 overflowed `i + 1 + 2 * count`.
#[test]
fn dragonbones_absurd_weight_count_is_a_located_error() {
    let f = regression("db-mesh-weight-count-2e63.json");
    assert_refused(
        &[os("poses"), f.as_os_str()],
        ".weights[0]): bad influence count 9223372036854776000 for vertex 0",
    );
}

// Row 4: dt or timeScale 1e308 made times infinite, then NaN.
#[test]
fn scenario_huge_dt_or_time_scale_is_refused() {
    for (file, what) in [
        (
            "scenario-dt-1e308.json",
            "step 1: dt 1e308 is not a finite number",
        ),
        (
            "scenario-timescale-1e308.json",
            "step 1: timeScale 1e308 is not a finite number",
        ),
    ] {
        let f = regression(file);
        assert_refused(&[os("scenario"), os("--json"), f.as_os_str()], what);
    }
}

// Row 5: one display name repeated thousands of times in a slot took cubic time.
#[test]
fn dragonbones_repeated_display_names_get_distinct_keys() {
    let n = 4000;
    let displays: Vec<String> = (0..n).map(|_| r#"{"name": "x"}"#.to_string()).collect();
    let text = format!(
        r#"{{"name": "t", "version": "4.5", "frameRate": 24, "armature": [{{"name": "a",
          "bone": [{{"name": "root"}}], "slot": [{{"name": "s", "parent": "root", "displayIndex": {}}}],
          "skin": [{{"name": "", "slot": [{{"name": "s", "display": [{}, {{"name": "x#3"}}]}}]}}]}}]}}"#,
        n - 1,
        displays.join(",")
    );
    let data = bonescope::format::load(text.as_bytes(), "t").expect("loads");
    let skin = &data.skins[0];
    let keys: Vec<&str> = skin
        .slot_entries(0)
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(keys.len(), n + 1);
    assert_eq!((keys[0], keys[1], keys[2]), ("x", "x#2", "x#3"));
    assert_eq!(keys[n - 1], format!("x#{n}"));
    // The literal "x#3" after them does not collide with the generated one.
    assert_eq!(keys[n], "x#3#2");
    let unique: std::collections::HashSet<&str> = keys.iter().copied().collect();
    assert_eq!(unique.len(), keys.len());
    assert_eq!(
        data.slots[0].attachment.as_deref(),
        Some(&*format!("x#{n}"))
    );
}

/// Runs the binary to completion, draining stdout, and returns (status, bytes written,
/// peak resident memory in kB: `common::peak_memory_with`).
#[cfg(target_os = "linux")]
fn peak_memory(args: &[&std::ffi::OsStr]) -> (Option<i32>, u64, u64) {
    let (status, bytes, _stderr, peak) = common::peak_memory_with(args, &[]);
    (status, bytes, peak)
}

/// The 86 KB Spine file of row 6: 2,000 bones and 2,000 empty animations.
fn wide_file(dir: &Path) -> PathBuf {
    let mut bones = vec![r#"{"name":"root"}"#.to_string()];
    bones.extend((1..2000).map(|i| format!(r#"{{"name":"b{i}","parent":"root"}}"#)));
    let anims: Vec<String> = (0..2000).map(|i| format!(r#""a{i}":{{}}"#)).collect();
    let text = format!(
        r#"{{"skeleton":{{"spine":"3.8.99"}},"bones":[{}],"animations":{{{}}}}}"#,
        bones.join(","),
        anims.join(",")
    );
    assert!((80_000..90_000).contains(&text.len()), "{}", text.len());
    let p = dir.join("wide.json");
    std::fs::write(&p, text).expect("write");
    p
}

// Row 6: `poses --json` on the 86 KB file built ~12 GB in memory.
#[cfg(target_os = "linux")]
#[test]
fn poses_json_on_the_wide_file_streams_in_bounded_memory() {
    let dir = temp_dir("wide");
    let f = wide_file(&dir);
    let (code, bytes, peak_kb) = peak_memory(&[os("poses"), os("--json"), f.as_os_str()]);
    assert_eq!(code, Some(0));
    // 2,000 animations x 2,000 bones: far more output than the peak memory.
    assert!(bytes > 200_000_000, "{bytes} bytes");
    assert!(peak_kb > 0, "VmHWM was never read");
    assert!(
        peak_kb < 200 * 1024,
        "peak {peak_kb} kB for {bytes} bytes of output"
    );
    let (code, bytes, peak_kb) = peak_memory(&[os("poses"), f.as_os_str()]);
    assert_eq!(code, Some(0));
    assert!(bytes > 100_000_000, "{bytes} bytes");
    assert!(
        peak_kb < 200 * 1024,
        "text: peak {peak_kb} kB for {bytes} bytes"
    );
}

// Row 7: 999,999 frames with a checkpoint each built the whole output in memory.
#[cfg(target_os = "linux")]
#[test]
fn long_scenario_streams_in_bounded_memory() {
    let f = regression("scenario-999999-steps.json");
    let (code, bytes, peak_kb) = peak_memory(&[os("scenario"), os("--json"), f.as_os_str()]);
    assert_eq!(code, Some(0));
    assert!(bytes > 300_000_000, "{bytes} bytes");
    assert!(
        peak_kb > 0 && peak_kb < 200 * 1024,
        "peak {peak_kb} kB for {bytes} bytes"
    );
}

#[test]
fn streamed_scenario_json_equals_the_in_memory_document() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/spine38/scenarios");
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios") {
        let p = entry.expect("entry").path();
        let name = p.file_name().and_then(|s| s.to_str()).unwrap_or("");
        if !name.ends_with(".json") || name.ends_with(".out.json") {
            continue;
        }
        let (code, stdout, stderr) = run(&[
            os("scenario"),
            os("--json"),
            os("--corpus"),
            corpus.as_os_str(),
            p.as_os_str(),
        ]);
        assert_eq!(code, Some(0), "{name}: {stderr}");
        let streamed: Value = serde_json::from_slice(&stdout).expect("valid JSON");
        let whole = bonescope::cli::run_scenario(&p, Some(&corpus))
            .map_err(|e| e.0)
            .expect("runs")
            .to_json();
        assert_eq!(streamed, whole, "{name}");
        // The text log streams too: its header counts the callbacks it then lists.
        let (code, text, _) = run(&[
            os("scenario"),
            os("--corpus"),
            corpus.as_os_str(),
            p.as_os_str(),
        ]);
        assert_eq!(code, Some(0));
        let whole_text = bonescope::cli::run_scenario(&p, Some(&corpus))
            .map_err(|e| e.0)
            .expect("runs")
            .to_text();
        assert_eq!(
            String::from_utf8(text).expect("utf-8"),
            whole_text,
            "{name}"
        );
        n += 1;
    }
    assert!(n >= 3, "only {n} scenarios");
}

// Row 9: a FIFO blocked open() forever.
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe.json");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    assert_refused(
        &[os("poses"), fifo.as_os_str()],
        "not a skeleton: it is a FIFO (named pipe), not a regular file",
    );
    assert_refused(
        &[os("curves"), fifo.as_os_str()],
        "it is a FIFO (named pipe)",
    );
    // A scenario whose skeleton is a FIFO.
    let sc = dir.join("s.json");
    std::fs::write(&sc, r#"{"skeleton": "pipe.json", "steps": []}"#).expect("write");
    assert_refused(
        &[os("scenario"), sc.as_os_str()],
        "it is a FIFO (named pipe)",
    );
}

// Row 10: a symlink to /dev/zero was read until memory ran out.
#[cfg(unix)]
#[test]
fn a_device_behind_a_symlink_is_not_read() {
    let dir = temp_dir("zero");
    let link = dir.join("zero.json");
    std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
    assert_refused(
        &[os("poses"), os("--json"), link.as_os_str()],
        "not a skeleton: it is a character device, not a regular file",
    );
    let looped = dir.join("loop.json");
    std::os::unix::fs::symlink(&looped, &looped).expect("symlink loop");
    assert_refused(&[os("poses"), looped.as_os_str()], "loop.json: ");
}

/// A Spine file whose bone, slot, animation and event names carry `evil`.
#[allow(clippy::disallowed_methods)] // the input must hold the raw characters
fn evil_file(dir: &Path, evil: &str) -> PathBuf {
    let v = serde_json::json!({
        "skeleton": {"spine": "3.8.99"},
        "bones": [{"name": "root"}, {"name": format!("arm{evil}"), "parent": "root"}],
        "slots": [{"name": format!("slot{evil}"), "bone": "root", "attachment": format!("att{evil}")}],
        "skins": [{"name": "default", "attachments": {format!("slot{evil}"): {format!("att{evil}"): {"width": 1, "height": 1}}}}],
        "events": {format!("ev{evil}"): {"string": format!("s{evil}")}},
        "animations": {format!("anim{evil}"): {"events": [{"time": 0, "name": format!("ev{evil}")}]}}
    });
    let p = dir.join("evil.json");
    std::fs::write(&p, serde_json::to_vec(&v).expect("json")).expect("write");
    p
}

const UNSAFE: [char; 7] = [
    '\u{9b}', '\u{202e}', '\u{61c}', '\u{2066}', '\u{200b}', '\u{1b}', '\u{7f}',
];

// Rows 11 and 12: names with U+009B / U+202E reached stdout raw in `poses --json`;
// U+061C was not made visible.
#[test]
fn poses_output_escapes_every_unsafe_character() {
    let dir = temp_dir("evil");
    let evil: String = UNSAFE.iter().collect();
    let f = evil_file(&dir, &evil);
    let (code, stdout, stderr) = run(&[os("poses"), os("--json"), f.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let text = String::from_utf8(stdout).expect("utf-8");
    assert!(
        !text.chars().any(|c| UNSAFE.contains(&c)),
        "raw character in JSON"
    );
    assert!(
        text.contains("arm\\u009b\\u202e\\u061c\\u2066\\u200b\\u001b\\u007f"),
        "{text}"
    );
    // The escapes are JSON's: a script reads back the file's own names.
    let v: Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(v["bones"][1], format!("arm{evil}"));
    assert_eq!(
        v["animations"][0]["samples"][0]["events"][0]["string"],
        format!("s{evil}")
    );
    let (code, stdout, _) = run(&[os("poses"), f.as_os_str()]);
    assert_eq!(code, Some(0));
    let text = String::from_utf8(stdout).expect("utf-8");
    assert!(
        !text.chars().any(|c| UNSAFE.contains(&c)),
        "raw character in text"
    );
    assert!(
        text.contains("anim\\u{9b}\\u{202e}\\u{61c}\\u{2066}\\u{200b}\\e\\u{7f}"),
        "{text}"
    );
    let (code, stdout, _) = run(&[os("curves"), os("--json"), f.as_os_str()]);
    assert_eq!(code, Some(0));
    assert!(
        !String::from_utf8(stdout)
            .expect("utf-8")
            .chars()
            .any(|c| UNSAFE.contains(&c))
    );
}

// Row 11, --watch --json: names of a change went out raw.
#[test]
fn watch_json_escapes_names_of_changes() {
    let dir = temp_dir("watch-evil");
    let f = evil_file(&dir, "");
    let mut child = bin()
        .arg(&f)
        .args(["--watch", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().expect("stdout");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            all.extend_from_slice(&buf[..n]);
            while let Some(i) = all.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = all.drain(..=i).collect();
                let _ = tx.send(String::from_utf8_lossy(&line).into_owned());
            }
        }
    });
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("initial line");
    assert!(first.contains("\"loaded\""), "{first}");
    let evil: String = UNSAFE.iter().collect();
    let tmp = dir.join("evil.tmp");
    std::fs::rename(evil_file(&dir, &evil), &tmp).expect("move");
    std::fs::rename(&tmp, &f).expect("replace");
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("reload line");
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        !line.chars().any(|c| UNSAFE.contains(&c)),
        "raw character: {line:?}"
    );
    let v: Value = serde_json::from_str(&line).expect("valid JSON");
    assert_eq!(v["event"], "loaded", "{line}");
    assert!(
        v["changes"]["bonesAdded"]
            .as_array()
            .is_some_and(|a| a.iter().any(|n| *n == format!("arm{evil}"))),
        "{line}"
    );
}

#[test]
fn streamed_curves_equal_the_in_memory_report() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples");
    for file in [
        "spine/lantern-keeper.json",
        "dragonbones/paper-crane.json",
        "mrtk/wave-and-pinch.bin",
    ] {
        let p = root.join(file);
        for times in [None, Some("0,0.25,1.5")] {
            let t: Option<Vec<f64>> =
                times.map(|s| s.split(',').map(|x| x.parse().expect("time")).collect());
            let (report, _) = bonescope::cli::curves::report(&p, t.as_deref(), None)
                .map_err(|e| e.0)
                .expect("report");
            let mut json_args = vec![os("curves"), os("--json"), p.as_os_str()];
            let mut text_args = vec![os("curves"), p.as_os_str()];
            if let Some(s) = times {
                json_args.extend([os("--times"), os(s)]);
                text_args.extend([os("--times"), os(s)]);
            }
            let (code, json, err) = run(&json_args);
            assert_eq!(code, Some(0), "{file}: {err}");
            assert_eq!(
                String::from_utf8(json).expect("utf-8"),
                report.to_json() + "\n",
                "{file}"
            );
            let (code, text, _) = run(&text_args);
            assert_eq!(code, Some(0));
            assert_eq!(
                String::from_utf8(text).expect("utf-8"),
                report.to_text(),
                "{file}"
            );
        }
    }
}
