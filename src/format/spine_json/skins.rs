//! Skins: their attachments (into the attachment arena), bones and constraints; then the
//! linked meshes, which may point into any skin.

use std::collections::{HashMap, HashSet};

use super::attachment::{LinkTo, attachment};
use super::ctx::{Ctx, Names, join, lookup};
use super::dto::SkinDto;
use crate::core::model::*;
use crate::format::LoadError;
use crate::format::json::Seg;

use Seg::{Entry, Index, Key};

/// A skin's constraint list: section name, names, name table, and the reference kind.
type Section<'a> = (
    &'a str,
    &'a [String],
    &'a HashMap<&'a str, usize>,
    fn(usize) -> ConstraintRef,
);

/// A linked mesh waiting for its parent, with where it was in the file.
struct Pending {
    id: AttachmentId,
    slot: usize,
    skin: usize,
    slot_entry: usize,
    slot_name: String,
    key_entry: usize,
    key: String,
    link: LinkTo,
}

impl Pending {
    fn path(&self) -> [Seg<'_>; 5] {
        [
            Key("skins"),
            Index(self.skin),
            Key("attachments"),
            Entry(self.slot_entry, &self.slot_name),
            Entry(self.key_entry, &self.key),
        ]
    }
}

/// Reads every skin into `data.skins` / `data.attachments` and sets `data.default_skin`.
pub fn skins(
    ctx: Ctx<'_>,
    dtos: Vec<SkinDto>,
    names: &Names<'_>,
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    let bone_count = data.bones.len();
    let mut pending = Vec::new();
    for (i, dto) in dtos.into_iter().enumerate() {
        let mut skin = Skin::new(dto.name);
        for (j, bone) in dto.bones.iter().enumerate() {
            let b = lookup(
                ctx,
                &names.bones,
                bone,
                "bone",
                &[Key("skins"), Index(i), Key("bones"), Index(j)],
            )?;
            if !skin.bones.contains(&b) {
                skin.bones.push(b);
            }
        }
        let physics = dto.physics.clone().unwrap_or_default();
        let sections: [Section<'_>; 4] = [
            ("ik", &dto.ik, &names.ik, ConstraintRef::Ik),
            (
                "transform",
                &dto.transform,
                &names.transform,
                ConstraintRef::Transform,
            ),
            ("path", &dto.path, &names.path, ConstraintRef::Path),
            ("physics", &physics, &names.physics, ConstraintRef::Physics),
        ];
        for (section, list, table, make) in sections {
            let what = format!("{section} constraint");
            for (j, c) in list.iter().enumerate() {
                let at = [Key("skins"), Index(i), Key(section), Index(j)];
                let c = make(lookup(ctx, table, c, &what, &at)?);
                if !skin.constraints.contains(&c) {
                    skin.constraints.push(c);
                }
            }
        }
        ctx.no_duplicates(
            &dto.attachments,
            &[Key("skins"), Index(i), Key("attachments")],
        )?;
        for (si, (slot_name, entries)) in dto.attachments.0.into_iter().enumerate() {
            let slot_at = [
                Key("skins"),
                Index(i),
                Key("attachments"),
                Entry(si, &slot_name),
            ];
            let slot = lookup(ctx, &names.slots, &slot_name, "slot", &slot_at)?;
            for (ki, (key, dto)) in entries.0.into_iter().enumerate() {
                let at = join(&slot_at, &[Entry(ki, &key)]);
                if skin.get(slot, &key).is_some() {
                    return Err(ctx.err(
                        &at,
                        format!("duplicate attachment \"{key}\" for slot \"{slot_name}\""),
                    ));
                }
                let id = data.attachments.len();
                let (att, link) = attachment(ctx, &at, &key, dto, id, bone_count, &names.slots)?;
                data.attachments.push(att);
                skin.set(slot, &key, id);
                if let Some(link) = link {
                    pending.push(Pending {
                        id,
                        slot,
                        skin: i,
                        slot_entry: si,
                        slot_name: slot_name.clone(),
                        key_entry: ki,
                        key: key.clone(),
                        link,
                    });
                }
            }
        }
        if skin.name == "default" && data.default_skin.is_none() {
            data.default_skin = Some(i);
        }
        data.skins.push(skin);
    }
    resolve_linked_meshes(ctx, pending, names, data)
}

/// Gives each linked mesh its parent's geometry. Parents may themselves be linked meshes, so
/// this repeats until nothing is left (or reports a cycle).
fn resolve_linked_meshes(
    ctx: Ctx<'_>,
    mut pending: Vec<Pending>,
    names: &Names<'_>,
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    let mut unresolved: HashSet<AttachmentId> = pending.iter().map(|p| p.id).collect();
    while !pending.is_empty() {
        let before = pending.len();
        let mut waiting = Vec::new();
        for p in pending {
            let parent_at = join(&p.path(), &[Key("parent")]);
            let skin = match &p.link.skin {
                Some(s) => lookup(
                    ctx,
                    &names.skins,
                    s,
                    "skin",
                    &join(&p.path(), &[Key("skin")]),
                )?,
                None => data.default_skin.ok_or_else(|| {
                    ctx.err(
                        &parent_at,
                        "no \"default\" skin to find the parent mesh in (name one with \"skin\")",
                    )
                })?,
            };
            let skin_data = &data.skins[skin];
            let Some(parent) = skin_data.get(p.slot, &p.link.parent) else {
                return Err(ctx.err(
                    &parent_at,
                    format!(
                        "unknown parent mesh \"{}\" (no such attachment for slot \"{}\" in skin \"{}\")",
                        p.link.parent, p.slot_name, skin_data.name
                    ),
                ));
            };
            if unresolved.contains(&parent) {
                waiting.push(p);
                continue;
            }
            let parent_att = &data.attachments[parent];
            let AttachmentKind::Mesh(parent_mesh) = &parent_att.kind else {
                return Err(ctx.err(
                    &parent_at,
                    format!(
                        "parent \"{}\" is a {} attachment, not a mesh",
                        p.link.parent,
                        parent_att.type_name()
                    ),
                ));
            };
            let v = &parent_mesh.vertices;
            let floats = v.vertices.len() + v.bones.as_ref().map_or(0, Vec::len);
            let ints =
                parent_mesh.uvs.len() + parent_mesh.triangles.len() + parent_mesh.edges.len();
            ctx.spend((floats + ints) * 4, &p.path())?;
            let geometry = (
                parent_mesh.vertices.clone(),
                parent_mesh.uvs.clone(),
                parent_mesh.triangles.clone(),
                parent_mesh.hull,
                parent_mesh.edges.clone(),
            );
            let deform_source = if p.link.deform {
                parent_att.deform_source
            } else {
                p.id
            };
            let att = &mut data.attachments[p.id];
            att.deform_source = deform_source;
            if let AttachmentKind::Mesh(m) = &mut att.kind {
                (m.vertices, m.uvs, m.triangles, m.hull, m.edges) = geometry;
                m.linked_parent = Some(parent);
            }
            unresolved.remove(&p.id);
        }
        if let Some(p) = waiting.first().filter(|_| waiting.len() == before) {
            return Err(ctx.err(
                &join(&p.path(), &[Key("parent")]),
                format!(
                    "linked mesh \"{}\" is part of a cycle of linked meshes",
                    p.key
                ),
            ));
        }
        pending = waiting;
    }
    Ok(())
}
