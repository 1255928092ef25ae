//! bonescope as a library: drive Spine's AnimationState (tracks, mixing, queuing) and print
//! every listener callback in the order the runtime fires it, including those caused by a call
//! made from inside a listener.
//!
//! `cargo run --no-default-features --example listener_log -- [FILE]` (no FILE: the built-in
//! sample, which has `walk`, `idle`, `wave` and `jump`).

use bonescope::core::skeleton::Skeleton;
use bonescope::core::state::{AnimationState, AnimationStateData, NotificationKind};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (bytes, name) = match std::env::args().nth(1) {
        Some(path) => (std::fs::read(&path)?, path),
        None => (bonescope::EMBEDDED_SAMPLE.to_vec(), "lantern-keeper".into()),
    };
    let data = Arc::new(bonescope::format::load(&bytes, &name)?);
    let names: Vec<&str> = data.animations.iter().map(|a| a.name.as_str()).collect();
    let (Some(&first), Some(&second)) = (names.first(), names.get(1)) else {
        return Err(format!("{name} needs two animations").into());
    };

    let mut mixes = AnimationStateData::new(data.clone());
    mixes.set_mix_by_name(first, second, 0.2)?;
    let mut state = AnimationState::new(mixes);
    let second_index = data.find_animation(second);
    let mut queued = false;
    state.add_listener(Box::new(move |state, n| {
        let entry = state.animation_name(n.entry).to_string();
        match &n.event {
            Some(event) => println!(
                "  track {} {:<9} {entry}: {:?}",
                n.track,
                n.kind.name(),
                state.data.skeleton.events[event.data].name
            ),
            None => println!("  track {} {:<9} {entry}", n.track, n.kind.name()),
        }
        // A listener may call back into the state: its callbacks come in firing order.
        if n.kind == NotificationKind::Complete && !queued {
            queued = true;
            state.add_animation(1, second_index, false, 0.0);
        }
    }));

    println!("set {first} (loop) on track 0, then queue {second} after one second");
    state.set_animation(0, data.find_animation(first), true);
    state.add_animation(0, second_index, true, 1.0);
    let mut skeleton = Skeleton::new(data.clone());
    let dt = 1.0 / 30.0;
    for frame in 1..=90 {
        // Events and completions fire while the state is applied, as in the runtimes.
        state.update(dt);
        state.apply(&mut skeleton);
        if frame % 30 == 0 {
            println!("frame {frame}");
        }
    }
    Ok(())
}
