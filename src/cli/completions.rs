//! `bonescope completions SHELL`: shell completion scripts generated from the clap definitions.

use super::{Cli, CliError};
use clap::CommandFactory;

/// Shells `completions` writes scripts for.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShellArg {
    Bash,
    Zsh,
    Fish,
    Powershell,
}

/// The completion script for `shell`.
pub fn script(shell: ShellArg) -> Vec<u8> {
    use clap_complete::Shell;
    let shell = match shell {
        ShellArg::Bash => Shell::Bash,
        ShellArg::Zsh => Shell::Zsh,
        ShellArg::Fish => Shell::Fish,
        ShellArg::Powershell => Shell::PowerShell,
    };
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "bonescope", &mut out);
    out
}

/// Prints the completion script for `shell` to stdout.
pub fn run(shell: ShellArg) -> Result<(), CliError> {
    super::write_stdout(&script(shell))
}
