//! The attach protocol's record reader (`session::recording`) on arbitrary bytes, and the
//! replay of whatever frames it reads on the built-in sample: located errors, never a panic,
//! a hang or unbounded memory.
#![no_main]

use bonescope::core::model::SkeletonData;
use bonescope::session::recording::{Hello, Record, RecordReader, Replay};
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

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    let Ok(mut replay) = Replay::new(sample(), &Hello::default()) else {
        return;
    };
    for rec in RecordReader::new(bytes).take(256) {
        if let Ok((_, Record::Frame { frame, items })) = rec {
            // Long updates are slow, not wrong: keep each execution short.
            let bounded = items.iter().all(|i| match i {
                bonescope::session::recording::Item::Call {
                    call: bonescope::session::recording::Call::Update { dt },
                    ..
                } => dt.abs() <= 10.0,
                _ => true,
            });
            if bounded && items.len() <= 256 {
                let _ = replay.frame(frame, &items);
            }
        }
    }
});
