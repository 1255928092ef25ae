//! The Spine 3.8 JSON document: animations and their keys.

use serde::Deserialize;

use super::curve::{CurveDto, OptF64, curve_key, key_structs};
pub use super::dto_keys3::{RotateKey, XyKey};
use crate::format::json::list::opt_list;
use crate::format::json::number::opt_numbers;
use crate::format::json::{F32, OrderedMap, SmallKey};

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AnimationDto {
    #[serde(default)]
    pub bones: OrderedMap<BoneTimelinesDto>,
    #[serde(default)]
    pub slots: OrderedMap<SlotTimelinesDto>,
    #[serde(default)]
    pub ik: OrderedMap<Vec<IkKey>>,
    #[serde(default)]
    pub transform: OrderedMap<Vec<TransformKey>>,
    #[serde(default)]
    pub path: OrderedMap<PathTimelinesDto>,
    /// Spine 3.7 exports name the path constraint timelines `paths`.
    pub paths: Option<OrderedMap<PathTimelinesDto>>,
    /// skin -> slot -> attachment key -> keys.
    #[serde(default)]
    pub deform: OrderedMap<OrderedMap<OrderedMap<Vec<DeformKey>>>>,
    #[serde(default)]
    pub events: Vec<EventKey>,
    /// Exports write `drawOrder`.
    #[serde(default)]
    pub draw_order: Vec<DrawOrderKey>,
    /// The format page says `draworder`. A field of its own, not an alias, so the loader
    /// knows which spelling the text used (its errors are located by the key as written).
    #[serde(rename = "draworder")]
    pub draw_order_legacy: Option<Vec<DrawOrderKey>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoneTimelinesDto {
    #[serde(default, deserialize_with = "opt_list")]
    pub rotate: Option<Vec<RotateKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub translate: Option<Vec<XyKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub scale: Option<Vec<XyKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub shear: Option<Vec<XyKey>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SlotTimelinesDto {
    #[serde(default, deserialize_with = "opt_list")]
    pub attachment: Option<Vec<AttachmentKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub color: Option<Vec<ColorKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub two_color: Option<Vec<TwoColorKey>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttachmentKey {
    #[serde(default)]
    pub time: F32,
    pub name: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathTimelinesDto {
    #[serde(default, deserialize_with = "opt_list")]
    pub position: Option<Vec<PathPositionKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub spacing: Option<Vec<PathSpacingKey>>,
    #[serde(default, deserialize_with = "opt_list")]
    pub mix: Option<Vec<PathMixKey>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventKey {
    #[serde(default)]
    pub time: F32,
    pub name: String,
    pub int: Option<i32>,
    pub float: Option<f64>,
    pub string: Option<String>,
    pub volume: Option<f64>,
    pub balance: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawOrderKey {
    #[serde(default)]
    pub time: F32,
    #[serde(default, deserialize_with = "opt_list")]
    pub offsets: Option<Vec<DrawOrderOffset>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawOrderOffset {
    /// Only looked up: held inline rather than allocated.
    pub slot: SmallKey,
    pub offset: i64,
}

// 3.x keys: `time` first, then their own fields, then the curve fields (see `CurveKey`).
key_structs! {
    {
        #[serde(default)]
        pub time: F32,
    }
    {
        pub curve: Option<CurveDto>,
        #[serde(default)]
        pub c2: OptF64,
        #[serde(default)]
        pub c3: OptF64,
        #[serde(default)]
        pub c4: OptF64,
    }
    curve_key;
    pub struct ColorKey {
        pub color: SmallKey,
    }

    pub struct TwoColorKey {
        pub light: SmallKey,
        pub dark: SmallKey,
    }

    #[serde(rename_all = "camelCase")]
    pub struct IkKey {
        pub mix: Option<F32>,
        pub softness: Option<F32>,
        pub bend_positive: Option<bool>,
        pub compress: Option<bool>,
        pub stretch: Option<bool>,
    }

    #[serde(rename_all = "camelCase")]
    pub struct TransformKey {
        pub rotate_mix: Option<F32>,
        pub translate_mix: Option<F32>,
        pub scale_mix: Option<F32>,
        pub shear_mix: Option<F32>,
    }

    pub struct PathPositionKey {
        pub position: Option<F32>,
    }

    pub struct PathSpacingKey {
        pub spacing: Option<F32>,
    }

    #[serde(rename_all = "camelCase")]
    pub struct PathMixKey {
        pub rotate_mix: Option<F32>,
        pub translate_mix: Option<F32>,
    }

    pub struct DeformKey {
        #[serde(default)]
        pub offset: u32,
        /// Kept in f64 until added to the setup vertices, then rounded once.
        #[serde(default, deserialize_with = "opt_numbers")]
        pub vertices: Option<Vec<f64>>,
    }
}
