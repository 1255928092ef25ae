//! Skins: the default skin (slot entries only), then the named skins (bones, constraints,
//! slot entries); then the linked meshes, which may point into any skin.

use super::attachment::{LinkSkin, LinkTo, attachment};
use super::attachment42::attachment42;
use super::read::{Reader, Version};
use crate::core::model::*;
use crate::format::ErrorKind;
use crate::format::linked_mesh::{self, Link};
use crate::format::spine_binary::cursor::Read;

/// A skin's constraint list: what it is, how many exist, and the reference kind.
/// A constraint list of a skin: what it is and how an index becomes a reference.
type Section = (&'static str, fn(usize) -> ConstraintRef);

/// The constraint lists of a skin, in file order.
const SECTIONS: [Section; 4] = [
    ("IK constraint", ConstraintRef::Ik),
    ("transform constraint", ConstraintRef::Transform),
    ("path constraint", ConstraintRef::Path),
    ("physics constraint", ConstraintRef::Physics),
];

/// A linked mesh waiting for its parent, with the offset it was read at.
struct Pending {
    offset: usize,
    id: AttachmentId,
    slot: usize,
    link: LinkTo,
}

pub fn skins(r: &mut Reader<'_>, data: &mut SkeletonData) -> Read<()> {
    let mut pending = Vec::new();
    r.c.enter("default skin", None, None);
    let slot_count = r.c.count(2, "slot count")?;
    if slot_count > 0 {
        let mut skin = Skin::new("default");
        skin.reserve_slots(data.slots.len());
        entries(r, data, &mut skin, slot_count, &mut pending)?;
        data.default_skin = Some(data.skins.len());
        data.skins.push(skin);
    }
    r.c.leave();
    let n = r.c.count(5, "skin count")?;
    for i in 0..n {
        r.c.enter("skin", Some(i), None);
        let at = r.c.offset();
        let name = r.own_name()?;
        // 4.2 adds an editor color.
        if r.version >= Version::V42 && r.nonessential {
            let _ = r.c.color("color")?;
        }
        if data.skins.iter().any(|s| s.name == name) {
            return Err(r
                .c
                .error_at(at, format!("duplicate skin name \"{name}\""))
                .with_kind(ErrorKind::DuplicateName));
        }
        r.c.leave();
        r.c.enter("skin", None, Some(&name));
        let mut skin = Skin::new(name);
        skin.reserve_slots(data.slots.len());
        // 3.7 skins hold attachments only.
        let count = if r.version.since_38() {
            r.c.count(1, "bone count")?
        } else {
            0
        };
        for _ in 0..count {
            let b = r.c.index(data.bones.len(), "bone index")?;
            if !skin.bones.contains(&b) {
                skin.bones.push(b);
            }
        }
        let lens = [
            data.ik_constraints.len(),
            data.transform_constraints.len(),
            data.path_constraints.len(),
            data.physics_constraints.len(),
        ];
        // Physics lists exist from 4.2 on.
        if r.version.one_constraint_list() {
            // 4.3: one list of indices into the one constraint list.
            let count = r.c.count(1, "constraint count")?;
            for _ in 0..count {
                let i = r.c.index(r.constraints.len(), "constraint index")?;
                let c = r.constraints[i];
                if !skin.constraints.contains(&c) {
                    skin.constraints.push(c);
                }
            }
        }
        let listed = match r.version {
            Version::V37 => 0,
            Version::V43 => 0,
            v if v >= Version::V42 => 4,
            _ => 3,
        };
        for (&(what, make), len) in SECTIONS.iter().zip(lens).take(listed) {
            let count = r.c.count(1, what)?;
            for _ in 0..count {
                let c = make(r.c.index(len, what)?);
                if !skin.constraints.contains(&c) {
                    skin.constraints.push(c);
                }
            }
        }
        let slot_count = r.c.count(2, "slot count")?;
        entries(r, data, &mut skin, slot_count, &mut pending)?;
        data.skins.push(skin);
        r.c.leave();
    }
    resolve_linked_meshes(r, data, pending)
}

/// `slot_count` slots, each with its attachments.
fn entries(
    r: &mut Reader<'_>,
    data: &mut SkeletonData,
    skin: &mut Skin,
    slot_count: usize,
    pending: &mut Vec<Pending>,
) -> Read<()> {
    for _ in 0..slot_count {
        let slot = r.c.index(data.slots.len(), "slot index")?;
        r.c.enter("slot", None, Some(&data.slots[slot].name));
        let count = r.c.count(2, "attachment count")?;
        // At least two bytes each, checked above: bounded by the file.
        data.attachments.reserve(count);
        for j in 0..count {
            r.c.enter("attachment", Some(j), None);
            let at = r.c.offset();
            let key = r
                .string_ref("key")?
                .ok_or_else(|| r.c.error_at(at, "attachment key is missing (null string)"))?;
            if skin.get(slot, key).is_some() {
                return Err(r
                    .c
                    .error_at(at, format!("duplicate attachment \"{key}\""))
                    .with_kind(ErrorKind::DuplicateName));
            }
            let id = data.attachments.len();
            let (att, link) = if r.version >= Version::V42 {
                attachment42(r, data, key, id)?
            } else {
                attachment(r, data, key, id)?
            };
            data.attachments.push(att);
            // New in this slot: checked above.
            skin.push_new(slot, key.to_string(), id);
            if let Some(link) = link {
                pending.push(Pending {
                    offset: at,
                    id,
                    slot,
                    link,
                });
            }
            r.c.leave();
        }
        r.c.leave();
    }
    Ok(())
}

/// Resolves the linked meshes with the loaders' shared [`linked_mesh::resolve`].
fn resolve_linked_meshes(
    r: &Reader<'_>,
    data: &mut SkeletonData,
    pending: Vec<Pending>,
) -> Read<()> {
    let mut links = Vec::with_capacity(pending.len());
    for p in &pending {
        let skin = match &p.link.skin {
            LinkSkin::Named(name) => data.find_skin(name).ok_or_else(|| {
                r.c.error_at(p.offset, format!("linked mesh: unknown skin \"{name}\""))
                    .with_kind(ErrorKind::DanglingReference)
            })?,
            LinkSkin::Index(i) => (*i < data.skins.len()).then_some(*i).ok_or_else(|| {
                r.c.error_at(
                    p.offset,
                    format!(
                        "linked mesh: skin index {i} is out of range (there are {})",
                        data.skins.len()
                    ),
                )
            })?,
            LinkSkin::Default => data.default_skin.ok_or_else(|| {
                r.c.error_at(
                    p.offset,
                    "linked mesh: no default skin to find the parent mesh in",
                )
            })?,
        };
        links.push(Link {
            id: p.id,
            // 4.3: the parent may be under another slot.
            slot: p.link.slot.unwrap_or(p.slot),
            skin,
            parent: p.link.parent.clone(),
            deform: p.link.deform,
        });
    }
    linked_mesh::resolve(data, &links, |bytes| r.budget.spend(bytes)).map_err(|e| {
        let p = &pending[e.link];
        let key = data.attachments.get(p.id).map_or("?", |a| a.name.as_str());
        r.c.error_at(p.offset, format!("linked mesh \"{key}\": {}", e.message))
            .with_kind(e.kind)
    })?;
    check_timeline_slots(r, data, &pending)
}

/// 4.3: a mesh's timeline slots must be exactly the other slots whose linked meshes follow
/// it (the model derives them from the linked meshes; a list saying otherwise is refused).
fn check_timeline_slots(r: &Reader<'_>, data: &SkeletonData, pending: &[Pending]) -> Read<()> {
    // Linked meshes following their parent's timelines from another slot.
    let elsewhere = || {
        pending
            .iter()
            .filter(|p| p.link.deform && p.link.slot.is_some_and(|s| s != p.slot))
    };
    let followers = |source: AttachmentId| {
        let mut slots: Vec<usize> = elsewhere()
            .filter(|l| {
                matches!(&data.attachments[l.id].kind,
                    AttachmentKind::Mesh(m) if m.linked_parent == Some(source))
            })
            .map(|l| l.slot)
            .collect();
        slots.sort_unstable();
        slots.dedup();
        slots
    };
    let listed: std::collections::HashSet<AttachmentId> =
        r.timeline_slots.iter().map(|t| t.1).collect();
    for (at, id, slots) in &r.timeline_slots {
        let mut sorted = slots.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let expected = followers(*id);
        if sorted != expected {
            return Err(r.c.error_at(
                *at,
                format!(
                    "Spine 4.3 mesh \"{}\": timeline slots {slots:?} where the linked meshes following it are under {expected:?}",
                    data.attachments[*id].name
                ),
            ));
        }
    }
    // A linked mesh under another slot following a mesh that lists no slots.
    for l in elsewhere() {
        if let AttachmentKind::Mesh(m) = &data.attachments[l.id].kind
            && let Some(source) = m.linked_parent.filter(|s| !listed.contains(s))
        {
            return Err(r.c.error_at(
                l.offset,
                format!(
                    "Spine 4.3 linked mesh \"{}\" follows the timelines of \"{}\" under another slot, which lists no timeline slots",
                    data.attachments[l.id].name, data.attachments[source].name
                ),
            ));
        }
    }
    Ok(())
}
