//! Serde structs mirroring the DragonBones 4.0 / 4.5 JSON layout (docs/dragonbones.md §1).
//!
//! Unknown fields are ignored: exporters add editor-only data (`aabb`, `userEdges`, ...) and
//! later versions add fields that do not change a 4.x pose. Known fields must have the
//! right shape; numbers and booleans are read as loosely as the runtime reads them.

use serde::Deserialize;

use super::lenient::{DisplayType, Flag, Num};
use crate::format::json::SmallKey;
use crate::format::json::number::{opt_numbers, vec_numbers};

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
    pub name: Option<SmallKey>,
    #[serde(rename = "frameRate")]
    pub frame_rate: Num,
    pub version: Option<Version>,
    #[serde(rename = "compatibleVersion")]
    pub compatible_version: Option<Version>,
    #[serde(rename = "isGlobal")]
    pub is_global: Num,
    pub armature: Vec<Armature>,
    /// `.dbbin`: byte offset and length of each typed array in the binary block.
    #[serde(deserialize_with = "vec_numbers")]
    pub offset: Vec<f64>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Armature {
    pub name: Option<SmallKey>,
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
    /// `.dbbin`: the events, sounds and actions its action key frames fire, by index.
    pub actions: Vec<BinAction>,
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
pub struct ActionField(pub Option<SmallKey>);

impl<'de> Deserialize<'de> for ActionField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            S(String),
            O(Action),
        }
        Ok(ActionField(match Raw::deserialize(d)? {
            Raw::S(s) => Some(s.into()),
            Raw::O(a) => a.goto_and_play,
        }))
    }
}

