//! Serde structs mirroring the DragonBones 4.0 / 4.5 JSON layout (docs/dragonbones.md §1).
//!
//! Unknown fields are ignored: exporters add editor-only data (`aabb`, `userEdges`, ...) and
//! later versions add fields that do not change a 4.x pose. Known fields must have the
//! right shape; numbers and booleans are read as loosely as the runtime reads them.

use serde::Deserialize;

use super::lenient::{DisplayType, Flag, Num};

/// Only the version fields, read before anything else so that files of other versions get a
/// version error rather than a layout error.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Versions {
    pub version: Option<Version>,
    #[serde(rename = "compatibleVersion")]
    pub compatible_version: Option<Version>,
}

/// A version, written as a string (`"4.5"`) or, by old exporters, a number (`2.3`).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Version(pub String);

impl<'de> Deserialize<'de> for Version {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            S(String),
            N(f64),
        }
        Ok(Version(match Raw::deserialize(d)? {
            Raw::S(s) => s,
            Raw::N(n) => n.to_string(),
        }))
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct File {
    pub name: Option<String>,
    #[serde(rename = "frameRate")]
    pub frame_rate: Num,
    pub version: Option<Version>,
    #[serde(rename = "compatibleVersion")]
    pub compatible_version: Option<Version>,
    #[serde(rename = "isGlobal")]
    pub is_global: Num,
    pub armature: Vec<Armature>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Armature {
    pub name: Option<String>,
    #[serde(rename = "frameRate")]
    pub frame_rate: Num,
    pub aabb: Option<Aabb>,
    #[serde(rename = "defaultActions")]
    pub default_actions: Vec<Action>,
    pub bone: Vec<Bone>,
    pub slot: Vec<Slot>,
    pub ik: Vec<Ik>,
    pub skin: Vec<Skin>,
    pub animation: Vec<Animation>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Aabb {
    pub x: Num,
    pub y: Num,
    pub width: Num,
    pub height: Num,
}

/// A slot's `blendMode`: a name (`"add"`) or the runtime's numeric `BlendMode`.
#[derive(Debug, Clone, PartialEq)]
pub enum BlendModeField {
    Name(String),
    Number(f64),
}

impl<'de> Deserialize<'de> for BlendModeField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            S(String),
            N(f64),
        }
        Ok(match Raw::deserialize(d)? {
            Raw::S(s) => BlendModeField::Name(s),
            Raw::N(n) => BlendModeField::Number(n),
        })
    }
}

/// A key frame's `action`: an animation name, or (some exporters) an object of playback
/// settings that may name none (`None` then).
#[derive(Debug, Clone, PartialEq)]
pub struct ActionField(pub Option<String>);

impl<'de> Deserialize<'de> for ActionField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            S(String),
            O(Action),
        }
        Ok(ActionField(match Raw::deserialize(d)? {
            Raw::S(s) => Some(s),
            Raw::O(a) => a.goto_and_play,
        }))
    }
}

/// `{"gotoAndPlay": "anim"}` (other action kinds are kept by name only).
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Action {
    #[serde(rename = "gotoAndPlay")]
    pub goto_and_play: Option<String>,
}

