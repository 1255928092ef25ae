//! Tracks, queuing and time: everything of the animation state except applying poses
//! (`mixing.rs`) and timeline hold modes (`hold.rs`).

use super::hold::PropertySet;
use super::notification::EventQueue;
use super::{AnimationStateData, EntryId, Notification, NotificationKind, TrackEntry};
use crate::core::animation::{Animation, MixBlend, StampSet};
use crate::core::model::{DelayRule, Event, MixFinishedRule, StateRule, UnappliedRule};
use std::sync::Arc;

/// A listener: gets the state (so it may set or queue animations) and the notification.
pub type Listener = Box<dyn FnMut(&mut AnimationState, &Notification)>;

/// Plays animations on tracks, mixing between them, and notifies listeners.
pub struct AnimationState {
    pub data: AnimationStateData,
    /// Current entry per track (`None` = empty track).
    pub tracks: Vec<Option<EntryId>>,
    /// Scales every track's time.
    pub time_scale: f64,
    entries: Vec<Option<TrackEntry>>,
    free_slots: Vec<u32>,
    next_serial: u64,
    listeners: Vec<Listener>,
    pub(super) queue: EventQueue,
    pub(super) events: Vec<Event>,
    pub(super) animations_changed: bool,
    pub(super) unkeyed_state: u32,
    pub(super) empty: Arc<Animation>,
    /// Scratch set of the 4.3 `animations_changed`, kept to reuse its table.
    pub(super) properties_seen: PropertySet,
    /// Scratch set of `animations_changed` (property numbers), kept to reuse its array.
    pub(super) properties_stamped: StampSet,
    /// Per track, the entry last queued by `add_animation`: where the walk to the end of the
    /// queue starts, so queuing n entries is linear, not quadratic. Cleared whenever the queue
    /// is cut (`dispose_next`); a stale hint (freed entry) falls back to the whole walk.
    queue_tails: Vec<Option<EntryId>>,
}

impl AnimationState {
    /// An empty state.
    pub fn new(data: AnimationStateData) -> AnimationState {
        AnimationState {
            data,
            tracks: Vec::new(),
            time_scale: 1.0,
            entries: Vec::new(),
            free_slots: Vec::new(),
            next_serial: 1,
            listeners: Vec::new(),
            queue: EventQueue::default(),
            events: Vec::new(),
            animations_changed: false,
            unkeyed_state: 0,
            empty: Arc::new(Animation::empty()),
            properties_seen: PropertySet::default(),
            properties_stamped: StampSet::default(),
            queue_tails: Vec::new(),
        }
    }

    /// Registers a state-level listener (called after the entry's own listener).
    pub fn add_listener(&mut self, listener: Listener) {
        self.listeners.push(listener);
    }

    /// Removes every state-level listener.
    pub fn clear_listeners(&mut self) {
        self.listeners.clear();
    }

    /// Drops notifications queued but not yet delivered.
    pub fn clear_listener_notifications(&mut self) {
        self.queue.items.clear();
    }

    /// Sets the entry's own listener (called before the state's listeners).
    pub fn set_entry_listener(&mut self, id: EntryId, listener: Option<Listener>) {
        if let Some(e) = self.entry_mut(id) {
            e.listener = listener;
        }
    }

    /// The entry behind a handle, while it exists.
    pub fn entry(&self, id: EntryId) -> Option<&TrackEntry> {
        self.entries
            .get(id.slot as usize)?
            .as_ref()
            // Serials are never reused: the same serial in the slot is the same entry.
            .filter(|e| e.id.serial == id.serial)
    }

    /// The entry behind a handle, mutably.
    pub fn entry_mut(&mut self, id: EntryId) -> Option<&mut TrackEntry> {
        self.entries
            .get_mut(id.slot as usize)?
            .as_mut()
            .filter(|e| e.id.serial == id.serial)
    }

    /// The entry; a handle held internally always resolves.
    pub(super) fn e(&self, id: EntryId) -> &TrackEntry {
        self.entry(id).expect("live track entry")
    }

    pub(super) fn em(&mut self, id: EntryId) -> &mut TrackEntry {
        self.entry_mut(id).expect("live track entry")
    }

    /// The current entry of a track.
    pub fn current(&self, track: usize) -> Option<EntryId> {
        self.tracks.get(track).copied().flatten()
    }

