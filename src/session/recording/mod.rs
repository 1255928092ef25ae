//! Recordings of a game's AnimationState (the attach protocol, `docs/ATTACH-PROTOCOL.md`):
//! the record types, a bounded line reader, a replay with bonescope's runtime and the
//! per-frame verdict. No I/O beyond a `BufRead`; the network lives in `crate::attach`.

pub mod reader;
pub mod record;
pub mod replay;
mod replay_error;
pub mod verdict;

pub use reader::{MAX_LINE_BYTES, ReadError, RecordReader, parse_line};
pub use record::{Call, GameCallback, GameEvent, Hello, Item, Record};
pub use replay::Replay;
pub use replay_error::ReplayError;
pub use verdict::{Divergence, FrameVerdict};
