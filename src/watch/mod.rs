//! Watching a file and reloading it off the UI thread.
//!
//! The parent directory is watched (not the file: atomic saves replace the file's inode) and
//! events are filtered by file name, so write-and-rename, truncate-and-write, delete-then-create
//! and editors' backup dances all end in one reload. A write the OS reports finished (the
//! writer closed the file, or a finished file was renamed onto it) reloads at once; other
//! changes wait for the events to go quiet, since the file may still be being written. A parse failure right after a change is
//! retried briefly, because exporters write in several chunks; the error is reported only when
//! the content is stable and still broken. bonescope only ever reads the watched file.

mod meta_poll;

use crate::core::model::SkeletonData;
use crate::diff::ModelDiff;
use crate::format::LoadError;
use crate::format::read::{ReadError, read_file};
use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind};
use notify::{RecursiveMode, Watcher};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How often the worker checks that the watched folder is still the one at its path (it may
/// have been replaced, deleted, or moved away and back: OS watches follow the old inode).
const FOLDER_CHECK: Duration = Duration::from_millis(500);

/// How to watch.
#[derive(Clone, Debug)]
pub struct WatchOptions {
    /// Poll every this long instead of using OS events (network filesystems, WSL, containers).
    pub poll: Option<Duration>,
    /// Quiet time after the last event before reloading, while the file may still be being
    /// written (a finished write or a rename into place reloads at once; polling always
    /// waits this long).
    pub debounce: Duration,
    /// How long to wait for a half-written file to become parseable.
    pub settle: Duration,
}

impl Default for WatchOptions {
    fn default() -> Self {
        WatchOptions {
            poll: None,
            debounce: Duration::from_millis(60),
            settle: Duration::from_millis(400),
        }
    }
}

/// The result of one reload attempt.
#[derive(Clone, Debug)]
pub enum ReloadEvent {
    /// The file changed and loaded.
    Loaded {
        /// The reloaded skeleton: the one named like the selected one, else the first.
        data: Arc<SkeletonData>,
        /// Every skeleton of the file (DragonBones files hold several armatures).
        armatures: Vec<Arc<SkeletonData>>,
        /// Changes from the selected skeleton to `data`.
        diff: Box<ModelDiff>,
        bytes: usize,
    },
    /// The file changed but does not load; the message names the location.
    Failed { error: crate::format::LoadError },
    /// The file is gone (it may come back).
    Missing,
    /// The watcher reported a problem (events may have been missed; a full reload follows).
    WatchError { error: String },
    /// The file's folder was replaced, removed or moved, and the watch followed it: `message`
    /// says what happened, for the status line. A reload check follows.
    Rewatched { message: String },
}

/// See [`Reloader::selector`].
#[derive(Clone)]
pub struct Selector(Arc<Mutex<Arc<SkeletonData>>>);

impl Selector {
    /// Reloads now pick the armature named like `data` and describe changes against it.
    pub fn select(&self, data: Arc<SkeletonData>) {
        let mut s = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *s = data;
    }
}

/// A running watch. Dropping it stops watching.
pub struct Reloader {
    rx: Receiver<ReloadEvent>,
    /// The skeleton the user is looking at: reloads pick the armature of the same name and
    /// describe their changes against it.
    selected: Arc<Mutex<Arc<SkeletonData>>>,
    /// Set on drop; the worker stops at its next folder check.
    stop: Arc<AtomicBool>,
    reads: Arc<AtomicU64>,
}

impl Drop for Reloader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// The OS watch on the file's folder, or the poller of the file's metadata: kept alive while
/// watching, dropped to stop.
#[allow(dead_code)] // held, never read: dropping it stops the watch
enum BoxedWatcher {
    Os(notify::RecommendedWatcher),
    Poll(meta_poll::MetaPoller),
}

/// Why a watch could not start.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The path names no file (it ends in `..` or is a root).
    #[error("not a file path")]
    NotAFilePath,
    /// The OS (or the poller) refused to watch the folder.
    #[error("cannot watch {}: {source}", crate::text::sanitize(&dir.display().to_string()))]
    Folder {
        /// The folder.
        dir: PathBuf,
        /// What the OS said.
        #[source]
        source: notify::Error,
    },
    /// The reload thread could not be started.
    #[error("cannot start the reload thread: {0}")]
    Thread(#[source] std::io::Error),
}

/// Starts watching `dir` (non-recursively), or with `poll` polling `file`'s metadata, sending
/// raw events to `tx`.
fn watch_dir(
    dir: &Path,
    file: &Path,
    poll: Option<Duration>,
    tx: Sender<notify::Result<notify::Event>>,
) -> Result<BoxedWatcher, WatchError> {
    let fail = |source: notify::Error| WatchError::Folder {
        dir: dir.to_path_buf(),
        source,
    };
    match poll {
        Some(interval) => meta_poll::MetaPoller::start(file.to_path_buf(), interval, tx)
            .map(BoxedWatcher::Poll)
            .map_err(|e| fail(notify::Error::io(e))),
        None => {
            let mut w =
                notify::RecommendedWatcher::new(tx, notify::Config::default()).map_err(fail)?;
            w.watch(dir, RecursiveMode::NonRecursive).map_err(fail)?;
            Ok(BoxedWatcher::Os(w))
        }
    }
}

/// Identity of the folder now at `dir` (device and inode where there are any), or `None`
/// when there is none.
fn folder_id(dir: &Path) -> Option<(u64, u64)> {
    let m = std::fs::metadata(dir).ok()?;
    if !m.is_dir() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        Some((0, 0))
    }
}

