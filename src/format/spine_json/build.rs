//! Turning the parsed document into [`SkeletonData`]: names resolved to indices, defaults
//! applied, and every cross-reference and count checked.

use super::anim::animations;
use super::ctx::{Ctx, Names, unique_names};
use super::dto::SkeletonFile;
use super::{setup, skins};
use crate::core::model::{SkeletonData, SourceInfo};
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::json::budget::Budget;

use Seg::{Index, Key};

/// Builds the skeleton. `text` is the document `file` was parsed from (to locate errors).
pub fn build(text: &[u8], file: SkeletonFile, name: &str) -> Result<SkeletonData, LoadError> {
    let budget = Budget::for_text(text.len());
    let ctx = Ctx::new(text, &budget);
    let SkeletonFile {
        skeleton,
        bones,
        slots,
        ik,
        transform,
        path,
        skins,
        events,
        animations: anims,
    } = file;
    let mut data = SkeletonData {
        name: name.to_string(),
        source: SourceInfo {
            format: "Spine".into(),
            version: skeleton.spine.clone().unwrap_or_default(),
        },
        hash: skeleton.hash.unwrap_or_default(),
        x: skeleton.x,
        y: skeleton.y,
        width: skeleton.width,
        height: skeleton.height,
        fps: skeleton.fps.unwrap_or(30.0),
        images: skeleton.images,
        audio: skeleton.audio,
        ..SkeletonData::default()
    };
    let mut names = Names::default();
    names.bones = setup::bones(ctx, &bones, &mut data.bones)?;
    names.slots = setup::slots(ctx, &slots, &names.bones, &mut data.slots)?;
    names.ik = setup::ik(ctx, &ik, &names, &mut data.ik_constraints)?;
    names.transform = setup::transform(ctx, &transform, &names, &mut data.transform_constraints)?;
    names.path = setup::path(ctx, &path, &names, &mut data.path_constraints)?;
    names.events = setup::events(ctx, &events, &mut data.events)?;
    let skin_names: Vec<String> = skins.iter().map(|s| s.name.clone()).collect();
    names.skins = unique_names(ctx, skin_names.iter().map(String::as_str), "skin", |i| {
        vec![Key("skins"), Index(i), Key("name")]
    })?;
    skins::skins(ctx, skins, &names, &mut data)?;
    check_setup_attachments(ctx, &data)?;
    data.animations = animations(ctx, anims, &names, &data)?;
    Ok(data)
}

/// A slot's setup attachment must exist in some skin.
fn check_setup_attachments(ctx: Ctx<'_>, data: &SkeletonData) -> Result<(), LoadError> {
    for (i, slot) in data.slots.iter().enumerate() {
        if let Some(name) = &slot.attachment
            && !data.skins.iter().any(|s| s.get(i, name).is_some())
        {
            let message = format!(
                "no skin has an attachment \"{name}\" for slot \"{}\"",
                slot.name
            );
            return Err(ctx.err(&[Key("slots"), Index(i), Key("attachment")], message));
        }
    }
    Ok(())
}
