//! The DragonBones 4.0-5.5 loader: JSON and binary `.dbbin` (semantics: docs/dragonbones.md in `../shared`, in our
//! own words in `docs/ARCHITECTURE.md`).
//!
//! A file holds several armatures; each becomes one core [`SkeletonData`]. The data is
//! y-down with angles in degrees clockwise; the core is y-up, so y and every angle change
//! sign at load. What DragonBones does differently from Spine is expressed with core
//! pieces made for it: [`Inherit::DragonBones`](crate::core::model::Inherit) for its scale
//! inheritance, eased and resampled curves ([`crate::core::curve::Interp`]), key lookup by
//! frame index (`Animation::frame_rate`), per-timeline time warps and color offsets.

mod anim;
pub mod binary;
mod ctx;
mod displays;
mod dto;
mod frame_wire;
pub mod json_writer;
mod lenient;
mod setup;
mod transform;
mod tween;

#[cfg(test)]
mod tests;

use crate::core::model::{SkeletonData, SourceInfo};
use crate::format::ErrorKind;
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::json::parse::from_slice;

pub use ctx::Ctx;

/// Versions the runtime (DragonBonesJS 5.6) accepts in `version` or `compatibleVersion`.
const SUPPORTED: [&str; 4] = ["4.0", "4.5", "5.0", "5.5"];

/// Loads every armature of a DragonBones JSON file (already recognised by
/// [`crate::format::sniff`]). `name` is the display name. Each comes back finished
/// ([`SkeletonData::finish`]): a child armature is finished before it is copied into the
/// displays that show it.
pub fn load(text: &[u8], name: &str) -> Result<Vec<SkeletonData>, LoadError> {
    let budget = crate::format::json::budget::Budget::for_text(text.len());
    let cx = Ctx::new(text, &budget);
    // Files of other versions have other layouts: when the layout does not parse, the
    // version (if it is the reason) is the error to report.
    let file: dto::File = match from_slice(text) {
        Ok(f) => f,
        Err(layout) => {
            if let Ok(versions) = from_slice::<dto::Versions>(text) {
                check_version(&cx, &versions)?;
            }
            return Err(layout);
        }
    };
    build(&cx, &file, name)
}

/// Builds every armature of a parsed document (JSON, or a `.dbbin` whose binary data has been
/// read into the same structures).
fn build(cx: &Ctx<'_>, file: &dto::File, name: &str) -> Result<Vec<SkeletonData>, LoadError> {
    let cx = *cx;
    check_version(
        &cx,
        &dto::Versions {
            version: file.version.clone(),
            compatible_version: file.compatible_version.clone(),
        },
    )?;
    let version = file.version.clone().unwrap_or_default().0;
    if file.armature.is_empty() {
        return Err(cx.err(&[Seg::Key("armature")], "the file has no armature"));
    }
    let global_fps = frame_rate(&cx, file.frame_rate, 24.0, &[Seg::Key("frameRate")])?;
    // Every runtime since 4.7 reads 4.x data as parent-relative whatever `isGlobal` says;
    // the 4.5 runtime read a missing or true `isGlobal` as absolute data.
    // 5.x data has no global form: the key is a leftover there.
    let five = version.starts_with('5');
    let global_note = match file.is_global.0 {
        _ if five => None,
        Some(0.0) => None,
        Some(_) => Some(
            "isGlobal is set: read as parent-relative, as runtimes since 4.7 do (the 4.5 runtime read it as absolute)",
        ),
        None => Some(
            "no isGlobal: read as parent-relative, as runtimes since 4.7 do (the 4.5 runtime read it as absolute)",
        ),
    };
    let mut out = Vec::with_capacity(file.armature.len());
    let mut names = <foldhash::HashSet<_> as foldhash::HashSetExt>::new();
    for (i, arm) in file.armature.iter().enumerate() {
        let at = [Seg::Key("armature"), Seg::Index(i)];
        let fps = frame_rate(
            &cx,
            arm.frame_rate,
            global_fps,
            &[at[0], at[1], Seg::Key("frameRate")],
        )?;
        let mut data = setup::armature(&cx, &at, arm, fps)?;
        if !names.insert(data.name.clone()) {
            return Err(cx
                .err(
                    &[at[0], at[1], Seg::Key("name")],
                    format!("two armatures are named \"{}\"", data.name),
                )
                .with_kind(ErrorKind::DuplicateName));
        }
        data.source = SourceInfo {
            format: "DragonBones".into(),
            version: version.clone(),
        };
        if data.name.is_empty() {
            data.name = name.to_string();
        }
        data.load_warnings.extend(global_note.map(String::from));
        out.push(data);
    }
    Ok(nest_child_armatures(out))
}

