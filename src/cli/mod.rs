//! Headless subcommands and the command-line interface.

pub mod attach;
pub mod check;
pub mod check_files;
pub mod check_recover;
pub mod check_span;
pub mod completions;
pub mod convert;
pub mod curves;
pub mod diff;
pub mod poses;
pub mod render;
pub mod render_image;
pub mod scenario;
pub mod session;
pub mod session_recording;
pub mod watch;

use crate::core::model::SkeletonData;
use crate::text::sanitize;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

pub use crate::format::read::MAX_FILE_BYTES;

/// bonescope: a terminal timeline debugger for skeletal animation.
#[derive(Parser, Debug)]
#[command(name = "bonescope", version, about)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The file to open in the interactive viewer (default: the built-in sample).
    pub file: Option<PathBuf>,
    /// Headless: watch FILE and print one line per reload result (with --json: NDJSON).
    #[arg(long, requires = "file")]
    pub watch: bool,
    /// With --watch: print NDJSON.
    #[arg(long, requires = "watch")]
    pub json: bool,
    /// Poll the file every MS milliseconds instead of using file system events (network
    /// filesystems, WSL, containers).
    #[arg(long, value_name = "MS", num_args = 0..=1, default_missing_value = "500",
          value_parser = clap::value_parser!(u64).range(10..=60_000))]
    pub poll: Option<u64>,
    #[command(flatten)]
    pub view: ViewArgs,
}

/// Options of the interactive viewer.
#[derive(clap::Args, Debug, Clone)]
pub struct ViewArgs {
    /// Plot and preview marker: octant, sextant, braille, halfblock or ascii (the whole
    /// screen in ASCII). Default: the densest the terminal shows (ascii without UTF-8).
    #[arg(long, value_enum)]
    pub marker: Option<MarkerArg>,
    /// Most redraws per second while playing.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=240))]
    pub fps: u32,
    /// Capture the mouse: a click focuses the panel under the pointer and selects the row
    /// there (dopesheet timeline, bone or slot, event, key of a key list: the playhead moves
    /// to it); a click or drag on the dopesheet's time axis scrubs; the wheel is ↑ / ↓ for
    /// the panel under the pointer (zoom in the preview), the focus stays. Most terminals
    /// select text with Shift held while the mouse is captured.
    #[arg(long)]
    pub mouse: bool,
    /// Colors: auto (NO_COLOR and COLORTERM decide), always, never.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto)]
    pub color: ColorArg,
    /// Open on this animation (default: a walk/run/trot/idle cycle, else the most keyed
    /// animation that moves).
    #[arg(long, value_name = "NAME")]
    pub animation: Option<String>,
    /// Skins to combine, comma separated (default: the default skin, or skins that dress the
    /// whole character when it shows little).
    #[arg(long, value_name = "A,B", value_delimiter = ',')]
    pub skin: Option<Vec<String>>,
}

/// `--marker` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerArg {
    Octant,
    Sextant,
    Braille,
    Halfblock,
    Ascii,
}

