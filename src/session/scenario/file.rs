//! The scenario file (the reference oracle's `SCENARIOS.md` format), read into session
//! inputs: each step becomes a [`Command`] the session language already has, entry
//! settings become [`EntrySetting`]s, and `update` / `apply` / `checkpoint` the run's frame
//! boundaries.

use super::{ScenarioError, StepProblem};
use crate::core::model::SkeletonData;
use crate::session::{Command, EntrySetting, entry_setting};
use serde::Deserialize;
use serde_json::{Map, Value};

/// A scenario file.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Scenario {
    pub name: Option<String>,
    pub description: Option<String>,
    pub skeleton: String,
    pub skin: Option<Vec<String>>,
    #[serde(default = "ten")]
    pub checkpoint_every: u64,
    #[serde(default)]
    pub vertices: bool,
    pub physics: Option<String>,
    pub steps: Vec<Step>,
}

fn ten() -> u64 {
    10
}

/// One step.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub enum Step {
    DefaultMix {
        duration: f64,
    },
    SetMix {
        from: String,
        to: String,
        duration: f64,
    },
    TimeScale {
        value: f64,
    },
    #[serde(rename_all = "camelCase")]
    SetAnimation {
        track: usize,
        animation: String,
        #[serde(default)]
        r#loop: bool,
    },
    #[serde(rename_all = "camelCase")]
    AddAnimation {
        track: usize,
        animation: String,
        #[serde(default)]
        r#loop: bool,
        #[serde(default)]
        delay: f64,
    },
    #[serde(rename_all = "camelCase")]
    SetEmptyAnimation {
        track: usize,
        #[serde(default)]
        mix_duration: f64,
    },
    #[serde(rename_all = "camelCase")]
    AddEmptyAnimation {
        track: usize,
        #[serde(default)]
        mix_duration: f64,
        #[serde(default)]
        delay: f64,
    },
    #[serde(rename_all = "camelCase")]
    SetEmptyAnimations {
        #[serde(default)]
        mix_duration: f64,
    },
    ClearTrack {
        track: usize,
    },
    ClearTracks,
    Entry(Box<EntryProps>),
    Update {
        dt: f64,
        #[serde(default = "one")]
        count: u64,
    },
    Apply,
    Checkpoint,
}

fn one() -> u64 {
    1
}

impl Step {
    /// The step's `op` as written in scenario files (also the callback `phase` of set/add/clear).
    pub fn op_name(&self) -> &'static str {
        match self {
            Step::DefaultMix { .. } => "defaultMix",
            Step::SetMix { .. } => "setMix",
            Step::TimeScale { .. } => "timeScale",
            Step::SetAnimation { .. } => "setAnimation",
            Step::AddAnimation { .. } => "addAnimation",
            Step::SetEmptyAnimation { .. } => "setEmptyAnimation",
            Step::AddEmptyAnimation { .. } => "addEmptyAnimation",
            Step::SetEmptyAnimations { .. } => "setEmptyAnimations",
            Step::ClearTrack { .. } => "clearTrack",
            Step::ClearTracks => "clearTracks",
            Step::Entry(_) => "entry",
            Step::Update { .. } => "update",
            Step::Apply => "apply",
            Step::Checkpoint => "checkpoint",
        }
    }
}

/// Entry properties an `entry` step may set, in the order written.
#[derive(Debug, Deserialize)]
#[serde(transparent)]
pub struct EntryProps(pub Map<String, Value>);

/// The most frames one scenario may run (a typo like `count: 1e9` must not hang).
pub const MAX_FRAMES: u64 = 1_000_000;
/// The most tracks a scenario may address.
pub const MAX_TRACK: usize = 1_000;

/// The skins a scenario uses when it names none: the oracle's rule (per-file defaults for the
/// examples with several skins when the file has that skin (3.7 hero-pro has only `default`),
/// else the first non-default skin).
pub fn default_skins(file: &str, data: &SkeletonData) -> Vec<String> {
    let known: &[(&str, &str)] = &[
        ("goblins-ess.json", "goblin"),
        ("goblins-pro.json", "goblin"),
        ("hero-pro.json", "weapon/sword"),
        ("mix-and-match-pro.json", "full-skins/girl"),
        ("chibi-stickers.json", "erikari"),
    ];
    if let Some((_, skin)) = known.iter().find(|(f, _)| *f == file)
        && data.skins.iter().any(|s| s.name == *skin)
    {
        return vec![skin.to_string()];
    }
    data.skins
        .iter()
        .find(|s| s.name != "default")
        .map(|s| vec![s.name.clone()])
        .unwrap_or_default()
}

/// Largest magnitude accepted for a time, duration, delay or time scale in a scenario: far
/// beyond any test, small enough that times stay finite over the most frames a scenario runs.
pub const MAX_MAGNITUDE: f64 = 1e9;

