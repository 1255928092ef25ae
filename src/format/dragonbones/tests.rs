//! Loader tests on small hand-written files (the corpus goldens are in tests/).

use super::load;
use crate::core::animation::{BoneProperty, Timeline};
use crate::core::model::Inherit;
use crate::format::Location;

fn file(armature: &str) -> String {
    format!(r#"{{"name": "t", "version": "4.5", "frameRate": 24, "armature": [{armature}]}}"#)
}

const BASIC: &str = r#"{"name": "a", "bone": [
    {"name": "root"},
    {"name": "arm", "parent": "root", "inheritScale": "false",
     "transform": {"x": 10, "y": 20, "skX": 30, "skY": 30, "scX": 2}}],
  "slot": [{"name": "s", "parent": "arm", "displayIndex": 1, "color": {"aM": 50, "rO": 255}}],
  "skin": [{"name": "", "slot": [{"name": "s", "display": [{"name": "a"}, {"name": "b"}, {"name": "a"}]}]}],
  "animation": [{"name": "spin", "duration": 10, "playTimes": 0, "bone": [{"name": "arm", "frame": [
     {"duration": 5, "tweenEasing": 0, "tweenRotate": 2, "transform": {"skX": 10, "skY": 10}},
     {"duration": 5, "tweenEasing": "NaN", "transform": {"skX": 20, "skY": 20}}]}]}]}"#;

#[test]
fn converts_to_y_up_and_keeps_dragonbones_rules() {
    let arms = load(file(BASIC).as_bytes(), "t").unwrap();
    let d = &arms[0];
    let arm = &d.bones[1];
    assert_eq!((arm.x, arm.y), (10.0, -20.0));
    assert!((arm.rotation + 30.0).abs() < 1e-9);
    assert_eq!(arm.scale_x, 2.0);
    assert_eq!(
        arm.inherit,
        Inherit::DragonBones {
            translation: true,
            rotation: true,
            scale: false
        }
    );
    // Display index 1 of the default skin; repeated display names get unique keys.
    assert_eq!(d.slots[0].attachment.as_deref(), Some("b"));
    let skin = &d.skins[d.default_skin.unwrap()];
    let keys: Vec<&str> = skin
        .slot_entries(0)
        .iter()
        .map(|(n, _)| n.as_str())
        .collect();
    assert_eq!(keys, ["a", "b", "a#2"]);
    assert!((d.slots[0].color.a - 0.5).abs() < 1e-12);
    assert!((d.slots[0].offset.unwrap().r - 1.0).abs() < 1e-12);
}

#[test]
fn repeated_display_names_get_the_first_free_suffix_per_slot() {
    // A literal `a#2` takes that key first; a slot listed twice keeps counting; another
    // slot's names are its own.
    let arm = r#"{"name": "a", "bone": [{"name": "root"}],
      "slot": [{"name": "s", "parent": "root"}, {"name": "u", "parent": "root"}],
      "skin": [{"name": "", "slot": [
        {"name": "s", "display": [{"name": "a"}, {"name": "a#2"}, {"name": "a"}, {"name": "a"}]},
        {"name": "u", "display": [{"name": "a"}, {}, {}]},
        {"name": "s", "display": [{"name": "a"}, {"name": "a#5"}]}]}]}"#;
    let arms = load(file(arm).as_bytes(), "t").unwrap();
    let d = &arms[0];
    let skin = &d.skins[d.default_skin.unwrap()];
    let keys = |slot| {
        skin.slot_entries(slot)
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
    };
    assert_eq!(keys(0), ["a", "a#2", "a#3", "a#4", "a#5", "a#5#2"]);
    assert_eq!(keys(1), ["a", "", "#2"]);
    // Each attachment is named by its key.
    for (slot, name, id) in skin.entries() {
        assert_eq!(d.attachments[id].name, name, "slot {slot}");
    }
}

