//! End to end: the real binary in a real terminal (tmux), driven by keys like a user.
//! Skips with a printed reason when tmux is not installed (`.ci/run` installs it); fails
//! instead in CI (`CI=true`).

use crate::common;

use crate::tmux;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use tmux::Tmux;

fn bin() -> String {
    env!("CARGO_BIN_EXE_bonescope").to_string()
}

/// The binary inside a shell that reports its exit and whether the tty is sane again.
fn shell_wrapped(args: &str) -> String {
    format!(
        "sh -c '{} {args}; echo EXIT:$?; stty -a | tr \" ;\" \"\\n\\n\" | grep -x -e icanon -e echo | tr \"\\n\" \" \"; echo TTY-CHECKED; sleep 60'",
        bin()
    )
}

#[test]
fn play_pause_step_switch_queue_and_quit() {
    // It would open on walk (a cycle); this test starts on idle and switches to walk.
    let Some(t) = Tmux::start("main", 80, 24, &shell_wrapped("--animation idle")) else {
        return;
    };
    t.wait_for(&["Preview", "pause", "idle"]);

    // Play, then pause.
    t.keys(&["Space"]);
    t.wait_for(&["▶ play"]);
    std::thread::sleep(Duration::from_millis(400));
    t.keys(&["Space"]);
    t.wait_for(&["⏸ pause"]);

    // Back to the start, then three frames forward.
    t.keys(&["Home"]);
    t.wait_for(&["t 0.000/"]);
    t.keys(&["Right", "Right", "Right"]);
    t.wait_for(&["t 0.100/"]);

    // Switch animation with the picker.
    t.keys(&["a"]);
    t.wait_for(&["Animation"]);
    t.literal("walk");
    t.keys(&["Enter"]);
    // It replaces track 0 at this frame (the idle mixes out): the Tracks panel shows the
    // walk from its start, the status line the recorded command.
    t.wait_for(&["#0 walk", "t 0.000/1.000", "set track 0: w"]);

    // Queue "wave" on track 1 with the command prompt, play past its end.
    t.keys(&[":"]);
    t.literal("queue 1 wave");
    t.keys(&["Enter"]);
    t.wait_for(&["queue on track"]);
    t.keys(&["E"]);
    t.wait_for(&["Events"]);
    t.keys(&["Space"]);
    std::thread::sleep(Duration::from_millis(2200));
    t.keys(&["Space"]);
    let s = t.wait_for(&["start", "complete", "wave", "walk"]);
    assert!(s.contains("event"), "footstep events are logged:\n{s}");

    // Quit: the shell sees exit 0 and a cooked terminal.
    t.keys(&["q"]);
    let s = t.wait_for(&["EXIT:0", "TTY-CHECKED"]);
    assert!(s.contains("icanon echo"), "terminal not restored:\n{s}");
}

#[test]
fn large_terminal_shows_every_panel() {
    let Some(t) = Tmux::start("large", 200, 60, &shell_wrapped("")) else {
        return;
    };
    let s = t.wait_for(&["Tracks", "Curves", "Bones", "Events", "Preview"]);
    assert!(s.contains("? help"), "{s}");
    t.keys(&["?"]);
    t.wait_for(&["Help"]);
    // Esc alone: an Esc read together with the q reads as alt+q (which only closes help).
    t.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(400));
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}

#[test]
fn too_small_terminal_says_so_and_resizes_live() {
    let Some(t) = Tmux::start("small", 40, 10, &shell_wrapped("")) else {
        return;
    };
    t.wait_for(&["terminal too small"]);
    t.run(&["resize-window", "-t", "e2e", "-x", "100", "-y", "30"]);
    t.wait_for(&["Preview"]);
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}

#[test]
fn sigterm_restores_the_terminal() {
    let Some(t) = Tmux::start("term", 80, 24, &shell_wrapped("")) else {
        return;
    };
    t.wait_for(&["Preview"]);
    // The pane runs `sh`, whose child is bonescope: signal only that child (other tests run
    // their own bonescope at the same time).
    let shell_pid = String::from_utf8_lossy(
        &t.run(&["list-panes", "-t", "e2e", "-F", "#{pane_pid}"])
            .stdout,
    )
    .trim()
    .to_string();
    let out = Command::new("pkill")
        .args(["-TERM", "-P", &shell_pid])
        .output();
    if out.is_err() {
        common::skip("sigterm part", "pkill is not installed");
        return;
    }
    let s = t.wait_for(&["EXIT:", "TTY-CHECKED"]);
    assert!(
        s.contains("icanon echo"),
        "terminal not restored after SIGTERM:\n{s}"
    );
}

