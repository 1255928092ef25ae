//! Spine 4.3 sliders: apply (part of) an animation to the applied poses, at a time that is
//! keyed or follows a bone property.

use super::Skeleton;
use super::transform_constraint43::{SourceOffsets, read_property};
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
        animation.apply(
            self,
            time,
            time,
            d.looping,
            None,
            mix,
            blend,
            MixDirection::In,
        );
        for &b in &d.keyed_bones {
            let bone = &mut self.bones[b];
            std::mem::swap(&mut bone.pose, &mut bone.applied);
            bone.applied_valid = true;
        }
    }
}
