//! Checkpoints: copies of the whole playback state at regular frames, so reaching any frame
//! replays at most one interval of frames instead of the whole session.
//!
//! A checkpoint holds everything a frame depends on: the skeleton value (its pose, and any
//! state it carries from frame to frame), the animation state (tracks, entries, mixes, the
//! state's own data such as mix durations) and how long the event log was. It is taken after
//! a frame's time step and before that frame's inputs run, so recording a new input at frame
//! `f` leaves the checkpoint at `f` valid and only those after `f` stale.
//!
//! Memory is bounded by count and by size: at most [`MAX_CHECKPOINTS`], and at most as many
//! as fit the memory budget ([`budget_bytes`]: 256 MiB unless `BONESCOPE_CHECKPOINT_MIB`
//! says otherwise) at the size of one checkpoint of this rig, never fewer than
//! [`MIN_CHECKPOINTS`]. When a long session would need more, the interval doubles and every
//! other checkpoint is dropped, so a session of any length on a rig of any size keeps a
//! bounded number and replays at most one interval per seek (a big rig's checkpoints are
//! further apart). The budget, not the count, decides on most rigs: a checkpoint's size is
//! what its copies allocate ([`approx_bytes`], at the largest checkpoint so far); on
//! spineboy-pro the default budget keeps the interval at 64 frames to 100,000 frames and at
//! 256 to the longest session ([`super::MAX_FRAMES`]).

use crate::core::skeleton::{Physics, Skeleton};
use crate::core::state::AnimationState;

/// The most checkpoints a session keeps (a bound on the list's length; the memory budget
/// is usually reached first). `MAX_CHECKPOINTS` x [`FIRST_INTERVAL`] covers the longest
/// session ([`super::MAX_FRAMES`]) at the first interval.
pub const MAX_CHECKPOINTS: usize = 16_384;

/// The interval (frames) a session starts with.
pub const FIRST_INTERVAL: u64 = 64;

/// The fewest checkpoints the budget leaves a session (the one at frame 0 and a few more),
/// whatever one costs.
pub const MIN_CHECKPOINTS: usize = 4;

/// The default memory budget of a session's checkpoints.
pub const DEFAULT_BUDGET_MIB: usize = 256;

