//! Spine 4.3 linked meshes found under another slot (`linkedmesh.slot`): with `timelines`,
//! the source mesh's deform and sequence timelines also drive the slots showing such a
//! linked mesh (B10.9). The loader gives each of those slots its own copy of the timeline,
//! so the runtime keeps applying deform and sequence keys per slot.

use super::ctx::Ctx;
use crate::core::model::SkeletonData;
use crate::format::LoadError;

/// Adds, for every deform / sequence timeline of a mesh that linked meshes in other slots
/// follow, the same timeline for each of those slots.
pub fn share_linked_timelines(ctx: Ctx<'_>, data: &mut SkeletonData) -> Result<(), LoadError> {
    crate::format::linked_mesh::share_timelines(data, |a, bytes| spend(ctx, a, bytes))
}

/// Takes the copies' size from the load budget (many followers of a large deform could
/// multiply it).
fn spend(ctx: Ctx<'_>, animation: usize, bytes: usize) -> Result<(), LoadError> {
    use crate::format::json::Seg::{Index, Key};
    ctx.budget_spend(bytes)
        .map_err(|e| ctx.err(&[Key("animations"), Index(animation)], e.to_string()))
}
