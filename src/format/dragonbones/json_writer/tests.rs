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
