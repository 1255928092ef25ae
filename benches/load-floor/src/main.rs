//! The load floor beside `examples/load_loop.rs`, same protocol: bytes already in memory,
//! `n` parses, the clock stopped before the result is dropped, the median printed.
//!
//! `load-floor value|ignored FILE [n=1]`: `value` parses into a `serde_json::Value` (a DOM),
//! `ignored` into `IgnoredAny` (checks the syntax, builds nothing). For instruction counts:
//! `valgrind --tool=callgrind --toggle-collect='*parse_once' load-floor value FILE 3`.

use std::time::Instant;

use bonescope_load_floor::{Floor, parse_once};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(kind), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: load-floor value|ignored FILE [n]");
        std::process::exit(2);
    };
    let Some(floor) = Floor::from_name(kind) else {
        eprintln!("unknown floor {kind:?} (value or ignored)");
        std::process::exit(2);
    };
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1).max(1);
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut times = Vec::with_capacity(n);
    for _ in 0..n {
        let t0 = Instant::now();
        let parsed = parse_once(floor, std::hint::black_box(&bytes));
        times.push(t0.elapsed().as_nanos() as f64 / 1000.0);
        drop(std::hint::black_box(parsed));
    }
    if n >= 5 {
        let mean = times.iter().sum::<f64>() / n as f64;
        times.sort_by(f64::total_cmp);
        println!(
            "FLOOR {} n={n} median_us={:.1} min_us={:.1} p75_us={:.1} p90_us={:.1} mean_us={mean:.1} bytes={}",
            floor.name(),
            times[n / 2],
            times[0],
            times[n * 3 / 4],
            times[n * 9 / 10],
            bytes.len()
        );
    }
}
