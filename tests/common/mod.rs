//! Helpers shared by the integration tests: locating `../shared`, and tolerant comparison.
#![allow(dead_code)]

pub mod golden_poses;
pub mod golden_scenarios;
pub mod oracle;
pub mod rng;
pub mod terminal_replay;
pub mod twins;
pub mod viewer;

use serde_json::Value;
use std::path::PathBuf;

/// True when running in CI (`CI=true`): a test that cannot run there fails instead of skipping.
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

/// Skips a test (printing why), or fails it in CI, where a skipped test must never look green.
pub fn skip(what: &str, why: &str) {
    if in_ci() {
        panic!("{what}: {why} (CI=true: this test must run in CI)");
    }
    println!("SKIPPED {what}: {why}");
}

/// `../shared` beside the project, or `None` (with the reason printed) when absent; in CI its
/// absence fails the test.
pub fn shared_dir(what: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if dir.is_dir() {
        Some(dir)
    } else {
        skip(
            what,
            "../shared (reference corpus and goldens) is not beside the project",
        );
        None
    }
}

/// A file of `../shared` (path relative to it), or `None` when absent (failing in CI).
pub fn shared_file(what: &str, rel: &str) -> Option<PathBuf> {
    let path = shared_dir(what)?.join(rel);
    if path.is_file() {
        Some(path)
    } else {
        skip(what, &format!("{} is absent", path.display()));
        None
    }
}

/// True when `tool` runs (`tool -V`); otherwise skips (failing in CI).
pub fn tool_available(what: &str, tool: &str) -> bool {
    if std::process::Command::new(tool).arg("-V").output().is_ok() {
        true
    } else {
        skip(what, &format!("{tool} is not installed"));
        false
    }
}

/// Runs the binary with a deadline (a hang fails the test instead of stalling it).
/// Returns (status code, stdout, stderr).
pub fn run_with_deadline(args: &[&std::ffi::OsStr]) -> (Option<i32>, Vec<u8>, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut v);
        v
    });
    let mut errs = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut errs, &mut s);
        s
    });
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("bonescope {args:?} did not finish in 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    (
        status.code(),
        reader.join().expect("reader"),
        err_reader.join().expect("stderr reader"),
    )
}

