//! Writes a [`SkeletonData`] loaded from Spine data (JSON or `.skel`) back as a Spine JSON
//! export of the same editor version, for `bonescope convert`: people can read and diff a
//! binary export, and the runtimes load it to the same poses.
//!
//! Nothing is rounded: every number is the shortest text that reads back as the same `f32`
//! (the precision Spine stores), and beziers, which the model keeps as sampled tables, are
//! solved back to their control points (`curve`). One module per part: [`json`] (the tree
//! and its printer), `setup`
//! (4.3's one constraint list: `setup43`) and `anim`.

mod anim;
mod anim43;
pub(crate) mod curve;
pub mod json;
mod setup;
mod setup43;

use std::collections::HashMap;

use crate::core::model::{AttachmentId, SkeletonData};
use crate::format::spine_json::SpineVersion;
use json::Json;

/// Why a skeleton cannot be written as Spine JSON.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct WriteError(pub String);

/// Where each attachment id is stored: (skin name, slot, key), the first place found.
pub(crate) type Places = HashMap<AttachmentId, (String, usize, String)>;

fn places(d: &SkeletonData) -> Places {
    let mut out = Places::new();
    for s in &d.skins {
        for (slot, key, id) in s.entries() {
            out.entry(id)
                .or_insert_with(|| (s.name.clone(), slot, key.to_string()));
        }
    }
    out
}

/// The Spine JSON text of `data`, in the format of the Spine version that wrote it.
pub fn write(data: &SkeletonData) -> Result<String, WriteError> {
    if data.source.format != "Spine" {
        return Err(WriteError(format!(
            "only Spine skeletons can be written as Spine JSON (this is {} {})",
            data.source.format, data.source.version
        )));
    }
    let v = SpineVersion::from_export(&data.source.version).ok_or_else(|| {
        WriteError(format!(
            "Spine \"{}\" is not a version bonescope writes (3.7, 3.8, 4.0, 4.1, 4.2, 4.3)",
            data.source.version
        ))
    })?;
    if v < SpineVersion::V43 && !data.slider_constraints.is_empty() {
        return Err(WriteError("sliders are Spine 4.3 constraints".into()));
    }
    let places = places(data);
    let mut root = vec![
        ("skeleton".to_string(), setup::skeleton(data, v)),
        ("bones".to_string(), setup::bones(data, v)?),
        ("slots".to_string(), setup::slots(data)),
    ];
    let mut put = |k: &str, j: Json, empty: bool| {
        if !empty {
            root.push((k.to_string(), j));
        }
    };
    if v >= SpineVersion::V43 {
        put(
            "constraints",
            setup43::constraints(data)?,
            data.constraint_order.is_empty(),
        );
    } else {
        put("ik", setup::ik(data, v), data.ik_constraints.is_empty());
        put(
            "transform",
            setup::transform(data, v),
            data.transform_constraints.is_empty(),
        );
        put(
            "path",
            setup::path(data, v),
            data.path_constraints.is_empty(),
        );
        put(
            "physics",
            setup::physics(data),
            data.physics_constraints.is_empty(),
        );
    }
    put(
        "skins",
        setup::skins(data, v, &places)?,
        data.skins.is_empty(),
    );
    put("events", setup::events(data), data.events.is_empty());
    put(
        "animations",
        anim::animations(data, v, &places)?,
        data.animations.is_empty(),
    );
    Ok(Json::Obj(root).pretty())
}
