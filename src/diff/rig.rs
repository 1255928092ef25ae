//! The full difference between two rigs (any formats or versions): names added, removed and
//! renamed, changed setup values, and per animation the timelines that changed and the largest
//! pose difference sampled with the runtime. `bonescope diff` prints it.
//!
//! Curve encodings differ between exports (Spine 3.8 and 4.x store beziers differently), so
//! timelines are compared by their evaluated values, never by stored keys.

use crate::core::animation::{Animation, Timeline};
use crate::core::model::SkeletonData;
use crate::core::skeleton::Skeleton;
use crate::core::snapshot::{BoneSnapshot, SampleSpec};
use crate::inspect::{Target, channel_value, describe};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Values closer than this are equal by default (storage is `f32`; poses are compared to
/// 1e-3 too).
pub const DEFAULT_TOLERANCE: f64 = 1e-3;
/// Pose samples per second of animation, and at most this many per animation.
const SAMPLES_PER_SECOND: f64 = 30.0;
const MAX_SAMPLES: usize = 600;

/// Added, removed and renamed names of one kind of thing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NameChanges {
    /// "bones", "slots", "skins", "constraints", "animations" or "events".
    pub kind: &'static str,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// (old, new): a removed and an added item with the same content.
    pub renamed: Vec<(String, String)>,
}

impl NameChanges {
    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.removed.is_empty() && self.renamed.is_empty()
    }
}

/// One changed setup value.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupChange {
    /// "bone hip", "slot eye", "ik aim", "event footstep".
    pub item: String,
    /// "x", "rotation", "attachment", ...
    pub field: &'static str,
    pub old: String,
    pub new: String,
}

/// The largest difference between the two poses of an animation.
#[derive(Clone, Debug, PartialEq)]
pub struct PoseDelta {
    pub bone: String,
    /// "worldX", "worldY", "rotation", "scaleX" or "scaleY" (world values).
    pub channel: &'static str,
    pub difference: f64,
    pub time: f64,
}

/// What changed in an animation present in both rigs (under its new name).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnimationChange {
    pub name: String,
    /// (old, new) duration when it changed.
    pub duration: Option<(f64, f64)>,
    /// Timelines whose evaluated values differ, by label ("bone hip.rotate").
    pub changed: Vec<String>,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// The largest world pose difference over the sampled times (`None` when the poses agree).
    pub largest: Option<PoseDelta>,
}

/// Everything that differs between two rigs.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RigDiff {
    /// (old, new) export versions when they differ.
    pub versions: Option<(String, String)>,
    pub names: Vec<NameChanges>,
    pub setup: Vec<SetupChange>,
    pub animations: Vec<AnimationChange>,
}

impl RigDiff {
    /// True when nothing differs.
    pub fn is_empty(&self) -> bool {
        self.versions.is_none()
            && self.names.iter().all(NameChanges::is_empty)
            && self.setup.is_empty()
            && self.animations.is_empty()
    }

    /// Compares `old` with `new`. `old_skins`/`new_skins` are the skins to pose with.
    pub fn between(
        old: &Arc<SkeletonData>,
        new: &Arc<SkeletonData>,
        old_skins: &[String],
        new_skins: &[String],
    ) -> RigDiff {
        Self::within(old, new, old_skins, new_skins, DEFAULT_TOLERANCE)
    }

