//! Writes a [`SkeletonData`] loaded from Spine data (JSON or `.skel`) as a Spine binary
//! export (`.skel`) of the same editor version (3.8, 4.0, 4.1, 4.2, 4.3), for `bonescope convert
//! --to skel`: the official runtime of that version reads it to the same poses.
//!
//! The layout is the one the reader (`format::spine_binary`, `LAYOUT.md`) reads; one module
//! per part: `out` (primitives and the string table), `setup`, `setup42` and `setup43`
//! (header, bones, slots, constraints, events), `skins` with `attachment` and `attachment42`,
//! `anim` with `curves`, `anim42` and `deform`. Beziers, which the model keeps as
//! sampled tables, are solved back to control points as the JSON writer does. Nonessential
//! data (fps, paths, editor colors, mesh edges and size) is always written.

mod anim;
mod anim42;
mod attachment;
mod attachment42;
mod curves;
mod deform;
mod out;
mod setup;
mod setup42;
mod setup43;
mod skins;

use std::collections::HashMap;

use crate::core::model::{AttachmentId, MeshAttachment, SkeletonData};
use crate::format::spine_json::SpineVersion;
use out::{Out, Strings};

/// Why a skeleton cannot be written as a Spine binary export.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct WriteError(pub String);

/// What every part needs: the data, the version written, where each attachment is stored
/// and the skins' order in the file (the default skin first).
pub(crate) struct Ctx<'a> {
    d: &'a SkeletonData,
    v: SpineVersion,
    /// Attachment id -> (skin index in the model, slot, key): the first place found.
    places: HashMap<AttachmentId, (usize, usize, String)>,
    /// Model skin indices in file order.
    skin_order: Vec<usize>,
    /// Model skin index -> its index in the file.
    skin_pos: Vec<usize>,
}

impl Ctx<'_> {
    /// A linked mesh's parent: the skin that holds it and its key.
    fn linked_parent(&self, m: &MeshAttachment) -> Result<(usize, &str), WriteError> {
        let parent = m.linked_parent.unwrap_or(usize::MAX);
        self.places
            .get(&parent)
            .map(|(skin, _, key)| (*skin, key.as_str()))
            .ok_or_else(|| WriteError("a linked mesh whose parent is in no skin".into()))
    }
}

/// The `.skel` bytes of `data`, in the binary format of the Spine version that wrote it.
pub fn write(data: &SkeletonData) -> Result<Vec<u8>, WriteError> {
    if data.source.format != "Spine" {
        return Err(WriteError(format!(
            "only Spine skeletons can be written as a Spine binary (this is {} {})",
            data.source.format, data.source.version
        )));
    }
    let v = match SpineVersion::from_export(&data.source.version) {
        Some(v @ SpineVersion::V37) => {
            return Err(WriteError(format!(
                "Spine \"{}\": {} binaries are not written yet (3.8, 4.0, 4.1, 4.2, 4.3 are)",
                data.source.version,
                v.name()
            )));
        }
        Some(v) => v,
        None => {
            return Err(WriteError(format!(
                "Spine \"{}\" is not a version bonescope writes (3.8, 4.0, 4.1, 4.2, 4.3)",
                data.source.version
            )));
        }
    };
    let mut skin_order: Vec<usize> = data.default_skin.into_iter().collect();
    skin_order.extend((0..data.skins.len()).filter(|&i| Some(i) != data.default_skin));
    let mut skin_pos = vec![0; data.skins.len()];
    for (pos, &i) in skin_order.iter().enumerate() {
        skin_pos[i] = pos;
    }
    let mut places = HashMap::new();
    for &i in &skin_order {
        for (slot, key, id) in data.skins[i].entries() {
            places
                .entry(id)
                .or_insert_with(|| (i, slot, key.to_string()));
        }
    }
    let cx = Ctx {
        d: data,
        v,
        places,
        skin_order,
        skin_pos,
    };
    let mut head = Out::default();
    setup::header(&mut head, data, v);
    // Everything after the string table is written first, collecting the strings it
    // references.
    let mut s = Strings::default();
    let mut o = Out::default();
    setup::bones(&mut o, data, v)?;
    setup::slots(&mut o, &mut s, data, v);
    if v >= SpineVersion::V43 {
        setup43::constraints(&mut o, data)?;
    } else if v >= SpineVersion::V42 {
        setup42::ik(&mut o, data);
        setup42::transform(&mut o, data);
        setup42::path(&mut o, data)?;
        setup42::physics(&mut o, data)?;
    } else {
        if !data.physics_constraints.is_empty() {
            return Err(WriteError("physics constraints came with Spine 4.2".into()));
        }
        setup::ik(&mut o, data);
        setup::transform(&mut o, data, v);
        setup::path(&mut o, data, v)?;
    }
    if v < SpineVersion::V43 && !data.slider_constraints.is_empty() {
        return Err(WriteError("sliders are Spine 4.3 constraints".into()));
    }
    skins::skins(&mut o, &mut s, &cx)?;
    setup::events(&mut o, &mut s, data, v);
    anim::animations(&mut o, &mut s, &cx)?;
    if v >= SpineVersion::V43 {
        setup43::slider_animations(&mut o, data);
    }
    let mut bytes = head.bytes;
    let mut table = Out::default();
    table.uvarint(s.list.len());
    for x in &s.list {
        table.str(x);
    }
    bytes.extend_from_slice(&table.bytes);
    bytes.extend_from_slice(&o.bytes);
    Ok(bytes)
}
