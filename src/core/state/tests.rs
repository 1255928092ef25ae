//! Unit tests of the animation state's queuing and listener rules on a tiny skeleton.

use super::*;
use crate::core::animation::{Animation, BoneProperty, BoneTimeline, EventTimeline, Timeline};
use crate::core::curve::{Interp, Keys};
use crate::core::model::{BoneData, Event, EventData, SkeletonData};
use crate::core::skeleton::Skeleton;
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

/// One bone; "a" (1 s, rotates 0->90, event "ping" at 0.5) and "b" (0.5 s).
fn data() -> Arc<SkeletonData> {
    let mut d = SkeletonData {
        name: "t".into(),
        fps: 30.0,
        ..SkeletonData::default()
    };
    d.bones.push(BoneData::new("root", None));
    d.events.push(EventData::new("ping"));
    let rotate = |end: f32, angle: f32| {
        let mut k = Keys::new(1);
        k.push(0.0, &[0.0], Interp::Linear);
        k.push(end, &[angle], Interp::Linear);
        Timeline::Bone(BoneTimeline {
            bone: 0,
            property: BoneProperty::Rotate,
            keys: k,
            shortest: true,
        })
    };
    let ping = Event {
        data: 0,
        time: 0.5,
        int: 7,
        float: 0.0,
        string: String::new(),
        volume: 1.0,
        balance: 0.0,
    };
    let events = Timeline::Event(EventTimeline {
        times: vec![0.5],
        events: vec![ping],
    });
    d.animations
        .push(Animation::new("a", vec![rotate(1.0, 90.0), events]));
    d.animations
        .push(Animation::new("b", vec![rotate(0.5, -45.0)]));
    d.finish();
    Arc::new(d)
}

type Log = Rc<RefCell<Vec<(String, u64, String)>>>;

fn logging_state(data: &Arc<SkeletonData>) -> (AnimationState, Log) {
    let mut st = AnimationState::new(AnimationStateData::new(data.clone()));
    let log: Log = Rc::default();
    let l = log.clone();
    st.add_listener(Box::new(move |s, n| {
        l.borrow_mut().push((
            n.kind.name().to_string(),
            n.entry.serial,
            s.animation_name(n.entry).to_string(),
        ));
    }));
    (st, log)
}

fn frame(st: &mut AnimationState, sk: &mut Skeleton, dt: f64) {
    st.update(dt);
    st.apply(sk);
    sk.update_world_transform();
}

#[test]
fn set_animation_fires_start_before_returning() {
    let d = data();
    let (mut st, log) = logging_state(&d);
    let e = st.set_animation(0, Some(0), true);
    assert_eq!(
        *log.borrow(),
        vec![("start".to_string(), e.serial, "a".to_string())]
    );
}

#[test]
fn listener_may_set_an_animation_from_complete() {
    let d = data();
    let (mut st, log) = logging_state(&d);
    let mut sk = Skeleton::new(d.clone());
    let first = st.set_animation(0, Some(0), false);
    // On "a"'s complete, switch to "b": its start must come in the same drain, after complete.
    st.set_entry_listener(
        first,
        Some(Box::new(|s: &mut AnimationState, n: &Notification| {
            if n.kind == NotificationKind::Complete {
                s.set_animation(0, Some(1), false);
            }
        })),
    );
    // 10 x 0.1 sums to just under 1, so "a" completes on frame 11; its end follows two
    // updates later.
    for _ in 0..15 {
        frame(&mut st, &mut sk, 0.1);
    }
    let kinds: Vec<(String, String)> = log
        .borrow()
        .iter()
        .map(|(k, _, a)| (k.clone(), a.clone()))
        .collect();
    let pos = |k: &str, a: &str| kinds.iter().position(|(x, y)| x == k && y == a);
    let complete = pos("complete", "a").expect("a completes");
    assert_eq!(
        kinds[complete + 1],
        ("interrupt".to_string(), "a".to_string())
    );
    assert_eq!(kinds[complete + 2], ("start".to_string(), "b".to_string()));
    assert_eq!(pos("event", "a").map(|p| p < complete), Some(true));
    // The state is consistent afterwards: "b" is current and "a" ends once the mix is done.
    let cur = st.current(0).expect("track 0");
    assert_eq!(st.animation_name(cur), "b");
    assert!(pos("end", "a").is_some());
    let end = pos("end", "a").unwrap_or(0);
    assert_eq!(kinds[end + 1], ("dispose".to_string(), "a".to_string()));
}

