//! `bonescope check FILE...`: lint exports, for people (text), scripts (JSON) and CI logs
//! (GitHub workflow commands).
//!
//! Exit status: 2 when a file could not be read; else 1 when a finding fails the check
//! (an error, or a warning with `--deny warnings`); else 0.

use super::check_files::{Candidate, skip, walk};
use super::{CliError, MAX_FILE_BYTES, write_stdout};
use crate::lint::{Finding, LoadOutcome, Severity, from_load_error, lint_all};
use crate::text::sanitize;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How `check` prints.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckFormat {
    /// One line per finding.
    Text,
    /// One JSON document (see the README).
    Json,
    /// GitHub Actions workflow commands (`::error file=...::message`), annotated in the diff.
    Github,
    /// SARIF 2.1.0 (code scanning services, IDE viewers).
    Sarif,
}

/// What `--deny` can make fail.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum DenyArg {
    /// Warnings fail the check like errors.
    Warnings,
}

/// Options of `bonescope check`.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// The files and folders to check (any supported format). Folders are walked; files in
    /// them that are not exports by content (atlases, images, other JSON) are skipped and
    /// counted.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// How many folder levels below a folder named to walk (0: its own files only).
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Print JSON (same as --format json).
    #[arg(long)]
    pub json: bool,
    /// Output: text, json, github or sarif.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,
    /// Make warnings fail the check (`--deny warnings`).
    #[arg(long, value_enum)]
    pub deny: Vec<DenyArg>,
}

/// The result of checking one file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileReport {
    pub file: String,
    /// "Spine 3.8.99", "DragonBones 5.5", ...; empty when unreadable.
    pub format: String,
    /// The export's version ("3.8.75"); empty when unreadable.
    pub version: String,
    /// The official runtime line that reads it ("Spine 3.8": Spine runtimes read only their
    /// own major.minor); empty when unreadable or the format has no such rule.
    pub runtime: String,
    /// The file could not be read at all (the one finding says why).
    pub unreadable: bool,
    pub findings: Vec<Finding>,
}

impl FileReport {
    fn count(&self, s: Severity) -> usize {
        self.findings.iter().filter(|f| f.severity == s).count()
    }
}

/// Checks one file.
pub fn check_file(path: &Path) -> FileReport {
    let named = Candidate {
        path: path.to_path_buf(),
        named: true,
    };
    match check_candidate(&named) {
        Some(r) => r,
        // Only a file that is not an export by content is skipped: say so.
        None => FileReport {
            file: path.display().to_string(),
            format: String::new(),
            version: String::new(),
            runtime: String::new(),
            unreadable: true,
            findings: vec![Finding::new(
                Severity::Error,
                "unsupported-format",
                "",
                "not an export bonescope reads",
            )],
        },
    }
}

/// Checks one file found by [`walk`]; `None` when it is skipped (not an export by content).
pub fn check_candidate(candidate: &Candidate) -> Option<FileReport> {
    let path = &candidate.path;
    let file = path.display().to_string();
    let unreadable = |code: &'static str, message: String| FileReport {
        file: file.clone(),
        format: String::new(),
        version: String::new(),
        runtime: String::new(),
        unreadable: true,
        findings: vec![Finding::new(Severity::Error, code, "", message)],
    };
    let bytes = match std::fs::metadata(path) {
        Err(e) => return Some(unreadable("io", e.to_string())),
        Ok(m) if m.is_dir() => {
            return Some(unreadable("io", "a folder that could not be read".into()));
        }
        Ok(m) if m.len() > MAX_FILE_BYTES => {
            return Some(unreadable(
                "io",
                format!(
                    "file is {} bytes, larger than the {MAX_FILE_BYTES} byte limit",
                    m.len()
                ),
            ));
        }
        Ok(_) => match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => return Some(unreadable("io", e.to_string())),
        },
    };
    if skip(candidate, &bytes) {
        return None;
    }
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    Some(match crate::format::load_all(&bytes, &name) {
        Ok(all) => {
            let all: Vec<Arc<_>> = all.into_iter().map(Arc::new).collect();
            let format = all.first().map_or_else(String::new, |d| {
                format!("{} {}", d.source.format, d.source.version)
                    .trim()
                    .to_string()
            });
            let (version, runtime) = all.first().map_or_else(Default::default, |d| {
                let v = &d.source.version;
                let line = crate::lint::versions::runtime_line(&d.source.format, v);
                (v.clone(), line.unwrap_or_default())
            });
            FileReport {
                file,
                format,
                version,
                runtime,
                unreadable: false,
                findings: lint_all(&all),
            }
        }
        Err(e) => match from_load_error(&e) {
            LoadOutcome::Refused(f) => FileReport {
                file,
                format: String::new(),
                version: String::new(),
                runtime: String::new(),
                unreadable: false,
                findings: vec![f],
            },
            LoadOutcome::Unreadable(f) => FileReport {
                file,
                format: String::new(),
                version: String::new(),
                runtime: String::new(),
                unreadable: true,
                findings: vec![f],
            },
        },
    })
}

