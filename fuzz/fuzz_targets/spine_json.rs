//! Spine JSON loader, then sampling (`bonescope poses`).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(skeleton) = bonescope::format::spine_json::load(data, "fuzz") {
        let mut all = vec![skeleton];
        all[0].finish();
        common::exercise(all);
    }
});
