//! `bonescope man`: the man page (roff), generated from the clap definitions.

use super::{Cli, CliError};
use clap::CommandFactory;

/// The man page of bonescope, subcommands included, as roff.
pub fn page() -> Result<Vec<u8>, CliError> {
    let cmd = Cli::command();
    let mut out = Vec::new();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut out)
        .and_then(|()| man.render_name_section(&mut out))
        .and_then(|()| man.render_synopsis_section(&mut out))
        .and_then(|()| man.render_description_section(&mut out))
        .and_then(|()| man.render_options_section(&mut out))
        .map_err(|e| CliError(e.to_string()))?;
    // One section per subcommand (clap_mangen lists them only by name).
    out.extend_from_slice(b".SH SUBCOMMANDS\n");
    for sub in cmd.get_subcommands() {
        let full = format!("bonescope {}", sub.get_name());
        let mut sub = sub.clone().display_name(full.clone()).bin_name(full);
        sub.build();
        let mut section = Vec::new();
        let m = clap_mangen::Man::new(sub.clone());
        m.render_synopsis_section(&mut section)
            .and_then(|()| m.render_description_section(&mut section))
            .and_then(|()| m.render_options_section(&mut section))
            .map_err(|e| CliError(e.to_string()))?;
        out.extend_from_slice(format!(".SS {}\n", roff_escape(sub.get_name())).as_bytes());
        // Nested sections become paragraphs under the subcommand's heading.
        let text = String::from_utf8_lossy(&section).replace(".SH ", ".TP\n.B ");
        out.extend_from_slice(text.as_bytes());
    }
    man.render_version_section(&mut out)
        .map_err(|e| CliError(e.to_string()))?;
    Ok(out)
}

fn roff_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('-', "\\-")
}

/// Prints the man page to stdout.
pub fn run() -> Result<(), CliError> {
    super::write_stdout(&page()?)
}
