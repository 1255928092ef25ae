//! DragonBones surface timelines: offsets of a surface bone's lattice vertices.

use super::LatticeTimeline;
use super::MixBlend;
use super::timeline::{At, span};
use crate::core::curve::Span;
use crate::core::skeleton::Skeleton;

/// Blends the keyed lattice offsets into the skeleton's (setup: no offsets), as deform
/// timelines blend vertex offsets.
pub(super) fn apply(
    t: &LatticeTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
) {
    if !sk.bones.get(t.bone).is_some_and(|b| b.active) {
        return;
    }
    let Some(offsets) = sk.lattice_offsets.get_mut(t.bone) else {
        return;
    };
    let blend = if offsets.is_empty() {
        MixBlend::Setup
    } else {
        blend
    };
    let count = t.vertices.first().map_or(0, Vec::len);
    let (k0, k1, p) = match span(&t.keys, at) {
        Span::Before => {
            match blend {
                MixBlend::Setup => offsets.clear(),
                MixBlend::First => offsets.iter_mut().for_each(|d| *d *= 1.0 - alpha),
                _ => {}
            }
            return;
        }
        Span::Last(k) => (k, k, 0.0),
        Span::Between { key, percent, time } => {
            (key, key + 1, t.keys.percent_at(key, percent, time))
        }
    };
    let (Some(v0), Some(v1)) = (t.vertices.get(k0), t.vertices.get(k1)) else {
        return;
    };
    offsets.resize(count, 0.0);
    let values = v0.iter().zip(v1).map(|(&a, &b)| {
        let a = a as f64;
        a + (b as f64 - a) * p
    });
    for (d, v) in offsets.iter_mut().zip(values) {
        *d = match blend {
            MixBlend::Setup => v * alpha,
            MixBlend::First | MixBlend::Replace => *d + (v - *d) * alpha,
            MixBlend::Add => *d + v * alpha,
        };
    }
}
