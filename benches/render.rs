//! The textured renderer: one frame of spineboy-pro 4.2 (walk at 0.5 s) at 640x480 with its
//! atlas, when `../shared` is beside the project; the built-in sample always.
//!
//! - `draw/<name>`: `raster::draw` of a posed skeleton (posing not included).
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
        };
        c.bench_function(&format!("draw/{name}"), |b| {
            b.iter(|| black_box(draw(black_box(sk), textures, &options)))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
