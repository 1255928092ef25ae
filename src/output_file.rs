//! Writing an output file without harming what is already there: the one place bonescope
//! writes a path it was given (`convert -o`, the viewer's `:save`).
//!
//! - The input (the open or watched file) is never written, under any name: the target is
//!   compared by device and inode (hard links, symlinks) and by resolved name (a missing input).
//! - An existing file is replaced only when the caller asks ([`OutputOptions::overwrite`]).
//! - A regular file is written to a temporary file in the same folder and renamed into place,
//!   so a reader (a watcher) never sees half a file and a failed write leaves the old file
//!   whole. A symlink at the path is replaced by the file, never written through, and a hard
//!   link's other names keep the old contents.
//! - A FIFO, a terminal or a character device is written in place when the caller allows it
//!   (`-o /dev/stdout`, `-o fifo`), else refused; it is never replaced by a regular file.
//!   Directories, block devices and sockets are always refused.

use std::fs::{File, Metadata, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::text::sanitize;

/// How [`write_output`] may treat the target.
#[derive(Clone, Copy, Debug, Default)]
pub struct OutputOptions<'a> {
    /// A file that must never be written (the input), whatever name the target gives it.
    pub protect: Option<&'a Path>,
    /// Replace an existing regular file (or symlink) at the target.
    pub overwrite: bool,
    /// Write to a FIFO or character device in place; `false` refuses them.
    pub special_in_place: bool,
}

/// Why an output was not written. Paths are sanitized for display.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    /// The target is the protected input (same file, maybe under another name).
    #[error(
        "{0}: refusing to write the output over the input file (the same file, by this or another name)"
    )]
    IsInput(String),
    /// Something exists at the target and the caller did not ask to replace it.
    #[error("{0}: already exists; not replacing it")]
    Exists(String),
    /// A directory, block device, socket (or a FIFO / device the caller did not allow).
    #[error("{0}: is {1}, not a regular file; not writing to it")]
    NotRegular(String, &'static str),
    /// The write itself failed.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
}

/// What is at the target, decided before writing.
enum Target {
    /// Nothing: create it.
    New,
    /// A regular file, a symlink (dangling or to a regular file): replace it by rename.
    Replace(Option<Metadata>),
    /// A FIFO or character device: write in place.
    InPlace,
}

/// Checks what writing `path` with `opts` would do, without writing (so a command can refuse
/// before its work). [`write_output`] checks again.
pub fn check_output(path: &Path, opts: &OutputOptions) -> Result<(), OutputError> {
    classify(path, opts).map(|_| ())
}

/// Writes `bytes` to `path` as [`OutputOptions`] allow (see the module doc).
pub fn write_output(path: &Path, bytes: &[u8], opts: &OutputOptions) -> Result<(), OutputError> {
    let shown = || sanitize(&path.display().to_string()).into_owned();
    let io = |e: std::io::Error| OutputError::Io(shown(), e);
    match classify(path, opts)? {
        Target::InPlace => write_in_place(path, bytes).map_err(|e| match e {
            InPlaceError::BecameRegular => OutputError::Exists(shown()),
            InPlaceError::Io(e) => io(e),
        }),
        Target::New => {
            let tmp = write_temp(path, bytes, None).map_err(io)?;
            // A hard link fails if anything appeared at the path meanwhile: never replaces.
            let linked = std::fs::hard_link(&tmp, path);
            let result = match linked {
                Ok(()) => Ok(()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    Err(OutputError::Exists(shown()))
                }
                // A file system without hard links: the path was free a moment ago.
                Err(_) => match std::fs::symlink_metadata(path) {
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        return std::fs::rename(&tmp, path).map_err(|e| {
                            let _ = std::fs::remove_file(&tmp);
                            io(e)
                        });
                    }
                    _ => Err(OutputError::Exists(shown())),
                },
            };
            let _ = std::fs::remove_file(&tmp);
            result
        }
        Target::Replace(old) => {
            let tmp = write_temp(path, bytes, old.as_ref()).map_err(io)?;
            std::fs::rename(&tmp, path).map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                io(e)
            })
        }
    }
}