#[test]
fn tween_rotate_adds_a_full_turn() {
    let arms = load(file(BASIC).as_bytes(), "t").unwrap();
    let anim = &arms[0].animations[0];
    assert_eq!(anim.frame_rate, Some(24.0));
    assert!((anim.duration - 10.0 / 24.0).abs() < 1e-12);
    let rot = anim
        .timelines
        .iter()
        .find_map(|t| match t {
            Timeline::Bone(b) if b.property == BoneProperty::Rotate => Some(b),
            _ => None,
        })
        .unwrap();
    // tweenRotate 2 from 10 to 20 degrees: the clockwise 10 degrees plus one more turn
    // (y-up: -10 -> -380).
    assert!((rot.keys.value(0, 0) + 10.0).abs() < 1e-4);
    assert!(
        (rot.keys.value(1, 0) + 380.0).abs() < 1e-3,
        "{}",
        rot.keys.value(1, 0)
    );
    assert!(!rot.shortest);
}

#[test]
fn errors_name_the_path_and_position() {
    let text = file(
        r#"{"name": "a", "bone": [{"name": "root"}],
        "slot": [{"name": "s", "parent": "nobody"}]}"#,
    );
    let e = load(text.as_bytes(), "t").unwrap_err();
    match e.location {
        Some(Location::Json { path, line, .. }) => {
            assert_eq!(path, "armature[0].slot[0].parent");
            assert_eq!(line, 2);
        }
        other => panic!("{other:?}"),
    }
    assert!(
        e.message.contains("unknown bone \"nobody\""),
        "{}",
        e.message
    );
}

