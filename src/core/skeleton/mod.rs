//! A posed skeleton: the mutable instance that timelines write and constraints solve.

mod bone;
mod ik_constraint;
mod ik_rigid;
mod joint3d;
mod lattice;
mod local_from_world43;
mod memo;
mod path_constraint;
mod physics_constraint;
mod slider_constraint;
mod slot;
mod transform_constraint;
mod transform_constraint43;
mod update_order;
mod vertices;

pub use bone::*;
pub use ik_constraint::IkConstraint;
pub use joint3d::Joint3Pose;
pub use path_constraint::PathConstraint;
pub use physics_constraint::{Physics, PhysicsConstraint, PhysicsContext};
pub use slider_constraint::{SliderConstraint, SlotPoses};
pub use slot::Slot;
pub use transform_constraint::TransformConstraint;
pub use update_order::{UpdateOrder, UpdateStep};

use crate::core::color::Color;
use crate::core::model::{
    AppliedFormula, AttachmentId, ConstraintRef, NameKind, PoseModel, SkeletonData, Skin,
    UnknownName,
};
use memo::{AxesTrig, ConstraintMemos};
use std::sync::Arc;

/// What the world transform update reads of a bone's setup data, packed so the per-frame loop
/// does not walk the (large) `BoneData` records.
#[derive(Clone, Copy, Debug)]
struct BoneLink {
    parent: Option<usize>,
}

/// A skeleton instance posed from shared [`SkeletonData`].
#[derive(Clone, Debug)]
pub struct Skeleton {
    /// The data this instance was built from (its bones, slots and constraints, and the
    /// per-bone tables below, follow it: for other data, make a new `Skeleton`).
    pub data: Arc<SkeletonData>,
    pub bones: Vec<Bone>,
    pub slots: Vec<Slot>,
    /// Slot indices in draw order.
    pub draw_order: Vec<usize>,
    pub ik: Vec<IkConstraint>,
    pub transforms: Vec<TransformConstraint>,
    pub paths: Vec<PathConstraint>,
    pub physics: Vec<PhysicsConstraint>,
    /// Spine 4.3 sliders.
    pub sliders: Vec<SliderConstraint>,
    /// Spine 4.3: the other copy (pose or applied) of the slots sliders key.
    pub slot_poses: SlotPoses,
    /// Skeleton time in seconds (advanced by [`Skeleton::update`]; physics simulates up to it).
    pub time: f64,
    /// The active skin (possibly several skins combined); attachments not in it come from the
    /// default skin.
    pub skin: Option<Skin>,
    pub frame: SkeletonFrame,
    pub color: Color,
    order: UpdateOrder,
    /// Per bone: its parent (from the data; it never changes).
    links: Vec<BoneLink>,
    /// Per bone: the sine and cosine of the rotation its last update from the pose used, and
    /// of the last a constraint set (kept apart so the two do not evict each other).
    trig: Vec<AxesTrig>,
    constraint_trig: Vec<AxesTrig>,
    /// 4.x, per bone whose `applied_valid` is false: the parent's world frame when a
    /// constraint last changed the bone's world transform. The runtimes recompute the applied
    /// pose under that frame at once; it is computed from it when first read instead (most
    /// are never read).
    applied_parent: Vec<Option<ParentFrame>>,
    /// The constraints' memoised trigonometry.
    memos: ConstraintMemos,
    /// True when some bone is a DragonBones surface (its lattice places its children).
    lattices: bool,
    /// Per bone: a surface bone's lattice offsets from its `surface` timelines (x, y per
    /// vertex; empty: the setup lattice).
    pub lattice_offsets: Vec<Vec<f64>>,
    /// Per bone: a surface bone's triangle maps cached for the current world transform update
    /// (DragonBonesJS reuses them across colliding slots; see `lattice`).
    lattice_maps: Vec<lattice::MapCache>,
    /// Per bone: where a surface bone's lattice vertices lie in world space (core y-up), from
    /// its last update.
    lattice_world: Vec<Vec<f64>>,
    /// True once an animation posed the skeleton since its bones were last set to the setup
    /// pose. DragonBones' rigid IK then runs twice, as the oracle's samples show: a sample is
    /// two runtime updates, and the second turns the chain's parent, which no timeline
    /// changed in between, again by the weight (tests/fixtures/dragonbones5/README.md).
    pub animated: bool,
}

