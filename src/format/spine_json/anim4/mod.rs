//! Spine 4.0-4.2 animations: every timeline kind, in the order the runtimes build them
//! (slots, bones, IK, transform, path, physics, deform/sequence, draw order, events).

mod attachments;
mod bones;
mod constraints;
mod keys;
mod slots;
mod v43;

use super::anim::discrete;
use super::ctx::{Ctx, Names, unique_names};
use super::dto_anim4::AnimationDto;
use crate::core::animation::Animation;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};

use Seg::{Entry, Key};

/// Reads every animation, in file order. `data` must hold the setup pose and skins.
pub fn animations(
    ctx: Ctx<'_>,
    dtos: OrderedMap<AnimationDto>,
    names: &Names<'_>,
    data: &SkeletonData,
) -> Result<Vec<Animation>, LoadError> {
    unique_names(
        ctx,
        dtos.0.iter().map(|(n, _)| n.as_str()),
        "animation",
        |i| vec![Key("animations"), Entry(i, dtos.0[i].0.as_str())],
    )?;
    let mut out = Vec::with_capacity(dtos.len());
    for (i, (name, mut a)) in dtos.0.into_iter().enumerate() {
        let at = [Key("animations"), Entry(i, &name)];
        let mut timelines = Vec::new();
        slots::slots(ctx, &at, &mut a.slots, names, data, &mut timelines)?;
        bones::bones(ctx, &at, &a.bones, names, &mut timelines)?;
        constraints::ik(ctx, &at, &a.ik, names, &mut timelines)?;
        constraints::transform(ctx, &at, &a.transform, names, &mut timelines)?;
        constraints::path(ctx, &at, &a.path, names, &mut timelines)?;
        if let Some(physics) = &a.physics {
            constraints::physics(ctx, &at, physics, names, &mut timelines)?;
        }
        v43::check_keys(ctx, &at, &a)?;
        if let Some(sliders) = &a.slider {
            v43::sliders(ctx, &at, sliders, names, &mut timelines)?;
        }
        if let Some(deform) = &a.deform {
            attachments::deform_40(ctx, &at, deform, names, data, &mut timelines)?;
        }
        if let Some(atts) = &a.attachments {
            attachments::attachments(ctx, &at, atts, names, data, &mut timelines)?;
        }
        discrete::draw_order(
            ctx,
            &at,
            &a.draw_order,
            names,
            data.slots.len(),
            &mut timelines,
        )?;
        if let Some(folders) = &a.draw_order_folder {
            v43::draw_order_folders(ctx, &at, folders, names, &mut timelines)?;
        }
        discrete::events(ctx, &at, &a.events, names, data, &mut timelines)?;
        out.push(Animation::new(name, timelines));
    }
    Ok(out)
}