#[test]
fn a_bad_tween_or_action_field_is_located_at_its_own_value() {
    // Tween and fired-action members sit in the frame object itself; the error names them.
    for (list, frame, field) in [
        (
            "translateFrame",
            r#"{"duration": 1, "curve": 5, "x": 1}"#,
            "curve",
        ),
        (
            "translateFrame",
            r#"{"duration": 1, "tweenEasing": [1]}"#,
            "tweenEasing",
        ),
        ("frame", r#"{"duration": 1, "events": 7}"#, "events"),
        ("frame", r#"{"duration": 1, "sound": 7}"#, "sound"),
    ] {
        let line3 = format!(r#""{list}": [{frame}, {{"duration": 1}}]}}]}}]}}]}}"#);
        let text = format!(
            r#"{{"version": "5.5", "armature": [{{"name": "a", "bone": [{{"name": "root"}}],
"animation": [{{"name": "w", "duration": 2, "bone": [{{"name": "root",
{line3}"#
        );
        let key = format!("\"{field}\": ");
        let column = line3.find(&key).unwrap() + key.len() + 1;
        let e = load(text.as_bytes(), "t").unwrap_err();
        let want = format!("armature[0].animation[0].bone[0].{list}[0].{field}");
        match e.location {
            Some(Location::Json {
                path,
                line,
                column: c,
            }) => {
                assert_eq!((path.as_str(), line, c), (want.as_str(), 3, column));
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn missing_is_global_is_read_as_local_with_a_warning() {
    let arms = load(file(BASIC).as_bytes(), "t").unwrap();
    assert!(arms[0].load_warnings[0].contains("no isGlobal"));
    let local = file(BASIC).replacen(
        "\"frameRate\": 24,",
        "\"frameRate\": 24, \"isGlobal\": 0,",
        1,
    );
    assert!(
        load(local.as_bytes(), "t").unwrap()[0]
            .load_warnings
            .is_empty()
    );
}

#[test]
fn old_versions_are_named() {
    let e = load(br#"{"version": "2.3", "armature": []}"#, "t").unwrap_err();
    assert!(
        e.message.contains("unsupported DragonBones version 2.3"),
        "{}",
        e.message
    );
}

#[test]
fn absurd_durations_are_refused_not_allocated() {
    // Three keyed properties, each resampling its curve over 9 million frames.
    let text = file(
        r#"{"name": "a", "bone": [{"name": "root"}], "animation": [{"duration": 9000000,
        "bone": [{"name": "root", "frame": [{"duration": 9000000, "curve": [0.5, 0, 0.5, 1],
        "transform": {"x": 1, "skX": 5, "skY": 5, "scX": 2}}, {"duration": 0}]}]}]}"#,
    );
    let Err(e) = load(text.as_bytes(), "t") else {
        panic!("an absurd duration loaded");
    };
    assert!(e.message.contains("refusing"), "{}", e.message);
}

#[test]
fn fade_in_and_scale_drive_the_animation_state() {
    use crate::core::state::{AnimationState, AnimationStateData};
    use std::sync::Arc;
    let text = file(BASIC).replace(
        "\"name\": \"spin\", \"duration\": 10,",
        "\"name\": \"spin\", \"duration\": 10, \"fadeInTime\": 0.3, \"scale\": 2,",
    );
    let mut arms = load(text.as_bytes(), "t").unwrap();
    let mut data = arms.swap_remove(0);
    data.finish();
    let spin = data.find_animation("spin").unwrap();
    let data = Arc::new(data);
    let mut sk = crate::core::skeleton::Skeleton::new(data.clone());
    let mut state = AnimationState::new(AnimationStateData::new(data));
    let first = state.set_animation(0, Some(spin), true);
    let e = state.entry(first).unwrap();
    assert_eq!(e.time_scale, 0.5, "scale 2 plays at half speed");
    assert_eq!(e.mix_duration, 0.0, "nothing to fade from");
    state.update(0.1);
    state.apply(&mut sk);
    let second = state.set_animation(0, Some(spin), true);
    assert_eq!(state.entry(second).unwrap().mix_duration, 0.3);
}

#[test]
fn child_armatures_nest_and_self_nesting_is_refused() {
    use crate::core::model::AttachmentKind;
    let arm = |name: &str, child: &str| {
        format!(
            r#"{{"name": "{name}", "bone": [{{"name": "root"}}], "slot": [{{"name": "s", "parent": "root"}}],
            "skin": [{{"slot": [{{"name": "s", "display": [{{"name": "{child}", "type": "armature"}}]}}]}}]}}"#
        )
    };
    let text = format!(
        r#"{{"version": "4.5", "isGlobal": 0, "armature": [{}, {}, {}]}}"#,
        arm("outer", "inner"),
        arm("inner", "ghost"),
        arm("loop", "loop")
    );
    let all = load(text.as_bytes(), "t").unwrap();
    let child = |i: usize| match &all[i].attachments[0].kind {
        AttachmentKind::Armature(a) => a.skeleton.as_ref().map(|s| s.name.clone()),
        _ => panic!("not an armature display"),
    };
    assert_eq!(child(0).as_deref(), Some("inner"));
    assert_eq!(child(1), None, "no armature named ghost");
    assert_eq!(child(2), None, "an armature cannot contain itself");
    assert!(
        all[2]
            .load_warnings
            .iter()
            .any(|w| w.contains("contain themselves"))
    );
    assert!(all[0].load_warnings.is_empty());
}

#[test]
fn events_carry_their_key_time() {
    use crate::core::animation::Timeline;
    let text = file(BASIC).replace(
        "{\"duration\": 5, \"tweenEasing\": \"NaN\",",
        "{\"duration\": 5, \"tweenEasing\": \"NaN\", \"event\": \"tick\",",
    );
    let arms = load(text.as_bytes(), "t").unwrap();
    let events = arms[0].animations[0]
        .timelines
        .iter()
        .find_map(|t| match t {
            Timeline::Event(e) => Some(e),
            _ => None,
        })
        .expect("event timeline");
    assert_eq!(events.times, [(5.0f64 / 24.0) as f32]);
    assert_eq!(events.events[0].time, (5.0f64 / 24.0) as f32 as f64);
    assert_eq!(events.events[0].string, "arm", "keyed on the arm bone");
}

/// A 5.6 file with one surface bone (`surface` is its JSON, without the closing brace) and
/// an animation `anim`.
fn surface_file(surface: &str, anim: &str) -> String {
    format!(
        r#"{{"name": "t", "version": "5.6", "compatibleVersion": "5.5", "frameRate": 24,
  "armature": [{{"name": "a", "bone": [{{"name": "root"}},
    {surface}}},
    {{"name": "kid", "parent": "net", "transform": {{"x": 10}}}}],
  "animation": [{anim}]}}]}}"#
    )
}

/// The JSON path of a located error, and its message.
fn located(text: &str) -> (String, String) {
    let e = load(text.as_bytes(), "t").unwrap_err();
    match e.location {
        Some(Location::Json { path, .. }) => (path, e.message),
        other => panic!("{other:?}: {}", e.message),
    }
}

#[test]
fn surface_lattices_need_segments_matching_their_vertices() {
    let net = r#"{"name": "net", "parent": "root", "type": "surface""#;
    let square = r#""vertices": [-1, -1, 1, -1, -1, 1, 1, 1]"#;
    let ok = surface_file(
        &format!(r#"{net}, "segmentX": 1, "segmentY": 1, {square}"#),
        "",
    );
    let arms = load(ok.as_bytes(), "t").unwrap();
    let lattice = arms[0].bones[1].lattice.as_deref().expect("a lattice");
    assert_eq!((lattice.segments_x, lattice.segments_y), (1, 1));
    // y flips into the core's y-up space.
    assert_eq!(lattice.vertices[..4], [-1.0, 1.0, 1.0, 1.0]);

    // Without segments the runtime places children at NaN: refused, at the bone.
    let (path, message) = located(&surface_file(&format!("{net}, {square}"), ""));
    assert_eq!(path, "armature[0].bone[1].segmentX");
    assert!(message.contains("segmentX"), "{message}");
    let (path, _) = located(&surface_file(
        &format!(r#"{net}, "segmentX": 1, "segmentY": 0.5, {square}"#),
        "",
    ));
    assert_eq!(path, "armature[0].bone[1].segmentY");
    // Two cells across need six vertices.
    let (path, message) = located(&surface_file(
        &format!(r#"{net}, "segmentX": 2, "segmentY": 1, {square}"#),
        "",
    ));
    assert_eq!(path, "armature[0].bone[1].vertices");
    assert!(message.contains("needs 12 numbers"), "{message}");
}

#[test]
fn surface_timelines_move_lattice_vertices_of_surfaces_only() {
    let net = r#"{"name": "net", "parent": "root", "type": "surface", "segmentX": 1,
      "segmentY": 1, "vertices": [-1, -1, 1, -1, -1, 1, 1, 1]"#;
    let anim = r#"{"name": "bend", "duration": 2, "surface": [{"name": "net", "frame": [
      {"duration": 2, "offset": 2, "vertices": [3, 4]}]}]}"#;
    let arms = load(surface_file(net, anim).as_bytes(), "t").unwrap();
    let Some(Timeline::Lattice(t)) = arms[0].animations[0].timelines.first() else {
        panic!("{:?}", arms[0].animations[0].timelines);
    };
    assert_eq!(t.bone, 1);
    // Offsets from `offset` on, y flipped; the rest zero.
    assert_eq!(t.vertices[0], [0.0, 0.0, 3.0, -4.0, 0.0, 0.0, 0.0, 0.0]);

    let on_kid = anim.replace(r#""name": "net", "frame""#, r#""name": "kid", "frame""#);
    let (path, message) = located(&surface_file(net, &on_kid));
    assert_eq!(path, "armature[0].animation[0].surface[0].name");
    assert!(message.contains("not a surface"), "{message}");
    let far = anim.replace(r#""offset": 2"#, r#""offset": 9"#);
    let (path, _) = located(&surface_file(net, &far));
    assert_eq!(path, "armature[0].animation[0].surface[0].frame[0].offset");
}