    /// [`RigDiff::between`], numbers closer than `tolerance` counting as equal (setup values,
    /// key times, evaluated timeline values, world pose values).
    pub fn within(
        old: &Arc<SkeletonData>,
        new: &Arc<SkeletonData>,
        old_skins: &[String],
        new_skins: &[String],
        tolerance: f64,
    ) -> RigDiff {
        let tol = if tolerance.is_finite() && tolerance >= 0.0 {
            tolerance
        } else {
            DEFAULT_TOLERANCE
        };
        let mut names = Vec::new();
        let bones = matched(
            "bones",
            &old.bones.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
            &new.bones.iter().map(|b| b.name.clone()).collect::<Vec<_>>(),
            |i| bone_signature(old, i),
            |i| bone_signature(new, i),
        );
        // Old names as the new rig calls them, so a rename is reported once, not again in
        // everything that refers to the renamed item.
        let none = Renames::default();
        let mut ren = Renames {
            bones: renames(&bones.changes),
            ..Renames::default()
        };
        let slots = matched(
            "slots",
            &names_of(old.slots.iter().map(|s| &s.name)),
            &names_of(new.slots.iter().map(|s| &s.name)),
            |i| slot_signature(old, i, &ren),
            |i| slot_signature(new, i, &none),
        );
        ren.slots = renames(&slots.changes);
        let skins = matched(
            "skins",
            &names_of(old.skins.iter().map(|s| &s.name)),
            &names_of(new.skins.iter().map(|s| &s.name)),
            |i| skin_signature(old, i, &ren),
            |i| skin_signature(new, i, &none),
        );
        let constraints = matched(
            "constraints",
            &constraint_names(old),
            &constraint_names(new),
            |i| constraint_signature(old, i, &ren),
            |i| constraint_signature(new, i, &none),
        );
        ren.constraints = renames(&constraints.changes);
        let events = matched(
            "events",
            &names_of(old.events.iter().map(|e| &e.name)),
            &names_of(new.events.iter().map(|e| &e.name)),
            |i| format!("{:?}", strip_name_event(old, i)),
            |i| format!("{:?}", strip_name_event(new, i)),
        );
        let animations = matched(
            "animations",
            &names_of(old.animations.iter().map(|a| &a.name)),
            &names_of(new.animations.iter().map(|a| &a.name)),
            |i| animation_signature(old, &old.animations[i], &ren),
            |i| animation_signature(new, &new.animations[i], &none),
        );
        let pairs = Pairs {
            bones: &bones.pairs,
            slots: &slots.pairs,
            events: &events.pairs,
        };
        let setup = setup_changes(old, new, &pairs, &ren, tol);
        let bone_pairs = bones.pairs.clone();
        let anim_pairs = animations.pairs.clone();
        for m in [bones, slots, skins, constraints, animations, events] {
            names.push(m.changes);
        }
        let mut anims = Vec::new();
        let mut posers = Posers::new(old, new, old_skins, new_skins);
        for (oi, ni) in anim_pairs {
            let (oa, na) = (&old.animations[oi], &new.animations[ni]);
            let mut ch = timeline_changes(old, oa, new, na, &ren, tol);
            ch.name = na.name.clone();
            if (oa.duration - na.duration).abs() > tol {
                ch.duration = Some((oa.duration, na.duration));
            }
            ch.largest = posers
                .as_mut()
                .and_then(|p| p.largest(oa, na, &bone_pairs, new, tol));
            if ch.duration.is_some()
                || !ch.changed.is_empty()
                || !ch.added.is_empty()
                || !ch.removed.is_empty()
                || ch.largest.is_some()
            {
                anims.push(ch);
            }
        }
        RigDiff {
            versions: (old.source != new.source).then(|| (label(old), label(new))),
            names,
            setup,
            animations: anims,
        }
    }
}

/// "Spine 4.2.22": format and export version.
fn label(d: &SkeletonData) -> String {
    format!("{} {}", d.source.format, d.source.version)
        .trim()
        .to_string()
}

/// Old names of renamed items, to their new names.
#[derive(Default)]
struct Renames {
    bones: HashMap<String, String>,
    slots: HashMap<String, String>,
    constraints: HashMap<String, String>,
}

impl Renames {
    fn bone<'a>(&'a self, name: &'a str) -> &'a str {
        self.bones.get(name).map_or(name, String::as_str)
    }

    fn slot<'a>(&'a self, name: &'a str) -> &'a str {
        self.slots.get(name).map_or(name, String::as_str)
    }
}

fn renames(c: &NameChanges) -> HashMap<String, String> {
    c.renamed.iter().cloned().collect()
}

/// An animation's timelines by label, targets named as the new rig names them.
fn labels(d: &SkeletonData, a: &Animation, ren: &Renames) -> BTreeMap<String, usize> {
    describe(d, a)
        .into_iter()
        .map(|mut info| {
            let map = match info.target {
                Target::Bone(_) => &ren.bones,
                Target::Slot(_) => &ren.slots,
                Target::Ik(_)
                | Target::Transform(_)
                | Target::Path(_)
                | Target::Physics(_)
                | Target::Slider(_) => &ren.constraints,
                Target::Events | Target::DrawOrder => &ren.bones,
            };
            if let Some(n) = map.get(&info.target_name) {
                info.target_name = n.clone();
            }
            (info.label(), info.index)
        })
        .collect()
}

