//! The Spine 4.0-4.2 JSON document: animations and their keys.
//!
//! 4.x keys carry one value per channel (`value`, or `x`/`y`, colors, mixes) and a `curve` that
//! is `"stepped"` or four absolute numbers per channel. Values stay in the file's precision
//! ([`Raw32`]) until the bezier tables are built from them. The timelines of a bone, a slot
//! and a path constraint are kept in file order (the runtimes apply them in that order).

use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use super::curve::key_structs;
use super::dto::roomy_map;
use super::dto_anim::{AttachmentKey, DrawOrderKey, EventKey};
use super::dto_keys4::KeyList4;
use crate::format::json::list::{List, opt_list};
use crate::format::json::number::opt_numbers;
use crate::format::json::ordered_map::MapKey;
use crate::format::json::{OrderedMap, Raw32, SmallKey};

/// One animation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AnimationDto {
    #[serde(default, deserialize_with = "roomy_map::<8, _, _>")]
    pub bones: OrderedMap<BoneTimelines>,
    #[serde(default, deserialize_with = "roomy_map::<8, _, _>")]
    pub slots: OrderedMap<SlotTimelines>,
    #[serde(default)]
    pub ik: OrderedMap<Vec<IkKey>>,
    #[serde(default)]
    pub transform: OrderedMap<Vec<TransformKey>>,
    #[serde(default)]
    pub path: OrderedMap<PathTimelines>,
    /// 4.2: constraint name ("" = the global timelines) -> timelines.
    pub physics: Option<OrderedMap<PhysicsTimelines>>,
    /// 4.0: skin -> slot -> attachment -> deform keys.
    pub deform: Option<OrderedMap<OrderedMap<OrderedMap<Vec<DeformKey>>>>>,
    /// 4.1+: skin -> slot -> attachment -> deform and sequence keys.
    pub attachments: Option<OrderedMap<OrderedMap<OrderedMap<AttachmentTimelines>>>>,
    #[serde(default)]
    pub events: Vec<EventKey>,
    #[serde(default)]
    pub draw_order: Vec<DrawOrderKey>,
    /// 4.3: slider name -> `time` / `mix` keys.
    pub slider: Option<OrderedMap<SliderTimelines>>,
    /// 4.3: draw order within subsets of slots.
    pub draw_order_folder: Option<Vec<DrawOrderFolder>>,
    /// 4.3 editor color of the animation (nonessential).
    pub color: Option<String>,
}

/// A 4.3 slider's timelines.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SliderTimelines {
    pub time: Option<KeyList4<1>>,
    pub mix: Option<KeyList4<1>>,
}

/// A 4.3 draw-order folder: its slots and keys (offsets within the folder).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawOrderFolder {
    pub slots: Vec<String>,
    #[serde(default)]
    pub keys: Vec<DrawOrderKey>,
}

/// What a `curve` is expected to be (serde's error messages quote it).
pub const CURVE4_EXPECTING: &str = "\"stepped\" or an array of 4 numbers per channel";

/// A key's `curve`: stepped, or `[cx1, cy1, cx2, cy2]` per channel.
#[derive(Clone, Debug, PartialEq)]
pub enum Curve4 {
    Stepped,
    Bezier(CurveNumbers),
}

/// A curve's numbers: up to two channels' worth inline (most keys, without an allocation:
/// a load has thousands of them), more on the heap.
#[derive(Clone, Debug)]
pub struct CurveNumbers {
    inline: [f64; 8],
    len: usize,
    heap: Vec<f64>,
}

impl CurveNumbers {
    fn new() -> CurveNumbers {
        CurveNumbers {
            inline: [0.0; 8],
            len: 0,
            heap: Vec::new(),
        }
    }

    fn push(&mut self, v: f64) {
        if self.heap.is_empty() && self.len < self.inline.len() {
            self.inline[self.len] = v;
            self.len += 1;
        } else {
            if self.heap.is_empty() {
                self.heap.extend_from_slice(&self.inline[..self.len]);
            }
            self.heap.push(v);
        }
    }
}

impl std::ops::Deref for CurveNumbers {
    type Target = [f64];

