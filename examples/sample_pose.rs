//! bonescope as a library: load any export it reads (Spine JSON or `.skel`, DragonBones JSON,
//! an MRTK recording), play one animation on track 0 and print every bone's world position at
//! a time, as the official runtimes would compute it.
//!
//! `cargo run --no-default-features --example sample_pose -- [FILE [ANIMATION [TIME]]]`
//! (no FILE: the built-in sample; no feature needed: the runtime and loaders alone.)

use bonescope::core::skeleton::{Physics, Skeleton};
use bonescope::core::state::{AnimationState, AnimationStateData};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let (bytes, name) = match args.next() {
        Some(path) => (std::fs::read(&path)?, path),
        None => (bonescope::EMBEDDED_SAMPLE.to_vec(), "lantern-keeper".into()),
    };
    // Errors carry a location (`line 12, column 5 (bones[3].parent): ...`) and a kind.
    let data = Arc::new(bonescope::format::load(&bytes, &name)?);
    let animation = match args.next() {
        Some(wanted) => data
            .find_animation(&wanted)
            .ok_or(format!("{name} has no animation {wanted:?}"))?,
        None if data.animations.is_empty() => return Err(format!("{name} has no animation").into()),
        None => 0,
    };
    let time: f64 = args.next().map(|t| t.parse()).transpose()?.unwrap_or(0.5);

    let mut skeleton = Skeleton::new(data.clone());
    let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
    state.set_animation(0, Some(animation), true);
    // A game's frame: advance the state, apply it, advance physics, pose the world.
    state.update(time);
    state.apply(&mut skeleton);
    skeleton.update(time);
    skeleton.update_world_transform_with(Physics::Update);

    println!(
        "{} ({} {}), {} at {time} s",
        name, data.source.format, data.source.version, data.animations[animation].name
    );
    for (bone, setup) in skeleton.bones.iter().zip(&data.bones) {
        println!(
            "{:<28} {:>10.3} {:>10.3}",
            setup.name, bone.world_x, bone.world_y
        );
    }
    Ok(())
}