fn classify(path: &Path, opts: &OutputOptions) -> Result<Target, OutputError> {
    let shown = || sanitize(&path.display().to_string()).into_owned();
    if let Some(input) = opts.protect
        && same_file(input, path)
    {
        return Err(OutputError::IsInput(shown()));
    }
    let link = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Target::New),
        Err(e) => return Err(OutputError::Io(shown(), e)),
        Ok(m) => m,
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {
            if opts.overwrite {
                Ok(Target::Replace(Some(m)))
            } else {
                Err(OutputError::Exists(shown()))
            }
        }
        Ok(m) if is_fifo_or_char_device(&m) => {
            if opts.special_in_place {
                Ok(Target::InPlace)
            } else {
                Err(OutputError::NotRegular(
                    shown(),
                    crate::format::read::kind_of(&m),
                ))
            }
        }
        Ok(m) => Err(OutputError::NotRegular(
            shown(),
            crate::format::read::kind_of(&m),
        )),
        // A dangling symlink or a loop: the link itself is what would be replaced.
        Err(_) if link.file_type().is_symlink() => {
            if opts.overwrite {
                Ok(Target::Replace(None))
            } else {
                Err(OutputError::Exists(shown()))
            }
        }
        Err(e) => Err(OutputError::Io(shown(), e)),
    }
}

fn is_fifo_or_char_device(meta: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let ft = meta.file_type();
        ft.is_fifo() || ft.is_char_device()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}

/// True when `a` and `b` are one file: same device and inode (through any link), or, when
/// either is missing, the same resolved name.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    match (resolved(a), resolved(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// The canonical path, or for a missing file its folder's canonical path and its name.
fn resolved(p: &Path) -> Option<PathBuf> {
    p.canonicalize().ok().or_else(|| {
        let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
        let parent = parent.unwrap_or(Path::new(".")).canonicalize().ok()?;
        Some(parent.join(p.file_name()?))
    })
}

