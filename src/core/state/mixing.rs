//! Applying the tracks to a skeleton: current entries, the entries mixing out beneath them,
//! rotation mixing direction, attachment bookkeeping and event/complete queuing.

use super::hold::honours_add_43;
use super::{AnimationState, EntryId, TimelineMode};
use crate::core::animation::apply_bone;
use crate::core::animation::apply_slot::{set_keyed_attachment, set_setup_attachment};
use crate::core::animation::{
    Animation, At, AttachmentTimeline, BoneProperty, BoneTimeline, MixBlend, MixDirection,
    Timeline, discrete_key, discrete_key_from, setup_for_additive,
};
use crate::core::curve::{KeyHint, Span};
use crate::core::math::{ceil, floor, rem, signum, wrap_degrees_38 as wrap};
use crate::core::model::{
    AttachmentRule, CompleteRule, EventRule, RotateMixRule, SkeletonData, StateRule,
};
use crate::core::skeleton::Skeleton;

/// Attachment state offsets relative to `unkeyed_state`.
const SETUP: u32 = 1;
const CURRENT: u32 = 2;

impl AnimationState {
    /// Poses `skeleton` from every track. Returns true when anything was applied.
    pub fn apply(&mut self, skeleton: &mut Skeleton) -> bool {
        skeleton.edit_pose();
        skeleton.animated = true;
        if self.animations_changed {
            self.animations_changed();
        }
        // The animations are read while the entries change: one handle on them for the call.
        let data = self.data.skeleton.clone();
        let empty = self.empty.clone();
        let mut applied = false;
        for i in 0..self.tracks.len() {
            let Some(current) = self.tracks[i] else {
                continue;
            };
            if self.e(current).delay > 0.0 {
                continue;
            }
            applied = true;
            let blend = if i == 0 {
                MixBlend::First
            } else {
                self.e(current).mix_blend
            };
            let c = self.e(current);
            let mut mix = c.alpha;
            if c.mixing_from.is_some() {
                mix *= self.apply_mixing_from(current, skeleton, blend, &data, &empty);
            } else if c.track_time >= c.track_end && c.next.is_none() {
                mix = 0.0;
            }
            let c = self.e(current);
            let anim: &Animation = c.animation.map_or(&empty, |a| &data.animations[a]);
            let (animation_last, animation_time) = (c.animation_last, c.animation_time());
            // 4.3 additive entries add their rotation plainly, without direction bookkeeping.
            let (reverse, shortest) = (
                c.reverse,
                c.shortest_rotation
                    || (data.rules.state == StateRule::V43 && c.mix_blend == MixBlend::Add),
            );
            // 4.2: attachment keys count only from a threshold of effective alpha on.
            let alpha_threshold = if data.rules.alpha_attachment_threshold {
                c.alpha_attachment_threshold
            } else {
                f64::NEG_INFINITY
            };
            // Reversed entries play from the end and fire no events.
            let apply_time = if reverse {
                anim.duration - animation_time
            } else {
                animation_time
            };
            // Keys are looked up at the animation's key time (frame-grid snapping).
            let (key_last, key_now) = (anim.key_time(animation_last), anim.key_time(apply_time));
            let mut events = std::mem::take(&mut self.events);
            let mut hints = self.take_hints(current, anim);
            let v43 = data.rules.state == StateRule::V43;
            // 3.7 applies attachment timelines as plain timelines (no keyed-slot bookkeeping).
            let v37 = data.rules.state == StateRule::V37;
            if (i == 0 && mix == 1.0) || (blend == MixBlend::Add && !v43) {
                let keep = (i == 0 && mix == 1.0) || mix >= alpha_threshold;
                // 4.3 applies track 0 at full alpha from setup (`s + v`, not `c + (v + s - c)`:
                // a rotation another track mixes toward it then differs by exactly 0).
                let blend = if v43 && i == 0 {
                    MixBlend::Setup
                } else {
                    blend
                };
                for (tl, hint) in anim.timelines.iter().zip(&mut hints) {
                    match tl {
                        Timeline::Attachment(t) if !v37 => {
                            self.apply_attachment_timeline(t, skeleton, key_now, blend, keep, hint)
                        }
                        _ => tl.apply_hinted(
                            skeleton,
                            key_last,
                            key_now,
                            (!reverse).then_some(&mut events),
                            mix,
                            blend,
                            MixDirection::In,
                            hint,
                        ),
                    }
                }
            } else {
                let n = anim.timelines.len();
                let c = self.em(current);
                let first_frame = c.timelines_rotation.is_empty();
                if first_frame {
                    c.timelines_rotation.resize(n, [0.0; 2]);
                }
                let modes = std::mem::take(&mut c.timeline_mode);
                let own_claim = std::mem::take(&mut c.timeline_own_claim);
                let mut rotation = std::mem::take(&mut c.timelines_rotation);
                let additive = v43 && self.e(current).mix_blend == MixBlend::Add;
                let bone_rule = skeleton.data.rules.bone_blend;
                for (ii, tl) in anim.timelines.iter().enumerate() {
                    let mut timeline_blend =
                        if modes.get(ii).copied().unwrap_or(TimelineMode::First)
                            == TimelineMode::Subsequent
                        {
                            claimed_blend(
                                blend,
                                v43,
                                additive && honours_add_43(tl),
                                &own_claim,
                                ii,
                                tl,
                                key_now,
                            )
                        } else {
                            MixBlend::Setup
                        };
                    // 4.3: `from` setup with `add` (constraint timelines start at setup).
                    if additive
                        && timeline_blend == MixBlend::Setup
                        && setup_for_additive(tl, skeleton)
                    {
                        timeline_blend = MixBlend::Add;
                    }
                    match tl {
                        Timeline::Bone(t) if t.property == BoneProperty::Rotate && !shortest => {
                            apply_rotate_mixed(
                                t,
                                skeleton,
                                At {
                                    time: key_now,
                                    hint: &mut hints[ii],
                                },
                                mix,
                                timeline_blend,
                                &mut rotation[ii],
                                first_frame,
                            )
                        }
                        Timeline::Bone(t) => apply_bone::apply_ruled(
                            t,
                            skeleton,
                            At {
                                time: key_now,
                                hint: &mut hints[ii],
                            },
                            mix,
                            timeline_blend,
                            MixDirection::In,
                            bone_rule,
                        ),
                        // 4.3 sets the setup attachment by the timeline's own `from`.
                        Timeline::Attachment(t) if !v37 => self.apply_attachment_timeline(
                            t,
                            skeleton,
                            key_now,
                            if v43 { timeline_blend } else { blend },
                            mix >= alpha_threshold,
                            &mut hints[ii],
                        ),
                        _ => tl.apply_hinted(
                            skeleton,
                            key_last,
                            key_now,
                            (!reverse).then_some(&mut events),
                            mix,
                            timeline_blend,
                            MixDirection::In,
                            &mut hints[ii],
                        ),
                    }
                }
                let c = self.em(current);
                c.timeline_mode = modes;
                c.timeline_own_claim = own_claim;
                c.timelines_rotation = rotation;
            }
            self.em(current).timeline_hints = hints;
            if reverse && data.rules.events == EventRule::V43 {
                fire_reversed(anim, animation_last, animation_time, &mut events);
            }
            self.queue_events(current, animation_time, &events);
            events.clear();
            self.events = events;
            let c = self.em(current);
            c.next_animation_last = animation_time;
            c.next_track_last = c.track_time;
        }
        // Slots whose attachment was set only by keys that did not count put back their setup
        // attachment (so deform keys of those saw the right attachment meanwhile).
        let setup_state = self.unkeyed_state + SETUP;
        // A scan without an index check per slot; most frames find none.
        let mut from = 0;
        while let Some(k) = skeleton.slots[from..]
            .iter()
            .position(|s| s.attachment_state == setup_state)
        {
            set_setup_attachment(skeleton, from + k);
            from += k + 1;
        }
        self.unkeyed_state += 2;
        self.drain();
        applied
    }

