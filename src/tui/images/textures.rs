//! The viewer's textures: the atlas found beside the watched export (the rule of
//! [`crate::format::atlas::locate::find_atlas`]), loaded with its pages, and reloaded when the
//! atlas or a page changes on disk (their modification times are polled). A missing or
//! broken atlas or page is a located message for the log; the preview then draws what it
//! can (the wireframe where textures are missing), never fails.

use crate::core::model::SkeletonData;
use crate::format::atlas::Textures;
use crate::format::atlas::locate::find_atlas;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

/// How often the atlas and its pages are checked for changes.
pub const POLL: Duration = Duration::from_millis(500);

/// The atlas of an export and what its files looked like when loaded.
#[derive(Debug, Default)]
pub struct TextureSource {
    /// The export the atlas belongs to.
    skeleton: Option<PathBuf>,
    atlas: Option<PathBuf>,
    /// The atlas and page files with their modification times at load.
    stamps: Vec<(PathBuf, Option<SystemTime>)>,
    last_poll: Option<Instant>,
}

fn stamp(p: &Path) -> Option<SystemTime> {
    std::fs::metadata(p).and_then(|m| m.modified()).ok()
}

impl TextureSource {
    /// Finds and loads the textures of the export at `skeleton` showing `data`. Returns them
    /// (`None`: no atlas, or an unreadable one) and messages for the log.
    pub fn load(
        &mut self,
        skeleton: &Path,
        data: &SkeletonData,
    ) -> (Option<Arc<Textures>>, Vec<String>) {
        self.skeleton = Some(skeleton.to_path_buf());
        self.atlas = find_atlas(skeleton, data);
        self.stamps.clear();
        self.last_poll = Some(Instant::now());
        let Some(atlas) = self.atlas.clone() else {
            return (None, Vec::new());
        };
        self.stamps.push((atlas.clone(), stamp(&atlas)));
        let show = crate::text::sanitize(&atlas.display().to_string()).into_owned();
        match Textures::load(&atlas) {
            Ok(t) => {
                let dir = atlas.parent().unwrap_or(Path::new("."));
                for page in &t.atlas.pages {
                    let p = dir.join(&page.name);
                    let s = stamp(&p);
                    self.stamps.push((p, s));
                }
                let mut notes: Vec<String> = t
                    .problems
                    .iter()
                    .map(|p| format!("textures: {}", crate::text::sanitize(p)))
                    .collect();
                let missing = t.missing_paths(data);
                if let Some(first) = missing.first() {
                    notes.push(format!(
                        "textures: {show} has no region {} (+{} more); those attachments are drawn untextured (outlines)",
                        crate::text::sanitize(first),
                        missing.len() - 1
                    ));
                }
                (Some(Arc::new(t)), notes)
            }
            Err(e) => (
                None,
                vec![format!(
                    "textures: {}; showing the wireframe",
                    crate::text::sanitize(&e.to_string())
                )],
            ),
        }
    }

    /// The atlas in use.
    pub fn atlas(&self) -> Option<&Path> {
        self.atlas.as_deref()
    }

    /// Whether the atlas or a page changed since the load (checked at most every [`POLL`]).
    pub fn changed(&mut self, now: Instant) -> bool {
        if self
            .last_poll
            .is_some_and(|t| now.saturating_duration_since(t) < POLL)
        {
            return false;
        }
        self.last_poll = Some(now);
        self.stamps.iter().any(|(p, s)| stamp(p) != *s)
    }

    /// The export the textures were looked up for.
    pub fn skeleton(&self) -> Option<&Path> {
        self.skeleton.as_deref()
    }
}
