//! DragonBones loader, then sampling every armature (`bonescope poses`).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(mut all) = bonescope::format::dragonbones::load(data, "fuzz") {
        for d in &mut all {
            d.finish();
        }
        common::exercise(all);
    }
});
