//! The lint rules over a loaded skeleton.

use super::{Finding, Severity};
use crate::core::animation::{Animation, Timeline};
use crate::core::model::{AttachmentKind, SkeletonData};
use crate::core::skeleton::Skeleton;
use crate::core::snapshot::SampleSpec;
use crate::inspect::describe;
use std::collections::HashSet;
use std::sync::Arc;

/// Keys later than the duration by more than this are past the end (storage is `f32`).
const TIME_SLACK: f64 = 1e-4;
/// A zero-length fade that moves a bone further than this (world units) pops.
const POP_DISTANCE: f64 = 1.0;
/// Pop detection poses every pair of animations: only for files with at most this many.
const POP_MAX_ANIMATIONS: usize = 48;

/// Every finding for one skeleton, in a stable order (by rule, then by data order).
pub fn lint(data: &SkeletonData) -> Vec<Finding> {
    let mut out = Vec::new();
    super::versions::refused_by_runtime(data, &mut out);
    tolerated(data, &mut out);
    duplicates(data, &mut out);
    non_finite(data, &mut out);
    animations(data, &mut out);
    unused(data, &mut out);
    dangling(data, &mut out);
    skin_required(data, &mut out);
    zero_fades(data, &mut out);
    out
}

fn tolerated(data: &SkeletonData, out: &mut Vec<Finding>) {
    for w in &data.load_warnings {
        out.push(Finding::new(
            Severity::Warning,
            "loader-tolerated",
            "",
            w.clone(),
        ));
    }
}

fn duplicates(data: &SkeletonData, out: &mut Vec<Finding>) {
    let mut check = |what: &str, names: Vec<&str>| {
        let mut seen = HashSet::new();
        for n in names {
            if !seen.insert(n) {
                out.push(Finding::new(
                    Severity::Error,
                    "duplicate-name",
                    format!("{what}s.{n}"),
                    format!("two {what}s are named \"{n}\""),
                ));
            }
        }
    };
    check("bone", data.bones.iter().map(|b| b.name.as_str()).collect());
    check("slot", data.slots.iter().map(|b| b.name.as_str()).collect());
    check("skin", data.skins.iter().map(|b| b.name.as_str()).collect());
    check(
        "event",
        data.events.iter().map(|b| b.name.as_str()).collect(),
    );
    check(
        "animation",
        data.animations.iter().map(|b| b.name.as_str()).collect(),
    );
    check(
        "constraint",
        data.ik_constraints
            .iter()
            .map(|c| c.name.as_str())
            .chain(data.transform_constraints.iter().map(|c| c.name.as_str()))
            .chain(data.path_constraints.iter().map(|c| c.name.as_str()))
            .collect(),
    );
}

fn non_finite(data: &SkeletonData, out: &mut Vec<Finding>) {
    let mut bad = |path: String, what: &str| {
        out.push(Finding::new(
            Severity::Error,
            "non-finite",
            path,
            format!("{what} is not a finite number"),
        ));
    };
    for b in &data.bones {
        let v = [
            b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length,
        ];
        if !v.iter().all(|x| x.is_finite()) {
            bad(format!("bones.{}", b.name), "a setup value");
        }
    }
    for a in &data.attachments {
        let finite = match &a.kind {
            AttachmentKind::Region(r) => [
                r.x, r.y, r.rotation, r.scale_x, r.scale_y, r.width, r.height,
            ]
            .iter()
            .all(|x| x.is_finite()),
            AttachmentKind::Point(p) => [p.x, p.y, p.rotation].iter().all(|x| x.is_finite()),
            _ => a
                .vertex_data()
                .is_none_or(|v| v.vertices.iter().all(|x| x.is_finite())),
        };
        if !finite {
            bad(format!("attachments.{}", a.name), "a value");
        }
    }
    for anim in &data.animations {
        if !anim.duration.is_finite() {
            bad(format!("animations.{}", anim.name), "the duration");
        }
        for info in describe(data, anim) {
            let t = &anim.timelines[info.index];
            let keys_ok = t.key_times().iter().all(|x| x.is_finite())
                && crate::inspect::keys_of(t)
                    .is_none_or(|k| k.values().iter().all(|x| x.is_finite()))
                && match t {
                    Timeline::Deform(d) => d.vertices.iter().flatten().all(|x| x.is_finite()),
                    _ => true,
                };
            if !keys_ok {
                bad(
                    format!("animations.{}.{}", anim.name, info.label()),
                    "a key",
                );
            }
        }
    }
}

