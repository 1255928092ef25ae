//! The session's event log as simulated so far, within a memory budget.
//!
//! Lines are numbered from the session's start (absolute positions): `len` is how many
//! lines the log holds up to the current time, checkpoints remember it, and lines past it
//! were delivered later in the timeline (before a seek back) and are still valid for the
//! current inputs, so a jump forward to a checkpoint finds its log prefix complete. Replaying
//! a frame again writes over its own, identical, lines.
//!
//! A long session's log is most of its memory, so it is capped: past the budget
//! ([`budget_lines`]: [`DEFAULT_LOG_MIB`] MiB worth of lines unless `BONESCOPE_LOG_MIB` says
//! otherwise) the oldest lines are dropped at a frame boundary, in chunks (a quarter of the
//! budget), and [`Recorder::dropped`] says how many of the lines up to the current time are
//! gone. The log shown at any time is then the tail of the whole log from position
//! `dropped` on: a replay that passes through dropped positions counts its lines without
//! keeping them, so time travel lands on the same lines as playing forward did.

use super::{LogLine, Phase};
use crate::session::Command;
use std::collections::VecDeque;

/// The default memory budget of a session's event log.
pub const DEFAULT_LOG_MIB: usize = 64;

/// About how many bytes one log line takes: the line and the heap text it usually carries
/// (an animation name, an event's name and string).
pub const APPROX_LINE_BYTES: usize = std::mem::size_of::<LogLine>() + 64;

/// The log's budget in lines: `BONESCOPE_LOG_MIB` (a whole number of MiB) if set and valid,
/// else [`DEFAULT_LOG_MIB`], at `APPROX_LINE_BYTES` a line; never fewer than 64 lines.
pub fn budget_lines() -> usize {
    let mib = std::env::var("BONESCOPE_LOG_MIB")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .unwrap_or(DEFAULT_LOG_MIB);
    (mib.saturating_mul(1 << 20) / APPROX_LINE_BYTES).max(64)
}

/// The log (see the module documentation).
pub(super) struct Recorder {
    pub(super) frame: u64,
    pub(super) phase: Option<Phase>,
    /// The kept lines: absolute positions `dropped..dropped + lines.len()`.
    lines: Vec<LogLine>,
    /// Absolute position of the current time's end of the log.
    pub(super) len: usize,
    /// Lines dropped from the front (absolute position of `lines[0]`).
    dropped: usize,
    /// The most lines kept.
    budget: usize,
    /// Notifications delivered since the frame started (recorded sessions' nested calls
    /// are placed by it).
    pub(super) in_frame: usize,
    /// The frame's nested calls not run yet: (after this many notifications, command).
    pub(super) nested: VecDeque<(usize, Command)>,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder::with_budget(budget_lines())
    }
}

impl Recorder {
    /// An empty log keeping at most `budget` lines (at least 1).
    pub(super) fn with_budget(budget: usize) -> Recorder {
        Recorder {
            frame: 0,
            phase: None,
            lines: Vec::new(),
            len: 0,
            dropped: 0,
            budget: budget.max(1),
            in_frame: 0,
            nested: VecDeque::new(),
        }
    }

    /// Empty again (a session restarting from frame 0).
    pub(super) fn reset(&mut self) {
        self.lines.clear();
        self.len = 0;
        self.dropped = 0;
    }

    /// Index in `lines` of absolute position `at`, when it is kept.
    fn kept(&self, at: usize) -> Option<usize> {
        at.checked_sub(self.dropped)
    }

    pub(super) fn push(&mut self, line: LogLine) {
        // A replay through dropped positions counts its lines without keeping them.
        if let Some(i) = self.kept(self.len) {
            if i < self.lines.len() {
                self.lines[i] = line;
            } else {
                self.lines.push(line);
            }
        }
        self.len += 1;
    }

    /// The kept lines up to the current time.
    pub(super) fn visible(&self) -> &[LogLine] {
        let end = self.kept(self.len).unwrap_or(0).min(self.lines.len());
        &self.lines[..end]
    }

    /// How many lines up to the current time were dropped (the budget's).
    pub(super) fn dropped(&self) -> usize {
        self.dropped.min(self.len)
    }