/// `--color` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorArg {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Sample animation poses with the Timeline API (setup pose, apply, world transforms).
    Poses {
        /// The skeleton file.
        file: PathBuf,
        /// Print JSON (the structure of the reference *.poses.json files).
        #[arg(long)]
        json: bool,
        /// Sample i*duration/N for i = 0..N, then 1.5 and 2.25 x duration looping.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        samples: u32,
        /// Sample exactly these times (seconds, comma separated, not looping).
        #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
        times: Option<Vec<f64>>,
        /// Skins to combine (comma separated); default skin only when omitted.
        #[arg(long, value_delimiter = ',')]
        skin: Vec<String>,
        /// Only these animations (comma separated).
        #[arg(long, value_delimiter = ',')]
        animation: Vec<String>,
        /// The armature to sample, by name (DragonBones files hold several); default the
        /// first.
        #[arg(long)]
        armature: Option<String>,
    },
    /// Sample every curve of a file at chosen times: MRTK input animations (one entry per
    /// stored curve) or skeletons (one per plottable channel of every animation's timelines).
    ///
    /// Paths: MRTK `camera.rotation.w`, `hand.right.pinching`,
    /// `hand.left.joint.IndexTip.position.y`, `eye_gaze.direction.x`; skeletons
    /// `<animation>/bone.hip.rotate.angle`. Bool curves (tracked, pinching) give 0 or 1.
    /// Without --times each curve is sampled at its own key times (an MRTK curve without keys,
    /// which is 0 at every time, then has no samples).
    Curves {
        /// The file: an MRTK input animation (.bin, recognised by its magic number) or a
        /// skeleton.
        file: PathBuf,
        /// Print JSON: {"duration", "markers": [{"time", "name"}], "curves": [{"path",
        /// "samples": [[t, value], ...]}]}.
        #[arg(long)]
        json: bool,
        /// Sample every curve at exactly these times (seconds, comma separated) instead of at
        /// its own key times.
        #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
        times: Option<Vec<f64>>,
        /// The armature to list, by name (DragonBones files hold several); default the first.
        #[arg(long)]
        armature: Option<String>,
    },
    /// Attach to a running game: its AnimationState calls and callbacks over TCP or
    /// WebSocket (docs/ATTACH-PROTOCOL.md), replayed live with a verdict per frame.
    Attach(attach::AttachArgs),
    /// Run the viewer's session headless: a script of prompt commands (set, queue, mix, ...,
    /// seek, frame, step, play, home), then print tracks, pose and event log at each --at
    /// frame (default: where the script ends).
    /// With --recording REC: replay a game's recording and print a verdict per frame.
    Session {
        /// The skeleton file (with --recording: optional when the hello names one).
        file: Option<PathBuf>,
        /// The script: one prompt command per line; `#` comments; `-` reads standard input.
        /// Without one the report shows the opening.
        #[arg(long, conflicts_with = "recording")]
        script: Option<PathBuf>,
        /// The animation track 0 opens on (default: as the viewer opens the file).
        #[arg(long, value_name = "NAME", conflicts_with = "recording")]
        animation: Option<String>,
        /// Skins to combine, comma separated (default: as the viewer opens the file).
        #[arg(
            long,
            value_name = "A,B",
            value_delimiter = ',',
            conflicts_with = "recording"
        )]
        skin: Option<Vec<String>>,
        /// Replay a game's recording (docs/ATTACH-PROTOCOL.md; `-` = stdin) and print a
        /// verdict per frame: exit 0 when every callback equals the game's, 1 at the first
        /// divergence.
        #[arg(long, value_name = "REC")]
        recording: Option<PathBuf>,
        /// With --recording: the skeleton to replay on, whatever the recording names.
        #[arg(long, requires = "recording")]
        skeleton: Option<PathBuf>,
        /// Report at this session frame (repeatable; reached by seeking, as in the viewer).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=crate::session::MAX_FRAMES))]
        at: Vec<u64>,
        /// Print NDJSON: one {"frame", "time", "skins", "tracks", "bones", "events"} object per frame.
        #[arg(long)]
        json: bool,
    },
    /// Run an AnimationState scenario and print every listener callback in firing order.
    Scenario {
        /// The scenario file (steps: setAnimation, addAnimation, update, ...).
        scenario: PathBuf,
        /// Folder holding the scenario's skeleton (default: the scenario file's folder).
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Print JSON (callbacks and checkpoints, the structure of the reference *.out.json).
        #[arg(long)]
        json: bool,
        /// Which export of the skeleton to load: `skel` takes the binary export beside the
        /// file the scenario names (`<stem>.skel`), `json` the `<stem>.json`; default: the
        /// file as named.
        #[arg(long, value_parser = ["json", "skel"])]
        input: Option<String>,
        /// Refuse an output estimated larger than this many bytes (default 1 GiB), before
        /// writing anything.
        #[arg(long, value_name = "BYTES", default_value_t = scenario::MAX_OUTPUT_BYTES)]
        max_output: u64,
    },
    /// Lint exports of any supported format: broken references, keys past the end, unused
    /// bones/slots/skins/events, empty animations, non-finite numbers and more; every finding
    /// of a JSON export (up to 100 a file), the first of a binary one. Exit status:
    /// 0 clean, 1 failing findings (errors; warnings too with --deny warnings), 2 a file
    /// could not be read.
    Check(check::CheckArgs),
    /// Compare two skeleton files (any supported formats): names added, removed and renamed,
    /// changed setup values, and per animation the timelines that changed and the largest pose
    /// difference sampled with the runtime. Exit status 0 same, 1 different, 2 trouble.
    Diff(diff::DiffArgs),
    /// Write a Spine export (`.skel` or JSON) as Spine JSON (`--to json`) or as a Spine
    /// binary (`--to skel`) of its own version, nothing rounded: to read and diff binary
    /// exports, to normalise JSON, or to ship JSON as `.skel`. A DragonBones `.dbbin` or JSON
    /// is written as DragonBones JSON (`--to json`).
    Convert(convert::ConvertArgs),
    /// Draw a pose without a terminal, to stdout or --output: the preview as text (braille,
    /// halfblock, ascii), an SVG picture, a textured PNG, or the animation as GIF or APNG.
    Render(render::RenderArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell).
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: completions::ShellArg,
    },
    /// Print the man page (roff; `bonescope man | man -l -`).
    Man,
}