/// Puts each child-armature display's skeleton into it, children before parents. An
/// armature that would contain itself (directly or through others) is left unresolved, with
/// a warning.
fn nest_child_armatures(mut all: Vec<SkeletonData>) -> Vec<SkeletonData> {
    use crate::core::model::AttachmentKind;
    use std::sync::Arc;
    let names: Vec<String> = all.iter().map(|d| d.name.clone()).collect();
    let children = |d: &SkeletonData| -> Vec<usize> {
        d.attachments
            .iter()
            .filter_map(|a| match &a.kind {
                AttachmentKind::Armature(c) => names.iter().position(|n| *n == c.armature),
                _ => None,
            })
            .collect()
    };
    let wanted: Vec<Vec<usize>> = all.iter().map(children).collect();
    // Each armature is finished once, when placed; only one some display shows is copied.
    let mut is_child = vec![false; all.len()];
    for &c in wanted.iter().flatten() {
        is_child[c] = true;
    }
    let mut placed = vec![false; all.len()];
    let mut done: Vec<Option<Arc<SkeletonData>>> = vec![None; all.len()];
    loop {
        let ready = (0..all.len())
            .find(|&i| !placed[i] && wanted[i].iter().all(|&c| c != i && done[c].is_some()));
        let Some(i) = ready else { break };
        for a in &mut all[i].attachments {
            if let AttachmentKind::Armature(c) = &mut a.kind
                && let Some(k) = names.iter().position(|n| *n == c.armature)
            {
                c.skeleton = done[k].clone();
            }
        }
        placed[i] = true;
        all[i].finish();
        if is_child[i] {
            done[i] = Some(Arc::new(all[i].clone()));
        }
    }
    // What is left nests itself somewhere below: resolve what can be, warn about the rest.
    for (i, d) in all.iter_mut().enumerate() {
        if placed[i] {
            continue;
        }
        for a in &mut d.attachments {
            if let AttachmentKind::Armature(c) = &mut a.kind
                && let Some(k) = names.iter().position(|n| *n == c.armature)
            {
                c.skeleton = done[k].clone();
            }
        }
        d.load_warnings.push(format!(
            "armature \"{}\" has child armatures that contain themselves; they are shown as markers",
            d.name
        ));
        d.finish();
    }
    all
}

/// Highest frame rate accepted: far above any export, low enough that frame arithmetic
/// stays exact.
const MAX_FPS: f64 = 1000.0;
/// Lowest frame rate accepted: with it, every frame count the loader accepts is a finite
/// key time (a rate like 1e-300 made key times infinite and the runtime's lookups fail).
const MIN_FPS: f64 = 1.0;

/// A `frameRate`: missing falls back to `default` and 0 to 24 (the runtime's rules);
/// negative or absurd values are errors.
fn frame_rate(
    cx: &Ctx<'_>,
    v: lenient::Num,
    default: f64,
    at: &[Seg<'_>],
) -> Result<f64, LoadError> {
    match v.0 {
        None => Ok(default),
        Some(0.0) => Ok(24.0),
        Some(f) if (MIN_FPS..=MAX_FPS).contains(&f) => Ok(f),
        Some(f) => Err(cx.err(
            at,
            format!("frame rate {f:?} is out of range ({MIN_FPS} to {MAX_FPS}, or 0 for 24)"),
        )),
    }
}

/// Accepts 4.0, 4.5, 5.0 and 5.5 in `version` or `compatibleVersion`, as the runtime does;
/// names anything else.
fn check_version(cx: &Ctx<'_>, file: &dto::Versions) -> Result<(), LoadError> {
    let ok = |v: &Option<dto::Version>| {
        v.as_ref()
            .is_some_and(|v| SUPPORTED.contains(&v.0.as_str()))
    };
    if ok(&file.version) || ok(&file.compatible_version) {
        return Ok(());
    }
    let v = file.version.as_ref().map_or("(none)", |v| v.0.as_str());
    let hint = match v {
        "2.3" | "3.0" => " (Flash-era data: re-export it with DragonBones Pro as 4.5 or later)",
        "5.6" | "5.7" | "5.8" | "6.0" => " (a later version without compatibleVersion 5.5)",
        _ => "",
    };
    Err(cx
        .err(
            &[Seg::Key("version")],
            format!("unsupported DragonBones version {v}{hint}; bonescope reads 4.0 to 5.5 (and later files compatible with 5.5)"),
        )
        .with_kind(ErrorKind::UnsupportedVersion))
}