/// Whether an event kind can mean new content or a change of presence. Opening, reading
/// and closing without writing are not: reacting to them made every read of the file
/// (including the reloader's own) trigger the next one.
fn is_change(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        // Metadata covers permissions coming back; a touch only costs a read and a hash.
        EventKind::Modify(
            ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Metadata(_) | ModifyKind::Any,
        ) => true,
        EventKind::Modify(ModifyKind::Other) => true,
        EventKind::Create(_) | EventKind::Remove(_) | EventKind::Any | EventKind::Other => true,
    }
}

/// Whether an OS event says a write of the file is over: the writer closed it after writing
/// (`IN_CLOSE_WRITE`), or a finished file was renamed onto it (atomic saves). Other changes
/// (data written, a file created) may be followed by more writes, so they are debounced.
/// With `--poll` there are no such events: polling keeps its debounce.
fn completes_write(e: &notify::Event, name: &std::ffi::OsStr) -> bool {
    use notify::event::RenameMode;
    match e.kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        // `Both` carries the old and the new path: complete only when the new one is ours;
        // `To` names the new path alone (the caller checked it is ours).
        EventKind::Modify(ModifyKind::Name(RenameMode::To)) => true,
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => {
            e.paths.get(1).and_then(|p| p.file_name()) == Some(name)
        }
        _ => false,
    }
}

impl Reloader {
    /// Watches `path`, comparing reloads against `current`.
    pub fn start(
        path: &Path,
        current: Arc<SkeletonData>,
        opts: WatchOptions,
    ) -> Result<Reloader, WatchError> {
        let path = path.to_path_buf();
        let name = path
            .file_name()
            .map(|n| n.to_os_string())
            .ok_or(WatchError::NotAFilePath)?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let (raw_tx, raw_rx) = mpsc::channel();
        let (tx, rx) = mpsc::channel::<ReloadEvent>();
        let watcher = watch_dir(&dir, &path, opts.poll, raw_tx.clone())?;
        let folder = folder_id(&dir);
        // The content `current` came from, read now so a change right after start is seen.
        let initial_hash = read(&path).ok().flatten().map(|b| content_hash(&b));
        let selected = Arc::new(Mutex::new(current));
        let stop = Arc::new(AtomicBool::new(false));
        let reads = Arc::new(AtomicU64::new(0));
        let worker = Worker {
            path,
            dir,
            name,
            opts,
            selected: selected.clone(),
            stop: stop.clone(),
            reads: reads.clone(),
            raw_tx,
            tx,
            last_hash: initial_hash,
            last_missing: false,
            folder,
            watch_error: None,
        };
        std::thread::Builder::new()
            .name("reload".into())
            .spawn(move || worker.run(watcher, raw_rx))
            .map_err(WatchError::Thread)?;
        Ok(Reloader {
            rx,
            selected,
            stop,
            reads,
        })
    }

