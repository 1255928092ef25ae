//! Hot reload under file system faults (issue 17) and at rest (issue 18): the watched
//! folder replaced, deleted and re-created, moved away and back; the path becoming a FIFO,
//! a device, a symlink loop, unreadable; other programs opening the file.

use bonescope::watch::{ReloadEvent, Reloader, WatchOptions};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn sample() -> String {
    std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json"),
    )
    .expect("sample")
}

/// A version of the sample told apart by its frame rate.
fn variant(n: usize) -> String {
    sample().replacen("\"fps\": 30", &format!("\"fps\": {}", 31 + n), 1)
}

fn temp_root(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bonescope-faults-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn start(path: &Path) -> Reloader {
    let first = Arc::new(bonescope::format::load(sample().as_bytes(), "model").expect("loads"));
    Reloader::start(path, first, WatchOptions::default()).expect("watch")
}

/// Events until `pred` matches one (returned) or 20 s pass (panics, listing them).
fn wait_for(r: &Reloader, what: &str, pred: impl Fn(&ReloadEvent) -> bool) -> ReloadEvent {
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut seen = Vec::new();
    while Instant::now() < deadline {
        if let Ok(ev) = r.events().recv_timeout(Duration::from_millis(100)) {
            if pred(&ev) {
                return ev;
            }
            seen.push(describe(&ev));
        }
    }
    panic!("no {what} event; saw {seen:?}");
}

fn describe(ev: &ReloadEvent) -> String {
    match ev {
        ReloadEvent::Loaded { data, .. } => format!("loaded fps {}", fps(data)),
        ReloadEvent::Failed { error } => format!("failed: {error}"),
        ReloadEvent::Missing => "missing".into(),
        ReloadEvent::WatchError { error } => format!("watch error: {error}"),
        ReloadEvent::Rewatched { message } => format!("rewatched: {message}"),
    }
}

fn fps(data: &bonescope::core::model::SkeletonData) -> String {
    format!("{:?}", data.fps)
}

fn loaded_variant(r: &Reloader, n: usize) {
    let want = bonescope::format::load(variant(n).as_bytes(), "model").expect("loads");
    wait_for(
        r,
        &format!("loaded variant {n}"),
        |ev| matches!(ev, ReloadEvent::Loaded { data, .. } if **data == want),
    );
}

fn failed_with(r: &Reloader, needle: &str) {
    wait_for(
        r,
        needle,
        |ev| matches!(ev, ReloadEvent::Failed { error } if error.to_string().contains(needle)),
    );
}

fn rewatched(r: &Reloader) {
    wait_for(r, "rewatched", |ev| {
        matches!(ev, ReloadEvent::Rewatched { .. })
    });
}

#[test]
fn folder_replaced_deleted_recreated_and_moved_back() {
    let root = temp_root("folder");
    let dir = root.join("d");
    std::fs::create_dir(&dir).expect("mkdir");
    let path = dir.join("model.json");
    std::fs::write(&path, sample()).expect("write");
    let r = start(&path);

    // Replaced: `mv d d.old; mkdir d`, then a new file in the new folder.
    std::fs::rename(&dir, root.join("d.old")).expect("mv");
    std::fs::create_dir(&dir).expect("mkdir");
    rewatched(&r);
    std::fs::write(&path, variant(1)).expect("write");
    loaded_variant(&r, 1);

    // Deleted and re-created.
    std::fs::remove_dir_all(&dir).expect("rm");
    wait_for(&r, "missing", |ev| matches!(ev, ReloadEvent::Missing));
    std::fs::create_dir(&dir).expect("mkdir");
    std::fs::write(&path, variant(2)).expect("write");
    loaded_variant(&r, 2);

    // Moved away and back: the same folder returns; later saves are seen.
    std::fs::rename(&dir, root.join("away")).expect("mv away");
    wait_for(&r, "missing", |ev| matches!(ev, ReloadEvent::Missing));
    std::fs::rename(root.join("away"), &dir).expect("mv back");
    loaded_variant(&r, 2);
    std::fs::write(&path, variant(3)).expect("write");
    loaded_variant(&r, 3);
}

#[cfg(unix)]
#[test]
fn fifo_device_and_symlink_loop_are_not_skeletons() {
    let dir = temp_root("special");
    let path = dir.join("model.json");
    std::fs::write(&path, sample()).expect("write");
    let r = start(&path);

    // Briefly a FIFO: reported, never opened for reading (which would block).
    std::fs::remove_file(&path).expect("rm");
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
    failed_with(&r, "not a skeleton: it is a FIFO (named pipe)");
    std::fs::remove_file(&path).expect("rm fifo");
    std::fs::write(&path, variant(1)).expect("write");
    loaded_variant(&r, 1);

    // A symlink to a device: refused, not read.
    std::fs::remove_file(&path).expect("rm");
    std::os::unix::fs::symlink("/dev/zero", &path).expect("symlink");
    failed_with(&r, "it is a character device");
    std::fs::remove_file(&path).expect("rm link");
    std::fs::write(&path, variant(2)).expect("write");
    loaded_variant(&r, 2);

    // A symlink loop.
    std::fs::remove_file(&path).expect("rm");
    std::os::unix::fs::symlink(&path, &path).expect("loop");
    failed_with(&r, "symbolic links");
    std::fs::remove_file(&path).expect("rm loop");
    std::fs::write(&path, variant(3)).expect("write");
    loaded_variant(&r, 3);
}

#[cfg(unix)]
#[test]
fn permission_lost_then_regained() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_root("perm");
    let path = dir.join("model.json");
    std::fs::write(&path, sample()).expect("write");
    let r = start(&path);
    std::fs::write(&path, variant(1)).expect("write");
    loaded_variant(&r, 1);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    std::fs::write(&path, variant(2)).expect("write as owner");
    if std::fs::File::open(&path).is_err() {
        failed_with(&r, "Permission denied");
    } else {
        // Root reads whatever the mode says: then the change simply loads.
        loaded_variant(&r, 2);
    }
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    std::fs::write(&path, variant(3)).expect("write");
    loaded_variant(&r, 3);
}

/// Issue 18: opening and reading the watched file from outside is not a change.
#[test]
fn reading_the_file_from_outside_does_not_reload() {
    let dir = temp_root("reads");
    let path = dir.join("model.json");
    std::fs::write(&path, sample()).expect("write");
    let r = start(&path);
    // A real change first, so the watch is known to work.
    std::fs::write(&path, variant(1)).expect("write");
    loaded_variant(&r, 1);
    std::thread::sleep(Duration::from_millis(500));
    let before = r.reads();
    for _ in 0..40 {
        let text = std::fs::read(&path).expect("read");
        assert!(!text.is_empty());
        drop(std::fs::File::open(&path).expect("open"));
        std::thread::sleep(Duration::from_millis(25));
    }
    std::thread::sleep(Duration::from_millis(800));
    assert_eq!(
        r.reads(),
        before,
        "the watcher read the file after outside reads"
    );
    assert!(r.events().try_recv().is_err());
    // And it still reacts to a write.
    std::fs::write(&path, variant(2)).expect("write");
    loaded_variant(&r, 2);
    assert!(r.reads() > before);
}
