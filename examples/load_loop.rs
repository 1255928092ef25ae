//! Loads one file `n` times from bytes already in memory (every armature, as the viewer and
//! the commands load it: `format::load_all`), for instruction counts beside the perf
//! anchors' `ir-load`:
//! `valgrind --tool=callgrind --toggle-collect='*load_loop::load_once' target/release/examples/load_loop FILE [n=1]`.
//! Prints the median wall time per load when `n` is at least 5; as in the anchors, the clock
//! stops before the loaded data is dropped.

use bonescope::core::model::SkeletonData;
use std::time::Instant;

/// One load. Not inlined, so that profilers can attribute it. All armatures are returned,
/// so that none is dropped while the clock runs (`format::load` keeps the first and drops
/// the others of a DragonBones file).
#[inline(never)]
fn load_once(bytes: &[u8]) -> Vec<SkeletonData> {
    bonescope::format::load_all(bytes, "bench").unwrap_or_else(|e| panic!("{e}"))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: load_loop FILE [n]");
        std::process::exit(2);
    };
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (mut times, mut drops) = (Vec::with_capacity(n), 0.0);
    for _ in 0..n {
        let t0 = Instant::now();
        let data = load_once(std::hint::black_box(&bytes));
        times.push(t0.elapsed().as_nanos() as f64 / 1000.0);
        let t1 = Instant::now();
        drop(std::hint::black_box(data));
        drops += t1.elapsed().as_nanos() as f64 / 1000.0;
    }
    if n >= 5 {
        let mean = times.iter().sum::<f64>() / n as f64;
        times.sort_by(f64::total_cmp);
        println!(
            "LOAD n={n} median_us={:.1} min_us={:.1} p75_us={:.1} p90_us={:.1} mean_us={mean:.1} drop_mean_us={:.1} bytes={}",
            times[n / 2],
            times[0],
            times[n * 3 / 4],
            times[n * 9 / 10],
            drops / n as f64,
            bytes.len()
        );
    }
}
