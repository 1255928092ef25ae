//! Spine 4.3 linked meshes found under another slot (`linkedmesh.slot`): with `timelines`,
//! the source mesh's deform and sequence timelines also drive the slots showing such a
//! linked mesh (B10.9). The loader gives each of those slots its own copy of the timeline,
//! so the runtime keeps applying deform and sequence keys per slot.

use super::ctx::Ctx;
use crate::core::animation::{DeformTimeline, PropertyId, SequenceTimeline, Timeline};
use crate::core::model::{AttachmentId, SkeletonData};
use crate::format::LoadError;

/// Adds, for every deform / sequence timeline of a mesh that linked meshes in other slots
/// follow, the same timeline for each of those slots.
pub fn share_linked_timelines(ctx: Ctx<'_>, data: &mut SkeletonData) -> Result<(), LoadError> {
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
                        spend(ctx, a, floats.saturating_mul(4))?;
                        Timeline::Deform(DeformTimeline {
                            slot: follower,
                            ..t.clone()
                        })
                    }
                    Timeline::Sequence(t) => {
                        spend(ctx, a, t.keys.len().saturating_mul(16))?;
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

/// Takes the copies' size from the load budget (many followers of a large deform could
/// multiply it).
fn spend(ctx: Ctx<'_>, animation: usize, bytes: usize) -> Result<(), LoadError> {
    use crate::format::json::Seg::{Index, Key};
    ctx.budget_spend(bytes)
        .map_err(|e| ctx.err(&[Key("animations"), Index(animation)], e.to_string()))
}
