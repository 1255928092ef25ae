//! The Spine and DragonBones oracles (`../shared/oracle/spine`, `../shared/oracle/dragonbones`:
//! the official runtimes driven by Node) made
//! runnable for tests. `../shared` is read-only in CI, so the oracle is copied into the
//! target folder and installed there (`npm ci`, exact versions from its lock file), once per
//! lock file. Without node or npm the test is skipped locally and fails under CI=true.

use super::{shared_dir, skip};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

/// Serialises the copy and install between the tests of one binary.
static INSTALL: Mutex<()> = Mutex::new(());

fn runs(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Copies `from` into `to` (files and folders, `node_modules` left out).
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name == "node_modules" {
            continue;
        }
        let (src, dst) = (entry.path(), to.join(&name));
        if entry.file_type()?.is_dir() {
            copy_tree(&src, &dst)?;
        } else {
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

/// The folder of an installed copy of the Spine oracle (run `node dump.mjs ...` in it), or
/// `None` when `../shared`, node or npm is missing (failing under CI=true).
pub fn spine_oracle(what: &str) -> Option<PathBuf> {
    installed(what, "spine", "dump.mjs")
}

/// The folder of an installed copy of the DragonBones oracle (DragonBonesJS 5.6.300; run
/// `node dump.js ...` in it), or `None` as for [`spine_oracle`].
pub fn dragonbones_oracle(what: &str) -> Option<PathBuf> {
    installed(what, "dragonbones", "dump.js")
}

/// `../shared/oracle/<name>` copied into the target folder and installed there.
fn installed(what: &str, name: &str, entry: &str) -> Option<PathBuf> {
    let source = shared_dir(what)?.join("oracle").join(name);
    if !source.join(entry).is_file() {
        skip(what, &format!("{} has no {entry}", source.display()));
        return None;
    }
    for tool in ["node", "npm"] {
        if !runs(tool) {
            skip(
                what,
                &format!("{tool} is not installed (the {name} oracle needs it)"),
            );
            return None;
        }
    }
    let _guard = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("oracle-{name}"));
    copy_tree(&source, &dir)
        .unwrap_or_else(|e| panic!("copy the oracle to {}: {e}", dir.display()));
    let lock =
        std::fs::read(dir.join("package-lock.json")).expect("the oracle's package-lock.json");
    let marker = dir.join("node_modules/.bonescope-installed-lock");
    if std::fs::read(&marker).ok().as_deref() != Some(lock.as_slice()) {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(&dir)
            .output()
            .expect("run npm ci");
        assert!(
            out.status.success(),
            "npm ci in {}: {}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::write(&marker, &lock).expect("write the install marker");
    }
    Some(dir)
}

/// Runs `node dump.mjs ARGS` in the oracle folder `dir`; stdout, or the error output.
pub fn dump(dir: &Path, args: &[&std::ffi::OsStr]) -> Result<String, String> {
    run_script(dir, "dump.mjs", args)
}

/// Runs `node SCRIPT ARGS` in the oracle folder `dir`; stdout, or the error output.
pub fn run_script(dir: &Path, script: &str, args: &[&std::ffi::OsStr]) -> Result<String, String> {
    let out = Command::new("node")
        .arg(script)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| format!("run node: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}