#[derive(Deserialize, Debug, Default, Clone, Copy)]
#[serde(default)]
pub struct Transform {
    pub x: Num,
    pub y: Num,
    #[serde(rename = "skX")]
    pub sk_x: Num,
    #[serde(rename = "skY")]
    pub sk_y: Num,
    #[serde(rename = "scX")]
    pub sc_x: Num,
    #[serde(rename = "scY")]
    pub sc_y: Num,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Bone {
    pub name: Option<String>,
    pub parent: Option<String>,
    pub length: Num,
    #[serde(rename = "inheritTranslation")]
    pub inherit_translation: Flag,
    #[serde(rename = "inheritRotation")]
    pub inherit_rotation: Flag,
    #[serde(rename = "inheritScale")]
    pub inherit_scale: Flag,
    pub transform: Transform,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct ColorTransform {
    #[serde(rename = "aM")]
    pub a_m: Num,
    #[serde(rename = "rM")]
    pub r_m: Num,
    #[serde(rename = "gM")]
    pub g_m: Num,
    #[serde(rename = "bM")]
    pub b_m: Num,
    #[serde(rename = "aO")]
    pub a_o: Num,
    #[serde(rename = "rO")]
    pub r_o: Num,
    #[serde(rename = "gO")]
    pub g_o: Num,
    #[serde(rename = "bO")]
    pub b_o: Num,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Slot {
    pub name: Option<String>,
    pub parent: Option<String>,
    #[serde(rename = "displayIndex")]
    pub display_index: Num,
    #[serde(rename = "blendMode")]
    pub blend_mode: Option<BlendModeField>,
    pub color: Option<ColorTransform>,
    pub actions: Vec<Action>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Ik {
    pub name: Option<String>,
    pub bone: Option<String>,
    pub target: Option<String>,
    pub chain: Num,
    #[serde(rename = "bendPositive")]
    pub bend_positive: Flag,
    pub weight: Num,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Skin {
    pub name: Option<String>,
    pub slot: Vec<SkinSlot>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct SkinSlot {
    pub name: Option<String>,
    pub display: Vec<Display>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Display {
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub kind: DisplayType,
    pub path: Option<String>,
    pub transform: Transform,
    pub vertices: Vec<f64>,
    pub uvs: Vec<f64>,
    pub triangles: Vec<u32>,
    pub edges: Vec<u32>,
    pub weights: Vec<f64>,
    #[serde(rename = "slotPose")]
    pub slot_pose: Vec<f64>,
    #[serde(rename = "bonePose")]
    pub bone_pose: Vec<f64>,
    pub width: Num,
    pub height: Num,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Animation {
    pub name: Option<String>,
    pub duration: Num,
    #[serde(rename = "playTimes")]
    pub play_times: Num,
    #[serde(rename = "fadeInTime")]
    pub fade_in_time: Num,
    pub scale: Num,
    pub frame: Vec<ActionFrame>,
    pub bone: Vec<BoneTimeline>,
    pub slot: Vec<SlotTimeline>,
    pub ffd: Vec<FfdTimeline>,
    #[serde(rename = "zOrder")]
    pub z_order: Option<ZOrderTimeline>,
}

/// What any key frame may fire: 4.x single fields and 5.x lists.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct FrameActions {
    pub event: Option<String>,
    pub sound: Option<String>,
    pub action: Option<ActionField>,
    pub events: Vec<EventEntry>,
    pub actions: Vec<Action>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct EventEntry {
    pub name: Option<String>,
    pub bone: Option<String>,
    pub slot: Option<String>,
    pub ints: Vec<f64>,
    pub floats: Vec<f64>,
    pub strings: Vec<String>,
}

/// An animation-level key frame (events, sounds, actions only).
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct ActionFrame {
    pub duration: Num,
    #[serde(flatten)]
    pub fire: FrameActions,
}

/// How a key frame tweens into the next.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Tween {
    #[serde(rename = "tweenEasing")]
    pub tween_easing: Num,
    pub curve: Option<Vec<f64>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct BoneTimeline {
    pub name: Option<String>,
    pub scale: Num,
    pub offset: Num,
    pub frame: Vec<BoneFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct BoneFrame {
    pub duration: Num,
    #[serde(flatten)]
    pub tween: Tween,
    #[serde(rename = "tweenRotate")]
    pub tween_rotate: Num,
    pub transform: Transform,
    #[serde(flatten)]
    pub fire: FrameActions,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct SlotTimeline {
    pub name: Option<String>,
    pub scale: Num,
    pub offset: Num,
    pub frame: Vec<SlotFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct SlotFrame {
    pub duration: Num,
    #[serde(flatten)]
    pub tween: Tween,
    #[serde(rename = "displayIndex")]
    pub display_index: Num,
    pub color: Option<ColorTransform>,
    #[serde(flatten)]
    pub fire: FrameActions,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct FfdTimeline {
    pub name: Option<String>,
    pub skin: Option<String>,
    pub slot: Option<String>,
    pub scale: Num,
    pub offset: Num,
    pub frame: Vec<FfdFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct FfdFrame {
    pub duration: Num,
    #[serde(flatten)]
    pub tween: Tween,
    pub offset: Num,
    pub vertices: Vec<f64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct ZOrderTimeline {
    pub frame: Vec<ZOrderFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct ZOrderFrame {
    pub duration: Num,
    #[serde(rename = "zOrder")]
    pub z_order: Vec<i64>,
}