#[test]
fn hostile_names_are_shown_escaped() {
    let sample =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json");
    let text = std::fs::read_to_string(sample).expect("sample");
    // Rename the first animation and a bone to names with an escape sequence and a bidi
    // override (JSON escapes, so the file itself stays valid).
    let text = text.replacen("\"idle\"", "\"idle\\u001b[2J\\u202e\"", 1);
    let dir = std::env::temp_dir().join(format!("bonescope-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("hostile.json");
    std::fs::write(&path, text).expect("write");
    let Some(t) = Tmux::start(
        "hostile",
        100,
        30,
        &shell_wrapped(&path.display().to_string()),
    ) else {
        return;
    };
    // The animation picker lists every name (the viewer opens on walk). Keys wait for the
    // first frame: the start-up terminal query reads the input for up to 150 ms.
    t.wait_for(&["Tracks"]);
    t.keys(&["a"]);
    t.wait_for(&["idle\\e[2J\\u{202e}"]);
    t.keys(&["Escape"]);
    std::thread::sleep(Duration::from_millis(400));
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}

#[test]
fn hot_reload_keeps_the_place_and_survives_broken_files() {
    let sample =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json");
    let text = std::fs::read_to_string(sample).expect("sample");
    let dir = std::env::temp_dir().join(format!("bonescope-e2e-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("keeper.json");
    std::fs::write(&path, &text).expect("write");
    let Some(t) = Tmux::start(
        "reload",
        120,
        40,
        &shell_wrapped(&format!("{} --animation idle", path.display())),
    ) else {
        return;
    };
    t.wait_for(&["Preview", "idle"]);
    // Play "walk", scrub to frame 10, select a bone in the tree.
    t.keys(&["a"]);
    t.literal("walk");
    t.keys(&["Enter"]);
    t.wait_for(&["walk", "t 0.000/1.000s"]);
    for _ in 0..10 {
        t.keys(&["Right"]);
    }
    t.wait_for(&["t 0.333/"]);
    t.keys(&["B", "Down", "Down"]);
    let before = t.wait_for(&["bones · "]);
    let bone_title = before
        .lines()
        .find_map(|l| {
            l.split("bones · ")
                .nth(1)
                .map(|r| r.split_whitespace().next().unwrap_or("").to_string())
        })
        .expect("the Bones title names the selected bone");

    // Rename "idle" and change one key (an event payload of "jump").
    let edited = text.replacen("\"idle\"", "\"idle-renamed\"", 1);
    let edited = edited.replacen("\"int\": 4, \"float\": 1", "\"int\": 5, \"float\": 1", 1);
    let tmp = dir.join(".keeper.json.tmp");
    std::fs::write(&tmp, &edited).expect("write tmp");
    std::fs::rename(&tmp, &path).expect("atomic save");
    let s = t.wait_for(&["reloaded", "renamed"]);
    assert!(s.contains("t 0.333/"), "time survives the reload:\n{s}");
    assert!(
        s.contains(&format!("bones · {bone_title}")),
        "selection survives:\n{s}"
    );

    // A broken write: banner with line:column, the old pose stays.
    std::fs::write(
        &path,
        "{\n  \"skeleton\": {\"spine\": \"3.8.99\"},\n  \"bones\": [\n",
    )
    .expect("broken");
    let s = t.wait_for(&["⚠", "line 4"]);
    assert!(
        s.contains("t 0.333/") && s.contains("walk"),
        "the last good model stays:\n{s}"
    );

    // Fixed again: the banner clears.
    std::fs::write(&path, &edited).expect("fixed");
    let start = Instant::now();
    loop {
        let s = t.screen();
        if !s.contains('⚠') && s.contains("reloaded") {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "banner did not clear:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
    // bonescope never wrote to the watched file.
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn real_mrtk_recording_hands_and_pinches() {
    let Some(path) = common::shared_file(
        "real MRTK recording end to end",
        "corpus/mrtk/real/InputAnimation-20201027-134946.bin",
    ) else {
        return;
    };
    let Some(t) = Tmux::start("mrtk", 160, 48, &shell_wrapped(&path.display().to_string())) else {
        return;
    };
    // Both hands tracked from the start: their wrists are in the tree with positions.
    let s = t.wait_for(&["Preview [front]", "tracked.left", "hand.right.W"]);
    assert!(s.contains("MRTK input animation 1.0"), "{s}");
    // To the end of the recording: both pinches are in the log.
    t.keys(&["End"]);
    t.wait_for(&["pinch.right", "\"off\""]);
    // The preview's views.
    t.keys(&["P", "v"]);
    t.wait_for(&["Preview [top]"]);
    t.keys(&["v", ">", ">"]);
    t.wait_for(&["Preview [side +30°]"]);
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}

#[test]
fn dragonbones_sample_armatures_and_events() {
    let sample =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/dragonbones/paper-crane.json");
    let Some(t) = Tmux::start(
        "dragonbones",
        200,
        60,
        &shell_wrapped(&sample.display().to_string()),
    ) else {
        return;
    };
    let s = t.wait_for(&["DragonBones 4.5", "fly", "wing_front"]);
    assert!(s.contains("Tracks") && s.contains("Curves"), "{s}");
    // Play through the first loop: frame events, sounds and the closing action are logged.
    t.keys(&["Space"]);
    std::thread::sleep(Duration::from_millis(1300));
    t.keys(&["Space"]);
    t.wait_for(&["whoosh", "flap", "fold", "gotoAndPlay"]);
    // The other armature, through the picker.
    t.keys(&["A"]);
    t.wait_for(&["Armature", "Lantern"]);
    t.keys(&["Down", "Enter"]);
    let s = t.wait_for(&["armature Lantern", "swing", "cord"]);
    assert!(!s.contains("wing_front"), "still showing the crane:\n{s}");
    t.keys(&["q"]);
    let s = t.wait_for(&["EXIT:0", "TTY-CHECKED"]);
    assert!(s.contains("icanon echo"), "terminal not restored:\n{s}");
}

#[test]
fn spine_binary_export_opens_like_its_json() {
    let skel = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/spine/3.8/raptor-pro.skel");
    if !skel.is_file() {
        println!("SKIPPED spine_binary_export_opens_like_its_json: ../shared is absent");
        return;
    }
    let Some(t) = Tmux::start(
        "skel",
        160,
        50,
        &shell_wrapped(&format!("{} --animation gun-grab", skel.display())),
    ) else {
        return;
    };
    let s = t.wait_for(&["Spine 3.8.55", "gun-grab", "front-hand2.rotate"]);
    assert!(s.contains("Tracks") && s.contains("Preview"), "{s}");
    t.keys(&["q"]);
    let s = t.wait_for(&["EXIT:0", "TTY-CHECKED"]);
    assert!(s.contains("icanon echo"), "terminal not restored:\n{s}");
}

/// Issue 28.5 in a real terminal: the Events row cursor (`g` to the oldest row, `↓`), `d`
/// details the cursor's row and Enter jumps to its frame, not the bottom row's; `G` is live
/// again; `.` returns to the newest frame; the 80x24 tab strip names the hidden panels.
#[test]
fn events_cursor_detail_enter_and_back_to_live() {
    let Some(t) = Tmux::start("cursor", 80, 24, &shell_wrapped("--animation walk")) else {
        return;
    };
    t.wait_for(&["Preview", "pause", "walk", "? help", "Events E"]);
    t.keys(&["E"]);
    t.wait_for(&["Events", "start"]);
    t.keys(&["Space"]);
    std::thread::sleep(Duration::from_millis(1800));
    t.keys(&["Space"]);
    let s = t.settled(&["⏸ pause", "complete"]);
    assert!(
        !s.contains("scrolled"),
        "live while on the newest row:\n{s}"
    );
    // The oldest row: frame 0's start of the walk. d details it, Enter goes to frame 0.
    t.keys(&["g", "d"]);
    let s = t.wait_for(&["scrolled", "start walk"]);
    assert!(s.contains("start walk"), "{s}");
    t.keys(&["Enter"]);
    t.wait_for(&["frame 0", "t 0.000/1.000s"]);
    // Down moves the cursor off the oldest row; Enter jumps to that row's frame.
    t.keys(&["Down", "Enter"]);
    t.settled(&["frame "]);
    // G: the newest row again (live); `.` back to the newest frame played.
    t.keys(&["G"]);
    t.settled(&["Events"]);
    t.keys(&["."]);
    let s = t.wait_for(&["newest frame"]);
    assert!(!s.contains("scrolled"), "{s}");
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}