    /// The animation an entry plays (the shared empty animation for `None`).
    pub fn animation_of(&self, entry: &TrackEntry) -> &Animation {
        match entry.animation {
            Some(i) => &self.data.skeleton.animations[i],
            None => &self.empty,
        }
    }

    /// The name of an entry's animation (`<empty>` for the empty animation).
    pub fn animation_name(&self, id: EntryId) -> &str {
        match self.entry(id).and_then(|e| e.animation) {
            Some(i) => &self.data.skeleton.animations[i].name,
            None => "<empty>",
        }
    }

    fn duration_of(&self, animation: Option<usize>) -> f64 {
        animation.map_or(0.0, |i| self.data.skeleton.animations[i].duration)
    }

    // ----- notifications -------------------------------------------------------------------

    fn notify(&mut self, kind: NotificationKind, entry: EntryId, event: Option<Event>) {
        let track = self.entry(entry).map_or(0, |e| e.track);
        if matches!(kind, NotificationKind::Start | NotificationKind::End) {
            self.animations_changed = true;
        }
        self.queue.items.push(Notification {
            kind,
            entry,
            track,
            event,
        });
    }

    pub(super) fn queue_start(&mut self, e: EntryId) {
        self.notify(NotificationKind::Start, e, None);
    }
    pub(super) fn queue_interrupt(&mut self, e: EntryId) {
        self.notify(NotificationKind::Interrupt, e, None);
    }
    pub(super) fn queue_end(&mut self, e: EntryId) {
        self.notify(NotificationKind::End, e, None);
    }
    pub(super) fn queue_dispose(&mut self, e: EntryId) {
        self.notify(NotificationKind::Dispose, e, None);
    }
    pub(super) fn queue_complete(&mut self, e: EntryId) {
        self.notify(NotificationKind::Complete, e, None);
    }
    pub(super) fn queue_event(&mut self, e: EntryId, event: Event) {
        self.notify(NotificationKind::Event, e, Some(event));
    }

    /// Delivers queued notifications in order: the entry's listener, then the state's. An
    /// `End` is always followed by the entry's `Dispose`; after `Dispose` the entry is gone.
    /// Notifications queued by listeners are delivered in the same pass.
    #[inline]
    pub(super) fn drain(&mut self) {
        // Most frames queue nothing: an empty queue leaves everything as it is, without a call.
        if !self.queue.items.is_empty() {
            self.drain_queued();
        }
    }

    /// [`AnimationState::drain`] of a queue with notifications in it.
    fn drain_queued(&mut self) {
        if self.queue.drain_disabled {
            return;
        }
        self.queue.drain_disabled = true;
        let mut i = 0;
        while i < self.queue.items.len() {
            let note = self.queue.items[i].clone();
            i += 1;
            self.deliver(&note);
            if note.kind == NotificationKind::End {
                let dispose = Notification {
                    kind: NotificationKind::Dispose,
                    event: None,
                    ..note
                };
                self.deliver(&dispose);
            }
            if matches!(note.kind, NotificationKind::End | NotificationKind::Dispose) {
                self.free_entry(note.entry);
            }
        }
        self.queue.items.clear();
        self.queue.drain_disabled = false;
    }

    fn deliver(&mut self, note: &Notification) {
        if let Some(mut l) = self.entry_mut(note.entry).and_then(|e| e.listener.take()) {
            l(self, note);
            if let Some(e) = self.entry_mut(note.entry)
                && e.listener.is_none()
            {
                e.listener = Some(l);
            }
        }
        if self.listeners.is_empty() {
            return;
        }
        let mut ls = std::mem::take(&mut self.listeners);
        for l in ls.iter_mut() {
            l(self, note);
        }
        // Keep listeners added while delivering, after the existing ones.
        ls.append(&mut self.listeners);
        self.listeners = ls;
    }

    // ----- entries -------------------------------------------------------------------------

