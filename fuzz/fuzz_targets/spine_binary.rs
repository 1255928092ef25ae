//! Spine binary exports (`.skel`) through format recognition and the reader, then sampling
//! (`bonescope poses`). Inputs that are not binary exports are skipped: the JSON target
//! covers those.
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if !matches!(
        bonescope::format::sniff::sniff(data),
        Ok(bonescope::format::sniff::Format::SpineBinary(_))
    ) {
        return;
    }
    if let Ok(all) = bonescope::format::load_all(data, "fuzz") {
        common::exercise(all);
    }
});
