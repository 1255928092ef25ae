//! AnimationState scenarios: files in the reference oracle's `SCENARIOS.md` format, read into
//! session inputs ([`file`]) and run with the session's commands ([`run`]), reporting every
//! listener callback and periodic pose checkpoints. The `scenario` command prints the records.

mod file;
mod run;

pub use file::{
    EntryProps, MAX_FRAMES, MAX_MAGNITUDE, MAX_TRACK, Scenario, Step, StepInput, default_skins,
    parse,
};
pub use run::{
    Callback, Checkpoint, Record, RunSummary, ScenarioRun, StreamError, TrackState, run,
    run_streamed,
};

use crate::core::model::UnknownName;
use crate::session::EntryPropertyError;
use crate::text::sanitize;
use thiserror::Error;

/// Why a scenario cannot run, by kind.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ScenarioError {
    /// The file is not a scenario (JSON syntax, a missing or mistyped member).
    #[error(
        "line {line}, column {column} ({}): {}",
        sanitize(path),
        sanitize(message)
    )]
    Parse {
        line: usize,
        column: usize,
        /// The member's JSON path (`steps[3].dt`).
        path: String,
        message: String,
    },
    #[error("physics \"{}\" is not none, reset, update or pose", sanitize(.0))]
    UnknownPhysics(String),
    #[error("unknown skin \"{}\"", sanitize(&.0.name))]
    UnknownSkin(UnknownName),
    /// More frames than [`MAX_FRAMES`] (a typo like `count: 1e9` must not hang).
    #[error("the scenario runs {frames} frames, more than the limit of {limit}")]
    TooManyFrames { frames: u64, limit: u64 },
    /// One step was refused; `step` counts from 0.
    #[error("step {step}: {problem}")]
    Step { step: usize, problem: StepProblem },
}

/// What is wrong with one step.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum StepProblem {
    #[error("unknown animation \"{}\"", sanitize(.0))]
    UnknownAnimation(String),
    #[error("track {0} is beyond the limit of {MAX_TRACK}")]
    TrackBeyondLimit(usize),
    #[error("{what} {value:?} is not a finite number of magnitude at most {MAX_MAGNITUDE}")]
    NotBounded { what: &'static str, value: f64 },
    #[error("\"entry\" comes before any set/add call")]
    EntryBeforeSetAdd,
    #[error("the entry of the last set/add call no longer exists")]
    EntryGone,
    #[error(transparent)]
    Property(#[from] EntryPropertyError),
}
