//! `bonescope convert`: a Spine export (binary `.skel` or JSON) written as a Spine JSON export
//! (`--to json`) or a Spine binary export (`--to skel`) of the same editor version, with
//! nothing rounded, to stdout or a new file. A DragonBones export (`.dbbin` or JSON) is
//! written as DragonBones JSON (`--to json`), every armature.

use std::path::{Path, PathBuf};

use crate::output_file::{OutputOptions, check_output, write_output};

use super::{CliError, load_all, write_stdout};
use crate::format::{spine_binary_writer, spine_json_writer};
use crate::text::sanitize;

/// A DragonBones export (JSON or `.dbbin`) as DragonBones JSON with every armature; `None`
/// for other formats. `.dbbin` timelines the reader does not read are named on stderr.
fn dragonbones_json(bytes: &[u8], path: &Path, shown: &str) -> Result<Option<String>, CliError> {
    use crate::format::sniff::{Format, sniff};
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match sniff(bytes) {
        Ok(Format::DragonBones | Format::DragonBonesBinary) => {}
        _ => return Ok(None),
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (json, left_out) = crate::format::dragonbones::json_writer::write_noting(bytes, &name)
        .map_err(|e| CliError(format!("{shown}: {e}")))?;
    for line in left_out {
        eprintln!("bonescope: {shown}: left out: {}", sanitize(&line));
    }
    Ok(Some(json))
}

/// Options of `bonescope convert`.
#[derive(clap::Args, Debug, Clone)]
pub struct ConvertArgs {
    /// The export to convert (Spine `.skel` or JSON, DragonBones `.dbbin` or JSON; recognised
    /// by content).
    pub file: PathBuf,
    /// The output format, of the file's own Spine version: `json` (Spine JSON) or `skel`
    /// (Spine binary, 3.8 to 4.3; not written to a terminal).
    #[arg(long, value_parser = ["json", "skel"], default_value = "json")]
    pub to: String,
    /// Write here instead of stdout (never over the input, also not through a link).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// How `-o` treats its target: never the input (under any name); an existing regular file
/// is replaced (the command's contract since it has had `-o`), written beside it and renamed;
/// a FIFO, terminal or character device (`-o /dev/stdout`) is written in place.
fn output_options(input: &Path) -> OutputOptions<'_> {
    OutputOptions {
        protect: Some(input),
        overwrite: true,
        special_in_place: true,
    }
}

pub fn run(args: &ConvertArgs) -> Result<(), CliError> {
    let shown = sanitize(&args.file.display().to_string()).into_owned();
    if let Some(out) = &args.output {
        check_output(out, &output_options(&args.file)).map_err(|e| CliError(e.to_string()))?;
    }
    if args.to == "json" {
        let bytes = super::read_input(&args.file)?;
        if let Some(json) = dragonbones_json(&bytes, &args.file, &shown)? {
            return match &args.output {
                None => write_stdout(json.as_bytes()),
                Some(out) => write_output(out, json.as_bytes(), &output_options(&args.file))
                    .map_err(|e| CliError(e.to_string())),
            };
        }
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
        Some(out) => write_output(out, &bytes, &output_options(&args.file))
            .map_err(|e| CliError(e.to_string())),
    }
}
