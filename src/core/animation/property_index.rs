//! Dense numbers for the properties a skeleton's animations key, so the animation state can
//! work out timeline modes with a stamped array instead of a hash set of [`PropertyId`]s.

use super::{Animation, PropertyId, sort_unique_ids};

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
        // Sized first: a flattening iterator tells `collect` no length (a reallocation per
        // doubling).
        let mut all = Vec::with_capacity(animations.iter().map(|a| a.properties.len()).sum());
        for a in animations {
            all.extend_from_slice(&a.properties);
        }
        sort_unique_ids(&mut all);
        // Searched by their order keys (integer compares; the enums' derived `Ord` was most of
        // this function), or as enums when some id does not pack. u32 numbers: more distinct
        // properties than that cannot be loaded (each is a timeline).
        let mut keys = Some(Vec::with_capacity(all.len()));
        for id in &all {
            match (id.order_key(), &mut keys) {
                (Some(k), Some(keys)) => keys.push(k),
                _ => {
                    keys = None;
                    break;
                }
            }
        }
        let number = |id: &PropertyId| {
            let found = match (&keys, id.order_key()) {
                (Some(keys), Some(key)) => keys.binary_search(&key),
                _ => all.binary_search(id),
            };
            found.map_or(u32::MAX, |i| i as u32)
        };
        let animations = animations
            .iter()
            .map(|a| {
                let timelines = a
                    .timelines
                    .iter()
                    .map(|tl| {
                        let ids = tl.property_ids();
                        let mut dense = DenseIds {
                            ids: [0; 3],
                            len: 0,
                        };
                        for (d, id) in dense.ids.iter_mut().zip(ids.as_slice()) {
                            *d = number(id);
                            dense.len += 1;
                        }
                        dense
                    })
                    .collect();
                // `properties` is sorted in id order, which the numbering keeps.
                let keyed = a.properties.iter().map(number).collect();
                AnimationProperties { timelines, keyed }
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