fn names_of<'a>(it: impl Iterator<Item = &'a String>) -> Vec<String> {
    it.cloned().collect()
}

/// Names matched across the rigs, and what was added, removed or renamed.
struct Matched {
    /// (old index, new index) of items present in both (same name, or renamed).
    pairs: Vec<(usize, usize)>,
    changes: NameChanges,
}

/// Matches by name, then pairs a removed and an added item whose signatures are equal (and
/// unique among them) as a rename.
fn matched(
    kind: &'static str,
    old: &[String],
    new: &[String],
    old_sig: impl Fn(usize) -> String,
    new_sig: impl Fn(usize) -> String,
) -> Matched {
    let new_index: HashMap<&str, usize> = new
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let old_index: HashMap<&str, usize> = old
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut pairs = Vec::new();
    let mut removed = Vec::new();
    for (i, n) in old.iter().enumerate() {
        match new_index.get(n.as_str()) {
            Some(&j) => pairs.push((i, j)),
            None => removed.push(i),
        }
    }
    let mut added: Vec<usize> = (0..new.len())
        .filter(|&j| !old_index.contains_key(new[j].as_str()))
        .collect();
    let mut renamed = Vec::new();
    let added_sigs: Vec<String> = added.iter().map(|&j| new_sig(j)).collect();
    let mut taken = vec![false; added.len()];
    removed.retain(|&i| {
        let sig = old_sig(i);
        let hits: Vec<usize> = (0..added.len())
            .filter(|&k| !taken[k] && added_sigs[k] == sig)
            .collect();
        if hits.len() == 1 {
            taken[hits[0]] = true;
            renamed.push((old[i].clone(), new[added[hits[0]]].clone()));
            pairs.push((i, added[hits[0]]));
            false
        } else {
            true
        }
    });
    let mut k = 0;
    added.retain(|_| {
        k += 1;
        !taken[k - 1]
    });
    Matched {
        pairs,
        changes: NameChanges {
            kind,
            added: added.iter().map(|&j| new[j].clone()).collect(),
            removed: removed.iter().map(|&i| old[i].clone()).collect(),
            renamed,
        },
    }
}

/// Rounds for signatures, so storage precision does not defeat rename detection.
fn r(v: f64) -> String {
    format!("{:.3}", v)
}

fn bone_signature(d: &SkeletonData, i: usize) -> String {
    let b = &d.bones[i];
    format!(
        "{:?} {} {} {} {} {} {} {} {} {:?}",
        b.parent.map(|p| &d.bones[p].name),
        r(b.x),
        r(b.y),
        r(b.rotation),
        r(b.scale_x),
        r(b.scale_y),
        r(b.shear_x),
        r(b.shear_y),
        r(b.length),
        d.bone_children[i].len()
    )
}

/// A slot's bone, blend mode and how many attachments each skin gives it (not the names:
/// renaming a slot's image along with the slot is still a rename).
fn slot_signature(d: &SkeletonData, i: usize, ren: &Renames) -> String {
    let s = &d.slots[i];
    format!(
        "{} {:?} {} {:?}",
        ren.bone(&d.bones[s.bone].name),
        s.blend,
        s.attachment.is_some(),
        d.skins
            .iter()
            .map(|k| k.slot_entries(i).len())
            .collect::<Vec<_>>()
    )
}

fn skin_signature(d: &SkeletonData, i: usize, ren: &Renames) -> String {
    let k = &d.skins[i];
    let mut e: Vec<String> = k
        .entries()
        .map(|(s, n, _)| format!("{}/{n}", ren.slot(&d.slots[s].name)))
        .collect();
    e.sort();
    e.join(",")
}

fn constraint_names(d: &SkeletonData) -> Vec<String> {
    d.ik_constraints
        .iter()
        .map(|c| c.name.clone())
        .chain(d.transform_constraints.iter().map(|c| c.name.clone()))
        .chain(d.path_constraints.iter().map(|c| c.name.clone()))
        .chain(d.physics_constraints.iter().map(|c| c.name.clone()))
        .collect()
}

