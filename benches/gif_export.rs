//! GIF export: a 1-s animation at 256x256 and 30 fps, posed, drawn and encoded as
//! `render --format gif` does (one palette for the animation, frames mapped in parallel):
//! spineboy-pro 4.2 `walk` when `../shared` is beside the project, the built-in sample always.
//!
//! - `gif/<name>`: the 30 frames posed, drawn by `raster::draw` and encoded by
//!   `cli::render_image::encode_gif`; the target is under a second.

use bonescope::cli::render_image::encode_gif;
use bonescope::core::animation::{MixBlend, MixDirection};
use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::format::atlas::Textures;
use bonescope::raster::{Background, Image, RenderOptions, default_viewport, draw};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;

const FPS: f64 = 30.0;

/// One second of `animation` from its start: 30 frames.
fn frames(bytes: &[u8], animation: &str, textures: &Textures) -> Vec<Image> {
    let data = Arc::new(bonescope::format::load(bytes, "bench").expect("loads"));
    let anim = data
        .animations
        .iter()
        .find(|a| a.name == animation)
        .expect("the animation");
    let mut sk = Skeleton::new(Arc::clone(&data));
    sk.set_to_setup_pose();
    sk.update_world_transform_with(Physics::None);
    let options = RenderOptions {
        width: 256,
        height: 256,
        viewport: default_viewport(&sk).expect("visible"),
        background: Background::DEFAULT,
        untextured_bones: true,
    };
    (0..FPS as usize)
        .map(|i| {
            let t = i as f64 / FPS;
            sk.set_to_setup_pose();
            anim.apply(
                &mut sk,
                -1.0,
                t,
                true,
                None,
                1.0,
                MixBlend::Setup,
                MixDirection::In,
            );
            sk.update_world_transform_with(Physics::None);
            draw(&sk, textures, &options)
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut cases = vec![(
        "lantern-keeper".to_string(),
        bonescope::EMBEDDED_SAMPLE.to_vec(),
        bonescope::embedded_sample_textures(),
    )];
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/spine/4.2");
    if corpus.is_dir() {
        let bytes = std::fs::read(corpus.join("spineboy-pro.json")).expect("spineboy-pro");
        let textures = Textures::load(&corpus.join("spineboy.atlas")).expect("atlas");
        cases.push(("spineboy-pro".into(), bytes, textures));
    } else {
        eprintln!("../shared is absent: benchmarking the project's sample only");
    }
    let mut group = c.benchmark_group("gif");
    group.sample_size(10);
    for (name, bytes, textures) in &cases {
        group.bench_function(name.as_str(), |b| {
            b.iter(|| {
                let frames = frames(bytes, "walk", textures);
                black_box(encode_gif(&frames, FPS, 0).expect("encodes"))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
