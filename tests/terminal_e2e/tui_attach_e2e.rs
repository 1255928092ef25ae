//! The attached viewer end to end: `bonescope attach` runs in tmux at 80x24, this test
//! streams a game's recording to it over TCP (written here, no Node needed): the viewer
//! follows (`LIVE`, the frame counter grows), the user scrubs back while frames keep coming
//! (the view stays, the live counter grows), then `.` returns to the newest frame.

use crate::common;

use crate::tmux;

use std::io::Write;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tmux::{Tmux, shell_wrapped};

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// The number after `prefix` on the screen.
fn number_after(screen: &str, prefix: &str) -> Option<u64> {
    let at = screen.find(prefix)? + prefix.len();
    let digits: String = screen[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

fn wait_number(t: &Tmux, prefix: &str, at_least: u64) -> (u64, String) {
    let start = Instant::now();
    loop {
        let s = t.screen();
        if let Some(n) = number_after(&s, prefix)
            && n >= at_least
        {
            return (n, s);
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no {prefix}N >= {at_least}; screen:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_viewer_follows_a_live_stream_scrubs_back_and_returns_to_live() {
    let dir = std::env::temp_dir().join(format!("bonescope-attach-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let err = dir.join("stderr.txt");
    let port = free_port();
    let cmd = shell_wrapped(&format!("attach --port {port} 2>{}", err.display()));
    let Some(t) = Tmux::start("attach", 80, 24, &cmd) else {
        return;
    };
    // The token, from the start-up lines on stderr.
    let start = Instant::now();
    let token = loop {
        let text = std::fs::read_to_string(&err).unwrap_or_default();
        if let Some(tok) = text
            .lines()
            .find_map(|l| l.strip_prefix("bonescope attach: token "))
        {
            break tok.trim().to_string();
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no token on stderr: {text}\nscreen:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    t.wait_for(&["waiting for a game"]);
    let skeleton = common::project_dir().join("samples/spine/lantern-keeper.json");
    let mut game = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    let hello = serde_json::json!({"kind": "hello", "protocol": "bonescope-attach", "version": 1,
        "token": token, "runtime": {"name": "spine-ts", "version": "3.8.99"},
        "skeleton": {"path": skeleton.to_string_lossy()}});
    writeln!(game, "{hello}").expect("hello");
    writeln!(game, r#"{{"kind":"frame","frame":0,"items":[{{"call":"setAnimation","track":0,"animation":"idle","loop":true,"entry":1}},{{"callback":"start","track":0,"entry":1,"animation":"idle"}}]}}"#).expect("frame 0");
    // The game keeps playing in the background: a frame every 20 ms.
    let stop = Arc::new(AtomicBool::new(false));
    let playing = {
        let stop = stop.clone();
        let mut game = game.try_clone().expect("clone");
        std::thread::spawn(move || {
            let mut f = 1u64;
            while !stop.load(Ordering::Relaxed) && f < 100_000 {
                let line = format!(
                    r#"{{"kind":"frame","frame":{f},"items":[{{"call":"update","dt":0.03333333333333333}},{{"call":"apply"}}]}}"#
                );
                if writeln!(game, "{line}").is_err() {
                    return;
                }
                f += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    // Following: LIVE, and the counter grows.
    let (first, s) = wait_number(&t, "LIVE #", 1);
    assert!(s.contains("spine-ts 3.8.99 same"), "{s}");
    let (later, _) = wait_number(&t, "LIVE #", first + 10);
    assert!(later > first);
    // Scrub back while frames keep coming: the view stays, the live counter grows.
    t.keys(&["S-Left"]);
    let (paused_at, s) = wait_number(&t, "PAUSED at frame ", 0);
    let live_then = number_after(&s, "(live: ").expect("live counter");
    assert!(paused_at < live_then, "{s}");
    let (live_now, s) = wait_number(&t, "(live: ", live_then + 10);
    assert_eq!(
        number_after(&s, "PAUSED at frame "),
        Some(paused_at),
        "the paused view must not move: {s}"
    );
    // Back to live: the newest frame again.
    t.keys(&["."]);
    let (back, _) = wait_number(&t, "LIVE #", live_now);
    assert!(back >= live_now);
    stop.store(true, Ordering::Relaxed);
    let _ = playing.join();
    drop(game);
    t.wait_for(&["left"]);
    t.keys(&["q"]);
    t.wait_for(&["EXIT:0"]);
    let _ = std::fs::remove_dir_all(&dir);
}