    /// Applies the entries mixing out beneath `to` (deepest first); returns `to`'s mix
    /// percentage.
    fn apply_mixing_from(
        &mut self,
        to: EntryId,
        skeleton: &mut Skeleton,
        mut blend: MixBlend,
        data: &SkeletonData,
        empty: &Animation,
    ) -> f64 {
        let Some(from) = self.e(to).mixing_from else {
            return 1.0;
        };
        let v43 = data.rules.state == StateRule::V43;
        let v37 = data.rules.state == StateRule::V37;
        // 4.3 scales this entry by what its own mix out left of it.
        let mut from_mix = 1.0;
        if self.e(from).mixing_from.is_some() {
            from_mix = self.apply_mixing_from(from, skeleton, blend, data, empty);
        }
        let t = self.e(to);
        let (to_mix_duration, to_mix_time, to_interrupt_alpha) =
            (t.mix_duration, t.mix_time, t.interrupt_alpha);
        let mix;
        if to_mix_duration == 0.0 {
            // A single-frame mix undoes what the entry mixing out changed.
            mix = 1.0;
            // 4.3 keeps each timeline's own `from` (a `first` key blends from the current pose).
            if blend == MixBlend::First && !v43 {
                blend = MixBlend::Setup;
            }
        } else {
            mix = (to_mix_time / to_mix_duration).min(1.0);
            if blend != MixBlend::First {
                blend = self.e(from).mix_blend;
            }
        }
        let f = self.e(from);
        let mirrored = data.rules.events == EventRule::V43;
        let fire_events = mix < f.event_threshold && (mirrored || !f.reverse);
        let reversed_events = fire_events && f.reverse;
        let attachments = mix < f.attachment_threshold;
        let draw_order = mix < f.draw_order_threshold;
        let shortest = f.shortest_rotation || (v43 && f.mix_blend == MixBlend::Add);
        let alpha_threshold = if data.rules.alpha_attachment_threshold {
            f.alpha_attachment_threshold
        } else {
            f64::NEG_INFINITY
        };
        let (animation_last, animation_time) = (f.animation_last, f.animation_time());
        let (alpha_hold, alpha_mix) = if v43 {
            let a = f.alpha * from_mix;
            let keep = 1.0 - mix * self.e(to).alpha;
            let alpha_mix = a * (1.0 - mix);
            let hold = if keep > 0.0 { alpha_mix / keep } else { a };
            (hold, alpha_mix)
        } else {
            let alpha_hold = f.alpha * to_interrupt_alpha;
            (alpha_hold, alpha_hold * (1.0 - mix))
        };
        let anim: &Animation = f.animation.map_or(empty, |a| &data.animations[a]);
        let apply_time = if f.reverse {
            anim.duration - animation_time
        } else {
            animation_time
        };
        // Keys are looked up at the animation's key time (frame-grid snapping).
        let (key_last, key_now) = (anim.key_time(animation_last), anim.key_time(apply_time));
        let mut events = std::mem::take(&mut self.events);
        let mut ev = if fire_events && !reversed_events {
            Some(&mut events)
        } else {
            None
        };
        let mut hints = self.take_hints(from, anim);
        if blend == MixBlend::Add && !v43 {
            for (tl, hint) in anim.timelines.iter().zip(&mut hints) {
                tl.apply_hinted(
                    skeleton,
                    key_last,
                    key_now,
                    ev.as_deref_mut(),
                    alpha_mix,
                    blend,
                    MixDirection::Out,
                    hint,
                );
            }
        } else {
            let n = anim.timelines.len();
            let f = self.em(from);
            let first_frame = f.timelines_rotation.is_empty();
            if first_frame {
                f.timelines_rotation.resize(n, [0.0; 2]);
            }
            let modes = std::mem::take(&mut f.timeline_mode);
            let hold_mix = std::mem::take(&mut f.timeline_hold_mix);
            let own_claim = std::mem::take(&mut f.timeline_own_claim);
            let mut rotation = std::mem::take(&mut f.timelines_rotation);
            let mut total_alpha = 0.0;
            let from_additive = v43 && self.e(from).mix_blend == MixBlend::Add;
            let bone_rule = skeleton.data.rules.bone_blend;
            for (ii, tl) in anim.timelines.iter().enumerate() {
                let mut direction = MixDirection::Out;
                let (timeline_blend, alpha) =
                    match modes.get(ii).copied().unwrap_or(TimelineMode::First) {
                        TimelineMode::Subsequent => {
                            if !draw_order && matches!(tl, Timeline::DrawOrder(_)) {
                                continue;
                            }
                            if v37 && !attachments && matches!(tl, Timeline::Attachment(_)) {
                                continue;
                            }
                            (
                                claimed_blend(
                                    blend,
                                    v43,
                                    from_additive && honours_add_43(tl),
                                    &own_claim,
                                    ii,
                                    tl,
                                    key_now,
                                ),
                                alpha_mix,
                            )
                        }
                        TimelineMode::First => (MixBlend::Setup, alpha_mix),
                        // 4.3 holds of any mode may fade with a later entry (`hold_mix`);
                        // 4.2 sets `hold_mix` only with `HoldMix`.
                        TimelineMode::HoldSubsequent => (
                            claimed_blend(
                                blend,
                                v43,
                                from_additive && honours_add_43(tl),
                                &own_claim,
                                ii,
                                tl,
                                key_now,
                            ),
                            alpha_hold * self.hold_fade(&hold_mix, ii, 1.0),
                        ),
                        TimelineMode::HoldFirst => (
                            MixBlend::Setup,
                            alpha_hold * self.hold_fade(&hold_mix, ii, 1.0),
                        ),
                        TimelineMode::HoldMix => (
                            MixBlend::Setup,
                            alpha_hold * self.hold_fade(&hold_mix, ii, 0.0),
                        ),
                    };
                total_alpha += alpha;
                // 4.3: `from` setup with `add` (constraint timelines start at setup).
                let timeline_blend = if from_additive
                    && timeline_blend == MixBlend::Setup
                    && setup_for_additive(tl, skeleton)
                {
                    MixBlend::Add
                } else {
                    timeline_blend
                };
                match tl {
                    Timeline::Bone(t) if t.property == BoneProperty::Rotate && !shortest => {
                        apply_rotate_mixed(
                            t,
                            skeleton,
                            At {
                                time: key_now,
                                hint: &mut hints[ii],
                            },
                            alpha,
                            timeline_blend,
                            &mut rotation[ii],
                            first_frame,
                        )
                    }
                    Timeline::Bone(t) => apply_bone::apply_ruled(
                        t,
                        skeleton,
                        At {
                            time: key_now,
                            hint: &mut hints[ii],
                        },
                        alpha,
                        timeline_blend,
                        MixDirection::Out,
                        bone_rule,
                    ),
                    Timeline::Attachment(t) if !v37 => self.apply_attachment_timeline(
                        t,
                        skeleton,
                        key_now,
                        timeline_blend,
                        attachments && alpha >= alpha_threshold,
                        &mut hints[ii],
                    ),
                    _ => {
                        // 3.7 mixes attachment and draw-order timelines out plainly: from the
                        // setup pose they put the setup attachment / order back; from the
                        // current pose an attachment timeline sets its keys.
                        if v37
                            && matches!(tl, Timeline::Attachment(_))
                            && timeline_blend != MixBlend::Setup
                        {
                            direction = MixDirection::In;
                        }
                        if !v37
                            && draw_order
                            && matches!(tl, Timeline::DrawOrder(_))
                            && timeline_blend == MixBlend::Setup
                        {
                            direction = MixDirection::In;
                        }
                        tl.apply_hinted(
                            skeleton,
                            key_last,
                            key_now,
                            ev.as_deref_mut(),
                            alpha,
                            timeline_blend,
                            direction,
                            &mut hints[ii],
                        );
                    }
                }
            }
            let f = self.em(from);
            f.total_alpha = total_alpha;
            f.timeline_mode = modes;
            f.timeline_hold_mix = hold_mix;
            f.timeline_own_claim = own_claim;
            f.timelines_rotation = rotation;
        }
        self.em(from).timeline_hints = hints;
        if reversed_events {
            fire_reversed(anim, animation_last, animation_time, &mut events);
        }
        if to_mix_duration > 0.0 {
            self.queue_events(from, animation_time, &events);
        }
        events.clear();
        self.events = events;
        let f = self.em(from);
        f.next_animation_last = animation_time;
        f.next_track_last = f.track_time;
        mix
    }

