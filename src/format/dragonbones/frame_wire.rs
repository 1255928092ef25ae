//! How key frames are read from JSON: one flat field list per frame kind, converted into the
//! frame structs of [`super::dto`] (which group the tween and the fired actions).
//!
//! `#[serde(flatten)]` would give the same structs directly, but it buffers every member of
//! every frame as an owned value before matching names: that was about a third of loading a
//! DragonBones file. The fields, names and defaults here are those of the `dto` structs.

use serde::Deserialize;

use super::dto::{self, Action, ActionField, ColorTransform, EventEntry, Transform};
use super::lenient::{Flag, Num};
use crate::format::json::number::{opt_numbers, vec_numbers};

fn tween(tween_easing: Num, curve: Option<Vec<f64>>) -> dto::Tween {
    dto::Tween {
        tween_easing,
        curve,
        samples: None,
    }
}

/// Declares a frame's flat JSON form (named like its `dto` struct) and its conversion: its own
/// fields, then, after `tween()` and `fire()`, the tween's `tweenEasing` and `curve` and the
/// fired actions' members, read as members of the same object. (The skipped unit fields only
/// let the macro repeat a group once when its marker is given.)
macro_rules! wire {
    (
        $frame:ident { $($(#[$attr:meta])* $field:ident: $ty:ty),* $(,)? }
        $(tween $tw:tt)? $(fire $fi:tt)? => |$w:ident| $build:expr
    ) => {
        #[derive(Deserialize, Debug, Default)]
        #[serde(default)]
        pub struct $frame {
            $($(#[$attr])* $field: $ty,)*
            $(
                #[serde(rename = "tweenEasing")]
                tween_easing: Num,
                #[serde(deserialize_with = "opt_numbers")]
                curve: Option<Vec<f64>>,
                #[serde(skip)]
                _tween: wire!(@unit $tw),
            )?
            $(
                event: Option<String>,
                sound: Option<String>,
                action: Option<ActionField>,
                events: Vec<EventEntry>,
                actions: Vec<Action>,
                #[serde(skip)]
                _fire: wire!(@unit $fi),
            )?
        }

        impl From<$frame> for dto::$frame {
            fn from($w: $frame) -> Self {
                $build
            }
        }
    };
    (@unit $t:tt) => { () };
}

macro_rules! fire_of {
    ($w:ident) => {
        fired(dto::FrameActions {
            event: $w.event,
            sound: $w.sound,
            action: $w.action,
            events: $w.events,
            actions: $w.actions,
        })
    };
}

/// `None` for a frame that fires nothing.
fn fired(acts: dto::FrameActions) -> dto::Fired {
    let none = acts.event.is_none()
        && acts.sound.is_none()
        && acts.action.is_none()
        && acts.events.is_empty()
        && acts.actions.is_empty();
    (!none).then(|| Box::new(acts))
}

wire!(IkFrame {
    duration: Num,
    #[serde(rename = "bendPositive")]
    bend_positive: Flag,
    weight: Num,
} tween() => |w| dto::IkFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    bend_positive: w.bend_positive,
    weight: w.weight,
});

wire!(ActionFrame { duration: Num } fire() => |w| dto::ActionFrame {
    duration: w.duration,
    fire: fire_of!(w),
    origin: String::new(),
});

wire!(XyFrame { duration: Num, x: Num, y: Num } tween() => |w| dto::XyFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    x: w.x,
    y: w.y,
});

wire!(RotateFrame {
    duration: Num,
    rotate: Num,
    skew: Num,
    clockwise: Num,
} tween() => |w| dto::RotateFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    rotate: w.rotate,
    skew: w.skew,
    clockwise: w.clockwise,
    radians: None,
});

wire!(BoneFrame {
    duration: Num,
    #[serde(rename = "tweenRotate")]
    tween_rotate: Num,
    transform: Transform,
} tween() fire() => |w| dto::BoneFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    tween_rotate: w.tween_rotate,
    transform: w.transform,
    fire: fire_of!(w),
});

wire!(DisplayFrame { duration: Num, value: Num } fire() => |w| dto::DisplayFrame {
    duration: w.duration,
    value: w.value,
    fire: fire_of!(w),
});

wire!(ColorFrame {
    duration: Num,
    value: Option<ColorTransform>,
    color: Option<ColorTransform>,
} tween() => |w| dto::ColorFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    value: w.value,
    color: w.color,
});

wire!(SlotFrame {
    duration: Num,
    #[serde(rename = "displayIndex")]
    display_index: Num,
    color: Option<ColorTransform>,
} tween() fire() => |w| dto::SlotFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    display_index: w.display_index,
    color: w.color,
    fire: fire_of!(w),
});

wire!(FfdFrame {
    duration: Num,
    offset: Num,
    #[serde(deserialize_with = "vec_numbers")]
    vertices: Vec<f64>,
} tween() => |w| dto::FfdFrame {
    duration: w.duration,
    tween: tween(w.tween_easing, w.curve),
    offset: w.offset,
    vertices: w.vertices,
    influences: None,
});
