//! The Spine 4.3 JSON document: what differs from 4.2 at the top level (one `constraints`
//! list whose order is the update order). Bones, slots, skins, events and animations keep the
//! 4.x structs ([`super::dto`], [`super::dto_anim4`]), which accept the 4.3 additions.

use serde::Deserialize;

use super::dto::{BoneDto, EventDto, SkeletonInfo, SkinDto, SlotDto, roomy_map};
use super::dto_anim4::AnimationDto;
use crate::format::json::OrderedMap;

/// A whole 4.3 file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkeletonFile43 {
    pub skeleton: SkeletonInfo,
    #[serde(default)]
    pub bones: Vec<BoneDto>,
    #[serde(default)]
    pub slots: Vec<SlotDto>,
    #[serde(default)]
    pub constraints: Vec<ConstraintDto>,
    /// The 4.2 arrays: a 4.3 runtime does not read them.
    #[serde(rename = "ik")]
    pub _ik: Option<serde::de::IgnoredAny>,
    #[serde(rename = "transform")]
    pub _transform: Option<serde::de::IgnoredAny>,
    #[serde(rename = "path")]
    pub _path: Option<serde::de::IgnoredAny>,
    #[serde(rename = "physics")]
    pub _physics: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    pub skins: Vec<SkinDto>,
    #[serde(default)]
    pub events: OrderedMap<EventDto>,
    #[serde(
        default = "OrderedMap::default",
        deserialize_with = "roomy_map::<16, _, _>"
    )]
    pub animations: OrderedMap<AnimationDto>,
}

/// The `type` of a constraint.
#[derive(Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
pub enum ConstraintType {
    Ik,
    Transform,
    Path,
    Physics,
    Slider,
}

impl ConstraintType {
    pub fn name(self) -> &'static str {
        match self {
            ConstraintType::Ik => "ik",
            ConstraintType::Transform => "transform",
            ConstraintType::Path => "path",
            ConstraintType::Physics => "physics",
            ConstraintType::Slider => "slider",
        }
    }
}

/// A number (transform `scaleY` offset) or a name (IK / physics `scaleY` mode).
#[derive(Deserialize, Clone, Debug)]
#[serde(untagged)]
pub enum NumberOrName {
    Number(f64),
    Name(String),
}

/// Every constraint type's fields in one flat struct (as attachments: parsing needs no
/// buffering); which fields a type may use is checked by the builder.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ConstraintDto {
    #[serde(rename = "type")]
    pub kind: ConstraintType,
    pub name: String,
    #[serde(default)]
    pub skin: bool,
    pub bones: Option<Vec<String>>,
    pub bone: Option<String>,
    pub target: Option<String>,
    pub source: Option<String>,
    pub slot: Option<String>,
    // IK
    pub mix: Option<f64>,
    pub softness: Option<f64>,
    pub bend_positive: Option<bool>,
    pub compress: Option<bool>,
    pub stretch: Option<bool>,
    pub scale_y: Option<NumberOrName>,
    // transform / path / physics offsets and channels
    pub rotation: Option<f64>,
    pub rotate: Option<f64>,
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub scale_x: Option<f64>,
    pub shear_x: Option<f64>,
    pub shear_y: Option<f64>,
    // transform
    pub local_source: Option<bool>,
    pub local_target: Option<bool>,
    pub additive: Option<bool>,
    pub clamp: Option<bool>,
    pub properties: Option<OrderedMap<MappedFromDto>>,
    pub mix_rotate: Option<f64>,
    pub mix_x: Option<f64>,
    pub mix_y: Option<f64>,
    pub mix_scale_x: Option<f64>,
    pub mix_scale_y: Option<f64>,
    pub mix_shear_y: Option<f64>,
    // path
    pub position_mode: Option<super::dto::PositionModeDto>,
    pub spacing_mode: Option<super::dto::SpacingModeDto>,
    pub rotate_mode: Option<super::dto::RotateModeDto>,
    pub position: Option<f64>,
    pub spacing: Option<f64>,
    // physics
    pub limit: Option<f64>,
    pub fps: Option<f64>,
    pub inertia: Option<f64>,
    pub strength: Option<f64>,
    pub damping: Option<f64>,
    pub mass: Option<f64>,
    pub wind: Option<f64>,
    pub gravity: Option<f64>,
    pub inertia_global: Option<bool>,
    pub strength_global: Option<bool>,
    pub damping_global: Option<bool>,
    pub mass_global: Option<bool>,
    pub wind_global: Option<bool>,
    pub gravity_global: Option<bool>,
    pub mix_global: Option<bool>,
    // slider
    pub animation: Option<String>,
    #[serde(rename = "loop")]
    pub looping: Option<bool>,
    pub time: Option<f64>,
    pub property: Option<String>,
    pub from: Option<f64>,
    pub to: Option<f64>,
    pub scale: Option<f64>,
    pub local: Option<bool>,
    pub max: Option<f64>,
}

