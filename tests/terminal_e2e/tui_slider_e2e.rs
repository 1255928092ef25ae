//! A Spine 4.3 slider in a real terminal (tmux, 200x60): diamond-pro plays `idle-rotating`,
//! which turns the bone driving the `rotation` slider. Stepping forwards, the slider row's
//! live time and the `→ applied` row of the bone it turns (`middle-rotation`, whose pose
//! stays 0) follow the frames; stepping back and going home show exactly what was shown
//! before (at the start the pose and applied pose agree: no applied row). Fails, not skips,
//! in CI when tmux or ../shared is missing.

use crate::common;

use crate::tmux;

use tmux::{Tmux, shell_wrapped};

fn prompt(t: &Tmux, line: &str) {
    t.keys(&[":"]);
    t.literal(line);
    t.keys(&["Enter"]);
}

/// The Bones panel's column of the screen (the right-hand one in the 200-column layout).
fn bones(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().collect();
    let start = rows
        .first()
        .and_then(|r| r.find("Bones"))
        .map(|b| r_chars(rows[0], b))
        .expect("a Bones panel");
    rows[..rows.len().saturating_sub(1)]
        .iter()
        .map(|r| r.chars().skip(start.saturating_sub(2)).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The char index of byte offset `b` in `s`.
fn r_chars(s: &str, b: usize) -> usize {
    s[..b].chars().count()
}

/// The slider row's live time (`◇ rotation slider t 0.500 mix 1.00 ...`).
fn slider_time(panel: &str) -> String {
    let row = panel
        .lines()
        .find(|l| l.contains("◇ rotation"))
        .unwrap_or_else(|| panic!("a slider row:\n{panel}"));
    let at = row.find("slider t ").expect("slider time") + "slider t ".len();
    row[at..].split_whitespace().next().expect("t").to_string()
}

/// The applied rotation shown under `middle-rotation` (`None`: no applied row).
fn applied_rot(panel: &str) -> Option<String> {
    let lines: Vec<&str> = panel.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.contains("▾ middle-rotation "))
        .unwrap_or_else(|| panic!("middle-rotation:\n{panel}"));
    let next = lines.get(i + 1)?;
    let at = next.find("→ applied")? + "→ applied".len();
    next[at..].split_whitespace().next().map(str::to_string)
}

#[test]
fn diamond_slider_scrubs_forwards_and_back() {
    let what = "slider e2e";
    let Some(file) = common::shared_file(what, "corpus/spine/4.3/diamond-pro.json") else {
        return;
    };
    if !common::tool_available(what, "tmux") {
        return;
    }
    let arg = format!("'\"'\"'{}'\"'\"'", file.display());
    let Some(t) = Tmux::start("slider", 200, 60, &shell_wrapped(&arg)) else {
        return;
    };
    t.wait_for(&["│ Spine 4.3"]);
    prompt(&t, "set 0 idle-rotating loop");
    t.wait_for(&["set track 0: idle-rotating"]);
    // The Bones panel, every bone expanded.
    t.keys(&["B"]);
    t.keys(&["*"]);
    let start = bones(&t.settled(&["◇ rotation", "│ #0 "]));
    assert_eq!(slider_time(&start), "0.000", "{start}");
    assert_eq!(applied_rot(&start), None, "pose = applied at 0\n{start}");

    // 15 frames of 1/30 s: the control bone turned 90 degrees, the slider is at 0.5 s.
    for _ in 0..15 {
        t.keys(&["Right"]);
    }
    let quarter = bones(&t.settled(&["│ #15 "]));
    assert_eq!(slider_time(&quarter), "0.500", "{quarter}");
    assert_eq!(applied_rot(&quarter).as_deref(), Some("90.0"), "{quarter}");
    let pose_row = quarter
        .lines()
        .find(|l| l.contains("▾ middle-rotation "))
        .expect("row");
    assert!(pose_row.contains("   0.0 "), "the pose stays: {pose_row}");

    for _ in 0..15 {
        t.keys(&["Right"]);
    }
    let half = bones(&t.settled(&["│ #30 "]));
    assert_eq!(slider_time(&half), "1.000", "{half}");
    // About half a turn (the slider's animation eases: 179.9).
    let rot: f64 = applied_rot(&half)
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("an applied rotation\n{half}"));
    assert!((rot - 180.0).abs() < 0.5, "{rot}\n{half}");

    // Back: the very same panel as on the way forwards.
    for _ in 0..15 {
        t.keys(&["Left"]);
    }
    let back = bones(&t.settled(&["│ #15 "]));
    assert_eq!(back, quarter, "frame 15 again");
    t.keys(&["Home"]);
    let home = bones(&t.settled(&["│ #0 "]));
    assert_eq!(home, start, "frame 0 again");
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}
