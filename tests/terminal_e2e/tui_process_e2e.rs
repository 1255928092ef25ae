//! Process manners in a real terminal (tmux): Ctrl+Z hands the terminal back to the shell and
//! `fg` brings the viewer back; a file that does not exist yet is waited for; SIGHUP (the
//! terminal closing) leaves nothing running and writes nothing; SIGINT and SIGTERM restore
//! the terminal and exit 128 + the signal. Skips when tmux is missing (fails in CI).

use crate::tmux;

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};
use tmux::{Tmux, shell_wrapped};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_bonescope")
}

fn sample() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bonescope-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// tmux's view of the pane's terminal modes: `alt=1 mouse=1` while the viewer runs with
/// `--mouse`.
fn modes(t: &Tmux) -> String {
    let out = t.run(&[
        "display-message",
        "-p",
        "-t",
        "e2e",
        "alt=#{alternate_on} mouse=#{mouse_any_flag}",
    ]);
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The pid of the pane's shell's child (bonescope).
fn child_of_pane(t: &Tmux) -> Option<String> {
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

#[test]
fn ctrl_z_suspends_with_the_terminal_restored_and_fg_resumes() {
    let Some(t) = Tmux::start(
        "suspend",
        100,
        30,
        "env PS1='SHELL$ ' bash --norc --noprofile -i",
    ) else {
        return;
    };
    t.wait_for(&["SHELL$"]);
    t.literal(&format!("{} --mouse", bin()));
    t.keys(&["Enter"]);
    t.wait_for(&["Preview", "pause"]);
    assert_eq!(modes(&t), "alt=1 mouse=1");

    t.keys(&["C-z"]);
    let s = t.wait_for(&["Stopped"]);
    assert!(!s.contains("Preview"), "the main screen is back:\n{s}");
    assert_eq!(modes(&t), "alt=0 mouse=0", "alternate screen and mouse off");
    t.literal(
        "stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e echo | tr '\\n' ' '; echo TTY-CHECKED",
    );
    t.keys(&["Enter"]);
    let s = t.wait_for(&["icanon echo TTY-CHECKED"]);
    assert!(s.contains("Stopped"), "{s}");

    // fg: the whole screen is drawn again, input works.
    t.keys(&["C-l"]);
    t.literal("fg");
    t.keys(&["Enter"]);
    t.wait_for(&["Preview", "pause", "Tracks"]);
    assert_eq!(modes(&t), "alt=1 mouse=1");
    t.keys(&["Space"]);
    t.wait_for(&["▶ play"]);
    t.keys(&["q"]);
    t.wait_for(&["SHELL$"]);
    t.literal("echo EXIT:$?");
    t.keys(&["Enter"]);
    t.wait_for(&["EXIT:0"]);
}

#[test]
fn a_missing_file_is_waited_for_and_opens_when_written() {
    let dir = temp_dir("wait");
    let path = dir.join("later.json");
    let Some(t) = Tmux::start("wait", 100, 30, &shell_wrapped(&path.display().to_string())) else {
        return;
    };
    let s = t.wait_for(&["waiting for", "later.json"]);
    assert!(!s.contains("EXIT:"), "it waits instead of exiting:\n{s}");
    // An exporter writes it (temp file, then rename).
    let text = std::fs::read_to_string(sample()).expect("sample");
    std::fs::write(dir.join(".later.tmp"), &text).expect("write");
    std::fs::rename(dir.join(".later.tmp"), &path).expect("rename");
    let s = t.wait_for(&["Preview", "Tracks", "later.json"]);
    assert!(!s.contains("waiting for"), "{s}");
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_file_without_a_terminal_is_an_error() {
    let dir = temp_dir("wait-noterm");
    let out = Command::new(bin())
        .arg(dir.join("nope.json"))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope.json: no such file"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sighup_ends_silently_with_status_129_and_nothing_left_running() {
    let dir = temp_dir("hup");
    let watched = dir.join("keeper.json");
    std::fs::copy(sample(), &watched).expect("copy");
    let (err, status) = (dir.join("stderr"), dir.join("status"));
    // The shell ignores the hang-up so it can record how bonescope ended.
    let cmd = format!(
        "sh -c \"trap '' HUP; {} {} 2>{}; echo \\$? > {}\"",
        bin(),
        watched.display(),
        err.display(),
        status.display()
    );
    let Some(t) = Tmux::start("hup", 100, 30, &cmd) else {
        return;
    };
    t.wait_for(&["Preview", "keeper.json"]);
    let pid = child_of_pane(&t).expect("bonescope's pid");
    // Close the terminal.
    t.run(&["kill-server"]);
    let start = Instant::now();
    while !status.exists()
        || std::fs::read_to_string(&status)
            .unwrap_or_default()
            .is_empty()
    {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "bonescope did not exit after SIGHUP"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        std::fs::read_to_string(&status).expect("status").trim(),
        "129"
    );
    assert_eq!(
        std::fs::read_to_string(&err).expect("stderr"),
        "",
        "nothing written after the hang-up"
    );
    assert!(
        !PathBuf::from(format!("/proc/{pid}")).exists(),
        "process {pid} still running"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn signal_status(name: &str, signal: &str, expected: &str) {
    let Some(t) = Tmux::start(name, 80, 24, &shell_wrapped("")) else {
        return;
    };
    t.wait_for(&["Preview"]);
    let pid = child_of_pane(&t).expect("bonescope's pid");
    let out = Command::new("kill")
        .args([signal, &pid])
        .output()
        .expect("kill");
    assert!(out.status.success());
    let s = t.wait_for(&["EXIT:"]);
    assert!(s.contains(&format!("EXIT:{expected}")), "{s}");
    assert!(!s.contains("Preview"), "the main screen is back:\n{s}");
}

#[test]
fn sigint_and_sigterm_restore_and_exit_128_plus_the_signal() {
    signal_status("int", "-INT", "130");
    signal_status("term", "-TERM", "143");
}
