/// How a bone inherits its parent's world transform.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Inherit {
    #[default]
    Normal,
    OnlyTranslation,
    NoRotationOrReflection,
    NoScale,
    NoScaleOrReflection,
    /// DragonBones' rules (its `inheritTranslation`, `inheritRotation`, `inheritScale`). With
    /// `scale` the world transform is parent x local, less the parent's world rotation when
    /// not inheriting rotation. Without `scale` only the position goes through the parent
    /// matrix; the rotation adds the parent's world x-axis angle (mirrored under a reflecting
    /// parent) and scale and shear are the bone's own. Never all three true: that is `Normal`.
    DragonBones {
        translation: bool,
        rotation: bool,
        scale: bool,
    },
}

impl Inherit {
    /// The name used by Spine's JSON export.
    pub fn name(self) -> &'static str {
        match self {
            Inherit::Normal => "normal",
            Inherit::OnlyTranslation => "onlyTranslation",
            Inherit::NoRotationOrReflection => "noRotationOrReflection",
            Inherit::NoScale => "noScale",
            Inherit::NoScaleOrReflection => "noScaleOrReflection",
            Inherit::DragonBones {
                translation,
                rotation,
                scale,
            } => match (translation, rotation, scale) {
                (true, true, true) => "normal",
                (true, true, false) => "inheritScale=false",
                (true, false, true) => "inheritRotation=false",
                (true, false, false) => "inheritRotation=false inheritScale=false",
                (false, true, true) => "inheritTranslation=false",
                (false, true, false) => "inheritTranslation=false inheritScale=false",
                (false, false, true) => "inheritTranslation=false inheritRotation=false",
                (false, false, false) => "inherits nothing",
            },
        }
    }
}

/// A bone's setup pose and hierarchy position. Bones are ordered parent before child.
#[derive(Clone, Debug, PartialEq)]
pub struct BoneData {
    pub name: String,
    pub parent: Option<usize>,
    pub length: f64,
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub scale_x: f64,
    pub scale_y: f64,
    pub shear_x: f64,
    pub shear_y: f64,
    pub inherit: Inherit,
    /// Active only when the skeleton's skin lists this bone.
    pub skin_required: bool,
    /// Editor color (nonessential); `None` when the file does not say.
    pub color: Option<crate::core::color::Color>,
    /// A 3D pose next to the 2D transform (MRTK joints, camera, gaze); `None` for 2D bones.
    pub joint3: Option<super::Joint3Setup>,
    /// A DragonBones surface bone's lattice (boxed: most bones have none). Such a bone's
    /// world transform and its children's come from the lattice, not from its pose.
    pub lattice: Option<Box<super::Lattice>>,
}

impl BoneData {
    /// A bone at the origin with identity transform.
    pub fn new(name: impl Into<String>, parent: Option<usize>) -> BoneData {
        BoneData {
            name: name.into(),
            parent,
            length: 0.0,
            x: 0.0,
            y: 0.0,
            rotation: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            shear_x: 0.0,
            shear_y: 0.0,
            inherit: Inherit::Normal,
            skin_required: false,
            color: None,
            joint3: None,
            lattice: None,
        }
    }
}
