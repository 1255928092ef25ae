//! Regressions of issue 29 (hardening, round three): each test names its row.

mod common;

use common::viewer::open_file;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bonescope"))
}

fn sample(name: &str) -> PathBuf {
    common::project_dir().join("samples/spine").join(name)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bonescope-r3-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn os(s: &str) -> &std::ffi::OsStr {
    s.as_ref()
}

/// Runs the binary with a deadline (a hang fails the test instead of stalling it).
/// Returns (status code, stdout, stderr).
fn run(args: &[&std::ffi::OsStr]) -> (Option<i32>, Vec<u8>, String) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let mut errs = child.stderr.take().expect("stderr");
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = errs.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("bonescope {args:?} did not finish in 60 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (
        status.code(),
        reader.join().expect("reader"),
        err_reader.join().expect("stderr reader"),
    )
}

// Row 1: `:save hard_m` (a hard link to the open file) replaced it with the event log, and a
// save wrote through symlinks into other files.
#[cfg(unix)]
#[test]
fn save_never_writes_the_watched_file_nor_through_links() {
    let dir = temp_dir("save");
    let watched = dir.join("skeleton.json");
    std::fs::copy(sample("lantern-keeper.json"), &watched).expect("copy");
    let original = std::fs::read(&watched).expect("read");
    let mut app = open_file(&watched, 0.5);
    app.source = Some(watched.clone());
    let hard = dir.join("hard_m");
    std::fs::hard_link(&watched, &hard).expect("hard link");
    let soft = dir.join("soft.ndjson");
    std::os::unix::fs::symlink(&watched, &soft).expect("symlink");
    let folder_link = dir.join("again");
    std::os::unix::fs::symlink(&dir, &folder_link).expect("folder symlink");
    for name in [&watched, &hard, &soft, &folder_link.join("skeleton.json")] {
        for verb in ["save", "save!"] {
            let err = app
                .run_line(&format!("{verb} {}", name.display()))
                .expect_err("the watched file");
            assert!(err.contains("watched file"), "{verb} {name:?}: {err}");
        }
    }
    assert_eq!(std::fs::read(&watched).expect("read"), original);

    // Another file behind a symlink or a hard link: refused without `!`; with it, the link
    // itself is replaced and the other file keeps its contents.
    let other = dir.join("other.txt");
    std::fs::write(&other, b"keep me").expect("write");
    let to_other = dir.join("to_other.txt");
    std::os::unix::fs::symlink(&other, &to_other).expect("symlink");
    let other_hard = dir.join("other_hard.txt");
    std::fs::hard_link(&other, &other_hard).expect("hard link");
    for name in [&other, &to_other, &other_hard] {
        let err = app
            .run_line(&format!("save {}", name.display()))
            .expect_err("exists");
        assert!(err.contains("exists") && err.contains("save!"), "{err}");
    }
    assert_eq!(std::fs::read(&other).expect("read"), b"keep me");
    for name in [&to_other, &other_hard] {
        app.run_line(&format!("save! {}", name.display()))
            .expect("asked to replace");
        let meta = std::fs::symlink_metadata(name).expect("meta");
        assert!(meta.is_file(), "{name:?} is a file of its own now");
        assert!(
            std::fs::read_to_string(name)
                .expect("read")
                .contains("start")
        );
    }
    assert_eq!(std::fs::read(&other).expect("read"), b"keep me");

    // A FIFO or a device is refused (it could block the viewer or reach the terminal) and
    // stays what it is.
    let fifo = dir.join("pipe.ndjson");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    for name in [fifo.as_path(), Path::new("/dev/null")] {
        let err = app
            .run_line(&format!("save! {}", name.display()))
            .expect_err("not a regular file");
        assert!(err.contains("not a regular file"), "{err}");
    }
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata(&fifo)
            .expect("meta")
            .file_type()
            .is_fifo()
    );
    assert!(
        std::fs::metadata("/dev/null")
            .expect("meta")
            .file_type()
            .is_char_device()
    );
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".bonescope-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

// Row 2: `convert -o` replaced special files (as root `-o /dev/full` became a regular file;
// a FIFO and a symlink to /proc/self/fd/1 likewise) and could reach the input by a hard link.
#[cfg(unix)]
#[test]
fn convert_output_never_replaces_special_files_nor_the_input() {
    use std::os::unix::fs::FileTypeExt;
    let dir = temp_dir("convert");
    let input = dir.join("in.json");
    std::fs::copy(sample("kite-fox-42.json"), &input).expect("copy");
    let original = std::fs::read(&input).expect("read");
    let (code, expected, err) = run(&[os("convert"), input.as_os_str()]);
    assert_eq!(code, Some(0), "{err}");

    // The input by any name.
    let hard = dir.join("hard.json");
    std::fs::hard_link(&input, &hard).expect("hard link");
    let soft = dir.join("soft.json");
    std::os::unix::fs::symlink(&input, &soft).expect("symlink");
    for out in [&input, &hard, &soft] {
        let (code, _, err) = run(&[
            os("convert"),
            input.as_os_str(),
            os("-o"),
            out.as_os_str(),
        ]);
        assert_eq!(code, Some(2), "{out:?}");
        assert!(err.contains("over the input"), "{err}");
    }
    assert_eq!(std::fs::read(&input).expect("read"), original);

    // A FIFO is written in place (the reader gets the document) and stays a FIFO.
    let fifo = dir.join("pipe");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo")
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).expect("read the FIFO"))
    };
    let (code, _, err) = run(&[
        os("convert"),
        input.as_os_str(),
        os("-o"),
        fifo.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(reader.join().expect("reader"), expected);
    assert!(
        std::fs::metadata(&fifo)
            .expect("meta")
            .file_type()
            .is_fifo()
    );

    // A character device, directly and behind a symlink: written in place, never replaced.
    let null_link = dir.join("null.json");
    std::os::unix::fs::symlink("/dev/null", &null_link).expect("symlink");
    for out in [Path::new("/dev/null"), null_link.as_path()] {
        let (code, _, err) = run(&[
            os("convert"),
            input.as_os_str(),
            os("-o"),
            out.as_os_str(),
        ]);
        assert_eq!(code, Some(0), "{err}");
    }
    assert!(
        std::fs::symlink_metadata(&null_link)
            .expect("meta")
            .is_symlink()
    );
    assert!(
        std::fs::metadata("/dev/null")
            .expect("meta")
            .file_type()
            .is_char_device()
    );
    // `-o /dev/stdout` (a pipe here) reaches stdout.
    let (code, out, err) = run(&[
        os("convert"),
        input.as_os_str(),
        os("-o"),
        os("/dev/stdout"),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, expected);

    // A directory is refused; an existing regular file is replaced (the -o contract).
    let (code, _, err) = run(&[
        os("convert"),
        input.as_os_str(),
        os("-o"),
        dir.as_os_str(),
    ]);
    assert_eq!(code, Some(2));
    assert!(err.contains("a directory, not a regular file"), "{err}");
    let old = dir.join("old.json");
    std::fs::write(&old, b"old").expect("write");
    let (code, _, err) = run(&[
        os("convert"),
        input.as_os_str(),
        os("-o"),
        old.as_os_str(),
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(std::fs::read(&old).expect("read"), expected);
    let _ = std::fs::remove_dir_all(&dir);
}