/// The checkpoints' memory budget in bytes: `BONESCOPE_CHECKPOINT_MIB` (a whole number of
/// MiB) if set and valid, else [`DEFAULT_BUDGET_MIB`].
pub fn budget_bytes() -> usize {
    std::env::var("BONESCOPE_CHECKPOINT_MIB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(DEFAULT_BUDGET_MIB)
        .saturating_mul(1 << 20)
}

/// About how many bytes a checkpoint of `skeleton` and `state` takes: their heap arrays
/// ([`Skeleton::heap_bytes`], [`AnimationState::heap_bytes`]) and the checkpoint itself.
pub fn approx_bytes(skeleton: &Skeleton, state: &AnimationState) -> usize {
    skeleton
        .heap_bytes()
        .saturating_add(state.heap_bytes())
        .saturating_add(std::mem::size_of::<Checkpoint>())
}

/// The playback state at the start of one frame (after its step, before its inputs).
pub struct Checkpoint {
    pub frame: u64,
    pub skeleton: Skeleton,
    /// Listener-free: the session registers its own listener again on restore.
    pub state: AnimationState,
    /// The physics mode the frame ran with (a session input changes it).
    pub physics: Physics,
    /// Log lines delivered before this point.
    pub log_len: usize,
    /// A recorded session's clock (default otherwise).
    pub clock: super::recorded::RecordedClock,
}

/// Frames between the near checkpoints a step back leaves behind it.
pub const NEAR_EVERY: u64 = 8;

/// The most near checkpoints (fewer on rigs whose budget holds few checkpoints: an eighth of
/// what it holds, at least 2).
pub const NEAR_MAX: usize = 32;

/// The checkpoints of a session, ordered by frame.
///
/// Beside the regular ones (every `interval` frames, thinned as the session grows), a few
/// *near* ones: when a seek goes back a short way (a step back, scrubbing backwards), the
/// replay from the regular checkpoint leaves one every [`NEAR_EVERY`] frames over the
/// [`NEAR_EVERY`] x [`NEAR_MAX`] frames before the target, so the next steps back replay a
/// few frames whatever the session's length.
pub struct Checkpoints {
    interval: u64,
    list: Vec<Checkpoint>,
    /// The most held: [`MAX_CHECKPOINTS`] until the first one's size is known, then what
    /// fits the budget at the largest one's size.
    most: usize,
    budget: usize,
    /// The size of the largest checkpoint inserted ([`approx_bytes`]), 0 before the first.
    largest: usize,
    /// Near checkpoints, ordered by frame, at most `near_most`.
    near: Vec<Checkpoint>,
    /// The frames (from, to] where the seek under way leaves near checkpoints.
    near_window: Option<(u64, u64)>,
}

impl Default for Checkpoints {
    fn default() -> Self {
        Checkpoints::with_budget(budget_bytes())
    }
}

impl Checkpoints {
    /// No checkpoints yet, to be held within `budget` bytes.
    pub fn with_budget(budget: usize) -> Checkpoints {
        Checkpoints {
            interval: FIRST_INTERVAL,
            list: Vec::new(),
            most: MAX_CHECKPOINTS,
            budget,
            largest: 0,
            near: Vec::new(),
            near_window: None,
        }
    }

    /// The most near checkpoints held.
    fn near_most(&self) -> usize {
        (self.most / 8).clamp(2, NEAR_MAX)
    }

    /// A seek from `from` back to `to`: when it is a short way (at most [`NEAR_EVERY`] x
    /// [`NEAR_MAX`] frames), the replay leaves near checkpoints before `to`
    /// ([`Checkpoints::wants_near`]) until [`Checkpoints::end_near`].
    pub fn begin_near(&mut self, from: u64, to: u64) {
        let span = NEAR_EVERY * self.near_most() as u64;
        self.near_window = (to < from && from - to <= span).then(|| (to.saturating_sub(span), to));
    }

    /// The seek is over: no more near checkpoints.
    pub fn end_near(&mut self) {
        self.near_window = None;
    }

    /// True when a near checkpoint belongs at `frame` (in the window of the seek under way,
    /// not a regular one's frame, none there yet).
    pub fn wants_near(&self, frame: u64) -> bool {
        self.near_window
            .is_some_and(|(from, to)| from < frame && frame <= to)
            && frame.is_multiple_of(NEAR_EVERY)
            && !frame.is_multiple_of(self.interval)
            && self.near.binary_search_by_key(&frame, |c| c.frame).is_err()
    }

    /// Stores a near checkpoint, dropping the earliest when over the most.
    pub fn insert_near(&mut self, cp: Checkpoint) {
        let i = self.near.partition_point(|c| c.frame < cp.frame);
        self.near.insert(i, cp);
        while self.near.len() > self.near_most() {
            self.near.remove(0);
        }
    }

    /// How many near checkpoints are held.
    pub fn near_len(&self) -> usize {
        self.near.len()
    }

    /// The most checkpoints held at once (after the first: by the budget).
    pub fn most(&self) -> usize {
        self.most
    }

    /// Frames between checkpoints (the most frames a seek replays).
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// How many are held.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// True when none is held.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// True when a checkpoint belongs at `frame` and none is there yet.
    pub fn wants(&self, frame: u64) -> bool {
        frame.is_multiple_of(self.interval) && self.find(frame).is_err()
    }

    fn find(&self, frame: u64) -> Result<usize, usize> {
        self.list.binary_search_by_key(&frame, |c| c.frame)
    }

    /// Stores a checkpoint (replacing one at the same frame), thinning when over the budget.
    pub fn insert(&mut self, cp: Checkpoint) {
        // Checkpoints grow as the session does (entries with more timelines, deforms): the
        // count is held to what fits at the size of the largest so far.
        let each = approx_bytes(&cp.skeleton, &cp.state).max(1);
        if each > self.largest {
            self.largest = each;
            self.most = (self.budget / each).clamp(MIN_CHECKPOINTS, MAX_CHECKPOINTS);
        }
        match self.find(cp.frame) {
            Ok(i) => self.list[i] = cp,
            Err(i) => self.list.insert(i, cp),
        }
        while self.list.len() > self.most {
            self.interval = self.interval.saturating_mul(2);
            let every = self.interval;
            self.list.retain(|c| c.frame.is_multiple_of(every));
        }
    }

    /// The latest checkpoint (regular or near) at or before `frame`.
    pub fn at_or_before(&self, frame: u64) -> Option<&Checkpoint> {
        fn latest(list: &[Checkpoint], frame: u64) -> Option<&Checkpoint> {
            let i = list.partition_point(|c| c.frame <= frame);
            i.checked_sub(1).map(|i| &list[i])
        }
        match (latest(&self.list, frame), latest(&self.near, frame)) {
            (Some(a), Some(b)) if b.frame > a.frame => Some(b),
            (None, b) => b,
            (a, _) => a,
        }
    }

    /// Drops every checkpoint after `frame` (inputs changed at `frame`).
    pub fn invalidate_after(&mut self, frame: u64) {
        let end = self.list.partition_point(|c| c.frame <= frame);
        self.list.truncate(end);
        let end = self.near.partition_point(|c| c.frame <= frame);
        self.near.truncate(end);
    }

    /// Drops every checkpoint.
    pub fn clear(&mut self) {
        self.list.clear();
        self.near.clear();
        self.near_window = None;
        self.interval = FIRST_INTERVAL;
        self.most = MAX_CHECKPOINTS;
        self.largest = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::{BoneData, SkeletonData};
    use std::sync::Arc;

    fn chain(n: usize) -> Skeleton {
        let mut data = SkeletonData::default();
        for i in 0..n {
            let mut b = BoneData::new(format!("b{i}"), i.checked_sub(1));
            b.length = 1.0;
            data.bones.push(b);
        }
        Skeleton::new(Arc::new(data))
    }

    fn checkpoint(skeleton: &Skeleton, frame: u64) -> Checkpoint {
        let data = crate::core::state::AnimationStateData::new(skeleton.data.clone());
        Checkpoint {
            frame,
            skeleton: skeleton.clone(),
            state: AnimationState::new(data),
            physics: Physics::None,
            log_len: 0,
            clock: Default::default(),
        }
    }

    #[test]
    fn big_rigs_keep_fewer_checkpoints_further_apart_within_the_budget() {
        let budget = 8 << 20;
        for bones in [10, 2_000, 20_000, 200_000] {
            let skeleton = chain(bones);
            let each = approx_bytes(&skeleton, &checkpoint(&skeleton, 0).state);
            assert!(each >= bones * std::mem::size_of::<crate::core::skeleton::Bone>());
            let mut cps = Checkpoints::with_budget(budget);
            let mut frame = 0;
            while frame <= 100_000 {
                if cps.wants(frame) {
                    cps.insert(checkpoint(&skeleton, frame));
                }
                frame += 1;
            }
            assert!(cps.len() <= cps.most(), "{bones}");
            let within = cps.len() * each <= budget;
            assert!(
                within || cps.len() <= MIN_CHECKPOINTS,
                "{bones}: {}",
                cps.len()
            );
            assert!(cps.len() >= MIN_CHECKPOINTS / 2, "{bones}: {}", cps.len());
            // Still every interval from 0 on, so a seek replays one interval at most.
            assert_eq!(cps.at_or_before(0).map(|c| c.frame), Some(0));
            let last = cps.at_or_before(100_000).map_or(0, |c| c.frame);
            assert!(100_000 - last <= cps.interval(), "{bones}");
        }
    }
}