/// What one `check` run looked at: the reports of the files checked, and the files skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckRun {
    pub reports: Vec<FileReport>,
    /// Files found that are not exports by content.
    pub skipped: Vec<String>,
    /// Folders below `--max-depth`, not entered.
    pub too_deep: Vec<String>,
}

/// Checks every file `args` name or hold (see [`walk`]).
pub fn check_all(files: &[PathBuf], max_depth: Option<usize>) -> CheckRun {
    let found = walk(files, max_depth.unwrap_or(usize::MAX));
    let mut run = CheckRun {
        too_deep: found
            .too_deep
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        ..CheckRun::default()
    };
    for c in &found.candidates {
        match check_candidate(c) {
            Some(r) => run.reports.push(r),
            None => run.skipped.push(c.path.display().to_string()),
        }
    }
    run
}

/// The exit status for `reports` (see the module docs).
pub fn status(reports: &[FileReport], deny_warnings: bool) -> u8 {
    if reports.iter().any(|r| r.unreadable) {
        2
    } else if reports
        .iter()
        .any(|r| r.count(Severity::Error) > 0 || (deny_warnings && r.count(Severity::Warning) > 0))
    {
        1
    } else {
        0
    }
}

/// Where a finding is, for text: `line 3, column 5 (bones[1].parent)` or the model path.
fn where_text(f: &Finding) -> String {
    match f.line_column {
        Some((l, c)) if f.path.is_empty() => format!("line {l}, column {c}"),
        Some((l, c)) => format!("line {l}, column {c} ({})", sanitize(&f.path)),
        None => sanitize(&f.path).into_owned(),
    }
}

/// The text report: one line per finding (`file: severity[code] where: message`), `file: ok`
/// for clean files, and a summary line.
pub fn to_text(run: &CheckRun) -> String {
    let reports = &run.reports;
    let mut out = String::new();
    for r in reports {
        let file = sanitize(&r.file);
        let about = about_text(r);
        if r.findings.is_empty() {
            out.push_str(&format!(
                "{file}: ok{}\n",
                about.map_or(String::new(), |a| format!(" ({a})"))
            ));
        } else if let Some(a) = about {
            out.push_str(&format!("{file}: {a}\n"));
        }
        for f in &r.findings {
            let sev = if r.unreadable {
                "unreadable"
            } else {
                f.severity.name()
            };
            let at = where_text(f);
            let at = if at.is_empty() {
                String::new()
            } else {
                format!(" {at}:")
            };
            out.push_str(&format!(
                "{file}: {sev}[{}]{at} {}\n",
                f.code,
                sanitize(&f.message)
            ));
        }
    }
    let total = |s: Severity| reports.iter().map(|r| r.count(s)).sum::<usize>();
    let unreadable = reports.iter().filter(|r| r.unreadable).count();
    out.push_str(&format!(
        "checked {} file{}: {} error{}, {} warning{}, {} info{}, {} unreadable\n",
        reports.len(),
        plural(reports.len()),
        total(Severity::Error) - unreadable,
        plural(total(Severity::Error) - unreadable),
        total(Severity::Warning),
        plural(total(Severity::Warning)),
        total(Severity::Info),
        plural(total(Severity::Info)),
        unreadable
    ));
    if !run.skipped.is_empty() {
        out.truncate(out.len() - 1);
        out.push_str(&format!(
            "; skipped {}\n",
            if run.skipped.len() == 1 {
                "1 file that is not an export".to_string()
            } else {
                format!("{} files that are not exports", run.skipped.len())
            }
        ));
    }
    for dir in &run.too_deep {
        out.push_str(&format!(
            "not entered (below --max-depth): {}\n",
            sanitize(dir)
        ));
    }
    out
}