    fn deref(&self) -> &[f64] {
        if self.heap.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

impl PartialEq for CurveNumbers {
    fn eq(&self, other: &CurveNumbers) -> bool {
        self[..] == other[..]
    }
}

impl<'de> Deserialize<'de> for Curve4 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl<'de> Visitor<'de> for V {
            type Value = Curve4;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(CURVE4_EXPECTING)
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Curve4, E> {
                if v == "stepped" {
                    Ok(Curve4::Stepped)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Curve4, A::Error> {
                let mut out = CurveNumbers::new();
                while let Some(v) = seq.next_element::<f64>()? {
                    if !v.is_finite() {
                        return Err(de::Error::custom("curve numbers must be finite"));
                    }
                    out.push(v);
                }
                Ok(Curve4::Bezier(out))
            }
        }

        deserializer.deserialize_any(V)
    }
}

/// A 4.x key with a `curve`.
pub trait Curved4 {
    fn curve(&self) -> Option<&Curve4>;
}

/// Implements [`Curved4`] for a key struct with a `curve` field.
macro_rules! curved4 {
    ($name:ident) => {
        impl Curved4 for $name {
            fn curve(&self) -> Option<&Curve4> {
                self.curve.as_ref()
            }
        }
    };
}

// 4.x keys: `time` first, then their own fields, then `curve`.
key_structs! {
    {
        #[serde(default)]
        pub time: Raw32,
    }
    {
        pub curve: Option<Curve4>,
    }
    curved4;
    /// A one-value key (`rotate`, `translatex`, `alpha`, path position, physics values...).
    pub struct ValueKey {
        pub value: Option<Raw32>,
    }

    /// `translate`, `scale` and `shear` keys.
    pub struct XyKey {
        pub x: Option<Raw32>,
        pub y: Option<Raw32>,
    }

    /// `rgba` and `rgb` keys.
    pub struct ColorKey {
        pub color: SmallKey,
    }

    /// `rgba2` and `rgb2` keys.
    pub struct Color2Key {
        pub light: SmallKey,
        pub dark: SmallKey,
    }

    #[serde(rename_all = "camelCase")]
    pub struct IkKey {
        pub mix: Option<Raw32>,
        pub softness: Option<Raw32>,
        pub bend_positive: Option<bool>,
        pub compress: Option<bool>,
        pub stretch: Option<bool>,
    }

    #[serde(rename_all = "camelCase")]
    pub struct TransformKey {
        pub mix_rotate: Option<Raw32>,
        pub mix_x: Option<Raw32>,
        pub mix_y: Option<Raw32>,
        pub mix_scale_x: Option<Raw32>,
        pub mix_scale_y: Option<Raw32>,
        pub mix_shear_y: Option<Raw32>,
    }

    #[serde(rename_all = "camelCase")]
    pub struct PathMixKey {
        pub mix_rotate: Option<Raw32>,
        pub mix_x: Option<Raw32>,
        pub mix_y: Option<Raw32>,
    }

    pub struct DeformKey {
        #[serde(default)]
        pub offset: u32,
        /// Kept in f64 until added to the setup vertices, then rounded once.
        #[serde(default, deserialize_with = "opt_numbers")]
        pub vertices: Option<Vec<f64>>,
    }
}

/// `inherit` keys (4.2).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InheritKey {
    #[serde(default)]
    pub time: Raw32,
    #[serde(default)]
    pub inherit: super::dto::InheritDto,
}

/// Sequence keys (4.1+).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SequenceKey {
    #[serde(default)]
    pub time: Raw32,
    /// Only compared: held inline.
    pub mode: Option<SmallKey>,
    #[serde(default)]
    pub index: i32,
    pub delay: Option<Raw32>,
}

/// Physics `reset` keys (4.2).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeKey {
    #[serde(default)]
    pub time: Raw32,
}

/// An attachment's deform and sequence keys (4.1+ `attachments` section).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachmentTimelines {
    #[serde(default, deserialize_with = "opt_list")]
    pub deform: Option<Vec<DeformKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub sequence: Option<Vec<SequenceKey>>,
}

/// One timeline of a bone, by its JSON name.
pub enum BoneTimeline {
    Rotate(KeyList4<1>),
    Translate(KeyList4<2>),
    TranslateX(KeyList4<1>),
    TranslateY(KeyList4<1>),
    Scale(KeyList4<2>),
    ScaleX(KeyList4<1>),
    ScaleY(KeyList4<1>),
    Shear(KeyList4<2>),
    ShearX(KeyList4<1>),
    ShearY(KeyList4<1>),
    Inherit(Vec<InheritKey>),
}

