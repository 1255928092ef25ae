//! DragonBones loaders (JSON, and `.dbbin` for input starting with its tag), then sampling
//! every armature (`bonescope poses`).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let loaded = if bonescope::format::dragonbones::binary::is_dbbin(data) {
        bonescope::format::dragonbones::binary::load(data, "fuzz")
    } else {
        bonescope::format::dragonbones::load(data, "fuzz")
    };
    if let Ok(mut all) = loaded {
        for d in &mut all {
            d.finish();
        }
        common::exercise(all);
    }
});
