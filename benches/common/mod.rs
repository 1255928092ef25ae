//! Shared by the benchmarks: reading the input files.

use std::path::PathBuf;

/// Each file's stem and bytes (a missing file is a broken benchmark setup: it panics).
pub fn read_named(files: Vec<PathBuf>) -> Vec<(String, Vec<u8>)> {
    files
        .into_iter()
        .map(|p| {
            let name = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (name, bytes)
        })
        .collect()
}
