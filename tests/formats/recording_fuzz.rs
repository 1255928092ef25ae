//! The attach protocol's record reader under mutation: a small recording of the built-in
//! sample (hello, frames with calls, callbacks and a nested call, gap, bye) cut and mutated
//! with a fixed seed, read and replayed. Every record is read or refused with its line, and
//! whatever reads replays without a panic.

use bonescope::core::model::SkeletonData;
use bonescope::session::recording::{Call, Hello, Item, Record, RecordReader, Replay};
use std::sync::Arc;

use crate::common::rng::Rng;

const RECORDING: &str = r#"{"kind":"hello","protocol":"bonescope-attach","version":1,"token":"","runtime":{"name":"spine-ts","version":"4.2.119"},"skeleton":{"path":"lantern-keeper.json","size":10,"sha256":"00"},"skins":["default"]}
{"kind":"frame","frame":0,"items":[{"call":"setAnimation","track":0,"animation":"walk","loop":true,"entry":1},{"call":"setMix","from":"walk","to":"idle","duration":0.2}]}
{"kind":"frame","frame":1,"items":[{"call":"update","dt":0.016666666666666666},{"callback":"start","track":0,"entry":1,"animation":"walk"},{"call":"apply"}]}
{"kind":"frame","frame":2,"items":[{"call":"update","dt":0.5},{"callback":"complete","track":0,"entry":1,"animation":"walk","trackTime":0.5},{"call":"addAnimation","track":0,"animation":"idle","loop":false,"delay":0,"entry":2,"nested":true},{"call":"apply"}]}
{"kind":"gap","dropped":3}
{"kind":"frame","frame":3,"items":[{"call":"setTimeScale","timeScale":2},{"call":"update","dt":0.1},{"call":"clearTracks"},{"call":"apply"}]}
{"kind":"bye","frames":3,"dropped":3}
"#;

fn sample() -> Arc<SkeletonData> {
    Arc::new(
        bonescope::format::load(bonescope::EMBEDDED_SAMPLE, "lantern-keeper")
            .expect("the built-in sample loads"),
    )
}

/// Reads every record of `bytes` and replays the frames; returns (records read, refused).
fn read_and_replay(bytes: &[u8], data: &Arc<SkeletonData>) -> (usize, usize) {
    let mut replay = Replay::new(Arc::clone(data), &Hello::default()).expect("a replay");
    let (mut read, mut refused) = (0, 0);
    let mut reader = RecordReader::new(bytes);
    for rec in reader.by_ref().take(10_000) {
        match rec {
            Ok((_, Record::Frame { frame, items })) => {
                read += 1;
                // Long updates are slow, not wrong: keep the test quick.
                let bounded = items.iter().all(|i| match i {
                    Item::Call {
                        call: Call::Update { dt },
                        ..
                    } => dt.abs() <= 10.0,
                    _ => true,
                });
                if bounded {
                    let _ = replay.frame(frame, &items);
                }
            }
            Ok(_) => read += 1,
            Err(e) => {
                refused += 1;
                assert!(e.to_string().starts_with("line "), "unlocated: {e}");
            }
        }
    }
    (read, refused)
}

#[test]
fn the_unmutated_recording_reads_whole() {
    let data = sample();
    assert_eq!(read_and_replay(RECORDING.as_bytes(), &data), (7, 0));
}

#[test]
fn every_prefix_and_seeded_mutation_reads_or_fails_located() {
    let data = sample();
    let bytes = RECORDING.as_bytes();
    for end in 0..=bytes.len() {
        read_and_replay(&bytes[..end], &data);
    }
    let mut rng = Rng::new(0xa77a_c4ed);
    let (mut read, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut b = bytes.to_vec();
        for _ in 0..1 + rng.index(4) {
            let i = rng.index(b.len());
            match rng.below(3) {
                0 => b[i] = rng.pick(b"0123456789-.e,:{}[]\"\n tfnu\x00\xff"),
                1 => {
                    b.remove(i);
                }
                _ => {
                    let c = b[i];
                    b.insert(i, c);
                }
            }
        }
        let (r, f) = read_and_replay(&b, &data);
        read += r;
        refused += f;
    }
    // The mutations reach both sides: records that still read and records refused.
    assert!(
        read > 1000 && refused > 1000,
        "read {read}, refused {refused}"
    );
}