impl Skeleton {
    /// A skeleton in its setup pose with no skin (default skin attachments only).
    pub fn new(data: Arc<SkeletonData>) -> Skeleton {
        let mut sk = Skeleton {
            bones: data.bones.iter().map(Bone::new).collect(),
            slots: data.slots.iter().map(Slot::new).collect(),
            draw_order: (0..data.slots.len()).collect(),
            ik: data.ik_constraints.iter().map(IkConstraint::new).collect(),
            transforms: data
                .transform_constraints
                .iter()
                .map(TransformConstraint::new)
                .collect(),
            paths: data
                .path_constraints
                .iter()
                .map(PathConstraint::new)
                .collect(),
            physics: data
                .physics_constraints
                .iter()
                .map(PhysicsConstraint::new)
                .collect(),
            sliders: data
                .slider_constraints
                .iter()
                .map(SliderConstraint::new)
                .collect(),
            slot_poses: SlotPoses::new(&data),
            time: 0.0,
            skin: None,
            frame: SkeletonFrame {
                deg_rad: data.rules.deg_rad(),
                axis_epsilon: if data.rules.applied == AppliedFormula::V43 {
                    1e-10
                } else {
                    0.0001
                },
                ..SkeletonFrame::IDENTITY
            },
            color: Color::WHITE,
            order: UpdateOrder::default(),
            links: data
                .bones
                .iter()
                .map(|b| BoneLink { parent: b.parent })
                .collect(),
            trig: vec![AxesTrig::ZERO; data.bones.len()],
            constraint_trig: vec![AxesTrig::ZERO; data.bones.len()],
            applied_parent: vec![None; data.bones.len()],
            memos: ConstraintMemos::new(&data),
            lattices: data.bones.iter().any(|b| b.lattice.is_some()),
            lattice_offsets: vec![Vec::new(); data.bones.len()],
            lattice_maps: vec![lattice::MapCache::default(); data.bones.len()],
            lattice_world: vec![Vec::new(); data.bones.len()],
            animated: false,
            data,
        };
        sk.set_slots_to_setup_pose();
        sk.update_cache();
        sk
    }

    /// The update order in use (for views and tests).
    pub fn update_order(&self) -> &UpdateOrder {
        &self.order
    }

    /// Sets the active skin. With no previous skin, slots showing their setup attachment name
    /// take the new skin's attachment of that name; with a previous skin, slots showing one of
    /// its attachments take the new skin's attachment under the same key.
    pub fn set_skin(&mut self, skin: Option<Skin>) {
        if self.skin == skin {
            return;
        }
        self.edit_pose();
        if let Some(new) = &skin {
            match &self.skin {
                Some(old) => {
                    for (slot, key, old_att) in old.entries() {
                        if self.slots[slot].attachment == Some(old_att)
                            && let Some(att) = new.get(slot, key)
                        {
                            self.slots[slot].set_attachment(Some(att), &self.data);
                        }
                    }
                }
                None => {
                    for (i, sd) in self.data.slots.iter().enumerate() {
                        if let Some(name) = &sd.attachment
                            && let Some(att) = new.get(i, name)
                        {
                            self.slots[i].set_attachment(Some(att), &self.data);
                        }
                    }
                }
            }
        }
        self.skin = skin;
        self.update_cache();
    }

    /// Combines the named skins into one (in the given order) and makes it active.
    /// Fails on the first name that does not exist.
    pub fn set_skins_by_name(&mut self, names: &[&str]) -> Result<(), UnknownName> {
        if names.is_empty() {
            self.set_skin(None);
            return Ok(());
        }
        let mut combined = Skin::new(names.join("+"));
        for name in names {
            let i = self
                .data
                .find_skin(name)
                .ok_or_else(|| UnknownName::new(NameKind::Skin, name))?;
            combined.add_skin(&self.data.skins[i]);
        }
        if names.len() == 1 {
            combined.name = names[0].to_string();
        }
        self.set_skin(Some(combined));
        Ok(())
    }

