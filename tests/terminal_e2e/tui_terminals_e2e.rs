//! End to end: the real binary under terminals without UTF-8 or colour (tmux, output stream
//! captured with `pipe-pane`), and the marker named in the preview title. Skips with a
//! printed reason when tmux is not installed; fails instead in CI (`CI=true`).

use crate::tmux;

use std::time::{Duration, Instant};
use tmux::Tmux;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_bonescope")
}

#[test]
fn term_dumb_gets_an_ascii_stream_without_256_colour_escapes() {
    let dir = std::env::temp_dir().join(format!("bonescope-dumb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let log = dir.join("stream.bin");
    let cmd = format!(
        "sh -c 'sleep 1; env TERM=dumb LANG=C.UTF-8 COLORTERM=truecolor {}; sleep 60'",
        bin()
    );
    let Some(t) = Tmux::start("dumb", 120, 40, &cmd) else {
        return;
    };
    // Capture everything the program writes, from before it starts.
    t.run(&[
        "pipe-pane",
        "-o",
        "-t",
        "e2e",
        &format!("cat >> {}", log.display()),
    ]);
    let screen = t.wait_for(&["Preview", "ascii", "pause"]);
    t.keys(&["space"]);
    std::thread::sleep(Duration::from_millis(1500));
    t.keys(&["space"]);
    let screen2 = t.wait_for(&["pause"]);
    t.keys(&["q"]);
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(200));
        if !t.screen().contains("Preview") {
            break;
        }
    }
    let bytes = std::fs::read(&log).expect("the captured stream");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(bytes.len() > 2000, "too little captured: {}", bytes.len());
    if let Some(i) = bytes.iter().position(|&b| b >= 0x80) {
        panic!(
            "byte {:#x} at {i}: {:?}\n{screen}",
            bytes[i],
            String::from_utf8_lossy(&bytes[i.saturating_sub(40)..(i + 40).min(bytes.len())])
        );
    }
    let text = String::from_utf8_lossy(&bytes);
    // TERM=dumb: attributes only, no colour parameter (30-107) in any SGR sequence.
    for csi in text.split("\x1b[").skip(1) {
        let Some(end) = csi.find(|c: char| c.is_ascii_alphabetic()) else {
            continue;
        };
        let params = &csi[..end];
        if &csi[end..=end] == "m" {
            // An empty parameter is 0 (`ESC [ m` resets).
            assert!(
                params
                    .split(';')
                    .all(|p| p.is_empty() || p.parse::<u32>().is_ok_and(|n| n < 30)),
                "colour in \\e[{params}m"
            );
        }
    }
    assert!(
        screen2.lines().next().is_some_and(|l| l.starts_with('+')),
        "{screen2}"
    );
}

#[test]
fn the_preview_title_names_the_marker_and_the_flag_overrides_it() {
    // Inside tmux the outer terminal is unknown: braille by default.
    let cmd = format!(
        "sh -c 'env TERM=tmux-256color LANG=C.UTF-8 TERM_PROGRAM=tmux {}; sleep 60'",
        bin()
    );
    let Some(t) = Tmux::start("marker", 120, 40, &cmd) else {
        return;
    };
    t.wait_for(&["1.0x braille"]);
    drop(t);
    let cmd = format!(
        "sh -c 'env TERM=tmux-256color LANG=C.UTF-8 {} --marker sextant; sleep 60'",
        bin()
    );
    let Some(t) = Tmux::start("marker2", 120, 40, &cmd) else {
        return;
    };
    t.wait_for(&["1.0x sextant"]);
}

/// The viewer in a tmux that blocks passthrough (reading `allow-passthrough` at start), its
/// message log opened with `m`: the log's text.
fn message_log_under_tmux(name: &str, args: &str) -> Option<String> {
    let cmd = format!(
        "sh -c 'sleep 1; env TERM=tmux-256color LANG=C.UTF-8 {} {args}; sleep 60'",
        bin()
    );
    let t = Tmux::start(name, 120, 40, &cmd)?;
    // Off whatever the user's tmux.conf says (tmux before 3.3 has no such option: no matter).
    t.run(&["set-option", "-g", "allow-passthrough", "off"]);
    t.wait_for(&["Preview", "pause"]);
    t.keys(&["m"]);
    Some(t.settled(&["Messages ("]))
}

#[test]
fn tmux_blocking_pictures_is_noted_only_when_there_are_textures_to_show() {
    // The built-in sample carries its atlas and page: the fallback is worth a note.
    if let Some(log) = message_log_under_tmux("texnote", "") {
        assert!(log.contains("tmux does not pass pictures through"), "{log}");
    }
    // A skeleton without an atlas draws its wireframe whatever tmux allows: no note.
    let Some(src) = crate::common::shared_file("tmux note", "corpus/spine/4.2/spineboy-pro.json")
    else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("bonescope-texnote-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("spineboy-pro.json");
    std::fs::copy(&src, &file).expect("copy the export alone, without its atlas");
    let log = message_log_under_tmux("notexnote", &file.display().to_string());
    let _ = std::fs::remove_dir_all(&dir);
    if let Some(log) = log {
        assert!(log.contains("opened on"), "{log}");
        assert!(!log.contains("pass pictures"), "{log}");
    }
}
