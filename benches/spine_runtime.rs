//! Load and per-frame cost on the Spine 3.8 corpus (spineboy-pro, raptor-pro,
//! mix-and-match-pro) and the project's sample.
//!
//! - `load/<name>`: bytes already in memory to `SkeletonData` (what `format::load` does).
//! - `json_value/<name>`: serde_json parsing the same bytes into a `Value` (the floor the
//!   loader is held to).
//! - `frame/<name>`: one 1/60 s frame of every animation in turn, looping on track 0
//!   (`Animation::apply` with `MixBlend::First`, then `update_world_transform`), averaged.

use bonescope::core::animation::{MixBlend, MixDirection};
use bonescope::core::skeleton::Skeleton;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

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
    files
        .into_iter()
        .map(|p| {
            let name = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, bytes)
        })
        .collect()
}

fn load(c: &mut Criterion) {
    let mut g = c.benchmark_group("load");
    for (name, bytes) in inputs() {
        g.bench_function(format!("load/{name}"), |b| {
            b.iter(|| bonescope::format::load(black_box(&bytes), "bench").map(|d| d.bones.len()))
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
    let mut g = c.benchmark_group("frame");
    for (name, bytes) in inputs() {
        let Ok(data) = bonescope::format::load(&bytes, &name) else {
            continue;
        };
        let data = Arc::new(data);
        let skins: Vec<String> = match name.as_str() {
            "mix-and-match-pro" => vec!["full-skins/girl".into()],
            _ => vec![],
        };
        let mut sk = Skeleton::new(data.clone());
        let names: Vec<&str> = skins.iter().map(String::as_str).collect();
        sk.set_skins_by_name(&names).expect("skin");
        let dt = 1.0 / 60.0;
        let frames_per_anim = 120;
        let mut events = Vec::new();
        g.bench_function(format!("frame/{name}"), |b| {
            let (mut a, mut k, mut time) = (0usize, 0usize, 0.0f64);
            b.iter(|| {
                let anim = &data.animations[a];
                let last = time;
                time += dt;
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
                if k == frames_per_anim {
                    k = 0;
                    time = 0.0;
                    a = (a + 1) % data.animations.len();
                }
                black_box(sk.bones[0].world_x)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, load, frame);
criterion_main!(benches);