    /// What is left of a held timeline while its hold-mix entry mixes in: `1 - mix`, or
    /// `none` without a hold-mix entry.
    fn hold_fade(&self, hold_mix: &[Option<EntryId>], i: usize, none: f64) -> f64 {
        match hold_mix
            .get(i)
            .copied()
            .flatten()
            .and_then(|h| self.entry(h))
        {
            Some(h) => (1.0 - h.mix_time / h.mix_duration).max(0.0),
            None => none,
        }
    }

    /// Takes the entry's key search hints out, one per timeline of `anim` (its animation).
    fn take_hints(&mut self, entry: EntryId, anim: &Animation) -> Vec<KeyHint> {
        let mut hints = std::mem::take(&mut self.em(entry).timeline_hints);
        hints.resize(anim.timelines.len(), 0);
        hints
    }

    /// Sets the keyed attachment (or the setup one before the first key); marks the slot as
    /// keyed by a current entry when `attachments` is true, else to be reset to setup later.
    fn apply_attachment_timeline(
        &mut self,
        t: &AttachmentTimeline,
        skeleton: &mut Skeleton,
        time: f64,
        blend: MixBlend,
        attachments: bool,
        hint: &mut KeyHint,
    ) {
        let slot = t.slot;
        if !skeleton.bones[skeleton.data.slots[slot].bone].active {
            return;
        }
        if skeleton.data.rules.attachments == AttachmentRule::Retained {
            self.apply_attachment_retained(t, skeleton, time, blend, attachments);
            return;
        }
        match discrete_key_from(&t.times, time, hint) {
            None => {
                if matches!(blend, MixBlend::Setup | MixBlend::First) {
                    set_setup_attachment(skeleton, slot);
                    if attachments {
                        skeleton.slots[slot].attachment_state = self.unkeyed_state + CURRENT;
                    }
                }
            }
            Some(k) => self.set_attachment(skeleton, t, k, attachments),
        }
        if skeleton.slots[slot].attachment_state <= self.unkeyed_state {
            skeleton.slots[slot].attachment_state = self.unkeyed_state + SETUP;
        }
    }

