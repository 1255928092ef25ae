//! Dense numbers for the properties a skeleton's animations key, so the animation state can
//! work out timeline modes with a stamped array instead of a hash set of [`PropertyId`]s.

use super::{Animation, PropertyId, Timeline, sort_unique_ids};

/// The properties of one timeline as dense numbers (one to three, as
/// [`super::Timeline::property_ids`] gives them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenseIds {
    ids: [u32; 3],
    len: u8,
}

impl DenseIds {
    /// The numbers as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[u32] {
        &self.ids[..self.len as usize]
    }
}

/// One animation's timelines in dense numbers.
#[derive(Clone, Debug, Default, PartialEq)]
struct AnimationProperties {
    /// Per timeline, in timeline order.
    timelines: Vec<DenseIds>,
    /// Every number the animation keys, sorted.
    keyed: Vec<u32>,
}

/// Every property any animation keys, numbered `0..count` (derived from the animations by
/// [`crate::core::model::SkeletonData::finish`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PropertyIndex {
    count: usize,
    animations: Vec<AnimationProperties>,
}

impl PropertyIndex {
    /// Numbers the properties of `animations` (in [`PropertyId`] order).
    pub fn build(animations: &[Animation]) -> PropertyIndex {
        Self::build_by_keys(animations).unwrap_or_else(|| Self::build_by_ids(animations))
    }

    /// [`Self::build`] by order keys, `None` when some id does not pack (never in real
    /// files). Each animation's `properties` are sorted and unique, so their keys are too:
    /// the union is merged rather than sorted, an animation's numbers are found by walking
    /// the union once, and its timelines' ids by walking its own keys once.
    fn build_by_keys(animations: &[Animation]) -> Option<PropertyIndex> {
        let total = animations.iter().map(|a| a.properties.len()).sum();
        let mut local = Vec::with_capacity(total);
        for a in animations {
            for id in &a.properties {
                local.push(id.order_key()?);
            }
        }
        let all = union_of_runs(&local, animations.iter().map(|a| a.properties.len()));
        let mut start = 0;
        let mut numbered = Vec::with_capacity(animations.len());
        for a in animations {
            let keys = &local[start..start + a.properties.len()];
            start += keys.len();
            // Every key is in `all`, and both are ascending (with one animation, or a
            // first one keying everything, each key is the next).
            let mut next = 0;
            let keyed: Vec<u32> = keys
                .iter()
                .map(|k| {
                    let at = if all.get(next) == Some(k) {
                        next
                    } else {
                        next + all[next..].partition_point(|g| g < k)
                    };
                    next = at + 1;
                    at as u32
                })
                .collect();
            let timelines = timeline_numbers(&a.timelines, keys, &keyed)?;
            numbered.push(AnimationProperties { timelines, keyed });
        }
        Some(PropertyIndex {
            count: all.len(),
            animations: numbered,
        })
    }

    /// [`Self::build`] by comparing the ids themselves.
    fn build_by_ids(animations: &[Animation]) -> PropertyIndex {
        let mut all = Vec::with_capacity(animations.iter().map(|a| a.properties.len()).sum());
        for a in animations {
            all.extend_from_slice(&a.properties);
        }
        sort_unique_ids(&mut all);
        let number = |id: &PropertyId| all.binary_search(id).map_or(u32::MAX, |i| i as u32);
        let animations = animations
            .iter()
            .map(|a| AnimationProperties {
                timelines: a
                    .timelines
                    .iter()
                    .map(|tl| dense_ids(tl.property_ids().as_slice(), number))
                    .collect(),
                // `properties` is sorted in id order, which the numbering keeps.
                keyed: a.properties.iter().map(number).collect(),
            })
            .collect();
        PropertyIndex {
            count: all.len(),
            animations,
        }
    }

    /// How many properties are numbered.
    pub fn count(&self) -> usize {
        self.count
    }

    /// Whether this index numbers `animations` (built from them, or from animations with as
    /// many timelines each).
    pub fn covers(&self, animations: &[Animation]) -> bool {
        self.animations.len() == animations.len()
            && self
                .animations
                .iter()
                .zip(animations)
                .all(|(p, a)| p.timelines.len() == a.timelines.len())
    }

    /// The numbers of animation `animation`'s timelines (empty for an index it does not
    /// cover).
    #[inline]
    pub fn timelines(&self, animation: usize) -> &[DenseIds] {
        self.animations
            .get(animation)
            .map_or(&[], |a| a.timelines.as_slice())
    }

    /// Whether animation `animation` keys any of `ids`.
    #[inline]
    pub fn keys_any(&self, animation: usize, ids: &[u32]) -> bool {
        self.animations
            .get(animation)
            .is_some_and(|a| ids.iter().any(|id| a.keyed.binary_search(id).is_ok()))
    }
}