/// Runs the binary in the project folder: (status, stdout, stderr).
pub fn bonescope(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(args)
        .current_dir(project_dir())
        .output()
        .expect("run bonescope");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The files of `corpus/spine/<version>` in `shared` whose extension is `ext`, sorted.
pub fn spine_corpus_files(shared: &std::path::Path, version: &str, ext: &str) -> Vec<PathBuf> {
    let dir = shared.join("corpus/spine").join(version);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// The project root.
pub fn project_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Reads a JSON file.
pub fn read_json(path: &std::path::Path) -> Value {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Collects mismatches while comparing, keeping the first few for the report.
#[derive(Default)]
pub struct Mismatches {
    pub count: usize,
    pub compared: usize,
    pub first: Vec<String>,
    /// Extra slack relative to the golden's magnitude (0: absolute tolerances only), for
    /// goldens computed in 32-bit floats.
    pub relative: f64,
    /// Smallest tolerance used (0: the one each quantity names), for the same goldens.
    pub floor: f64,
}

impl Mismatches {
    pub fn fail(&mut self, msg: String) {
        self.count += 1;
        if self.first.len() < 12 {
            self.first.push(msg);
        }
    }

    /// Compares two numbers (golden may hold "NaN"/"Infinity" strings) within `tol`;
    /// `modulo` compares angles modulo that period.
    pub fn num(
        &mut self,
        what: &dyn Fn() -> String,
        ours: &Value,
        golden: &Value,
        tol: f64,
        modulo: Option<f64>,
    ) {
        self.compared += 1;
        let g = match golden {
            Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
            Value::String(s) if s == "NaN" => f64::NAN,
            Value::String(s) if s == "Infinity" => f64::INFINITY,
            Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
            other => return self.fail(format!("{}: golden is {other}", what())),
        };
        let o = match ours {
            Value::Number(n) => n.as_f64().unwrap_or(f64::NAN),
            Value::String(s) if s == "NaN" => f64::NAN,
            Value::String(s) if s == "Infinity" => f64::INFINITY,
            Value::String(s) if s == "-Infinity" => f64::NEG_INFINITY,
            other => return self.fail(format!("{}: ours is {other}, golden {g}", what())),
        };
        if g.is_nan() || o.is_nan() || g.is_infinite() || o.is_infinite() {
            if !(g.is_nan() && o.is_nan()) && g != o {
                self.fail(format!("{}: ours {o}, golden {g}", what()));
            }
            return;
        }
        let mut d = (o - g).abs();
        if let Some(m) = modulo {
            d %= m;
            d = d.min(m - d);
        }
        if d > tol.max(self.floor).max(self.relative * g.abs()) {
            self.fail(format!("{}: ours {o}, golden {g} (diff {d:.6})", what()));
        }
    }

    /// Compares two values that must be equal exactly.
    pub fn exact(&mut self, what: &dyn Fn() -> String, ours: &Value, golden: &Value) {
        self.compared += 1;
        if ours != golden {
            self.fail(format!("{}: ours {ours}, golden {golden}", what()));
        }
    }
}

/// Absolute tolerance used for every pose quantity (golden README, f64 implementation column).
pub const TOL: f64 = 1e-3;

/// Tolerance for `applied` records: atan2 of near-degenerate matrices amplifies the world
/// matrix's rounding, so these get a looser bound than the world values they derive from.
pub const APPLIED_TOL: f64 = 1e-2;

/// Compares one pose object (`bones`, `slots`, `drawOrder`, `vertices`, `points`, `events`) by
/// name. `bone_names` / `slot_names` come from the golden file.
pub fn compare_pose(
    m: &mut Mismatches,
    wraps: bool,
    ctx: &str,
    ours: &Value,
    golden: &Value,
    bone_names: &[String],
    slot_names: &[String],
) {
    // Bones: 13-number records; rotation (index 8) modulo 360.
    let (ob, gb) = (&ours["bones"], &golden["bones"]);
    for (i, name) in bone_names.iter().enumerate() {
        let (o, g) = (&ob[i], &gb[i]);
        if g.is_null() || o.is_null() {
            m.exact(&|| format!("{ctx} bone {name} (null)"), o, g);
            continue;
        }
        for k in 0..13 {
            // Local rotations wrap only where the runtime wraps them (3.8); 4.x keeps keyed
            // turns, so they are compared as they are.
            let modulo = (k == 8 && wraps).then_some(360.0);
            m.num(
                &|| format!("{ctx} bone {name}[{k}]"),
                &o[k],
                &g[k],
                TOL,
                modulo,
            );
        }
    }
    let (os, gs) = (&ours["slots"], &golden["slots"]);
    for (i, name) in slot_names.iter().enumerate() {
        let (o, g) = (&os[i], &gs[i]);
        let (Some(oa), Some(ga)) = (o.as_array(), g.as_array()) else {
            m.fail(format!("{ctx} slot {name}: ours {o}, golden {g}"));
            continue;
        };
        if oa.len() != ga.len() {
            m.fail(format!("{ctx} slot {name}: ours {o}, golden {g}"));
            continue;
        }
        m.exact(&|| format!("{ctx} slot {name} attachment"), &oa[0], &ga[0]);
        for k in 1..ga.len() {
            m.num(
                &|| format!("{ctx} slot {name}[{k}]"),
                &oa[k],
                &ga[k],
                TOL,
                None,
            );
        }
    }
    m.exact(
        &|| format!("{ctx} drawOrder"),
        &ours["drawOrder"],
        &golden["drawOrder"],
    );
    if golden.get("sequence").is_some() || ours.get("sequence").is_some() {
        m.exact(
            &|| format!("{ctx} sequence"),
            &ours["sequence"],
            &golden["sequence"],
        );
    }
    // Applied transforms (a secondary check: derived with atan2 from the world matrix):
    // every golden record, rotations and shears modulo 360, non-finite golden values skipped.
    if let Some(ga) = golden.get("applied").and_then(Value::as_object) {
        let empty = serde_json::Map::new();
        let oa = ours["applied"].as_object().unwrap_or(&empty);
        for (bone, g) in ga {
            let Some(o) = oa.get(bone) else {
                m.fail(format!("{ctx} applied {bone}: missing in ours"));
                continue;
            };
            for k in 0..7 {
                if !g[k].is_number() {
                    continue;
                }
                let modulo = matches!(k, 2 | 5 | 6).then_some(360.0);
                m.num(
                    &|| format!("{ctx} applied {bone}[{k}]"),
                    &o[k],
                    &g[k],
                    APPLIED_TOL,
                    modulo,
                );
            }
        }
    }
    for key in ["vertices", "points"] {
        let empty = serde_json::Map::new();
        let gv = golden[key].as_object().unwrap_or(&empty);
        let ov = ours[key].as_object().unwrap_or(&empty);
        for (slot, g) in gv {
            let Some(o) = ov.get(slot) else {
                m.fail(format!("{ctx} {key} {slot}: missing in ours"));
                continue;
            };
            let (oa, ga) = (
                o.as_array().map_or(0, Vec::len),
                g.as_array().map_or(0, Vec::len),
            );
            if oa != ga {
                m.fail(format!(
                    "{ctx} {key} {slot}: ours has {oa} numbers, golden {ga}"
                ));
                continue;
            }
            for k in 0..ga {
                let modulo = (key == "points" && k == 2).then_some(360.0);
                m.num(
                    &|| format!("{ctx} {key} {slot}[{k}]"),
                    &o[k],
                    &g[k],
                    TOL,
                    modulo,
                );
            }
        }
        for slot in ov.keys() {
            if !gv.contains_key(slot) {
                m.fail(format!("{ctx} {key} {slot}: not in golden"));
            }
        }
    }
    if let Some(ge) = golden.get("events") {
        let (oe, ge) = (ours["events"].as_array(), ge.as_array());
        let (oe, ge) = (oe.map_or(&[][..], |v| v), ge.map_or(&[][..], |v| v));
        if oe.len() != ge.len() {
            m.fail(format!(
                "{ctx} events: ours {}, golden {}",
                Value::from(oe.to_vec()),
                Value::from(ge.to_vec())
            ));
        } else {
            for (o, g) in oe.iter().zip(ge) {
                for f in ["name", "int", "string"] {
                    m.exact(&|| format!("{ctx} event {f}"), &o[f], &g[f]);
                }
                for f in ["float", "time", "volume", "balance"] {
                    if g.get(f).is_some() {
                        m.num(&|| format!("{ctx} event {f}"), &o[f], &g[f], TOL, None);
                    }
                }
            }
        }
    }
}

/// Whether the runtime that made a golden file wraps local rotations into one turn (Spine
/// 3.8); 4.x runtimes keep the keyed values, so a wrap there would be a bug to catch.
pub fn rotation_wraps(golden_file: &Value) -> bool {
    golden_file["runtime"]["id"]
        .as_str()
        .is_none_or(|id| id.starts_with("3."))
}

/// Strings of a JSON array.
pub fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Compares a whole poses report with a golden poses file; returns the mismatches.
pub fn compare_poses_file(ours: &Value, golden: &Value) -> Mismatches {
    compare_poses_file_relative(ours, golden, (0.0, 0.0))
}

/// [`compare_poses_file`] with slack for a golden computed in 32-bit floats
/// (see [`Mismatches::relative`] and [`Mismatches::floor`]).
pub fn compare_poses_file_relative(
    ours: &Value,
    golden: &Value,
    (relative, floor): (f64, f64),
) -> Mismatches {
    let mut m = Mismatches {
        relative,
        floor,
        ..Mismatches::default()
    };
    let bones = names(&golden["bones"]);
    let slots = names(&golden["slots"]);
    m.exact(&|| "bones".into(), &ours["bones"], &golden["bones"]);
    m.exact(&|| "slots".into(), &ours["slots"], &golden["slots"]);
    m.exact(
        &|| "inactiveBones".into(),
        &ours["inactiveBones"],
        &golden["inactiveBones"],
    );
    let wraps = rotation_wraps(golden);
    compare_pose(
        &mut m,
        wraps,
        "setup",
        &ours["setup"],
        &golden["setup"],
        &bones,
        &slots,
    );
    let empty = vec![];
    let oa = ours["animations"].as_array().unwrap_or(&empty);
    let ga = golden["animations"].as_array().unwrap_or(&empty);
    if oa.len() != ga.len() {
        m.fail(format!(
            "animation count: ours {}, golden {}",
            oa.len(),
            ga.len()
        ));
    }
    for g in ga {
        let name = g["name"].as_str().unwrap_or("");
        let Some(o) = oa.iter().find(|o| o["name"] == g["name"]) else {
            m.fail(format!("animation {name}: missing"));
            continue;
        };
        m.num(
            &|| format!("{name} duration"),
            &o["duration"],
            &g["duration"],
            1e-9,
            None,
        );
        let (os, gs) = (
            o["samples"].as_array().unwrap_or(&empty),
            g["samples"].as_array().unwrap_or(&empty),
        );
        if os.len() != gs.len() {
            m.fail(format!(
                "{name}: ours {} samples, golden {}",
                os.len(),
                gs.len()
            ));
            continue;
        }
        for (os, gs) in os.iter().zip(gs) {
            let ctx = format!("{name} t={}", gs["time"]);
            for f in ["time", "lastTime"] {
                m.num(&|| format!("{ctx} {f}"), &os[f], &gs[f], 1e-9, None);
            }
            m.exact(&|| format!("{ctx} loop"), &os["loop"], &gs["loop"]);
            compare_pose(&mut m, wraps, &ctx, os, gs, &bones, &slots);
        }
    }
    m
}

/// Runs the binary with `args` and `envs` to completion (stdout counted, stderr kept) and
/// returns (status, bytes written, stderr, peak resident memory in kB from
/// `/proc/<pid>/status` VmHWM, sampled every 5 ms while it runs). Linux only.
#[cfg(target_os = "linux")]
pub fn peak_memory_with(
    args: &[&std::ffi::OsStr],
    envs: &[(&str, &str)],
) -> (Option<i32>, u64, String, u64) {
    use std::io::Read;
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bonescope"))
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().expect("stdout");
    let counter = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut total = 0u64;
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            total += n as u64;
        }
        total
    });
    let mut errs = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = errs.read_to_string(&mut s);
        s
    });
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let deadline = Instant::now() + Duration::from_secs(300);
    let status = loop {
        if let Ok(s) = std::fs::read_to_string(&status_path)
            && let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kb);
        }
        if let Some(st) = child.try_wait().expect("wait") {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} did not finish in 300 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let bytes = counter.join().expect("counter");
    let err = err_reader.join().expect("stderr reader");
    (status.code(), bytes, err, peak)
}
