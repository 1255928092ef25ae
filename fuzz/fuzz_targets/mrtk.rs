//! MRTK input animation reader: the recording (`bonescope curves`) and the skeleton made
//! from it (`bonescope poses`).
#![no_main]

mod common;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(rec) = bonescope::format::mrtk::load(data) {
        let report = bonescope::cli::curves::from_recording(&rec, "fuzz".into(), Some(&[0.0, 0.5]));
        let _ = report.to_json();
    }
    if let Ok(mut skeleton) = bonescope::format::mrtk::load_skeleton(data, "fuzz") {
        skeleton.finish();
        common::exercise(vec![skeleton]);
    }
});