    fn new_entry(
        &mut self,
        track: usize,
        animation: Option<usize>,
        looping: bool,
        last: Option<EntryId>,
    ) -> EntryId {
        let slot = self.free_slots.pop().unwrap_or_else(|| {
            self.entries.push(None);
            (self.entries.len() - 1) as u32
        });
        let id = EntryId {
            slot,
            serial: self.next_serial,
        };
        self.next_serial += 1;
        let mix_duration = match last {
            Some(l) => self.data.mix(self.e(l).animation, animation),
            None => 0.0,
        };
        let entry = TrackEntry {
            id,
            animation,
            track,
            looping,
            hold_previous: false,
            keep_hold: false,
            event_threshold: 0.0,
            attachment_threshold: 0.0,
            draw_order_threshold: 0.0,
            animation_start: 0.0,
            animation_end: self.duration_of(animation),
            animation_last: -1.0,
            next_animation_last: -1.0,
            delay: 0.0,
            track_time: 0.0,
            track_last: -1.0,
            next_track_last: -1.0,
            track_end: f64::MAX,
            time_scale: animation
                .and_then(|a| self.data.skeleton.animations.get(a))
                .map_or(1.0, |a| a.time_scale),
            alpha: 1.0,
            mix_time: 0.0,
            mix_duration,
            interrupt_alpha: 1.0,
            total_alpha: 0.0,
            mix_blend: MixBlend::Replace,
            reverse: false,
            shortest_rotation: false,
            alpha_attachment_threshold: 0.0,
            previous: last,
            next: None,
            mixing_from: None,
            mixing_to: None,
            timeline_mode: Vec::new(),
            timeline_hold_mix: Vec::new(),
            timeline_own_claim: Vec::new(),
            timelines_rotation: Vec::new(),
            timeline_hints: Vec::new(),
            listener: None,
        };
        self.entries[slot as usize] = Some(entry);
        id
    }

    fn free_entry(&mut self, id: EntryId) {
        if self.entry(id).is_some() {
            self.entries[id.slot as usize] = None;
            self.free_slots.push(id.slot);
        }
    }

    fn expand_to_index(&mut self, index: usize) -> Option<EntryId> {
        if index < self.tracks.len() {
            return self.tracks[index];
        }
        self.tracks.resize(index + 1, None);
        None
    }

    /// Queues `dispose` for every entry queued after `entry` and unlinks them.
    fn dispose_next(&mut self, entry: EntryId) {
        let track = self.e(entry).track;
        if let Some(tail) = self.queue_tails.get_mut(track) {
            *tail = None;
        }
        let mut next = self.e(entry).next;
        while let Some(n) = next {
            self.queue_dispose(n);
            next = self.e(n).next;
        }
        self.em(entry).next = None;
    }

    fn set_current(&mut self, index: usize, current: EntryId, interrupt: bool) {
        let from = self.expand_to_index(index);
        self.tracks[index] = Some(current);
        self.em(current).previous = None;
        if let Some(from) = from {
            if interrupt {
                self.queue_interrupt(from);
            }
            let (from_mixing_from, from_mix_time, from_mix_duration) = {
                let f = self.e(from);
                (f.mixing_from, f.mix_time, f.mix_duration)
            };
            {
                let c = self.em(current);
                c.mixing_from = Some(from);
                c.mix_time = 0.0;
                // Keep the interrupted mix's progress.
                if from_mixing_from.is_some() && from_mix_duration > 0.0 {
                    c.interrupt_alpha *= (from_mix_time / from_mix_duration).min(1.0);
                }
            }
            let f = self.em(from);
            f.mixing_to = Some(current);
            // Mixing out starts its rotation bookkeeping afresh.
            f.timelines_rotation.clear();
        }
        self.queue_start(current);
    }

    // ----- public operations ---------------------------------------------------------------

    /// Plays `animation` (index, `None` = empty) on `track` now, replacing the current entry
    /// (which mixes out) and disposing queued ones.
    pub fn set_animation(
        &mut self,
        track: usize,
        animation: Option<usize>,
        looping: bool,
    ) -> EntryId {
        let mut interrupt = true;
        let mut current = self.expand_to_index(track);
        if let Some(c) = current {
            let replace = match self.data.skeleton.rules.unapplied {
                UnappliedRule::Replace => true,
                UnappliedRule::ReplaceSameAnimation => self.e(c).animation == animation,
            };
            if replace && !self.e(c).was_applied() {
                // Never applied: replace it without mixing from it.
                let from = self.e(c).mixing_from;
                self.tracks[track] = from;
                self.queue_interrupt(c);
                self.queue_end(c);
                self.dispose_next(c);
                current = from;
                interrupt = false;
            } else {
                self.dispose_next(c);
            }
        }
        let entry = self.new_entry(track, animation, looping, current);
        self.set_current(track, entry, interrupt);
        self.drain();
        entry
    }