/// A failure to report: one line, exit status 2.
#[derive(Debug)]
pub struct CliError(pub String);

/// Reads and loads a skeleton file of any supported format.
pub fn load_file(path: &Path) -> Result<Arc<SkeletonData>, CliError> {
    load_armature(path, None)
}

/// Loads `path` and picks the skeleton named `armature` (DragonBones files hold several
/// armatures), or the first one.
pub fn load_armature(path: &Path, armature: Option<&str>) -> Result<Arc<SkeletonData>, CliError> {
    pick_armature(path, load_all(path)?, armature)
}

/// The skeleton named `armature` among a file's skeletons `all` (never empty), or the first;
/// an unknown name is an error listing the real ones.
pub fn pick_armature<T: std::ops::Deref<Target = SkeletonData>>(
    path: &Path,
    mut all: Vec<T>,
    armature: Option<&str>,
) -> Result<T, CliError> {
    let Some(name) = armature else {
        return Ok(all.swap_remove(0));
    };
    match all.iter().position(|d| d.name == name) {
        Some(i) => Ok(all.swap_remove(i)),
        None => {
            let names: Vec<String> = all
                .iter()
                .map(|d| format!("\"{}\"", sanitize(&d.name)))
                .collect();
            Err(CliError(format!(
                "{}: unknown armature \"{}\" (the file has {})",
                sanitize(&path.display().to_string()),
                sanitize(name),
                names.join(", ")
            )))
        }
    }
}

/// Reads an input file through the bounded reader; errors name the file.
pub fn read_input(path: &Path) -> Result<Vec<u8>, CliError> {
    crate::format::read::read_file(path)
        .map_err(|e| CliError(format!("{}: {e}", sanitize(&path.display().to_string()))))
}

/// Reads a script from standard input, at most [`session::MAX_SCRIPT_BYTES`] (one byte
/// more tells that it is too large).
fn read_stdin_script() -> Result<Vec<u8>, CliError> {
    use std::io::Read;
    let mut text = Vec::new();
    std::io::stdin()
        .lock()
        .take(session::MAX_SCRIPT_BYTES as u64 + 1)
        .read_to_end(&mut text)
        .map_err(|e| CliError(format!("-: {e}")))?;
    Ok(text)
}

