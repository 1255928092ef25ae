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

/// The names of the sound events of the first armature.
fn sounds(bytes: &[u8]) -> Vec<String> {
    let arms = load(bytes, "t").expect("fixture loads");
    let mut out: Vec<String> = arms[0]
        .events
        .iter()
        .filter(|d| d.audio.is_some())
        .map(|d| d.name.clone())
        .collect();
    out.sort();
    out
}

#[test]
fn action_types_other_than_play_and_event_are_sounds_as_in_json() {
    let bytes = include_bytes!("../../../../tests/fixtures/dragonbones5/frames50bin.dbbin");
    let at = bytes
        .windows(23)
        .position(|w| w == br#"{"type":11,"name":"tail"#)
        .expect("the fixture's type-11 action");
    assert_eq!(sounds(bytes), ["tail", "whoosh"]);
    // The JSON reader and the runtime read every other non-zero type as a sound; so does this
    // reader (it used to refuse the file).
    let mut other = bytes.to_vec();
    other[at + 9] = b'7';
    assert_eq!(sounds(&other), ["tail", "whoosh"]);
    // Type 10 is an event, not a sound.
    other[at + 8..at + 10].copy_from_slice(b"10");
    assert_eq!(sounds(&other), ["whoosh"]);
}