    /// Spine 4.3 ([`AttachmentRule::Retained`]): `retain` applications win over the others
    /// of the frame; the others' null keys and times before the first key mean the setup
    /// attachment, which `from` current (`MixBlend::Replace` / `Add`) leaves alone without
    /// retaining the slot.
    fn apply_attachment_retained(
        &mut self,
        t: &AttachmentTimeline,
        skeleton: &mut Skeleton,
        time: f64,
        from: MixBlend,
        retain: bool,
    ) {
        let slot = t.slot;
        let retained = self.unkeyed_state + CURRENT;
        if !retain && skeleton.slots[slot].attachment_state == retained {
            return;
        }
        let key = discrete_key(&t.times, time);
        let setup = match key.map(|k| t.names[k].is_some()) {
            None => true,
            Some(false) => !retain,
            Some(true) => false,
        };
        if setup {
            // From the current pose there is nothing to set, and nothing is retained.
            if !matches!(from, MixBlend::Setup | MixBlend::First) {
                return;
            }
            set_setup_attachment(skeleton, slot);
        } else {
            // `key` is set here: `setup` is true without one.
            if let Some(k) = key {
                set_keyed_attachment(skeleton, t, k);
            }
        }
        if retain {
            skeleton.slots[slot].attachment_state = retained;
        } else if !setup {
            skeleton.slots[slot].attachment_state = self.unkeyed_state + SETUP;
        }
    }

