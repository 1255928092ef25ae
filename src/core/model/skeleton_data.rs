use super::*;
use crate::core::animation::{Animation, PropertyIndex};

/// Where a skeleton came from, for display only: the runtime never branches on it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceInfo {
    /// Format family, e.g. "Spine".
    pub format: String,
    /// Version written by the exporter, e.g. "3.8.55".
    pub version: String,
}

/// The immutable description of a skeleton: bones, slots, skins, constraints, events and
/// animations, all cross-referenced by index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SkeletonData {
    pub name: String,
    pub source: SourceInfo,
    /// The runtime rules this skeleton plays by (chosen by the loader from the format and
    /// version; see [`Rules`]).
    pub rules: Rules,
    pub hash: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Dopesheet frame rate (frames per second).
    pub fps: f64,
    pub images: Option<String>,
    pub audio: Option<String>,
    pub bones: Vec<BoneData>,
    pub slots: Vec<SlotData>,
    pub attachments: Vec<Attachment>,
    pub skins: Vec<Skin>,
    /// Index of the skin named "default", if any.
    pub default_skin: Option<usize>,
    pub events: Vec<EventData>,
    pub animations: Vec<Animation>,
    pub ik_constraints: Vec<IkConstraintData>,
    pub transform_constraints: Vec<TransformConstraintData>,
    pub path_constraints: Vec<PathConstraintData>,
    pub physics_constraints: Vec<PhysicsConstraintData>,
    /// Spine 4.3 sliders.
    pub slider_constraints: Vec<SliderConstraintData>,
    /// Skeleton units per physics meter (Spine 4.2 `referenceScale`, 100 unless set).
    pub reference_scale: ReferenceScale,
    /// Children of each bone, in bone order (derived by [`SkeletonData::finish`]).
    pub bone_children: Vec<Vec<usize>>,
    /// Every constraint sorted by `order` (derived by [`SkeletonData::finish`]).
    pub constraint_order: Vec<ConstraintRef>,
    /// Oddities the loader tolerated (one line each, unsanitized), for the user to see.
    pub load_warnings: Vec<String>,
    /// Per slot, the attachment its setup attachment name finds in the default skin
    /// (derived by [`SkeletonData::finish`]): what a skeleton without another active skin
    /// shows in its setup pose, without a search by name.
    pub setup_attachments: Vec<Option<AttachmentId>>,
    /// The animations' properties in dense numbers (derived by [`SkeletonData::finish`]),
    /// for the animation state's timeline modes.
    pub property_index: PropertyIndex,
}

impl SkeletonData {
    /// Derives the lookup tables loaders should not have to build. Call once after loading.
    pub fn finish(&mut self) {
        // Counted first: one exact allocation per parent instead of a few growing ones.
        let mut counts = vec![0usize; self.bones.len()];
        for b in &self.bones {
            if let Some(c) = b.parent.and_then(|p| counts.get_mut(p)) {
                *c += 1;
            }
        }
        self.bone_children = counts.into_iter().map(Vec::with_capacity).collect();
        for (i, b) in self.bones.iter().enumerate() {
            if let Some(p) = b.parent {
                self.bone_children[p].push(i);
            }
        }
        let mut order: Vec<(i32, usize, ConstraintRef)> = Vec::new();
        // Ties keep ik, transform, path, physics order: the reference runtimes search in that
        // order.
        for (i, c) in self.ik_constraints.iter().enumerate() {
            order.push((c.order, 0, ConstraintRef::Ik(i)));
        }
        for (i, c) in self.transform_constraints.iter().enumerate() {
            order.push((c.order, 1, ConstraintRef::Transform(i)));
        }
        for (i, c) in self.path_constraints.iter().enumerate() {
            order.push((c.order, 2, ConstraintRef::Path(i)));
        }
        for (i, c) in self.physics_constraints.iter().enumerate() {
            order.push((c.order, 3, ConstraintRef::Physics(i)));
        }
        for (i, c) in self.slider_constraints.iter().enumerate() {
            order.push((c.order, 4, ConstraintRef::Slider(i)));
        }
        order.sort_by_key(|&(o, kind, r)| {
            let idx = match r {
                ConstraintRef::Ik(i)
                | ConstraintRef::Transform(i)
                | ConstraintRef::Path(i)
                | ConstraintRef::Physics(i)
                | ConstraintRef::Slider(i) => i,
            };
            (o, kind, idx)
        });
        self.constraint_order = order.into_iter().map(|(_, _, r)| r).collect();
        self.resolve_default_attachments();
        self.property_index = PropertyIndex::build(&self.animations);
    }

