//! `floor/value/<name>` and `floor/ignored/<name>`: plain serde_json parsing the files of
//! bonescope's `spine_runtime` benchmark (`load/load/<name>`), with the same names, so that the
//! two reports can be set side by side. `BONESCOPE_BENCH_EXTRA=a.json:b.json` adds files, as
//! there.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use bonescope_load_floor::{Floor, float_roundtrip_enabled, parse_once};
use criterion::{Criterion, criterion_group, criterion_main};

fn named(path: &Path, suffix: &str) -> (String, Vec<u8>) {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    (format!("{stem}{suffix}"), bytes)
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = vec![named(&root.join("samples/spine/lantern-keeper.json"), "")];
    for (dir, names, suffix) in [
        (
            "3.8",
            &["spineboy-pro", "raptor-pro", "mix-and-match-pro"][..],
            "",
        ),
        (
            "4.2",
            &[
                "spineboy-pro",
                "raptor-pro",
                "mix-and-match-pro",
                "celestial-circus-pro",
            ][..],
            "@4.2",
        ),
    ] {
        let corpus = root.join("../shared/corpus/spine").join(dir);
        if corpus.is_dir() {
            for name in names {
                files.push(named(&corpus.join(format!("{name}.json")), suffix));
            }
        }
    }
    if let Some(extra) = std::env::var_os("BONESCOPE_BENCH_EXTRA") {
        for path in std::env::split_paths(&extra) {
            files.push(named(&path, ""));
        }
    }
    files
}

fn floor(c: &mut Criterion) {
    assert!(!float_roundtrip_enabled(), "serde_json must be plain here");
    let mut g = c.benchmark_group("floor");
    for (name, bytes) in inputs() {
        for kind in [Floor::Value, Floor::Ignored] {
            // Each parse timed alone, its result dropped outside the clock (as `load` does).
            g.bench_function(format!("{}/{name}", kind.name()), |b| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let t0 = Instant::now();
                        let parsed = parse_once(kind, black_box(&bytes));
                        total += t0.elapsed();
                        drop(black_box(parsed));
                    }
                    total
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, floor);
criterion_main!(benches);
