//! Load and per-frame cost on the Spine 3.8 corpus (spineboy-pro, raptor-pro,
//! mix-and-match-pro), the same rigs' Spine 4.2 exports plus celestial-circus-pro (named
//! `<name>@4.2`), the Spine 4.3 corpus (diamond-pro and the 4.3 exports of examples known
//! from 4.2, named `<name>@4.3`), and the project's samples (lantern-keeper, lever-43).
//!
//! - `load/<name>`: bytes already in memory to `SkeletonData` (what `format::load` does; the
//!   data is dropped outside the timed part, as in the anchors).
//! - `load_skel/<name>`: the same project's Spine binary export (`<name>.skel`, corpus files
//!   only, 3.8, `<name>@3.7` and `<name>@4.2`; `<name>@4.3`: the 4.3 JSON written as `.skel`
//!   by `convert --to skel` before timing, as no 4.3 `.skel` is public) to `SkeletonData`, to
//!   set beside `load/<name>`.
//! - The floor the loader is held to (serde_json parsing the same bytes into a `Value`, or
//!   into nothing) is not measured here: this package builds serde_json with
//!   `float_roundtrip`, which makes a plain parse dearer. `benches/load-floor` (a package of
//!   its own, plain serde_json) measures it on the same files under the same names:
//!   `cd benches/load-floor && cargo bench`.
//! - `frame/<name>`: one 1/60 s frame of every animation in turn, looping on track 0
//!   (`AnimationState` update + apply, `Skeleton::update`, then world transforms with physics
//!   in `Physics::Update` mode), as the anchors do.
//! - `mix/<name>`: the anchors' mixing scenario (two tracks, switching every 20 frames).
//! - `timeline/apply/<name>`: `Animation::apply` + `update_world_transform` alone.
//!
//! `BONESCOPE_BENCH_EXTRA=a.json:b.json` adds more Spine files (for instance the
//! synthetic skeleton of `../shared/perf-anchors/gen_synth.py --format 3.8`). The numbers are
//! set side by side with the perf anchors in `docs/PERFORMANCE.md`.

mod common;

use bonescope::core::animation::{MixBlend, MixDirection};
use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::core::state::{AnimationState, AnimationStateData};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("samples/spine/lantern-keeper.json")];
    let corpus = root.join("../shared/corpus/spine/3.8");
    if corpus.is_dir() {
        for name in ["spineboy-pro", "raptor-pro", "mix-and-match-pro"] {
            files.push(corpus.join(format!("{name}.json")));
        }
    } else {
        eprintln!("../shared is absent: benchmarking the project's sample only");
    }
    if let Some(extra) = std::env::var_os("BONESCOPE_BENCH_EXTRA") {
        files.extend(std::env::split_paths(&extra));
    }
    files.push(root.join("samples/spine/lever-43.json"));
    let mut named = common::read_named(files);
    for (version, list) in [("4.2", &SPINE42[..]), ("4.3", &SPINE43[..])] {
        let corpus = root.join("../shared/corpus/spine").join(version);
        if corpus.is_dir() {
            let files = list.iter().map(|n| corpus.join(format!("{n}.json")));
            for (name, bytes) in common::read_named(files.collect()) {
                named.push((format!("{name}@{version}"), bytes));
            }
        }
    }
    named
}

/// The Spine 4.3 exports (issue 19): diamond-pro (a slider) and those with a 4.2 twin.
const SPINE43: [&str; 7] = [
    "diamond-pro",
    "spineboy-pro",
    "spineboy-ess",
    "vine-pro",
    "owl-pro",
    "snowglobe-pro",
    "windmill-ess",
];

/// The Spine 4.2 exports measured beside the perf anchors (issue 12).
const SPINE42: [&str; 4] = [
    "spineboy-pro",
    "raptor-pro",
    "mix-and-match-pro",
    "celestial-circus-pro",
];

/// The time of `iters` loads of `bytes`, each timed alone with its data dropped outside the
/// clock, as the anchors do.
fn timed_loads(bytes: &[u8], iters: u64) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t0 = Instant::now();
        let data = bonescope::format::load(black_box(bytes), "bench");
        total += t0.elapsed();
        drop(black_box(data));
    }
    total
}

fn load(c: &mut Criterion) {
    let mut g = c.benchmark_group("load");
    for (name, bytes) in inputs() {
        g.bench_function(format!("load/{name}"), |b| {
            b.iter_custom(|iters| timed_loads(&bytes, iters))
        });
    }
    for (name, bytes) in skel_inputs() {
        g.bench_function(format!("load_skel/{name}"), |b| {
            b.iter_custom(|iters| timed_loads(&bytes, iters))
        });
    }
    g.finish();
}