    /// Finds, once, what the setup attachment names and every attachment key name find in the
    /// default skin (the lookup a skeleton without another active skin does each frame).
    fn resolve_default_attachments(&mut self) {
        let default = self.default_skin.and_then(|d| self.skins.get(d));
        let find = |slot: usize, name: &str| default.and_then(|s| s.get(slot, name));
        self.setup_attachments = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| s.attachment.as_deref().and_then(|n| find(i, n)))
            .collect();
        for anim in &mut self.animations {
            for tl in &mut anim.timelines {
                if let crate::core::animation::Timeline::Attachment(t) = tl {
                    t.default_ids = t
                        .names
                        .iter()
                        .map(|n| n.as_deref().and_then(|n| find(t.slot, n)))
                        .collect();
                }
            }
        }
    }

    /// True when some bone carries a 3D pose (views then project 3D instead of drawing 2D).
    pub fn has_joints3(&self) -> bool {
        self.bones.iter().any(|b| b.joint3.is_some())
    }

    pub fn find_bone(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name == name)
    }

    pub fn find_slot(&self, name: &str) -> Option<usize> {
        self.slots.iter().position(|s| s.name == name)
    }

    pub fn find_skin(&self, name: &str) -> Option<usize> {
        self.skins.iter().position(|s| s.name == name)
    }

    pub fn find_event(&self, name: &str) -> Option<usize> {
        self.events.iter().position(|e| e.name == name)
    }

    pub fn find_animation(&self, name: &str) -> Option<usize> {
        self.animations.iter().position(|a| a.name == name)
    }

    /// The name of a constraint.
    pub fn constraint_name(&self, c: ConstraintRef) -> &str {
        match c {
            ConstraintRef::Ik(i) => &self.ik_constraints[i].name,
            ConstraintRef::Transform(i) => &self.transform_constraints[i].name,
            ConstraintRef::Path(i) => &self.path_constraints[i].name,
            ConstraintRef::Physics(i) => &self.physics_constraints[i].name,
            ConstraintRef::Slider(i) => &self.slider_constraints[i].name,
        }
    }

    /// The bones a constraint changes.
    pub fn constraint_bones(&self, c: ConstraintRef) -> &[usize] {
        match c {
            ConstraintRef::Ik(i) => &self.ik_constraints[i].bones,
            ConstraintRef::Transform(i) => &self.transform_constraints[i].bones,
            ConstraintRef::Path(i) => &self.path_constraints[i].bones,
            ConstraintRef::Physics(i) => std::slice::from_ref(&self.physics_constraints[i].bone),
            ConstraintRef::Slider(i) => &self.slider_constraints[i].keyed_bones,
        }
    }

    /// Whether a constraint is skin-required.
    pub fn constraint_skin_required(&self, c: ConstraintRef) -> bool {
        match c {
            ConstraintRef::Ik(i) => self.ik_constraints[i].skin_required,
            ConstraintRef::Transform(i) => self.transform_constraints[i].skin_required,
            ConstraintRef::Path(i) => self.path_constraints[i].skin_required,
            ConstraintRef::Physics(i) => self.physics_constraints[i].skin_required,
            ConstraintRef::Slider(i) => self.slider_constraints[i].skin_required,
        }
    }
}
