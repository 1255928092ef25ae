//! Loader tests on the real exports in `../shared/corpus/spine/3.8` and the project sample.

use std::path::{Path, PathBuf};

use crate::core::animation::{BoneProperty, Timeline};
use crate::core::model::*;
use crate::format::load;

fn corpus_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/spine/3.8");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: {} is absent (the shared reference folder is not checked out)",
            dir.display()
        );
        None
    }
}

fn sample_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/spine/lantern-keeper.json")
}

fn load_file(path: &Path) -> SkeletonData {
    let bytes = std::fs::read(path).unwrap();
    let stem = path.file_stem().unwrap().to_string_lossy();
    load(&bytes, &stem).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_and_the_sample_load() {
    let sample = load_file(&sample_path());
    assert_eq!(sample.name, "lantern-keeper");
    assert_eq!(sample.source.version, "3.8.99");
    let Some(dir) = corpus_dir() else { return };
    let files = corpus_files(&dir);
    assert_eq!(files.len(), 21);
    for f in &files {
        let data = load_file(f);
        assert_eq!(data.source.format, "Spine");
        assert!(data.source.version.starts_with("3.8."));
        assert_eq!(data.bone_children.len(), data.bones.len());
    }
}

fn counts(data: &SkeletonData) -> (usize, usize, usize) {
    (data.bones.len(), data.slots.len(), data.animations.len())
}

#[test]
fn spineboy_matches_the_corpus_table_and_goldens() {
    let Some(dir) = corpus_dir() else { return };
    let data = load_file(&dir.join("spineboy-pro.json"));
    assert_eq!(counts(&data), (64, 52, 11));
    assert_eq!(data.ik_constraints.len(), 7);
    assert_eq!(data.transform_constraints.len(), 7);
    assert_eq!(data.events.len(), 1);
    assert_eq!(data.default_skin, Some(0));
    // Animation order is file order.
    let names: Vec<_> = data.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "aim",
            "death",
            "hoverboard",
            "idle",
            "idle-turn",
            "jump",
            "portal",
            "run",
            "run-to-idle",
            "shoot",
            "walk"
        ]
    );
    // Durations are f32 key times, exactly as in the golden poses.
    let golden = dir.join("../../../golden/spine/3.8/spineboy-pro.poses.json");
    let Ok(text) = std::fs::read_to_string(&golden) else {
        eprintln!("skipped the duration check: {} is absent", golden.display());
        return;
    };
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let anims = v["animations"].as_array().unwrap();
    assert_eq!(anims.len(), 11);
    for a in anims {
        let ours = &data.animations[data.find_animation(a["name"].as_str().unwrap()).unwrap()];
        assert_eq!(
            ours.duration,
            a["duration"].as_f64().unwrap(),
            "{}",
            ours.name
        );
    }
    assert_eq!(
        data.animations[data.find_animation("walk").unwrap()].duration,
        0.8667f32 as f64
    );
}

#[test]
fn corpus_counts_match_the_readme() {
    let Some(dir) = corpus_dir() else { return };
    // (file, bones, slots, animations) from corpus/spine/README.md.
    let table = [
        ("alien-ess", 20, 19, 4),
        ("alien-pro", 28, 23, 4),
        ("coin-pro", 7, 6, 1),
        ("dragon-ess", 33, 31, 1),
        ("goblins-ess", 18, 22, 1),
        ("goblins-pro", 21, 23, 1),
        ("hero-ess", 18, 20, 7),
        ("hero-pro", 44, 31, 12),
        ("mix-and-match-pro", 143, 80, 6),
        ("owl-pro", 20, 27, 6),
        ("powerup-ess", 17, 13, 1),
        ("powerup-pro", 21, 13, 1),
        ("raptor-pro", 74, 36, 5),
        ("speedy-ess", 15, 11, 3),
        ("spineboy-ess", 18, 20, 7),
        ("spineboy-pro", 64, 52, 11),
        ("spinosaurus-ess", 6, 6, 1),
        ("stretchyman-pro", 55, 9, 1),
        ("tank-pro", 115, 200, 2),
        ("vine-pro", 18, 2, 1),
        ("windmill-ess", 93, 96, 1),
    ];
    for (file, bones, slots, anims) in table {
        let data = load_file(&dir.join(format!("{file}.json")));
        assert_eq!(counts(&data), (bones, slots, anims), "{file}");
    }
}