/// Writes `bytes` to a new temporary file beside `path` (same folder, so a rename is atomic),
/// with `old`'s permissions when it replaces a file. Returns its path.
fn write_temp(path: &Path, bytes: &[u8], old: Option<&Metadata>) -> std::io::Result<PathBuf> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name"))?;
    let mut attempt = 0u32;
    let (tmp, mut file) = loop {
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(name);
        tmp_name.push(format!(".{}-{attempt}.bonescope-tmp", std::process::id()));
        let tmp = dir.join(tmp_name);
        match OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => break (tmp, f),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => {
                attempt += 1;
            }
            Err(e) => return Err(e),
        }
    };
    let written = (|| {
        file.write_all(bytes)?;
        if let Some(old) = old {
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()
    })();
    match written {
        Ok(()) => Ok(tmp),
        Err(e) => {
            drop(file);
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

enum InPlaceError {
    /// The path became a regular file between the check and the open: not truncated.
    BecameRegular,
    Io(std::io::Error),
}

/// Writes to a FIFO or character device as it is (no create, no truncate).
fn write_in_place(path: &Path, bytes: &[u8]) -> Result<(), InPlaceError> {
    let mut file = open_for_writing(path).map_err(InPlaceError::Io)?;
    if file.metadata().map_err(InPlaceError::Io)?.is_file() {
        return Err(InPlaceError::BecameRegular);
    }
    file.write_all(bytes)
        .and_then(|()| file.flush())
        .map_err(InPlaceError::Io)
}

#[cfg(unix)]
fn open_for_writing(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_for_writing(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().write(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bonescope-out-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .expect("dir")
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".bonescope-tmp"))
            .collect()
    }

    const KEEP: OutputOptions = OutputOptions {
        protect: None,
        overwrite: false,
        special_in_place: false,
    };

    #[test]
    fn creates_new_and_refuses_existing_unless_asked() {
        let d = temp("new");
        let out = d.join("log.txt");
        write_output(&out, b"one", &KEEP).expect("new");
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        let e = write_output(&out, b"two", &KEEP).expect_err("exists");
        assert!(matches!(e, OutputError::Exists(_)), "{e}");
        assert_eq!(std::fs::read(&out).unwrap(), b"one");
        let over = OutputOptions {
            overwrite: true,
            ..KEEP
        };
        write_output(&out, b"two", &over).expect("asked");
        assert_eq!(std::fs::read(&out).unwrap(), b"two");
        // A bare name writes in the current folder's terms (parent "" is ".").
        assert!(leftovers(&d).is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn the_input_is_never_written_under_any_name() {
        let d = temp("input");
        let input = d.join("skel.json");
        std::fs::write(&input, b"{}").unwrap();
        let hard = d.join("hard_m");
        std::fs::hard_link(&input, &hard).unwrap();
        let soft = d.join("soft.json");
        std::os::unix::fs::symlink(&input, &soft).unwrap();
        let sub = d.join("sub");
        std::os::unix::fs::symlink(&d, &sub).unwrap();
        let opts = OutputOptions {
            protect: Some(&input),
            overwrite: true,
            special_in_place: true,
        };
        for name in [
            input.clone(),
            hard.clone(),
            soft.clone(),
            sub.join("skel.json"),
            d.join(".").join("skel.json"),
        ] {
            let e = write_output(&name, b"log", &opts).expect_err("the input");
            assert!(matches!(e, OutputError::IsInput(_)), "{name:?}: {e}");
        }
        assert_eq!(std::fs::read(&input).unwrap(), b"{}");
        // A missing input is still protected by name.
        std::fs::remove_file(&input).unwrap();
        std::fs::remove_file(&hard).unwrap();
        let e = write_output(&input, b"log", &opts).expect_err("the input's name");
        assert!(matches!(e, OutputError::IsInput(_)), "{e}");
        assert!(!input.exists());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn links_are_replaced_never_written_through() {
        let d = temp("links");
        let other = d.join("other.txt");
        std::fs::write(&other, b"other").unwrap();
        let soft = d.join("soft.txt");
        std::os::unix::fs::symlink(&other, &soft).unwrap();
        let hard = d.join("hard.txt");
        std::fs::hard_link(&other, &hard).unwrap();
        let dangling = d.join("dangling.txt");
        std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
        for p in [&soft, &hard, &dangling] {
            let e = write_output(p, b"new", &KEEP).expect_err("exists");
            assert!(matches!(e, OutputError::Exists(_)), "{p:?}: {e}");
        }
        let over = OutputOptions {
            overwrite: true,
            ..KEEP
        };
        for p in [&soft, &hard, &dangling] {
            write_output(p, b"new", &over).expect("replaced");
            assert!(std::fs::symlink_metadata(p).unwrap().is_file(), "{p:?}");
            assert_eq!(std::fs::read(p).unwrap(), b"new");
        }
        assert_eq!(std::fs::read(&other).unwrap(), b"other");
        assert!(!d.join("nowhere").exists());
        assert!(leftovers(&d).is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_devices_are_written_in_place_or_refused() {
        use std::os::unix::fs::FileTypeExt;
        let d = temp("special");
        let fifo = d.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
        // Refused without blocking when not allowed.
        let e = write_output(&fifo, b"x", &KEEP).expect_err("not allowed");
        assert!(e.to_string().contains("FIFO"), "{e}");
        let e = write_output(Path::new("/dev/null"), b"x", &KEEP).expect_err("not allowed");
        assert!(e.to_string().contains("character device"), "{e}");
        let e = write_output(&d, b"x", &KEEP).expect_err("a directory");
        assert!(e.to_string().contains("directory"), "{e}");
        // In place when allowed: the reader gets the bytes, the FIFO stays a FIFO.
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read(&fifo).expect("read fifo"))
        };
        let in_place = OutputOptions {
            special_in_place: true,
            ..KEEP
        };
        write_output(&fifo, b"through the pipe", &in_place).expect("fifo");
        assert_eq!(reader.join().unwrap(), b"through the pipe");
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        // A symlink to a device is written through to the device (never replaced).
        let null_link = d.join("null.json");
        std::os::unix::fs::symlink("/dev/null", &null_link).unwrap();
        write_output(&null_link, b"discarded", &in_place).expect("/dev/null");
        write_output(Path::new("/dev/null"), b"discarded", &in_place).expect("/dev/null");
        assert!(std::fs::symlink_metadata(&null_link).unwrap().is_symlink());
        let null = std::fs::metadata("/dev/null").unwrap();
        assert!(null.file_type().is_char_device());
        assert!(leftovers(&d).is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }
}