    fn set_attachment(
        &self,
        skeleton: &mut Skeleton,
        t: &AttachmentTimeline,
        key: usize,
        attachments: bool,
    ) {
        set_keyed_attachment(skeleton, t, key);
        if attachments {
            skeleton.slots[t.slot].attachment_state = self.unkeyed_state + CURRENT;
        }
    }

    /// Queues the entry's events of this apply, with `complete` between the events before
    /// and after a loop boundary.
    fn queue_events(
        &mut self,
        entry: EntryId,
        animation_time: f64,
        events: &[crate::core::model::Event],
    ) {
        let e = self.e(entry);
        let (start, end) = (e.animation_start, e.animation_end);
        let duration = end - start;
        let v43 = self.data.skeleton.rules.events == EventRule::V43;
        let complete = if e.looping {
            duration == 0.0
                || match self.data.skeleton.rules.complete {
                    CompleteRule::Mod => e.track_last % duration > e.track_time % duration,
                    CompleteRule::Floor => {
                        let cycles = floor(e.track_time / duration);
                        cycles > 0.0 && cycles > floor(e.track_last / duration)
                    }
                }
        } else {
            animation_time >= end && e.animation_last < end
        };
        // Most frames have no events: only `complete` to queue, without the split below.
        if events.is_empty() {
            if complete {
                self.queue_complete(entry);
            }
            return;
        }
        // Where this frame's events split into before / after `complete` (mirrored when
        // reversed).
        let split = if v43 && e.reverse {
            duration - e.track_last % duration
        } else {
            e.track_last % duration
        };
        let before = |t: f64| {
            if v43 && e.reverse {
                t < split
            } else {
                t >= split
            }
        };
        let outside = |t: f64| t < start || t > end;
        let mut i = 0;
        let mut queued = Vec::new();
        while i < events.len() {
            let ev = &events[i];
            if !before(ev.time) {
                break;
            }
            i += 1;
            if ev.time > end || (v43 && outside(ev.time)) {
                continue;
            }
            queued.push(ev.clone());
        }
        for ev in queued {
            self.queue_event(entry, ev);
        }
        if complete {
            self.queue_complete(entry);
        }
        for ev in &events[i..] {
            if ev.time < start || (v43 && outside(ev.time)) {
                continue;
            }
            self.queue_event(entry, ev.clone());
        }
    }
}

