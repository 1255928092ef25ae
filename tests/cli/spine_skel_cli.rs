//! Everything that works on a Spine JSON export works on its binary export (`.skel`): the
//! headless commands, scenarios resolving the `.skel` twin, and hot reload; a 4.x or cut
//! `.skel` gets a clear error.

use crate::common;

use common::bonescope;

use bonescope::watch::{ReloadEvent, Reloader, WatchOptions};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn corpus(version: &str, name: &str) -> Option<String> {
    let shared = common::shared_dir("Spine .skel commands")?;
    Some(
        shared
            .join("corpus/spine")
            .join(version)
            .join(name)
            .display()
            .to_string(),
    )
}

#[test]
fn poses_and_curves_read_a_skel() {
    let Some(skel) = corpus("3.8", "spinosaurus-ess.skel") else {
        return;
    };
    let (code, out, err) = bonescope(&["poses", "--json", "--samples", "2", &skel]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("poses JSON");
    assert_eq!(v["skeleton"]["file"], "spinosaurus-ess.skel");
    assert_eq!(v["animations"][0]["name"], "animation");
    let (code, out, err) = bonescope(&["curves", "--times", "0.5", &skel]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.starts_with("spinosaurus-ess.skel: Spine 3.8.55, 1 animations"),
        "{out}"
    );
    assert!(out.contains("animation/slot.logo.color.r"), "{out}");
}

#[test]
fn scenarios_resolve_the_skel_twin() {
    let Some(shared) = common::shared_dir("Spine .skel scenarios") else {
        return;
    };
    let corpus = shared.join("corpus/spine/3.8").display().to_string();
    let scenario = shared
        .join("golden/spine/3.8/scenarios/alien-run-death.json")
        .display()
        .to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["scenario", "--json", "--corpus", &corpus, &scenario];
        args.extend_from_slice(extra);
        let (code, out, err) = bonescope(&args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let skel = run(&["--input", "skel"]);
    let json = run(&[]);
    assert_eq!(json, run(&["--input", "json"]));
    // The exports differ (rounding), so the runs do too: the .skel was loaded.
    assert_ne!(skel, json);
    let (code, out, _) = bonescope(&[
        "scenario", "--corpus", &corpus, &scenario, "--input", "skel",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("scenario alien-run-death: alien-pro.skel (Spine 3.8.55)"),
        "{out}"
    );
}

#[test]
fn unsupported_and_cut_skel_files_say_why() {
    let Some(skel) = corpus("4.2", "coin-pro.skel") else {
        return;
    };
    // A version no reader knows: the 4.2 export with its version string edited.
    let mut bytes = std::fs::read(&skel).expect("read");
    let at = bytes
        .windows(6)
        .position(|w| w == b"4.2.22")
        .expect("version string");
    bytes[at..at + 6].copy_from_slice(b"4.9.22");
    let dir = std::env::temp_dir().join(format!("bonescope-skel-ver-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let unknown = dir.join("unknown.skel");
    std::fs::write(&unknown, &bytes).expect("write");
    let (code, _, err) = bonescope(&["poses", &unknown.display().to_string()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("byte 0: Spine \"4.9.22\" binary (.skel) is not supported"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let Some(skel) = corpus("3.8", "coin-pro.skel") else {
        return;
    };
    let bytes = std::fs::read(&skel).expect("read");
    let dir = std::env::temp_dir().join(format!("bonescope-skel-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cut = dir.join("cut.skel");
    std::fs::write(&cut, &bytes[..1000]).expect("write");
    let (code, _, err) = bonescope(&["poses", &cut.display().to_string()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unexpected end of file") || err.contains("is impossible"),
        "{err}"
    );
    assert!(err.contains("byte "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hot_reload_follows_an_atomically_replaced_skel() {
    let Some(skel) = corpus("3.8", "spinosaurus-ess.skel") else {
        return;
    };
    let base = std::fs::read(&skel).expect("read");
    let dir: PathBuf =
        std::env::temp_dir().join(format!("bonescope-skel-watch-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("model.skel");
    std::fs::write(&path, &base).expect("write");
    let first = Arc::new(bonescope::format::load(&base, "model").expect("loads"));
    let r = Reloader::start(&path, first, WatchOptions::default()).expect("watch");
    // The fps (nonessential, 30.0 = 41f00000) becomes 32.
    let at = base
        .windows(4)
        .position(|w| w == [0x41, 0xf0, 0, 0])
        .expect("fps");
    let mut changed = base.clone();
    changed[at..at + 4].copy_from_slice(&[0x42, 0, 0, 0]);
    let expected = {
        let mut d = bonescope::format::load(&changed, "model").expect("loads");
        d.finish();
        d
    };
    assert_eq!(expected.fps, 32.0);
    let tmp = dir.join(".model.tmp");
    std::fs::write(&tmp, &changed).expect("write tmp");
    std::fs::rename(&tmp, &path).expect("rename");
    let start = Instant::now();
    let mut seen = false;
    while !seen && start.elapsed() < Duration::from_secs(10) {
        if let Ok(ReloadEvent::Loaded { data, .. }) =
            r.events().recv_timeout(Duration::from_millis(200))
        {
            seen = data.fps == expected.fps;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(seen, "the watcher never delivered the replaced .skel");
}