/// A 5.x `actions` entry: `{"gotoAndPlay": "anim"}`, or `{"type": T, "name": N}` (type 0 or
/// none: play N; 10: a frame event N; any other: a sound event N, as DragonBonesJS 5.6.300
/// fires them).
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Action {
    #[serde(rename = "gotoAndPlay")]
    pub goto_and_play: Option<SmallKey>,
    #[serde(rename = "type")]
    pub kind: super::lenient::Num,
    pub name: Option<SmallKey>,
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
    pub name: Option<SmallKey>,
    pub parent: Option<SmallKey>,
    pub length: Num,
    #[serde(rename = "inheritTranslation")]
    pub inherit_translation: Flag,
    #[serde(rename = "inheritRotation")]
    pub inherit_rotation: Flag,
    #[serde(rename = "inheritScale")]
    pub inherit_scale: Flag,
    pub transform: Transform,
    /// 5.6: `"bone"` (default) or `"surface"` (a lattice of `segmentX` x `segmentY` cells
    /// through `vertices`).
    #[serde(rename = "type")]
    pub kind: Option<SmallKey>,
    #[serde(deserialize_with = "vec_numbers")]
    pub vertices: Vec<f64>,
    /// 5.6 surface: the lattice's cells across (required: without it the runtime computes NaN).
    #[serde(rename = "segmentX")]
    pub segment_x: Num,
    /// 5.6 surface: the lattice's cells down.
    #[serde(rename = "segmentY")]
    pub segment_y: Num,
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
    pub name: Option<SmallKey>,
    pub parent: Option<SmallKey>,
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
    pub name: Option<SmallKey>,
    pub bone: Option<SmallKey>,
    pub target: Option<SmallKey>,
    pub chain: Num,
    #[serde(rename = "bendPositive")]
    pub bend_positive: Flag,
    pub weight: Num,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Skin {
    pub name: Option<SmallKey>,
    pub slot: Vec<SkinSlot>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct SkinSlot {
    pub name: Option<SmallKey>,
    pub display: Vec<Display>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Display {
    pub name: Option<SmallKey>,
    #[serde(rename = "type")]
    pub kind: DisplayType,
    pub path: Option<SmallKey>,
    pub transform: Transform,
    #[serde(deserialize_with = "vec_numbers")]
    pub vertices: Vec<f64>,
    #[serde(deserialize_with = "vec_numbers")]
    pub uvs: Vec<f64>,
    #[serde(deserialize_with = "vec_numbers")]
    pub triangles: Vec<u32>,
    #[serde(deserialize_with = "vec_numbers")]
    pub edges: Vec<u32>,
    #[serde(deserialize_with = "vec_numbers")]
    pub weights: Vec<f64>,
    #[serde(rename = "slotPose")]
    #[serde(deserialize_with = "vec_numbers")]
    pub slot_pose: Vec<f64>,
    #[serde(rename = "bonePose")]
    #[serde(deserialize_with = "vec_numbers")]
    pub bone_pose: Vec<f64>,
    pub width: Num,
    pub height: Num,
    /// `.dbbin`: where the mesh starts in the int array.
    pub offset: Num,
    /// A `.dbbin` skinned mesh: per vertex, its influences already in bone space.
    #[serde(skip)]
    pub bound: Option<Vec<Vec<Influence>>>,
}

/// One bone's hold on a skinned vertex: the bone (file index), the vertex in that bone's bind
/// space (y-down) and the weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Influence {
    pub bone: usize,
    pub x: f64,
    pub y: f64,
    pub weight: f64,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Animation {
    pub name: Option<SmallKey>,
    pub duration: Num,
    #[serde(rename = "playTimes")]
    pub play_times: Num,
    #[serde(rename = "fadeInTime")]
    pub fade_in_time: Num,
    pub scale: Num,
    pub frame: Vec<ActionFrame>,
    pub bone: Tracks<BoneTimeline>,
    pub slot: Tracks<SlotTimeline>,
    pub ffd: Vec<FfdTimeline>,
    /// 5.6 surface timelines: offsets of a surface bone's lattice vertices (`name` the bone;
    /// frames as `ffd`'s: `offset`, `vertices`).
    pub surface: Vec<FfdTimeline>,
    /// `.dbbin`: where this animation's frame data starts in the typed arrays.
    #[serde(deserialize_with = "vec_numbers")]
    pub offset: Vec<f64>,
    /// 5.6 keys the 5.6.300 runtime ignores (animation trees, parameter timelines).
    #[serde(rename = "type")]
    pub kind: Option<serde::de::IgnoredAny>,
    #[serde(rename = "blendType")]
    pub blend_type: Option<serde::de::IgnoredAny>,
    pub timeline: Option<serde::de::IgnoredAny>,
    #[serde(rename = "zOrder")]
    pub z_order: Option<ZOrderTimeline>,
    /// 5.5 IK constraint timelines.
    pub ik: Vec<IkTimeline>,
    /// `.dbbin`: the action timeline's offset into the timeline array.
    pub action: Num,
    /// `.dbbin`: constraint name to `[timeline type, timeline offset, ...]`.
    pub constraint: Tracks<IkTimeline>,
}

/// A `.dbbin` header's armature-level action: `type` 0 play, 10 event, 11 sound.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct BinAction {
    #[serde(rename = "type")]
    pub kind: Num,
    #[serde(flatten)]
    pub entry: EventEntry,
}

/// A 5.5 IK timeline: `weight` tweens, `bendPositive` holds until the next key frame.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct IkTimeline {
    pub name: Option<SmallKey>,
    pub scale: Num,
    pub offset: Num,
    pub frame: Vec<IkFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::IkFrame")]
pub struct IkFrame {
    pub duration: Num,
    pub tween: Tween,
    pub bend_positive: Flag,
    pub weight: Num,
}

/// A key frame's fired actions: `None` when it fires nothing, as most frames (boxed, so a
/// frame list moves small frames while it grows).
pub type Fired = Option<Box<FrameActions>>;

/// What any key frame may fire: 4.x single fields and 5.x lists.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct FrameActions {
    // Strings rather than inline keys: rare, and every frame's wire record carries both
    // (inline keys made each record larger to move; `action` as a `String` measured no better).
    pub event: Option<String>,
    pub sound: Option<String>,
    pub action: Option<ActionField>,
    pub events: Vec<EventEntry>,
    pub actions: Vec<Action>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct EventEntry {
    pub name: Option<SmallKey>,
    pub bone: Option<SmallKey>,
    pub slot: Option<SmallKey>,
    #[serde(deserialize_with = "vec_numbers")]
    pub ints: Vec<f64>,
    #[serde(deserialize_with = "vec_numbers")]
    pub floats: Vec<f64>,
    pub strings: Vec<String>,
}

/// An animation-level key frame (events, sounds, actions only).
#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::ActionFrame")]
pub struct ActionFrame {
    pub duration: Num,
    pub fire: Fired,
    /// `.dbbin`: the bone or slot a sound was keyed on (JSON keys it on that bone's frame).
    pub origin: String,
}

/// How a key frame tweens into the next.
#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct Tween {
    #[serde(rename = "tweenEasing")]
    pub tween_easing: Num,
    #[serde(deserialize_with = "opt_numbers")]
    pub curve: Option<Vec<f64>>,
    /// A curve already sampled for its key frame's length (`.dbbin` stores no control points).
    #[serde(skip)]
    pub samples: Option<Vec<f32>>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct BoneTimeline {
    pub name: Option<SmallKey>,
    pub scale: Num,
    pub offset: Num,
    /// 4.x / 5.0: one combined list.
    pub frame: Vec<BoneFrame>,
    /// 5.5: split lists, each with its own key frames.
    #[serde(rename = "translateFrame")]
    pub translate_frame: Vec<XyFrame>,
    #[serde(rename = "rotateFrame")]
    pub rotate_frame: Vec<RotateFrame>,
    #[serde(rename = "scaleFrame")]
    pub scale_frame: Vec<XyFrame>,
}

/// A 5.5 `translateFrame` (offsets, default 0) or `scaleFrame` (factors, default 1).
#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::XyFrame")]
pub struct XyFrame {
    pub duration: Num,
    pub tween: Tween,
    pub x: Num,
    pub y: Num,
}

/// A 5.5 `rotateFrame`: degrees added to the setup rotation and skew; `clockwise` asks for
/// extra turns like 4.x `tweenRotate`.
#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::RotateFrame")]
pub struct RotateFrame {
    pub duration: Num,
    pub tween: Tween,
    pub rotate: Num,
    pub skew: Num,
    pub clockwise: Num,
    /// Rotation and skew in radians, rotation already unwrapped (`.dbbin` stores them so).
    pub radians: Option<(f64, f64)>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::BoneFrame")]
pub struct BoneFrame {
    pub duration: Num,
    pub tween: Tween,
    pub tween_rotate: Num,
    pub transform: Transform,
    pub fire: Fired,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct SlotTimeline {
    pub name: Option<SmallKey>,
    pub scale: Num,
    pub offset: Num,
    /// 4.x / 5.0: one combined list.
    pub frame: Vec<SlotFrame>,
    /// 5.5: display indices (stepped), which may also fire actions.
    #[serde(rename = "displayFrame")]
    pub display_frame: Vec<DisplayFrame>,
    /// 5.5: colors, tweened.
    #[serde(rename = "colorFrame")]
    pub color_frame: Vec<ColorFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::DisplayFrame")]
pub struct DisplayFrame {
    pub duration: Num,
    pub value: Num,
    pub fire: Fired,
}

/// A 5.5 `colorFrame`: the color is `value` (5.5 exports also wrote `color`).
#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::ColorFrame")]
pub struct ColorFrame {
    pub duration: Num,
    pub tween: Tween,
    pub value: Option<ColorTransform>,
    pub color: Option<ColorTransform>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::SlotFrame")]
pub struct SlotFrame {
    pub duration: Num,
    pub tween: Tween,
    pub display_index: Num,
    pub color: Option<ColorTransform>,
    pub fire: Fired,
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct FfdTimeline {
    pub name: Option<SmallKey>,
    pub skin: Option<SmallKey>,
    pub slot: Option<SmallKey>,
    pub scale: Num,
    pub offset: Num,
    pub frame: Vec<FfdFrame>,
}

#[derive(Deserialize, Debug, Default)]
#[serde(from = "super::frame_wire::FfdFrame")]
pub struct FfdFrame {
    pub duration: Num,
    pub tween: Tween,
    pub offset: Num,
    pub vertices: Vec<f64>,
    /// `.dbbin` of a skinned mesh: offsets per influence in its bone's bind space (dx, dy),
    /// which JSON derives from `vertices`.
    pub influences: Option<Vec<f64>>,
}

/// A zOrder timeline: a `frame` list in JSON, in a `.dbbin` header its offset into the
/// timeline array (`binary`, the frames then read from the arrays).
#[derive(Debug, Default)]
pub struct ZOrderTimeline {
    pub frame: Vec<ZOrderFrame>,
    pub binary: Option<f64>,
}

impl<'de> Deserialize<'de> for ZOrderTimeline {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{MapAccess, Visitor, value::MapAccessDeserializer};
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Json {
            frame: Vec<ZOrderFrame>,
        }
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ZOrderTimeline;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a zOrder timeline (or a .dbbin timeline offset)")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ZOrderTimeline, A::Error> {
                let j = Json::deserialize(MapAccessDeserializer::new(map))?;
                Ok(ZOrderTimeline {
                    frame: j.frame,
                    binary: None,
                })
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<ZOrderTimeline, E> {
                Ok(ZOrderTimeline {
                    frame: Vec::new(),
                    binary: Some(v),
                })
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<ZOrderTimeline, E> {
                self.visit_f64(v as f64)
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<ZOrderTimeline, E> {
                self.visit_f64(v as f64)
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize, Debug, Default)]
#[serde(default)]
pub struct ZOrderFrame {
    pub duration: Num,
    #[serde(rename = "zOrder")]
    pub z_order: Vec<i64>,
    /// `.dbbin`: the draw order itself (slot indices, first drawn first).
    #[serde(skip)]
    pub order: Option<Vec<usize>>,
}

/// An animation's bone or slot timelines: a list in JSON; in a `.dbbin` header a map from
/// bone or slot name to `[timeline type, timeline offset, ...]` into the binary arrays.
#[derive(Debug)]
pub enum Tracks<T> {
    List(Vec<T>),
    Refs(Vec<(String, Vec<f64>)>),
}

impl<T> Default for Tracks<T> {
    fn default() -> Self {
        Tracks::List(Vec::new())
    }
}

impl<T> Tracks<T> {
    /// The timelines read (none while binary references are unresolved).
    pub fn list(&self) -> &[T] {
        match self {
            Tracks::List(v) => v,
            Tracks::Refs(_) => &[],
        }
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Tracks<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{MapAccess, SeqAccess, Visitor};
        use std::marker::PhantomData;
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Tracks<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list of timelines")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Tracks<T>, A::Error> {
                let mut v = Vec::new();
                while let Some(t) = seq.next_element()? {
                    v.push(t);
                }
                Ok(Tracks::List(v))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Tracks<T>, A::Error> {
                let mut v = Vec::new();
                while let Some(entry) = map.next_entry::<String, Vec<f64>>()? {
                    v.push(entry);
                }
                Ok(Tracks::Refs(v))
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}
