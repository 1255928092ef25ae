use super::*;

#[test]
fn a_hand_built_dbbin_converts_to_json_that_loads_the_same() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dragonbones5");
    let bytes = std::fs::read(format!("{dir}/bin55.dbbin")).expect("fixture");
    let json = write(&bytes, "t").expect("write");
    assert!(!json.contains("\"offset\":["), "{json}");
    let a = crate::format::load_all(&bytes, "t").expect("binary");
    let b = crate::format::load_all(json.as_bytes(), "t").expect("json");
    assert_eq!(a.len(), b.len());
    for (a, b) in a.iter().zip(&b) {
        assert_eq!(a.animations.len(), b.animations.len());
        assert_eq!(a.bones.len(), b.bones.len());
    }
}

#[test]
fn timelines_the_reader_skips_are_named_as_left_out() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/dragonbones5");
    let mut bytes = std::fs::read(format!("{dir}/bin55.dbbin")).expect("fixture");
    // Same length: the color timeline (21) becomes a kind not read (29).
    let at = bytes
        .windows(14)
        .position(|w| w == b"[20, 0, 21, 7]")
        .expect("slot map");
    bytes[at + 8..at + 10].copy_from_slice(b"29");
    let (json, left_out) = write_noting(&bytes, "t").expect("write");
    assert_eq!(left_out.len(), 1, "{left_out:?}");
    assert!(left_out[0].contains("type 29"), "{left_out:?}");
    assert!(
        json.contains("displayFrame") && !json.contains("colorFrame"),
        "{json}"
    );
}
