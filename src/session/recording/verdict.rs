//! Comparing the callbacks bonescope fires with those the game reported, frame by frame.

use super::record::GameCallback;
use crate::text::sanitize;
use serde_json::{Value, json};
use std::fmt;

/// The tolerance on an event's float value.
pub const FLOAT_TOLERANCE: f64 = 1e-4;

/// One callback, as compared: what fired, on which track and entry, with which event.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub kind: String,
    pub track: usize,
    pub entry: u64,
    pub animation: Option<String>,
    /// name, int, string, float
    pub event: Option<(String, i64, String, f64)>,
}

impl Seen {
    /// The game's callback in comparable form.
    pub fn from_game(c: &GameCallback) -> Seen {
        Seen {
            kind: c.kind.clone(),
            track: c.track,
            entry: c.entry,
            // spine-ts names its empty animation "<empty>"; the protocol also allows null.
            animation: c.animation.clone().filter(|a| a != "<empty>"),
            event: c.event.as_ref().map(|e| {
                (
                    e.name.clone(),
                    e.int,
                    e.string.clone().unwrap_or_default(),
                    e.float,
                )
            }),
        }
    }

    /// Equal kinds, tracks, entries, animations and events (floats within the tolerance).
    pub fn same(&self, o: &Seen) -> bool {
        self.kind == o.kind
            && self.track == o.track
            && self.entry == o.entry
            && self.animation == o.animation
            && match (&self.event, &o.event) {
                (None, None) => true,
                (Some(a), Some(b)) => {
                    a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && (a.3 - b.3).abs() <= FLOAT_TOLERANCE
                }
                _ => false,
            }
    }
}

impl fmt::Display for Seen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} track {} entry {} ({})",
            sanitize(&self.kind),
            self.track,
            self.entry,
            sanitize(self.animation.as_deref().unwrap_or("<empty>"))
        )?;
        if let Some((name, int, string, float)) = &self.event {
            write!(f, " event {}", sanitize(name))?;
            if *int != 0 {
                write!(f, " int {int}")?;
            }
            if *float != 0.0 {
                write!(f, " float {float}")?;
            }
            if !string.is_empty() {
                write!(f, " string \"{}\"", sanitize(string))?;
            }
        }
        Ok(())
    }
}

/// The first callback that differs.
#[derive(Clone, Debug, PartialEq)]
pub struct Divergence {
    /// Index among the frame's callbacks.
    pub index: usize,
    /// What the game saw there (`None`: nothing more).
    pub game: Option<Seen>,
    /// What bonescope fires there (`None`: nothing more).
    pub ours: Option<Seen>,
    /// Likely causes, most likely first.
    pub causes: Vec<String>,
}

/// One frame's result.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameVerdict {
    pub frame: u64,
    /// The game's callbacks in this frame.
    pub game: usize,
    /// bonescope's callbacks in this frame.
    pub ours: usize,
    pub divergence: Option<Divergence>,
    /// Calls that could not be replayed (unknown names, stale entries), with why.
    pub notes: Vec<String>,
}

impl FrameVerdict {
    pub fn same(&self) -> bool {
        self.divergence.is_none()
    }

    /// The frame's verdict as one JSON object.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "frame": self.frame,
            "verdict": if self.same() { "same" } else { "differs" },
            "gameCallbacks": self.game,
            "bonescopeCallbacks": self.ours,
        });
        if let Some(d) = &self.divergence {
            v["divergence"] = json!({
                "index": d.index,
                "game": d.game.as_ref().map(|s| s.to_string()),
                "bonescope": d.ours.as_ref().map(|s| s.to_string()),
                "likelyCauses": d.causes,
            });
        }
        if !self.notes.is_empty() {
            v["notes"] = json!(self.notes);
        }
        v
    }

    /// One line for people (the status line and the event log).
    pub fn summary(&self) -> String {
        match &self.divergence {
            None => format!("frame {}: same ({} callbacks)", self.frame, self.game),
            Some(d) => format!(
                "frame {}: the game saw {}, bonescope fires {}",
                self.frame,
                d.game
                    .as_ref()
                    .map_or("nothing more".into(), |s| s.to_string()),
                d.ours
                    .as_ref()
                    .map_or("nothing more".into(), |s| s.to_string())
            ),
        }
    }
}
