//! Spine 4.2 physics in a real terminal (tmux, 200x60): celestial-circus-pro plays its swing
//! with physics, a scrub back and forth shows the very same screen (the simulation is re-run),
//! and `p` cycles the physics mode (update, pose, none) and `R` resets it, both replayed when
//! scrubbing across them. Fails, not skips, in CI when tmux or ../shared is missing.

use crate::common;

use crate::tmux;

use std::time::Duration;
use tmux::{Tmux, shell_wrapped};

fn prompt(t: &Tmux, line: &str) {
    t.keys(&[":"]);
    t.literal(line);
    t.keys(&["Enter"]);
}

/// Every row except the status bar (its message says what the last key did).
fn panels(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    rows[..rows.len().saturating_sub(1)].join("\n")
}

/// The session frame the status bar shows (`│ #37 1.233s │`).
fn frame_of(screen: &str) -> u64 {
    let status = screen
        .lines()
        .rev()
        .find(|l| l.contains("│ #"))
        .expect("status");
    let at = status.find("│ #").expect("frame") + "│ #".len();
    let digits: String = status[at..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().expect("frame number")
}

#[test]
fn celestial_plays_scrubs_and_toggles_physics() {
    let what = "physics e2e";
    let Some(file) = common::shared_file(what, "corpus/spine/4.2/celestial-circus-pro.json") else {
        return;
    };
    if !common::tool_available(what, "tmux") {
        return;
    }
    let arg = format!("'\"'\"'{}'\"'\"'", file.display());
    let Some(t) = Tmux::start("physics", 200, 60, &shell_wrapped(&arg)) else {
        return;
    };
    t.wait_for(&["│ Spine 4.2.", "physics update"]);
    prompt(&t, "set 0 swing loop");
    t.wait_for(&["set track 0: swing"]);
    // Play about a second, then pause.
    t.keys(&["Space"]);
    t.wait_for(&["▶ play"]);
    std::thread::sleep(Duration::from_millis(1200));
    t.keys(&["Space"]);
    let live = t.settled(&["⏸ pause"]);
    let n = frame_of(&live);
    assert!(n > 5, "it played: frame {n}\n{live}");
    // Scrub back to the start and forward again: the same screen.
    t.keys(&["Home"]);
    t.wait_for(&["│ #0 "]);
    prompt(&t, &format!("frame {n}"));
    let again = t.settled(&[&format!("│ #{n} ")]);
    assert_eq!(panels(&again), panels(&live), "replayed frame {n}");
    // Cycle the physics mode: pose, none; step on without physics.
    t.keys(&["p"]);
    t.wait_for(&["│ physics pose │"]);
    t.keys(&["p"]);
    t.wait_for(&["│ physics none │"]);
    for _ in 0..10 {
        t.keys(&["Right"]);
    }
    let m = n + 10;
    let frozen = t.settled(&[&format!("│ #{m} "), "│ physics none │"]);
    // Back to a frame before the toggles: the mode there is update again.
    t.keys(&["Home"]);
    t.wait_for(&["│ #0 ", "│ physics update │"]);
    prompt(&t, &format!("frame {m}"));
    let replayed = t.settled(&[&format!("│ #{m} "), "│ physics none │"]);
    assert_eq!(panels(&replayed), panels(&frozen), "toggles replay");
    // Back to update, and a reset.
    t.keys(&["p"]);
    t.wait_for(&["│ physics update │"]);
    t.keys(&["R"]);
    t.wait_for(&["reset physics"]);
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}