/// The binary exports of the corpus files (none without ../shared): the 3.8 ones under their
/// name, the 3.7 and 4.2 ones as `<name>@3.7`, `<name>@4.2`, beside the JSON twins of `load/`;
/// the 4.3 JSON exports written as `.skel` as `<name>@4.3`.
fn skel_inputs() -> Vec<(String, Vec<u8>)> {
    let spine = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/spine");
    let mut named = Vec::new();
    for (version, suffix) in [("3.7", "@3.7"), ("3.8", ""), ("4.2", "@4.2")] {
        let corpus = spine.join(version);
        if !corpus.is_dir() {
            continue;
        }
        // 3.7 has no mix-and-match-pro.
        let files = ["spineboy-pro", "raptor-pro", "mix-and-match-pro"]
            .iter()
            .map(|n| corpus.join(format!("{n}.skel")))
            .filter(|p| p.is_file());
        for (name, bytes) in common::read_named(files.collect()) {
            named.push((format!("{name}{suffix}"), bytes));
        }
    }
    let corpus = spine.join("4.3");
    if corpus.is_dir() {
        let files = ["diamond-pro", "spineboy-pro", "owl-pro"]
            .iter()
            .map(|n| corpus.join(format!("{n}.json")));
        for (name, json) in common::read_named(files.collect()) {
            let data = bonescope::format::load(&json, &name).expect("a 4.3 corpus JSON loads");
            let skel = bonescope::format::spine_binary_writer::write(&data)
                .expect("a 4.3 corpus JSON is written as .skel");
            named.push((format!("{name}@4.3"), skel));
        }
    }
    named
}

/// Loads `name` with the skin the goldens use.
fn skeleton(
    name: &str,
    bytes: &[u8],
) -> Option<(Arc<bonescope::core::model::SkeletonData>, Skeleton)> {
    let data = Arc::new(bonescope::format::load(bytes, name).ok()?);
    let mut sk = Skeleton::new(data.clone());
    if name.starts_with("mix-and-match-pro") {
        sk.set_skins_by_name(&["full-skins/girl"]).ok()?;
    }
    Some((data, sk))
}

/// The anchors' frame: `update(1/60)`, `apply`, skeleton `update(1/60)`,
/// `updateWorldTransform(Physics::Update)`, each animation looping on track 0 in turn for 120
/// frames (physics does nothing on rigs without physics constraints, 3.8 ones included).
fn frame(c: &mut Criterion) {
    let mut g = c.benchmark_group("frame");
    for (name, bytes) in inputs() {
        let Some((data, mut sk)) = skeleton(&name, &bytes) else {
            continue;
        };
        let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
        let n = data.animations.len();
        g.bench_function(format!("frame/{name}"), |b| {
            let (mut a, mut k) = (0usize, 0usize);
            state.set_animation(0, Some(0), true);
            b.iter(|| {
                step(&mut state, &mut sk);
                k += 1;
                if k == 120 {
                    k = 0;
                    a = (a + 1) % n;
                    state.set_animation(0, Some(a), true);
                }
                black_box(sk.bones[0].world_x)
            })
        });
    }
    g.finish();
}

/// One of the anchors' frames: the state and the skeleton advance by `DT`, then pose.
#[inline]
fn step(state: &mut AnimationState, sk: &mut Skeleton) {
    state.update(DT);
    state.apply(sk);
    sk.update(DT);
    sk.update_world_transform_with(Physics::Update);
}

/// The anchors' mixing scenario: default mix 0.25 s, track 0 switches animation every 20
/// frames (round robin), track 1 loops the second animation at alpha 0.5.
fn mix(c: &mut Criterion) {
    let mut g = c.benchmark_group("mix");
    for (name, bytes) in inputs() {
        let Some((data, mut sk)) = skeleton(&name, &bytes) else {
            continue;
        };
        let n = data.animations.len();
        let mut sd = AnimationStateData::new(data.clone());
        sd.default_mix = 0.25;
        let mut state = AnimationState::new(sd);
        g.bench_function(format!("mix/{name}"), |b| {
            let (mut next, mut i) = (1usize, 0u64);
            state.set_animation(0, Some(0), true);
            let t1 = state.set_animation(1, Some(1 % n), true);
            if let Some(e) = state.entry_mut(t1) {
                e.alpha = 0.5;
            }
            b.iter(|| {
                if i % 20 == 19 {
                    state.set_animation(0, Some(next % n), true);
                    next += 1;
                }
                i += 1;
                step(&mut state, &mut sk);
                black_box(sk.bones[0].world_x)
            })
        });
    }
    g.finish();
}

/// The Timeline API alone: `Animation::apply` + `update_world_transform` (what `poses` does per
/// sample, minus the setup-pose reset).
fn timeline_apply(c: &mut Criterion) {
    let mut g = c.benchmark_group("timeline");
    for (name, bytes) in inputs() {
        let Some((data, mut sk)) = skeleton(&name, &bytes) else {
            continue;
        };
        let mut events = Vec::new();
        g.bench_function(format!("apply/{name}"), |b| {
            let (mut a, mut k, mut time) = (0usize, 0usize, 0.0f64);
            b.iter(|| {
                let anim = &data.animations[a];
                let last = time;
                time += DT;
                events.clear();
                anim.apply(
                    &mut sk,
                    last,
                    time,
                    true,
                    Some(&mut events),
                    1.0,
                    MixBlend::First,
                    MixDirection::In,
                );
                sk.update_world_transform();
                k += 1;
                if k == 120 {
                    (k, time) = (0, 0.0);
                    a = (a + 1) % data.animations.len();
                }
                black_box(sk.bones[0].world_x)
            })
        });
    }
    g.finish();
}

const DT: f64 = 1.0 / 60.0;

criterion_group!(benches, load, frame, mix, timeline_apply);
criterion_main!(benches);