/// A transform constraint's source property: its offset and the properties it drives.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MappedFromDto {
    #[serde(default)]
    pub offset: f64,
    #[serde(default)]
    pub to: OrderedMap<MappedToDto>,
}

/// One driven property.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MappedToDto {
    #[serde(default)]
    pub offset: f64,
    #[serde(default = "one")]
    pub max: f64,
    #[serde(default = "one")]
    pub scale: f64,
}

fn one() -> f64 {
    1.0
}

impl ConstraintDto {
    /// The JSON names of the fields present (besides `type`, `name` and `skin`).
    pub fn present_fields(&self) -> impl Iterator<Item = &'static str> {
        [
            ("bones", self.bones.is_some()),
            ("bone", self.bone.is_some()),
            ("target", self.target.is_some()),
            ("source", self.source.is_some()),
            ("slot", self.slot.is_some()),
            ("mix", self.mix.is_some()),
            ("softness", self.softness.is_some()),
            ("bendPositive", self.bend_positive.is_some()),
            ("compress", self.compress.is_some()),
            ("stretch", self.stretch.is_some()),
            ("scaleY", self.scale_y.is_some()),
            ("rotation", self.rotation.is_some()),
            ("rotate", self.rotate.is_some()),
            ("x", self.x.is_some()),
            ("y", self.y.is_some()),
            ("scaleX", self.scale_x.is_some()),
            ("shearX", self.shear_x.is_some()),
            ("shearY", self.shear_y.is_some()),
            ("localSource", self.local_source.is_some()),
            ("localTarget", self.local_target.is_some()),
            ("additive", self.additive.is_some()),
            ("clamp", self.clamp.is_some()),
            ("properties", self.properties.is_some()),
            ("mixRotate", self.mix_rotate.is_some()),
            ("mixX", self.mix_x.is_some()),
            ("mixY", self.mix_y.is_some()),
            ("mixScaleX", self.mix_scale_x.is_some()),
            ("mixScaleY", self.mix_scale_y.is_some()),
            ("mixShearY", self.mix_shear_y.is_some()),
            ("positionMode", self.position_mode.is_some()),
            ("spacingMode", self.spacing_mode.is_some()),
            ("rotateMode", self.rotate_mode.is_some()),
            ("position", self.position.is_some()),
            ("spacing", self.spacing.is_some()),
            ("limit", self.limit.is_some()),
            ("fps", self.fps.is_some()),
            ("inertia", self.inertia.is_some()),
            ("strength", self.strength.is_some()),
            ("damping", self.damping.is_some()),
            ("mass", self.mass.is_some()),
            ("wind", self.wind.is_some()),
            ("gravity", self.gravity.is_some()),
            ("inertiaGlobal", self.inertia_global.is_some()),
            ("strengthGlobal", self.strength_global.is_some()),
            ("dampingGlobal", self.damping_global.is_some()),
            ("massGlobal", self.mass_global.is_some()),
            ("windGlobal", self.wind_global.is_some()),
            ("gravityGlobal", self.gravity_global.is_some()),
            ("mixGlobal", self.mix_global.is_some()),
            ("animation", self.animation.is_some()),
            ("loop", self.looping.is_some()),
            ("time", self.time.is_some()),
            ("property", self.property.is_some()),
            ("from", self.from.is_some()),
            ("to", self.to.is_some()),
            ("scale", self.scale.is_some()),
            ("local", self.local.is_some()),
            ("max", self.max.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, present)| present.then_some(name))
    }
}

impl ConstraintType {
    /// The fields (besides `type`, `name`, `skin`) this type uses.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            ConstraintType::Ik => &[
                "bones",
                "target",
                "mix",
                "softness",
                "bendPositive",
                "compress",
                "stretch",
                "scaleY",
            ],
            ConstraintType::Transform => &[
                "bones",
                "source",
                "localSource",
                "localTarget",
                "additive",
                "clamp",
                "properties",
                "rotation",
                "x",
                "y",
                "scaleX",
                "scaleY",
                "shearY",
                "mixRotate",
                "mixX",
                "mixY",
                "mixScaleX",
                "mixScaleY",
                "mixShearY",
            ],
            ConstraintType::Path => &[
                "bones",
                "slot",
                "positionMode",
                "spacingMode",
                "rotateMode",
                "rotation",
                "position",
                "spacing",
                "mixRotate",
                "mixX",
                "mixY",
            ],
            ConstraintType::Physics => &[
                "bone",
                "x",
                "y",
                "rotate",
                "scaleX",
                "shearX",
                "scaleY",
                "limit",
                "fps",
                "inertia",
                "strength",
                "damping",
                "mass",
                "wind",
                "gravity",
                "mix",
                "inertiaGlobal",
                "strengthGlobal",
                "dampingGlobal",
                "massGlobal",
                "windGlobal",
                "gravityGlobal",
                "mixGlobal",
            ],
            ConstraintType::Slider => &[
                "animation",
                "additive",
                "loop",
                "mix",
                "time",
                "bone",
                "property",
                "from",
                "to",
                "scale",
                "local",
                "max",
            ],
        }
    }
}
