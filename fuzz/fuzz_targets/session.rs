//! The session command language (`bonescope session --script`) on the built-in sample: the
//! viewer's own prompt and playback verbs, then the report at a few frames. A script may
//! legitimately play or seek for hours of session time (a slow input, not a bug), so inputs
//! with more than 64 lines or a number beyond 10 are skipped: the sample's animations last
//! under 10 s, so 10 still covers wrapping, and each execution stays in milliseconds.
#![no_main]

use bonescope::core::model::SkeletonData;
use std::sync::{Arc, OnceLock};

fn sample() -> Arc<SkeletonData> {
    static DATA: OnceLock<Arc<SkeletonData>> = OnceLock::new();
    DATA.get_or_init(|| {
        Arc::new(
            bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "lantern-keeper")
                .expect("the built-in sample loads"),
        )
    })
    .clone()
}

/// True when every number in the script is small enough to run quickly.
fn bounded(text: &str) -> bool {
    text.lines().count() <= 64
        && text
            .split(|c: char| c.is_whitespace() || c == ':')
            .filter_map(|w| w.parse::<f64>().ok())
            .all(|v| v.abs() <= 10.0)
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if !bounded(text) {
        return;
    }
    for json in [false, true] {
        let run = bonescope::cli::session::SessionRun {
            script_name: "fuzz",
            script: data,
            animation: None,
            skins: None,
            at: &[0, 7, 3],
            json,
        };
        let _ = bonescope::cli::session::run(vec![sample()], &run, &mut std::io::sink());
    }
});
