//! The runtime rules a skeleton plays by.
//!
//! The official Spine runtimes differ between versions in a few dozen specific places (the
//! version matrix of `shared/docs/spine-4x.md`). The core is one runtime; each place where the
//! versions disagree is one small enum here, and a loader records the set its format's runtime
//! follows in [`SkeletonData::rules`](super::SkeletonData). What a file *encodes* differently
//! (curve shapes, timeline kinds, constraint fields) is data, not a rule.

/// Which release of a runtime a rule set follows, for display and for choosing presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuntimeVersion {
    Spine37,
    Spine38,
    Spine40,
    Spine41,
    Spine42,
    Spine43,
    DragonBones,
    Mrtk,
}

/// How bone timelines blend rotations and scales.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoneBlendRule {
    /// 3.8: blended rotations wrap into one turn; additive scale keeps the sign rules.
    V38,
    /// 4.x: rotations are plain relative values (no wrapping); additive scale adds `v - s`.
    V4,
}

/// What a bone's world transform is computed from, and when its applied pose is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoseModel {
    /// 3.8: from the local pose; the applied pose is derived lazily after constraints.
    Local,
    /// 4.x: every frame copies the pose into the applied pose; world transforms come from
    /// the applied pose, and constraints update it eagerly.
    Applied,
}

/// The formula that recovers a bone's applied (local) transform from its world matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AppliedFormula {
    /// 3.8 to 4.1: the plain parent inverse, `+atan2` shear.
    V38,
    /// 4.1 root rule (subtracts the skeleton position) with the 3.8 formula otherwise.
    V40,
    /// 4.2: inherit-mode aware parent inverse, `-atan2` shear.
    V42,
    /// 4.3: local-from-world per inherit mode, reflections as a negative scaleY.
    V43,
}

/// IK solver differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IkRule {
    V38,
    V40,
    V41,
    V42,
    /// 4.3: guards at 1e-5, the IK angle wraps `<= -180`, and a two-bone parent keeps its
    /// shear (4.2 zeroed it).
    V43,
}

/// Transform and path constraint differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintRule {
    /// 3.8: four mixes (both axes share translate and scale), `> 0` tests.
    V38,
    /// 4.0: six mixes; local rotation/shear wrap; the early out ignores `mixScaleY`.
    V40,
    /// 4.1: as 4.0 with a correct early out.
    V41,
    /// 4.2: local rotation and shear do not wrap.
    V42,
    /// 4.3: transform constraints map properties (`TransformMapping`) with clamps.
    V43,
}

/// How the update order treats bones that constraints re-sort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateCacheRule {
    /// 3.8: a reset list restores applied poses; the 2-bone IK child is not pre-sorted.
    V38,
    /// 4.x: the applied pose is copied for every bone first; IK children are pre-sorted and
    /// local transform constraints sort their own bones.
    V4,
}

/// How AnimationState turns a mixing rotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RotateMixRule {
    /// 3.8: key differences and the result wrap.
    V38,
    /// 4.0/4.1: the 3.8 direction bookkeeping without wrapping the result.
    V40,
    /// 4.2: the `loops` form, ceil wrap of the difference.
    V42,
}

/// When a looping entry completes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompleteRule {
    /// `trackLast mod d > trackTime mod d` (3.8 to 4.1).
    Mod,
    /// `floor(trackTime / d) > floor(trackLast / d)` and > 0 (4.2).
    Floor,
}

/// How `addAnimation` turns a delay <= 0 into a start time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayRule {
    V38,
    /// `delay += trackComplete - mixDuration` (may stay negative).
    V40,
    /// As 4.0, clamped to >= 0.
    V42,
}

/// When a mix is found finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MixFinishedRule {
    /// `mixTime > 0 && mixTime >= mixDuration`.
    V38,
    /// The incoming entry was applied at least once and `mixTime >= mixDuration`.
    V42,
}

/// Physics solver differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PhysicsRule {
    /// 4.2: the pose is the last simulation step.
    V42,
    /// 4.3: sub-step interpolation ("lag"), wind/gravity directions, scaleY modes.
    V43,
}

/// Which events AnimationState fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventRule {
    /// 3.8-4.2: reversed entries fire none; events past `animationEnd` are dropped before
    /// `complete`, before `animationStart` after it.
    V38,
    /// 4.3: reversed entries fire the keys they pass (mirrored times); every event outside
    /// `[animationStart, animationEnd]` is dropped.
    V43,
}

