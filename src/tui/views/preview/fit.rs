//! What "fit to view" frames: a pure function of the skeleton data, its skins and the
//! animation shown, never of the pose on screen or of the frames shown before.
//!
//! The bounds come from the setup pose and an even sampling of the animation, each posed
//! from scratch (setup pose, apply, world transforms, physics not stepped). The pose on
//! screen does not count: physics can fling bones anywhere (4.2 `cloud-pot`'s rain), and a
//! fit measured on whichever frame happened to be shown first made the framing depend on
//! the viewing history (`centre 186,574` in one run, `186,572` in another).
//!
//! Each attachment of each measured pose is one item; items whose centre lies far outside
//! the bulk of the others (a prop parked far away, a key that throws a bone off-screen) are
//! dropped before the union: the view frames the skeleton, not its runaways. The rule:
//! per axis, the 10th to 90th percentile of the items' centres is the core; an item is kept
//! when its centre is within [`OUTLIER_REACH`] times the core's larger side (at least its
//! median item size) of the core. With fewer than [`MIN_ROBUST_ITEMS`] items every item
//! counts.

use super::scene::{Bounds, Scene, sampled_poses};
use crate::core::skeleton::Skeleton;

/// Poses sampled over an animation (plus its start) for the fit.
pub const FIT_SAMPLES: usize = 8;
/// How far beyond the core an item's centre may lie, in core sizes.
const OUTLIER_REACH: f64 = 1.5;
/// Fewer items than this are all kept (too few to call any of them an outlier).
const MIN_ROBUST_ITEMS: usize = 8;
/// Percentiles bounding the core of the items' centres.
const CORE: (f64, f64) = (0.1, 0.9);

/// Bounds to fit the view to: the attachments of the setup pose and of a sampling of
/// animation `animation` (if any), and the skeleton data's own bounds when it has them,
/// outliers dropped. Bones count only when no attachment does: helper bones (IK targets,
/// effects parked far away) would otherwise shrink the figure. `sk` gives the data and the
/// skins; its pose is not used.
pub fn fit_bounds(sk: &Skeleton, animation: Option<usize>, scene: &mut Scene) -> Bounds {
    let mut items = Vec::new();
    let mut bones = Bounds::EMPTY;
    let data = sk.data.clone();
    let mut probe = sk.clone();
    probe.set_to_setup_pose();
    probe.update_world_transform();
    scene.measure_each(&probe, &mut bones, |b| items.push(b));
    if let Some(anim) = animation.and_then(|a| data.animations.get(a)) {
        sampled_poses(&mut probe, anim, FIT_SAMPLES, |p| {
            scene.measure_each(p, &mut bones, |b| items.push(b))
        });
    }
    if data.width.is_finite() && data.height.is_finite() && data.width > 0.0 && data.height > 0.0 {
        let mut b = Bounds::EMPTY;
        b.add(data.x, data.y);
        b.add(data.x + data.width, data.y + data.height);
        items.push(b);
    }
    let b = robust_union(&items);
    if b.is_empty() { bones } else { b }
}

/// The union of `items` without the ones whose centre lies far from the bulk (see the
/// module documentation). Order-independent: the same items give the same bounds.
pub fn robust_union(items: &[Bounds]) -> Bounds {
    let items: Vec<&Bounds> = items.iter().filter(|b| finite(b)).collect();
    let union = |keep: &dyn Fn(&Bounds) -> bool| {
        items
            .iter()
            .filter(|b| keep(b))
            .fold(Bounds::EMPTY, |u, b| u.union(b))
    };
    if items.len() < MIN_ROBUST_ITEMS {
        return union(&|_| true);
    }
    let centres: Vec<(f64, f64)> = items.iter().map(|b| b.center()).collect();
    let (x0, x1) = percentiles(centres.iter().map(|c| c.0).collect());
    let (y0, y1) = percentiles(centres.iter().map(|c| c.1).collect());
    let mut sizes: Vec<f64> = items.iter().map(|b| b.width().max(b.height())).collect();
    sizes.sort_by(f64::total_cmp);
    let median_size = sizes[sizes.len() / 2];
    let reach = OUTLIER_REACH * (x1 - x0).max(y1 - y0).max(median_size);
    union(&|b: &Bounds| {
        let (cx, cy) = b.center();
        cx >= x0 - reach && cx <= x1 + reach && cy >= y0 - reach && cy <= y1 + reach
    })
}

/// The [`CORE`] percentiles of `v` (nearest rank; `v` not empty).
fn percentiles(mut v: Vec<f64>) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    let at = |q: f64| v[((v.len() - 1) as f64 * q).round() as usize];
    (at(CORE.0), at(CORE.1))
}

fn finite(b: &Bounds) -> bool {
    !b.is_empty() && b.width().is_finite() && b.height().is_finite()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, r: f64) -> Bounds {
        Bounds {
            min_x: x - r,
            min_y: y - r,
            max_x: x + r,
            max_y: y + r,
        }
    }

    #[test]
    fn a_far_item_is_dropped_and_the_rest_kept_whatever_the_order() {
        let mut items: Vec<Bounds> = (0..20)
            .map(|i| square(f64::from(i) * 10.0, 50.0, 5.0))
            .collect();
        let without = robust_union(&items);
        assert_eq!(
            without,
            Bounds {
                min_x: -5.0,
                min_y: 45.0,
                max_x: 195.0,
                max_y: 55.0
            }
        );
        items.insert(3, square(-268.0, -135_859.0, 5.0));
        assert_eq!(robust_union(&items), without, "the runaway does not count");
        items.reverse();
        assert_eq!(robust_union(&items), without, "order does not matter");
    }

    #[test]
    fn few_items_all_count_and_non_finite_ones_none() {
        let items = [square(0.0, 0.0, 1.0), square(1000.0, 0.0, 1.0)];
        assert_eq!(robust_union(&items).max_x, 1001.0);
        let nan = Bounds {
            min_x: f64::NAN,
            ..square(0.0, 0.0, 1.0)
        };
        assert_eq!(robust_union(&[nan, items[0]]), items[0]);
        assert!(robust_union(&[]).is_empty());
    }

    #[test]
    fn two_groups_of_parts_both_count() {
        let items: Vec<Bounds> = (0..10)
            .map(|i| square(0.0, f64::from(i), 2.0))
            .chain((0..10).map(|i| square(500.0, f64::from(i), 2.0)))
            .collect();
        let b = robust_union(&items);
        assert_eq!((b.min_x, b.max_x), (-2.0, 502.0));
    }
}
