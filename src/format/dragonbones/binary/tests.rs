//! `.dbbin` container errors on hand-made bytes (the corpus files are checked in tests/).

use super::load;
use crate::format::Location;

/// A `.dbbin` with `header` and a binary block of `block`.
fn dbbin(header: &str, block: &[u8]) -> Vec<u8> {
    let mut h = header.as_bytes().to_vec();
    while !(12 + h.len()).is_multiple_of(4) {
        h.push(b' ');
    }
    let mut out = b"DBDT".to_vec();
    out.extend_from_slice(&[0, 0, 0, 1]);
    out.extend_from_slice(&(h.len() as u32).to_le_bytes());
    out.extend_from_slice(&h);
    out.extend_from_slice(block);
    out
}

fn byte_error(bytes: &[u8]) -> (u64, String) {
    let e = load(bytes, "t").unwrap_err();
    match e.location {
        Some(Location::Byte { offset }) => (offset, e.message),
        other => panic!("{other:?}: {}", e.message),
    }
}

#[test]
fn short_or_cut_files_fail_at_a_byte() {
    assert_eq!(byte_error(b"DBDT\0\0").0, 6);
    let mut b = dbbin("{}", &[]);
    b[8] = 200;
    let (at, m) = byte_error(&b);
    assert_eq!(at, 8, "{m}");
    assert!(m.contains("header length 200"), "{m}");
}

#[test]
fn header_errors_name_their_byte_and_path() {
    let b = dbbin(r#"{"version": "5.5", "armature": [{"bone": 3}]}"#, &[]);
    let (at, m) = byte_error(&b);
    assert!(m.starts_with("header: "), "{m}");
    assert!((12..12 + 60).contains(&at), "{at}");
    let b = dbbin(
        r#"{"version": "5.5", "armature": [{"name": "a", "bone": [{"name": "r", "parent": "x"}]}]}"#,
        &[],
    );
    let (at, m) = byte_error(&b);
    assert!(m.contains("(armature[0].bone[0].parent)"), "{m}");
    assert!(m.contains("unknown parent bone"), "{m}");
    assert!(at > 12, "{at}");
}

#[test]
fn arrays_past_the_end_or_misaligned_are_refused() {
    let b = dbbin(
        r#"{"version": "5.5", "offset": [0, 400, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], "armature": [{"name": "a"}]}"#,
        &[0; 8],
    );
    let (_, m) = byte_error(&b);
    assert!(m.contains("runs past the end"), "{m}");
    let b = dbbin(
        r#"{"version": "5.5", "offset": [0, 0, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0], "armature": [{"name": "a"}]}"#,
        &[0; 8],
    );
    let (_, m) = byte_error(&b);
    assert!(m.contains("not aligned"), "{m}");
}

#[test]
fn timelines_pointing_past_the_arrays_fail_at_a_byte() {
    let b = dbbin(
        r#"{"version": "5.5", "offset": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4],
           "armature": [{"name": "a", "bone": [{"name": "r"}],
             "animation": [{"name": "x", "duration": 2, "offset": [0, 0, 0], "bone": {"r": [11, 0]}}]}]}"#,
        &[100, 0, 1, 0],
    );
    let (at, m) = byte_error(&b);
    assert!(m.contains("timeline array index 2 is past its end"), "{m}");
    assert!(at >= 12, "{at}");
}