#[test]
fn set_before_apply_replaces_without_mixing() {
    let d = data();
    let (mut st, log) = logging_state(&d);
    st.data.default_mix = 0.2;
    let a = st.set_animation(0, Some(0), true);
    let b = st.set_animation(0, Some(1), true);
    let got: Vec<(String, u64)> = log
        .borrow()
        .iter()
        .map(|(k, e, _)| (k.clone(), *e))
        .collect();
    let want = vec![
        ("start".to_string(), a.serial),
        ("interrupt".to_string(), a.serial),
        ("end".to_string(), a.serial),
        ("dispose".to_string(), a.serial),
        ("start".to_string(), b.serial),
    ];
    assert_eq!(got, want);
    assert!(st.entry(a).is_none(), "a disposed entry no longer resolves");
    assert!(st.entry(b).is_some_and(|e| e.mixing_from.is_none()));
}

#[test]
fn queued_entries_are_disposed_by_set_animation() {
    let d = data();
    let (mut st, log) = logging_state(&d);
    let mut sk = Skeleton::new(d.clone());
    st.set_animation(0, Some(0), true);
    let q = st.add_animation(0, Some(1), false, 0.0);
    frame(&mut st, &mut sk, 0.1);
    log.borrow_mut().clear();
    st.set_animation(0, Some(1), false);
    let got: Vec<String> = log
        .borrow()
        .iter()
        .map(|(k, e, _)| format!("{k}:{e}"))
        .collect();
    assert_eq!(got[0], format!("dispose:{}", q.serial));
    assert_eq!(got[1], "interrupt:1");
    assert_eq!(got[2], "start:3");
}

#[test]
fn add_animation_with_zero_delay_starts_at_the_end_less_the_mix() {
    let d = data();
    let (mut st, _log) = logging_state(&d);
    st.data.set_mix(0, 1, 0.25);
    st.set_animation(0, Some(0), false);
    let q = st.add_animation(0, Some(1), false, 0.0);
    assert!((st.entry(q).map_or(0.0, |e| e.delay) - 0.75).abs() < 1e-12);
}

#[test]
fn clear_track_ends_current_then_queued_then_mixing() {
    let d = data();
    let (mut st, log) = logging_state(&d);
    let mut sk = Skeleton::new(d.clone());
    st.data.default_mix = 0.5;
    st.set_animation(0, Some(0), true);
    frame(&mut st, &mut sk, 0.1);
    st.set_animation(0, Some(1), true);
    let q = st.add_animation(0, Some(0), true, 2.0);
    frame(&mut st, &mut sk, 0.1);
    log.borrow_mut().clear();
    st.clear_track(0);
    let got: Vec<String> = log
        .borrow()
        .iter()
        .map(|(k, e, _)| format!("{k}:{e}"))
        .collect();
    assert_eq!(
        got,
        vec![
            "end:2",
            "dispose:2",
            format!("dispose:{}", q.serial).as_str(),
            "end:1",
            "dispose:1"
        ]
    );
    assert_eq!(st.current(0), None);
}

