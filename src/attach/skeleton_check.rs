//! Is the skeleton bonescope opened the file the game loaded? The hello's `size` and
//! `sha256` against the file on disk: a difference means the game runs another export.

use crate::session::recording::record::SkeletonRef;
use sha2::{Digest, Sha256};
use std::path::Path;

/// What differs between `path` and the file the hello describes (empty: nothing known to
/// differ). Sanitized text for the status line and stderr.
pub fn skeleton_differences(path: &Path, named: &SkeletonRef) -> Vec<String> {
    let shown = crate::text::sanitize(&path.display().to_string()).into_owned();
    let Ok(bytes) = crate::format::read::read_file(path) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(size) = named.size
        && bytes.len() as u64 != size
    {
        out.push(format!(
            "{shown} has {} bytes, the game loaded {size}",
            bytes.len()
        ));
    }
    if let Some(want) = &named.sha256 {
        let have: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if !want.eq_ignore_ascii_case(&have) {
            out.push(format!(
                "{shown} is not the file the game loaded (sha256 {have}, the game's {}): the game exported another version",
                crate::text::sanitize(want)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_and_hash_are_compared() {
        let dir = std::env::temp_dir().join(format!("bonescope-skelcheck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let p = dir.join("a.json");
        std::fs::write(&p, b"abc").expect("write");
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let same = SkeletonRef {
            path: None,
            size: Some(3),
            sha256: Some(abc.to_uppercase()),
        };
        assert!(skeleton_differences(&p, &same).is_empty());
        let other = SkeletonRef {
            path: None,
            size: Some(4),
            sha256: Some("00".into()),
        };
        let d = skeleton_differences(&p, &other);
        assert_eq!(d.len(), 2, "{d:?}");
        assert!(d[0].contains("has 3 bytes, the game loaded 4"));
        assert!(d[1].contains("another version"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
