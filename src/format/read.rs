//! Reading an input file with bounds: the one place bonescope reads a path it was given.
//!
//! Only regular files are read. The file is opened without blocking (a FIFO would otherwise
//! block `open` until a writer appears), its type is checked on the open handle (a path can
//! change between a check and the open), and at most `limit` bytes are read whatever the
//! metadata says (devices report a length of 0; `/dev/zero` never ends).

use std::fs::{File, Metadata, OpenOptions};
use std::io::Read;
use std::path::Path;

/// Files larger than this are refused (no export is anywhere near it).
pub const MAX_FILE_BYTES: u64 = 512 * 1024 * 1024;

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// Nothing at the path (it may appear later).
    #[error("no such file")]
    NotFound,
    /// Something other than a regular file: never read, never waited on.
    #[error("not a skeleton: it is {0}, not a regular file")]
    NotRegular(&'static str),
    /// Larger than the limit.
    #[error("file is larger than the {0} byte limit")]
    TooLarge(u64),
    /// Any other failure (permission, symlink loop, I/O).
    #[error("{0}")]
    Io(std::io::Error),
}

impl From<std::io::Error> for ReadError {
    fn from(e: std::io::Error) -> ReadError {
        match e.kind() {
            std::io::ErrorKind::NotFound => ReadError::NotFound,
            _ => ReadError::Io(e),
        }
    }
}

/// Reads the regular file at `path` (following symlinks), at most `limit` bytes.
pub fn read_limited(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    // Checked before opening so opening never touches a device or a FIFO at all ...
    check_regular(&std::fs::metadata(path)?)?;
    let file = open_nonblocking(path)?;
    // ... and again on the handle, in case the path was replaced in between.
    let meta = file.metadata()?;
    check_regular(&meta)?;
    if meta.len() > limit {
        return Err(ReadError::TooLarge(limit));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // One byte past the limit tells a file that grew past it from one that fits exactly.
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(bytes)
}

/// [`read_limited`] with [`MAX_FILE_BYTES`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, ReadError> {
    read_limited(path, MAX_FILE_BYTES)
}

fn check_regular(meta: &Metadata) -> Result<(), ReadError> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(ReadError::NotRegular(kind_of(meta)))
    }
}

/// What a non-regular file is, in words.
pub(crate) fn kind_of(meta: &Metadata) -> &'static str {
    let ft = meta.file_type();
    if ft.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if ft.is_char_device() {
            return "a character device";
        }
        if ft.is_block_device() {
            return "a block device";
        }
        if ft.is_socket() {
            return "a socket";
        }
    }
    "a special file"
}

#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("bonescope-read-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn reads_a_regular_file_and_refuses_past_the_limit() {
        let d = temp("limit");
        let f = d.join("a.json");
        std::fs::write(&f, b"0123456789").expect("write");
        assert_eq!(read_limited(&f, 10).expect("fits"), b"0123456789");
        assert!(matches!(read_limited(&f, 9), Err(ReadError::TooLarge(9))));
        assert!(matches!(
            read_file(&d.join("gone")),
            Err(ReadError::NotFound)
        ));
        assert!(matches!(
            read_file(&d),
            Err(ReadError::NotRegular("a directory"))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_not_read() {
        let d = temp("dev");
        let link = d.join("zero.json");
        std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
        let e = read_file(&link).expect_err("a device");
        assert_eq!(
            e.to_string(),
            "not a skeleton: it is a character device, not a regular file"
        );
    }
}
