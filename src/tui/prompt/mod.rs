//! The command prompt's helpers: history (Up/Down), Tab completion of command verbs and
//! animation, skin and bone names. Parsing and validation live in `session::language`.

pub mod completion;
pub mod history;
