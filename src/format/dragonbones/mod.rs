//! The DragonBones 4.0 / 4.5 JSON loader (semantics: docs/dragonbones.md in `../shared`, in our
//! own words in `docs/ARCHITECTURE.md`).
//!
//! A file holds several armatures; each becomes one core [`SkeletonData`]. The data is
//! y-down with angles in degrees clockwise; the core is y-up, so y and every angle change
//! sign at load. What DragonBones does differently from Spine is expressed with core
//! pieces made for it: [`Inherit::DragonBones`](crate::core::model::Inherit) for its scale
//! inheritance, eased and resampled curves ([`crate::core::curve::Interp`]), key lookup by
//! frame index (`Animation::frame_rate`), per-timeline time warps and color offsets.

mod anim;
mod ctx;
mod displays;
mod dto;
mod lenient;
mod setup;
mod transform;
mod tween;

#[cfg(test)]
mod tests;

use crate::core::model::{SkeletonData, SourceInfo};
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::json::parse::from_slice;

pub use ctx::Ctx;

/// Versions whose layout this loader reads (the 5.x runtime reads 4.0 and 4.5 alike).
const SUPPORTED: [&str; 2] = ["4.0", "4.5"];

/// Loads every armature of a DragonBones JSON file (already recognised by
/// [`crate::format::sniff`]). `name` is the display name. The caller runs
/// [`SkeletonData::finish`] on each.
pub fn load(text: &[u8], name: &str) -> Result<Vec<SkeletonData>, LoadError> {
    let budget = ctx::budget_for(text);
    let cx = Ctx::new(text, &budget);
    let versions: dto::Versions = from_slice(text)?;
    check_version(&cx, &versions)?;
    let file: dto::File = from_slice(text)?;
    let version = file.version.clone().unwrap_or_default().0;
    if file.armature.is_empty() {
        return Err(cx.err(&[Seg::Key("armature")], "the file has no armature"));
    }
    let global_fps = match file.frame_rate.or(24.0) {
        f if f > 0.0 => f,
        _ => 24.0,
    };
    let mut out = Vec::with_capacity(file.armature.len());
    let mut names = std::collections::HashSet::new();
    for (i, arm) in file.armature.iter().enumerate() {
        let at = [Seg::Key("armature"), Seg::Index(i)];
        let fps = match arm.frame_rate.or(global_fps) {
            f if f > 0.0 => f,
            _ => 24.0,
        };
        let mut data = setup::armature(&cx, &at, arm, fps)?;
        if !names.insert(data.name.clone()) {
            return Err(cx.err(
                &[at[0], at[1], Seg::Key("name")],
                format!("two armatures are named \"{}\"", data.name),
            ));
        }
        data.source = SourceInfo {
            format: "DragonBones".into(),
            version: version.clone(),
        };
        if data.name.is_empty() {
            data.name = name.to_string();
        }
        out.push(data);
    }
    Ok(out)
}

/// Accepts 4.0 and 4.5 (`version` or `compatibleVersion`); names anything else.
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
        "5.0" | "5.5" | "5.6" | "5.7" => " (5.x data is not supported yet)",
        _ => "",
    };
    Err(cx.err(
        &[Seg::Key("version")],
        format!("unsupported DragonBones version {v}{hint}; bonescope reads 4.0 and 4.5"),
    ))
}