/// A timeline's ids as their numbers.
fn dense_ids(ids: &[PropertyId], number: impl Fn(&PropertyId) -> u32) -> DenseIds {
    let mut dense = DenseIds {
        ids: [0; 3],
        len: 0,
    };
    for (d, id) in dense.ids.iter_mut().zip(ids) {
        *d = number(id);
        dense.len += 1;
    }
    dense
}

/// Each timeline's ids as numbers: the ids' keys beside their positions are sorted and
/// walked once beside `keys` (the animation's keys, ascending, numbered by `keyed`), instead
/// of searching `keys` for each. `None` when a key is missing or there are too many ids to
/// pack their positions.
fn timeline_numbers(timelines: &[Timeline], keys: &[u64], keyed: &[u32]) -> Option<Vec<DenseIds>> {
    const POSITION_BITS: u32 = 16;
    let mut dense: Vec<DenseIds> = Vec::with_capacity(timelines.len());
    let mut pairs = Vec::with_capacity(timelines.len() * 2);
    for (t, tl) in timelines.iter().enumerate() {
        let ids = tl.property_ids();
        let ids = ids.as_slice();
        for (slot, id) in ids.iter().enumerate() {
            // Position: the timeline's index and the id's slot in it (at most 3).
            let position = (t << 2 | slot) as u64;
            if position >> POSITION_BITS != 0 {
                return None;
            }
            pairs.push(id.order_key()? << POSITION_BITS | position);
        }
        dense.push(DenseIds {
            ids: [0; 3],
            len: ids.len() as u8,
        });
    }
    pairs.sort_unstable();
    let mut at = 0;
    for pair in pairs {
        let key = pair >> POSITION_BITS;
        while *keys.get(at)? != key {
            at += 1;
        }
        let position = (pair & ((1 << POSITION_BITS) - 1)) as usize;
        dense[position >> 2].ids[position & 3] = keyed[at];
    }
    Some(dense)
}

/// The ascending union of the ascending runs of `keys` whose lengths `runs` gives. Runs are
/// merged pairwise, neighbour with neighbour, until one is left: each key moves once per
/// halving of the run count, where merging them one after another moved the union so far
/// once per run, and sorting them together cost `n log n` comparisons on the many runs of
/// a skeleton with dozens of animations.
fn union_of_runs(keys: &[u64], runs: impl ExactSizeIterator<Item = usize>) -> Vec<u64> {
    let mut from = keys.to_vec();
    if runs.len() <= 1 {
        return from;
    }
    let mut lens: Vec<usize> = runs.collect();
    let mut to = Vec::with_capacity(from.len());
    while lens.len() > 1 {
        to.clear();
        let mut start = 0;
        let mut merged = 0;
        for pair in 0..lens.len().div_ceil(2) {
            let (la, lb) = (lens[2 * pair], lens.get(2 * pair + 1).copied().unwrap_or(0));
            let (a, b) = from[start..start + la + lb].split_at(la);
            start += la + lb;
            let before = to.len();
            merge_unique(a, b, &mut to);
            lens[merged] = to.len() - before;
            merged += 1;
        }
        lens.truncate(merged);
        std::mem::swap(&mut from, &mut to);
    }
    from
}

/// Appends the ascending union of the ascending, duplicate-free `a` and `b` to `out`.
fn merge_unique(a: &[u64], b: &[u64], out: &mut Vec<u64>) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y <= x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// A set of property numbers cleared in O(1): a stamp per number, equal to the current
/// generation when the number is in the set.
#[derive(Clone, Debug, Default)]
pub(crate) struct StampSet {
    stamps: Vec<u32>,
    generation: u32,
}

