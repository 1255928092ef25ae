//! The pipeline commands end to end (the real binary): `check`, `diff`, `render`,
//! `completions`, `man`, with their exit statuses, text (insta snapshots) and JSON shapes.

use crate::common;

use common::bonescope;

use serde_json::Value;
use std::path::{Path, PathBuf};

const SPINE_SAMPLE: &str = "samples/spine/lantern-keeper.json";
const DB_SAMPLE: &str = "samples/dragonbones/paper-crane.json";

/// A scratch folder for this test.
fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("bonescope-headless-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The Spine sample, edited as JSON by `edit`, written to `dir/name`.
#[allow(clippy::disallowed_methods)] // builds an input file, not output
fn edited_sample(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> String {
    let mut v = common::read_json(&common::project_dir().join(SPINE_SAMPLE));
    edit(&mut v);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec_pretty(&v).expect("json")).expect("write");
    path.display().to_string()
}

/// Replaces the machine-dependent scratch folder in outputs.
fn redact(s: &str, dir: &Path) -> String {
    s.replace(&dir.display().to_string(), "<tmp>")
}

// ---------------------------------------------------------------- check

#[test]
fn check_clean_samples_exit_0() {
    let (code, out, err) = bonescope(&[
        "check",
        SPINE_SAMPLE,
        DB_SAMPLE,
        "samples/mrtk/wave-and-pinch.bin",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    insta::assert_snapshot!("check_samples", out);
}

#[test]
fn check_findings_exit_1_with_locations() {
    let dir = scratch("check-findings");
    // A dangling parent: the loader refuses it with its location.
    let dangling = edited_sample(&dir, "dangling.json", |v| {
        v["bones"][2]["parent"] = "nowhere".into();
    });
    let (code, out, err) = bonescope(&["check", &dangling]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("error[dangling-reference] line ") && out.contains("(bones[2].parent)"),
        "{out}"
    );
    // The code comes from the error's kind, never from words of its message: names from the
    // file may read like another kind's words.
    for (name, misleading) in [
        ("duplicate-arm", "duplicate"),
        ("unsupported-arm", "unsupported"),
        ("not supported", "not supported"),
        ("unrecognised NaN", "unrecognised"),
    ] {
        let file = edited_sample(&dir, &format!("{misleading}.json"), |v| {
            v["bones"][2]["parent"] = name.into();
        });
        let (code, out, err) = bonescope(&["check", &file]);
        assert_eq!(code, 1, "{name}: {out}{err}");
        assert!(
            out.contains("error[dangling-reference] line ") && out.contains("(bones[2].parent)"),
            "{name}: {out}"
        );
    }
    // A duplicate bone named like a missing one is a duplicate name.
    let twice = edited_sample(&dir, "twice.json", |v| {
        let bones = v["bones"].as_array_mut().unwrap();
        bones[1]["name"] = "unknown bone".into();
        bones[2]["name"] = "unknown bone".into();
    });
    let (code, out, _) = bonescope(&["check", &twice]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[duplicate-name]"), "{out}");
    // An event nothing keys, an empty skin and an unused bone: infos only, still exit 0.
    let unused = edited_sample(&dir, "unused.json", |v| {
        v["events"]["never"] = serde_json::json!({});
        v["bones"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"name": "spare", "parent": "root"}));
    });
    let (code, out, _) = bonescope(&["check", &unused]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("info[event-never-keyed] events.never"),
        "{out}"
    );
    assert!(out.contains("info[unused-bone] bones.spare"), "{out}");
    // A setup attachment no skin has: refused by the loader, located.
    let ghost = edited_sample(&dir, "ghost.json", |v| {
        let slots = v["slots"].as_array_mut().unwrap();
        slots[0]["attachment"] = "ghost".into();
    });
    let (code, out, _) = bonescope(&["check", &ghost]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[dangling-reference]") && out.contains("(slots[0].attachment)"),
        "{out}"
    );
    // An animation that keys nothing: a warning, failing only with --deny warnings.
    let warn = edited_sample(&dir, "warn.json", |v| {
        v["animations"]["empty"] = serde_json::json!({});
    });
    let (code, out, _) = bonescope(&["check", &warn]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning[empty-animation] animations.empty"),
        "{out}"
    );
    let (code, _, _) = bonescope(&["check", "--deny", "warnings", &warn]);
    assert_eq!(code, 1);
    insta::assert_snapshot!(
        "check_findings",
        redact(
            &bonescope(&["check", &dangling, &unused, &ghost, &warn]).1,
            &dir
        )
    );

    // JSON: one document with the documented shape.
    let (code, out, _) = bonescope(&["check", "--json", &dangling, &warn]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["exitStatus"], 1);
    assert_eq!(v["errors"], 1);
    assert_eq!(v["unreadable"], 0);
    let f0 = &v["files"][0];
    assert_eq!(f0["status"], "findings");
    assert_eq!(f0["findings"][0]["severity"], "error");
    assert_eq!(f0["findings"][0]["code"], "dangling-reference");
    assert_eq!(f0["findings"][0]["path"], "bones[2].parent");
    assert!(f0["findings"][0]["line"].as_u64().unwrap() > 1);
    assert!(f0["findings"][0]["column"].as_u64().is_some());
    assert_eq!(v["files"][1]["format"], "Spine 3.8.99");

    // GitHub workflow commands, with line and column when known.
    let (code, out, _) = bonescope(&["check", "--format", "github", &dangling, &warn]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("::error file="), "{out}");
    assert!(
        lines[0].contains(",line=") && lines[0].contains(",col="),
        "{out}"
    );
    assert!(
        lines[0].contains("title=bonescope dangling-reference::"),
        "{out}"
    );
    assert!(
        lines.iter().any(|l| l.starts_with("::warning file=")),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 30 point 6: every check states the export version and the runtime line that reads
/// it; 3.8.75 (refused by the official 3.8 runtimes) warns with the fix; versions bonescope
/// does not read are refused naming the version and what it reads.
#[test]
fn check_states_versions_and_warns_on_3_8_75() {
    let dir = scratch("check-versions");
    let beta = edited_sample(&dir, "beta.json", |v| {
        v["skeleton"]["spine"] = "3.8.75".into();
    });
    let (code, out, err) = bonescope(&["check", &beta]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("beta.json: Spine 3.8.75 export, for the Spine 3.8 runtimes")
            && out.contains("warning[version-refused-by-runtime]")
            && out.contains("re-export it with a newer 3.8"),
        "{out}"
    );
    let (code, out, err) = bonescope(&["check", "--json", "--deny", "warnings", &beta]);
    assert_eq!(code, 1, "{out}{err}");
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let file = &v["files"][0];
    assert_eq!(file["version"], "3.8.75", "{out}");
    assert_eq!(file["runtime"], "Spine 3.8", "{out}");
    assert_eq!(
        file["findings"][0]["code"], "version-refused-by-runtime",
        "{out}"
    );
    // Not 3.8.76.
    let fixed = edited_sample(&dir, "fixed.json", |v| {
        v["skeleton"]["spine"] = "3.8.76".into();
    });
    let (_, out, _) = bonescope(&["check", &fixed]);
    assert!(!out.contains("version-refused-by-runtime"), "{out}");
    for version in ["2.1.27", "3.5.51", "3.6.53", "4.4.1"] {
        let old = edited_sample(&dir, &format!("{version}.json"), |v| {
            v["skeleton"]["spine"] = version.into();
        });
        let (code, out, err) = bonescope(&["check", &old]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            out.contains("unreadable[unsupported-version]")
                && out.contains(version)
                && out.contains("3.7-4.3"),
            "{version}: {out}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_unreadable_exit_2() {
    let dir = scratch("check-unreadable");
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{ this is not json").unwrap();
    let missing = dir.join("missing.json");
    let (code, out, _) = bonescope(&[
        "check",
        SPINE_SAMPLE,
        junk.to_str().unwrap(),
        missing.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("lantern-keeper.json: ok"), "{out}");
    assert!(out.contains("junk.json: unreadable["), "{out}");
    assert!(out.contains("missing.json: unreadable[io]"), "{out}");
    assert!(out.ends_with("2 unreadable\n"), "{out}");
    // Hostile bytes in a name never reach the terminal raw.
    let hostile = edited_sample(&dir, "hostile.json", |v| {
        v["events"]["\u{1b}[31mred"] = serde_json::json!({});
    });
    let (_, out, _) = bonescope(&["check", &hostile]);
    assert!(
        !out.contains('\u{1b}') && out.contains("\\e[31mred"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `check` on a folder walks it: exports are checked, atlases and PNG pages skipped and
/// counted, so a clean export folder passes; `--max-depth` bounds the walk.
#[test]
fn check_walks_folders_and_skips_what_is_not_an_export() {
    let Some(shared) = common::shared_dir("check over a corpus folder") else {
        return;
    };
    let dir = shared.join("corpus/spine/4.2");
    let count = |exts: &[&str]| {
        std::fs::read_dir(&dir)
            .expect("corpus folder")
            .filter(|e| {
                let p = e.as_ref().expect("entry").path();
                p.extension()
                    .and_then(|x| x.to_str())
                    .is_some_and(|x| exts.contains(&x))
            })
            .count()
    };
    let (exports, others) = (count(&["json", "skel"]), count(&["atlas", "png"]));
    assert!(exports > 40 && others > 40, "{exports} {others}");
    let (code, out, err) = bonescope(&["check", dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("checked {exports} files:"))
            && out.ends_with(&format!(
                "0 unreadable; skipped {others} files that are not exports\n"
            )),
        "{out}"
    );
    // JSON names the skipped files.
    let (_, out, _) = bonescope(&["check", "--json", dir.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["files"].as_array().unwrap().len(), exports);
    assert_eq!(v["skipped"].as_array().unwrap().len(), others);
    // Depth 0 of corpus/spine holds only its README: nothing checked, the versions not entered.
    let spine = shared.join("corpus/spine");
    let (code, out, _) = bonescope(&["check", "--max-depth", "0", spine.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("checked 0 files") && out.contains("skipped 1 file that is not"),
        "{out}"
    );
    assert!(
        out.contains("not entered (below --max-depth): ") && out.contains("4.2"),
        "{out}"
    );

    // Named files (a glob): non-exports are skipped, a mangled export is still reported.
    let scratch = scratch("check-glob");
    std::fs::write(scratch.join("page.png"), b"\x89PNG\r\n\x1a\n\0\0").unwrap();
    std::fs::write(scratch.join("notes.md"), "# notes\n").unwrap();
    std::fs::write(scratch.join("hero_tex.json"), r#"{"SubTexture": []}"#).unwrap();
    std::fs::write(scratch.join("mangled.json"), b"\x89PNG\r\n").unwrap();
    let named: Vec<String> = ["page.png", "notes.md", "hero_tex.json", "mangled.json"]
        .iter()
        .map(|f| scratch.join(f).display().to_string())
        .collect();
    let mut args = vec!["check", SPINE_SAMPLE];
    args.extend(named.iter().map(String::as_str));
    let (code, out, _) = bonescope(&args);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("lantern-keeper.json: ok"), "{out}");
    assert!(
        out.contains("mangled.json: unreadable[unsupported-format]"),
        "{out}"
    );
    assert!(
        out.contains("skipped 3 files that are not exports"),
        "{out}"
    );
    std::fs::remove_dir_all(&scratch).ok();
}

/// Corpus files whose versions bonescope does not read yet, by folder and name ending (`""`:
/// every file), with the issue that brings them. Every such file is refused as an unsupported
/// version, naming it; an entry whose files all load fails the test, so the list only shrinks.
const STILL_REFUSED: &[(&str, &str, &str)] = &[];

/// Spine 4.3 has no corpus `.skel`: every 4.3 JSON of the corpus written as `.skel` (by the
/// writer the official 4.3 runtime checks, `spine_skel_writer.rs`) is checked like the
/// corpus: it reads, as the 4.3 export it is, with no error and the findings of its JSON.
#[test]
fn check_reads_every_4_3_json_written_as_skel() {
    let Some(shared) = common::shared_dir("check over 4.3 .skel") else {
        return;
    };
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("check-4.3-skel");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let jsons = common::spine_corpus_files(&shared, "4.3", "json");
    assert_eq!(jsons.len(), 7);
    for json in &jsons {
        let stem = json.file_stem().unwrap().to_string_lossy().into_owned();
        let data = bonescope::format::load(&std::fs::read(json).expect("read"), &stem)
            .expect("the JSON loads");
        let skel = dir.join(format!("{stem}.skel"));
        std::fs::write(
            &skel,
            bonescope::format::spine_binary_writer::write(&data).expect("write"),
        )
        .expect("write");
        let (from_skel, from_json) = (
            bonescope::cli::check::check_file(&skel),
            bonescope::cli::check::check_file(json),
        );
        assert!(!from_skel.unreadable, "{stem}.skel: {from_skel:?}");
        assert_eq!(from_skel.version, from_json.version, "{stem}");
        assert_eq!(from_skel.runtime, "Spine 4.3", "{stem}");
        let codes = |r: &bonescope::cli::check::FileReport| {
            let mut c: Vec<&str> = r.findings.iter().map(|f| f.code).collect();
            c.sort();
            c
        };
        assert_eq!(codes(&from_skel), codes(&from_json), "{stem}");
    }
}

/// What `check` says about every file of the corpus. Official exports (Spine, DragonBones
/// 4.x, the real and valid MRTK recordings) have no errors; the warnings and infos they do
/// get are listed in the snapshot `check_corpus`. Files of the versions in `STILL_REFUSED`
/// are refused by version, and counted.
#[test]
fn check_whole_corpus() {
    let Some(shared) = common::shared_dir("check over the corpus") else {
        return;
    };
    let corpus = shared.join("corpus");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut stack = vec![corpus.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read corpus") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if matches!(
                p.extension().and_then(|e| e.to_str()),
                Some("json" | "bin" | "skel" | "dbbin")
            ) {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() > 200, "{}", files.len());
    let mut listing = String::new();
    let mut refused = std::collections::BTreeMap::new();
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap().display().to_string();
        let r = bonescope::cli::check::check_file(path);
        let codes: Vec<&str> = r.findings.iter().map(|f| f.code).collect();
        if let Some((prefix, _, _)) = STILL_REFUSED
            .iter()
            .find(|(p, suffix, _)| rel.starts_with(p) && rel.ends_with(suffix))
        {
            assert!(
                r.unreadable && codes == ["unsupported-version"],
                "{rel}: {r:?}"
            );
            *refused.entry(*prefix).or_insert(0usize) += 1;
            continue;
        }
        let is_skel4 = rel.starts_with("spine/4.") && rel.ends_with(".skel");
        // Official examples: never an error.
        let official = rel.starts_with("spine/")
            || rel.starts_with("dragonbones/")
            || rel.starts_with("mrtk/real/")
            || rel.starts_with("mrtk/valid/");
        // Every Spine 4.0-4.2 binary export reads.
        assert!(!(is_skel4 && r.unreadable), "{rel}: {r:?}");
        if rel.starts_with("dragonbones/2.3/") || rel.starts_with("dragonbones/3.0/") {
            // Flash-era data: refused as an unsupported version, nothing else.
            assert!(
                r.unreadable && codes == ["unsupported-version"],
                "{rel}: {r:?}"
            );
        } else if official {
            assert!(!r.unreadable, "{rel}: {r:?}");
            let errors: Vec<_> = r
                .findings
                .iter()
                .filter(|f| f.severity == bonescope::lint::Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{rel}: false errors {errors:?}");
        } else {
            // mrtk/invalid: unreadable with a reason, or loaded with what was tolerated.
            assert!(
                r.unreadable || codes.iter().all(|c| *c == "loader-tolerated"),
                "{rel}: {r:?}"
            );
        }
        for f in &r.findings {
            let sev = if r.unreadable {
                "unreadable"
            } else {
                f.severity.name()
            };
            listing.push_str(&format!("{rel}: {sev}[{}] {}\n", f.code, f.path));
        }
    }
    for (prefix, _, why) in STILL_REFUSED {
        let n = refused.get(prefix).copied().unwrap_or(0);
        assert!(
            n > 0,
            "{prefix} ({why}) now loads: remove it from STILL_REFUSED"
        );
        eprintln!("check_whole_corpus: {n} files under {prefix} refused by version ({why})");
    }
    // Every Spine JSON and .skel (3.7-4.2) loads.
    insta::assert_snapshot!("check_corpus", listing);
}

// ---------------------------------------------------------------- diff

#[test]
fn diff_of_a_file_with_itself_is_silent() {
    for f in [SPINE_SAMPLE, DB_SAMPLE, "samples/mrtk/wave-and-pinch.bin"] {
        let (code, out, err) = bonescope(&["diff", f, f]);
        assert_eq!((code, out.as_str(), err.as_str()), (0, "", ""), "{f}");
        let (code, out, _) = bonescope(&["diff", "--json", f, f]);
        assert_eq!(code, 0);
        let v: Value = serde_json::from_str(&out).expect("json");
        assert_eq!(v["same"], true);
    }
}

#[test]
fn diff_names_renames_setup_timelines_and_pose() {
    let dir = scratch("diff");
    let new = edited_sample(&dir, "new.json", |v| {
        // Rename a bone everywhere it is named, move another, and change a key.
        #[allow(clippy::disallowed_methods)] // edits an input file
        let text = serde_json::to_string(v)
            .unwrap()
            .replace("\"hat\"", "\"cap\"");
        *v = serde_json::from_str(&text).unwrap();
        v["bones"][1]["x"] = 4.0.into();
        v["events"]["brand-new"] = serde_json::json!({});
    });
    let (code, out, err) = bonescope(&["diff", SPINE_SAMPLE, &new]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("bones: hat renamed to cap"), "{out}");
    assert!(out.contains("events: +brand-new"), "{out}");
    assert!(out.contains("setup: bone hip x: 1.5 -> 4"), "{out}");
    assert!(out.contains("differs by up to 2.5 at t=0"), "{out}");
    insta::assert_snapshot!("diff_sample_edit", out);
    let (code, out, _) = bonescope(&["diff", "--json", SPINE_SAMPLE, &new]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["same"], false);
    assert_eq!(
        v["names"]["bones"]["renamed"][0],
        serde_json::json!({"old": "hat", "new": "cap"})
    );
    assert_eq!(v["names"]["events"]["added"][0], "brand-new");
    assert_eq!(
        v["setup"][0],
        serde_json::json!({"item": "bone hip", "field": "x", "old": "1.5", "new": "4"})
    );
    let a = &v["animations"][0];
    assert!(a["name"].is_string() && a["changed"].is_array() && a["added"].is_array());
    assert_eq!(a["largest"]["channel"], "worldX");
    assert!((a["largest"]["difference"].as_f64().unwrap() - 2.5).abs() < 1e-6);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn diff_corpus_versions() {
    let Some(shared) = common::shared_dir("diff over corpus files") else {
        return;
    };
    let c = shared.join("corpus");
    let p = |s: &str| c.join(s).display().to_string();
    // Two Spine 3.8 exports of one character (essential and pro).
    let (code, out, _) = bonescope(&[
        "diff",
        &p("spine/3.8/spineboy-ess.json"),
        &p("spine/3.8/spineboy-pro.json"),
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("diff_spineboy_ess_pro", out);
    // The same DragonBones dragon exported by 4.0 and by 4.5.
    let (code, out, _) = bonescope(&[
        "diff",
        &p("dragonbones/4.0/dragon_new.json"),
        &p("dragonbones/4.5/dragon_new.json"),
    ]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("diff_dragon_40_45", out);
}

/// Issue 28.7: a JSON export and its `.skel` twin differ only by rounding; `--tolerance`
/// says how close is equal, versions are named, and long lists are summarised in text.
#[test]
fn diff_tolerance_versions_and_summaries() {
    let Some(shared) = common::shared_dir("diff tolerance") else {
        return;
    };
    let c = shared.join("corpus/spine");
    let json = c.join("4.2/spineboy-pro.json").display().to_string();
    let skel = c.join("4.2/spineboy-pro.skel").display().to_string();
    let (code, strict, _) = bonescope(&["diff", &json, &skel]);
    assert_eq!(code, 1);
    let (_, loose, _) = bonescope(&["diff", "--tolerance", "0.01", &json, &skel]);
    assert!(
        !loose.contains("setup:") && strict.contains("setup:"),
        "rounding of setup values is within 0.01:\n{loose}"
    );
    assert!(
        loose.lines().count() * 4 < strict.lines().count(),
        "{loose}"
    );
    // The text summarises a long list; JSON lists every name.
    assert!(
        strict.lines().all(|l| l.chars().count() < 400),
        "a line runs on:\n{strict}"
    );
    assert!(strict.contains("more; --json lists all)"), "{strict}");
    let (_, out, _) = bonescope(&["diff", "--json", "--tolerance", "0.01", &json, &skel]);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["version"], Value::Null, "same export version");
    let all: usize = v["animations"]
        .as_array()
        .expect("animations")
        .iter()
        .map(|a| a["changed"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(all > 8);
    // Another version: said first, in text and JSON.
    let old = c.join("4.1/spineboy-pro.json").display().to_string();
    let (code, out, _) = bonescope(&["diff", &old, &json]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("version: Spine 4.1."),
        "{}",
        out.lines().next().unwrap_or("")
    );
    let (_, out, _) = bonescope(&["diff", "--json", &old, &json]);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert!(
        v["version"]["old"]
            .as_str()
            .is_some_and(|s| s.starts_with("Spine 4.1"))
    );
    // A bad tolerance is refused by the parser.
    let (code, _, err) = bonescope(&["diff", "--tolerance", "-1", &json, &json]);
    assert_eq!(code, 2, "{err}");
}

/// A renamed slot is one rename, not also a changed attachment timeline under the new name.
#[test]
fn diff_a_renamed_slot_is_reported_once() {
    let dir = scratch("diff-slot");
    // The slot is renamed wherever a slot is named; its attachment keeps the name "face".
    let new = edited_sample(&dir, "new.json", |v| {
        fn rekey(map: &mut Value) {
            if let Some(m) = map.as_object_mut()
                && let Some(x) = m.remove("face")
            {
                m.insert("visage".into(), x);
            }
        }
        for s in v["slots"].as_array_mut().expect("slots") {
            if s["name"] == "face" {
                s["name"] = "visage".into();
            }
        }
        for skin in v["skins"].as_array_mut().expect("skins") {
            rekey(&mut skin["attachments"]);
        }
        for (_, a) in v["animations"].as_object_mut().expect("animations") {
            rekey(&mut a["slots"]);
            if let Some(skins) = a.get_mut("attachments").and_then(Value::as_object_mut) {
                skins.values_mut().for_each(rekey);
            }
        }
    });
    let (code, out, err) = bonescope(&["diff", SPINE_SAMPLE, &new]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, "slots: face renamed to visage\n");
    std::fs::remove_dir_all(&dir).ok();
}

/// Spine 3.8 and 4.2 exports of the same example: the diff names the real differences, not
/// every key (curve encodings differ). Needs the Spine 4.x loader, which is on another
/// branch: enable (remove `ignore`) after merging it.
#[test]

fn diff_spine_38_and_42_of_the_same_example() {
    let Some(shared) = common::shared_dir("diff 3.8 vs 4.2") else {
        return;
    };
    let c = shared.join("corpus/spine");
    for name in ["spineboy-pro.json", "raptor-pro.json", "alien-pro.json"] {
        let old = c.join("3.8").join(name).display().to_string();
        let new = c.join("4.2").join(name).display().to_string();
        let (code, out, err) = bonescope(&["diff", "--json", &old, &new]);
        assert!(code == 0 || code == 1, "{name}: {err}");
        let v: Value = serde_json::from_str(&out).expect("json");
        // Same rig: no bone or slot disappeared.
        assert_eq!(
            v["names"]["bones"]["removed"],
            serde_json::json!([]),
            "{name}"
        );
        assert_eq!(
            v["names"]["slots"]["removed"],
            serde_json::json!([]),
            "{name}"
        );
        // Not every timeline: curve encodings alone do not count as changes.
        for a in v["animations"].as_array().unwrap() {
            let changed = a["changed"].as_array().unwrap().len();
            let d = a["largest"]["difference"].as_f64().unwrap_or(0.0);
            assert!(
                changed <= 3 || d > 1.0,
                "{name} {}: {changed} timelines changed but poses agree within {d}",
                a["name"]
            );
        }
        println!("{name}:\n{}", bonescope(&["diff", &old, &new]).1);
    }
}

// ---------------------------------------------------------------- render

/// Issue 28.3: `render` draws what the viewer opens on (spineboy-pro: walk, not the first
/// animation `aim`), and an unknown name lists the choices.
#[test]
fn render_opens_where_the_viewer_opens() {
    let Some(f) = common::shared_file("render opening", "corpus/spine/4.2/spineboy-pro.json")
    else {
        return;
    };
    let f = f.display().to_string();
    let (code, out, err) = bonescope(&["render", &f, "--format", "svg"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("<title>spineboy-pro.json walk t=0"),
        "{}",
        &out[..out.len().min(400)]
    );
    let (code, _, err) = bonescope(&["render", &f, "--animation", "fly"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--animation: no animation \"fly\"; the animations are: aim, death"),
        "{err}"
    );
}

#[test]
fn render_text_snapshots() {
    let (code, out, err) = bonescope(&[
        "render",
        SPINE_SAMPLE,
        "--animation",
        "walk",
        "--time",
        "0.4",
        "--size",
        "60x20",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 20);
    // Issue 28.3: a caption, and no panel chrome.
    assert!(
        out.starts_with("lantern-keeper.json | walk | skin default | t=0.4000\n"),
        "{out}"
    );
    for chrome in ["Preview", "braille", "centre", "┏", "┃", "━"] {
        assert!(!out.contains(chrome), "{chrome}:\n{out}");
    }
    insta::assert_snapshot!("render_walk_braille", out);
    let (code, out, _) = bonescope(&["render", DB_SAMPLE, "--marker", "ascii", "--size", "50x16"]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("render_crane_ascii", out);
    let (code, out, _) = bonescope(&[
        "render",
        SPINE_SAMPLE,
        "--animation",
        "walk",
        "--frames",
        "0..3",
        "--size",
        "40x12",
        "--marker",
        "halfblock",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out.matches(" | frame ").count(), 3, "{out}");
    assert!(
        out.starts_with("lantern-keeper.json | walk | skin default | t=0.0000 | frame 0\n"),
        "{out}"
    );
    assert_eq!(
        out.lines().count(),
        3 * 12,
        "each frame --size tall, caption included"
    );
    // Bad input: one line, status 2.
    for args in [
        vec!["render", SPINE_SAMPLE, "--animation", "nope"],
        vec!["render", SPINE_SAMPLE, "--size", "80"],
        vec!["render", SPINE_SAMPLE, "--frames", "5..2"],
        vec![
            "render",
            SPINE_SAMPLE,
            "--format",
            "svg",
            "--frames",
            "0..2",
        ],
    ] {
        let (code, _, err) = bonescope(&args);
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Parses an SVG and counts the drawing elements of each layer group.
fn svg_layers(svg: &str) -> Vec<(String, usize)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    assert!(root.attribute("viewBox").is_some());
    root.descendants()
        .filter(|n| n.tag_name().name() == "g" && n.attribute("id").is_some())
        .map(|g| {
            let n = g
                .children()
                .filter(|c| matches!(c.tag_name().name(), "line" | "circle"))
                .count();
            (g.attribute("id").unwrap().to_string(), n)
        })
        .collect()
}

#[test]
fn render_svg_is_well_formed_with_layers() {
    let (code, svg, err) = bonescope(&[
        "render",
        SPINE_SAMPLE,
        "--animation",
        "walk",
        "--time",
        "0.4",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0, "{err}");
    let layers = svg_layers(&svg);
    let ids: Vec<&str> = layers.iter().map(|(n, _)| n.as_str()).collect();
    assert!(
        ids.contains(&"bones") && ids.contains(&"regions"),
        "{ids:?}"
    );
    assert!(layers.iter().all(|(_, n)| *n > 0), "{layers:?}");
    assert!(
        svg.contains("<title>lantern-keeper.json walk t=0.4</title>"),
        "{svg}"
    );
    // The same pose twice is the same picture.
    let again = bonescope(&[
        "render",
        SPINE_SAMPLE,
        "--animation",
        "walk",
        "--time",
        "0.4",
        "--format",
        "svg",
    ])
    .1;
    assert_eq!(svg, again);
    let (code, svg, _) = bonescope(&["render", DB_SAMPLE, "--format", "svg"]);
    assert_eq!(code, 0);
    assert!(svg_layers(&svg).iter().any(|(n, _)| n == "bones"));
    // A 3D recording draws its front view; metre-sized coordinates keep their decimals.
    let (code, svg, _) = bonescope(&[
        "render",
        "samples/mrtk/wave-and-pinch.bin",
        "--time",
        "1.2",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0);
    let bones = svg_layers(&svg)
        .into_iter()
        .find(|(n, _)| n == "bones")
        .expect("bones layer");
    assert!(bones.1 > 20, "{bones:?}");
    assert!(!svg.contains("stroke-width=\"0\""), "strokes visible");
}

#[test]
fn render_svg_of_corpus_meshes() {
    let Some(shared) = common::shared_dir("render svg of corpus files") else {
        return;
    };
    let p = shared.join("corpus/spine/3.8/vine-pro.json");
    let (code, svg, err) = bonescope(&["render", p.to_str().unwrap(), "--format", "svg"]);
    assert_eq!(code, 0, "{err}");
    let layers = svg_layers(&svg);
    assert!(
        layers.iter().any(|(n, k)| n == "meshes" && *k > 10),
        "{layers:?}"
    );
    let p = shared.join("corpus/spine/3.8/spineboy-pro.json");
    let (code, svg, _) = bonescope(&[
        "render",
        p.to_str().unwrap(),
        "--animation",
        "run",
        "--time",
        "0.2",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 0);
    let ids: Vec<String> = svg_layers(&svg).into_iter().map(|(n, _)| n).collect();
    for want in ["bones", "regions", "meshes"] {
        assert!(ids.iter().any(|i| i == want), "{want}: {ids:?}");
    }
    // The same pose as text.
    let (code, out, _) = bonescope(&[
        "render",
        p.to_str().unwrap(),
        "--animation",
        "run",
        "--time",
        "0.2",
        "--size",
        "60x22",
        "--marker",
        "ascii",
    ]);
    assert_eq!(code, 0);
    insta::assert_snapshot!("render_spineboy_run_ascii", out);
}

// ---------------------------------------------------------------- completions, man

#[test]
fn completions_and_man_come_from_clap() {
    let (code, out, _) = bonescope(&["completions", "bash"]);
    assert_eq!(code, 0);
    for sub in ["check", "diff", "render", "poses", "scenario", "curves"] {
        assert!(out.contains(sub), "bash completion lacks {sub}");
    }
    for shell in ["zsh", "fish", "powershell"] {
        let (code, out, _) = bonescope(&["completions", shell]);
        assert_eq!(code, 0, "{shell}");
        assert!(
            out.contains("bonescope") && out.contains("render"),
            "{shell}"
        );
    }
    let (code, out, _) = bonescope(&["completions", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("Print a shell completion script"), "{out}");
    assert!(
        !out.contains("Sample animation poses"),
        "not the main help: {out}"
    );
    let (code, _, _) = bonescope(&["completions", "tcsh"]);
    assert_eq!(code, 2);

    let (code, man, _) = bonescope(&["man"]);
    assert_eq!(code, 0);
    assert!(
        man.starts_with(".ie") || man.starts_with(".TH"),
        "{}",
        &man[..80.min(man.len())]
    );
    assert!(man.contains(".TH bonescope"), "title");
    for sub in ["check", "diff", "render", "completions"] {
        assert!(man.contains(&format!(".SS {sub}")), "man lacks {sub}");
    }
    assert!(
        man.contains("\\-\\-deny"),
        "options of subcommands are in the page"
    );
    for section in ["KEYS", "EXIT STATUS", "ENVIRONMENT", "EXAMPLES"] {
        assert!(
            man.contains(&format!(".SH {section}\n")),
            "man lacks {section}"
        );
    }
    // The keys come from the help's table.
    assert!(man.contains(".B ctrl+l\nrepaint the whole screen"), "keys");
}
