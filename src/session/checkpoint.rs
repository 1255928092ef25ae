//! Checkpoints: copies of the whole playback state at regular frames, so reaching any frame
//! replays at most one interval of frames instead of the whole session.
//!
//! A checkpoint holds everything a frame depends on: the skeleton value (its pose, and any
//! state it carries from frame to frame), the animation state (tracks, entries, mixes, the
//! state's own data such as mix durations) and how long the event log was. It is taken after
//! a frame's time step and before that frame's inputs run, so recording a new input at frame
//! `f` leaves the checkpoint at `f` valid and only those after `f` stale.
//!
//! Memory is bounded by count: at most [`MAX_CHECKPOINTS`]. When a long session would need
//! more, the interval doubles and every other checkpoint is dropped, so a session of any
//! length keeps at most that many and replays at most one interval per seek.

use crate::core::skeleton::{Physics, Skeleton};
use crate::core::state::AnimationState;

/// The most checkpoints a session keeps.
pub const MAX_CHECKPOINTS: usize = 512;

/// The interval (frames) a session starts with.
pub const FIRST_INTERVAL: u64 = 64;

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

/// The checkpoints of a session, ordered by frame.
pub struct Checkpoints {
    interval: u64,
    list: Vec<Checkpoint>,
}

impl Default for Checkpoints {
    fn default() -> Self {
        Checkpoints {
            interval: FIRST_INTERVAL,
            list: Vec::new(),
        }
    }
}

impl Checkpoints {
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
        match self.find(cp.frame) {
            Ok(i) => self.list[i] = cp,
            Err(i) => self.list.insert(i, cp),
        }
        while self.list.len() > MAX_CHECKPOINTS {
            self.interval = self.interval.saturating_mul(2);
            let every = self.interval;
            self.list.retain(|c| c.frame.is_multiple_of(every));
        }
    }

    /// The latest checkpoint at or before `frame`.
    pub fn at_or_before(&self, frame: u64) -> Option<&Checkpoint> {
        let i = self.list.partition_point(|c| c.frame <= frame);
        i.checked_sub(1).map(|i| &self.list[i])
    }

    /// Drops every checkpoint after `frame` (inputs changed at `frame`).
    pub fn invalidate_after(&mut self, frame: u64) {
        let end = self.list.partition_point(|c| c.frame <= frame);
        self.list.truncate(end);
    }

    /// Drops every checkpoint.
    pub fn clear(&mut self) {
        self.list.clear();
        self.interval = FIRST_INTERVAL;
    }
}
