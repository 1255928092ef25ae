//! End to end: a DragonBones 5.5 export (several armatures, split timelines) in the viewer
//! at 80x24: it opens on the main armature, plays, hot-reloads an edited value, and keeps
//! the model through a broken write.

use crate::common;
use crate::tmux::{Tmux, shell_wrapped};

use std::time::{Duration, Instant};

/// Waits until `pred` holds for the screen; panics with the screen after 15 s.
fn wait_until(t: &Tmux, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let s = t.screen();
        if pred(&s) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(15),
            "timed out waiting for {what}; screen:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The playhead time shown in the status line (`t 0.375/1.250s`).
fn status_time(screen: &str) -> Option<f64> {
    let status = screen.lines().rev().find(|l| l.contains(" t "))?;
    let after = status.split(" t ").nth(1)?;
    after.split(['/', ' ']).next()?.parse().ok()
}

#[test]
fn dragonbones_55_opens_on_its_main_armature_plays_and_hot_reloads() {
    let Some(corpus) = common::shared_file(
        "DragonBones 5.5 viewer end to end",
        "corpus/dragonbones/5.x/5.5/mecha_1502b_ske.json",
    ) else {
        return;
    };
    let text = std::fs::read_to_string(&corpus).expect("corpus file");
    // Never written in place: a copy in a temporary directory.
    let dir = std::env::temp_dir().join(format!("bonescope-e2e-db55-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("mecha_1502b_ske.json");
    std::fs::write(&path, &text).expect("write");
    let Some(t) = Tmux::start("db55", 80, 24, &shell_wrapped(&path.display().to_string())) else {
        return;
    };
    // The file's fourth armature is the character (the first three are its effects, which
    // it nests): the viewer opens on it, on its walk cycle (30 frames at 24 fps).
    let s = t.wait_for(&["walk", "t 0.000/1.250", "shouder_l"]);
    assert!(s.contains("Tracks") && s.contains("Preview"), "{s}");
    assert!(!s.contains('⚠'), "opened with a warning banner:\n{s}");

    // Plays: the status shows the armature and the playhead moves.
    t.keys(&["Space"]);
    let s = wait_until(&t, "the playhead to move", |s| {
        s.contains("▶ play") && status_time(s).is_some_and(|x| x > 0.0)
    });
    assert!(s.contains("armature mecha_1502b"), "{s}");

    // An edited value (walk's duration: 30 -> 36 frames), saved atomically: reloaded, and
    // the new length is on screen while it keeps playing.
    let old = "\"duration\":30,\"name\":\"walk\"";
    assert_eq!(text.matches(old).count(), 1, "the corpus file changed");
    let edited = text.replacen(old, "\"duration\":36,\"name\":\"walk\"", 1);
    let tmp = dir.join(".mecha_1502b_ske.json.tmp");
    std::fs::write(&tmp, &edited).expect("write tmp");
    std::fs::rename(&tmp, &path).expect("atomic save");
    let s = t.wait_for(&["reloaded", "/1.500"]);
    assert!(s.contains("walk") && s.contains("▶ play"), "{s}");

    // A broken write: a banner with line and column; the model stays on screen.
    std::fs::write(&path, "{\n \"frameRate\": 24,\n \"armature\": [\n").expect("broken");
    let s = t.wait_for(&["⚠", "line 4"]);
    assert!(
        s.contains("reload failed") && s.contains("/1.500") && s.contains("shouder_l"),
        "the last good model stays:\n{s}"
    );

    // Fixed again: the banner clears.
    std::fs::write(&path, &edited).expect("fixed");
    wait_until(&t, "the banner to clear", |s| {
        !s.contains('⚠') && s.contains("reloaded")
    });
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
    // bonescope never wrote to the watched file.
    assert_eq!(std::fs::read_to_string(&path).expect("read"), edited);
    let _ = std::fs::remove_dir_all(&dir);
}
