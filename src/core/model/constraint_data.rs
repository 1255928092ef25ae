/// Two-bone or one-bone inverse kinematics.
#[derive(Clone, Debug, PartialEq)]
pub struct IkConstraintData {
    pub name: String,
    pub order: i32,
    pub skin_required: bool,
    /// One or two bones, parent first.
    pub bones: Vec<usize>,
    pub target: usize,
    pub mix: f64,
    pub softness: f64,
    /// +1 bends in the positive rotation direction, -1 negative.
    pub bend_direction: i32,
    pub compress: bool,
    pub stretch: bool,
    pub uniform: bool,
    /// Turn the chain's world transforms rigidly (DragonBones) rather than solving local
    /// rotations with Spine's scale, shear, softness and stretch rules.
    pub rigid: bool,
}

/// Copies (a mix of) a target bone's transform onto constrained bones.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformConstraintData {
    pub name: String,
    pub order: i32,
    pub skin_required: bool,
    pub bones: Vec<usize>,
    pub target: usize,
    pub offset_rotation: f64,
    pub offset_x: f64,
    pub offset_y: f64,
    pub offset_scale_x: f64,
    pub offset_scale_y: f64,
    pub offset_shear_y: f64,
    /// Mixes per property (3.8 files give x and y one translate mix, and one scale mix).
    pub mix_rotate: f64,
    pub mix_x: f64,
    pub mix_y: f64,
    pub mix_scale_x: f64,
    pub mix_scale_y: f64,
    pub mix_shear_y: f64,
    pub local: bool,
    pub relative: bool,
}

/// How a path constraint's position is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum PositionMode {
    Fixed,
    #[default]
    Percent,
}

/// How the spacing between bones on a path is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SpacingMode {
    #[default]
    Length,
    Fixed,
    Percent,
    /// Spine 4.x: spaces proportional to the bones' lengths, filling the path.
    Proportional,
}

/// How bones on a path are rotated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RotateMode {
    #[default]
    Tangent,
    Chain,
    ChainScale,
}

/// Places bones along a path attachment.
#[derive(Clone, Debug, PartialEq)]
pub struct PathConstraintData {
    pub name: String,
    pub order: i32,
    pub skin_required: bool,
    pub bones: Vec<usize>,
    /// The slot whose path attachment is followed.
    pub target: usize,
    pub position_mode: PositionMode,
    pub spacing_mode: SpacingMode,
    pub rotate_mode: RotateMode,
    pub offset_rotation: f64,
    pub position: f64,
    pub spacing: f64,
    pub mix_rotate: f64,
    /// 3.8 files give x and y one translate mix.
    pub mix_x: f64,
    pub mix_y: f64,
}

/// A reference to any constraint, in one list ordered by `order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintRef {
    Ik(usize),
    Transform(usize),
    Path(usize),
    /// A Spine 4.2 physics constraint.
    Physics(usize),
}