/// The blend of a timeline whose properties an earlier entry claimed: the track's `blend`.
/// 4.3 goes by the entry instead of the track: an additive entry's timelines that honour
/// `add` add (on track 0 too), except before their first key when only its own track claimed
/// them (`from` first then pulls toward setup); others blend from `first` when only earlier
/// entries of the same track claimed the properties, from the current pose when another
/// track did.
fn claimed_blend(
    blend: MixBlend,
    v43: bool,
    additive: bool,
    own_claim: &[bool],
    i: usize,
    tl: &Timeline,
    time: f64,
) -> MixBlend {
    if !v43 {
        return blend;
    }
    let own = own_claim.get(i).copied().unwrap_or(false);
    let before_first = || tl.key_times().first().is_some_and(|&t| time < f64::from(t));
    if additive && !(own && before_first()) {
        MixBlend::Add
    } else if own {
        MixBlend::First
    } else {
        MixBlend::Replace
    }
}

/// A rotate timeline under mixing: blends from the current (or setup) rotation toward the
/// keyed one, keeping the turning direction of earlier frames (`rotation` = [total, last
/// difference]) so a mix does not flip when the difference crosses 180 degrees.
fn apply_rotate_mixed(
    t: &BoneTimeline,
    sk: &mut Skeleton,
    at: At<'_>,
    alpha: f64,
    blend: MixBlend,
    rotation: &mut [f64; 2],
    first_frame: bool,
) {
    if first_frame {
        rotation[0] = 0.0;
    }
    if alpha == 1.0 {
        crate::core::animation::apply_bone::apply(t, sk, at, 1.0, blend, MixDirection::In);
        return;
    }
    let bone_index = t.bone;
    if !sk.bones[bone_index].active {
        return;
    }
    let rule = sk.data.rules.rotate_mix;
    let setup_rotation = sk.data.bones[bone_index].rotation;
    let bone = &mut sk.bones[bone_index];
    let keys = &t.keys;
    // The keyed rotation (`None` before the first key). 3.8 keys turn the shortest way and
    // the target wraps; 4.x takes the keys' value as it is, by the hinted value path.
    let keyed = match rule {
        RotateMixRule::V38 => match keys.locate_from(at.time, at.hint) {
            Span::Before => None,
            Span::Last(i) => Some(setup_rotation + keys.value(i, 0)),
            Span::Between { key, percent, .. } => Some(wrap(
                t.rotation_between(key, keys.curve_percent(key, percent)) + setup_rotation,
            )),
        },
        _ => keys
            .value_from(at.time, at.hint, 0)
            .map(|v| setup_rotation + v),
    };
    let (r1, r2);
    match keyed {
        None => match blend {
            MixBlend::Setup => {
                bone.pose.rotation = setup_rotation;
                return;
            }
            MixBlend::First => {
                r1 = bone.pose.rotation;
                r2 = setup_rotation;
            }
            _ => return,
        },
        Some(r) => {
            r1 = if blend == MixBlend::Setup {
                setup_rotation
            } else {
                bone.pose.rotation
            };
            r2 = r;
        }
    }
    let diff = match rule {
        RotateMixRule::V38 | RotateMixRule::V40 => wrap(r2 - r1),
        RotateMixRule::V42 => {
            let d = r2 - r1;
            d - ceil(d / 360.0 - 0.5) * 360.0
        }
    };
    let total;
    if diff == 0.0 {
        total = rotation[0];
    } else {
        let (last_total, last_diff) = if first_frame {
            (0.0, diff)
        } else {
            (rotation[0], rotation[1])
        };
        total = match rule {
            RotateMixRule::V38 | RotateMixRule::V40 => turn_38(diff, last_total, last_diff),
            RotateMixRule::V42 => turn_42(diff, last_total, last_diff),
        };
        rotation[0] = total;
    }
    rotation[1] = diff;
    let r = r1 + total * alpha;
    bone.pose.rotation = match rule {
        RotateMixRule::V38 => wrap(r),
        _ => r,
    };
}

