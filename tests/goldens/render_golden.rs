//! `render --format png` against the render goldens (`shared/golden/render`, drawn by the
//! official spine-canvaskit renderer): every manifest entry without `oracleLimits` (the
//! official renderer ignores the dark tint and draws multiply as normal; bonescope draws them
//! right, so those are checked by the unit tests of `raster`) is rendered with the entry's
//! parameters and compared by `shared/oracle/render/compare_render.py` at its default
//! thresholds. All failures are reported at once, with their metrics.

use crate::common;

use common::{run_with_deadline, shared_dir, shared_file, tool_available};
use serde_json::Value;
use std::ffi::OsStr;
use std::path::Path;

const WHAT: &str = "render goldens";

#[test]
fn png_frames_match_the_render_goldens() {
    let Some(manifest) = shared_file(WHAT, "golden/render/manifest.json") else {
        return;
    };
    let Some(shared) = shared_dir(WHAT) else {
        return;
    };
    if !tool_available(WHAT, "python3") {
        return;
    }
    let compare = shared.join("oracle/render/compare_render.py");
    let golden = shared.join("golden/render");
    let corpus = shared.join("corpus/spine/4.2");
    let out = std::env::temp_dir().join(format!("bonescope-render-golden-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("temp dir");
    let manifest = common::read_json(&manifest);
    let entries = manifest["entries"].as_array().expect("entries");
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in entries.iter().filter(|e| e.get("oracleLimits").is_none()) {
        checked += 1;
        let file = e["file"].as_str().expect("file");
        let candidate = out.join(file);
        if let Err(msg) = render(e, &corpus, &candidate) {
            failures.push(format!("{file}: {msg}"));
            continue;
        }
        let result = std::process::Command::new("python3")
            .arg(&compare)
            .arg(&candidate)
            .arg(golden.join(file))
            .output()
            .expect("run compare_render.py");
        if !result.status.success() {
            let text = String::from_utf8_lossy(&result.stdout);
            failures.push(text.lines().next().unwrap_or("FAIL").to_string());
        }
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(
        checked >= 80,
        "only {checked} manifest entries without oracleLimits"
    );
    assert!(
        failures.is_empty(),
        "{} of {checked} frames fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Renders one manifest entry into `out`.
fn render(e: &Value, corpus: &Path, out: &Path) -> Result<(), String> {
    let s = |k: &str| e[k].as_str().map(str::to_string);
    let size = format!("{}x{}", e["size"][0], e["size"][1]);
    let viewport: Vec<String> = e["viewport"]
        .as_array()
        .ok_or("no viewport")?
        .iter()
        .map(|v| v.to_string())
        .collect();
    let mut args: Vec<String> = vec![
        "render".into(),
        corpus
            .join(s("skeleton").ok_or("no skeleton")?)
            .display()
            .to_string(),
        "--format".into(),
        "png".into(),
        "--atlas".into(),
        corpus
            .join(s("atlas").ok_or("no atlas")?)
            .display()
            .to_string(),
        "--size".into(),
        size,
        format!("--viewport={}", viewport.join(",")),
        "--background".into(),
        s("background").unwrap_or_else(|| "#202020".into()),
        "--physics".into(),
        "none".into(),
        "--time".into(),
        e["time"].to_string(),
        "-o".into(),
        out.display().to_string(),
    ];
    match s("animation") {
        Some(a) => args.extend(["--animation".into(), a]),
        None => args.push("--setup-pose".into()),
    }
    if let Some(skins) = e["skin"].as_array() {
        let names: Vec<&str> = skins.iter().filter_map(Value::as_str).collect();
        args.extend(["--skin".into(), names.join(",")]);
    }
    let os: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
    let (code, _, stderr) = run_with_deadline(&os);
    if code == Some(0) {
        Ok(())
    } else {
        Err(format!("exit {code:?}: {}", stderr.trim()))
    }
}
