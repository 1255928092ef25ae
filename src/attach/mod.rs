//! `bonescope attach`'s network side: one port serving plain TCP and WebSocket (the first
//! bytes `GET ` mean a WebSocket handshake), a token checked before anything is read past
//! the hello, one client at a time, lines bounded by the protocol's limit
//! (`docs/ATTACH-PROTOCOL.md`). Everything received is handed over as [`Incoming`] events on
//! a bounded channel: a slow consumer slows the socket, never grows memory (the game's
//! recorder drops and counts instead of blocking). Parsing and replay are
//! `session::recording`'s; this module only moves lines.

mod feed;
mod origin;
mod server;
mod skeleton_check;
mod token;

pub use feed::{FollowRead, feed_lines};
pub use origin::loopback_origin;
pub use server::{Server, ServerOptions};
pub use skeleton_check::skeleton_differences;
pub use token::new_token;

/// What the network (or a recording file) delivers, in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A client was accepted (its hello carried the token).
    Connected { peer: String, websocket: bool },
    /// One line of the stream, as sent (at most `MAX_LINE_BYTES`), with its number.
    Line { line: u64, bytes: Vec<u8> },
    /// A located problem with the stream (a too-long or malformed line, a refused client).
    Problem(String),
    /// The client went away (or the file ended).
    Closed { reason: String },
}

/// The most events waiting for the consumer.
pub const CHANNEL_BOUND: usize = 1024;
