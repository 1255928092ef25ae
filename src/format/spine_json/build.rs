//! Turning the parsed document into [`SkeletonData`]: names resolved to indices, defaults
//! applied, and every cross-reference and count checked.

use super::SpineVersion;
use super::anim::{AnimationLayout, animations};
use super::ctx::{Ctx, Names, unique_names};
use super::dto::{SkeletonFile, SkeletonInfo};
use super::{setup, skins};
use crate::core::model::{SkeletonData, SourceInfo};
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::json::budget::Budget;

use crate::format::ErrorKind;
use Seg::{Entry, Index, Key};

/// Builds the skeleton. `text` is the document `file` was parsed from (to locate errors).
pub fn build<A: AnimationLayout>(
    text: &[u8],
    file: SkeletonFile<A>,
    name: &str,
    version: SpineVersion,
) -> Result<SkeletonData, LoadError> {
    let budget = Budget::for_text(text.len());
    let ctx = Ctx::new(text, &budget, version);
    let SkeletonFile {
        skeleton,
        bones,
        slots,
        ik,
        transform,
        path,
        physics,
        skins,
        events,
        animations: anims,
    } = file;
    if physics.is_some() && version < SpineVersion::V42 {
        return Err(ctx.err(
            &[Key("physics")],
            format!(
                "physics constraints are new in Spine 4.2 (this file is Spine {})",
                version.name()
            ),
        ));
    }
    if skeleton.reference_scale.is_some() && version < SpineVersion::V42 {
        return Err(ctx.err(
            &[Key("skeleton"), Key("referenceScale")],
            "\"referenceScale\" is new in Spine 4.2",
        ));
    }
    let mut data = skeleton_data(name, version, skeleton);
    let mut names = Names::default();
    let mut warnings = Vec::new();
    names.bones = setup::bones(ctx, version, &bones, &mut data.bones, &mut warnings)?;
    names.slots = setup::slots(ctx, &slots, &names.bones, &mut data.slots)?;
    names.ik = setup::ik(ctx, &ik, &names, &mut data.ik_constraints)?;
    names.transform = setup::transform(
        ctx,
        version,
        &transform,
        &names,
        &mut data.transform_constraints,
    )?;
    names.path = setup::path(ctx, version, &path, &names, &mut data.path_constraints)?;
    let physics = physics.unwrap_or_default();
    names.physics = setup::physics(ctx, &physics, &names, &mut data.physics_constraints)?;
    data.load_warnings = warnings;
    names.events = setup::events(ctx, &events, &mut data.events)?;
    let skin_names: Vec<String> = skins.iter().map(|s| s.name.clone()).collect();
    let keyed = skins.first().is_some_and(|s| s.keyed);
    names.skins = unique_names(ctx, skin_names.iter().map(String::as_str), "skin", |i| {
        if keyed {
            vec![Key("skins"), Entry(i, &skin_names[i])]
        } else {
            vec![Key("skins"), Index(i), Key("name")]
        }
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
            return Err(ctx
                .err(&[Key("slots"), Index(i), Key("attachment")], message)
                .with_kind(ErrorKind::DanglingReference));
        }
    }
    Ok(())
}

/// Builds a Spine 4.3 skeleton: as [`build`], with the one `constraints` list (whose order
/// is the update order) and sliders resolved after the animations.
pub fn build43(
    text: &[u8],
    file: super::dto43::SkeletonFile43,
    name: &str,
) -> Result<SkeletonData, LoadError> {
    let version = SpineVersion::V43;
    let budget = Budget::for_text(text.len());
    let ctx = Ctx::new(text, &budget, version);
    let super::dto43::SkeletonFile43 {
        skeleton,
        bones,
        slots,
        constraints,
        skins,
        events,
        animations: anims,
        ..
    } = file;
    let mut data = skeleton_data(name, version, skeleton);
    let mut names = Names::default();
    let mut warnings = Vec::new();
    names.bones = setup::bones(ctx, version, &bones, &mut data.bones, &mut warnings)?;
    names.slots = setup::slots(ctx, &slots, &names.bones, &mut data.slots)?;
    let sliders = super::setup43::constraints(ctx, &constraints, &mut names, &mut data)?;
    data.load_warnings = warnings;
    names.events = setup::events(ctx, &events, &mut data.events)?;
    let skin_names: Vec<String> = skins.iter().map(|s| s.name.clone()).collect();
    names.skins = unique_names(ctx, skin_names.iter().map(String::as_str), "skin", |i| {
        vec![Key("skins"), Index(i), Key("name")]
    })?;
    skins::skins(ctx, skins, &names, &mut data)?;
    check_setup_attachments(ctx, &data)?;
    data.animations = animations(ctx, anims, &names, &data)?;
    super::linked_slots43::share_linked_timelines(ctx, &mut data)?;
    super::setup43::resolve_sliders(ctx, &sliders, &mut data)?;
    Ok(data)
}

/// A [`SkeletonData`] with the fields of the `skeleton` section and nothing else yet.
fn skeleton_data(name: &str, version: SpineVersion, skeleton: SkeletonInfo) -> SkeletonData {
    let mut data = SkeletonData {
        name: name.to_string(),
        source: SourceInfo {
            format: "Spine".into(),
            version: skeleton.spine.unwrap_or_default(),
        },
        rules: version.rules(),
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
    if let Some(scale) = skeleton.reference_scale {
        data.reference_scale = crate::core::model::ReferenceScale(scale);
    }
    data
}
