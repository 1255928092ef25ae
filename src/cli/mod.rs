//! Headless subcommands.