/// Loads every skeleton of `path` (never empty).
pub fn load_all(path: &Path) -> Result<Vec<Arc<SkeletonData>>, CliError> {
    let shown = sanitize(&path.display().to_string()).into_owned();
    let bytes = read_input(path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    crate::format::load_all(&bytes, &name)
        .map(|all| all.into_iter().map(Arc::new).collect())
        .map_err(|e| CliError(format!("{shown}: {e}")))
}

pub(crate) fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// What the command line hands to the interactive side. The binary (`crate::app`) plugs in
/// the terminal viewer, so no command here depends on it.
pub trait Interactive {
    /// Opens the viewer on `file` (or the built-in sample); the exit status.
    fn open(
        &self,
        file: Option<&Path>,
        view: &ViewArgs,
        poll_ms: Option<u64>,
    ) -> Result<u8, CliError>;
    /// `attach` on a terminal: the viewer following the game; the exit status.
    fn attach(&self, args: &attach::AttachArgs) -> Result<u8, CliError>;
    /// `render --format text|svg`: the viewer's preview drawn without a terminal.
    fn render_preview(&self, args: &render::RenderArgs) -> Result<(), CliError>;
    /// The man page (roff), which lists the viewer's keys.
    fn man_page(&self) -> Result<Vec<u8>, CliError>;
}

/// Runs a command, printing to stdout.
pub fn run(command: Command, ui: &dyn Interactive) -> Result<(), CliError> {
    match command {
        Command::Poses {
            file,
            json,
            samples,
            times,
            skin,
            animation,
            armature,
        } => {
            if let Some(t) = &times
                && let Some(bad) = t.iter().find(|t| !t.is_finite())
            {
                return Err(CliError(format!("--times: {bad} is not a finite time")));
            }
            let data = load_armature(&file, armature.as_deref())?;
            let shown = sanitize(&file.display().to_string()).into_owned();
            for w in &data.load_warnings {
                eprintln!("bonescope: {shown}: warning: {}", sanitize(w));
            }
            let options = poses::PosesOptions {
                samples: samples as usize,
                times,
                skins: skin,
                animations: animation,
            };
            let report = poses::sample(data, file_name(&file), options).map_err(CliError)?;
            report
                .check_work(crate::session::seek_work_limit())
                .map_err(CliError)?;
            // Written sample by sample: the output can be far larger than memory.
            with_stdout(|out| {
                if json {
                    report.write_json(out)
                } else {
                    report.write_text(out)
                }
            })
        }
        Command::Curves {
            file,
            json,
            times,
            armature,
        } => curves::run(&file, json, times, armature.as_deref()),
        Command::Session {
            file,
            script,
            animation,
            skin,
            at,
            json,
            ..
        } => {
            let Some(file) = file else {
                return Err(CliError(
                    "session needs FILE (or --recording REC whose hello names one)".into(),
                ));
            };
            let armatures = load_all(&file)?;
            let (shown, text) = match &script {
                None => (String::new(), Vec::new()),
                Some(p) if p.as_os_str() == "-" => ("-".to_string(), read_stdin_script()?),
                Some(p) => (
                    sanitize(&p.display().to_string()).into_owned(),
                    read_input(p)?,
                ),
            };
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let run = session::SessionRun {
                script_name: &shown,
                script: &text,
                animation: animation.as_deref(),
                skins: skin.as_deref(),
                at: &at,
                json,
            };
            session::run(armatures, &run, &mut out)
        }
        Command::Check(_) | Command::Diff(_) | Command::Render(_) | Command::Attach(_) => {
            dispatch(command, ui).map(|_| ())
        }
        Command::Convert(args) => convert::run(&args),
        Command::Completions { shell } => completions::run(shell),
        Command::Man => write_stdout(&ui.man_page()?),
        Command::Scenario {
            scenario,
            corpus,
            json,
            input,
            max_output,
        } => {
            let (sc, data) = load_scenario(&scenario, corpus.as_deref(), input.as_deref())?;
            let shown = sanitize(&scenario.display().to_string()).into_owned();
            crate::session::work_bound::check(
                || "the scenario runs".into(),
                sc.total_frames(),
                &data,
                crate::session::seek_work_limit(),
            )
            .map_err(|e| CliError(format!("{shown}: {e}")))?;
            use std::io::Write;
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let written = if json {
                scenario::write_json_limited(&sc, &data, &mut out, max_output)
            } else {
                scenario::write_text_limited(&sc, &data, &mut out, max_output)
            };
            match written.and_then(|()| out.flush().map_err(scenario::WriteError::Io)) {
                Ok(()) => Ok(()),
                Err(scenario::WriteError::Scenario(e)) => Err(CliError(format!("{shown}: {e}"))),
                Err(scenario::WriteError::Io(e)) => output_error(e),
            }
        }
    }
}

/// Runs a command and returns its exit status (`check` and `diff` say more than success or
/// failure).
pub fn dispatch(command: Command, ui: &dyn Interactive) -> Result<u8, CliError> {
    match command {
        Command::Check(args) => check::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Render(args) => render::run(&args, ui).map(|()| 0),
        Command::Attach(args) => attach::run(&args, ui),
        Command::Session {
            file,
            recording: Some(rec),
            skeleton,
            json,
            ..
        } => session_recording::run(file.as_deref(), skeleton.as_deref(), &rec, json),
        other => run(other, ui).map(|()| 0),
    }
}

/// Writes bytes to stdout (a closed pipe is not an error worth a message).
pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(CliError(e.to_string())),
        _ => Ok(()),
    }
}

