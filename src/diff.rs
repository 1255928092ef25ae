//! What changed between two loads of a file, summarised for people: `+2 bones, -1 animation,
//! 'run': 3 timelines changed`.

use crate::core::model::SkeletonData;
use crate::text::sanitize;
use std::collections::HashSet;

/// The differences between an old and a new model, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelDiff {
    pub bones_added: Vec<String>,
    pub bones_removed: Vec<String>,
    pub bones_changed: Vec<String>,
    pub slots_added: Vec<String>,
    pub slots_removed: Vec<String>,
    pub skins_added: Vec<String>,
    pub skins_removed: Vec<String>,
    pub animations_added: Vec<String>,
    pub animations_removed: Vec<String>,
    /// (old name, new name): a removed and an added animation with identical content.
    pub animations_renamed: Vec<(String, String)>,
    /// (animation, number of timelines that differ, duration changed)
    pub animations_changed: Vec<(String, usize, bool)>,
    /// Anything else (constraints, attachments, events) differs.
    pub other_changed: bool,
}

fn added_removed<'a>(
    old: impl Iterator<Item = &'a str>,
    new: impl Iterator<Item = &'a str>,
) -> (Vec<String>, Vec<String>) {
    let o: Vec<&str> = old.collect();
    let n: Vec<&str> = new.collect();
    let os: HashSet<&str> = o.iter().copied().collect();
    let ns: HashSet<&str> = n.iter().copied().collect();
    (
        n.iter()
            .filter(|x| !os.contains(*x))
            .map(|s| s.to_string())
            .collect(),
        o.iter()
            .filter(|x| !ns.contains(*x))
            .map(|s| s.to_string())
            .collect(),
    )
}

impl ModelDiff {
    /// The new name of an animation of the old model (itself, or its rename).
    pub fn animation_name_in_new<'a>(&'a self, old_name: &'a str) -> &'a str {
        self.animations_renamed
            .iter()
            .find(|(o, _)| o == old_name)
            .map_or(old_name, |(_, n)| n.as_str())
    }

