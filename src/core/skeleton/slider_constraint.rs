//! Spine 4.3 sliders: apply (part of) an animation to the applied poses, at a time that is
//! keyed or follows a bone property.

use super::transform_constraint43::{SourceOffsets, read_property};
use super::{Skeleton, Slot};
use crate::core::animation::Timeline;
use crate::core::animation::{MixBlend, MixDirection};
use crate::core::model::{SkeletonData, SliderConstraintData};

/// The animatable state of a slider (its pose: what slider timelines key).
#[derive(Clone, Debug, PartialEq)]
pub struct SliderConstraint {
    /// Slider time in seconds (used when no bone drives it).
    pub time: f64,
    pub mix: f64,
    pub active: bool,
    /// The animation time of the last update (for views).
    pub applied_time: f64,
}

impl SliderConstraint {
    pub fn new(data: &SliderConstraintData) -> SliderConstraint {
        SliderConstraint {
            time: data.time,
            mix: data.mix,
            active: true,
            applied_time: data.time,
        }
    }

    /// Restores the setup time and mix.
    pub fn set_to_setup(&mut self, d: &SliderConstraintData) {
        self.time = d.time;
        self.mix = d.mix;
    }
}

impl Skeleton {
    /// Runs slider `i`: the time from its driving bone (or its pose), then its animation
    /// applied onto the applied poses with alpha = mix.
    pub(crate) fn apply_slider(&mut self, data: &SkeletonData, i: usize) {
        let d = &data.slider_constraints[i];
        let mix = self.sliders[i].mix;
        if mix == 0.0 {
            return;
        }
        let Some(animation) = data.animations.get(d.animation) else {
            return;
        };
        let mut time = self.sliders[i].time;
        if let Some(dr) = d.driver {
            if !self.bones[dr.bone].active {
                return;
            }
            if dr.local {
                self.ensure_applied(dr.bone);
            }
            let value = read_property(
                &self.bones[dr.bone],
                dr.property,
                dr.local,
                SourceOffsets::default(),
                self.frame,
            );
            time = dr.to + (value - dr.from) * dr.scale;
            let duration = animation.duration;
            time = if d.looping {
                if duration != 0.0 {
                    duration + time % duration
                } else {
                    time
                }
            } else {
                time.max(0.0)
            };
        }
        self.sliders[i].applied_time = time;
        // The animation writes the applied poses of the bones it keys ("modify local": their
        // applied values are brought up to date first), so the pose animations left stays.
        for &b in &d.keyed_bones {
            self.ensure_applied(b);
            let bone = &mut self.bones[b];
            std::mem::swap(&mut bone.pose, &mut bone.applied);
        }
        let blend = if d.additive {
            MixBlend::Add
        } else {
            MixBlend::Replace
        };
        // As `Animation::apply`, but onto the applied slot poses as they are.
        let mut t = time;
        if d.looping && animation.duration != 0.0 {
            t %= animation.duration;
        }
        let t = animation.key_time(t);
        for timeline in &animation.timelines {
            timeline.apply(self, t, t, None, mix, blend, MixDirection::In);
        }
        for &b in &d.keyed_bones {
            let bone = &mut self.bones[b];
            std::mem::swap(&mut bone.pose, &mut bone.applied);
            bone.applied_valid = true;
        }
    }
}

/// The slot a timeline keys, if any.
fn timeline_slot(t: &Timeline) -> Option<usize> {
    match t {
        Timeline::Attachment(t) => Some(t.slot),
        Timeline::Color(t) => Some(t.slot),
        Timeline::TwoColor(t) => Some(t.slot),
        Timeline::Deform(t) => Some(t.slot),
        Timeline::Sequence(t) => Some(t.slot),
        _ => None,
    }
}

/// Spine 4.3 keeps a slot's pose (what animations set) apart from its applied pose (what
/// sliders change and what is shown). The slot fields hold the applied pose after a world
/// transform update and the pose otherwise; this keeps the other copy for the slots (and the
/// draw order) that some slider's animation keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SlotPoses {
    /// Slots keyed by a slider's animation.
    slots: Vec<usize>,
    /// Whether a slider's animation keys the draw order.
    draw_order: bool,
    /// The poses of `slots` (and the draw order) while the fields show the applied poses.
    saved: Vec<Slot>,
    saved_order: Vec<usize>,
    showing_applied: bool,
}

impl SlotPoses {
    /// Heap bytes held (a clone copies them).
    pub(crate) fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val;
        size_of_val(&self.slots[..])
            + size_of_val(&self.saved[..])
            + self
                .saved
                .iter()
                .map(|s| s.deform.capacity() * 8)
                .sum::<usize>()
            + size_of_val(&self.saved_order[..])
    }

    /// The slots and draw order `data`'s sliders key.
    pub fn new(data: &SkeletonData) -> SlotPoses {
        let mut slots = Vec::new();
        let mut draw_order = false;
        for s in &data.slider_constraints {
            let Some(a) = data.animations.get(s.animation) else {
                continue;
            };
            for t in &a.timelines {
                slots.extend(timeline_slot(t));
                draw_order |= matches!(t, Timeline::DrawOrder(_) | Timeline::DrawOrderFolder(_));
            }
        }
        slots.sort_unstable();
        slots.dedup();
        SlotPoses {
            slots,
            draw_order,
            ..SlotPoses::default()
        }
    }

    fn is_empty(&self) -> bool {
        self.slots.is_empty() && !self.draw_order
    }
}

impl Skeleton {
    /// Makes the slot fields hold the slots' poses again (before anything writes a pose:
    /// animations, setup pose, skins). Nothing to do unless sliders key slots.
    pub fn edit_pose(&mut self) {
        let p = &mut self.slot_poses;
        if !p.showing_applied {
            return;
        }
        p.showing_applied = false;
        for (k, &i) in p.slots.iter().enumerate() {
            let (slot, pose) = (&mut self.slots[i], &p.saved[k]);
            slot.color = pose.color;
            slot.dark = pose.dark;
            slot.offset = pose.offset;
            slot.attachment = pose.attachment;
            slot.deform.clone_from(&pose.deform);
            slot.sequence_index = pose.sequence_index;
        }
        if p.draw_order {
            self.draw_order.clone_from(&p.saved_order);
        }
    }

    /// Start of a 4.3 update: the applied slot poses start as copies of the poses.
    pub(crate) fn begin_applied_slots(&mut self) {
        if self.slot_poses.is_empty() {
            return;
        }
        self.edit_pose();
        let p = &mut self.slot_poses;
        p.saved.clear();
        p.saved
            .extend(p.slots.iter().map(|&i| self.slots[i].clone()));
        if p.draw_order {
            p.saved_order.clone_from(&self.draw_order);
        }
        p.showing_applied = true;
    }
}
