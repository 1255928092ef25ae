//! Spine JSON (3.8, 4.0, 4.1, 4.2) through format recognition and the loader, then sampling
//! (`bonescope poses`).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(all) = bonescope::format::load_all(data, "fuzz") {
        common::exercise(all);
    }
});
