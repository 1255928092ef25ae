//! `bonescope check FILE...`: lint exports, for people (text), scripts (JSON) and CI logs
//! (GitHub workflow commands).
//!
//! Exit status: 2 when a file could not be read; else 1 when a finding fails the check
//! (an error, or a warning with `--deny warnings`); else 0.

use super::check_files::{Candidate, skip, walk};
use super::check_recover::load_recovering;
use super::{CliError, MAX_FILE_BYTES, write_stdout};
use crate::lint::{Finding, Severity, lint_all};
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
    /// Every finding: the loader's refusals in file order (each found with the ones before it
    /// left out, see [`check_recover`](super::check_recover)), then the lint rules' findings.
    pub findings: Vec<Finding>,
    /// Why findings may be missing (a bound reached, a binary file's first error, a refusal
    /// that could not be left out); `None` when the whole file was checked.
    pub incomplete: Option<String>,
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
            incomplete: None,
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
        incomplete: None,
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
    let mut recovery = load_recovering(&bytes, &name);
    let mut report = FileReport {
        file,
        format: String::new(),
        version: String::new(),
        runtime: String::new(),
        unreadable: recovery.unreadable,
        findings: std::mem::take(&mut recovery.findings),
        incomplete: recovery.incomplete.take(),
    };
    if let Some(all) = recovery.loaded.take() {
        // After refusals, the lint rules run on the model with the refused members left out;
        // what they say about an item that held one is not about the user's file.
        let all: Vec<Arc<_>> = all.into_iter().map(Arc::new).collect();
        if let Some(d) = all.first() {
            let v = &d.source.version;
            report.format = format!("{} {}", d.source.format, v).trim().to_string();
            report.version = v.clone();
            report.runtime =
                crate::lint::versions::runtime_line(&d.source.format, v).unwrap_or_default();
        }
        let lints = lint_all(&all).into_iter();
        report
            .findings
            .extend(lints.filter(|f| !recovery.changed(&f.path)));
    }
    Some(report)
}

/// What one `check` run looked at: the reports of the files checked, and the files skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CheckRun {
    pub reports: Vec<FileReport>,
    /// Files found that are not exports by content.
    pub skipped: Vec<String>,
    /// Folders below `--max-depth`, not entered.
    pub too_deep: Vec<String>,
    /// How fast the files were checked.
    pub throughput: Throughput,
}

/// How fast a `check` run went (`--json`'s `throughput`): files found (checked and skipped),
/// their bytes, the wall time from walking to the last report, and the threads used.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Throughput {
    pub files: usize,
    pub bytes: u64,
    pub seconds: f64,
    pub threads: usize,
}

impl Throughput {
    /// Files per second (0 when no time passed).
    pub fn files_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.files as f64 / self.seconds
        } else {
            0.0
        }
    }

    /// Megabytes (10^6 bytes) per second (0 when no time passed).
    pub fn megabytes_per_second(&self) -> f64 {
        if self.seconds > 0.0 {
            self.bytes as f64 / 1e6 / self.seconds
        } else {
            0.0
        }
    }
}

/// Checks `candidates` on every core: each worker takes the next unchecked file, and the
/// results come back in the candidates' order (so output never depends on scheduling).
/// Each result: the report (`None`: skipped) and the file's size.
fn check_in_parallel(candidates: &[Candidate]) -> (Vec<(Option<FileReport>, u64)>, usize) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let one = |c: &Candidate| {
        let size = std::fs::metadata(&c.path).map_or(0, |m| m.len());
        (check_candidate(c), size)
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(candidates.len())
        .max(1);
    if threads == 1 {
        return (candidates.iter().map(one).collect(), 1);
    }
    let next = AtomicUsize::new(0);
    let mut slots: Vec<Option<(Option<FileReport>, u64)>> = vec![None; candidates.len()];
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(c) = candidates.get(i) else { break };
                        done.push((i, one(c)));
                    }
                    done
                })
            })
            .collect();
        for w in workers {
            // A worker's panic is a bug: pass it on as it is.
            let done = w.join().unwrap_or_else(|p| std::panic::resume_unwind(p));
            for (i, r) in done {
                slots[i] = Some(r);
            }
        }
    });
    // Every index was taken by exactly one worker.
    (slots.into_iter().flatten().collect(), threads)
}