    /// Queues `animation` after the last entry of `track`, starting `delay` seconds after the
    /// previous entry starts; `delay <= 0` means when it completes (less the mix duration),
    /// plus `delay`.
    pub fn add_animation(
        &mut self,
        track: usize,
        animation: Option<usize>,
        looping: bool,
        mut delay: f64,
    ) -> EntryId {
        let mut last = self.expand_to_index(track);
        if let Some(mut l) = last {
            // Start from the last entry queued here when it is still in this track's queue
            // (live, on this track, the current entry or still queued); else from the current.
            let hint = self.queue_tails.get(track).copied().flatten();
            if let Some(h) = hint.filter(|&h| {
                self.entry(h)
                    .is_some_and(|e| e.track == track && (h == l || e.previous.is_some()))
            }) {
                l = h;
            }
            while let Some(n) = self.e(l).next {
                l = n;
            }
            last = Some(l);
        }
        let entry = self.new_entry(track, animation, looping, last);
        if self.queue_tails.len() <= track {
            self.queue_tails.resize(track + 1, None);
        }
        self.queue_tails[track] = Some(entry);
        match last {
            None => {
                self.set_current(track, entry, true);
                self.drain();
            }
            Some(l) => {
                self.em(l).next = Some(entry);
                if delay <= 0.0 {
                    let le = self.e(l);
                    match self.data.skeleton.rules.delay {
                        DelayRule::V38 => {
                            let duration = le.animation_end - le.animation_start;
                            if duration != 0.0 {
                                if le.looping {
                                    delay += duration * (1.0 + (le.track_time / duration).trunc());
                                } else {
                                    delay += duration.max(le.track_time);
                                }
                                delay -= self.data.mix(le.animation, animation);
                            } else {
                                delay = le.track_time;
                            }
                        }
                        rule => {
                            delay += le.track_complete() - self.e(entry).mix_duration;
                            if rule == DelayRule::V42 {
                                delay = delay.max(0.0);
                            }
                        }
                    }
                }
            }
        }
        if last.is_none() && delay < 0.0 && self.data.skeleton.rules.delay == DelayRule::V42 {
            delay = 0.0;
        }
        self.em(entry).delay = delay;
        entry
    }

    /// Sets an entry's mix duration and (4.2 `setMixDuration(mix, delay)`) recomputes a
    /// `delay <= 0` from the entry it was queued after, as `add_animation` does.
    pub fn set_mix_duration(&mut self, entry: EntryId, mix_duration: f64, mut delay: f64) {
        let previous = self.e(entry).previous;
        if delay <= 0.0 {
            delay = match previous {
                Some(p) => (delay + self.e(p).track_complete() - mix_duration).max(0.0),
                None => 0.0,
            };
        }
        let e = self.em(entry);
        e.mix_duration = mix_duration;
        e.delay = delay;
    }

    /// Mixes `track` out to the setup pose over `mix_duration`.
    pub fn set_empty_animation(&mut self, track: usize, mix_duration: f64) -> EntryId {
        let entry = self.set_animation(track, None, false);
        let e = self.em(entry);
        e.mix_duration = mix_duration;
        e.track_end = mix_duration;
        entry
    }

    /// Queues a mix out to the setup pose over `mix_duration`.
    pub fn add_empty_animation(
        &mut self,
        track: usize,
        mix_duration: f64,
        mut delay: f64,
    ) -> EntryId {
        let rule = self.data.skeleton.rules.delay;
        if rule == DelayRule::V38 && delay <= 0.0 {
            delay -= mix_duration;
        }
        let entry = self.add_animation(track, None, false, delay);
        let e = self.em(entry);
        // 4.x queues with the default mix, then shifts the start by the difference.
        if rule != DelayRule::V38 && delay <= 0.0 {
            e.delay += e.mix_duration - mix_duration;
            if rule == DelayRule::V42 {
                e.delay = e.delay.max(0.0);
            }
        }
        e.mix_duration = mix_duration;
        e.track_end = mix_duration;
        entry
    }

    /// Mixes every track out to the setup pose.
    pub fn set_empty_animations(&mut self, mix_duration: f64) {
        let old = self.queue.drain_disabled;
        self.queue.drain_disabled = true;
        for t in 0..self.tracks.len() {
            if self.tracks[t].is_some() {
                self.set_empty_animation(t, mix_duration);
            }
        }
        self.queue.drain_disabled = old;
        self.drain();
    }

