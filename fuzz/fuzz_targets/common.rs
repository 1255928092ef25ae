//! What every loader target does with a skeleton that loaded: sample a few poses of every
//! animation through the same code as `bonescope poses --json`, into nothing.

use bonescope::cli::poses::{self, PosesOptions};
use bonescope::core::model::SkeletonData;
use std::sync::Arc;

pub fn exercise(all: Vec<SkeletonData>) {
    for data in all {
        let options = PosesOptions {
            samples: 2,
            ..PosesOptions::default()
        };
        if let Ok(report) = poses::sample(Arc::new(data), "fuzz".into(), options) {
            let _ = report.write_json(&mut std::io::sink());
        }
    }
}