/// `Spine 3.8.75 export, for the Spine 3.8 runtimes`: what was loaded and which official
/// runtimes read it; `None` when nothing was loaded.
fn about_text(r: &FileReport) -> Option<String> {
    if r.format.is_empty() {
        return None;
    }
    let format = sanitize(&r.format);
    Some(if r.runtime.is_empty() {
        format!("{format} export")
    } else {
        format!("{format} export, for the {} runtimes", sanitize(&r.runtime))
    })
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The JSON report (raw strings: JSON escapes them).
pub fn to_json(run: &CheckRun, deny_warnings: bool) -> Value {
    let reports = &run.reports;
    let total = |s: Severity| reports.iter().map(|r| r.count(s)).sum::<usize>();
    let unreadable = reports.iter().filter(|r| r.unreadable).count();
    let files: Vec<Value> = reports
        .iter()
        .map(|r| {
            let findings: Vec<Value> = r
                .findings
                .iter()
                .map(|f| {
                    let mut v = json!({
                        "severity": f.severity.name(),
                        "code": f.code,
                        "message": f.message,
                        "path": f.path,
                    });
                    if let Some((l, c)) = f.line_column {
                        v["line"] = json!(l);
                        v["column"] = json!(c);
                    }
                    v
                })
                .collect();
            let status = if r.unreadable {
                "unreadable"
            } else if r.findings.is_empty() {
                "ok"
            } else {
                "findings"
            };
            let known = |s: &String| {
                if s.is_empty() { Value::Null } else { json!(s) }
            };
            json!({
                "file": r.file,
                "format": r.format,
                "version": known(&r.version),
                "runtime": known(&r.runtime),
                "status": status,
                "findings": findings,
            })
        })
        .collect();
    json!({
        "files": files,
        "skipped": run.skipped,
        "not_entered": run.too_deep,
        "errors": total(Severity::Error) - unreadable,
        "warnings": total(Severity::Warning),
        "infos": total(Severity::Info),
        "unreadable": unreadable,
        "exitStatus": status(reports, deny_warnings),
    })
}

/// GitHub Actions workflow commands: one `::error`/`::warning`/`::notice` per finding.
pub fn to_github(reports: &[FileReport]) -> String {
    // Workflow command escaping: data escapes % CR LF; properties also : and ,.
    fn data(s: &str) -> String {
        s.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    }
    fn prop(s: &str) -> String {
        data(s).replace(':', "%3A").replace(',', "%2C")
    }
    let mut out = String::new();
    for r in reports {
        for f in &r.findings {
            let cmd = match f.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let mut props = format!("file={}", prop(&sanitize(&r.file)));
            if let Some((l, c)) = f.line_column {
                props.push_str(&format!(",line={l},col={c}"));
            }
            props.push_str(&format!(
                ",title={}",
                prop(&format!("bonescope {}", f.code))
            ));
            let mut msg = sanitize(&f.message).into_owned();
            if !f.path.is_empty() {
                msg = format!("{}: {msg}", sanitize(&f.path));
            }
            out.push_str(&format!("::{cmd} {props}::{}\n", data(&msg)));
        }
    }
    out
}

/// A SARIF 2.1.0 log: one run, one rule per finding code, one result per finding.
pub fn to_sarif(reports: &[FileReport]) -> Value {
    let mut rules: Vec<&str> = reports
        .iter()
        .flat_map(|r| r.findings.iter().map(|f| f.code))
        .collect();
    rules.sort_unstable();
    rules.dedup();
    let results: Vec<Value> = reports
        .iter()
        .flat_map(|r| {
            r.findings.iter().map(move |f| {
                let level = match f.severity {
                    Severity::Error => "error",
                    Severity::Warning => "warning",
                    Severity::Info => "note",
                };
                let mut location = json!({
                    "physicalLocation": {"artifactLocation": {"uri": r.file.replace('\\', "/")}}
                });
                if let Some((l, c)) = f.line_column {
                    location["physicalLocation"]["region"] =
                        json!({"startLine": l, "startColumn": c});
                }
                if !f.path.is_empty() {
                    location["logicalLocations"] = json!([{"fullyQualifiedName": f.path}]);
                }
                json!({
                    "ruleId": f.code,
                    "level": level,
                    "message": {"text": f.message},
                    "locations": [location],
                })
            })
        })
        .collect();
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "bonescope",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules.iter().map(|r| json!({"id": r})).collect::<Vec<_>>(),
            }},
            "results": results,
        }],
    })
}

/// Runs `check`; returns the exit status.
pub fn run(args: &CheckArgs) -> Result<u8, CliError> {
    let deny = args.deny.contains(&DenyArg::Warnings);
    let run = check_all(&args.files, args.max_depth);
    let reports = &run.reports;
    let format = if args.json {
        CheckFormat::Json
    } else {
        args.format
    };
    match format {
        CheckFormat::Text => write_stdout(to_text(&run).as_bytes())?,
        CheckFormat::Github => write_stdout(to_github(reports).as_bytes())?,
        CheckFormat::Sarif => {
            let mut s = crate::text::to_json_string(&to_sarif(reports));
            s.push('\n');
            write_stdout(s.as_bytes())?
        }
        CheckFormat::Json => {
            let mut s = crate::text::to_json_string(&to_json(&run, deny));
            s.push('\n');
            write_stdout(s.as_bytes())?
        }
    }
    Ok(status(reports, deny))
}
