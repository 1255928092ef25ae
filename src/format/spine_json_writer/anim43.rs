//! Spine 4.3 animation parts: draw-order folders, and which deform / sequence timelines are
//! the loader's copies for linked meshes under other slots (not written: the linked mesh's
//! `slot` says so).

use super::json::{Json, Obj};
use super::{Places, WriteError};
use crate::core::animation::{DrawOrderFolderTimeline, Timeline};
use crate::core::model::SkeletonData;

/// One `drawOrderFolder` entry: the folder's slots, then keys whose offsets are positions
/// within the folder (a key without offsets restores the folder's setup order).
pub fn folder(d: &SkeletonData, t: &DrawOrderFolderTimeline) -> Result<Json, WriteError> {
    let slot_names = t
        .slots
        .iter()
        .map(|&s| Json::str(&d.slots[s].name))
        .collect();
    let mut keys = Vec::with_capacity(t.times.len());
    for (&time, order) in t.times.iter().zip(&t.orders) {
        let mut k = Obj::new();
        k.put("time", Json::f32(time));
        if let Some(order) = order {
            // (position in the keyed order, position in the folder), in folder order: the
            // runtimes walk the offsets in that order.
            let mut moved = Vec::new();
            for (p, slot) in order.iter().enumerate() {
                let j = t.slots.iter().position(|s| s == slot).ok_or_else(|| {
                    WriteError(format!(
                        "a draw order folder key names slot {slot}, which is not in the folder"
                    ))
                })?;
                if p != j {
                    moved.push((p, j));
                }
            }
            moved.sort_unstable_by_key(|&(_, j)| j);
            let offsets = moved
                .into_iter()
                .map(|(p, j)| {
                    let mut e = Obj::new();
                    e.put("slot", Json::str(&d.slots[t.slots[j]].name))
                        .put("offset", Json::int(p as i64 - j as i64));
                    e.done()
                })
                .collect();
            k.put("offsets", Json::Arr(offsets));
        }
        keys.push(k.done());
    }
    let mut o = Obj::new();
    o.put("slots", Json::Arr(slot_names))
        .put("keys", Json::Arr(keys));
    Ok(o.done())
}

/// Whether `t` is a deform or sequence timeline the loader copied for a slot, other than the
/// mesh's own, that shows a linked mesh following the mesh's timelines.
pub fn follower_copy(d: &SkeletonData, places: &Places, t: &Timeline) -> bool {
    let (slot, attachment) = match t {
        Timeline::Deform(t) => (t.slot, t.attachment),
        Timeline::Sequence(t) => (t.slot, t.attachment),
        _ => return false,
    };
    let Some((_, own, _)) = places.get(&attachment) else {
        return false;
    };
    slot != *own
        && d.skins.iter().any(|s| {
            s.entries().any(|(at, _, id)| {
                at == slot && id != attachment && d.attachments[id].deform_source == attachment
            })
        })
}
