//! `bonescope man`: the man page (roff), generated from the clap definitions and the
//! viewer's key table.

use crate::cli::{Cli, CliError};
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
    out.extend_from_slice(keys_section().as_bytes());
    out.extend_from_slice(EXIT_STATUS.as_bytes());
    out.extend_from_slice(ENVIRONMENT.as_bytes());
    out.extend_from_slice(EXAMPLES.as_bytes());
    man.render_version_section(&mut out)
        .map_err(|e| CliError(e.to_string()))?;
    Ok(out)
}

/// Every key of the viewer, from the table the `?` help is drawn from.
fn keys_section() -> String {
    let mut out = String::from(".SH KEYS\nIn the viewer (\\fB?\\fR shows the same table).\n");
    for section in crate::tui::key_help::SECTIONS {
        out.push_str(&format!(".SS {}\n", roff_escape(section.title)));
        for b in section.bindings {
            out.push_str(&format!(
                ".TP\n.B {}\n{}\n",
                roff_escape(&crate::tui::key_help::keys_label(b.keys)),
                roff_escape(b.what)
            ));
        }
    }
    out
}

const EXIT_STATUS: &str = r#".SH EXIT STATUS
.TP
.B 0
Success; for \fBcheck\fR, no finding fails the check; for \fBdiff\fR, the files are the same.
.TP
.B 1
\fBcheck\fR: an error finding (or a warning with \fB\-\-deny warnings\fR); \fBdiff\fR: the files differ.
.TP
.B 2
A file could not be read, or the command line or a script was wrong; one line on standard error says where.
.TP
.B 129, 130, 143
The viewer ended by SIGHUP (terminal closed), SIGINT or SIGTERM; the terminal is restored.
"#;

const ENVIRONMENT: &str = r#".SH ENVIRONMENT
.TP
.B NO_COLOR
When set, no colour (plot channels get their own letters).
.TP
.B COLORTERM
\fBtruecolor\fR or \fB24bit\fR allows 24-bit colours; otherwise the 16 ANSI colours.
.TP
.B TERM, TERM_PROGRAM, VTE_VERSION
What the terminal shows: \fBdumb\fR, \fBvt100\fR and \fBlinux\fR get an ASCII screen without colour; kitty, ghostty, foot and WezTerm octant markers, VTE terminals sextants, others braille.
.TP
.B LC_ALL, LC_CTYPE, LANG
A locale that is not UTF\-8 makes the whole screen ASCII.
.TP
.B CI
Tests that need \fB../shared\fR or tools fail instead of skipping when set to \fBtrue\fR.
"#;

const EXAMPLES: &str = r#".SH EXAMPLES
.TP
.B bonescope
The viewer on the built\-in sample.
.TP
.B bonescope hero.json
The viewer on an export, reloaded whenever it changes on disk.
.TP
.B bonescope check exports/
Lint every export in a folder (atlases and images are skipped); exit 1 on errors.
.TP
.B bonescope poses hero.skel \-\-animation run \-\-json
Sampled poses of one animation, as the official runtime computes them.
.TP
.B bonescope diff old.json new.json
What changed between two exports.
.TP
.B bonescope convert hero.json \-\-to skel \-o hero.skel
A Spine JSON export as a binary export of the same version.
"#;

fn roff_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('-', "\\-")
}
