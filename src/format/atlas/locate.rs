//! Finding the atlas of an export when the user names none (`--atlas PATH` overrides).
//!
//! The rule, in order:
//! 1. Beside the export, the atlas with the export's stem: `NAME.atlas` for `NAME.json` /
//!    `NAME.skel`; for DragonBones `NAME_ske.json` / `NAME_ske.dbbin`, `NAME_tex.json`.
//! 2. Otherwise, among the `.atlas` and `_tex.json` files of the export's folder (at most
//!    [`MAX_CANDIDATES`], by name), those whose region names cover every attachment path of
//!    the skeleton (sequence frames included). One such atlas is the answer; of several, the
//!    one whose stem is the longest prefix of the export's stem (`spineboy.atlas` for
//!    `spineboy-pro.json`), then the first by name.
//! 3. Otherwise none: the caller draws without textures (the wireframe) and says why.

use super::Textures;
use crate::core::model::SkeletonData;
use std::path::{Path, PathBuf};

/// Most atlas files of a folder rule 2 reads.
pub const MAX_CANDIDATES: usize = 64;

/// The atlas file for the export at `skeleton` (showing `data`), by the rule above.
pub fn find_atlas(skeleton: &Path, data: &SkeletonData) -> Option<PathBuf> {
    let dir = skeleton.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let stem = skeleton.file_stem()?.to_string_lossy().into_owned();
    let same = [
        dir.join(format!("{stem}.atlas")),
        dir.join(format!(
            "{}_tex.json",
            stem.strip_suffix("_ske").unwrap_or(&stem)
        )),
    ];
    if let Some(p) = same.into_iter().find(|p| p.is_file()) {
        return Some(p);
    }
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let n = p
                .file_name()
                .map(|n| n.to_string_lossy())
                .unwrap_or_default();
            (n.ends_with(".atlas") || n.ends_with("_tex.json")) && p.is_file()
        })
        .collect();
    names.sort();
    names.truncate(MAX_CANDIDATES);
    let required = super::textures::required_paths(data);
    let covering: Vec<PathBuf> = names
        .into_iter()
        .filter(|p| atlas_only(p).is_some_and(|t| required.iter().all(|r| t.has_region(r))))
        .collect();
    let prefix = |p: &PathBuf| {
        let s = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let s = s.strip_suffix("_tex").unwrap_or(&s).to_string();
        if stem.starts_with(&s) { s.len() } else { 0 }
    };
    let best = covering.iter().map(prefix).max()?;
    covering.into_iter().find(|p| prefix(p) == best)
}

/// The atlas text of `path` parsed, pages not decoded (cheap enough to test coverage).
fn atlas_only(path: &Path) -> Option<Textures> {
    let bytes = crate::format::read::read_limited(path, 64 * 1024 * 1024).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let atlas = if text.trim_start().starts_with('{') {
        super::parse_dragonbones_tex(&text).ok()?
    } else {
        super::parse_spine_atlas(&text).ok()?
    };
    Some(Textures::new(atlas, Vec::new(), Vec::new()))
}