    /// Compares two models by names.
    pub fn between(old: &SkeletonData, new: &SkeletonData) -> ModelDiff {
        let (bones_added, bones_removed) = added_removed(
            old.bones.iter().map(|b| b.name.as_str()),
            new.bones.iter().map(|b| b.name.as_str()),
        );
        let bones_changed = new
            .bones
            .iter()
            .filter_map(|nb| {
                let ob = old.bones.iter().find(|b| b.name == nb.name)?;
                let same = ob.x == nb.x
                    && ob.y == nb.y
                    && ob.rotation == nb.rotation
                    && ob.scale_x == nb.scale_x
                    && ob.scale_y == nb.scale_y
                    && ob.shear_x == nb.shear_x
                    && ob.shear_y == nb.shear_y
                    && ob.length == nb.length
                    && ob.inherit == nb.inherit
                    && ob.parent.map(|p| &old.bones[p].name)
                        == nb.parent.map(|p| &new.bones[p].name);
                (!same).then(|| nb.name.clone())
            })
            .collect();
        let (slots_added, slots_removed) = added_removed(
            old.slots.iter().map(|s| s.name.as_str()),
            new.slots.iter().map(|s| s.name.as_str()),
        );
        let (skins_added, skins_removed) = added_removed(
            old.skins.iter().map(|s| s.name.as_str()),
            new.skins.iter().map(|s| s.name.as_str()),
        );
        let (animations_added, animations_removed) = added_removed(
            old.animations.iter().map(|a| a.name.as_str()),
            new.animations.iter().map(|a| a.name.as_str()),
        );
        // A removed and an added animation with the same keys is a rename.
        let mut animations_renamed = Vec::new();
        let (mut animations_added, mut animations_removed) = (animations_added, animations_removed);
        animations_removed.retain(|old_name| {
            let Some(oa) = old.animations.iter().find(|a| &a.name == old_name) else {
                return true;
            };
            let hit = animations_added.iter().position(|n| {
                new.animations
                    .iter()
                    .find(|a| &a.name == n)
                    .is_some_and(|na| na.timelines == oa.timelines && na.duration == oa.duration)
            });
            match hit {
                Some(i) => {
                    animations_renamed.push((old_name.clone(), animations_added.remove(i)));
                    false
                }
                None => true,
            }
        });
        let animations_changed = new
            .animations
            .iter()
            .filter_map(|na| {
                let oa = old.animations.iter().find(|a| a.name == na.name)?;
                // Timelines refer to indices; compare them only when the index spaces agree.
                let indices_agree = old.bones.len() == new.bones.len()
                    && old.slots.len() == new.slots.len()
                    && old
                        .bones
                        .iter()
                        .zip(&new.bones)
                        .all(|(a, b)| a.name == b.name)
                    && old
                        .slots
                        .iter()
                        .zip(&new.slots)
                        .all(|(a, b)| a.name == b.name);
                let changed = if indices_agree {
                    let n = oa.timelines.len().max(na.timelines.len());
                    (0..n)
                        .filter(|&i| oa.timelines.get(i) != na.timelines.get(i))
                        .count()
                } else {
                    oa.timelines
                        .len()
                        .abs_diff(na.timelines.len())
                        .max(usize::from(oa.timelines.len() != na.timelines.len()))
                };
                let dur = oa.duration != na.duration;
                (changed > 0 || dur).then(|| (na.name.clone(), changed, dur))
            })
            .collect();
        let other_changed = old.ik_constraints != new.ik_constraints
            || old.transform_constraints != new.transform_constraints
            || old.path_constraints != new.path_constraints
            || old.events != new.events
            || old.attachments.len() != new.attachments.len();
        ModelDiff {
            bones_added,
            bones_removed,
            bones_changed,
            slots_added,
            slots_removed,
            skins_added,
            skins_removed,
            animations_added,
            animations_removed,
            animations_renamed,
            animations_changed,
            other_changed,
        }
    }

    /// True when nothing differs.
    pub fn is_empty(&self) -> bool {
        *self == ModelDiff::default()
    }

    /// A one-line summary (names sanitized), e.g. `+2 bones, -1 animation, 'run': 3 timelines changed`.
    pub fn summary(&self) -> String {
        fn count(n: usize, one: &str, many: &str) -> String {
            format!("{n} {}", if n == 1 { one } else { many })
        }
        let mut parts = Vec::new();
        let mut add = |sign: &str, v: &[String], one: &str, many: &str| {
            if !v.is_empty() {
                parts.push(format!("{sign}{}", count(v.len(), one, many)));
            }
        };
        add("+", &self.bones_added, "bone", "bones");
        add("-", &self.bones_removed, "bone", "bones");
        add("~", &self.bones_changed, "bone", "bones");
        add("+", &self.slots_added, "slot", "slots");
        add("-", &self.slots_removed, "slot", "slots");
        add("+", &self.skins_added, "skin", "skins");
        add("-", &self.skins_removed, "skin", "skins");
        add("+", &self.animations_added, "animation", "animations");
        add("-", &self.animations_removed, "animation", "animations");
        for (from, to) in &self.animations_renamed {
            parts.push(format!(
                "'{}' renamed to '{}'",
                sanitize(from),
                sanitize(to)
            ));
        }
        for (name, n, dur) in &self.animations_changed {
            let mut s = format!(
                "'{}': {} changed",
                sanitize(name),
                count(*n, "timeline", "timelines")
            );
            if *dur {
                s.push_str(", new duration");
            }
            parts.push(s);
        }
        if self.other_changed {
            parts.push("constraints/attachments/events changed".into());
        }
        if parts.is_empty() {
            "no changes".into()
        } else {
            parts.join(", ")
        }
    }
}

pub use rig::{
    AnimationChange, DEFAULT_TOLERANCE, NameChanges, PoseDelta, RigDiff, SetupChange,
    short as short_number,
};

mod rig;