/// Kind, bones and target of the `i`th constraint of [`constraint_names`].
fn constraint_signature(d: &SkeletonData, i: usize, ren: &Renames) -> String {
    let bones = |v: &[usize]| {
        v.iter()
            .map(|&b| ren.bone(&d.bones[b].name))
            .collect::<Vec<_>>()
            .join(",")
    };
    let (ni, nt) = (d.ik_constraints.len(), d.transform_constraints.len());
    if i < ni {
        let c = &d.ik_constraints[i];
        format!(
            "ik {} -> {}",
            bones(&c.bones),
            ren.bone(&d.bones[c.target].name)
        )
    } else if i < ni + nt {
        let c = &d.transform_constraints[i - ni];
        format!(
            "transform {} -> {}",
            bones(&c.bones),
            ren.bone(&d.bones[c.target].name)
        )
    } else if i < ni + nt + d.path_constraints.len() {
        let c = &d.path_constraints[i - ni - nt];
        format!(
            "path {} -> {}",
            bones(&c.bones),
            ren.slot(&d.slots[c.target].name)
        )
    } else {
        let c = &d.physics_constraints[i - ni - nt - d.path_constraints.len()];
        format!("physics {}", ren.bone(&d.bones[c.bone].name))
    }
}

fn strip_name_event(d: &SkeletonData, i: usize) -> (i32, String, String, String) {
    let e = &d.events[i];
    (
        e.int,
        r(e.float),
        e.string.clone(),
        format!("{:?}", e.audio),
    )
}

fn animation_signature(d: &SkeletonData, a: &Animation, ren: &Renames) -> String {
    let mut labels: Vec<String> = labels(d, a, ren).into_keys().collect();
    labels.sort();
    format!(
        "{} {} {}",
        r(a.duration),
        labels.join(","),
        a.timelines
            .iter()
            .map(|t| t.key_times().len())
            .sum::<usize>()
    )
}

/// Index pairs (old, new) of the items present in both rigs.
struct Pairs<'a> {
    bones: &'a [(usize, usize)],
    slots: &'a [(usize, usize)],
    events: &'a [(usize, usize)],
}

/// Changed setup values of bones, slots and events present in both rigs.
fn setup_changes(
    old: &SkeletonData,
    new: &SkeletonData,
    pairs: &Pairs<'_>,
    ren: &Renames,
    tol: f64,
) -> Vec<SetupChange> {
    let (bones, slots, events) = (pairs.bones, pairs.slots, pairs.events);
    let mut out = Vec::new();
    let mut num = |item: &str, field: &'static str, a: f64, b: f64| {
        if !((a - b).abs() <= tol || (a.is_nan() && b.is_nan())) {
            out.push(SetupChange {
                item: item.to_string(),
                field,
                old: short(a),
                new: short(b),
            });
        }
    };
    for &(i, j) in bones {
        let (a, b) = (&old.bones[i], &new.bones[j]);
        let item = format!("bone {}", b.name);
        num(&item, "x", a.x, b.x);
        num(&item, "y", a.y, b.y);
        num(&item, "rotation", a.rotation, b.rotation);
        num(&item, "scaleX", a.scale_x, b.scale_x);
        num(&item, "scaleY", a.scale_y, b.scale_y);
        num(&item, "shearX", a.shear_x, b.shear_x);
        num(&item, "shearY", a.shear_y, b.shear_y);
        num(&item, "length", a.length, b.length);
    }
    for &(i, j) in events {
        let (a, b) = (&old.events[i], &new.events[j]);
        let item = format!("event {}", b.name);
        num(&item, "int", f64::from(a.int), f64::from(b.int));
        num(&item, "float", a.float, b.float);
        num(&item, "volume", a.volume, b.volume);
        num(&item, "balance", a.balance, b.balance);
    }
    let mut text = |item: String, field: &'static str, a: String, b: String| {
        if a != b {
            out.push(SetupChange {
                item,
                field,
                old: a,
                new: b,
            });
        }
    };
    for &(i, j) in bones {
        let (a, b) = (&old.bones[i], &new.bones[j]);
        let pa = a.parent.map_or("(none)", |p| ren.bone(&old.bones[p].name));
        let pb = b.parent.map_or("(none)", |p| new.bones[p].name.as_str());
        let item = format!("bone {}", b.name);
        text(item.clone(), "parent", pa.into(), pb.into());
        text(
            item,
            "inherit",
            a.inherit.name().into(),
            b.inherit.name().into(),
        );
    }
    for &(i, j) in slots {
        let (a, b) = (&old.slots[i], &new.slots[j]);
        let item = format!("slot {}", b.name);
        text(
            item.clone(),
            "bone",
            ren.bone(&old.bones[a.bone].name).to_string(),
            new.bones[b.bone].name.clone(),
        );
        let att = |s: &Option<String>| s.clone().unwrap_or_else(|| "(none)".into());
        text(
            item.clone(),
            "attachment",
            att(&a.attachment),
            att(&b.attachment),
        );
        let color = |c: crate::core::color::Color| {
            format!(
                "{},{},{},{}",
                short(c.r),
                short(c.g),
                short(c.b),
                short(c.a)
            )
        };
        text(item.clone(), "color", color(a.color), color(b.color));
        text(item, "blend", a.blend.name().into(), b.blend.name().into());
    }
    for &(i, j) in events {
        let (a, b) = (&old.events[i], &new.events[j]);
        text(
            format!("event {}", b.name),
            "string",
            a.string.clone(),
            b.string.clone(),
        );
    }
    out
}

