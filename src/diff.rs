//! What changed between two loads of a file, summarised for people: `+2 bones, -1 animation,
//! 'run': 3 timelines changed`.

use crate::core::model::SkeletonData;
use crate::text::sanitize;
use std::collections::HashSet;

/// The differences between an old and a new model, by name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelDiff {
    /// (old, new) format and export version when they differ ("Spine 4.1.17").
    pub version: Option<(String, String)>,
    pub bones_added: Vec<String>,
    pub bones_removed: Vec<String>,
    pub bones_changed: Vec<String>,
    /// The changed setup values of the changed bones: ("hip", "y", old, new), numbers as
    /// `diff` prints them.
    pub bone_values: Vec<(String, &'static str, String, String)>,
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
        let mut bone_values = Vec::new();
        for nb in &new.bones {
            let Some(ob) = old.bones.iter().find(|b| b.name == nb.name) else {
                continue;
            };
            for (field, a, b) in [
                ("x", ob.x, nb.x),
                ("y", ob.y, nb.y),
                ("rotation", ob.rotation, nb.rotation),
                ("scaleX", ob.scale_x, nb.scale_x),
                ("scaleY", ob.scale_y, nb.scale_y),
                ("shearX", ob.shear_x, nb.shear_x),
                ("shearY", ob.shear_y, nb.shear_y),
                ("length", ob.length, nb.length),
            ] {
                if a != b && !(a.is_nan() && b.is_nan()) {
                    bone_values.push((nb.name.clone(), field, short_number(a), short_number(b)));
                }
            }
        }
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
        let label = |d: &SkeletonData| {
            format!("{} {}", d.source.format, d.source.version)
                .trim()
                .to_string()
        };
        ModelDiff {
            version: (old.source != new.source).then(|| (label(old), label(new))),
            bones_added,
            bones_removed,
            bones_changed,
            bone_values,
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
        if let Some((o, n)) = &self.version {
            parts.push(format!("version {} -> {}", sanitize(o), sanitize(n)));
        }
        fn add(parts: &mut Vec<String>, sign: &str, v: &[String], one: &str, many: &str) {
            if !v.is_empty() {
                parts.push(format!("{sign}{}", count(v.len(), one, many)));
            }
        }
        add(&mut parts, "+", &self.bones_added, "bone", "bones");
        add(&mut parts, "-", &self.bones_removed, "bone", "bones");
        add(&mut parts, "~", &self.bones_changed, "bone", "bones");
        // Name the changed values (as `diff` does), the first few.
        const NAMED: usize = 3;
        if !self.bones_changed.is_empty()
            && !self.bone_values.is_empty()
            && let Some(last) = parts.last_mut()
        {
            let named: Vec<String> = self
                .bone_values
                .iter()
                .take(NAMED)
                .map(|(b, f, o, n)| format!("{} {f} {o} -> {n}", sanitize(b)))
                .collect();
            let more = self.bone_values.len().saturating_sub(NAMED);
            let more = if more > 0 {
                format!(", +{more} more")
            } else {
                String::new()
            };
            last.push_str(&format!(" ({}{more})", named.join(", ")));
        }
        add(&mut parts, "+", &self.slots_added, "slot", "slots");
        add(&mut parts, "-", &self.slots_removed, "slot", "slots");
        add(&mut parts, "+", &self.skins_added, "skin", "skins");
        add(&mut parts, "-", &self.skins_removed, "skin", "skins");
        add(
            &mut parts,
            "+",
            &self.animations_added,
            "animation",
            "animations",
        );
        add(
            &mut parts,
            "-",
            &self.animations_removed,
            "animation",
            "animations",
        );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reload_summary_names_changed_bone_values_and_the_version() {
        let data = crate::format::load(crate::EMBEDDED_SAMPLE, "sample").expect("loads");
        let mut new = data.clone();
        let hip = new.find_bone("hip").expect("hip");
        new.bones[hip].y += 12.5;
        let d = ModelDiff::between(&data, &new);
        let y = data.bones[hip].y;
        assert_eq!(
            d.summary(),
            format!(
                "~1 bone (hip y {} -> {})",
                short_number(y),
                short_number(y + 12.5)
            )
        );
        new.source.version = "9.9.1".into();
        let d = ModelDiff::between(&data, &new);
        assert!(
            d.summary().starts_with(&format!(
                "version {} {} -> {} 9.9.1, ~1 bone",
                data.source.format, data.source.version, data.source.format
            )),
            "{}",
            d.summary()
        );
    }
}