/// Checks every file `args` name or hold (see [`walk`]).
pub fn check_all(files: &[PathBuf], max_depth: Option<usize>) -> CheckRun {
    let started = std::time::Instant::now();
    let found = walk(files, max_depth.unwrap_or(usize::MAX));
    let mut run = CheckRun {
        too_deep: found
            .too_deep
            .iter()
            .map(|p| p.display().to_string())
            .collect(),
        ..CheckRun::default()
    };
    let (results, threads) = check_in_parallel(&found.candidates);
    let mut bytes = 0u64;
    for (c, (report, size)) in found.candidates.iter().zip(results) {
        bytes = bytes.saturating_add(size);
        match report {
            Some(r) => run.reports.push(r),
            None => run.skipped.push(c.path.display().to_string()),
        }
    }
    run.throughput = Throughput {
        files: found.candidates.len(),
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        threads,
    };
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
        if let Some(why) = &r.incomplete {
            out.push_str(&format!("{file}: note: {}\n", sanitize(why)));
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
                "incomplete": r.incomplete,
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
        "throughput": {
            "files": run.throughput.files,
            "bytes": run.throughput.bytes,
            "seconds": run.throughput.seconds,
            "threads": run.throughput.threads,
            "filesPerSecond": run.throughput.files_per_second(),
            "megabytesPerSecond": run.throughput.megabytes_per_second(),
        },
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
        if let Some(why) = &r.incomplete {
            out.push_str(&format!(
                "::notice file={},title={}::{}\n",
                prop(&sanitize(&r.file)),
                prop("bonescope check incomplete"),
                data(&sanitize(why))
            ));
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
    // Files whose findings may be incomplete (a bound reached, a binary file's first error).
    let notes: Vec<Value> = reports
        .iter()
        .filter_map(|r| {
            let why = r.incomplete.as_ref()?;
            Some(json!({
                "level": "note",
                "message": {"text": why},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": r.file.replace('\\', "/")}
                }}],
            }))
        })
        .collect();
    let mut log = json!({
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
    });
    if !notes.is_empty() {
        log["runs"][0]["invocations"] =
            json!([{"executionSuccessful": true, "toolExecutionNotifications": notes}]);
    }
    log
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Files are checked on several threads, yet reports and skips come in the walk's order
    /// and the throughput counts every file found.
    #[test]
    fn parallel_check_keeps_the_walk_order() {
        let dir =
            std::env::temp_dir().join(format!("bonescope-check-order-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        let sample = include_str!("../../samples/spine/lantern-keeper.json");
        let mut expected = Vec::new();
        for i in 0..24 {
            let name = format!("{i:02}.json");
            // Every third file a half-written export: a finding, in its place.
            let text = if i % 3 == 0 {
                &sample[..sample.len() / 2]
            } else {
                sample
            };
            std::fs::write(dir.join(&name), text).expect("write");
            expected.push(dir.join(name).display().to_string());
        }
        std::fs::write(dir.join("notes.md"), "not an export").expect("write");
        let run = check_all(std::slice::from_ref(&dir), None);
        let files: Vec<&str> = run.reports.iter().map(|r| r.file.as_str()).collect();
        assert_eq!(files, expected);
        assert!(
            run.reports
                .iter()
                .enumerate()
                .all(|(i, r)| (i % 3 == 0) == r.unreadable)
        );
        assert_eq!(run.skipped, [dir.join("notes.md").display().to_string()]);
        assert_eq!(run.throughput.files, 25);
        assert!(run.throughput.bytes > 16 * sample.len() as u64);
        assert!(run.throughput.threads >= 1);
        let json = to_json(&run, false);
        assert_eq!(json["throughput"]["files"], 25);
        std::fs::remove_dir_all(&dir).ok();
    }
}
