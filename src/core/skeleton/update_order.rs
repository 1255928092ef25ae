//! The order in which bones and constraints are updated each frame.
//!
//! A constraint runs after its target and the parents of the bones it changes are in their
//! final place; the descendants of constrained bones are updated again after it. Bones whose
//! local pose a constraint reads before they were updated this frame start from their pose.

use super::Skeleton;
use crate::core::model::{AttachmentKind, ConstraintRef, SkeletonData, Skin, UpdateCacheRule};

/// One step of [`Skeleton::update_world_transform`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateStep {
    Bone(usize),
    Constraint(ConstraintRef),
}

/// The computed order plus the bones whose applied pose is reset to their pose first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UpdateOrder {
    pub steps: Vec<UpdateStep>,
    pub reset: Vec<usize>,
}

struct Sorter<'a> {
    data: &'a SkeletonData,
    active: &'a [bool],
    sorted: Vec<bool>,
    order: UpdateOrder,
}

impl Sorter<'_> {
    fn bone(&mut self, i: usize) {
        if self.sorted[i] {
            return;
        }
        if let Some(p) = self.data.bones[i].parent {
            self.bone(p);
        }
        self.sorted[i] = true;
        self.order.steps.push(UpdateStep::Bone(i));
    }

    /// Marks active descendants of sorted bones as needing another update.
    fn reset_children(&mut self, bone: usize) {
        for k in 0..self.data.bone_children[bone].len() {
            let child = self.data.bone_children[bone][k];
            if !self.active[child] {
                continue;
            }
            if self.sorted[child] {
                self.reset_children(child);
            }
            self.sorted[child] = false;
        }
    }

    fn is_updated(&self, bone: usize) -> bool {
        self.order.steps.contains(&UpdateStep::Bone(bone))
    }

    fn path_attachment_bones(&mut self, skin: &Skin, slot: usize, slot_bone: usize) {
        for &(_, att) in skin.slot_entries(slot) {
            self.path_bones(att, slot_bone);
        }
    }

    fn path_bones(&mut self, att: usize, slot_bone: usize) {
        let AttachmentKind::Path(path) = &self.data.attachments[att].kind else {
            return;
        };
        match &path.vertices.bones {
            None => self.bone(slot_bone),
            Some(bones) => {
                let mut i = 0;
                while i < bones.len() {
                    let n = bones[i] as usize;
                    for k in 0..n {
                        if let Some(&b) = bones.get(i + 1 + k) {
                            self.bone(b as usize);
                        }
                    }
                    i += n + 1;
                }
            }
        }
    }
}

impl Skeleton {
    /// Recomputes bone activity, constraint activity and the update order. Called when the
    /// skin changes.
    pub fn update_cache(&mut self) {
        let data = self.data.clone();
        let n = data.bones.len();
        let mut active: Vec<bool> = data.bones.iter().map(|b| !b.skin_required).collect();
        if let Some(skin) = &self.skin {
            for &b in &skin.bones {
                let mut cur = Some(b);
                while let Some(i) = cur {
                    active[i] = true;
                    cur = data.bones[i].parent;
                }
            }
        }
        for (bone, &a) in self.bones.iter_mut().zip(&active) {
            bone.active = a;
        }
        let v4 = data.rules.update_cache == UpdateCacheRule::V4;
        let mut s = Sorter {
            data: &data,
            active: &active,
            // Inactive bones count as sorted so they are never updated.
            sorted: active.iter().map(|a| !a).collect(),
            order: UpdateOrder::default(),
        };
        for &c in &data.constraint_order {
            let skin_ok = !data.constraint_skin_required(c)
                || self
                    .skin
                    .as_ref()
                    .is_some_and(|sk| sk.constraints.contains(&c));
            match c {
                ConstraintRef::Ik(i) => {
                    let cd = &data.ik_constraints[i];
                    let on = skin_ok && active[cd.target];
                    self.ik[i].active = on;
                    if !on {
                        continue;
                    }
                    s.bone(cd.target);
                    let parent = cd.bones[0];
                    s.bone(parent);
                    let last = *cd.bones.last().unwrap_or(&parent);
                    if cd.bones.len() > 1 {
                        if v4 {
                            // 4.x updates the child before the constraint, from its pose.
                            s.bone(last);
                        } else if !s.is_updated(last) {
                            s.order.reset.push(last);
                        }
                    }
                    s.order.steps.push(UpdateStep::Constraint(c));
                    s.reset_children(parent);
                    s.sorted[last] = true;
                }
                ConstraintRef::Transform(i) => {
                    let cd = &data.transform_constraints[i];
                    let on = skin_ok && active[cd.target];
                    self.transforms[i].active = on;
                    if !on {
                        continue;
                    }
                    s.bone(cd.target);
                    if cd.local {
                        for &b in &cd.bones {
                            if let Some(p) = data.bones[b].parent {
                                s.bone(p);
                            }
                            if v4 {
                                s.bone(b);
                            } else if !s.is_updated(b) {
                                s.order.reset.push(b);
                            }
                        }
                    } else {
                        for &b in &cd.bones {
                            s.bone(b);
                        }
                    }
                    s.order.steps.push(UpdateStep::Constraint(c));
                    for &b in &cd.bones {
                        s.reset_children(b);
                    }
                    for &b in &cd.bones {
                        s.sorted[b] = true;
                    }
                }
                ConstraintRef::Path(i) => {
                    let cd = &data.path_constraints[i];
                    let slot_bone = data.slots[cd.target].bone;
                    let on = skin_ok && active[slot_bone];
                    self.paths[i].active = on;
                    if !on {
                        continue;
                    }
                    if let Some(skin) = &self.skin {
                        s.path_attachment_bones(skin, cd.target, slot_bone);
                    }
                    if let Some(d) = data.default_skin {
                        let is_current = self.skin.as_ref().is_some_and(|sk| *sk == data.skins[d]);
                        if !is_current {
                            s.path_attachment_bones(&data.skins[d], cd.target, slot_bone);
                        }
                    }
                    if let Some(att) = self.slots[cd.target].attachment {
                        s.path_bones(att, slot_bone);
                    }
                    for &b in &cd.bones {
                        s.bone(b);
                    }
                    s.order.steps.push(UpdateStep::Constraint(c));
                    for &b in &cd.bones {
                        s.reset_children(b);
                    }
                    for &b in &cd.bones {
                        s.sorted[b] = true;
                    }
                }
                ConstraintRef::Slider(i) => {
                    let cd = &data.slider_constraints[i];
                    self.sliders[i].active = skin_ok;
                    if !skin_ok {
                        continue;
                    }
                    if let Some(dr) = cd.driver
                        && !dr.local
                    {
                        s.bone(dr.bone);
                    }
                    s.order.steps.push(UpdateStep::Constraint(c));
                    // The bones its animation keys (and their children) update again after it.
                    for &b in &cd.keyed_bones {
                        if active[b] {
                            s.reset_children(b);
                            s.sorted[b] = false;
                        }
                    }
                }
                ConstraintRef::Physics(i) => {
                    let bone = data.physics_constraints[i].bone;
                    let on = skin_ok && active[bone];
                    self.physics[i].active = on;
                    if !on {
                        continue;
                    }
                    s.bone(bone);
                    s.order.steps.push(UpdateStep::Constraint(c));
                    s.reset_children(bone);
                    s.sorted[bone] = true;
                }
            }
        }
        for i in 0..n {
            s.bone(i);
        }
        self.order = s.order;
    }
}
