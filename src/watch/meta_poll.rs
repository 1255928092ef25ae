//! Polling one file's metadata (`--poll`): network filesystems, WSL and containers where OS
//! events do not arrive.
//!
//! notify's `PollWatcher` with content comparison hashed every regular file of the folder, whole,
//! at every poll (a 2 GB sparse file beside the skeleton: half a core for as long as it stayed),
//! and without it compares modification times in whole seconds. This poller looks at the watched
//! path only, with one `stat` per poll, and reports a change when its identity, type, length,
//! modification or status-change time (nanoseconds) differ; the worker then reads the file
//! through the bounded reader, once per change.

use notify::event::{CreateKind, EventKind, ModifyKind, RemoveKind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::{Duration, SystemTime};

/// What is compared between polls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Signature {
    len: u64,
    modified: Option<SystemTime>,
    is_file: bool,
    #[cfg(unix)]
    unix: (u64, u64, i64, i64),
}

/// The signature of what is at `path` now (following symlinks), `None` when nothing is.
pub(super) fn signature(path: &Path) -> Option<Signature> {
    let m = std::fs::metadata(path).ok()?;
    Some(Signature {
        len: m.len(),
        modified: m.modified().ok(),
        is_file: m.is_file(),
        #[cfg(unix)]
        unix: {
            use std::os::unix::fs::MetadataExt;
            (m.dev(), m.ino(), m.ctime(), m.ctime_nsec())
        },
    })
}

/// The polling thread; dropping it stops the thread (within one interval).
pub(super) struct MetaPoller {
    stop: Arc<AtomicBool>,
}

impl Drop for MetaPoller {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl MetaPoller {
    /// Polls `file` every `interval`, sending an event for it to `tx` when it changes.
    pub(super) fn start(
        file: PathBuf,
        interval: Duration,
        tx: Sender<notify::Result<notify::Event>>,
    ) -> std::io::Result<MetaPoller> {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let mut last = signature(&file);
        std::thread::Builder::new()
            .name("poll".into())
            .spawn(move || {
                while !stopped.load(Ordering::Relaxed) {
                    std::thread::sleep(interval);
                    let now = signature(&file);
                    if now == last {
                        continue;
                    }
                    let kind = match (&last, &now) {
                        (None, Some(_)) => EventKind::Create(CreateKind::Any),
                        (Some(_), None) => EventKind::Remove(RemoveKind::Any),
                        _ => EventKind::Modify(ModifyKind::Any),
                    };
                    last = now;
                    let event = notify::Event::new(kind).add_path(file.clone());
                    if stopped.load(Ordering::Relaxed) || tx.send(Ok(event)).is_err() {
                        return;
                    }
                }
            })?;
        Ok(MetaPoller { stop })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_of_content_length_or_identity_is_seen() {
        let dir = std::env::temp_dir().join(format!("bonescope-poll-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let f = dir.join("a.json");
        assert_eq!(signature(&f), None);
        std::fs::write(&f, b"{}").expect("write");
        let one = signature(&f).expect("there");
        std::fs::write(&f, b"{ }").expect("write");
        assert_ne!(signature(&f).expect("there"), one);
        let (tx, rx) = std::sync::mpsc::channel();
        let poller = MetaPoller::start(f.clone(), Duration::from_millis(10), tx).expect("start");
        std::fs::remove_file(&f).expect("rm");
        let ev = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("event")
            .expect("ok");
        assert!(matches!(ev.kind, EventKind::Remove(_)), "{ev:?}");
        drop(poller);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