fn animations(data: &SkeletonData, out: &mut Vec<Finding>) {
    for anim in &data.animations {
        let at = format!("animations.{}", anim.name);
        if anim.timelines.is_empty() {
            out.push(Finding::new(
                Severity::Warning,
                "empty-animation",
                at,
                format!("animation \"{}\" keys nothing", anim.name),
            ));
            continue;
        }
        if anim.duration == 0.0 && anim.timelines.iter().all(|t| t.key_times().len() <= 1) {
            out.push(Finding::new(
                Severity::Info,
                "empty-animation",
                at.clone(),
                format!(
                    "animation \"{}\" lasts 0 seconds (a pose, not a motion)",
                    anim.name
                ),
            ));
        }
        for info in describe(data, anim) {
            let t = &anim.timelines[info.index];
            let times = t.key_times();
            let (Some(&first), Some(&last)) = (times.first(), times.last()) else {
                out.push(Finding::new(
                    Severity::Warning,
                    "empty-timeline",
                    format!("{at}.{}", info.label()),
                    format!("{} in \"{}\" has no keys", info.label(), anim.name),
                ));
                continue;
            };
            if f64::from(last) > anim.duration + TIME_SLACK {
                out.push(Finding::new(
                    Severity::Warning,
                    "key-after-end",
                    format!("{at}.{}", info.label()),
                    format!(
                        "{} in \"{}\" has a key at {} s, after the animation ends at {} s",
                        info.label(),
                        anim.name,
                        last,
                        anim.duration
                    ),
                ));
            }
            if first < 0.0 {
                out.push(Finding::new(
                    Severity::Warning,
                    "key-before-start",
                    format!("{at}.{}", info.label()),
                    format!(
                        "{} in \"{}\" has a key at {} s, before 0",
                        info.label(),
                        anim.name,
                        first
                    ),
                ));
            }
        }
    }
}

/// Bones, slots, skins and events that nothing refers to.
fn unused(data: &SkeletonData, out: &mut Vec<Finding>) {
    let n = data.bones.len();
    let mut used = vec![false; n];
    let mut mark = |i: usize| {
        if let Some(u) = used.get_mut(i) {
            *u = true;
        }
    };
    if n > 0 {
        mark(0);
    }
    for (i, b) in data.bones.iter().enumerate() {
        if b.parent.is_some() && data.bone_children.get(i).is_some_and(|c| !c.is_empty()) {
            mark(i);
        }
        if b.joint3.is_some() {
            mark(i);
        }
    }
    for s in &data.slots {
        mark(s.bone);
    }
    for c in &data.ik_constraints {
        c.bones.iter().for_each(|&b| mark(b));
        mark(c.target);
    }
    for c in &data.transform_constraints {
        c.bones.iter().for_each(|&b| mark(b));
        mark(c.target);
    }
    for c in &data.path_constraints {
        c.bones.iter().for_each(|&b| mark(b));
    }
    for a in &data.attachments {
        if let Some(bones) = a.vertex_data().and_then(|v| v.bones.as_ref()) {
            let mut k = 0;
            while let Some(&count) = bones.get(k) {
                let count = count as usize;
                for &b in bones.iter().skip(k + 1).take(count) {
                    mark(b as usize);
                }
                k += count + 1;
            }
        }
    }
    for anim in &data.animations {
        for t in &anim.timelines {
            match t {
                Timeline::Bone(b) => mark(b.bone),
                Timeline::Joint(j) => mark(j.bone),
                Timeline::Lattice(l) => mark(l.bone),
                _ => {}
            }
        }
    }
    for (i, b) in data.bones.iter().enumerate() {
        if !used[i] {
            out.push(Finding::new(
                Severity::Info,
                "unused-bone",
                format!("bones.{}", b.name),
                format!(
                    "bone \"{}\" has no slots, children, constraints, weights or keys",
                    b.name
                ),
            ));
        }
    }

    for (i, s) in data.slots.iter().enumerate() {
        let in_skin = data.skins.iter().any(|k| !k.slot_entries(i).is_empty());
        let keyed = data.animations.iter().any(|a| {
            a.timelines.iter().any(|t| match t {
                Timeline::Attachment(at) => at.slot == i && at.names.iter().any(Option::is_some),
                _ => false,
            })
        });
        if !in_skin && !keyed {
            out.push(Finding::new(
                Severity::Info,
                "unused-slot",
                format!("slots.{}", s.name),
                format!("slot \"{}\" has no attachment in any skin", s.name),
            ));
        }
    }

    for (i, skin) in data.skins.iter().enumerate() {
        if Some(i) == data.default_skin {
            continue;
        }
        if skin.entries().next().is_none() && skin.bones.is_empty() && skin.constraints.is_empty() {
            out.push(Finding::new(
                Severity::Info,
                "unused-skin",
                format!("skins.{}", skin.name),
                format!("skin \"{}\" is empty", skin.name),
            ));
        }
    }

    let mut keyed = vec![false; data.events.len()];
    for anim in &data.animations {
        for t in &anim.timelines {
            if let Timeline::Event(e) = t {
                for ev in &e.events {
                    if let Some(k) = keyed.get_mut(ev.data) {
                        *k = true;
                    }
                }
            }
        }
    }
    for (e, k) in data.events.iter().zip(keyed) {
        if !k {
            out.push(Finding::new(
                Severity::Info,
                "event-never-keyed",
                format!("events.{}", e.name),
                format!("event \"{}\" is never keyed by an animation", e.name),
            ));
        }
    }
}

