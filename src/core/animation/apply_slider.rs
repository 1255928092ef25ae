//! Spine 4.3 timelines: slider time / mix keys and draw-order folders.

use super::timeline::{At, DrawOrderFolderTimeline, SliderProperty, SliderTimeline, discrete_key};
use super::timeline::{channels, span};
use super::{MixBlend, MixDirection};
use crate::core::curve::Span;
use crate::core::skeleton::Skeleton;

/// Slider time and mix: absolute values (setup: `s + (v - s)·α`, add: `c + v·α`, else
/// `c + (v - c)·α`; before the first key setup/first move toward the setup value).
pub(super) fn apply(
    t: &SliderTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    let Some(d) = sk.data.slider_constraints.get(t.constraint) else {
        return;
    };
    let setup = match t.property {
        SliderProperty::Time => d.time,
        SliderProperty::Mix => d.mix,
    };
    let Some(c) = sk.sliders.get_mut(t.constraint) else {
        return;
    };
    if !c.active {
        return;
    }
    let cur = match t.property {
        SliderProperty::Time => &mut c.time,
        SliderProperty::Mix => &mut c.mix,
    };
    let sp = span(&t.keys, at);
    if sp == Span::Before {
        match blend {
            MixBlend::Setup => *cur = setup,
            MixBlend::First => *cur += (setup - *cur) * alpha,
            _ => {}
        }
        return;
    }
    let v = channels::<1>(&t.keys, sp)[0];
    match blend {
        MixBlend::Setup => *cur = setup + (v - setup) * alpha,
        MixBlend::Add => *cur += v * alpha,
        _ => *cur += (v - *cur) * alpha,
    }
}

/// Draw-order folder keys: the folder's slots keep their places in the draw order and take
/// the keyed order among themselves.
pub(super) fn apply_draw_order_folder(
    t: &DrawOrderFolderTimeline,
    sk: &mut Skeleton,
    time: f64,
    blend: MixBlend,
    direction: MixDirection,
) {
    let order: &[usize] = if direction == MixDirection::Out {
        if blend != MixBlend::Setup {
            return;
        }
        &t.slots
    } else {
        match discrete_key(&t.times, time) {
            None => {
                if !matches!(blend, MixBlend::Setup | MixBlend::First) {
                    return;
                }
                &t.slots
            }
            Some(i) => t.orders[i].as_deref().unwrap_or(&t.slots),
        }
    };
    let mut next = order.iter();
    for place in sk.draw_order.iter_mut() {
        if t.slots.contains(place)
            && let Some(&s) = next.next()
        {
            *place = s;
        }
    }
}