impl StampSet {
    /// Empties the set and makes room for numbers below `count`.
    pub(crate) fn reset(&mut self, count: usize) {
        if self.stamps.len() < count {
            self.stamps.resize(count, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            // Wrapped: old stamps could equal a new generation.
            self.stamps.fill(0);
            self.generation = 1;
        }
    }

    /// Adds `id`; true when it was not in the set. Numbers past the room made by `reset`
    /// grow it.
    #[inline]
    pub(crate) fn insert(&mut self, id: u32) -> bool {
        let i = id as usize;
        if i >= self.stamps.len() {
            self.stamps.resize(i + 1, 0);
        }
        let new = self.stamps[i] != self.generation;
        self.stamps[i] = self.generation;
        new
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::animation::{BoneProperty, BoneTimeline, Timeline};
    use crate::core::curve::Keys;

    fn bone(bone: usize, property: BoneProperty) -> Timeline {
        Timeline::Bone(BoneTimeline {
            bone,
            property,
            keys: Keys::new(1),
            shortest: true,
        })
    }

    #[test]
    fn numbers_follow_the_ids_and_answer_like_the_animations() {
        let a = Animation::new(
            "a",
            vec![
                bone(2, BoneProperty::Translate),
                bone(0, BoneProperty::Rotate),
            ],
        );
        let b = Animation::new("b", vec![bone(1, BoneProperty::TranslateX)]);
        let anims = [a, b];
        let index = PropertyIndex::build(&anims);
        // Rotate(0), X(1), X(2), Y(2).
        assert_eq!(index.count(), 4);
        assert_eq!(index.timelines(0)[0].as_slice(), &[2, 3]);
        assert_eq!(index.timelines(0)[1].as_slice(), &[0]);
        assert_eq!(index.timelines(1)[0].as_slice(), &[1]);
        assert!(index.keys_any(0, &[1, 3]));
        assert!(!index.keys_any(1, &[0, 2, 3]));
        assert!(!index.keys_any(7, &[0]));
        assert!(index.covers(&anims));
        assert!(!index.covers(&anims[..1]));
        assert!(!PropertyIndex::default().covers(&anims));
    }

    /// Animations of random bone and colour timelines (repeats included), from a seed.
    fn random_animations(seed: u64, max_index: usize) -> Vec<Animation> {
        use crate::core::animation::{ColorKind, ColorTimeline};
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = move |below: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % below
        };
        let properties = [
            BoneProperty::Rotate,
            BoneProperty::Translate,
            BoneProperty::TranslateX,
            BoneProperty::TranslateY,
            BoneProperty::Scale,
            BoneProperty::ScaleX,
            BoneProperty::Shear,
        ];
        let kinds = [
            ColorKind::Color,
            ColorKind::Rgba,
            ColorKind::Rgb,
            ColorKind::Alpha,
        ];
        let count = 1 + next(40);
        (0..count)
            .map(|a| {
                let timelines = (0..next(30))
                    .map(|_| match next(3) {
                        0 => Timeline::Color(ColorTimeline {
                            slot: next(max_index),
                            kind: kinds[next(kinds.len())],
                            keys: Keys::new(1),
                        }),
                        _ => bone(next(max_index), properties[next(properties.len())]),
                    })
                    .collect();
                Animation::new(format!("{a}"), timelines)
            })
            .collect()
    }

    #[test]
    fn numbering_by_keys_equals_numbering_by_ids() {
        // Few and many animations (merged and sorted unions), small and large indices.
        for seed in 0..400 {
            let anims = random_animations(seed, if seed % 2 == 0 { 12 } else { 5000 });
            let by_keys = PropertyIndex::build_by_keys(&anims).expect("every id packs");
            assert_eq!(by_keys, PropertyIndex::build_by_ids(&anims), "seed {seed}");
            assert_eq!(PropertyIndex::build(&anims), by_keys);
        }
    }

    #[test]
    fn ids_that_do_not_pack_are_numbered_by_comparing_them() {
        let mut anims = random_animations(7, 20);
        anims.push(Animation::new(
            "far",
            vec![
                bone(1 << 22, BoneProperty::Rotate),
                bone(3, BoneProperty::Rotate),
            ],
        ));
        assert!(PropertyIndex::build_by_keys(&anims).is_none());
        let index = PropertyIndex::build(&anims);
        assert_eq!(index, PropertyIndex::build_by_ids(&anims));
        let last = anims.len() - 1;
        // The far rotation orders after every other rotation, before every translation.
        let (far, near) = (
            index.timelines(last)[0].ids[0],
            index.timelines(last)[1].ids[0],
        );
        assert!(near < far && far < index.count() as u32, "{near} {far}");
    }

    #[test]
    fn more_timelines_than_positions_pack_are_numbered_by_comparing_ids() {
        let timelines = (0..=1 << 14)
            .map(|b| bone(b % 7, BoneProperty::Scale))
            .collect();
        let anims = [Animation::new("many", timelines)];
        assert!(PropertyIndex::build_by_keys(&anims).is_none());
        let index = PropertyIndex::build(&anims);
        assert_eq!(index.count(), 14);
        assert_eq!(index.timelines(0)[8].as_slice(), &[1, 8]);
    }

    #[test]
    fn a_stamp_set_empties_on_reset() {
        let mut s = StampSet::default();
        s.reset(3);
        assert!(s.insert(1));
        assert!(!s.insert(1));
        assert!(s.insert(5), "past the room made");
        s.reset(3);
        assert!(s.insert(1));
        s.generation = u32::MAX;
        s.reset(3);
        assert_eq!(s.generation, 1);
        assert!(s.insert(1));
    }
}