/// Names that point nowhere but that the loaders tolerate.
fn dangling(data: &SkeletonData, out: &mut Vec<Finding>) {
    for (i, s) in data.slots.iter().enumerate() {
        if let Some(name) = &s.attachment
            && !data.skins.iter().any(|k| k.get(i, name).is_some())
        {
            out.push(Finding::new(
                Severity::Warning,
                "dangling-reference",
                format!("slots.{}.attachment", s.name),
                format!(
                    "slot \"{}\" shows \"{name}\" in the setup pose, which no skin has",
                    s.name
                ),
            ));
        }
    }
    for a in &data.attachments {
        if let AttachmentKind::Armature(c) = &a.kind
            && c.skeleton.is_none()
        {
            out.push(Finding::new(
                Severity::Warning,
                "dangling-reference",
                format!("attachments.{}", a.name),
                format!(
                    "child armature \"{}\" of \"{}\" cannot be shown (missing, or contains itself)",
                    c.armature, a.name
                ),
            ));
        }
    }
    for anim in &data.animations {
        for (k, t) in anim.timelines.iter().enumerate() {
            let Timeline::Attachment(at) = t else {
                continue;
            };
            let slot = data.slots.get(at.slot).map_or("", |s| s.name.as_str());
            let mut reported = HashSet::new();
            for name in at.names.iter().flatten() {
                if !data.skins.iter().any(|s| s.get(at.slot, name).is_some())
                    && reported.insert(name)
                {
                    out.push(Finding::new(
                        Severity::Warning,
                        "dangling-reference",
                        format!("animations.{}.slot {slot}.attachment", anim.name),
                        format!(
                            "\"{}\" keys attachment \"{name}\" on slot \"{slot}\" (timeline {k}), which no skin has",
                            anim.name
                        ),
                    ));
                }
            }
        }
    }
}

/// Skin-required bones and constraints that no skin activates, and keys on them.
fn skin_required(data: &SkeletonData, out: &mut Vec<Finding>) {
    let in_skin = |b: usize| data.skins.iter().any(|s| s.bones.contains(&b));
    let never: Vec<bool> = data
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| b.skin_required && !in_skin(i))
        .collect();
    for (i, b) in data.bones.iter().enumerate() {
        if never[i] {
            out.push(Finding::new(
                Severity::Warning,
                "inactive-bone",
                format!("bones.{}", b.name),
                format!(
                    "bone \"{}\" is skin-required but no skin lists it: it is never active",
                    b.name
                ),
            ));
        }
    }
    for c in &data.constraint_order {
        if data.constraint_skin_required(*c)
            && !data.skins.iter().any(|s| s.constraints.contains(c))
        {
            out.push(Finding::new(
                Severity::Warning,
                "inactive-constraint",
                format!("constraints.{}", data.constraint_name(*c)),
                format!(
                    "constraint \"{}\" is skin-required but no skin lists it: it never runs",
                    data.constraint_name(*c)
                ),
            ));
        }
    }
    for anim in &data.animations {
        for info in describe(data, anim) {
            let bone = match &anim.timelines[info.index] {
                Timeline::Bone(b) => Some(b.bone),
                Timeline::Joint(j) => Some(j.bone),
                Timeline::Lattice(l) => Some(l.bone),
                _ => None,
            };
            if let Some(b) = bone
                && never.get(b).copied().unwrap_or(false)
            {
                out.push(Finding::new(
                    Severity::Warning,
                    "timeline-on-inactive-bone",
                    format!("animations.{}.{}", anim.name, info.label()),
                    format!(
                        "{} in \"{}\" keys a bone no skin activates: it never plays",
                        info.label(),
                        anim.name
                    ),
                ));
            }
        }
    }
}