    /// Stops `track` at once: ends its entry and everything mixing into it.
    pub fn clear_track(&mut self, track: usize) {
        let Some(current) = self.tracks.get(track).copied().flatten() else {
            return;
        };
        self.queue_end(current);
        self.dispose_next(current);
        let mut entry = current;
        while let Some(from) = self.e(entry).mixing_from {
            self.queue_end(from);
            let e = self.em(entry);
            e.mixing_from = None;
            e.mixing_to = None;
            entry = from;
        }
        self.tracks[track] = None;
        self.drain();
    }

    /// Stops every track.
    pub fn clear_tracks(&mut self) {
        let old = self.queue.drain_disabled;
        self.queue.drain_disabled = true;
        for t in 0..self.tracks.len() {
            self.clear_track(t);
        }
        self.tracks.clear();
        self.queue.drain_disabled = old;
        self.drain();
    }

    /// Advances every track by `delta` seconds (scaled by `time_scale`): queued entries start,
    /// finished mixes end.
    pub fn update(&mut self, delta: f64) {
        let delta = delta * self.time_scale;
        for i in 0..self.tracks.len() {
            let Some(current) = self.tracks[i] else {
                continue;
            };
            let c = self.em(current);
            c.animation_last = c.next_animation_last;
            c.track_last = c.next_track_last;
            let mut current_delta = delta * c.time_scale;
            if c.delay > 0.0 {
                c.delay -= current_delta;
                if c.delay > 0.0 {
                    continue;
                }
                current_delta = -c.delay;
                c.delay = 0.0;
            }
            let (next, track_last, time_scale, track_end, mixing_from) = (
                c.next,
                c.track_last,
                c.time_scale,
                c.track_end,
                c.mixing_from,
            );
            if let Some(next) = next {
                // Switch to the next entry once its delay passed, carrying the leftover time.
                let next_time = track_last - self.e(next).delay;
                if next_time >= 0.0 {
                    let n = self.em(next);
                    n.delay = 0.0;
                    n.track_time += if time_scale == 0.0 {
                        0.0
                    } else {
                        (next_time / time_scale + delta) * n.time_scale
                    };
                    self.em(current).track_time += current_delta;
                    self.set_current(i, next, true);
                    let mut e = Some(next);
                    while let Some(id) = e {
                        let en = self.e(id).mixing_from;
                        if en.is_none() {
                            break;
                        }
                        let ent = self.em(id);
                        ent.mix_time += delta;
                        e = en;
                    }
                    continue;
                }
            } else if track_last >= track_end && mixing_from.is_none() {
                self.tracks[i] = None;
                self.queue_end(current);
                self.dispose_next(current);
                continue;
            }
            if mixing_from.is_some() && self.update_mixing_from(current, delta) {
                // Every mixing-out entry is done: end them, nearest first.
                let mut from = self.e(current).mixing_from;
                self.em(current).mixing_from = None;
                if let Some(f) = from {
                    self.em(f).mixing_to = None;
                }
                while let Some(f) = from {
                    self.queue_end(f);
                    from = self.e(f).mixing_from;
                }
            }
            self.em(current).track_time += current_delta;
        }
        self.drain();
    }

    /// Spine 4.3: after an entry was taken out of a mix chain, `to` and every entry above it
    /// except the newest keep their hold bits.
    fn keep_holds_above(&mut self, to: EntryId) {
        let mut cur = to;
        while let Some(next) = self.e(cur).mixing_to {
            self.em(cur).keep_hold = true;
            cur = next;
        }
    }

    /// Advances the entries mixing into `to`; true when all of them finished.
    fn update_mixing_from(&mut self, to: EntryId, delta: f64) -> bool {
        let Some(from) = self.e(to).mixing_from else {
            return true;
        };
        let finished = self.update_mixing_from(from, delta);
        let f = self.em(from);
        f.animation_last = f.next_animation_last;
        f.track_last = f.next_track_last;
        let (from_total_alpha, from_mixing_from, from_interrupt_alpha) =
            (f.total_alpha, f.mixing_from, f.interrupt_alpha);
        let t = self.e(to);
        let (mix_time, mix_duration) = (t.mix_time, t.mix_duration);
        // 3.8: mix_time > 0, the mixing-out entry was applied at least once; 4.2: `to` was.
        let started = match self.data.skeleton.rules.mix_finished {
            MixFinishedRule::V38 => mix_time > 0.0,
            MixFinishedRule::V42 => self.e(to).next_track_last != -1.0,
        };
        if started && mix_time >= mix_duration {
            // Unlink early only when nothing is held, or the mix is a single frame.
            if from_total_alpha == 0.0 || mix_duration == 0.0 {
                let t = self.em(to);
                t.mixing_from = from_mixing_from;
                t.interrupt_alpha = from_interrupt_alpha;
                if let Some(ff) = from_mixing_from {
                    self.em(ff).mixing_to = Some(to);
                }
                if from_total_alpha == 0.0 && self.data.skeleton.rules.state == StateRule::V43 {
                    self.keep_holds_above(to);
                }
                self.queue_end(from);
            }
            return finished;
        }
        let f = self.em(from);
        f.track_time += delta * f.time_scale;
        self.em(to).mix_time += delta;
        false
    }
}

