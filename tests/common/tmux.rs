//! A tmux pane running the real binary, driven by keys like a user (for end-to-end tests).
//! `Tmux::start` returns `None`, printing why, when tmux is not installed, and fails the test
//! instead in CI (`CI=true`), where a skipped end-to-end test must never look green.
#![allow(dead_code)]

use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub struct Tmux {
    socket: String,
}

impl Tmux {
    pub fn start(name: &str, width: u16, height: u16, command: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "{name}: tmux is not installed (CI must install it)"
            );
            println!("SKIPPED {name}: tmux is not installed");
            return None;
        }
        let socket = format!("bonescope-e2e-{}-{name}", std::process::id());
        let t = Tmux { socket };
        let out = t.run(&[
            "new-session",
            "-d",
            "-s",
            "e2e",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux new-session: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        Some(t)
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .output()
            .expect("tmux")
    }

    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "e2e"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    pub fn literal(&self, text: &str) {
        self.run(&["send-keys", "-t", "e2e", "-l", text]);
    }

    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.run(&["capture-pane", "-p", "-t", "e2e"]).stdout).into_owned()
    }

    /// Waits until the screen contains every needle; panics with the screen after a timeout.
    pub fn wait_for(&self, needles: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if needles.iter().all(|n| s.contains(n)) {
                return s;
            }
            if start.elapsed() > Duration::from_secs(15) {
                panic!("timed out waiting for {needles:?}; screen:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits for the needles, then until the screen stops changing.
    pub fn settled(&self, needles: &[&str]) -> String {
        let mut last = self.wait_for(needles);
        let start = Instant::now();
        loop {
            std::thread::sleep(Duration::from_millis(300));
            let s = self.screen();
            if s == last || start.elapsed() > Duration::from_secs(10) {
                return s;
            }
            last = s;
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        self.run(&["kill-server"]);
    }
}

/// The binary inside a shell that keeps the pane open after it exits.
pub fn shell_wrapped(args: &str) -> String {
    format!(
        "sh -c '{} {args}; echo EXIT:$?; sleep 60'",
        env!("CARGO_BIN_EXE_bonescope")
    )
}