/// Reads a scenario and loads its skeleton (from `corpus`, else beside the scenario), or its
/// export with extension `input` (`"skel"`, `"json"`) in place of the one the scenario names.
pub fn load_scenario(
    path: &Path,
    corpus: Option<&Path>,
    input: Option<&str>,
) -> Result<(scenario::Scenario, Arc<SkeletonData>), CliError> {
    let shown = sanitize(&path.display().to_string()).into_owned();
    let text = read_input(path)?;
    let sc = scenario::parse(&text).map_err(|e| CliError(format!("{shown}: {e}")))?;
    let dir = match corpus {
        Some(c) => c.to_path_buf(),
        None => path.parent().map(Path::to_path_buf).unwrap_or_default(),
    };
    let mut sc = sc;
    if let Some(ext) = input {
        // The report names the file actually loaded.
        let mut named = PathBuf::from(&sc.skeleton);
        named.set_extension(ext);
        sc.skeleton = named.to_string_lossy().into_owned();
    }
    let data = load_file(&dir.join(&sc.skeleton))?;
    Ok((sc, data))
}

/// Reads a scenario, loads its skeleton (from `corpus`, else beside the scenario) and runs it,
/// keeping every record in memory (for tests and small scenarios; the command streams).
pub fn run_scenario(path: &Path, corpus: Option<&Path>) -> Result<scenario::ScenarioRun, CliError> {
    run_scenario_as(path, corpus, None)
}

/// [`run_scenario`] loading the skeleton's export with extension `input` (`"skel"`,
/// `"json"`) in place of the one the scenario names.
pub fn run_scenario_as(
    path: &Path,
    corpus: Option<&Path>,
    input: Option<&str>,
) -> Result<scenario::ScenarioRun, CliError> {
    let shown = sanitize(&path.display().to_string()).into_owned();
    let (sc, data) = load_scenario(path, corpus, input)?;
    scenario::run(sc, data).map_err(|e| CliError(format!("{shown}: {e}")))
}

/// An error writing the output: a reader that stopped reading (`bonescope poses | head`)
/// ends the command quietly, as command-line tools do; anything else is reported.
fn output_error(e: std::io::Error) -> Result<(), CliError> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(CliError(e.to_string()))
    }
}

/// Runs `write` on buffered stdout and flushes it.
fn with_stdout(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), CliError> {
    use std::io::Write;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    write(&mut out)
        .and_then(|()| out.flush())
        .or_else(output_error)
}

/// Runs what the command line asks: a command, `--watch`, or the viewer; the exit status
/// (an error is printed on stderr with status 2).
pub fn main_with(cli: Cli, ui: &dyn Interactive) -> ExitCode {
    let result = match cli.command {
        Some(command) => dispatch(command, ui),
        None if cli.watch => match cli.file.as_deref() {
            Some(f) => watch::run(f, cli.json, cli.poll).map(|()| 0),
            None => Err(CliError("--watch needs a FILE".into())),
        },
        None => ui.open(cli.file.as_deref(), &cli.view, cli.poll),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(CliError(msg)) => {
            eprintln!("bonescope: {msg}");
            ExitCode::from(2)
        }
    }
}
