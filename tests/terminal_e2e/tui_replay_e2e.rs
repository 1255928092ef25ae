//! Issue 14's two repros in a real terminal: the screen after typing commands and stepping
//! forward is the screen after Home and stepping forward again (replay), at 200x60.

use crate::tmux;

use tmux::{Tmux, shell_wrapped};

fn prompt(t: &Tmux, line: &str) {
    t.keys(&[":"]);
    t.literal(line);
    t.keys(&["Enter"]);
}

fn rights(t: &Tmux, n: usize) {
    for _ in 0..n {
        t.keys(&["Right"]);
    }
}

/// Every row except the status bar (its message says what the last key did).
fn panels(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    rows[..rows.len().saturating_sub(1)].join("\n")
}

#[test]
fn mix_then_set_on_frame_zero_replays_identically() {
    let Some(t) = Tmux::start("repro1", 200, 60, &shell_wrapped("--animation idle")) else {
        return;
    };
    t.wait_for(&["Events", "idle"]);
    prompt(&t, "mix 0.3");
    t.wait_for(&["default mix 0.3"]);
    prompt(&t, "set 0 walk loop");
    t.wait_for(&["set track 0: walk"]);
    rights(&t, 5);
    let live = t.settled(&["#5 "]);
    assert!(live.contains("idle"), "idle still mixes out live:\n{live}");
    t.keys(&["Home"]);
    t.wait_for(&["#0 "]);
    rights(&t, 5);
    let replay = t.settled(&["#5 "]);
    assert_eq!(panels(&replay), panels(&live));
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}

#[test]
fn two_sets_on_one_frame_replay_identically() {
    let Some(t) = Tmux::start("repro2", 200, 60, &shell_wrapped("--animation idle")) else {
        return;
    };
    t.wait_for(&["Events", "idle"]);
    prompt(&t, "mix 0.3");
    t.wait_for(&["default mix 0.3"]);
    rights(&t, 15);
    t.settled(&["#15 "]);
    prompt(&t, "set 0 jump");
    t.wait_for(&["set track 0: jump"]);
    prompt(&t, "set 0 walk loop");
    t.wait_for(&["set track 0: walk"]);
    rights(&t, 3);
    let live = t.settled(&["#18 "]);
    assert!(live.contains("jump"), "jump still mixes out live:\n{live}");
    // Session frame 0 (the Home key goes to the start of the walk since issue 28.5).
    prompt(&t, "home");
    t.wait_for(&["#0 "]);
    rights(&t, 18);
    let replay = t.settled(&["#18 "]);
    assert_eq!(panels(&replay), panels(&live));
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}