/// The accumulated turn toward `diff` (3.8 to 4.1): keeps the previous direction unless the
/// difference changed sign near 0 (a real crossing rather than one through 180 degrees).
fn turn_38(diff: f64, mut last_total: f64, last_diff: f64) -> f64 {
    let current = diff > 0.0;
    let mut dir = last_total >= 0.0;
    if signum(last_diff) != signum(diff) && last_diff.abs() <= 90.0 {
        // A crossing after a full turn counts as a loop.
        if last_total.abs() > 180.0 {
            last_total += 360.0 * signum(last_total);
        }
        dir = current;
    }
    let mut t = diff + last_total - rem(last_total, 360.0);
    if dir != current {
        t += 360.0 * signum(last_total);
    }
    t
}

/// 4.2's form of [`turn_38`], counting whole loops of the previous total.
fn turn_42(diff: f64, last_total: f64, last_diff: f64) -> f64 {
    let loops = last_total - rem(last_total, 360.0);
    let mut total = diff + loops;
    let current = diff >= 0.0;
    let mut dir = last_total >= 0.0;
    if last_diff.abs() <= 90.0 && signum(last_diff) != signum(diff) {
        if (last_total - loops).abs() > 180.0 {
            total += 360.0 * signum(last_total);
            dir = current;
        } else if loops != 0.0 {
            total -= 360.0 * signum(last_total);
        } else {
            dir = current;
        }
    }
    if dir != current {
        total += 360.0 * signum(last_total);
    }
    total
}

/// Spine 4.3: the events a reversed entry passed from `animation_last` to `animation_time`
/// (both in play time; the keys are found at the mirrored times).
fn fire_reversed(
    anim: &Animation,
    animation_last: f64,
    animation_time: f64,
    out: &mut Vec<crate::core::model::Event>,
) {
    let d = anim.duration;
    for tl in &anim.timelines {
        if let Timeline::Event(t) = tl {
            t.fire_reversed(d - animation_last, d - animation_time, out);
        }
    }
}
