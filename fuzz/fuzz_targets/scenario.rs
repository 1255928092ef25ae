//! The scenario runner (`bonescope scenario --json`) on the built-in sample skeleton,
//! whatever skeleton the scenario names.
#![no_main]

use bonescope::cli::scenario::{self, Step};
use std::sync::{Arc, OnceLock};

/// Most frames one input may run here: the command accepts a million, which is a slow
/// input, not a bug; the limit itself is tested in tests/.
const FRAMES: u64 = 2_000;

fn sample() -> Arc<bonescope::core::model::SkeletonData> {
    static DATA: OnceLock<Arc<bonescope::core::model::SkeletonData>> = OnceLock::new();
    DATA.get_or_init(|| {
        Arc::new(
            bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "lantern-keeper")
                .expect("the built-in sample loads"),
        )
    })
    .clone()
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(sc) = scenario::parse(data) else {
        return;
    };
    let frames: u64 = sc
        .steps
        .iter()
        .map(|s| match s {
            Step::Update { count, .. } => *count,
            _ => 0,
        })
        .fold(0, u64::saturating_add);
    if frames > FRAMES {
        return;
    }
    let _ = scenario::write_json(&sc, &sample(), &mut std::io::sink());
});