/// Animations a file says to enter with a zero-length fade, whose first pose is far from
/// where another animation ends: switching straight to them pops.
fn zero_fades(data: &SkeletonData, out: &mut Vec<Finding>) {
    let zero: Vec<usize> = (0..data.animations.len())
        .filter(|&i| data.animations[i].fade_in == Some(0.0))
        .collect();
    if zero.is_empty()
        || data.animations.len() > POP_MAX_ANIMATIONS
        || data.animations.len() < 2
        || data.has_joints3()
    {
        return;
    }
    let data = Arc::new(data.clone());
    let mut sk = Skeleton::new(data.clone());
    let world = |sk: &mut Skeleton, anim: &Animation, time: f64| {
        let spec = SampleSpec {
            time,
            last_time: time,
            looping: false,
        };
        spec.pose(sk, anim)
            .bones
            .iter()
            .map(|b| b.map(|b| (b.world_x, b.world_y)))
            .collect::<Vec<_>>()
    };
    for &to in &zero {
        let start = world(&mut sk, &data.animations[to], 0.0);
        let mut worst: Option<(f64, usize, usize)> = None;
        for (from, anim) in data.animations.iter().enumerate() {
            if from == to {
                continue;
            }
            let end = world(&mut sk, anim, anim.duration);
            for (b, (e, s)) in end.iter().zip(&start).enumerate() {
                if let (Some(e), Some(s)) = (e, s) {
                    let d = (e.0 - s.0).hypot(e.1 - s.1);
                    if d.is_finite() && d > POP_DISTANCE && worst.is_none_or(|w| d > w.0) {
                        worst = Some((d, from, b));
                    }
                }
            }
        }
        if let Some((d, from, b)) = worst {
            let to_name = &data.animations[to].name;
            out.push(Finding::new(
                Severity::Warning,
                "zero-length-mix",
                format!("animations.{to_name}"),
                format!(
                    "\"{to_name}\" fades in over 0 s: coming from the end of \"{}\", bone \"{}\" jumps {d:.1}",
                    data.animations[from].name, data.bones[b].name
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SkeletonData {
        crate::format::load(crate::EMBEDDED_SAMPLE, "lantern-keeper").expect("sample")
    }

    fn codes(d: &SkeletonData) -> Vec<(&'static str, String)> {
        lint(d).into_iter().map(|f| (f.code, f.path)).collect()
    }

    #[test]
    fn the_sample_is_clean() {
        assert_eq!(lint(&sample()), vec![]);
    }

    #[test]
    fn model_problems_are_found() {
        let mut d = sample();
        d.bones[1].x = f64::NAN;
        let hip = d.bones[1].name.clone();
        d.animations[0].duration = 0.1;
        let first = d.animations[0].name.clone();
        d.bones[2].skin_required = true;
        let torso = d.bones[2].name.clone();
        d.events.push(crate::core::model::EventData::new("unkeyed"));
        d.animations.push(Animation::new("nothing", Vec::new()));
        d.bones
            .push(crate::core::model::BoneData::new("hip", Some(0)));
        d.load_warnings.push("tolerated something".into());
        d.finish();
        let c = codes(&d);
        let has = |code: &str, path: &str| c.iter().any(|(k, p)| *k == code && p == path);
        assert!(has("non-finite", &format!("bones.{hip}")), "{c:?}");
        assert!(has("duplicate-name", "bones.hip"), "{c:?}");
        assert!(
            c.iter()
                .any(|(k, p)| *k == "key-after-end"
                    && p.starts_with(&format!("animations.{first}."))),
            "{c:?}"
        );
        assert!(has("inactive-bone", &format!("bones.{torso}")), "{c:?}");
        assert!(
            c.iter().any(|(k, _)| *k == "timeline-on-inactive-bone"),
            "{c:?}"
        );
        assert!(has("event-never-keyed", "events.unkeyed"), "{c:?}");
        assert!(has("empty-animation", "animations.nothing"), "{c:?}");
        assert!(has("loader-tolerated", ""), "{c:?}");
    }

    #[test]
    fn a_zero_fade_into_a_different_pose_pops() {
        let mut d = sample();
        let walk = d.find_animation("walk").expect("walk");
        d.animations[walk].fade_in = Some(0.0);
        let f: Vec<Finding> = lint(&d)
            .into_iter()
            .filter(|f| f.code == "zero-length-mix")
            .collect();
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].path, "animations.walk");
        assert!(f[0].message.contains("jumps"), "{}", f[0].message);
        // With a real fade there is nothing to say.
        d.animations[walk].fade_in = Some(0.2);
        assert!(lint(&d).iter().all(|f| f.code != "zero-length-mix"));
    }
}
