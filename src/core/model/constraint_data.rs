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
    /// Spine 4.3 `scaleY: "volume"`: a stretch along x divides y to keep the area.
    pub volume: bool,
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
    /// Spine 4.3: the redesigned constraint (property mapping, clamps, separate local flags).
    /// `None` for 3.8-4.2 data, which the `local` / `relative` flags describe.
    pub mapping: Option<TransformMapping>,
}

/// A bone property a 4.3 transform constraint or slider reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoneProperty43 {
    Rotate,
    X,
    Y,
    ScaleX,
    ScaleY,
    ShearY,
}

impl BoneProperty43 {
    /// The JSON name ("rotate", "x", ...), or `None`.
    pub fn from_name(name: &str) -> Option<BoneProperty43> {
        Some(match name {
            "rotate" => BoneProperty43::Rotate,
            "x" => BoneProperty43::X,
            "y" => BoneProperty43::Y,
            "scaleX" => BoneProperty43::ScaleX,
            "scaleY" => BoneProperty43::ScaleY,
            "shearY" => BoneProperty43::ShearY,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            BoneProperty43::Rotate => "rotate",
            BoneProperty43::X => "x",
            BoneProperty43::Y => "y",
            BoneProperty43::ScaleX => "scaleX",
            BoneProperty43::ScaleY => "scaleY",
            BoneProperty43::ShearY => "shearY",
        }
    }

    /// True for the translation properties (in skeleton units, so scaled by the loader).
    pub fn is_translation(self) -> bool {
        matches!(self, BoneProperty43::X | BoneProperty43::Y)
    }
}

/// Spine 4.3 transform constraint: which source property drives which target properties.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformMapping {
    /// Read the source's local (applied) values instead of its world transform.
    pub local_source: bool,
    /// Write the constrained bones' local values instead of their world transform.
    pub local_target: bool,
    /// Add to the constrained value instead of mixing toward it.
    pub additive: bool,
    /// Clamp each mapped value between the to-entry's offset and max.
    pub clamp: bool,
    /// In file order; from-entries without to-entries are dropped at load.
    pub from: Vec<MappedFrom>,
}

/// One source property of a [`TransformMapping`].
#[derive(Clone, Debug, PartialEq)]
pub struct MappedFrom {
    pub property: BoneProperty43,
    pub offset: f64,
    pub to: Vec<MappedTo>,
}

/// One target property a source property drives: `offset + (source - from.offset) * scale`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MappedTo {
    pub property: BoneProperty43,
    pub offset: f64,
    pub max: f64,
    pub scale: f64,
}

/// Spine 4.3 slider: applies (part of) an animation to the applied poses at a time that is
/// stored / keyed, or derived from a bone property.
#[derive(Clone, Debug, PartialEq)]
pub struct SliderConstraintData {
    pub name: String,
    pub order: i32,
    pub skin_required: bool,
    /// The animation it applies (index into `SkeletonData::animations`).
    pub animation: usize,
    pub additive: bool,
    pub looping: bool,
    pub mix: f64,
    /// Setup slider time (seconds); used when there is no driving bone.
    pub time: f64,
    /// The driving bone and how its property maps to a time.
    pub driver: Option<SliderDriver>,
    /// The bones the animation keys (filled at load): the slider changes their applied poses.
    pub keyed_bones: Vec<usize>,
}

/// How a slider's time follows a bone: `time = to + (property - from) * scale`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SliderDriver {
    pub bone: usize,
    pub property: BoneProperty43,
    pub from: f64,
    pub to: f64,
    pub scale: f64,
    /// Read the bone's local (applied) value instead of its world value.
    pub local: bool,
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
    /// A Spine 4.3 slider.
    Slider(usize),
}
