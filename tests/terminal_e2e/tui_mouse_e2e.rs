//! `--mouse` in a real terminal (tmux): SGR mouse reports written to the pane as the
//! terminal would send them. A press on the dopesheet's time axis scrubs there, a drag
//! follows; a click on a bone row selects it. Skips when tmux is missing (fails in CI).

use crate::tmux;

use tmux::{Tmux, shell_wrapped};

/// Sends an SGR mouse report (`button` 0: left press, 32: left drag; `press` false: release)
/// at 0-based cell (x, y).
fn mouse(t: &Tmux, button: u8, x: usize, y: usize, press: bool) {
    let seq = format!(
        "[<{button};{};{}{}",
        x + 1,
        y + 1,
        if press { 'M' } else { 'm' }
    );
    let mut args = vec![
        "send-keys".to_string(),
        "-t".into(),
        "e2e".into(),
        "-H".into(),
    ];
    args.push("1b".into());
    args.extend(seq.bytes().map(|b| format!("{b:02x}")));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    t.run(&refs);
}

#[test]
fn mouse_scrubs_the_dopesheet_and_selects_bones() {
    let Some(t) = Tmux::start("mouse", 200, 60, &shell_wrapped("--mouse --animation idle")) else {
        return;
    };
    let s = t.wait_for(&["idle 2s", "Bones"]);
    let (row, line) = s
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("idle 2s"))
        .expect("dopesheet header");
    let cells: Vec<char> = line.chars().collect();
    let label = cells
        .windows(7)
        .position(|w| w.iter().collect::<String>() == "idle 2s")
        .expect("label");
    let zero = (label + 7..cells.len())
        .find(|&c| cells[c] == '0')
        .expect("0");
    let two = (zero..cells.len()).find(|&c| cells[c] == '2').expect("2");
    // Press in the middle of the axis (1 s of 2), on the first timeline row.
    mouse(&t, 0, (zero + two) / 2, row + 1, true);
    t.wait_for(&["t 1.000/2.000s (30/60)"]);
    // Drag to the start and release.
    mouse(&t, 32, zero, row + 1, true);
    mouse(&t, 0, zero, row + 1, false);
    t.wait_for(&["t 0.000/2.000s (0/60)"]);

    // A click on the "pole" bone row selects it.
    let s = t.screen();
    let (row, line) = s
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("▸ pole"))
        .expect("pole row");
    let col = line
        .chars()
        .collect::<Vec<_>>()
        .windows(6)
        .position(|w| w.iter().collect::<String>() == "▸ pole")
        .expect("pole");
    mouse(&t, 0, col + 3, row, true);
    mouse(&t, 0, col + 3, row, false);
    t.wait_for(&["Bones 25 bones · pole"]);
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
}
