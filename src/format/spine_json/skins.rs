//! Skins: their attachments (into the attachment arena), bones and constraints; then the
//! linked meshes, which may point into any skin.

use foldhash::HashMap;

use super::attachment::{At, LinkTo, attachment};
use super::ctx::{Ctx, Names, SegPath, join, lookup, unknown};
use super::dto::{SkinAttachments, SkinDto};
use crate::core::model::*;
use crate::format::LoadError;
use crate::format::json::{Seg, SmallKey};
use crate::format::linked_mesh;

use crate::format::ErrorKind;
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
    /// The skin's name when skins are an object (3.7).
    keyed: Option<SmallKey>,
    // Names for the error path only: inline copies, not one `String` each per linked mesh.
    slot_entry: usize,
    slot_name: SmallKey,
    key_entry: usize,
    key: SmallKey,
    link: LinkTo,
}

impl Pending {
    fn path(&self) -> SegPath<'_> {
        join(
            &attachments_at(self.skin, self.keyed.as_deref()),
            &[
                Entry(self.slot_entry, &self.slot_name),
                Entry(self.key_entry, &self.key),
            ],
        )
    }
}

/// Where skin `i`'s slot -> attachment map is: `skins[i].attachments`, or `skins.<name>`
/// when skins are an object keyed by name (3.7).
fn attachments_at(i: usize, keyed: Option<&str>) -> SegPath<'_> {
    match keyed {
        Some(name) => join(&[Key("skins"), Entry(i, name)], &[]),
        None => join(&[Key("skins"), Index(i), Key("attachments")], &[]),
    }
}

/// Skins are an object in 3.7 and a list from 3.8 on; the other form is refused.
fn check_form(ctx: Ctx<'_>, dtos: &[SkinDto]) -> Result<(), LoadError> {
    let Some(first) = dtos.first() else {
        return Ok(());
    };
    let v37 = ctx.version == super::SpineVersion::V37;
    if first.keyed == v37 {
        return Ok(());
    }
    let message = if v37 {
        "Spine 3.7 writes skins as an object keyed by skin name, not a list"
    } else {
        "skins are a list from Spine 3.8 on (an object keyed by skin name is the 3.7 form)"
    };
    Err(ctx
        .err(&[Key("skins")], message)
        .with_kind(ErrorKind::InvalidValue))
}