/// A number as short as it can be while keeping 4 decimals (for printing values).
pub fn short(v: f64) -> String {
    let s = format!("{v:.4}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Which timelines of an animation changed, were added or removed (matched by label).
fn timeline_changes(
    old: &SkeletonData,
    oa: &Animation,
    new: &SkeletonData,
    na: &Animation,
    ren: &Renames,
    tol: f64,
) -> AnimationChange {
    let (ol, nl) = (labels(old, oa, ren), labels(new, na, &Renames::default()));
    let mut ch = AnimationChange::default();
    for (label, &j) in &nl {
        match ol.get(label) {
            None => ch.added.push(label.clone()),
            Some(&i) => {
                if !same_timeline(old, &oa.timelines[i], new, &na.timelines[j], ren, tol) {
                    ch.changed.push(label.clone());
                }
            }
        }
    }
    ch.removed = ol
        .keys()
        .filter(|l| !nl.contains_key(*l))
        .cloned()
        .collect();
    ch
}

/// Whether two timelines with the same label play the same: plottable channels by value at
/// every key time of both and halfway between, discrete ones by key times and contents.
fn same_timeline(
    old: &SkeletonData,
    a: &Timeline,
    new: &SkeletonData,
    b: &Timeline,
    ren: &Renames,
    tol: f64,
) -> bool {
    let times_eq = |x: &[f32], y: &[f32]| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(p, q)| (f64::from(*p) - f64::from(*q)).abs() <= tol)
    };
    match (a, b) {
        (Timeline::Attachment(x), Timeline::Attachment(y)) => {
            times_eq(&x.times, &y.times) && x.names == y.names
        }
        (Timeline::DrawOrder(x), Timeline::DrawOrder(y)) => {
            fn names<'a>(
                d: &'a SkeletonData,
                o: &Option<Vec<usize>>,
                ren: &'a Renames,
            ) -> Option<Vec<&'a str>> {
                o.as_ref().map(|v| {
                    v.iter()
                        .map(|&s| d.slots.get(s).map_or("", |s| ren.slot(&s.name)))
                        .collect()
                })
            }
            let none = Renames::default();
            times_eq(&x.times, &y.times)
                && x.orders
                    .iter()
                    .zip(&y.orders)
                    .all(|(p, q)| names(old, p, ren) == names(new, q, &none))
        }
        (Timeline::Event(x), Timeline::Event(y)) => {
            times_eq(&x.times, &y.times)
                && x.events.iter().zip(&y.events).all(|(p, q)| {
                    old.events.get(p.data).map(|e| &e.name)
                        == new.events.get(q.data).map(|e| &e.name)
                        && p.int == q.int
                        && (p.float - q.float).abs() <= tol
                        && p.string == q.string
                })
        }
        (Timeline::Deform(x), Timeline::Deform(y)) => {
            // Vertex arrays may be trimmed differently (4.x drops leading zeros).
            times_eq(x.keys.times(), y.keys.times())
                && x.vertices.iter().zip(&y.vertices).all(|(p, q)| {
                    let n = p.len().max(q.len());
                    (0..n).all(|k| {
                        let (u, v) = (
                            p.get(k).copied().unwrap_or(0.0),
                            q.get(k).copied().unwrap_or(0.0),
                        );
                        (f64::from(u) - f64::from(v)).abs() <= tol
                    })
                })
        }
        _ => {
            let mut times: Vec<f64> = a
                .key_times()
                .iter()
                .chain(b.key_times())
                .map(|&t| f64::from(t))
                .filter(|t| t.is_finite())
                .collect();
            times.sort_by(f64::total_cmp);
            times.dedup();
            let mids: Vec<f64> = times.windows(2).map(|w| (w[0] + w[1]) / 2.0).collect();
            times.extend(mids);
            let channels = crate::inspect::Curve::new(a).map_or(0, |c| c.channels());
            if channels != crate::inspect::Curve::new(b).map_or(0, |c| c.channels()) {
                return false;
            }
            (0..channels).all(|c| {
                times.iter().all(
                    |&t| match (channel_value(a, c, t), channel_value(b, c, t)) {
                        (Some(p), Some(q)) => (p - q).abs() <= tol || (p.is_nan() && q.is_nan()),
                        (None, None) => true,
                        _ => false,
                    },
                )
            })
        }
    }
}