#[test]
fn mix_and_match_skins_and_linked_meshes() {
    let Some(dir) = corpus_dir() else { return };
    let data = load_file(&dir.join("mix-and-match-pro.json"));
    assert_eq!(data.skins.len(), 34);
    assert_eq!(data.skins[data.default_skin.unwrap()].name, "default");
    assert_eq!(
        data.skins
            .iter()
            .filter(|s| !s.bones.is_empty() || !s.constraints.is_empty())
            .count(),
        16
    );
    let linked: Vec<_> = data
        .attachments
        .iter()
        .enumerate()
        .filter_map(|(id, a)| match &a.kind {
            AttachmentKind::Mesh(m) => m.linked_parent.map(|p| (id, a, m, p)),
            _ => None,
        })
        .collect();
    assert_eq!(linked.len(), 6);
    for (id, att, mesh, parent) in linked {
        let AttachmentKind::Mesh(pm) = &data.attachments[parent].kind else {
            panic!("parent not a mesh")
        };
        assert_eq!(mesh.uvs, pm.uvs);
        assert_eq!(mesh.vertices, pm.vertices);
        assert_eq!(mesh.triangles, pm.triangles);
        assert!(att.deform_source == parent || att.deform_source == id);
        assert_eq!(att.type_name(), "linkedmesh");
    }
    let weighted = data
        .attachments
        .iter()
        .filter(|a| matches!(&a.kind, AttachmentKind::Mesh(m) if m.linked_parent.is_none() && m.vertices.is_weighted()))
        .count();
    assert_eq!(weighted, 219);
}