/// Reads every skin into `data.skins` / `data.attachments` and sets `data.default_skin`.
pub fn skins(
    ctx: Ctx<'_>,
    dtos: Vec<SkinDto>,
    names: &Names<'_>,
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    check_form(ctx, &dtos)?;
    let bone_count = data.bones.len();
    let mut pending = Vec::new();
    // Every attachment entry becomes one attachment: room for all of them at once (growing
    // the arena moved every attachment read so far).
    let entries: usize = dtos.iter().map(|d| d.attachments.len()).sum();
    data.attachments.reserve(entries);
    for (i, dto) in dtos.into_iter().enumerate() {
        let keyed = dto.keyed.then(|| dto.name.clone());
        let mut skin = Skin::new(dto.name);
        // Room for every slot at once: the slot list otherwise grew with each higher slot
        // an attachment named (a reallocation per doubling, per skin).
        skin.reserve_slots(data.slots.len());
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
        let slider = dto.slider.clone().unwrap_or_default();
        if ctx.version < super::SpineVersion::V43 && dto.slider.is_some() {
            return Err(ctx.err(
                &[Key("skins"), Index(i), Key("slider")],
                "sliders are new in Spine 4.3",
            ));
        }
        let sections: [Section<'_>; 5] = [
            ("ik", &dto.ik, &names.ik, ConstraintRef::Ik),
            (
                "transform",
                &dto.transform,
                &names.transform,
                ConstraintRef::Transform,
            ),
            ("path", &dto.path, &names.path, ConstraintRef::Path),
            ("physics", &physics, &names.physics, ConstraintRef::Physics),
            ("slider", &slider, &names.slider, ConstraintRef::Slider),
        ];
        for (section, list, table, make) in sections {
            if list.is_empty() {
                continue; // most skins list no constraints: no message to prepare
            }
            let what = format!("{section} constraint");
            for (j, c) in list.iter().enumerate() {
                let at = [Key("skins"), Index(i), Key(section), Index(j)];
                let c = make(lookup(ctx, table, c, &what, &at)?);
                if !skin.constraints.contains(&c) {
                    skin.constraints.push(c);
                }
            }
        }
        let skin_at = attachments_at(i, keyed.as_deref());
        let SkinAttachments { slots, mut chunks } = dto.attachments;
        ctx.no_duplicates(&slots, &skin_at)?;
        let mut all = chunks.iter_mut().flatten();
        for (si, (slot_name, count)) in slots.0.iter().enumerate() {
            // Read once: `SmallKey::as_str` validates the UTF-8 each time.
            let slot_name = slot_name.as_str();
            let slot = match names.slots.get(slot_name) {
                Some(&slot) => slot,
                None => {
                    let at = join(&skin_at, &[Entry(si, slot_name)]);
                    return Err(unknown(ctx, slot_name, "slot", &at));
                }
            };
            // By reference: an attachment's DTO is large, and moving it cost copies.
            // The slot's entries: the next `count` of the skin's list.
            for (ki, (key, dto)) in all.by_ref().take(*count).enumerate() {
                let key = key.as_str();
                let at = At {
                    base: &skin_at,
                    more: [Entry(si, slot_name), Entry(ki, key)],
                };
                if skin.get(slot, key).is_some() {
                    return Err(ctx
                        .err(
                            &at.path(),
                            format!("duplicate attachment \"{key}\" for slot \"{slot_name}\""),
                        )
                        .with_kind(ErrorKind::DuplicateName));
                }
                let id = data.attachments.len();
                let link = attachment(
                    ctx,
                    &at,
                    key,
                    dto,
                    &mut data.attachments,
                    bone_count,
                    &names.slots,
                )?;
                skin.push_new(slot, key.to_string(), id);
                if let Some(link) = link {
                    pending.push(Pending {
                        id,
                        slot,
                        skin: i,
                        keyed: keyed.as_deref().map(SmallKey::new),
                        slot_entry: si,
                        slot_name: SmallKey::new(slot_name),
                        key_entry: ki,
                        key: SmallKey::new(key),
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

/// Gives each linked mesh its parent's geometry (the shared [`linked_mesh::resolve`]), with
/// the skin a link names resolved first and every error located at the linked mesh.
fn resolve_linked_meshes(
    ctx: Ctx<'_>,
    mut pending: Vec<Pending>,
    names: &Names<'_>,
    data: &mut SkeletonData,
) -> Result<(), LoadError> {
    let mut links = Vec::with_capacity(pending.len());
    for p in &mut pending {
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
                    &join(&p.path(), &[Key("parent")]),
                    "no \"default\" skin to find the parent mesh in (name one with \"skin\")",
                )
            })?,
        };
        let slot = match &p.link.slot {
            Some(name) => lookup(
                ctx,
                &names.slots,
                name,
                "slot",
                &join(&p.path(), &[Key("slot")]),
            )?,
            None => p.slot,
        };
        links.push(linked_mesh::Link {
            id: p.id,
            slot,
            skin,
            // Taken: errors are located by the other fields (`path`), never the parent.
            parent: std::mem::take(&mut p.link.parent),
            deform: p.link.deform,
        });
    }
    linked_mesh::resolve(data, &links, |bytes| ctx.budget_spend(bytes)).map_err(|e| {
        let p = &pending[e.link];
        ctx.err(&join(&p.path(), &[Key("parent")]), e.message)
            .with_kind(e.kind)
    })
}