/// Issue 29 row 5: queuing walked the whole queue for every `add_animation` (10k steps 2.3 s,
/// 40k 54 s). 200,000 queued entries would be 2*10^10 link walks that way (minutes); from
/// the tail hint it is one step each. The queue stays right through cuts and advances.
#[test]
fn queuing_many_entries_is_linear_and_keeps_the_order() {
    let d = data();
    let mut st = AnimationState::new(AnimationStateData::new(d.clone()));
    let first = st.set_animation(0, Some(1), false);
    let start = std::time::Instant::now();
    let mut queued = vec![first];
    for _ in 0..200_000 {
        queued.push(st.add_animation(0, Some(1), false, 0.0));
    }
    let elapsed = start.elapsed();
    assert!(
        elapsed < std::time::Duration::from_secs(20),
        "200,000 adds took {elapsed:?}"
    );
    // The chain from the current entry is exactly the queue, in order.
    let mut chain = vec![st.current(0).expect("current")];
    while let Some(n) = st.entry(*chain.last().expect("one")).and_then(|e| e.next) {
        chain.push(n);
    }
    assert_eq!(chain, queued);
    // Playing into the queue, then cutting it: a later add follows the new current.
    let mut sk = Skeleton::new(d.clone());
    for _ in 0..4 {
        frame(&mut st, &mut sk, 0.3);
    }
    let now = st.current(0).expect("current");
    assert_ne!(now, first, "the queue advanced");
    let replaced = st.set_animation(0, Some(0), false);
    let after = st.add_animation(0, Some(1), false, 0.0);
    assert_eq!(st.entry(replaced).and_then(|e| e.next), Some(after));
    st.clear_track(0);
    let lone = st.add_animation(0, Some(1), false, 0.0);
    assert_eq!(st.current(0), Some(lone));
    let tail = st.add_animation(0, Some(0), false, 0.0);
    assert_eq!(st.entry(lone).and_then(|e| e.next), Some(tail));
}

/// Attachment keys and setup attachments found through the lookups done at load show what a
/// search by name in the skins shows: the default skin alone, then with another skin active
/// (which wins where it has the key and falls back to the default skin elsewhere).
#[test]
fn resolved_attachment_keys_match_the_lookup_by_name() {
    use crate::core::animation::AttachmentTimeline;
    use crate::core::color::Color;
    use crate::core::model::Skin;
    use crate::core::model::{Attachment, AttachmentKind, BlendMode, PointAttachment, SlotData};
    let mut d = SkeletonData::default();
    d.bones.push(BoneData::new("root", None));
    d.slots.push(SlotData {
        name: "s".into(),
        bone: 0,
        color: Color::WHITE,
        dark: None,
        offset: None,
        attachment: Some("a".into()),
        blend: BlendMode::default(),
    });
    for (i, name) in ["a", "b", "a2"].iter().enumerate() {
        d.attachments.push(Attachment {
            name: name.to_string(),
            kind: AttachmentKind::Point(PointAttachment {
                x: i as f64,
                y: 0.0,
                rotation: 0.0,
                color: None,
            }),
            deform_source: i,
            sequence: None,
        });
    }
    let mut default = Skin::new("default");
    default.set(0, "a", 0);
    default.set(0, "b", 1);
    let mut other = Skin::new("other");
    other.set(0, "a", 2);
    d.skins = vec![default, other];
    d.default_skin = Some(0);
    let names = ["b", "a", "missing", "a"].map(|n| Some(n.to_string()));
    let mut names = names.to_vec();
    names.push(None);
    let times = vec![0.0, 1.0, 2.0, 3.0, 4.0];
    d.animations.push(Animation::new(
        "swap",
        vec![Timeline::Attachment(AttachmentTimeline::new(
            0, times, names,
        ))],
    ));
    d.finish();
    let d = Arc::new(d);
    let Timeline::Attachment(t) = &d.animations[0].timelines[0] else {
        unreachable!("one attachment timeline")
    };
    assert_eq!(t.default_ids, [Some(1), Some(0), None, Some(0), None]);
    assert_eq!(d.setup_attachments, [Some(0)]);
    for skin in [None, Some("other")] {
        let mut sk = Skeleton::new(d.clone());
        if let Some(s) = skin {
            sk.set_skins_by_name(&[s]).expect("skin");
        }
        let expect: Vec<_> = t
            .names
            .iter()
            .map(|n| n.as_deref().and_then(|n| sk.attachment(0, n)))
            .collect();
        let mut st = AnimationState::new(AnimationStateData::new(d.clone()));
        st.set_animation(0, Some(0), false);
        let mut shown = Vec::new();
        for k in 0..5 {
            st.update(if k == 0 { 0.0 } else { 1.0 });
            st.apply(&mut sk);
            shown.push(sk.slots[0].attachment);
        }
        assert_eq!(shown, expect, "skin {skin:?}");
    }
}
