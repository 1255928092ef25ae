//! DragonBones JSON out of a `.dbbin` (`bonescope convert`), or out of a DragonBones JSON
//! (checked by the loader, then written compactly: a normalised copy).
//!
//! A `.dbbin`'s JSON header already is the document without its key frames, curves and mesh
//! data; the writer keeps it as it is and puts those back in 5.5 JSON form from what the
//! binary reader read (the same structures the loader builds from). What the binary only
//! keeps in a derived form is written so that the runtime derives the same again: sampled
//! curves as chained `curve`s (`curve.rs`), unwrapped rotations with `clockwise` turns
//! (`rotation.rs`), bone-space skinned vertices with bind matrices (`mesh.rs`).

mod curve;
mod mesh;
mod rotation;
mod timelines;

use super::binary;
use super::dto;
use crate::core::model::SkeletonData;
use crate::core::skeleton::Skeleton;
use crate::format::LoadError;
use crate::format::json::parse::from_slice;
use serde_json::Value;
use std::sync::Arc;

/// The DragonBones JSON of a `.dbbin` or DragonBones JSON file `bytes`; `name` names
/// unnamed armatures, as when loading. Fails where loading fails.
pub fn write(bytes: &[u8], name: &str) -> Result<String, LoadError> {
    write_noting(bytes, name).map(|(json, _)| json)
}

/// [`write()`], also returning what the output leaves out: the `.dbbin` timelines the reader
/// does not read (the loader's warnings about them), one line each.
pub fn write_noting(bytes: &[u8], name: &str) -> Result<(String, Vec<String>), LoadError> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    if !binary::is_dbbin(bytes) {
        super::load(bytes, name)?;
        let doc: Value = from_slice(bytes)?;
        return Ok((crate::text::to_json_string(&doc), Vec::new()));
    }
    binary::with_document(bytes, |cx, file, warnings| {
        let end = binary::header_end(bytes)?;
        let mut doc: Value = from_slice(&bytes[binary::PREFIX..end])?;
        let models = super::build(cx, file, name)?;
        fill(&mut doc, file, &models);
        let left_out = warnings.into_iter().flatten().collect();
        Ok((crate::text::to_json_string(&doc), left_out))
    })
}

/// Puts the binary data of `file` back into its header `doc`.
fn fill(doc: &mut Value, file: &dto::File, models: &[SkeletonData]) {
    let Some(top) = doc.as_object_mut() else {
        return;
    };
    top.remove("offset");
    let Some(arms) = top.get_mut("armature").and_then(Value::as_array_mut) else {
        return;
    };
    for ((arm_v, arm), model) in arms.iter_mut().zip(&file.armature).zip(models) {
        let bind = bind_poses(arm, model);
        for (skin_v, skin) in list(arm_v, "skin").zip(&arm.skin) {
            for (slot_v, slot) in list(skin_v, "slot").zip(&skin.slot) {
                for (d_v, d) in list(slot_v, "display").zip(&slot.display) {
                    if let Some(o) = d_v.as_object_mut()
                        && d.kind == super::lenient::DisplayType::Mesh
                    {
                        mesh::write(d, &bind, o);
                    }
                }
            }
        }
        for (anim_v, anim) in list(arm_v, "animation").zip(&arm.animation) {
            let Some(o) = anim_v.as_object_mut() else {
                continue;
            };
            let count = anim.duration.or(0.0).round().clamp(0.0, u32::MAX as f64) as u32;
            o.remove("offset");
            o.insert("bone".into(), timelines::bones(anim, count));
            o.insert("slot".into(), timelines::slots(anim, count));
        }
    }
}

/// The elements of the list under `key` of object `v` (none when it is not a list).
fn list<'a>(v: &'a mut Value, key: &str) -> impl Iterator<Item = &'a mut Value> {
    v.get_mut(key)
        .and_then(Value::as_array_mut)
        .map(|a| a.iter_mut())
        .into_iter()
        .flatten()
}

/// Each file bone's setup world matrix in DragonBones terms (`[a, b, c, d, tx, ty]`, y-down,
/// `x' = a x + c y + tx`), from the model `model` built of armature `arm`.
fn bind_poses(arm: &dto::Armature, model: &SkeletonData) -> Vec<[f64; 6]> {
    let mut data = model.clone();
    data.finish();
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk.update_world_transform();
    arm.bone
        .iter()
        .map(|b| {
            let found = b
                .name
                .as_deref()
                .and_then(|n| sk.data.find_bone(n))
                .and_then(|i| sk.bones.get(i));
            match found {
                // Core bones are y-up (`x' = a x + b y + worldX`).
                Some(c) => [c.a, 0.0 - c.c, 0.0 - c.b, c.d, c.world_x, 0.0 - c.world_y],
                None => [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
            }
        })
        .collect()
}

/// A number as JSON (`null` for the non-finite values a binary may hold, which the runtime
/// reads as absent).
fn num(v: f64) -> Value {
    serde_json::Number::from_f64(if v == 0.0 { 0.0 } else { v }).map_or(Value::Null, Value::Number)
}

#[cfg(test)]
mod tests;