    /// A handle that tells the watcher which of the file's skeletons the user switched to
    /// (it outlives moving the reloader to another thread).
    pub fn selector(&self) -> Selector {
        Selector(self.selected.clone())
    }

    /// The channel reload results arrive on.
    pub fn events(&self) -> &Receiver<ReloadEvent> {
        &self.rx
    }

    /// How many times the watcher has read the file since it started (its initial read
    /// included): a diagnostic that shows it stays idle while nothing changes.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }
}

fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// Reads the file through the bounded reader; `None` when it does not exist.
fn read(path: &Path) -> Result<Option<Vec<u8>>, ReadError> {
    match read_file(path) {
        Ok(b) => Ok(Some(b)),
        Err(ReadError::NotFound) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The reload thread's state.
struct Worker {
    path: PathBuf,
    dir: PathBuf,
    name: std::ffi::OsString,
    opts: WatchOptions,
    selected: Arc<Mutex<Arc<SkeletonData>>>,
    stop: Arc<AtomicBool>,
    reads: Arc<AtomicU64>,
    /// Kept to give a re-created watch the same channel.
    raw_tx: Sender<notify::Result<notify::Event>>,
    tx: Sender<ReloadEvent>,
    last_hash: Option<u64>,
    last_missing: bool,
    /// The folder being watched, as [`folder_id`] saw it when the watch was made.
    folder: Option<(u64, u64)>,
    /// The last failure to re-establish the watch (said once).
    watch_error: Option<String>,
}

impl Worker {
    fn run(mut self, watcher: BoxedWatcher, raw: Receiver<notify::Result<notify::Event>>) {
        let mut watcher = Some(watcher);
        loop {
            let first = match raw.recv_timeout(FOLDER_CHECK) {
                Ok(ev) => ev,
                Err(RecvTimeoutError::Timeout) => {
                    if self.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if self.check_folder(&mut watcher).is_err() {
                        return;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return,
            };
            // Collect events: after a finished write or a rename into place, only those
            // already queued; while the file may still be being written, until `debounce`
            // passes without one.
            let mut relevant = false;
            let mut complete = false;
            let mut next = Some(first);
            while let Some(ev) = next.take() {
                match ev {
                    Ok(e) => {
                        if self.concerns_us(&e) {
                            relevant = true;
                            // The latest event about the file decides: more writes after
                            // a close mean it is being written again.
                            complete = self.opts.poll.is_none() && completes_write(&e, &self.name);
                        }
                    }
                    Err(e) => {
                        let error = e.to_string();
                        if self.send(ReloadEvent::WatchError { error }).is_err() {
                            return;
                        }
                        relevant = true;
                        complete = false;
                    }
                }
                next = if complete {
                    raw.try_recv().ok()
                } else {
                    raw.recv_timeout(self.opts.debounce).ok()
                };
            }
            if self.stop.load(Ordering::Relaxed) {
                return;
            }
            // The folder itself may be what changed (removed, replaced, moved).
            if self.check_folder(&mut watcher).is_err() {
                return;
            }
            if relevant && self.reload().is_err() {
                return;
            }
        }
    }

    fn send(&self, ev: ReloadEvent) -> Result<(), ()> {
        self.tx.send(ev).map_err(|_| ())
    }

    /// Whether an event may have changed our file: a change (not a read) to it, to the
    /// folder itself, or with no path (what a watcher reports when it lost events).
    fn concerns_us(&self, e: &notify::Event) -> bool {
        if e.need_rescan() {
            return true;
        }
        if !is_change(&e.kind) {
            return false;
        }
        e.paths.is_empty()
            || e.paths.iter().any(|p| {
                p.file_name() == Some(self.name.as_os_str())
                    || p.as_os_str().is_empty()
                    || *p == self.dir
            })
    }

    /// Re-establishes the watch when the folder at the path is no longer the watched one,
    /// then checks the file. `Err` when the receiver is gone.
    fn check_folder(&mut self, watcher: &mut Option<BoxedWatcher>) -> Result<(), ()> {
        let now = folder_id(&self.dir);
        if now == self.folder && watcher.is_some() {
            return Ok(());
        }
        if now.is_none() && self.folder.is_none() {
            // Still no folder. It may have come back and gone again between two checks
            // (loaded by a reload in between, then moved away), and no watch can say so:
            // look at the file itself, which costs one failed open.
            return self.reload();
        }
        // The old watch follows an inode that is no longer at the path: drop it.
        *watcher = None;
        let shown = crate::text::sanitize(&self.dir.display().to_string()).into_owned();
        let message = if now.is_none() {
            self.folder = None;
            format!("folder {shown} is gone; waiting for it to come back")
        } else {
            self.folder = now;
            match watch_dir(&self.dir, &self.path, self.opts.poll, self.raw_tx.clone()) {
                Ok(w) => {
                    *watcher = Some(w);
                    self.watch_error = None;
                    format!("folder {shown} was replaced or came back; watching it again")
                }
                Err(e) => {
                    // Retried at every check and said once; until it works, every check
                    // looks at the file itself, so changes are still seen (late).
                    let e = e.to_string();
                    if self.watch_error.as_deref() != Some(e.as_str()) {
                        self.watch_error = Some(e.clone());
                        self.send(ReloadEvent::WatchError { error: e })?;
                    }
                    return self.reload();
                }
            }
        };
        self.send(ReloadEvent::Rewatched { message })?;
        self.reload()
    }

    /// Reads and loads the file when its content changed, and reports the result.
    /// `Err` when the receiver is gone.
    fn reload(&mut self) -> Result<(), ()> {
        let Some(event) = self.load_if_changed() else {
            return Ok(());
        };
        self.send(event)
    }

    fn read(&self) -> Result<Option<Vec<u8>>, ReadError> {
        self.reads.fetch_add(1, Ordering::Relaxed);
        read(&self.path)
    }

    /// The event for the file's current state, or `None` when nothing changed.
    fn load_if_changed(&mut self) -> Option<ReloadEvent> {
        let stem = self
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Load, retrying while the content keeps changing and does not parse yet.
        let deadline = Instant::now() + self.opts.settle;
        let outcome = loop {
            let bytes = match self.read() {
                Ok(Some(b)) => b,
                Ok(None) => break None,
                Err(e) => break Some(Err(LoadError::new(e.to_string()))),
            };
            let hash = content_hash(&bytes);
            if Some(hash) == self.last_hash && !self.last_missing {
                break Some(Ok(None));
            }
            match crate::format::load_all(&bytes, &stem) {
                Ok(data) => {
                    self.last_hash = Some(hash);
                    break Some(Ok(Some((data, bytes.len()))));
                }
                Err(e) => {
                    if Instant::now() >= deadline {
                        self.last_hash = Some(hash);
                        break Some(Err(e));
                    }
                    std::thread::sleep(Duration::from_millis(40));
                    match self.read() {
                        Ok(Some(again)) if content_hash(&again) == hash => {
                            // Stable and broken: report it.
                            self.last_hash = Some(hash);
                            break Some(Err(e));
                        }
                        _ => continue,
                    }
                }
            }
        };
        match outcome {
            None => {
                if self.last_missing {
                    return None;
                }
                self.last_missing = true;
                Some(ReloadEvent::Missing)
            }
            Some(Ok(None)) => None,
            Some(Ok(Some((all, bytes)))) => {
                self.last_missing = false;
                let armatures: Vec<Arc<SkeletonData>> = all.into_iter().map(Arc::new).collect();
                // A poisoned lock only means a panicking holder; its value is still whole.
                let mut sel = self.selected.lock().unwrap_or_else(|p| p.into_inner());
                let data = armatures
                    .iter()
                    .find(|d| d.name == sel.name)
                    .unwrap_or(&armatures[0])
                    .clone();
                let diff = ModelDiff::between(&sel, &data);
                *sel = data.clone();
                drop(sel);
                Some(ReloadEvent::Loaded {
                    data,
                    armatures,
                    diff: Box::new(diff),
                    bytes,
                })
            }
            Some(Err(error)) => {
                self.last_missing = false;
                Some(ReloadEvent::Failed { error })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_finished_write_or_a_rename_onto_the_file_completes_it() {
        use notify::event::{CreateKind, DataChange, RenameMode};
        let name = std::ffi::OsStr::new("model.json");
        let ev = |kind, paths: &[&str]| {
            paths.iter().fold(notify::Event::new(kind), |e, p| {
                e.add_path(PathBuf::from(p))
            })
        };
        let close = EventKind::Access(AccessKind::Close(AccessMode::Write));
        assert!(completes_write(&ev(close, &["d/model.json"]), name));
        let to = EventKind::Modify(ModifyKind::Name(RenameMode::To));
        assert!(completes_write(&ev(to, &["d/model.json"]), name));
        let both = EventKind::Modify(ModifyKind::Name(RenameMode::Both));
        assert!(completes_write(
            &ev(both, &["d/.tmp", "d/model.json"]),
            name
        ));
        assert!(
            !completes_write(&ev(both, &["d/model.json", "d/old.json"]), name),
            "renamed away"
        );
        let data = EventKind::Modify(ModifyKind::Data(DataChange::Any));
        assert!(
            !completes_write(&ev(data, &["d/model.json"]), name),
            "still writing"
        );
        let create = EventKind::Create(CreateKind::File);
        assert!(!completes_write(&ev(create, &["d/model.json"]), name));
    }

    fn worker(path: &Path) -> (Worker, Receiver<ReloadEvent>) {
        let (raw_tx, _raw_rx) = mpsc::channel();
        let (tx, rx) = mpsc::channel();
        let text = include_str!("../../samples/spine/lantern-keeper.json");
        let data = Arc::new(crate::format::load(text.as_bytes(), "model").expect("sample loads"));
        let w = Worker {
            path: path.to_path_buf(),
            dir: path.parent().expect("parent").to_path_buf(),
            name: path.file_name().expect("name").to_os_string(),
            opts: WatchOptions::default(),
            selected: Arc::new(Mutex::new(data)),
            stop: Arc::new(AtomicBool::new(false)),
            reads: Arc::new(AtomicU64::new(0)),
            raw_tx,
            tx,
            last_hash: None,
            last_missing: false,
            folder: None,
            watch_error: None,
        };
        (w, rx)
    }

    /// The folder was gone (no watch), came back with the file (a reload loaded it), and was
    /// moved away again before the next check: the check still says the file is missing.
    #[test]
    fn folder_back_and_gone_between_checks_reports_missing() {
        let root =
            std::env::temp_dir().join(format!("bonescope-watch-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("d");
        std::fs::create_dir_all(&dir).expect("mkdir");
        let path = dir.join("model.json");
        std::fs::write(
            &path,
            include_str!("../../samples/spine/lantern-keeper.json"),
        )
        .expect("write");
        let (mut w, rx) = worker(&path);
        let mut watcher = None;
        w.reload().expect("receiver alive");
        assert!(matches!(rx.try_recv(), Ok(ReloadEvent::Loaded { .. })));
        std::fs::rename(&dir, root.join("away")).expect("mv");
        w.check_folder(&mut watcher).expect("receiver alive");
        assert!(matches!(rx.try_recv(), Ok(ReloadEvent::Missing)));
        // Nothing new while it stays away.
        w.check_folder(&mut watcher).expect("receiver alive");
        assert!(rx.try_recv().is_err());
        let _ = std::fs::remove_dir_all(&root);
    }
}
