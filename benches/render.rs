//! The textured renderer: one frame of spineboy-pro 4.2 (walk at 0.5 s) at 640x480 with its
//! atlas, when `../shared` is beside the project; the built-in sample always.
//!
//! - `draw/<name>`: `raster::draw` of a posed skeleton (posing not included).
//! - Before criterion runs, each case also prints the CPU time of one frame on its thread
//!   (`/proc/thread-self/stat`, Linux): on a machine shared with other work that is the "one
//!   core" figure, where criterion's wall time also counts the waits for a core.
//!
//! Figures are in `docs/PERFORMANCE.md`.

use bonescope::core::animation::{MixBlend, MixDirection};
use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::format::atlas::Textures;
use bonescope::raster::{Background, RenderOptions, default_viewport, draw};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

fn posed(bytes: &[u8], animation: &str, t: f64) -> Skeleton {
    let data = Arc::new(bonescope::format::load(bytes, "bench").expect("loads"));
    let mut sk = Skeleton::new(Arc::clone(&data));
    sk.set_to_setup_pose();
    if let Some(a) = data.animations.iter().find(|a| a.name == animation) {
        a.apply(
            &mut sk,
            -1.0,
            t,
            false,
            None,
            1.0,
            MixBlend::Setup,
            MixDirection::In,
        );
    }
    sk.update_world_transform_with(Physics::None);
    sk
}

fn bench(c: &mut Criterion) {
    let mut cases = vec![(
        "lantern-keeper".to_string(),
        posed(bonescope::EMBEDDED_SAMPLE, "walk", 0.5),
        bonescope::embedded_sample_textures(),
    )];
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/spine/4.2");
    if corpus.is_dir() {
        let bytes = std::fs::read(corpus.join("spineboy-pro.json")).expect("spineboy-pro");
        let textures = Textures::load(&corpus.join("spineboy.atlas")).expect("atlas");
        cases.push(("spineboy-pro".into(), posed(&bytes, "walk", 0.5), textures));
    } else {
        eprintln!("../shared is absent: benchmarking the project's sample only");
    }
    for (name, sk, textures) in &cases {
        let options = RenderOptions {
            width: 640,
            height: 480,
            viewport: default_viewport(sk).expect("visible"),
            background: Background::DEFAULT,
            untextured_bones: true,
        };
        if let Some(ms) = cpu_ms_per_frame(|| {
            black_box(draw(black_box(sk), textures, &options));
        }) {
            eprintln!("draw/{name}: {ms:.2} ms of thread CPU time per frame (640x480)");
        }
        c.bench_function(&format!("draw/{name}"), |b| {
            b.iter(|| black_box(draw(black_box(sk), textures, &options)))
        });
    }
}

/// This thread's user + system CPU time, in clock ticks (USER_HZ, 100 on Linux).
fn thread_cpu_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split(' ').collect();
    Some(f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?)
}

/// CPU milliseconds per call of `f`, over at least 2 s of CPU time.
fn cpu_ms_per_frame(mut f: impl FnMut()) -> Option<f64> {
    f();
    let start = thread_cpu_ticks()?;
    let mut n = 0u32;
    while thread_cpu_ticks()? - start < 200 && n < 100_000 {
        f();
        n += 1;
    }
    Some((thread_cpu_ticks()? - start) as f64 * 10.0 / f64::from(n.max(1)))
}

criterion_group!(benches, bench);
criterion_main!(benches);
