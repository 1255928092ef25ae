//! Watching a file and reloading it off the UI thread.
//!
//! The parent directory is watched (not the file: atomic saves replace the file's inode) and
//! events are filtered by file name, so write-and-rename, truncate-and-write, delete-then-create
//! and editors' backup dances all end in one reload. A parse failure right after a change is
//! retried briefly, because exporters write in several chunks; the error is reported only when
//! the content is stable and still broken. bonescope only ever reads the watched file.

use crate::core::model::SkeletonData;
use crate::diff::ModelDiff;
use crate::format::LoadError;
use notify_debouncer_mini::notify::{self, RecursiveMode};
use notify_debouncer_mini::{DebounceEventResult, new_debouncer_opt};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How to watch.
#[derive(Clone, Debug)]
pub struct WatchOptions {
    /// Poll every this long instead of using OS events (network filesystems, WSL, containers).
    pub poll: Option<Duration>,
    /// Quiet time after the last event before reloading.
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
    _debouncer: Box<dyn std::any::Any + Send>,
}

impl Reloader {
    /// Watches `path`, comparing reloads against `current`.
    pub fn start(
        path: &Path,
        current: Arc<SkeletonData>,
        opts: WatchOptions,
    ) -> Result<Reloader, String> {
        let path = path.to_path_buf();
        let name = path
            .file_name()
            .map(|n| n.to_os_string())
            .ok_or_else(|| "not a file path".to_string())?;
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let (raw_tx, raw_rx) = mpsc::channel::<DebounceEventResult>();
        let (tx, rx) = mpsc::channel::<ReloadEvent>();
        let notify_config = match opts.poll {
            Some(interval) => notify::Config::default()
                .with_poll_interval(interval)
                .with_compare_contents(true),
            None => notify::Config::default(),
        };
        let config = notify_debouncer_mini::Config::default()
            .with_timeout(opts.debounce)
            .with_notify_config(notify_config);
        let debouncer: Box<dyn std::any::Any + Send> = match opts.poll {
            Some(_) => {
                let mut d = new_debouncer_opt::<_, notify::PollWatcher>(config, raw_tx)
                    .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
                d.watcher()
                    .watch(&dir, RecursiveMode::NonRecursive)
                    .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
                Box::new(d)
            }
            None => {
                let mut d = new_debouncer_opt::<_, notify::RecommendedWatcher>(config, raw_tx)
                    .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
                d.watcher()
                    .watch(&dir, RecursiveMode::NonRecursive)
                    .map_err(|e| format!("cannot watch {}: {e}", dir.display()))?;
                Box::new(d)
            }
        };
        let settle = opts.settle;
        // The content `current` came from, read now so a change right after start is seen.
        let initial_hash = read(&path).ok().flatten().map(|b| content_hash(&b));
        let selected = Arc::new(Mutex::new(current));
        let shared = selected.clone();
        std::thread::Builder::new()
            .name("reload".into())
            .spawn(move || worker(path, name, shared, initial_hash, raw_rx, tx, settle))
            .map_err(|e| e.to_string())?;
        Ok(Reloader {
            rx,
            selected,
            _debouncer: debouncer,
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
}

fn content_hash(bytes: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// Reads the file; `None` when it does not exist.
fn read(path: &Path) -> Result<Option<Vec<u8>>, String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
        Ok(m) if m.len() > crate::cli::MAX_FILE_BYTES => {
            return Err(format!(
                "file is {} bytes, larger than the {} byte limit",
                m.len(),
                crate::cli::MAX_FILE_BYTES
            ));
        }
        Ok(_) => {}
    }
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e.to_string()),
    }
}

fn worker(
    path: PathBuf,
    name: std::ffi::OsString,
    selected: Arc<Mutex<Arc<SkeletonData>>>,
    initial_hash: Option<u64>,
    raw: Receiver<DebounceEventResult>,
    tx: Sender<ReloadEvent>,
    settle: Duration,
) {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut last_hash = initial_hash;
    let mut last_missing = false;
    while let Ok(batch) = raw.recv() {
        let relevant = match &batch {
            // Our file, or the directory itself / no path at all (what a watcher reports when
            // it overflowed and events were lost): reload to be sure.
            Ok(events) => events.iter().any(|e| {
                e.path.file_name() == Some(name.as_os_str())
                    || e.path.as_os_str().is_empty()
                    || path.parent().is_some_and(|dir| e.path == dir)
            }),
            Err(e) => {
                let _ = tx.send(ReloadEvent::WatchError {
                    error: e.to_string(),
                });
                true
            }
        };
        if !relevant {
            continue;
        }
        // Load, retrying while the content keeps changing and does not parse yet.
        let deadline = std::time::Instant::now() + settle;
        let outcome = loop {
            let bytes = match read(&path) {
                Ok(Some(b)) => b,
                Ok(None) => break None,
                Err(e) => break Some(Err(LoadError::new(e))),
            };
            let hash = content_hash(&bytes);
            if Some(hash) == last_hash && !last_missing {
                break Some(Ok(None));
            }
            match crate::format::load_all(&bytes, &stem) {
                Ok(data) => {
                    last_hash = Some(hash);
                    break Some(Ok(Some((data, bytes.len()))));
                }
                Err(e) => {
                    if std::time::Instant::now() >= deadline {
                        last_hash = Some(hash);
                        break Some(Err(e));
                    }
                    std::thread::sleep(Duration::from_millis(40));
                    match read(&path) {
                        Ok(Some(again)) if content_hash(&again) == hash => {
                            // Stable and broken: report it.
                            last_hash = Some(hash);
                            break Some(Err(e));
                        }
                        _ => continue,
                    }
                }
            }
        };
        let event = match outcome {
            None => {
                if last_missing {
                    continue;
                }
                last_missing = true;
                ReloadEvent::Missing
            }
            Some(Ok(None)) => continue,
            Some(Ok(Some((all, bytes)))) => {
                last_missing = false;
                let armatures: Vec<Arc<SkeletonData>> = all.into_iter().map(Arc::new).collect();
                // A poisoned lock only means a panicking holder; its value is still whole.
                let mut sel = selected.lock().unwrap_or_else(|p| p.into_inner());
                let data = armatures
                    .iter()
                    .find(|d| d.name == sel.name)
                    .unwrap_or(&armatures[0])
                    .clone();
                let diff = ModelDiff::between(&sel, &data);
                *sel = data.clone();
                drop(sel);
                ReloadEvent::Loaded {
                    data,
                    armatures,
                    diff: Box::new(diff),
                    bytes,
                }
            }
            Some(Err(error)) => {
                last_missing = false;
                ReloadEvent::Failed { error }
            }
        };
        if tx.send(event).is_err() {
            return;
        }
    }
}