/// `v` when finite and at most [`MAX_MAGNITUDE`] in magnitude.
fn bounded(v: f64, what: &'static str) -> Result<f64, StepProblem> {
    if v.is_finite() && v.abs() <= MAX_MAGNITUDE {
        Ok(v)
    } else {
        Err(StepProblem::NotBounded { what, value: v })
    }
}

/// Parses a scenario file's text.
pub fn parse(text: &[u8]) -> Result<Scenario, ScenarioError> {
    let de = &mut serde_json::Deserializer::from_slice(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        ScenarioError::Parse {
            line: inner.line(),
            column: inner.column(),
            path,
            message: inner.to_string(),
        }
    })
}

/// What one step asks of a run, in session terms.
#[derive(Clone, Debug, PartialEq)]
pub enum StepInput {
    /// A state call; set and add calls make the entry later `entry` steps address.
    Command(Command),
    /// Settings for the entry of the last set/add call, in the order written.
    Entry(Vec<EntrySetting>),
    /// `count` frames of `dt` seconds each (update, apply, physics, world transforms).
    Frames { dt: f64, count: u64 },
    /// `AnimationState.apply` and world transforms, without time passing.
    Apply,
    /// A pose record now.
    Checkpoint,
}

impl Step {
    /// The step as a session input for `data` (names resolved, numbers bounded).
    pub fn input(&self, data: &SkeletonData) -> Result<StepInput, StepProblem> {
        let anim = |name: &str| {
            data.find_animation(name)
                .ok_or_else(|| StepProblem::UnknownAnimation(name.to_string()))
        };
        let track = |t: usize| {
            if t > MAX_TRACK {
                Err(StepProblem::TrackBeyondLimit(t))
            } else {
                Ok(t)
            }
        };
        let command = match self {
            Step::DefaultMix { duration } => Command::DefaultMix {
                duration: bounded(*duration, "duration")?,
            },
            Step::SetMix { from, to, duration } => Command::SetMix {
                from: anim(from)?,
                to: anim(to)?,
                duration: bounded(*duration, "duration")?,
            },
            Step::TimeScale { value } => Command::TimeScale {
                value: bounded(*value, "timeScale")?,
            },
            Step::SetAnimation {
                track: t,
                animation,
                r#loop,
            } => {
                let animation = anim(animation)?;
                Command::SetAnimation {
                    track: track(*t)?,
                    animation,
                    looping: *r#loop,
                }
            }
            Step::AddAnimation {
                track: t,
                animation,
                r#loop,
                delay,
            } => {
                let animation = anim(animation)?;
                Command::AddAnimation {
                    track: track(*t)?,
                    animation,
                    looping: *r#loop,
                    delay: bounded(*delay, "delay")?,
                }
            }
            Step::SetEmptyAnimation {
                track: t,
                mix_duration,
            } => Command::SetEmptyAnimation {
                track: track(*t)?,
                mix_duration: bounded(*mix_duration, "mixDuration")?,
            },
            Step::AddEmptyAnimation {
                track: t,
                mix_duration,
                delay,
            } => Command::AddEmptyAnimation {
                track: track(*t)?,
                mix_duration: bounded(*mix_duration, "mixDuration")?,
                delay: bounded(*delay, "delay")?,
            },
            Step::SetEmptyAnimations { mix_duration } => Command::SetEmptyAnimations {
                mix_duration: bounded(*mix_duration, "mixDuration")?,
            },
            // The runtimes ignore a track they do not have; so does the state.
            Step::ClearTrack { track } => Command::ClearTrack { track: *track },
            Step::ClearTracks => Command::ClearTracks,
            Step::Entry(props) => {
                let version = data.rules.version;
                let mut settings = Vec::new();
                for (key, value) in &props.0 {
                    if let Some(s) = entry_setting(key, value, version)? {
                        settings.push(s);
                    }
                }
                return Ok(StepInput::Entry(settings));
            }
            Step::Update { dt, count } => {
                return Ok(StepInput::Frames {
                    dt: bounded(*dt, "dt")?,
                    count: *count,
                });
            }
            Step::Apply => return Ok(StepInput::Apply),
            Step::Checkpoint => return Ok(StepInput::Checkpoint),
        };
        Ok(StepInput::Command(command))
    }
}

impl Scenario {
    /// The frames all `update` steps run together (saturating).
    pub fn total_frames(&self) -> u64 {
        self.steps
            .iter()
            .map(|s| match s {
                Step::Update { count, .. } => *count,
                _ => 0,
            })
            .fold(0u64, u64::saturating_add)
    }

    /// The physics mode of every frame: the file's `physics`, else `update`.
    pub fn physics(&self) -> Result<crate::core::skeleton::Physics, ScenarioError> {
        use crate::core::skeleton::Physics;
        Ok(match self.physics.as_deref() {
            None | Some("update") => Physics::Update,
            Some("none") => Physics::None,
            Some("reset") => Physics::Reset,
            Some("pose") => Physics::Pose,
            Some(other) => return Err(ScenarioError::UnknownPhysics(other.to_string())),
        })
    }
}
