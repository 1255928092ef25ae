//! Times the anchors' frame protocol on one skeleton: every animation looping on track 0 for
//! `frames` frames of `update(1/60)`, `apply`, skeleton `update(1/60)` and world transforms
//! with physics (`Physics::Update`, a no-op without physics constraints), then the anchors'
//! mixing scenario; prints the mean per animation, overall and for the mix, in the same format
//! as the perf anchors (`/work/shared/perf-anchors`) so figures sit side by side.
//!
//! `cargo run --release --example frame_loop -- FILE.json [frames=10000] [skin]`

use bonescope::core::model::SkeletonData;
use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::core::state::{AnimationState, AnimationStateData};
use std::sync::Arc;
use std::time::Instant;

const DT: f64 = 1.0 / 60.0;

fn skeleton(data: &Arc<SkeletonData>, skin: Option<&str>) -> Skeleton {
    let mut sk = Skeleton::new(data.clone());
    if let Some(s) = skin {
        sk.set_skins_by_name(&[s]).expect("skin");
    }
    sk
}

#[inline(always)]
fn frame_body(state: &mut AnimationState, sk: &mut Skeleton) {
    state.update(DT);
    state.apply(sk);
    sk.update(DT);
    sk.update_world_transform_with(Physics::Update);
}

/// One frame. Not inlined, so that profilers can attribute it
/// (`valgrind --tool=callgrind --toggle-collect='*frame_loop::frame'`).
#[inline(never)]
fn frame(state: &mut AnimationState, sk: &mut Skeleton) {
    frame_body(state, sk);
}

/// One frame of the mixing scenario, a separate symbol for profilers (the `black_box` keeps
/// LLVM from merging it with [`frame`]).
#[inline(never)]
fn frame_mix(state: &mut AnimationState, sk: &mut Skeleton) {
    frame_body(state, sk);
    std::hint::black_box(0x6d6978u32);
}

/// Mean ns per frame of animation `index` looping on track 0 (after 60 warm-up frames).
fn run_anim(data: &Arc<SkeletonData>, skin: Option<&str>, index: usize, frames: usize) -> f64 {
    let mut sk = skeleton(data, skin);
    let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
    state.set_animation(0, Some(index), true);
    for _ in 0..60 {
        frame(&mut state, &mut sk);
    }
    let t0 = Instant::now();
    for _ in 0..frames {
        frame(&mut state, &mut sk);
    }
    t0.elapsed().as_nanos() as f64 / frames as f64
}

/// The anchors' mixing scenario: default mix 0.25 s, track 0 switches animation every 20
/// frames (round robin), track 1 loops the second animation at alpha 0.5.
fn run_mix(data: &Arc<SkeletonData>, skin: Option<&str>, frames: usize) -> f64 {
    let n = data.animations.len();
    let mut sk = skeleton(data, skin);
    let mut sd = AnimationStateData::new(data.clone());
    sd.default_mix = 0.25;
    let mut state = AnimationState::new(sd);
    state.set_animation(0, Some(0), true);
    let t1 = state.set_animation(1, Some(1 % n), true);
    if let Some(e) = state.entry_mut(t1) {
        e.alpha = 0.5;
    }
    let mut next = 1;
    let t0 = Instant::now();
    for i in 0..frames {
        if i % 20 == 19 {
            state.set_animation(0, Some(next % n), true);
            next += 1;
        }
        frame_mix(&mut state, &mut sk);
    }
    t0.elapsed().as_nanos() as f64 / frames as f64
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: frame_loop FILE.json [frames] [skin]");
        std::process::exit(2);
    };
    let frames: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let skin = args.next();
    let skin = skin.as_deref();
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let data = Arc::new(
        bonescope::format::load(&bytes, "bench").unwrap_or_else(|e| panic!("{path}: {e}")),
    );
    let n = data.animations.len();
    if n == 0 {
        println!("SUMMARY mean_ns=0.0 anims=0 frames={frames}");
        return;
    }
    let (mut sum, mut min, mut max) = (0.0f64, f64::INFINITY, 0.0f64);
    for (i, anim) in data.animations.iter().enumerate() {
        let ns = run_anim(&data, skin, i, frames);
        println!("FRAME anim={} ns={ns:.1}", anim.name);
        sum += ns;
        min = min.min(ns);
        max = max.max(ns);
    }
    // Warm the mixing path the way the anchors do, then time it.
    run_mix(&data, skin, frames / 5);
    let mix = run_mix(&data, skin, frames);
    println!(
        "SUMMARY mean_ns={:.1} min_ns={min:.1} max_ns={max:.1} mix_ns={mix:.1} anims={n} frames={frames}",
        sum / n as f64
    );
}
