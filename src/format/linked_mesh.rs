//! Linked meshes: a mesh that shares another mesh's geometry (vertices, uvs, triangles, hull,
//! edges), found by key in a skin once every skin is read. Shared by the loaders whose format
//! has them (Spine JSON and binary).

use crate::core::animation::{DeformTimeline, PropertyId, SequenceTimeline, Timeline};
use crate::core::model::{AttachmentId, AttachmentKind, SkeletonData};
use crate::format::ErrorKind;

/// A linked mesh waiting for its parent.
#[derive(Clone, Debug)]
pub struct Link {
    /// The linked mesh (already in `SkeletonData::attachments`, with empty geometry).
    pub id: AttachmentId,
    /// Its slot: the parent is looked up under the same slot.
    pub slot: usize,
    /// The skin holding the parent.
    pub skin: usize,
    /// The parent's key in that skin and slot.
    pub parent: String,
    /// Whether the parent's deform keys drive the linked mesh.
    pub deform: bool,
}

/// Why a link could not be resolved: which link (index into the list given) and a message.
#[derive(Debug, PartialEq)]
pub struct LinkError {
    pub link: usize,
    pub kind: crate::format::ErrorKind,
    pub message: String,
}

/// Gives each linked mesh its parent's geometry. Parents may be linked meshes themselves, so
/// this repeats until nothing is left, or reports a cycle. `spend` is asked for the bytes each
/// copy takes (the loader's expansion budget) and returns why not.
pub fn resolve(
    data: &mut SkeletonData,
    links: &[Link],
    mut spend: impl FnMut(usize) -> Result<(), crate::format::json::BudgetExceeded>,
) -> Result<(), LinkError> {
    let fail = |link: usize, message: String| LinkError {
        link,
        kind: ErrorKind::InvalidValue,
        message,
    };
    let dangling = |link: usize, message: String| LinkError {
        kind: ErrorKind::DanglingReference,
        ..fail(link, message)
    };
    let mut unresolved: foldhash::HashSet<AttachmentId> = links.iter().map(|l| l.id).collect();
    let mut pending: Vec<usize> = (0..links.len()).collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut waiting = Vec::new();
        for li in pending {
            let l = &links[li];
            let Some(skin) = data.skins.get(l.skin) else {
                return Err(fail(li, format!("skin index {} is out of range", l.skin)));
            };
            let Some(parent) = skin.get(l.slot, &l.parent) else {
                let slot = data.slots.get(l.slot).map_or("?", |s| s.name.as_str());
                return Err(dangling(
                    li,
                    format!(
                        "unknown parent mesh \"{}\" (no such attachment for slot \"{slot}\" in skin \"{}\")",
                        l.parent, skin.name
                    ),
                ));
            };
            if unresolved.contains(&parent) {
                waiting.push(li);
                continue;
            }
            let parent_att = &data.attachments[parent];
            let AttachmentKind::Mesh(parent_mesh) = &parent_att.kind else {
                return Err(fail(
                    li,
                    format!(
                        "parent \"{}\" is a {} attachment, not a mesh",
                        l.parent,
                        parent_att.type_name()
                    ),
                ));
            };
            let v = &parent_mesh.vertices;
            let floats = v.vertices.len() + v.bones.as_ref().map_or(0, Vec::len);
            let ints =
                parent_mesh.uvs.len() + parent_mesh.triangles.len() + parent_mesh.edges.len();
            spend((floats + ints) * 4).map_err(|m| fail(li, m.to_string()))?;
            let geometry = (
                parent_mesh.vertices.clone(),
                parent_mesh.uvs.clone(),
                parent_mesh.triangles.clone(),
                parent_mesh.hull,
                parent_mesh.edges.clone(),
            );
            let deform_source = if l.deform {
                parent_att.deform_source
            } else {
                l.id
            };
            let att = &mut data.attachments[l.id];
            att.deform_source = deform_source;
            if let AttachmentKind::Mesh(m) = &mut att.kind {
                (m.vertices, m.uvs, m.triangles, m.hull, m.edges) = geometry;
                m.linked_parent = Some(parent);
            }
            unresolved.remove(&l.id);
        }
        if let Some(&li) = waiting.first().filter(|_| waiting.len() == before) {
            return Err(fail(
                li,
                "linked mesh is part of a cycle of linked meshes".to_string(),
            ));
        }
        pending = waiting;
    }
    Ok(())
}

/// Adds, for every deform / sequence timeline of a mesh that linked meshes in other slots
/// follow, the same timeline for each of those slots (Spine 4.3 `timelines` of a linked mesh
/// found under another slot, B10.9), so the runtime applies deform and sequence keys per slot.
/// `spend(animation, bytes)` is asked for each copy's size.
pub fn share_timelines<E>(
    data: &mut SkeletonData,
    mut spend: impl FnMut(usize, usize) -> Result<(), E>,
) -> Result<(), E> {
    // (source attachment, a slot showing a linked mesh that follows it)
    let mut followers: Vec<(AttachmentId, usize)> = Vec::new();
    for skin in &data.skins {
        for (slot, _, att) in skin.entries() {
            let source = data.attachments[att].deform_source;
            if source != att && !followers.contains(&(source, slot)) {
                followers.push((source, slot));
            }
        }
    }
    if followers.is_empty() {
        return Ok(());
    }
    for (a, anim) in data.animations.iter_mut().enumerate() {
        let mut extra = Vec::new();
        for tl in &anim.timelines {
            let (slot, attachment) = match tl {
                Timeline::Deform(t) => (t.slot, t.attachment),
                Timeline::Sequence(t) => (t.slot, t.attachment),
                _ => continue,
            };
            for &(source, follower) in &followers {
                if source != attachment || follower == slot {
                    continue;
                }
                let copy = match tl {
                    Timeline::Deform(t) => {
                        let floats: usize = t.vertices.iter().map(Vec::len).sum();
                        spend(a, floats.saturating_mul(4))?;
                        Timeline::Deform(DeformTimeline {
                            slot: follower,
                            ..t.clone()
                        })
                    }
                    Timeline::Sequence(t) => {
                        spend(a, t.keys.len().saturating_mul(16))?;
                        Timeline::Sequence(SequenceTimeline {
                            slot: follower,
                            ..t.clone()
                        })
                    }
                    _ => continue,
                };
                extra.push(copy);
            }
        }
        if extra.is_empty() {
            continue;
        }
        anim.timelines.extend(extra);
        let mut properties: Vec<PropertyId> = anim
            .timelines
            .iter()
            .flat_map(|t| t.property_ids().as_slice().to_vec())
            .collect();
        properties.sort_unstable();
        properties.dedup();
        anim.properties = properties;
    }
    Ok(())
}
