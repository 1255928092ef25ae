//! Times the anchors' frame protocol on one skeleton: every animation looping on track 0 for
//! `frames` frames of `update(1/60)`, `apply`, `update_world_transform`; prints the mean per
//! animation and overall, in the same format as the perf anchors so figures sit side by side.
//!
//! `cargo run --release --example frame_loop -- FILE.json [frames=10000] [skin]`

use bonescope::core::skeleton::Skeleton;
use bonescope::core::state::{AnimationState, AnimationStateData};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: frame_loop FILE.json [frames] [skin]");
        std::process::exit(2);
    };
    let frames: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let skin = args.next();
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let data = Arc::new(
        bonescope::format::load(&bytes, "bench").unwrap_or_else(|e| panic!("{path}: {e}")),
    );
    let mut total = 0.0;
    for (i, anim) in data.animations.iter().enumerate() {
        let mut sk = Skeleton::new(data.clone());
        if let Some(s) = &skin {
            sk.set_skins_by_name(&[s.as_str()]).expect("skin");
        }
        let mut st = AnimationState::new(AnimationStateData::new(data.clone()));
        st.set_animation(0, Some(i), true);
        for _ in 0..60 {
            st.update(1.0 / 60.0);
            st.apply(&mut sk);
            sk.update_world_transform();
        }
        let t0 = Instant::now();
        for _ in 0..frames {
            st.update(1.0 / 60.0);
            st.apply(&mut sk);
            sk.update_world_transform();
        }
        let ns = t0.elapsed().as_nanos() as f64 / frames as f64;
        total += ns;
        println!("FRAME anim={} ns={ns:.1}", anim.name);
    }
    println!(
        "SUMMARY mean_ns={:.1} anims={}",
        total / data.animations.len().max(1) as f64,
        data.animations.len()
    );
}
