//! `bonescope convert`: a Spine export (binary `.skel` or JSON) written as a Spine JSON export
//! (`--to json`) or a Spine binary export (`--to skel`) of the same editor version, with
//! nothing rounded, to stdout or a new file.

use std::path::{Path, PathBuf};

use super::{CliError, load_all, write_stdout};
use crate::format::{spine_binary_writer, spine_json_writer};
use crate::text::sanitize;

/// Options of `bonescope convert`.
#[derive(clap::Args, Debug, Clone)]
pub struct ConvertArgs {
    /// The Spine export to convert (`.skel` or JSON, recognised by content).
    pub file: PathBuf,
    /// The output format, of the file's own Spine version: `json` (Spine JSON) or `skel`
    /// (Spine binary, 3.8 to 4.2; not written to a terminal).
    #[arg(long, value_parser = ["json", "skel"], default_value = "json")]
    pub to: String,
    /// Write here instead of stdout (never over the input, also not through a link).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// Fails when `out` names the input file (directly, through `..`, or through a link).
fn refuse_overwrite(input: &Path, out: &Path) -> Result<(), CliError> {
    let same = match (std::fs::canonicalize(input), std::fs::canonicalize(out)) {
        (Ok(a), Ok(b)) => a == b,
        // A missing output cannot be the input; compare the names as given otherwise.
        _ => input == out,
    };
    if same {
        return Err(CliError(format!(
            "{}: refusing to write the output over the input file",
            sanitize(&out.display().to_string())
        )));
    }
    Ok(())
}

pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let shown = sanitize(&args.file.display().to_string()).into_owned();
    if let Some(out) = &args.output {
        refuse_overwrite(&args.file, out)?;
    }
    let mut all = load_all(&args.file)?;
    if all.len() != 1 {
        return Err(CliError(format!(
            "{shown}: holds {} skeletons; convert writes one Spine skeleton",
            all.len()
        )));
    }
    let data = all.remove(0);
    let binary = args.to == "skel";
    if binary && args.output.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err(CliError(format!(
            "{shown}: refusing to write binary .skel data to a terminal (use -o FILE or a pipe)"
        )));
    }
    let bytes = if binary {
        spine_binary_writer::write(&data).map_err(|e| CliError(format!("{shown}: {e}")))?
    } else {
        spine_json_writer::write(&data)
            .map_err(|e| CliError(format!("{shown}: {e}")))?
            .into_bytes()
    };
    match &args.output {
        None => write_stdout(&bytes),
        Some(out) => {
            // Written beside the target and renamed, so a watcher never sees half a file.
            let tmp = out.with_extension("bonescope-tmp");
            std::fs::write(&tmp, &bytes)
                .and_then(|()| std::fs::rename(&tmp, out))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    CliError(format!("{}: {e}", sanitize(&out.display().to_string())))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_input_as_output() {
        let dir = std::env::temp_dir().join(format!("bonescope-convert-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let input = dir.join("a.json");
        std::fs::write(&input, "{}").unwrap();
        assert!(refuse_overwrite(&input, &input).is_err());
        assert!(refuse_overwrite(&input, &dir.join(".").join("a.json")).is_err());
        #[cfg(unix)]
        {
            let link = dir.join("link.json");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&input, &link).unwrap();
            assert!(refuse_overwrite(&input, &link).is_err());
        }
        assert!(refuse_overwrite(&input, &dir.join("b.json")).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
