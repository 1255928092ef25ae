//! Hand-built 3.8 files: the smallest valid one, and located errors in it.

use crate::format::spine_binary::{detect, load};

/// A string as the format writes it.
fn s(text: &str) -> Vec<u8> {
    let mut v = vec![text.len() as u8 + 1];
    v.extend_from_slice(text.as_bytes());
    v
}

/// A bone: name, parent (not for the root), 8 floats, transform mode, skin flag.
fn bone(name: &str, parent: Option<u8>) -> Vec<u8> {
    let mut v = s(name);
    v.extend(parent);
    for f in [0.0f32, 1.5, -2.0, 1.0, 1.0, 0.0, 0.0, 10.0] {
        v.extend_from_slice(&f.to_be_bytes());
    }
    v.extend_from_slice(&[0, 0]);
    v
}

/// Header, no nonessential data, no strings, `bones`, then empty sections.
fn file(bones: &[Vec<u8>]) -> Vec<u8> {
    let mut v = s("hash");
    v.extend(s("3.8.99"));
    for f in [0f32, 0.0, 100.0, 200.0] {
        v.extend_from_slice(&f.to_be_bytes());
    }
    v.push(0); // nonessential
    v.push(0); // strings
    v.push(bones.len() as u8);
    for b in bones {
        v.extend_from_slice(b);
    }
    // slots, ik, transform, path, default skin, skins, events, animations
    v.extend_from_slice(&[0; 8]);
    v
}

fn read(bytes: &[u8]) -> Result<crate::core::model::SkeletonData, String> {
    let header = detect(bytes).ok_or("not detected")?;
    load(bytes, &header, "t").map_err(|e| e.to_string())
}

#[test]
fn smallest_file_loads() {
    let d = read(&file(&[bone("root", None), bone("arm", Some(0))])).unwrap();
    assert_eq!(d.source.version, "3.8.99");
    assert_eq!(d.hash, "hash");
    assert_eq!((d.width, d.height, d.fps), (100.0, 200.0, 30.0));
    assert_eq!(d.bones.len(), 2);
    assert_eq!(d.bones[1].parent, Some(0));
    assert_eq!(
        (d.bones[1].x, d.bones[1].y, d.bones[1].length),
        (1.5, -2.0, 10.0)
    );
}

#[test]
fn errors_are_located() {
    let dup = file(&[bone("root", None), bone("root", Some(0))]);
    let at = dup.len() - 8 - bone("root", Some(0)).len();
    assert_eq!(
        read(&dup).unwrap_err(),
        format!("byte {at}: bone 1: duplicate bone name \"root\"")
    );
    let orphan = file(&[bone("root", None), bone("arm", Some(1))]);
    let at = orphan.len() - 8 - bone("arm", Some(1)).len() + 4;
    assert_eq!(
        read(&orphan).unwrap_err(),
        format!("byte {at}: bone 1: parent index 1 must come before the bone itself (1)")
    );
    let mut extra = file(&[bone("root", None)]);
    extra.push(7);
    assert_eq!(
        read(&extra).unwrap_err(),
        format!(
            "byte {}: 1 bytes left over after the last animation",
            extra.len() - 1
        )
    );
    let mut nan = file(&[bone("root", None)]);
    let at = nan.len() - 8 - bone("root", None).len() + 5;
    nan[at..at + 4].copy_from_slice(&f32::NAN.to_be_bytes());
    assert_eq!(
        read(&nan).unwrap_err(),
        format!("byte {at}: bone 0: rotation is not a finite number (NaN)")
    );
}
