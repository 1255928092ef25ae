//! Timeline modes: for each timeline of each entry, whether it blends from the setup pose or
//! the pose below it, and whether it is held while mixing out so the mix does not dip
//! through the setup pose.

use super::{AnimationState, EntryId, TimelineMode};
use crate::core::animation::{MixBlend, PropertyId, PropertyIndex, StampSet, Timeline};
use crate::core::model::{SkeletonData, StateRule};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The properties keyed by the entries visited so far. The state keeps one between changes so
/// its table is reused; it is only asked for membership, so the hash function cannot change a
/// result, and SipHash cost more than the rest of a change.
pub(super) type PropertySet = HashSet<PropertyId, BuildHasherDefault<PropertyHasher>>;

/// A multiply-rotate hash (as rustc's `FxHasher`) for the few small integers of a
/// [`PropertyId`].
#[derive(Default)]
pub(super) struct PropertyHasher(u64);

impl PropertyHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for PropertyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.add(v);
    }

    fn write_usize(&mut self, v: usize) {
        self.add(v as u64);
    }

    fn write_isize(&mut self, v: isize) {
        self.add(v as u64);
    }
}

impl AnimationState {
    /// Recomputes the timeline modes of every entry after starts or ends were queued.
    pub(super) fn animations_changed(&mut self) {
        self.animations_changed = false;
        if self.data.skeleton.rules.state == StateRule::V43 {
            self.animations_changed_43();
            return;
        }
        // Properties by their dense numbers (the data's, or numbered here for data that was
        // not finished): a stamped array instead of a hash set.
        let data = self.data.skeleton.clone();
        let built;
        let index = if data.property_index.covers(&data.animations) {
            &data.property_index
        } else {
            built = PropertyIndex::build(&data.animations);
            &built
        };
        let mut seen = std::mem::take(&mut self.properties_stamped);
        seen.reset(index.count());
        let rules_4x = data.rules.is_4x();
        for t in 0..self.tracks.len() {
            let Some(mut entry) = self.tracks[t] else {
                continue;
            };
            while let Some(from) = self.e(entry).mixing_from {
                entry = from;
            }
            let mut cur = Some(entry);
            while let Some(e) = cur {
                let en = self.e(e);
                // Additive entries that mix out are applied through the additive path, which
                // does not use the modes (3.8 tested whether they mix from something).
                let skip = en.mix_blend == MixBlend::Add
                    && if rules_4x {
                        en.mixing_to.is_some()
                    } else {
                        en.mixing_from.is_some()
                    };
                if !skip {
                    self.compute_hold(e, &mut seen, &data, index);
                }
                cur = self.e(e).mixing_to;
            }
        }
        self.properties_stamped = seen;
    }

    fn compute_hold(
        &mut self,
        entry: EntryId,
        seen: &mut StampSet,
        data: &SkeletonData,
        index: &PropertyIndex,
    ) {
        let e = self.e(entry);
        let to = e.mixing_to;
        let entry_mix_duration = e.mix_duration;
        // The empty animation has no timelines: nothing to compute.
        let empty = self.empty.clone();
        let (anim, props) = match e.animation {
            Some(i) => (&data.animations[i], index.timelines(i)),
            None => (&*empty, &[][..]),
        };
        let n = anim.timelines.len();
        // The entry's previous arrays are reused: one allocation per entry, not per change.
        let e = self.em(entry);
        let mut modes = std::mem::take(&mut e.timeline_mode);
        let mut hold_mix = std::mem::take(&mut e.timeline_hold_mix);
        modes.clear();
        modes.resize(n, TimelineMode::Subsequent);
        hold_mix.clear();
        hold_mix.resize(n, None);
        let keys_any = |entry: &super::TrackEntry, ids: &[u32]| {
            entry.animation.is_some_and(|a| index.keys_any(a, ids))
        };
        let to_hold_previous = to.is_some_and(|t| self.e(t).hold_previous);
        debug_assert_eq!(props.len(), n, "a covering index numbers every timeline");
        if to_hold_previous {
            for (mode, ids) in modes.iter_mut().zip(props) {
                *mode = if insert_all(seen, ids.as_slice()) {
                    TimelineMode::HoldFirst
                } else {
                    TimelineMode::HoldSubsequent
                };
            }
        } else {
            'timelines: for (i, (tl, ids)) in anim.timelines.iter().zip(props).enumerate() {
                let id = ids.as_slice();
                if !insert_all(seen, id) {
                    modes[i] = TimelineMode::Subsequent;
                    continue;
                }
                let discrete = matches!(
                    tl,
                    Timeline::Attachment(_) | Timeline::DrawOrder(_) | Timeline::Event(_)
                );
                let to_keys = to.is_some_and(|t| keys_any(self.e(t), id));
                if to.is_none() || discrete || !to_keys {
                    modes[i] = TimelineMode::First;
                    continue;
                }
                // `to` keys it too: hold, unless an entry further up stops keying it.
                let mut next = to.and_then(|t| self.e(t).mixing_to);
                while let Some(nx) = next {
                    let ne = self.e(nx);
                    if keys_any(ne, id) {
                        next = ne.mixing_to;
                        continue;
                    }
                    if entry_mix_duration > 0.0 {
                        modes[i] = TimelineMode::HoldMix;
                        hold_mix[i] = Some(nx);
                        continue 'timelines;
                    }
                    break;
                }
                modes[i] = TimelineMode::HoldFirst;
            }
        }
        let e = self.em(entry);
        e.timeline_mode = modes;
        e.timeline_hold_mix = hold_mix;
    }
}

/// Adds every property number of a timeline to `seen`; true when at least one was new.
#[inline]
fn insert_all(seen: &mut StampSet, ids: &[u32]) -> bool {
    let mut new = false;
    for &id in ids {
        new |= seen.insert(id);
    }
    new
}

