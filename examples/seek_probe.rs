//! Scrubbing a long session, for instruction counts (issue 33, goal 3): plays every
//! animation of FILE one after the other on track 0 (looping, switched every 90 frames so the
//! event log keeps growing) for FRAMES frames, then steps back one frame `probes` times and
//! seeks to `probes` pseudo-random frames. Each step back and each seek is its own function,
//! so callgrind gives the instructions of one (`benches/side_by_side.py ir`):
//!
//! `valgrind --tool=callgrind target/profiling/examples/seek_probe FILE 100000 [probes=20]`
//!
//! Prints the session's memory figures (checkpoints, their interval, log lines kept and
//! dropped, the bytes the budget counts per checkpoint beside what one copy adds to resident
//! memory, and the two budgets: checkpoint bytes and log lines) and the wall time per step
//! back and per seek.

use bonescope::session::{Command, Session};
use std::sync::Arc;
use std::time::Instant;

/// One step back. Not inlined, so that profilers can attribute it.
#[inline(never)]
fn step_back(s: &mut Session) {
    let f = s.frame().saturating_sub(1);
    s.seek_frame(f);
}

/// One seek to `frame`. Not inlined, so that profilers can attribute it.
#[inline(never)]
fn random_seek(s: &mut Session, frame: u64) {
    s.seek_frame(frame);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), Some(frames)) = (args.next(), args.next()) else {
        eprintln!("usage: seek_probe FILE FRAMES [probes=20]");
        std::process::exit(2);
    };
    let frames: u64 = frames.parse().expect("FRAMES: a whole number");
    let probes: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let data = Arc::new(bonescope::format::load(&bytes, "bench").expect("loads"));
    let n = data.animations.len().max(1) as u64;
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    // Every 90 frames the next animation (when there is one): a session of inputs.
    let mut at = 0;
    let mut k = 0;
    while at <= frames && !data.animations.is_empty() {
        s.seek_frame(at);
        s.push(Command::SetAnimation {
            track: 0,
            animation: (k % n) as usize,
            looping: true,
        })
        .expect("set");
        at += 90;
        k += 1;
    }
    s.seek_frame(frames);
    let t0 = Instant::now();
    for _ in 0..probes {
        step_back(&mut s);
    }
    let back_us = t0.elapsed().as_secs_f64() * 1e6 / probes.max(1) as f64;
    // A fixed pseudo-random sequence (an LCG): the same frames every run.
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let t0 = Instant::now();
    for _ in 0..probes {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        random_seek(&mut s, (x >> 33) % (frames + 1));
    }
    let seek_us = t0.elapsed().as_secs_f64() * 1e6 / probes.max(1) as f64;
    let (checkpoints, interval) = s.checkpoint_stats();
    // What the budget counts a checkpoint as, beside what 64 copies add to resident memory.
    let counted = bonescope::session::checkpoint::approx_bytes(s.skeleton(), s.state());
    let before = rss();
    let copies: Vec<_> = (0..64)
        .map(|_| (s.skeleton().clone(), s.state().clone_without_listeners()))
        .collect();
    let measured = (rss() - before) / copies.len() as i64;
    drop(copies);
    println!(
        "SEEK frames={frames} probes={probes} back_us={back_us:.1} seek_us={seek_us:.1} checkpoints={checkpoints} interval={interval} log_lines={} log_dropped={} checkpoint_bytes={counted} copy_rss_bytes={measured} checkpoint_budget_bytes={} log_budget_lines={}",
        s.log().len(),
        s.log_dropped(),
        bonescope::session::checkpoint::budget_bytes(),
        bonescope::session::log_budget_lines()
    );
}

/// Resident memory of this process (bytes), from /proc (0 where unavailable).
fn rss() -> i64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|t| t.split_whitespace().nth(1)?.parse::<i64>().ok())
        .map_or(0, |pages| pages * 4096)
}