/// How AnimationState decides and mixes timeline modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateRule {
    /// 3.7: attachment and draw-order timelines are applied as plain timelines (no per-slot
    /// "keyed this frame" bookkeeping); mixing out from the setup pose they put the setup
    /// attachment / draw order back whatever the thresholds, from the current pose an
    /// attachment timeline sets its keys while under `attachmentThreshold`.
    V37,
    /// 3.8-4.2: one property set across tracks; additive entries always add; holdPrevious;
    /// the interrupted entry's alpha scales the hold.
    V38,
    /// 4.3: properties are claimed per track (setup / first / current); additive entries
    /// use the modes too (unclaimed properties add to the setup pose); the hold alpha is the
    /// mix alpha over what the entry mixing in leaves.
    V43,
}

/// How AnimationState settles the attachment keys several entries set on one slot in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttachmentRule {
    /// 3.8-4.2: every application sets its key; a slot that no counted key set is put back to
    /// its setup attachment after all tracks.
    LastWins,
    /// 4.3: an application that does not retain (a mixing-out entry past its attachment
    /// threshold, an entry under its alpha threshold) leaves a slot alone once a retaining
    /// one set it this frame; its null key means the setup attachment.
    Retained,
}

/// What a point attachment's world rotation (`PointAttachment.computeWorldRotation`) reports.
/// Established black-box with the oracle (`tests/fixtures/point-rotation`): 4.2.119 gives the
/// 4.1 / 4.3 value times degRad squared for every point, bone rotation, scale and shear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointRotationRule {
    /// 3.7-4.1, 4.3: the world rotation in degrees.
    Degrees,
    /// 4.2: the world angle in radians multiplied by degRad where radDeg was meant, i.e.
    /// degrees × degRad² (a point at 55° reports 0.0168).
    DegRadSquared,
}

/// What `setAnimation` does with a current entry that was never applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnappliedRule {
    /// 3.8-4.2: it is replaced without a mix.
    Replace,
    /// 4.3: only when it has the same animation; otherwise it is mixed from as usual.
    ReplaceSameAnimation,
}

/// Every versioned rule. `Copy`: the runtime reads it from the skeleton's data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub version: RuntimeVersion,
    pub bone_blend: BoneBlendRule,
    pub pose_model: PoseModel,
    pub applied: AppliedFormula,
    pub ik: IkRule,
    pub constraints: ConstraintRule,
    pub update_cache: UpdateCacheRule,
    pub rotate_mix: RotateMixRule,
    pub complete: CompleteRule,
    pub delay: DelayRule,
    pub mix_finished: MixFinishedRule,
    pub physics: PhysicsRule,
    pub events: EventRule,
    pub state: StateRule,
    pub unapplied: UnappliedRule,
    pub attachments: AttachmentRule,
    pub point_rotation: PointRotationRule,
    /// 4.3: rgb, alpha and dark color channels are clamped to [0, 1] when blended.
    pub clamp_colors: bool,
    /// 4.3: constraint timelines honour an additive entry (transform / path mixes, path
    /// position, physics wind / gravity, slider time / mix add `v·α`; from setup they start
    /// at the setup value); earlier runtimes mix them toward the key whatever the blend.
    pub additive_constraints: bool,
    /// 4.2: attachment keys of the current entry need `alphaAttachmentThreshold`.
    pub alpha_attachment_threshold: bool,
    /// 4.2: a bone's inherit mode is part of its pose (animated by inherit timelines).
    pub inherit_in_pose: bool,
    /// 4.0+: `setAttachment` keeps the deform when old and new share a timeline attachment.
    pub keep_deform_same_timeline: bool,
    /// 4.x turns degrees into radians with the runtimes' own pi, 3.1415927 (it matters for
    /// rotations that accumulate to many turns).
    pub runtime_pi: bool,
}

impl Rules {
    /// Spine 3.7: the 3.8 rules except for AnimationState's hold modes and attachment
    /// timelines (IK softness and skin-required bones are data 3.7 cannot hold).
    pub const SPINE_37: Rules = Rules {
        version: RuntimeVersion::Spine37,
        state: StateRule::V37,
        ..Rules::SPINE_38
    };

