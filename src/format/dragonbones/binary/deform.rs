//! Deform (FFD) timelines of a `.dbbin` (timeline type 22).
//!
//! The timeline's fourth word points (from the animation's frame int start) at a record of
//! five numbers in the frame int array: the mesh's offset in the int array (as its display's
//! header `offset`), the deformed number count (vertex numbers of a plain mesh, two per
//! influence of a skinned one), the count of numbers each key frame stores, where they start
//! among the deformed numbers, and where the first key frame's start in the frame float array
//! (from the animation's frame float start). Skinned offsets are already per influence, in
//! each bone's bind space.

use super::super::dto;
use super::super::lenient::{DisplayType, Num};
use super::arrays::Arrays;
use super::timelines::{Armature, Base, Head, Key1, duration, tween};
use crate::format::LoadError;

/// The deform timeline of `slot` whose head and key frames are given.
pub fn timeline(
    arrays: &Arrays,
    b: Base,
    head: &Head,
    keys: &[Key1],
    arm: &Armature<'_>,
    slot: &str,
) -> Result<dto::FfdTimeline, LoadError> {
    let fi = &arrays.frame_int;
    let at = b
        .frame_int
        .checked_add(head.values)
        .ok_or_else(|| fi.err(b.frame_int, "deform record index overflows"))?;
    let rec = fi.slice(at, 5)?;
    let count = |k: usize| {
        usize::try_from(rec[k]).map_err(|_| fi.err(at + k, format!("{} is negative", rec[k])))
    };
    let (mesh, total, per_key, first, floats) =
        (rec[0], count(1)?, count(2)?, count(3)?, count(4)?);
    if first.checked_add(per_key).is_none_or(|e| e > total) {
        return Err(fi.err(
            at + 3,
            format!("{per_key} numbers from {first} run past the {total} deformed numbers"),
        ));
    }
    // The display of `slot` whose mesh data starts at `mesh`.
    let found = arm.skins.iter().find_map(|skin| {
        let ss = skin
            .slot
            .iter()
            .find(|ss| ss.name.as_deref() == Some(slot))?;
        let d = ss
            .display
            .iter()
            .find(|d| d.kind == DisplayType::Mesh && d.offset.0 == Some(mesh as f64))?;
        Some((skin, d))
    });
    let Some((skin, display)) = found else {
        return Err(fi.err(
            at,
            format!("deform timeline: slot \"{slot}\" has no mesh at int array offset {mesh}"),
        ));
    };
    let mut frames = Vec::with_capacity(keys.len());
    for (j, key) in keys.iter().enumerate() {
        let start = j
            .checked_mul(per_key)
            .and_then(|o| o.checked_add(floats))
            .and_then(|o| o.checked_add(b.frame_float))
            .ok_or_else(|| fi.err(at + 4, "deform values index overflows"))?;
        let values: Vec<f64> = arrays
            .frame_float
            .slice(start, per_key)?
            .iter()
            .map(|&v| v as f64)
            .collect();
        let mut frame = dto::FfdFrame {
            duration: duration(keys, j),
            tween: tween(arrays, key)?,
            ..Default::default()
        };
        if display.bound.is_some() {
            let mut all = vec![0.0; total];
            all[first..first + per_key].copy_from_slice(&values);
            frame.influences = Some(all);
        } else {
            frame.offset = Num(Some(first as f64));
            frame.vertices = values;
        }
        frames.push(frame);
    }
    Ok(dto::FfdTimeline {
        name: display.name.clone(),
        skin: skin.name.clone(),
        slot: Some(slot.into()),
        scale: head.scale,
        offset: head.offset,
        frame: frames,
    })
}
