//! The command prompt's helpers: history (Up/Down), Tab completion of command verbs and
//! animation, skin and bone names, and validation of commands against the current state.

pub mod completion;
pub mod history;
pub mod validate;