/// Whether a timeline is "instant" in 4.3 (no mixing: always from its mode, never held).
fn instant_43(tl: &Timeline) -> bool {
    matches!(
        tl,
        Timeline::Attachment(_)
            | Timeline::Inherit(_)
            | Timeline::Sequence(_)
            | Timeline::Event(_)
            | Timeline::DrawOrder(_)
            | Timeline::DrawOrderFolder(_)
            | Timeline::PhysicsReset(_)
    )
}

/// Whether a timeline adds when its 4.3 entry is additive: the additive timelines, path
/// mixes and slider times too; colours, IK, path spacing, the other physics parameters and
/// the instant timelines ignore the flag (their `from` still applies).
pub(super) fn honours_add_43(tl: &Timeline) -> bool {
    use crate::core::animation::PathProperty;
    additive_43(tl)
        || matches!(tl, Timeline::Slider(_))
        || matches!(tl, Timeline::Path(p) if p.property == PathProperty::Mix)
}

/// Whether a timeline honours an entry's additive flag in 4.3.
pub(super) fn additive_43(tl: &Timeline) -> bool {
    use crate::core::animation::PhysicsProperty;
    match tl {
        Timeline::Bone(_) | Timeline::Deform(_) | Timeline::Transform(_) => true,
        Timeline::Path(p) => p.property == crate::core::animation::PathProperty::Position,
        Timeline::Slider(s) => s.property == crate::core::animation::SliderProperty::Mix,
        Timeline::Physics(p) => {
            matches!(p.property, PhysicsProperty::Wind | PhysicsProperty::Gravity)
        }
        _ => false,
    }
}

impl AnimationState {
    /// Spine 4.3: every entry of every track, oldest first; properties are claimed per track
    /// (unclaimed: from setup; claimed by this track: first; by another track: current).
    fn animations_changed_43(&mut self) {
        let mut others = std::mem::take(&mut self.properties_seen);
        others.clear();
        let mut track_seen = PropertySet::default();
        for t in 0..self.tracks.len() {
            let Some(mut entry) = self.tracks[t] else {
                continue;
            };
            while let Some(from) = self.e(entry).mixing_from {
                entry = from;
            }
            track_seen.clear();
            let mut cur = Some(entry);
            while let Some(e) = cur {
                self.compute_hold_43(e, &mut track_seen, &others);
                cur = self.e(e).mixing_to;
            }
            others.extend(track_seen.iter().copied());
        }
        self.properties_seen = others;
    }

    /// `track`: what earlier entries of this track claimed; `others`: what earlier tracks
    /// claimed.
    fn compute_hold_43(&mut self, entry: EntryId, track: &mut PropertySet, others: &PropertySet) {
        let data = self.data.skeleton.clone();
        let empty = self.empty.clone();
        let e = self.e(entry);
        let to = e.mixing_to;
        let additive = e.mix_blend == MixBlend::Add;
        // keepHold: the entry keeps the hold bit of its previous modes (its hold-mix entry is
        // still looked up afresh).
        let kept_holds: Option<Vec<bool>> = e.keep_hold.then(|| {
            e.timeline_mode
                .iter()
                .map(|m| {
                    matches!(
                        m,
                        TimelineMode::HoldFirst
                            | TimelineMode::HoldSubsequent
                            | TimelineMode::HoldMix
                    )
                })
                .collect()
        });
        let anim = match e.animation {
            Some(i) => &data.animations[i],
            None => &*empty,
        };
        let n = anim.timelines.len();
        let mut modes = vec![TimelineMode::Subsequent; n];
        let mut hold_mix = vec![None; n];
        let mut own_claim = vec![false; n];
        for (i, tl) in anim.timelines.iter().enumerate() {
            let ids = tl.property_ids();
            let id = ids.as_slice();
            let by_others = id.iter().any(|p| others.contains(p));
            let by_track = id.iter().any(|p| track.contains(p));
            own_claim[i] = by_track && !by_others;
            let claimed = by_track || by_others;
            for &p in id {
                track.insert(p);
            }
            let first = !claimed;
            let plain = if first {
                TimelineMode::First
            } else {
                TimelineMode::Subsequent
            };
            let held = if first {
                TimelineMode::HoldFirst
            } else {
                TimelineMode::HoldSubsequent
            };
            let additive_tl = additive_43(tl);
            let fresh_hold = match to {
                _ if additive && additive_tl => false,
                None => false,
                Some(to) => {
                    let te = self.e(to);
                    let to_additive = te.mix_blend == MixBlend::Add;
                    !(instant_43(tl)
                        || (to_additive && additive_tl)
                        || !self.animation_of(te).has_any_property(id))
                }
            };
            let hold = match &kept_holds {
                Some(kept) => kept.get(i).copied().unwrap_or(false),
                None => fresh_hold,
            };
            if !hold {
                modes[i] = plain;
                continue;
            }
            modes[i] = held;
            // The hold fades with the first later entry that stops keying it, when that
            // entry mixes in over time (its own mix duration > 0), whatever the entry's `from`.
            let mut next = to.and_then(|t| self.e(t).mixing_to);
            while let Some(nx) = next {
                let ne = self.e(nx);
                let stops = !self.animation_of(ne).has_any_property(id)
                    || (ne.mix_blend == MixBlend::Add && additive_tl);
                if !stops {
                    next = ne.mixing_to;
                    continue;
                }
                if ne.mix_duration > 0.0 {
                    hold_mix[i] = Some(nx);
                }
                break;
            }
        }
        let e = self.em(entry);
        e.timeline_mode = modes;
        e.timeline_hold_mix = hold_mix;
        e.timeline_own_claim = own_claim;
    }
}
