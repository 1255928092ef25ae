//! Regressions of issue 29 (hardening, round three): each test names its row.

use crate::common;
use crate::tmux;

use common::run_with_deadline as run;
use common::viewer::open_file;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn sample(name: &str) -> PathBuf {
    common::project_dir().join("samples/spine").join(name)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bonescope-r3-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

// Row 1: `:save hard_m` (a hard link to the open file) replaced it with the event log, and a
// save wrote through symlinks into other files.
#[cfg(unix)]
#[test]
fn save_never_writes_the_watched_file_nor_through_links() {
    let dir = temp_dir("save");
    let watched = dir.join("skeleton.json");
    std::fs::copy(sample("lantern-keeper.json"), &watched).expect("copy");
    let original = std::fs::read(&watched).expect("read");
    let mut app = open_file(&watched, 0.5);
    app.source = Some(watched.clone());
    let hard = dir.join("hard_m");
    std::fs::hard_link(&watched, &hard).expect("hard link");
    let soft = dir.join("soft.ndjson");
    std::os::unix::fs::symlink(&watched, &soft).expect("symlink");
    let folder_link = dir.join("again");
    std::os::unix::fs::symlink(&dir, &folder_link).expect("folder symlink");
    for name in [&watched, &hard, &soft, &folder_link.join("skeleton.json")] {
        for verb in ["save", "save!"] {
            let err = app
                .run_line(&format!("{verb} {}", name.display()))
                .expect_err("the watched file");
            assert!(err.contains("watched file"), "{verb} {name:?}: {err}");
        }
    }
    assert_eq!(std::fs::read(&watched).expect("read"), original);

    // Another file behind a symlink or a hard link: refused without `!`; with it, the link
    // itself is replaced and the other file keeps its contents.
    let other = dir.join("other.txt");
    std::fs::write(&other, b"keep me").expect("write");
    let to_other = dir.join("to_other.txt");
    std::os::unix::fs::symlink(&other, &to_other).expect("symlink");
    let other_hard = dir.join("other_hard.txt");
    std::fs::hard_link(&other, &other_hard).expect("hard link");
    for name in [&other, &to_other, &other_hard] {
        let err = app
            .run_line(&format!("save {}", name.display()))
            .expect_err("exists");
        assert!(err.contains("exists") && err.contains("save!"), "{err}");
    }
    assert_eq!(std::fs::read(&other).expect("read"), b"keep me");
    for name in [&to_other, &other_hard] {
        app.run_line(&format!("save! {}", name.display()))
            .expect("asked to replace");
        let meta = std::fs::symlink_metadata(name).expect("meta");
        assert!(meta.is_file(), "{name:?} is a file of its own now");
        assert!(
            std::fs::read_to_string(name)
                .expect("read")
                .contains("start")
        );
    }
    assert_eq!(std::fs::read(&other).expect("read"), b"keep me");

    // A FIFO or a device is refused (it could block the viewer or reach the terminal) and
    // stays what it is.
    let fifo = dir.join("pipe.ndjson");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    for name in [fifo.as_path(), Path::new("/dev/null")] {
        let err = app
            .run_line(&format!("save! {}", name.display()))
            .expect_err("not a regular file");
        assert!(err.contains("not a regular file"), "{err}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata(&fifo)
            .expect("meta")
            .file_type()
            .is_fifo()
    );
    assert!(
        std::fs::metadata("/dev/null")
            .expect("meta")
            .file_type()
            .is_char_device()
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".bonescope-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

// Row 2: `convert -o` replaced special files (as root `-o /dev/full` became a regular file;
// a FIFO and a symlink to /proc/self/fd/1 likewise) and could reach the input by a hard link.
#[cfg(unix)]
#[test]
fn convert_output_never_replaces_special_files_nor_the_input() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir("convert");
    let input = dir.join("in.json");
    std::fs::copy(sample("kite-fox-42.json"), &input).expect("copy");
    let original = std::fs::read(&input).expect("read");
    let (code, expected, err) = run(&[os("convert"), input.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");

    // The input by any name.
    let hard = dir.join("hard.json");
    std::fs::hard_link(&input, &hard).expect("hard link");
    let soft = dir.join("soft.json");
    std::os::unix::fs::symlink(&input, &soft).expect("symlink");
    for out in [&input, &hard, &soft] {
        let (code, _, err) = run(&[os("convert"), input.as_os_str(), os("-o"), out.as_os_str()]);
        assert_eq!(code, Some(2), "{out:?}");
        assert!(err.contains("over the input"), "{err}");
    }
    assert_eq!(std::fs::read(&input).expect("read"), original);

    // A FIFO is written in place (the reader gets the document) and stays a FIFO.
    let fifo = dir.join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).expect("read the FIFO"))
    };
    let (code, _, err) = run(&[os("convert"), input.as_os_str(), os("-o"), fifo.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(reader.join().expect("reader"), expected);
    assert!(
        std::fs::metadata(&fifo)
            .expect("meta")
            .file_type()
            .is_fifo()
    );

    // A character device, directly and behind a symlink: written in place, never replaced.
    let null_link = dir.join("null.json");
    std::os::unix::fs::symlink("/dev/null", &null_link).expect("symlink");
    for out in [Path::new("/dev/null"), null_link.as_path()] {
        let (code, _, err) = run(&[os("convert"), input.as_os_str(), os("-o"), out.as_os_str()]);
        assert_eq!(code, Some(0), "{err}");
    }
    assert!(
        std::fs::symlink_metadata(&null_link)
            .expect("meta")
            .is_symlink()
    );
    assert!(
        std::fs::metadata("/dev/null")
            .expect("meta")
            .file_type()
            .is_char_device()
    );
    // `-o /dev/stdout` (a pipe here) reaches stdout.
    let (code, out, err) = run(&[
        os("convert"),
        input.as_os_str(),
        os("-o"),
        os("/dev/stdout"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, expected);

    // A directory is refused; an existing regular file is replaced (the -o contract).
    let (code, _, err) = run(&[os("convert"), input.as_os_str(), os("-o"), dir.as_os_str()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("a directory, not a regular file"), "{err}");
    let old = dir.join("old.json");
    std::fs::write(&old, b"old").expect("write");
    let (code, _, err) = run(&[os("convert"), input.as_os_str(), os("-o"), old.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read(&old).expect("read"), expected);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Characters that must never leave bonescope raw (C1 CSI, bidi override, zero-width joiner,
/// ESC, DEL, Arabic letter mark).
const UNSAFE: [char; 6] = [
    '\u{9b}', '\u{202e}', '\u{200d}', '\u{1b}', '\u{7f}', '\u{61c}',
];

fn evil() -> String {
    UNSAFE.iter().collect()
}

/// Asserts `bytes` are valid JSON (or NDJSON) without any raw unsafe character; returns the
/// documents.
fn safe_json(bytes: &[u8], what: &str) -> Vec<serde_json::Value> {
    let text = std::str::from_utf8(bytes).expect("UTF-8");
    let raw: Vec<char> = text.chars().filter(|c| UNSAFE.contains(c)).collect();
    assert!(raw.is_empty(), "{what}: raw {raw:?} in {text}");
    let docs: Vec<serde_json::Value> = serde_json::Deserializer::from_str(text)
        .into_iter()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{what}: not JSON ({e}): {text}"));
    assert!(!docs.is_empty(), "{what}: no output");
    docs
}

/// True when some string in `v` passes `f`.
fn has_string(v: &serde_json::Value, f: &dyn Fn(&str) -> bool) -> bool {
    match v {
        serde_json::Value::String(s) => f(s),
        serde_json::Value::Array(a) => a.iter().any(|x| has_string(x, f)),
        serde_json::Value::Object(o) => o.values().any(|x| has_string(x, f)),
        _ => false,
    }
}

/// A Spine file whose names (bone, slot, attachment, event, animations, one of them empty so
/// `check` names it) carry `evil`.
#[allow(clippy::disallowed_methods)] // the input must hold the raw characters
fn evil_spine(dir: &Path, evil: &str) -> PathBuf {
    let v = serde_json::json!({
        "skeleton": {"spine": "3.8.99"},
        "bones": [{"name": "root"}, {"name": format!("arm{evil}"), "parent": "root"}],
        "slots": [{"name": format!("slot{evil}"), "bone": "root", "attachment": format!("att{evil}")}],
        "skins": [{"name": "default", "attachments": {format!("slot{evil}"): {format!("att{evil}"): {"width": 1, "height": 1}}}}],
        "events": {format!("ev{evil}"): {"string": format!("s{evil}")}},
        "animations": {
            format!("anim{evil}"): {
                "events": [{"time": 0, "name": format!("ev{evil}")}],
                "bones": {format!("arm{evil}"): {"rotate": [{"time": 0}, {"time": 1, "angle": 90}]}}
            },
            format!("empty{evil}"): {}
        }
    });
    let p = dir.join(format!("evil{evil}.json"));
    std::fs::write(&p, serde_json::to_vec(&v).expect("json")).expect("write");
    p
}

/// The DragonBones sample with its armature and a bone renamed to carry `evil`.
fn evil_dragonbones(dir: &Path, evil: &str) -> PathBuf {
    let text =
        std::fs::read_to_string(common::project_dir().join("samples/dragonbones/paper-crane.json"))
            .expect("sample");
    // Inside JSON text a raw C0 control is invalid: ESC goes in as its escape.
    let in_json = evil.replace('\u{1b}', "\\u001b");
    let text = text
        .replace("\"Crane\"", &format!("\"Crane{in_json}\""))
        .replace("\"tail\"", &format!("\"tail{in_json}\""));
    let p = dir.join(format!("crane{evil}.json"));
    std::fs::write(&p, text).expect("write");
    p
}

// Row 8: `convert`, `session --json`, `check --json` / SARIF printed raw U+009B, U+202E,
// U+200D from file paths and names (Spine and DragonBones); `diff --json` and `:save x.ndjson`
// shared the bypass.
#[test]
fn every_json_writer_escapes_names_and_paths() {
    let evil = evil();
    // The folder's name carries them too, so every path printed does.
    let dir = temp_dir(&format!("json{evil}"));
    let spine = evil_spine(&dir, &evil);
    let crane = evil_dragonbones(&dir, &evil);
    let script = dir.join("script.txt");
    std::fs::write(&script, "step 3\n").expect("write");

    let (code, out, err) = run(&[os("convert"), spine.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    let doc = &safe_json(&out, "convert")[0];
    assert_eq!(doc["bones"][1]["name"], format!("arm{evil}"));
    assert!(doc["events"].get(format!("ev{evil}")).is_some(), "{doc}");

    for file in [&spine, &crane] {
        let (code, out, err) = run(&[
            os("session"),
            file.as_os_str(),
            os("--script"),
            script.as_os_str(),
            os("--json"),
        ]);
        assert_eq!(code, Some(0), "{err}");
        let doc = &safe_json(&out, "session --json")[0];
        let bones = doc["bones"].as_array().expect("bones");
        let want = if file == &spine { "arm" } else { "tail" };
        assert!(
            bones.iter().any(|b| b["bone"] == format!("{want}{evil}")),
            "{doc}"
        );
        for flags in [&["--json"][..], &["--format", "sarif"]] {
            let mut args = vec![os("check")];
            args.extend(flags.iter().map(|f| os(f)));
            args.push(file.as_os_str());
            let (code, out, err) = run(&args);
            assert!(matches!(code, Some(0 | 1)), "{flags:?}: {err}");
            let doc = safe_json(&out, &format!("check {flags:?}")).remove(0);
            let path = file.display().to_string();
            // SARIF names files only in results (the crane has no findings).
            let named = file == &spine || flags == ["--json"];
            assert!(
                !named || has_string(&doc, &|s| s.contains(&path)),
                "{flags:?}: {doc}"
            );
        }
    }
    // A finding that names an animation carries the characters, escaped.
    let (_, out, _) = run(&[os("check"), os("--json"), spine.as_os_str()]);
    let text = String::from_utf8(out).expect("utf-8");
    assert!(text.contains("empty\\u009b\\u202e\\u200d"), "{text}");

    let (code, out, err) = run(&[
        os("diff"),
        os("--json"),
        spine.as_os_str(),
        crane.as_os_str(),
    ]);
    assert!(matches!(code, Some(0 | 1)), "{err}");
    safe_json(&out, "diff --json");

    // The viewer's `:save` NDJSON export.
    let mut app = open_file(&spine, 0.0);
    let saved = dir.join("log.ndjson");
    app.run_line(&format!("save {}", saved.display()))
        .expect("save");
    let docs = safe_json(&std::fs::read(&saved).expect("saved"), ":save");
    assert!(
        docs.iter()
            .any(|d| d["event"]["name"] == format!("ev{evil}")),
        "{docs:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// Row 10: at large times the frame label was one too low (`t 19999.933 (599997/600000)`):
// the frame came from `(t * fps + 1e-6).floor()`, and a time summed from 599,998 steps is
// short of 599,998 / 30 by more than that epsilon.
#[test]
fn the_frame_label_is_right_at_large_times() {
    let long = serde_json::json!({
        "skeleton": {"spine": "3.8.99"},
        "bones": [{"name": "root"}, {"name": "arm", "parent": "root"}],
        "animations": {"long": {"bones": {"arm": {"rotate": [{"time": 0}, {"time": 20000, "angle": 90}]}}}}
    });
    let mut app =
        bonescope::tui::offscreen::file_app(long.to_string().as_bytes(), "long.json", 0.0)
            .expect("opens");
    let fps = app.session.fps();
    let frames = (20_000.0 * fps).round() as u64;
    for frame in [frames - 2, frames / 2 + 1, 3 * frames / 4 - 1] {
        app.session.seek_frame(frame);
        app.follow_playing();
        let status = bonescope::tui::views::status::text(&app, 200, 0);
        assert!(
            status.contains(&format!("({frame}/{frames})")),
            "frame {frame}: {status}"
        );
    }
    // `seek` lands on the frame its time names, not one before it plus a partial step.
    app.session.seek_time(0.7);
    assert_eq!(app.session.frame(), (0.7 * fps).round() as u64);
}

/// tmux's view of the pane's terminal modes (`alt=1 mouse=1` while the viewer runs with
/// `--mouse`).
fn modes(t: &tmux::Tmux) -> String {
    let out = t.run(&[
        "display-message",
        "-p",
        "-t",
        "e2e",
        "alt=#{alternate_on} mouse=#{mouse_any_flag}",
    ]);
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

// Row 9: `kill -HUP` with the terminal still open, and `kill -QUIT`, left the alternate
// screen, mouse mode and raw input on. Every signal that ends the viewer restores them.
#[cfg(unix)]
#[test]
fn ending_signals_restore_the_terminal() {
    for (name, signal, status) in [
        ("hup", "-HUP", "129"),
        ("quit", "-QUIT", "131"),
        ("usr1", "-USR1", "138"),
        ("alrm", "-ALRM", "142"),
    ] {
        // The shell ignores SIGHUP (only bonescope gets it) and reports the status and
        // whether the terminal is back in canonical (cooked) input.
        let cmd = format!(
            "sh -c 'trap \"\" HUP; {} --mouse {}; echo EXIT:$?; stty -a | tr \" ;\" \"\\n\\n\" | grep icanon | sed s/^/MODE:/; sleep 60'",
            env!("CARGO_BIN_EXE_bonescope"),
            sample("lantern-keeper.json").display()
        );
        let Some(t) = tmux::Tmux::start(&format!("sig-{name}"), 100, 30, &cmd) else {
            return;
        };
        t.wait_for(&["Preview"]);
        assert_eq!(modes(&t), "alt=1 mouse=1", "{name}: full-screen before");
        let pid = child_pid(&t).expect("bonescope's pid");
        let killed = Command::new("kill")
            .args([signal, &pid])
            .status()
            .expect("kill");
        assert!(killed.success());
        let screen = t.wait_for(&["EXIT:", "MODE:"]);
        assert!(
            screen.contains(&format!("EXIT:{status}")),
            "{name}: {screen}"
        );
        assert!(
            screen.contains("MODE:icanon"),
            "{name}: raw input left on: {screen}"
        );
        assert!(
            !screen.contains("Preview"),
            "{name}: main screen back: {screen}"
        );
        assert_eq!(modes(&t), "alt=0 mouse=0", "{name}: modes after");
    }
}

/// The pid of the pane's shell's child (bonescope).
fn child_pid(t: &tmux::Tmux) -> Option<String> {
    let shell = String::from_utf8_lossy(
        &t.run(&["list-panes", "-t", "e2e", "-F", "#{pane_pid}"])
            .stdout,
    )
    .trim()
    .to_string();
    let start = Instant::now();
    loop {
        let out = Command::new("pgrep").args(["-P", &shell]).output().ok()?;
        let pid = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !pid.is_empty() {
            return Some(pid.lines().next().unwrap_or_default().to_string());
        }
        if start.elapsed() > Duration::from_secs(5) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

// Row 6: a 226-byte scenario checkpointing every one of 10^6 frames streamed ~9 GB. The
// output is estimated during the silent first run and refused beyond the limit (1 GiB by
// default, `--max-output BYTES`), before a byte is written and as soon as the limit is passed.
#[test]
fn scenario_output_bombs_are_refused_before_writing() {
    let dir = temp_dir("bomb");
    let bomb = dir.join("bomb.json");
    std::fs::write(
        &bomb,
        r#"{"skeleton":"lantern-keeper.json","checkpointEvery":1,"steps":[{"op":"setAnimation","track":0,"animation":"idle","loop":true},{"op":"update","dt":0.016,"count":999999}]}"#,
    )
    .expect("write");
    let corpus = common::project_dir().join("samples/spine");
    let start = Instant::now();
    let (code, out, err) = run(&[
        os("scenario"),
        os("--json"),
        os("--corpus"),
        corpus.as_os_str(),
        bomb.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty(), "nothing written");
    assert!(
        err.contains("larger than the limit of 1073741824 bytes") && err.contains("--max-output"),
        "{err}"
    );
    // Stopped when the limit was passed, not after the whole run (a fifth of it here).
    assert!(err.contains("checkpoints of about"), "{err}");
    println!("refused in {:?}", start.elapsed());
    // The limit is the user's: a lower one refuses a small run, and the default lets it be.
    let small = common::project_dir()
        .join("tests/fixtures/spine38/scenarios/lantern-keeper-queue-delay0.json");
    let (code, out, err) = run(&[
        os("scenario"),
        os("--json"),
        os("--max-output"),
        os("10000"),
        os("--corpus"),
        corpus.as_os_str(),
        small.as_os_str(),
    ]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty());
    let (code, out, err) = run(&[
        os("scenario"),
        os("--json"),
        os("--corpus"),
        corpus.as_os_str(),
        small.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.len() > 10_000);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Bytes this process has read so far (`rchar` of `/proc/self/io`; Linux).
fn bytes_read() -> Option<u64> {
    let io = std::fs::read_to_string("/proc/self/io").ok()?;
    io.lines()
        .find_map(|l| l.strip_prefix("rchar: "))
        .and_then(|v| v.trim().parse().ok())
}

// Row 7: `--poll` hashed every file of the folder at every poll: a 2 GB sparse file beside
// the skeleton cost half a core for as long as it stayed. The poller now compares the watched
// file's metadata and the file is read only when it changed.
#[cfg(target_os = "linux")]
#[test]
fn polling_reads_nothing_until_the_file_changes() {
    use bonescope::watch::{ReloadEvent, Reloader, WatchOptions};
    let dir = temp_dir("poll");
    let path = dir.join("model.json");
    std::fs::copy(sample("lantern-keeper.json"), &path).expect("copy");
    // A 2 GB sparse file beside it (no disk used).
    let big = std::fs::File::create(dir.join("huge.bin")).expect("create");
    big.set_len(2 << 30).expect("sparse");
    drop(big);
    let first = Arc::new(
        bonescope::format::load(&std::fs::read(&path).expect("read"), "model").expect("loads"),
    );
    let r = Reloader::start(
        &path,
        first,
        WatchOptions {
            poll: Some(Duration::from_millis(20)),
            ..WatchOptions::default()
        },
    )
    .expect("watch");
    let reads = r.reads();
    let before = bytes_read().expect("/proc/self/io");
    std::thread::sleep(Duration::from_millis(1000));
    let read = bytes_read().expect("/proc/self/io") - before;
    // 50 polls of the old poller read 100 GB; other tests of this binary read a few MB.
    assert!(
        read < 200_000_000,
        "{read} bytes read while nothing changed"
    );
    assert_eq!(
        r.reads(),
        reads,
        "the file was read again while nothing changed"
    );
    assert!(
        r.events().try_recv().is_err(),
        "no event while nothing changed"
    );
    // A change is seen and loaded, once.
    let text = std::fs::read_to_string(&path).expect("read");
    let tmp = dir.join("model.json.tmp");
    std::fs::write(&tmp, text.replacen("\"root\"", "\"root\" ", 1)).expect("write");
    std::fs::rename(&tmp, &path).expect("rename");
    let ev = r
        .events()
        .recv_timeout(Duration::from_secs(10))
        .expect("a reload");
    assert!(matches!(ev, ReloadEvent::Loaded { .. }), "{ev:?}");
    assert_eq!(r.reads(), reads + 1, "one read for one change");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A 4.2 (`physics[]`) or 4.3 (`constraints[]`) skeleton whose one physics constraint has
/// the simulation rate `fps` (written as is into the JSON).
fn physics_skeleton(version: &str, fps: &str) -> String {
    let bones =
        r#""bones":[{"name":"root"},{"name":"b","parent":"root","length":50,"rotation":30}]"#;
    let anim =
        r#""animations":{"a":{"bones":{"root":{"rotate":[{"value":0},{"time":1,"value":90}]}}}}"#;
    if version == "4.3" {
        format!(
            "{{\"skeleton\":{{\"spine\":\"4.3.13\"}},\n{bones},\n\"constraints\":[{{\"type\":\"physics\",\"name\":\"p\",\"bone\":\"b\",\"rotate\":1,\"x\":1,\"fps\":{fps}}}],\n{anim}}}"
        )
    } else {
        format!(
            "{{\"skeleton\":{{\"spine\":\"4.2.19\"}},\n{bones},\n\"physics\":[{{\"name\":\"p\",\"bone\":\"b\",\"rotate\":1,\"x\":1,\"fps\":{fps}}}],\n{anim}}}"
        )
    }
}

// Row 3: a physics `fps` of 1e9 (a 468-byte file) made every frame run 16.7 million steps
// (55 ms), `render --time 100` never ended. The official runtime has no limit (it runs every
// step; a negative or huge rate never ends there): absurd rates are refused at load with the
// located key, sane ones still render quickly.
#[test]
fn absurd_physics_rates_are_refused_at_load() {
    let dir = temp_dir("physics-fps");
    for version in ["4.2", "4.3"] {
        let key = if version == "4.3" {
            "constraints[0].fps"
        } else {
            "physics[0].fps"
        };
        for fps in ["1e9", "1e308", "1001", "0", "-60", "-1e308"] {
            let file = dir.join(format!("fps-{version}-{fps}.json"));
            std::fs::write(&file, physics_skeleton(version, fps)).expect("write");
            let start = Instant::now();
            let (code, _, err) = run(&[os("render"), file.as_os_str(), os("--time"), os("100")]);
            assert_eq!(code, Some(2), "{version} fps {fps}: {err}");
            assert!(
                err.contains(key) && err.contains("line 3, column"),
                "{fps}: {err}"
            );
            assert!(err.contains("fps"), "{err}");
            assert!(start.elapsed() < Duration::from_secs(5), "{fps}");
        }
        // The limit itself and everyday rates load, and 100 s of play stays quick.
        for fps in ["1000", "60", "0.5"] {
            let file = dir.join(format!("fps-{version}-{fps}.json"));
            std::fs::write(&file, physics_skeleton(version, fps)).expect("write");
            let start = Instant::now();
            let (code, out, err) = run(&[os("render"), file.as_os_str(), os("--time"), os("100")]);
            assert_eq!(code, Some(0), "{version} fps {fps}: {err}");
            assert!(!out.is_empty());
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{version} fps {fps}: {:?}",
                start.elapsed()
            );
        }
    }
}

/// A Spine 3.8 chain of `n` bones (each the child of the one before) with one 100 s
/// animation turning the first; written into `dir`.
fn chain_file(dir: &Path, n: usize) -> PathBuf {
    let mut text = String::from(r#"{"skeleton":{"spine":"3.8.99"},"bones":[{"name":"root"}"#);
    for i in 0..n {
        let parent = if i == 0 {
            "root".to_string()
        } else {
            format!("b{}", i - 1)
        };
        text.push_str(&format!(
            r#",{{"name":"b{i}","parent":"{parent}","length":1,"rotation":0.01}}"#
        ));
    }
    text.push_str(r#"],"animations":{"a":{"bones":{"b0":{"rotate":[{"time":0,"angle":0},{"time":100,"angle":90}]}}}}}"#);
    let p = dir.join(format!("chain{n}.json"));
    std::fs::write(&p, text).expect("write");
    p
}

/// [`chain_file`] as a 4.2 export with a physics constraint on its first bone.
fn physics_chain_file(dir: &Path, n: usize) -> PathBuf {
    let plain = chain_file(dir, n);
    let text = std::fs::read_to_string(&plain).expect("read");
    let text = text
        .replacen(r#""spine":"3.8.99""#, r#""spine":"4.2.40""#, 1)
        .replacen(
            r#"],"animations""#,
            r#"],"physics":[{"name":"p","bone":"b0","rotate":1}],"animations""#,
            1,
        )
        .replace(r#""angle""#, r#""value""#);
    let p = dir.join(format!("physics-chain{n}.json"));
    std::fs::write(&p, text).expect("write");
    p
}

// Row 4: `session` on a 100k-bone chain aborted at 3.8 GB (512 checkpoints of the whole
// skeleton); `render --time 1e6` on a 10k-bone chain never ended. Checkpoints now live
// within a memory budget, and seeks whose work (bones x frames) is beyond a limit are
// refused up front.
#[cfg(target_os = "linux")]
#[test]
fn big_rigs_stay_within_memory_and_long_seeks_are_refused() {
    let dir = temp_dir("chains");
    let big = chain_file(&dir, 100_000);
    let script = dir.join("seek.txt");
    std::fs::write(&script, "seek 60\n").expect("write");
    // 5,000 frames x 100k bones: 78 checkpoints at the old 64-frame interval (~40 MB each).
    let (code, bytes, err, peak_kb) = common::peak_memory_with(
        &[
            os("session"),
            big.as_os_str(),
            os("--script"),
            script.as_os_str(),
            os("--at"),
            os("5000"),
        ],
        &[("BONESCOPE_CHECKPOINT_MIB", "64")],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(bytes > 0);
    println!("session on 100k bones to frame 5000: peak {peak_kb} kB");
    assert!(peak_kb > 0, "VmHWM was never read");
    assert!(peak_kb < 700 * 1024, "peak {peak_kb} kB");

    let chain = chain_file(&dir, 10_000);
    let start = Instant::now();
    let (code, out, err) = run(&[os("render"), chain.as_os_str(), os("--time"), os("1e6")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("bone-frames") && err.contains("BONESCOPE_SEEK_WORK"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(5));
    let (code, _, err) = run(&[os("session"), chain.as_os_str(), os("--at"), os("1000000")]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("BONESCOPE_SEEK_WORK"), "{err}");
    // What is within the limit still renders.
    let (code, out, err) = run(&[os("render"), chain.as_os_str(), os("--time"), os("10")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.is_empty());
}

// Row 4, every headless replay: the seek bound of `render` (text) and `session --at` now
// also bounds each moving line of a `session --script`, image exports (the whole range),
// `scenario` and `poses`, through one check (`session::work_bound`).
#[cfg(target_os = "linux")]
#[test]
fn every_headless_replay_is_bounded() {
    let dir = temp_dir("bounded");
    let chain = chain_file(&dir, 2_000);
    // About 1,000 frames of this 2,000-bone rig are allowed.
    let env = [("BONESCOPE_SEEK_WORK", "2000000")];
    let bonescope = |args: &[&std::ffi::OsStr]| {
        let start = Instant::now();
        let (code, bytes, err, _) = common::peak_memory_with(args, &env);
        (code, bytes, err, start.elapsed())
    };
    let refused = |what: &str, (code, bytes, err, took): (Option<i32>, u64, String, Duration)| {
        assert_eq!(code, Some(2), "{what}: {err}");
        assert_eq!(bytes, 0, "{what}: nothing written");
        assert!(
            err.contains("bone-frames") && err.contains("BONESCOPE_SEEK_WORK"),
            "{what}: {err}"
        );
        assert!(took < Duration::from_secs(10), "{what}: {took:?}");
        err
    };
    let script = dir.join("script.txt");
    for (line, lines) in [
        (3, "set 0 a loop\nseek 10\nseek 60\n"),
        (2, "seek 30\nframe 5000\n"),
        (3, "step 900\nhome\nframe 2100\n"),
        (2, "seek 30\nplay 60\n"),
        // A skin change replays from frame 0: 900 + 900 frames is allowed, the replay not.
        (4, "step 900\nstep 900\nskin\nskin default\n"),
    ] {
        std::fs::write(&script, lines).expect("write");
        let err = refused(
            lines,
            bonescope(&[
                os("session"),
                chain.as_os_str(),
                os("--script"),
                script.as_os_str(),
            ]),
        );
        assert!(
            err.contains(&format!("script.txt:{line}: ")),
            "{lines}: {err}"
        );
    }
    std::fs::write(&script, "set 0 a loop\nseek 30\nstep 900\nhome\nplay 10\n").expect("write");
    let (code, bytes, err, _) = bonescope(&[
        os("session"),
        chain.as_os_str(),
        os("--script"),
        script.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "within the limit: {err}");
    assert!(bytes > 0);

    // Image exports: the whole range (physics warm-up and every pose) is counted.
    let png = dir.join("out.png");
    let gif = dir.join("out.gif");
    for args in [
        vec![
            os("--format"),
            os("png"),
            os("--time"),
            os("60"),
            os("-o"),
            png.as_os_str(),
        ],
        vec![
            os("--format"),
            os("gif"),
            os("--frames"),
            os("0..600"),
            os("-o"),
            gif.as_os_str(),
        ],
        vec![os("--format"), os("apng"), os("-o"), gif.as_os_str()],
    ] {
        let mut all = vec![os("render"), chain.as_os_str()];
        all.extend(args);
        refused(&format!("{all:?}"), bonescope(&all));
        assert!(!png.exists() && !gif.exists());
    }
    let (code, _, err, _) = bonescope(&[
        os("render"),
        chain.as_os_str(),
        os("--format"),
        os("png"),
        os("--size"),
        os("64x64"),
        os("--time"),
        os("10"),
        os("-o"),
        png.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(png.exists());

    // A scenario's frames, before anything runs.
    let scenario = |count: u32| {
        let p = dir.join(format!("run{count}.json"));
        std::fs::write(
            &p,
            format!(
                r#"{{"skeleton":"chain2000.json","steps":[{{"op":"setAnimation","track":0,"animation":"a","loop":true}},{{"op":"update","dt":0.0333,"count":{count}}}]}}"#
            ),
        )
        .expect("write");
        p
    };
    let long = scenario(2_000);
    let err = refused(
        "scenario",
        bonescope(&[
            os("scenario"),
            os("--corpus"),
            dir.as_os_str(),
            long.as_os_str(),
        ]),
    );
    assert!(err.contains("the scenario runs 2000 frames"), "{err}");
    let short = scenario(100);
    let (code, bytes, err, _) = bonescope(&[
        os("scenario"),
        os("--corpus"),
        dir.as_os_str(),
        short.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(bytes > 0);

    // Poses: one pose per sample of every animation.
    refused(
        "poses",
        bonescope(&[os("poses"), chain.as_os_str(), os("--samples"), os("2000")]),
    );
    let (code, bytes, err, _) = bonescope(&[os("poses"), chain.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(bytes > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

// Row 3 (viewer): End on a long animation of a heavy rig used to run the whole seek before
// reading another key. Seeks now run in slices between input reads: `q` quits at once.
#[test]
fn the_viewer_quits_promptly_during_a_long_seek() {
    let dir = temp_dir("long-seek");
    // 100 s at 30 fps on a 60k-bone chain with a physics constraint (its simulation carries
    // from frame to frame, so no world pass is left out): End replays about 3,000 whole
    // frames (seconds of work).
    let chain = physics_chain_file(&dir, 60_000);
    let cmd = tmux::shell_wrapped(&chain.display().to_string());
    let Some(t) = tmux::Tmux::start("long-seek", 100, 30, &cmd) else {
        return;
    };
    t.wait_for(&["Preview"]);
    t.keys(&["End"]);
    t.wait_for(&["Esc cancels"]);
    // Esc cancels: the viewer answers and stays on a frame on the way.
    t.keys(&["Escape"]);
    t.wait_for(&["seek cancelled at frame"]);
    t.keys(&["End"]);
    t.wait_for(&["Esc cancels"]);
    let start = Instant::now();
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "q took {took:?}");
}

// Keys typed while bonescope starts (before its first frame) were lost or reordered: the
// start-up terminal query read them, and crossterm's own cursor query queued later ones
// ahead of them. The query now runs before anything reads the input and hands the keys it
// saw on in order.
#[test]
fn keys_typed_at_start_up_are_applied_in_order() {
    let cmd = tmux::shell_wrapped(&sample("lantern-keeper.json").display().to_string());
    let Some(t) = tmux::Tmux::start("typed-early", 100, 30, &cmd) else {
        return;
    };
    // No wait for the first frame.
    t.literal(":seek 1");
    t.keys(&["Enter"]);
    t.wait_for(&["at 1.000 s"]);
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}