impl AnimationState {
    /// A copy of the whole playback state without any listener (the state's or the entries'):
    /// closures cannot be cloned, and a copy is for resuming playback later (checkpoints),
    /// where the owner registers its listeners again.
    pub fn clone_without_listeners(&self) -> AnimationState {
        AnimationState {
            data: self.data.clone(),
            tracks: self.tracks.clone(),
            time_scale: self.time_scale,
            entries: self
                .entries
                .iter()
                .map(|e| e.as_ref().map(TrackEntry::clone_without_listener))
                .collect(),
            free_slots: self.free_slots.clone(),
            next_serial: self.next_serial,
            listeners: Vec::new(),
            queue: EventQueue {
                items: self.queue.items.clone(),
                drain_disabled: self.queue.drain_disabled,
            },
            events: self.events.clone(),
            animations_changed: self.animations_changed,
            unkeyed_state: self.unkeyed_state,
            empty: self.empty.clone(),
            // Scratch, cleared before every use: a copy need not carry its table.
            properties_seen: PropertySet::default(),
            properties_stamped: StampSet::default(),
            queue_tails: self.queue_tails.clone(),
        }
    }

    /// About how many heap bytes the state holds (what a copy by
    /// [`AnimationState::clone_without_listeners`] allocates): its entries with their
    /// per-timeline arrays, tracks, queue and mix table.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::{size_of, size_of_val};
        let per_entry: usize = self
            .entries
            .iter()
            .flatten()
            .map(|e| {
                size_of_val(&e.timeline_mode[..])
                    + size_of_val(&e.timeline_hold_mix[..])
                    + size_of_val(&e.timeline_own_claim[..])
                    + size_of_val(&e.timelines_rotation[..])
                    + size_of_val(&e.timeline_hints[..])
                    // Each array is an allocation of its own.
                    + 5 * 16
            })
            .sum();
        size_of_val(&self.entries[..])
            + per_entry
            + size_of_val(&self.tracks[..])
            + size_of_val(&self.free_slots[..])
            + size_of_val(&self.queue_tails[..])
            + self.queue.items.len() * 64
            + self.data.mix_count() * (size_of::<((usize, usize), f64)>() + 8)
    }
}

impl TrackEntry {
    /// A copy of the entry without its listener.
    pub(super) fn clone_without_listener(&self) -> TrackEntry {
        TrackEntry {
            id: self.id,
            animation: self.animation,
            track: self.track,
            looping: self.looping,
            hold_previous: self.hold_previous,
            keep_hold: self.keep_hold,
            event_threshold: self.event_threshold,
            attachment_threshold: self.attachment_threshold,
            draw_order_threshold: self.draw_order_threshold,
            animation_start: self.animation_start,
            animation_end: self.animation_end,
            animation_last: self.animation_last,
            next_animation_last: self.next_animation_last,
            delay: self.delay,
            track_time: self.track_time,
            track_last: self.track_last,
            next_track_last: self.next_track_last,
            track_end: self.track_end,
            time_scale: self.time_scale,
            alpha: self.alpha,
            mix_time: self.mix_time,
            mix_duration: self.mix_duration,
            interrupt_alpha: self.interrupt_alpha,
            total_alpha: self.total_alpha,
            mix_blend: self.mix_blend,
            reverse: self.reverse,
            shortest_rotation: self.shortest_rotation,
            alpha_attachment_threshold: self.alpha_attachment_threshold,
            previous: self.previous,
            next: self.next,
            mixing_from: self.mixing_from,
            mixing_to: self.mixing_to,
            timeline_mode: self.timeline_mode.clone(),
            timeline_hold_mix: self.timeline_hold_mix.clone(),
            timeline_own_claim: self.timeline_own_claim.clone(),
            timelines_rotation: self.timelines_rotation.clone(),
            timeline_hints: self.timeline_hints.clone(),
            listener: None,
        }
    }
}