    pub const SPINE_38: Rules = Rules {
        version: RuntimeVersion::Spine38,
        bone_blend: BoneBlendRule::V38,
        pose_model: PoseModel::Local,
        applied: AppliedFormula::V38,
        ik: IkRule::V38,
        constraints: ConstraintRule::V38,
        update_cache: UpdateCacheRule::V38,
        rotate_mix: RotateMixRule::V38,
        complete: CompleteRule::Mod,
        delay: DelayRule::V38,
        mix_finished: MixFinishedRule::V38,
        physics: PhysicsRule::V42,
        events: EventRule::V38,
        state: StateRule::V38,
        unapplied: UnappliedRule::Replace,
        attachments: AttachmentRule::LastWins,
        point_rotation: PointRotationRule::Degrees,
        clamp_colors: false,
        additive_constraints: false,
        alpha_attachment_threshold: false,
        inherit_in_pose: false,
        keep_deform_same_timeline: false,
        runtime_pi: false,
    };

    pub const SPINE_40: Rules = Rules {
        version: RuntimeVersion::Spine40,
        bone_blend: BoneBlendRule::V4,
        pose_model: PoseModel::Applied,
        applied: AppliedFormula::V40,
        ik: IkRule::V40,
        constraints: ConstraintRule::V40,
        update_cache: UpdateCacheRule::V4,
        rotate_mix: RotateMixRule::V40,
        complete: CompleteRule::Mod,
        delay: DelayRule::V40,
        mix_finished: MixFinishedRule::V38,
        physics: PhysicsRule::V42,
        events: EventRule::V38,
        state: StateRule::V38,
        unapplied: UnappliedRule::Replace,
        attachments: AttachmentRule::LastWins,
        point_rotation: PointRotationRule::Degrees,
        clamp_colors: false,
        additive_constraints: false,
        alpha_attachment_threshold: false,
        inherit_in_pose: false,
        keep_deform_same_timeline: true,
        runtime_pi: true,
    };

    pub const SPINE_41: Rules = Rules {
        version: RuntimeVersion::Spine41,
        ik: IkRule::V41,
        constraints: ConstraintRule::V41,
        ..Rules::SPINE_40
    };

    pub const SPINE_42: Rules = Rules {
        version: RuntimeVersion::Spine42,
        applied: AppliedFormula::V42,
        ik: IkRule::V42,
        constraints: ConstraintRule::V42,
        rotate_mix: RotateMixRule::V42,
        complete: CompleteRule::Floor,
        delay: DelayRule::V42,
        mix_finished: MixFinishedRule::V42,
        alpha_attachment_threshold: true,
        inherit_in_pose: true,
        point_rotation: PointRotationRule::DegRadSquared,
        ..Rules::SPINE_41
    };

    pub const SPINE_43: Rules = Rules {
        version: RuntimeVersion::Spine43,
        applied: AppliedFormula::V43,
        constraints: ConstraintRule::V43,
        ik: IkRule::V43,
        physics: PhysicsRule::V43,
        events: EventRule::V43,
        state: StateRule::V43,
        unapplied: UnappliedRule::ReplaceSameAnimation,
        attachments: AttachmentRule::Retained,
        clamp_colors: true,
        additive_constraints: true,
        point_rotation: PointRotationRule::Degrees,
        ..Rules::SPINE_42
    };

    /// DragonBones plays through the 3.8 rules (its differences are data: inherit modes,
    /// eases, frame grids).
    pub const DRAGONBONES: Rules = Rules {
        version: RuntimeVersion::DragonBones,
        ..Rules::SPINE_38
    };

    /// MRTK recordings: 3D joints, no constraints; the 3.8 rules apply to the rest.
    pub const MRTK: Rules = Rules {
        version: RuntimeVersion::Mrtk,
        ..Rules::SPINE_38
    };

    /// A short label for status lines ("Spine 4.2 rules").
    pub fn label(&self) -> &'static str {
        match self.version {
            RuntimeVersion::Spine37 => "Spine 3.7",
            RuntimeVersion::Spine38 => "Spine 3.8",
            RuntimeVersion::Spine40 => "Spine 4.0",
            RuntimeVersion::Spine41 => "Spine 4.1",
            RuntimeVersion::Spine42 => "Spine 4.2",
            RuntimeVersion::Spine43 => "Spine 4.3",
            RuntimeVersion::DragonBones => "DragonBones",
            RuntimeVersion::Mrtk => "MRTK",
        }
    }

    /// Radians per degree for bone transforms.
    pub fn deg_rad(&self) -> f64 {
        if self.runtime_pi {
            crate::core::math::SPINE_PI / 180.0
        } else {
            std::f64::consts::PI / 180.0
        }
    }

    /// True for the 4.x pose model and formulas.
    pub fn is_4x(&self) -> bool {
        self.pose_model == PoseModel::Applied
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::SPINE_38
    }
}