    /// Absolute end of everything known (the current time's lines and those after it).
    fn end(&self) -> usize {
        self.dropped + self.lines.len()
    }

    /// Back to the log of a checkpoint that had `len` lines.
    pub(super) fn rewind_to(&mut self, len: usize) {
        self.len = len.min(self.end());
    }

    /// Forgets the lines past the current time (they no longer follow from the inputs).
    pub(super) fn drop_future(&mut self) {
        let keep = self.kept(self.len).unwrap_or(0);
        self.lines.truncate(keep);
        // Positions past the current time no longer follow from the inputs either: lines
        // delivered there again are new ones, kept.
        self.dropped = self.dropped.min(self.len);
    }

    /// Forgets the lines past the current time from frame `frame` on.
    pub(super) fn drop_future_from(&mut self, frame: u64) {
        let len = self.kept(self.len).unwrap_or(0).min(self.lines.len());
        let keep = len + self.lines[len..].partition_point(|l| l.frame() < frame);
        self.lines.truncate(keep);
    }

    /// Puts the lines past the current time aside (a partial step's lines are not the next
    /// frame's): (current end, the lines put aside), for [`Recorder::unstash`].
    pub(super) fn stash_future(&mut self) -> (usize, Vec<LogLine>) {
        let at = self.kept(self.len).unwrap_or(0).min(self.lines.len());
        (self.len, self.lines.split_off(at))
    }

    /// Back to the whole frame's log after a partial step ([`Recorder::stash_future`]; no
    /// frame boundary, hence no drop, in between).
    pub(super) fn unstash(&mut self, (len, future): (usize, Vec<LogLine>)) {
        let at = self.kept(len).unwrap_or(0).min(self.lines.len());
        self.lines.truncate(at);
        self.lines.extend(future);
        self.len = len;
    }

    /// A frame starts: no notification yet, no nested call pending.
    pub(super) fn start_frame(&mut self, frame: u64) {
        self.frame = frame;
        self.in_frame = 0;
        self.nested.clear();
    }

    /// At a frame boundary: over the budget, drops the oldest lines (those up to the
    /// current time only) down to three quarters of it, so drops come in chunks.
    pub(super) fn enforce_budget(&mut self) {
        if self.lines.len() <= self.budget {
            return;
        }
        let target = self.budget - self.budget / 4;
        let past = self.kept(self.len).unwrap_or(0).min(self.lines.len());
        let n = (self.lines.len() - target).min(past);
        if n > 0 {
            self.lines.drain(..n);
            self.dropped += n;
        }
    }
}

#[cfg(test)]
impl Recorder {
    /// Lines held in memory (the budget bounds it).
    pub(super) fn lines_kept(&self) -> usize {
        self.lines.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marker(frame: u64) -> LogLine {
        LogLine::Marker {
            frame,
            text: String::new(),
        }
    }

    #[test]
    fn drops_come_in_chunks_from_the_front_and_only_from_the_past() {
        let mut r = Recorder::with_budget(8);
        for f in 0..9 {
            r.push(marker(f));
        }
        r.enforce_budget();
        // Down to three quarters of the budget: 6 lines kept, 3 dropped.
        assert_eq!((r.dropped(), r.visible().len()), (3, 6));
        assert_eq!(r.visible()[0], marker(3));
        // Back before the drop: nothing visible, and the future is never dropped.
        r.rewind_to(2);
        assert_eq!((r.dropped(), r.visible().len()), (2, 0));
        for f in 2..12 {
            r.push(marker(f));
        }
        assert_eq!(r.len, 12);
        r.rewind_to(1);
        r.enforce_budget();
        assert_eq!(
            r.lines_kept(),
            9,
            "lines past the current time are not dropped"
        );
        // Replaying through dropped positions keeps only the kept ones.
        r.push(marker(1));
        r.push(marker(2));
        r.push(marker(3));
        assert_eq!(r.visible(), &[marker(3)]);
        // New inputs: the positions past now follow from them and are kept again.
        r.rewind_to(1);
        r.drop_future();
        r.push(marker(1));
        assert_eq!((r.dropped(), r.visible().len()), (1, 1));
    }
}
