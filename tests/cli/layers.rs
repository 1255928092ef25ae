//! The layers hold by construction: each module reaches only the layers below it
//! (docs/ARCHITECTURE.md). Features already keep the library's dependency tree clean; this
//! keeps the code inside one build from reaching across (`cli` into `tui`, the core into a
//! loader), which the compiler alone would allow.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("read a source folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// `file:line` of each code line (comments aside) under `src/<module>` naming one of
/// `forbidden` (`crate::tui`, ...).
fn reaches(module: &str, forbidden: &[&str]) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join(module);
    let mut found = Vec::new();
    for file in sources(&dir) {
        let text = std::fs::read_to_string(&file).expect("read a source file");
        for (i, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for f in forbidden {
                let hit = code.match_indices(f).any(|(at, _)| {
                    !code[at + f.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                });
                if hit {
                    found.push(format!("{}:{}: {f}", file.display(), i + 1));
                }
            }
        }
    }
    found
}

#[test]
fn each_module_reaches_only_the_layers_below_it() {
    let app = [
        "crate::tui",
        "crate::cli",
        "crate::app",
        "crate::watch",
        "crate::attach",
    ];
    let rules: [(&str, &[&str]); 7] = [
        (
            "core",
            &[
                &app[..],
                &["crate::format", "crate::session", "crate::raster"],
            ]
            .concat(),
        ),
        ("format", &[&app[..], &["crate::session"]].concat()),
        ("raster", &app),
        ("session", &app),
        ("lint", &app),
        ("cli", &["crate::tui", "crate::app"]),
        ("tui", &["crate::cli", "crate::app"]),
    ];
    let mut wrong = Vec::new();
    for (module, forbidden) in rules {
        let files = sources(
            &Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("src")
                .join(module),
        );
        assert!(
            !files.is_empty(),
            "src/{module} has no sources: the rule checks nothing"
        );
        wrong.extend(reaches(module, forbidden));
    }
    assert!(wrong.is_empty(), "layers crossed:\n{}", wrong.join("\n"));
}

#[test]
fn the_check_sees_a_crossing() {
    // The scan itself: `cli` does reach `crate::format`, so asking for that must find it.
    assert!(!reaches("cli", &["crate::format"]).is_empty());
    // A longer name that starts with a forbidden one is not a crossing.
    assert!(reaches("tui", &["crate::tu"]).is_empty());
}
