//! Spine 4.0-4.2 animations: every timeline kind, in the order the runtimes build them
//! (slots, bones, IK, transform, path, physics, deform/sequence, draw order, events).

mod attachments;
mod bones;
mod constraints;
mod keys;
mod slots;
mod v43;

use super::anim::constraints::KeyedConstraints::{Ik, Transform};
use super::anim::constraints::keyed_constraints;
use super::anim::{AnimationLayout, Env, discrete};
use super::dto_anim4::AnimationDto;
use crate::core::animation::Timeline;
use crate::format::LoadError;

/// 4.x: slots, bones, IK, transform, path, physics, sliders, deform / attachments, draw
/// order (and its 4.3 folders), events.
impl AnimationLayout for AnimationDto {
    fn timeline_bound(&self) -> usize {
        0
    }

    fn read(&mut self, e: Env<'_>, out: &mut Vec<Timeline>) -> Result<(), LoadError> {
        let a = self;
        let Env(ctx, at, names, data) = e;
        slots::slots(ctx, at, &mut a.slots, names, data, out)?;
        bones::bones(ctx, at, &mut a.bones, names, out)?;
        keyed_constraints(e, Ik, &mut a.ik, constraints::ik_keys, out)?;
        keyed_constraints(
            e,
            Transform,
            &mut a.transform,
            constraints::transform_keys,
            out,
        )?;
        constraints::path(ctx, at, &mut a.path, names, out)?;
        if let Some(physics) = &mut a.physics {
            constraints::physics(ctx, at, physics, names, out)?;
        }
        v43::check_keys(ctx, at, a)?;
        if let Some(sliders) = &mut a.slider {
            v43::sliders(ctx, at, sliders, names, out)?;
        }
        if let Some(deform) = &a.deform {
            let keys = attachments::deform_keys;
            super::anim::deform::deform(ctx, at, deform, names, data, out, keys)?;
        }
        if let Some(atts) = &a.attachments {
            attachments::attachments(ctx, at, atts, names, data, out)?;
        }
        discrete::draw_order(ctx, at, &a.draw_order, names, data.slots.len(), out)?;
        if let Some(folders) = &a.draw_order_folder {
            v43::draw_order_folders(ctx, at, folders, names, out)?;
        }
        discrete::events(ctx, at, &a.events, names, data, out)
    }
}