#[test]
fn timelines_are_built_from_keys() {
    let Some(dir) = corpus_dir() else { return };
    let data = load_file(&dir.join("spineboy-pro.json"));
    let walk = &data.animations[data.find_animation("walk").unwrap()];
    // Deform arrays are full length: per influence (x, y) when weighted, per vertex otherwise.
    let mut deforms = 0;
    for t in &walk.timelines {
        if let Timeline::Deform(d) = t {
            deforms += 1;
            let vd = data.attachments[d.attachment].vertex_data().unwrap();
            let len = if vd.is_weighted() {
                vd.vertices.len() / 3 * 2
            } else {
                vd.world_len
            };
            assert!(d.vertices.iter().all(|v| v.len() == len));
            assert_eq!(d.vertices.len(), d.keys.len());
            assert_eq!(d.keys.channels(), 0);
        }
    }
    assert!(deforms > 0);
    // Every bone timeline has the channel count of its property.
    for t in walk.timelines.iter() {
        if let Timeline::Bone(b) = t {
            let n = if b.property == BoneProperty::Rotate {
                1
            } else {
                2
            };
            assert_eq!(b.keys.channels(), n);
            assert_eq!(b.keys.values().len(), b.keys.len() * n);
        }
    }
    // Events carry the definition's defaults and the key time in f32.
    let events: Vec<_> = walk
        .timelines
        .iter()
        .filter_map(|t| {
            if let Timeline::Event(e) = t {
                Some(e)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(events.len(), 1);
    for (t, e) in events[0].times.iter().zip(&events[0].events) {
        assert_eq!(e.time, *t as f64);
        assert_eq!(data.events[e.data].name, "footstep");
    }
}

#[test]
fn draw_order_keys_are_permutations() {
    let Some(dir) = corpus_dir() else { return };
    for file in ["alien-ess", "alien-pro", "coin-pro", "tank-pro"] {
        let data = load_file(&dir.join(format!("{file}.json")));
        let mut seen = 0;
        for a in &data.animations {
            for t in &a.timelines {
                if let Timeline::DrawOrder(d) = t {
                    for order in d.orders.iter().flatten() {
                        seen += 1;
                        let mut sorted = order.clone();
                        sorted.sort_unstable();
                        assert_eq!(sorted, (0..data.slots.len()).collect::<Vec<_>>(), "{file}");
                    }
                }
            }
        }
        assert!(seen > 0, "{file}");
    }
}

#[test]
fn the_sample_uses_every_feature() {
    let data = load_file(&sample_path());
    assert_eq!(data.fps, 30.0);
    assert_eq!(data.images.as_deref(), Some("./images/"));
    let ik = &data.ik_constraints[0];
    assert_eq!(
        (ik.name.as_str(), ik.bend_direction, ik.mix),
        ("leg-l-ik", -1, 1.0)
    );
    let chain = &data.ik_constraints[2];
    assert!(chain.compress && chain.stretch && chain.uniform && chain.bend_direction == 1);
    let sync = &data.transform_constraints[1];
    assert!(sync.local && sync.relative);
    assert_eq!((sync.offset_rotation, sync.mix_x), (10.0, 0.0));
    let footstep = &data.events[data.find_event("footstep").unwrap()];
    assert_eq!(
        (footstep.int, footstep.float, footstep.string.as_str()),
        (1, 0.5, "stone")
    );
    let creak = &data.events[data.find_event("lantern-creak").unwrap()];
    assert_eq!(
        (creak.audio.as_deref(), creak.volume, creak.balance),
        (Some("creak.ogg"), 0.8, -0.3)
    );
    // The alt skin's linked mesh shares the default skin's cloak and its deform keys.
    let alt = &data.skins[data.find_skin("alt").unwrap()];
    let cloak_slot = data.find_slot("cloak").unwrap();
    let linked = alt.get(cloak_slot, "cloak").unwrap();
    let parent = data.skins[data.default_skin.unwrap()]
        .get(cloak_slot, "cloak")
        .unwrap();
    assert_eq!(data.attachments[linked].name, "cloak-patched");
    assert_eq!(data.attachments[linked].deform_source, parent);
    assert_eq!(alt.bones, [data.find_bone("feather").unwrap()]);
    // Clipping ends at the glow slot.
    let clip_slot = data.find_slot("lantern-clip").unwrap();
    let clip = data.skins[0].get(clip_slot, "lantern-clip").unwrap();
    assert!(matches!(data.attachments[clip].kind,
        AttachmentKind::Clipping { end_slot: Some(s), .. } if s == data.find_slot("glow").unwrap()));
    // Constraint order: by `order`.
    assert_eq!(data.constraint_order.len(), 6);
}

/// Loading must be no slower than serde_json parsing the same text into a `Value`.
/// `cargo test --release --lib -- --ignored --nocapture load_speed`
#[test]
#[ignore = "timing; run in release mode"]
fn load_speed_vs_serde_value() {
    use std::time::{Duration, Instant};
    let Some(dir) = corpus_dir() else { return };
    for file in ["spineboy-pro.json", "mix-and-match-pro.json"] {
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let median = |mut v: Vec<Duration>| {
            v.sort();
            v[v.len() / 2]
        };
        let (mut ours, mut value) = (Vec::new(), Vec::new());
        for _ in 0..60 {
            let t = Instant::now();
            std::hint::black_box(load(&bytes, "x").unwrap());
            ours.push(t.elapsed());
            let t = Instant::now();
            std::hint::black_box(serde_json::from_slice::<serde_json::Value>(&bytes).unwrap());
            value.push(t.elapsed());
        }
        let (ours, value) = (median(ours), median(value));
        println!(
            "{file} ({} bytes): load {:.3} ms, serde_json Value {:.3} ms, ratio {:.2}",
            bytes.len(),
            ours.as_secs_f64() * 1e3,
            value.as_secs_f64() * 1e3,
            ours.as_secs_f64() / value.as_secs_f64()
        );
    }
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend(std::fs::read(sample_path()).unwrap());
    let data = load(&bytes, "bom").unwrap();
    assert_eq!(data.bones.len(), load_file(&sample_path()).bones.len());
}

/// 4.0-4.2 event keys default `volume` / `balance` to 1 / 0 (audio events only; 4.3 both to the
/// definition's volume, pinned by `spec/events-43`), 3.8 keys to the
/// event's definition (pinned by the kite-fox-42 and lantern-keeper goldens).
#[test]
fn event_key_volume_and_balance_defaults_per_version() {
    let keyed = |spine: &str| {
        let text = format!(
            r#"{{"skeleton":{{"spine":"{spine}"}},"bones":[{{"name":"root"}}],
            "events":{{"chime":{{"audio":"c.ogg","volume":0.8,"balance":-0.2}},"tick":{{}}}},
            "animations":{{"a":{{"events":[{{"name":"chime"}},{{"name":"tick","volume":0.5}}]}}}}}}"#
        );
        let data = load(text.as_bytes(), "events").expect("loads");
        let timeline = data.animations[0].timelines.iter().find_map(|t| match t {
            Timeline::Event(e) => Some(e.events.clone()),
            _ => None,
        });
        timeline
            .expect("event timeline")
            .iter()
            .map(|e| (e.volume, e.balance))
            .collect::<Vec<_>>()
    };
    assert_eq!(keyed("4.2.22"), [(1.0, 0.0), (0.0, 0.0)]);
    assert_eq!(keyed("4.0.64"), [(1.0, 0.0), (0.0, 0.0)]);
    assert_eq!(keyed("4.3.13"), [(0.8, 0.8), (0.0, 0.0)]);
    assert_eq!(keyed("3.8.99")[0], (0.8, -0.2));
}

/// 4.3: a transform mapping names only the six bone properties, and draw-order folder keys
/// name only the folder's slots; anything else is a located load error.
#[test]
fn spine43_mapping_property_and_folder_slot_errors() {
    let bad_property = r#"{"skeleton":{"spine":"4.3.13"},"bones":[{"name":"root"},{"name":"a","parent":"root"}],
        "constraints":[{"type":"transform","name":"t","source":"root","bones":["a"],
        "properties":{"rotate":{"to":{"scaleZ":{"max":1}}}}}]}"#;
    let err = load(bad_property.as_bytes(), "p").expect_err("scaleZ is no property");
    assert!(
        err.to_string().contains("unknown property \"scaleZ\""),
        "{err}"
    );
    let bad_folder = r#"{"skeleton":{"spine":"4.3.13"},"bones":[{"name":"root"}],
        "slots":[{"name":"a","bone":"root"},{"name":"b","bone":"root"},{"name":"c","bone":"root"}],
        "animations":{"f":{"drawOrderFolder":[{"slots":["a","b"],
        "keys":[{"offsets":[{"slot":"c","offset":1}]}]}]}}}"#;
    let err = load(bad_folder.as_bytes(), "f").expect_err("c is outside the folder");
    assert!(
        err.to_string()
            .contains("\"c\" is not in this draw order folder"),
        "{err}"
    );
}
