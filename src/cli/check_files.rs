//! Which files `check` reads: every file named, and every file under a folder named (walked
//! recursively, in name order, symbolic links to folders not followed). Files that are not
//! exports by content are skipped and counted, so a clean export folder (atlases, PNG pages,
//! notes beside the skeletons) passes.

use std::path::{Path, PathBuf};

/// Extensions of export files: a file named with one of them is checked even when its
/// content is not recognised (a half-written or mangled export is a finding, not a skip).
const EXPORT_EXTENSIONS: &[&str] = &["json", "skel", "dbbin", "bin", "bytes"];

/// A file to check and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub path: PathBuf,
    /// Named on the command line (not found in a folder).
    pub named: bool,
}

/// What walking the arguments found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Walk {
    pub candidates: Vec<Candidate>,
    /// Folders deeper than `--max-depth`, not entered.
    pub too_deep: Vec<PathBuf>,
}

/// The files `args` name: files as they are, folders walked down to `max_depth` levels below
/// the folder named (0: its own files only).
pub fn walk(args: &[PathBuf], max_depth: usize) -> Walk {
    let mut out = Walk::default();
    for arg in args {
        if arg.is_dir() {
            walk_dir(arg, 0, max_depth, &mut out);
        } else {
            out.candidates.push(Candidate {
                path: arg.clone(),
                named: true,
            });
        }
    }
    out
}

fn walk_dir(dir: &Path, depth: usize, max_depth: usize, out: &mut Walk) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        // An unreadable folder is reported as the file it is (an io finding).
        out.candidates.push(Candidate {
            path: dir.to_path_buf(),
            named: true,
        });
        return;
    };
    let mut paths: Vec<(PathBuf, bool)> = entries
        .filter_map(Result::ok)
        .map(|e| {
            // `file_type` does not follow links: a linked folder is not entered (no cycles).
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            (e.path(), is_dir)
        })
        .collect();
    paths.sort();
    for (path, is_dir) in paths {
        if is_dir {
            if depth < max_depth {
                walk_dir(&path, depth + 1, max_depth, out);
            } else {
                out.too_deep.push(path);
            }
        } else {
            out.candidates.push(Candidate { path, named: false });
        }
    }
}

/// Whether a file with these bytes is skipped: its content is no export bonescope knows (a
/// JSON document of another kind such as a texture atlas, an image, an atlas, text). A file
/// named with an export's extension whose bytes are not even JSON is checked (and reported):
/// that is a mangled export, not another kind of file.
pub fn skip(candidate: &Candidate, bytes: &[u8]) -> bool {
    let not_an_export = matches!(
        crate::format::sniff::sniff(bytes),
        Err(e) if e.kind == crate::format::ErrorKind::UnsupportedFormat
    );
    not_an_export && (!candidate.named || !has_export_extension(&candidate.path) || is_json(bytes))
}

fn is_json(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(bytes).is_ok()
}

fn has_export_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXPORT_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "bonescope-check-files-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch dir");
        dir
    }

    #[test]
    fn folders_are_walked_in_name_order_to_the_depth_asked() {
        let dir = scratch("walk");
        std::fs::create_dir_all(dir.join("b/deeper")).unwrap();
        for f in ["a.json", "b/c.skel", "b/deeper/d.json", "z.png"] {
            std::fs::write(dir.join(f), b"x").unwrap();
        }
        let names = |w: &Walk| -> Vec<String> {
            w.candidates
                .iter()
                .map(|c| c.path.strip_prefix(&dir).unwrap().display().to_string())
                .collect()
        };
        let all = walk(std::slice::from_ref(&dir), usize::MAX);
        assert_eq!(
            names(&all),
            ["a.json", "b/c.skel", "b/deeper/d.json", "z.png"]
        );
        assert!(all.candidates.iter().all(|c| !c.named));
        let shallow = walk(std::slice::from_ref(&dir), 1);
        assert_eq!(names(&shallow), ["a.json", "b/c.skel", "z.png"]);
        assert_eq!(shallow.too_deep, [dir.join("b/deeper")]);
        let own = walk(std::slice::from_ref(&dir), 0);
        assert_eq!(names(&own), ["a.json", "z.png"]);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[cfg(unix)]
    #[test]
    fn linked_folders_are_not_entered() {
        let dir = scratch("link");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/a.json"), b"{}").unwrap();
        std::os::unix::fs::symlink(&dir, dir.join("sub/loop")).unwrap();
        let w = walk(std::slice::from_ref(&dir), usize::MAX);
        assert_eq!(w.candidates.len(), 2, "{w:?}"); // a.json and the link itself
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn non_exports_are_skipped_by_content() {
        let found = |p: &str| Candidate {
            path: p.into(),
            named: false,
        };
        let named = |p: &str| Candidate {
            path: p.into(),
            named: true,
        };
        let png = b"\x89PNG\r\n\x1a\n....";
        let atlas = b"spineboy.png\nsize: 1024,256\n";
        let tex = br#"{"name": "x", "imagePath": "x_tex.png", "SubTexture": []}"#;
        let spine = br#"{"skeleton": {"spine": "4.2.10"}, "bones": []}"#;
        let broken = br#"{"skeleton": {"spine": "4.2"#;
        assert!(skip(&found("a.png"), png));
        assert!(skip(&found("a.atlas"), atlas));
        assert!(skip(&found("x_tex.json"), tex));
        assert!(skip(&named("notes.md"), atlas), "a glob's non-exports");
        assert!(!skip(&found("a.json"), spine));
        // A half-written export is a finding, in a folder or named.
        assert!(!skip(&found("a.json"), broken));
        // A glob's texture atlas is another kind of JSON document.
        assert!(skip(&named("x_tex.json"), tex));
        // Named with an export's extension but not even JSON: a mangled export, checked.
        assert!(!skip(&named("junk.json"), png));
        assert!(!skip(&named("a.skel"), atlas));
    }
}