/// One timeline of a slot, by its JSON name.
pub enum SlotTimeline {
    Attachment(Vec<AttachmentKey>),
    Rgba(Vec<ColorKey>),
    Rgb(Vec<ColorKey>),
    Alpha(KeyList4<1>),
    Rgba2(Vec<Color2Key>),
    Rgb2(Vec<Color2Key>),
}

/// One timeline of a path constraint, by its JSON name.
pub enum PathTimeline {
    Position(KeyList4<1>),
    Spacing(KeyList4<1>),
    Mix(Vec<PathMixKey>),
}

/// One timeline of a physics constraint, by its JSON name.
pub enum PhysicsTimeline {
    Reset(Vec<TimeKey>),
    /// `inertia`, `strength`, `damping`, `mass`, `wind`, `gravity` or `mix`.
    Value(&'static str, KeyList4<1>),
}

impl BoneTimeline {
    /// Whether the timeline has keys (an empty one makes no model timeline).
    pub fn has_keys(&self) -> bool {
        match self {
            BoneTimeline::Rotate(k)
            | BoneTimeline::TranslateX(k)
            | BoneTimeline::TranslateY(k)
            | BoneTimeline::ScaleX(k)
            | BoneTimeline::ScaleY(k)
            | BoneTimeline::ShearX(k)
            | BoneTimeline::ShearY(k) => !k.is_empty(),
            BoneTimeline::Translate(k) | BoneTimeline::Scale(k) | BoneTimeline::Shear(k) => {
                !k.is_empty()
            }
            BoneTimeline::Inherit(k) => !k.is_empty(),
        }
    }
}

impl SlotTimeline {
    /// Whether the timeline has keys (an empty one makes no model timeline).
    pub fn has_keys(&self) -> bool {
        match self {
            SlotTimeline::Attachment(k) => !k.is_empty(),
            SlotTimeline::Rgba(k) | SlotTimeline::Rgb(k) => !k.is_empty(),
            SlotTimeline::Alpha(k) => !k.is_empty(),
            SlotTimeline::Rgba2(k) | SlotTimeline::Rgb2(k) => !k.is_empty(),
        }
    }
}

impl PathTimeline {
    /// Whether the timeline has keys (an empty one makes no model timeline).
    pub fn has_keys(&self) -> bool {
        match self {
            PathTimeline::Position(k) | PathTimeline::Spacing(k) => !k.is_empty(),
            PathTimeline::Mix(k) => !k.is_empty(),
        }
    }
}

impl PhysicsTimeline {
    /// Whether the timeline has keys (an empty one makes no model timeline).
    pub fn has_keys(&self) -> bool {
        match self {
            PhysicsTimeline::Reset(k) => !k.is_empty(),
            PhysicsTimeline::Value(_, k) => !k.is_empty(),
        }
    }
}

/// A bone's timelines in file order: `(name, timeline)`.
pub struct BoneTimelines(pub Few<(&'static str, BoneTimeline)>);
/// A slot's timelines in file order.
pub struct SlotTimelines(pub Few<(&'static str, SlotTimeline)>);
/// A path constraint's timelines in file order.
pub struct PathTimelines(pub Few<(&'static str, PathTimeline)>);
/// A physics constraint's timelines in file order.
pub struct PhysicsTimelines(pub Few<(&'static str, PhysicsTimeline)>);

/// Timelines one entry holds before they spill to the heap (a bone rarely has more than
/// rotate, translate, scale and shear; a slot one or two).
const FEW: usize = 2;

/// One entry's timelines: inline up to [`FEW`], then on the heap. Every animated bone and
/// slot has such a list; as a `Vec` it was an allocation (and a free) each, about a tenth
/// of a 4.x load's allocations.
pub struct Few<T> {
    inline: arrayvec::ArrayVec<T, FEW>,
    heap: Vec<T>,
}

impl<T> Few<T> {
    fn new() -> Few<T> {
        Few {
            inline: arrayvec::ArrayVec::new(),
            heap: Vec::new(),
        }
    }

    fn push(&mut self, v: T) {
        if !self.heap.is_empty() {
            self.heap.push(v);
        } else if let Err(e) = self.inline.try_push(v) {
            self.heap.reserve(2 * FEW);
            self.heap.extend(self.inline.drain(..));
            self.heap.push(e.element());
        }
    }
}

impl<T> std::ops::Deref for Few<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        if self.heap.is_empty() {
            &self.inline
        } else {
            &self.heap
        }
    }
}

impl<T> std::ops::DerefMut for Few<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        if self.heap.is_empty() {
            &mut self.inline
        } else {
            &mut self.heap
        }
    }
}

/// Implements `Deserialize` for a map of timeline name -> keys whose key type depends on the
/// name, keeping file order; an unknown name is an error naming the known ones.
macro_rules! timeline_map {
    ($map:ident, $kind:ident, $what:literal, { $($name:literal => $make:expr),* $(,)? }) => {
        impl<'de> Deserialize<'de> for $map {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct V;

                impl<'de> Visitor<'de> for V {
                    type Value = $map;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str($what)
                    }

                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$map, A::Error> {
                        const NAMES: &[&str] = &[$($name),*];
                        let mut out = Few::new();
                        while let Some(key) = map.next_key::<MapKey<'de>>()? {
                            let entry = match key.as_str() {
                                $($name => ($name, ($make)(&mut map)?),)*
                                other => return Err(de::Error::unknown_field(other, NAMES)),
                            };
                            out.push(entry);
                        }
                        Ok($map(out))
                    }
                }

                deserializer.deserialize_map(V)
            }
        }
    };
}

fn keys<'de, A: MapAccess<'de>, K: Deserialize<'de>>(map: &mut A) -> Result<Vec<K>, A::Error> {
    map.next_value::<List<K>>().map(|l| l.0)
}

timeline_map!(BoneTimelines, BoneTimeline, "a map of bone timelines", {
    "rotate" => |m: &mut A| m.next_value().map(BoneTimeline::Rotate),
    "translate" => |m: &mut A| m.next_value().map(BoneTimeline::Translate),
    "translatex" => |m: &mut A| m.next_value().map(BoneTimeline::TranslateX),
    "translatey" => |m: &mut A| m.next_value().map(BoneTimeline::TranslateY),
    "scale" => |m: &mut A| m.next_value().map(BoneTimeline::Scale),
    "scalex" => |m: &mut A| m.next_value().map(BoneTimeline::ScaleX),
    "scaley" => |m: &mut A| m.next_value().map(BoneTimeline::ScaleY),
    "shear" => |m: &mut A| m.next_value().map(BoneTimeline::Shear),
    "shearx" => |m: &mut A| m.next_value().map(BoneTimeline::ShearX),
    "sheary" => |m: &mut A| m.next_value().map(BoneTimeline::ShearY),
    "inherit" => |m: &mut A| keys(m).map(BoneTimeline::Inherit),
});

timeline_map!(SlotTimelines, SlotTimeline, "a map of slot timelines", {
    "attachment" => |m: &mut A| keys(m).map(SlotTimeline::Attachment),
    "rgba" => |m: &mut A| keys(m).map(SlotTimeline::Rgba),
    "rgb" => |m: &mut A| keys(m).map(SlotTimeline::Rgb),
    "alpha" => |m: &mut A| m.next_value().map(SlotTimeline::Alpha),
    "rgba2" => |m: &mut A| keys(m).map(SlotTimeline::Rgba2),
    "rgb2" => |m: &mut A| keys(m).map(SlotTimeline::Rgb2),
});

timeline_map!(PathTimelines, PathTimeline, "a map of path constraint timelines", {
    "position" => |m: &mut A| m.next_value().map(PathTimeline::Position),
    "spacing" => |m: &mut A| m.next_value().map(PathTimeline::Spacing),
    "mix" => |m: &mut A| keys(m).map(PathTimeline::Mix),
});

timeline_map!(PhysicsTimelines, PhysicsTimeline, "a map of physics constraint timelines", {
    "reset" => |m: &mut A| keys(m).map(PhysicsTimeline::Reset),
    "inertia" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("inertia", k)),
    "strength" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("strength", k)),
    "damping" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("damping", k)),
    "mass" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("mass", k)),
    "wind" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("wind", k)),
    "gravity" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("gravity", k)),
    "mix" => |m: &mut A| m.next_value().map(|k| PhysicsTimeline::Value("mix", k)),
});