/// The two skeletons animations are posed on.
struct Posers {
    old: Skeleton,
    new: Skeleton,
}

impl Posers {
    fn new(
        old: &Arc<SkeletonData>,
        new: &Arc<SkeletonData>,
        old_skins: &[String],
        new_skins: &[String],
    ) -> Option<Posers> {
        let make = |d: &Arc<SkeletonData>, skins: &[String]| {
            let mut sk = Skeleton::new(d.clone());
            let names: Vec<&str> = skins.iter().map(String::as_str).collect();
            sk.set_skins_by_name(&names).ok()?;
            Some(sk)
        };
        Some(Posers {
            old: make(old, old_skins)?,
            new: make(new, new_skins)?,
        })
    }

    /// The largest difference of world values between the poses of `oa` and `na` at evenly
    /// spaced times over the longer duration. Positions win over angles and scales: a
    /// position difference is what a viewer sees first.
    fn largest(
        &mut self,
        oa: &Animation,
        na: &Animation,
        bones: &[(usize, usize)],
        new: &SkeletonData,
        tol: f64,
    ) -> Option<PoseDelta> {
        let d = oa.duration.max(na.duration);
        let d = if d.is_finite() && d > 0.0 { d } else { 0.0 };
        let n = ((d * SAMPLES_PER_SECOND).ceil() as usize).clamp(1, MAX_SAMPLES);
        let mut best_pos: Option<PoseDelta> = None;
        let mut best_other: Option<PoseDelta> = None;
        for s in 0..=n {
            let t = d * s as f64 / n as f64;
            let spec = SampleSpec {
                time: t,
                last_time: t,
                looping: false,
            };
            let po = spec.pose(&mut self.old, oa);
            let pn = spec.pose(&mut self.new, na);
            for &(i, j) in bones {
                let (Some(Some(a)), Some(Some(b))) = (po.bones.get(i), pn.bones.get(j)) else {
                    continue;
                };
                for (channel, diff) in world_diffs(a, b) {
                    if diff.is_nan() || diff <= tol {
                        continue;
                    }
                    let slot = if channel.starts_with("world") {
                        &mut best_pos
                    } else {
                        &mut best_other
                    };
                    if slot.as_ref().is_none_or(|p| diff > p.difference) {
                        *slot = Some(PoseDelta {
                            bone: new.bones[j].name.clone(),
                            channel,
                            difference: diff,
                            time: t,
                        });
                    }
                }
            }
        }
        best_pos.or(best_other)
    }
}

/// Differences of world x, y, rotation and scales of one bone in two poses.
fn world_diffs(a: &BoneSnapshot, b: &BoneSnapshot) -> [(&'static str, f64); 5] {
    let rot = |s: &BoneSnapshot| s.c.atan2(s.a).to_degrees();
    let mut dr = (rot(a) - rot(b)).abs() % 360.0;
    dr = dr.min(360.0 - dr);
    [
        ("worldX", (a.world_x - b.world_x).abs()),
        ("worldY", (a.world_y - b.world_y).abs()),
        ("rotation", dr),
        ("scaleX", (a.a.hypot(a.c) - b.a.hypot(b.c)).abs()),
        ("scaleY", (a.b.hypot(a.d) - b.b.hypot(b.d)).abs()),
    ]
}