    /// Looks an attachment up by slot and key name: active skin first, then the default skin.
    pub fn attachment(&self, slot: usize, name: &str) -> Option<AttachmentId> {
        if let Some(a) = self.skin.as_ref().and_then(|s| s.get(slot, name)) {
            return Some(a);
        }
        self.data
            .default_skin
            .and_then(|d| self.data.skins[d].get(slot, name))
    }

    /// About how many heap bytes this skeleton holds (what a clone allocates, the shared
    /// data aside): bones with their tables, slots with their deforms, constraints with
    /// their buffers, the update order and the active skin's entries. Session checkpoints
    /// count their memory with it.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::{size_of, size_of_val};
        // Every array is an allocation of its own, with its allocator overhead.
        const ALLOC: usize = 16;
        let joints = self.bones.iter().filter(|b| b.joint3.is_some()).count();
        let bones = size_of_val(&self.bones[..])
            + joints * (size_of::<Joint3Pose>() + ALLOC)
            + size_of_val(&self.links[..])
            + size_of_val(&self.trig[..])
            + size_of_val(&self.constraint_trig[..])
            + size_of_val(&self.applied_parent[..]);
        let slots: usize = size_of_val(&self.slots[..])
            + self
                .slots
                .iter()
                .map(|x| x.deform.capacity() * size_of::<f64>() + ALLOC)
                .sum::<usize>()
            + size_of_val(&self.draw_order[..])
            + self.slot_poses.heap_bytes();
        let paths: usize = self.paths.iter().map(PathConstraint::scratch_bytes).sum();
        let constraints = size_of_val(&self.ik[..])
            + size_of_val(&self.transforms[..])
            + size_of_val(&self.paths[..])
            + paths
            + size_of_val(&self.physics[..])
            + size_of_val(&self.sliders[..]);
        let m = &self.memos;
        let memos = size_of_val(&m.ik_child[..])
            + size_of_val(&m.transforms[..])
            + m.paths
                .iter()
                .map(|p| size_of_val(&p[..]) + ALLOC)
                .sum::<usize>();
        let order = size_of_val(&self.order.steps[..]) + size_of_val(&self.order.reset[..]);
        let skin: usize = self.skin.as_ref().map_or(0, |k| {
            k.entries()
                .map(|(_, name, _)| name.len() + size_of::<(String, AttachmentId)>() + ALLOC)
                .sum()
        });
        bones + slots + constraints + memos + order + skin + 16 * ALLOC
    }

    /// Resets bones, constraints, slots and draw order to the setup pose.
    pub fn set_to_setup_pose(&mut self) {
        self.set_bones_to_setup_pose();
        self.set_slots_to_setup_pose();
    }

    /// Resets bones and constraints to the setup pose.
    pub fn set_bones_to_setup_pose(&mut self) {
        self.animated = false;
        for (bone, data) in self.bones.iter_mut().zip(&self.data.bones) {
            bone.pose = Local::setup(data);
            bone.inherit = data.inherit;
        }
        if self.lattices {
            self.lattice_offsets.iter_mut().for_each(Vec::clear);
        }
        self.set_joints3_to_setup_pose();
        for (c, d) in self.ik.iter_mut().zip(&self.data.ik_constraints) {
            c.set_to_setup(d);
        }
        for (c, d) in self
            .transforms
            .iter_mut()
            .zip(&self.data.transform_constraints)
        {
            c.set_to_setup(d);
        }
        for (c, d) in self.paths.iter_mut().zip(&self.data.path_constraints) {
            c.set_to_setup(d);
        }
        // The animatable values only: the simulation state is not part of the pose.
        for (c, d) in self.physics.iter_mut().zip(&self.data.physics_constraints) {
            c.set_to_setup(d);
        }
        for (c, d) in self.sliders.iter_mut().zip(&self.data.slider_constraints) {
            c.set_to_setup(d);
        }
    }

    /// Resets slot colors, attachments and the draw order to the setup pose.
    pub fn set_slots_to_setup_pose(&mut self) {
        self.edit_pose();
        let data = self.data.clone();
        self.draw_order.clear();
        self.draw_order.extend(0..data.slots.len());
        for i in 0..data.slots.len() {
            self.set_slot_to_setup_pose(i);
        }
    }

    /// Resets one slot's colors and attachment (always clearing its deform).
    pub fn set_slot_to_setup_pose(&mut self, i: usize) {
        self.edit_pose();
        let sd = &self.data.slots[i];
        let att = sd.attachment.as_deref().and_then(|n| self.attachment(i, n));
        let slot = &mut self.slots[i];
        slot.color = sd.color;
        slot.dark = sd.dark;
        slot.offset = sd.offset;
        slot.attachment = None;
        slot.deform.clear();
        slot.attachment = att;
        slot.sequence_index = -1;
    }

    /// The world frame of bone `i`'s parent.
    #[inline]
    pub fn parent_frame(&self, i: usize) -> Option<ParentFrame> {
        self.links[i].parent.map(|p| self.bones[p].frame())
    }

    /// Updates bone `i` from `local` if a DragonBones lattice is involved: `i` a surface bone
    /// (its lattice placed, its world transform the hull map), or a child of one (placed
    /// through the lattice's map at its position). False, doing nothing, otherwise.
    fn update_lattice_bone(&mut self, i: usize, local: Local) -> bool {
        if self.data.bones[i].lattice.is_some() {
            self.place_surface(i);
            return true;
        }
        let Some(p) = self.links[i].parent else {
            return false;
        };
        let Some(l) = &self.data.bones[p].lattice else {
            return false;
        };
        let cache = &mut self.lattice_maps[p];
        let map = lattice::placement(l, &self.lattice_world[p], local.x, local.y, cache);
        let cell = lattice::frame(map);
        let surface = self.bones[p].frame();
        let frame = self.frame;
        self.bones[i].update_world_under_surface(local, cell, &surface, frame);
        true
    }

    /// The world frame bone `i` sits in: its parent's, or the skeleton's for a root.
    fn outer_frame(&self, i: usize) -> ParentFrame {
        match self.links[i].parent {
            Some(p) => self.bones[p].frame(),
            None => ParentFrame {
                a: self.frame.scale_x,
                b: 0.0,
                c: 0.0,
                d: self.frame.scale_y,
                world_x: self.frame.x,
                world_y: self.frame.y,
            },
        }
    }

    /// Places a DragonBones surface bone's lattice vertices in world space, whatever its
    /// pose: through its parent's frame, or, on another surface, each vertex through that
    /// lattice's map at it (as a child there would be, sharing its cache: DragonBonesJS
    /// 5.6.300, tests/fixtures/dragonbones5/README.md). Its world transform is the hull map.
    fn place_surface(&mut self, i: usize) {
        let data = self.data.clone();
        let Some(l) = &data.bones[i].lattice else {
            return;
        };
        let mut world = std::mem::take(&mut self.lattice_world[i]);
        let offsets = &self.lattice_offsets[i];
        let outer = self.links[i]
            .parent
            .and_then(|p| Some((p, data.bones[p].lattice.as_deref()?)));
        match outer {
            Some((p, outer)) => {
                let (placed, cache) = (&self.lattice_world[p], &mut self.lattice_maps[p]);
                lattice::place_vertices(l, offsets, true, &mut world, |x, y| {
                    lattice::apply(lattice::placement(outer, placed, x, y, cache), x, y)
                });
            }
            None => {
                let f = self.outer_frame(i);
                lattice::place_vertices(l, offsets, false, &mut world, |x, y| {
                    (f.a * x + f.b * y + f.world_x, f.c * x + f.d * y + f.world_y)
                });
            }
        }
        let hull = lattice::hull(l, &world);
        self.lattice_world[i] = world;
        self.bones[i].set_world(lattice::frame(hull));
    }

    /// Computes bone `i`'s world transform from `local`.
    #[inline]
    pub fn update_bone_world(&mut self, i: usize, local: Local) {
        if self.lattices && self.update_lattice_bone(i, local) {
            return;
        }
        let parent = self.parent_frame(i);
        let inherit = self.bones[i].inherit;
        let frame = self.frame;
        self.bones[i].update_world_memo(
            local,
            inherit,
            parent,
            frame,
            &mut self.constraint_trig[i],
        );
    }

    /// Recomputes bone `i`'s applied pose from its world transform if a constraint changed it.
    #[inline]
    pub fn ensure_applied(&mut self, i: usize) {
        if !self.bones[i].applied_valid {
            let parent = self.applied_parent_frame(i);
            let (formula, frame) = (self.data.rules.applied, self.frame);
            self.bones[i].update_applied_with(parent, formula, frame);
        }
    }

    /// Bone `i`'s applied pose: the local transform that gives its current world transform
    /// (recovered from the world transform if a constraint changed that).
    pub fn applied_pose(&self, i: usize) -> Local {
        let bone = &self.bones[i];
        if bone.applied_valid {
            return bone.applied;
        }
        let parent = self.applied_parent_frame(i);
        bone.applied_from_world(parent, self.data.rules.applied, self.frame)
    }

    /// The parent frame bone `i`'s applied pose is recovered under: 4.x the one recorded
    /// when a constraint changed the bone (see `applied_parent`), 3.8 the current one.
    #[inline]
    fn applied_parent_frame(&self, i: usize) -> Option<ParentFrame> {
        if self.data.rules.pose_model == PoseModel::Applied {
            self.applied_parent[i]
        } else {
            self.parent_frame(i)
        }
    }

    /// Computes every active bone's world transform and runs the constraints, in update order
    /// (physics constraints do nothing: [`Physics::None`]).
    pub fn update_world_transform(&mut self) {
        self.update_world_transform_with(Physics::None);
    }

    /// [`Skeleton::update_world_transform`] with physics constraints run in `physics` mode.
    pub fn update_world_transform_with(&mut self, physics: Physics) {
        if self.lattices {
            self.lattice_maps
                .iter_mut()
                .for_each(lattice::MapCache::clear);
        }
        if self.data.rules.pose_model == PoseModel::Applied {
            self.update_world_transform_applied(physics);
            return;
        }
        for k in 0..self.order.reset.len() {
            let i = self.order.reset[k];
            let bone = &mut self.bones[i];
            bone.applied = bone.pose;
            bone.applied_valid = true;
        }
        // One handle on the data for the whole pass (the constraints read it while the bones
        // change), instead of one per constraint.
        let data = self.data.clone();
        let frame = self.frame;
        for k in 0..self.order.steps.len() {
            match self.order.steps[k] {
                UpdateStep::Bone(i) => {
                    if self.lattices && self.update_lattice_bone(i, self.bones[i].pose) {
                        continue;
                    }
                    let BoneLink { parent } = self.links[i];
                    let pf = parent.map(|p| self.bones[p].frame());
                    let bone = &mut self.bones[i];
                    let inherit = bone.inherit;
                    bone.update_world_from_pose_memo(inherit, pf, frame, &mut self.trig[i]);
                    // A 3D pose is in world space: its front view replaces the 2D result.
                    if let Some(j) = &bone.joint3 {
                        let w = j.front_frame(frame);
                        bone.set_world(w);
                    }
                }
                UpdateStep::Constraint(ConstraintRef::Ik(i)) => self.apply_ik(&data, i),
                UpdateStep::Constraint(ConstraintRef::Transform(i)) => {
                    self.apply_transform(&data, i)
                }
                UpdateStep::Constraint(ConstraintRef::Path(i)) => self.apply_path(&data, i),
                UpdateStep::Constraint(ConstraintRef::Physics(i)) => {
                    self.apply_physics(&data, i, physics)
                }
                UpdateStep::Constraint(ConstraintRef::Slider(i)) => self.apply_slider(&data, i),
            }
        }
    }

    /// Updates the world transforms of the bones of the run of bone steps that starts at step
    /// `k` (the first one's applied pose valid), up to a constraint step or a bone whose
    /// applied pose a constraint changed; returns the step after the last one updated. The
    /// tables are borrowed once for the run: through `self`, every bone's write would make
    /// the compiler reload each `Vec`'s pointer and length for the next bone.
    #[inline]
    fn update_applied_bone_run(&mut self, mut k: usize, frame: SkeletonFrame) -> usize {
        let steps = &self.order.steps[..];
        let bones = &mut self.bones[..];
        let links = &self.links[..];
        let trig = &mut self.trig[..];
        let first = k;
        while let Some(&UpdateStep::Bone(i)) = steps.get(k) {
            if k != first && !bones[i].applied_valid {
                break;
            }
            let pf = links[i].parent.map(|p| bones[p].frame());
            bones[i].update_world_from_applied_memo(pf, frame, &mut trig[i]);
            k += 1;
        }
        k
    }

    /// The 4.x frame: every bone's pose becomes its applied pose, bones compute their world
    /// transform from the applied pose (so a bone updated again after a constraint keeps what
    /// the constraint wrote), and constraints bring the applied poses they change up to date
    /// at once.
    fn update_world_transform_applied(&mut self, physics: Physics) {
        self.begin_applied_slots();
        for bone in &mut self.bones {
            bone.applied = bone.pose;
            bone.applied_valid = true;
        }
        let data = self.data.clone();
        let frame = self.frame;
        let n = self.order.steps.len();
        let mut k = 0;
        while k < n {
            match self.order.steps[k] {
                UpdateStep::Bone(i) => {
                    // A bone updated again after a constraint changed it reads the applied
                    // pose the constraint left.
                    if !self.bones[i].applied_valid {
                        self.ensure_applied(i);
                    }
                    k = self.update_applied_bone_run(k, frame);
                }
                UpdateStep::Constraint(c) => {
                    k += 1;
                    match c {
                        ConstraintRef::Ik(i) => self.apply_ik(&data, i),
                        ConstraintRef::Transform(i) => {
                            if data.transform_constraints[i].mapping.is_some() {
                                self.apply_transform43(&data, i)
                            } else {
                                self.apply_transform(&data, i)
                            }
                        }
                        ConstraintRef::Path(i) => self.apply_path(&data, i),
                        ConstraintRef::Physics(i) => self.apply_physics(&data, i, physics),
                        ConstraintRef::Slider(i) => self.apply_slider(&data, i),
                    }
                    // Constraints that change world matrices record their bones' parent
                    // frames themselves (`defer_applied`); a bone left without one gets the
                    // parent frame as the constraint leaves it.
                    if let ConstraintRef::Ik(_) = c {
                        for &b in data.constraint_bones(c) {
                            if !self.bones[b].applied_valid {
                                defer_applied(&mut self.bones, &mut self.applied_parent, &data, b);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// 4.x: a constraint changed bone `i`'s world transform. Its applied pose becomes the one
/// recovered under the parent's world transform as it is now (the runtimes compute it at
/// once, bone by bone, so a bone whose parent the constraint changes later keeps the applied
/// pose of the parent's earlier transform); it is computed when first read
/// ([`Skeleton::ensure_applied`], [`Skeleton::applied_pose`]). 3.8 derives it lazily under the
/// parent's transform at that time instead.
#[inline]
pub(crate) fn defer_applied(
    bones: &mut [Bone],
    applied_parent: &mut [Option<ParentFrame>],
    data: &SkeletonData,
    i: usize,
) {
    bones[i].applied_valid = false;
    if data.rules.pose_model == PoseModel::Applied {
        applied_parent[i] = data.bones[i].parent.map(|p| bones[p].frame());
    }
}
