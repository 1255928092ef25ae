//! What the replay of a recording refuses, by kind. Refused calls become notes in the frame's
//! verdict (the replay goes on); a refused hello stops it.

use crate::core::model::UnknownName;
use crate::session::CommandError;
use crate::text::sanitize;
use thiserror::Error;

/// A hello or a recorded call the replay cannot run.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ReplayError {
    /// The hello's skins are not in the skeleton.
    #[error("hello names an unknown skin \"{}\"", sanitize(&.0.name))]
    UnknownSkin(UnknownName),
    /// A call names an animation the skeleton does not have.
    #[error("unknown animation \"{}\"", sanitize(.0))]
    UnknownAnimation(String),
    /// A call the session refuses (track limit, non-finite number).
    #[error(transparent)]
    Command(#[from] CommandError),
    /// A setting addresses an entry id the game never made or that is gone.
    #[error("entry {0} is not live")]
    EntryNotLive(u64),
    /// An entry property with a value it cannot take, or one the protocol does not define.
    #[error(transparent)]
    Property(#[from] crate::session::EntryPropertyError),
    /// An entry property whose value sets nothing (`resetRotationDirections: false`).
    #[error("entry property \"{}\" sets nothing", sanitize(.0))]
    NothingToSet(String),
    /// A skeleton call given where a state call was expected.
    #[error("not a state call")]
    NotAStateCall,
}
