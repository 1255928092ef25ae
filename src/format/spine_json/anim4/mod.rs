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
use super::dto_anim4::{AnimationDto, BoneTimeline, PathTimeline, PhysicsTimeline, SlotTimeline};
use crate::core::animation::Timeline;
use crate::format::LoadError;

/// 4.x: slots, bones, IK, transform, path, physics, sliders, deform / attachments, draw
/// order (and its 4.3 folders), events.
impl AnimationLayout for AnimationDto {
    /// Keyed timelines one each, plus draw order and events (so the list is allocated once:
    /// growing it moved every timeline built so far). 4.3 sliders and draw-order folders
    /// are not counted; the list grows for them.
    fn timeline_bound(&self) -> usize {
        let a = self;
        let n = |keyed: bool| usize::from(keyed);
        let bones = keyed(
            a.bones.0.iter().map(|(_, t)| &t.0[..]),
            BoneTimeline::has_keys,
        );
        let slots = keyed(
            a.slots.0.iter().map(|(_, t)| &t.0[..]),
            SlotTimeline::has_keys,
        );
        let path = keyed(
            a.path.0.iter().map(|(_, t)| &t.0[..]),
            PathTimeline::has_keys,
        );
        let physics = keyed(
            a.physics.iter().flat_map(|p| &p.0).map(|(_, t)| &t.0[..]),
            PhysicsTimeline::has_keys,
        );
        let deform: usize = (a.deform.iter().flat_map(|d| &d.0))
            .flat_map(|(_, skin)| &skin.0)
            .map(|(_, slot)| slot.0.iter().filter(|(_, k)| !k.is_empty()).count())
            .sum();
        let attachments: usize = (a.attachments.iter().flat_map(|d| &d.0))
            .flat_map(|(_, skin)| &skin.0)
            .flat_map(|(_, slot)| &slot.0)
            .map(|(_, t)| {
                n(t.deform.as_ref().is_some_and(|k| !k.is_empty()))
                    + n(t.sequence.as_ref().is_some_and(|k| !k.is_empty()))
            })
            .sum();
        bones + slots + a.ik.len() + a.transform.len() + path + physics + deform + attachments + 2
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
        discrete::draw_order(
            ctx,
            at,
            "drawOrder",
            &a.draw_order,
            names,
            data.slots.len(),
            out,
        )?;
        if let Some(folders) = &a.draw_order_folder {
            v43::draw_order_folders(ctx, at, folders, names, out)?;
        }
        discrete::events(ctx, at, &a.events, names, data, out)
    }
}

/// The timelines with keys in each group's (name, timeline) list: bones, slots, paths or
/// physics constraints.
fn keyed<'a, T: 'a>(
    groups: impl Iterator<Item = &'a [(&'static str, T)]>,
    has_keys: fn(&T) -> bool,
) -> usize {
    groups
        .map(|g| g.iter().filter(|(_, t)| has_keys(t)).count())
        .sum()
}
