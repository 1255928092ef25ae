//! Scrubbing cost after a long session (issue 14): spineboy-pro (3.8 export) played for
//! 216,000 frames (one hour at 60 fps) with a walk/run/jump mix on track 0 and an aim on
//! track 1; then one backward step, and a jump to a random frame. Also prints the memory
//! the checkpoints hold (resident memory of as many copies of the state as the session keeps).

mod common;

use bonescope::session::{Command, Session, checkpoint};
use criterion::{Criterion, criterion_group, criterion_main};
use std::path::PathBuf;
use std::sync::Arc;

/// Resident memory of this process (bytes), from /proc (0 where unavailable).
fn rss() -> i64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|t| t.split_whitespace().nth(1)?.parse::<i64>().ok())
        .map_or(0, |pages| pages * 4096)
}

const FRAMES: u64 = 216_000;

fn long_session() -> Session {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus/spine/3.8/spineboy-pro.json");
    let (_, bytes) = common::read_named(vec![path]).remove(0);
    let data = Arc::new(bonescope::format::load(&bytes, "spineboy-pro").expect("loads"));
    let anim = |n: &str| data.find_animation(n).expect(n);
    let (walk, run, jump, aim) = (anim("walk"), anim("run"), anim("jump"), anim("aim"));
    let mut s = Session::new(data.clone(), vec![]).expect("session");
    s.push(Command::DefaultMix { duration: 0.2 }).expect("mix");
    s.push(Command::SetAnimation {
        track: 0,
        animation: walk,
        looping: true,
    })
    .expect("walk");
    s.push(Command::SetAnimation {
        track: 1,
        animation: aim,
        looping: true,
    })
    .expect("aim");
    // A command every 10 s: the session is not one long loop.
    let cycle = [run, jump, walk];
    let mut k = 0;
    while s.frame() + 600 < FRAMES {
        s.advance(600);
        s.push(Command::SetAnimation {
            track: 0,
            animation: cycle[k % 3],
            looping: cycle[k % 3] != jump,
        })
        .expect("set");
        k += 1;
    }
    s.seek_frame(FRAMES);
    s
}

fn bench(c: &mut Criterion) {
    let before = rss();
    let mut s = long_session();
    let after = rss();
    let (count, interval) = s.checkpoint_stats();
    // What one checkpoint holds: as many copies as the budget allows, measured.
    let base = rss();
    let copies: Vec<_> = (0..count.max(1))
        .map(|_| (s.skeleton().clone(), s.state().clone_without_listeners()))
        .collect();
    let full = rss();
    drop(copies);
    println!(
        "session of {FRAMES} frames: {count} checkpoints (max {}), every {interval} frames; \
         session resident growth {:.1} MiB (log {} lines); {} full checkpoints {:.1} MiB \
         ({:.1} KiB each)",
        checkpoint::MAX_CHECKPOINTS,
        (after - before) as f64 / 1048576.0,
        s.log().len(),
        count.max(1),
        (full - base) as f64 / 1048576.0,
        (full - base) as f64 / 1024.0 / count.max(1) as f64
    );
    let mut g = c.benchmark_group("session");
    g.sample_size(30);
    let mut f = FRAMES;
    g.bench_function("step_back_after_216000_frames", |b| {
        b.iter(|| {
            f = if f <= FRAMES - 5000 { FRAMES } else { f - 1 };
            s.seek_frame(f);
        })
    });
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    g.bench_function("jump_to_random_frame_of_216000", |b| {
        b.iter(|| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            s.seek_frame(x % FRAMES);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
