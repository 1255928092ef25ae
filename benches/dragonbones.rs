//! DragonBones: loading (beside the serde_json `Value` floor on the same bytes) and a frame of
//! playback (AnimationState update + apply + world transforms) on the project sample and,
//! when `../shared` is beside the project, the corpus' largest files and 5.x JSON / `.dbbin`
//! twins.
//!
//! - `load/<name>`: `format::load_all` (every armature).
//! - `json_value/<name>`: `serde_json::from_slice::<Value>`, the floor any loader pays.
//! - `frame/<name>`: one 1/60 s step of the first armature's first animation, looping.
//!
//! Figures are in `docs/PERFORMANCE.md`.

mod common;

use bonescope::core::skeleton::Skeleton;
use bonescope::core::state::{AnimationState, AnimationStateData};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("samples/dragonbones/paper-crane.json")];
    let corpus = root.join("../shared/corpus/dragonbones/4.5");
    if corpus.is_dir() {
        for name in ["Demon", "swords_man"] {
            files.push(corpus.join(format!("{name}.json")));
        }
    } else {
        eprintln!("../shared is absent: benchmarking the project's sample only");
    }
    let mut named = common::read_named(files);
    // 5.x: JSON beside the binary twin (named by extension, the stems are the same).
    let five = root.join("../shared/corpus/dragonbones/5.x");
    for rel in [
        "5.5/mecha_2903_ske.json",
        "5.5/starter_ske.json",
        "5.5/starter_ske.dbbin",
        "5.0/dragon_boy_ske.json",
        "5.0/dragon_boy_ske.dbbin",
    ] {
        let p = five.join(rel);
        if let Ok(bytes) = std::fs::read(&p) {
            named.push((rel.replace('/', "-"), bytes));
        }
    }
    named
}

fn load(c: &mut Criterion) {
    let mut g = c.benchmark_group("dragonbones");
    g.measurement_time(Duration::from_secs(3));
    for (name, bytes) in inputs() {
        g.bench_function(format!("load/{name}"), |b| {
            b.iter(|| bonescope::format::load_all(black_box(&bytes), "bench").map(|d| d.len()))
        });
        g.bench_function(format!("json_value/{name}"), |b| {
            b.iter(|| {
                serde_json::from_slice::<serde_json::Value>(black_box(&bytes))
                    .map(|v| v.is_object())
            })
        });
    }
    g.finish();
}

fn frame(c: &mut Criterion) {
    let mut g = c.benchmark_group("dragonbones");
    g.measurement_time(Duration::from_secs(3));
    for (name, bytes) in inputs() {
        let Ok(mut all) = bonescope::format::load_all(&bytes, &name) else {
            continue;
        };
        let data = Arc::new(all.swap_remove(0));
        if data.animations.is_empty() {
            continue;
        }
        let mut sk = Skeleton::new(data.clone());
        let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
        let _ = state.set_animation(0, Some(0), true);
        g.bench_function(format!("frame/{name}"), |b| {
            b.iter(|| {
                state.update(1.0 / 60.0);
                state.apply(&mut sk);
                sk.update_world_transform();
                black_box(sk.bones.len())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, load, frame);
criterion_main!(benches);
