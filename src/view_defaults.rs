//! What a skeleton is shown with when the user names nothing: an animation worth watching and
//! skins that dress the whole character. Also the by-name choice (`--animation`, `--skin`)
//! with errors that list what exists. Headless: it only reads the model.

use crate::core::model::{NameKind, SkeletonData, UnknownName};
use crate::text::sanitize;

/// Names of cycles a viewer is expected to open on, most wanted first.
const CYCLE_NAMES: &[&str] = &["walk", "run", "trot", "idle"];

/// Why an animation was chosen (for the status line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnimationReason {
    /// Named like a cycle (walk, run, trot, idle).
    Cycle,
    /// The most keyed animation that moves (and loops, when one does).
    MostKeyed,
    /// Every animation is still (0 s or one key): the first.
    AllStill,
    /// The user named it.
    Named,
}

impl AnimationReason {
    /// A few words for the status line.
    pub fn describe(self) -> &'static str {
        match self {
            AnimationReason::Cycle => "a cycle",
            AnimationReason::MostKeyed => "most keys",
            AnimationReason::AllStill => "all still",
            AnimationReason::Named => "as asked",
        }
    }
}

/// Keys over every timeline of animation `i`.
fn key_count(data: &SkeletonData, i: usize) -> usize {
    data.animations[i]
        .timelines
        .iter()
        .map(|t| t.key_times().len())
        .sum()
}

/// True when animation `i` shows no motion: no duration, or no timeline with two keys.
pub fn is_still(data: &SkeletonData, i: usize) -> bool {
    let a = &data.animations[i];
    a.duration.is_nan() || a.duration <= 0.0 || a.timelines.iter().all(|t| t.key_times().len() < 2)
}

/// The tier of a name among [`CYCLE_NAMES`]: (position in the list, 0 when the last path
/// segment is exactly the cycle name, else 1), or `None` when it names no cycle.
fn cycle_rank(name: &str) -> Option<(usize, u8)> {
    let lower = name.to_lowercase();
    let last = lower.rsplit('/').next().unwrap_or(&lower);
    let tokens: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    CYCLE_NAMES.iter().enumerate().find_map(|(k, word)| {
        if last == *word {
            Some((k, 0))
        } else if tokens.iter().any(|t| t.starts_with(word)) {
            Some((k, 1))
        } else {
            None
        }
    })
}

/// The armature a file opens on when the user names none: one that no other armature of the
/// file nests as a child armature (the character, not its effects or weapons), the one with
/// the most bones among those, the first on a tie. Files of one skeleton give 0.
pub fn main_armature<T: std::ops::Deref<Target = SkeletonData>>(all: &[T]) -> usize {
    use crate::core::model::AttachmentKind;
    let nested = |name: &str| {
        all.iter().any(|d| {
            d.name != name
                && d.attachments
                    .iter()
                    .any(|a| matches!(&a.kind, AttachmentKind::Armature(c) if c.armature == name))
        })
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, d) in all.iter().enumerate() {
        if nested(&d.name) {
            continue;
        }
        if best.is_none_or(|(_, bones)| d.bones.len() > bones) {
            best = Some((i, d.bones.len()));
        }
    }
    best.map_or(0, |(i, _)| i)
}

/// The animation to open on: among the animations that move (and loop, when any does), the
/// first named like a cycle (walk, run, trot, idle), else the most keyed one (longest on a
/// tie); the first animation when all are still. `None` when there is none.
pub fn default_animation(data: &SkeletonData) -> Option<(usize, AnimationReason)> {
    let n = data.animations.len();
    if n == 0 {
        return None;
    }
    let moving: Vec<usize> = (0..n).filter(|&i| !is_still(data, i)).collect();
    if moving.is_empty() {
        return Some((0, AnimationReason::AllStill));
    }
    // A file that says to play an animation once means it is not a loop.
    let looping: Vec<usize> = moving
        .iter()
        .copied()
        .filter(|&i| data.animations[i].play_times != Some(1))
        .collect();
    let pool = if looping.is_empty() { moving } else { looping };
    let keyed = |i: usize| (key_count(data, i), data.animations[i].duration);
    let better = |a: usize, b: usize| {
        let (ka, da) = keyed(a);
        let (kb, db) = keyed(b);
        ka > kb || (ka == kb && da > db)
    };
    let mut cycle: Option<((usize, u8), usize)> = None;
    for &i in &pool {
        if let Some(rank) = cycle_rank(&data.animations[i].name) {
            let take = match cycle {
                None => true,
                Some((r, j)) => rank < r || (rank == r && better(i, j)),
            };
            if take {
                cycle = Some((rank, i));
            }
        }
    }
    if let Some((_, i)) = cycle {
        return Some((i, AnimationReason::Cycle));
    }
    let mut best = pool[0];
    for &i in &pool[1..] {
        if better(i, best) {
            best = i;
        }
    }
    Some((best, AnimationReason::MostKeyed))
}

/// Slots that show their setup attachment with the default skin plus `skins` (indices).
fn covered(data: &SkeletonData, skins: &[usize]) -> usize {
    data.slots
        .iter()
        .enumerate()
        .filter(|(s, slot)| {
            slot.attachment.as_deref().is_some_and(|name| {
                data.default_skin
                    .into_iter()
                    .chain(skins.iter().copied())
                    .any(|k| data.skins[k].get(*s, name).is_some())
            })
        })
        .count()
}

/// Slots a skin holds any attachment for.
fn slots_of(data: &SkeletonData, skin: usize) -> Vec<usize> {
    let mut v: Vec<usize> = data.skins[skin].entries().map(|(s, _, _)| s).collect();
    v.dedup();
    v
}

/// Most skins combined by [`default_skins`].
const MAX_COMBINED: usize = 6;

/// The skins to open with (besides the default skin, which always applies): none when the
/// default skin shows at least half the setup attachments; else the skin showing most of
/// them (most attachments on a tie, first in the file after that), joined while the
/// character is still less than half dressed by skins that fill other slots.
pub fn default_skins(data: &SkeletonData) -> Vec<String> {
    let named = data.slots.iter().filter(|s| s.attachment.is_some()).count();
    let others: Vec<usize> = (0..data.skins.len())
        .filter(|&k| Some(k) != data.default_skin && data.skins[k].name != "default")
        .collect();
    if others.is_empty() || covered(data, &[]) * 2 >= named {
        return Vec::new();
    }
    let size = |k: usize| data.skins[k].entries().count();
    let mut chosen: Vec<usize> = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    while chosen.len() < MAX_COMBINED {
        let now = covered(data, &chosen);
        if !chosen.is_empty() && now * 2 >= named {
            break;
        }
        let mut best: Option<(usize, usize, usize)> = None;
        for &k in &others {
            if chosen.contains(&k) {
                continue;
            }
            // A skin that would replace what a chosen skin shows is not a combination.
            if !chosen.is_empty() && slots_of(data, k).iter().any(|s| used.contains(s)) {
                continue;
            }
            let mut with = chosen.clone();
            with.push(k);
            let gain = covered(data, &with);
            if best.is_none_or(|(g, sz, _)| gain > g || (gain == g && size(k) > sz)) {
                best = Some((gain, size(k), k));
            }
        }
        match best {
            Some((gain, _, k)) if chosen.is_empty() || gain > now => {
                used.extend(slots_of(data, k));
                chosen.push(k);
            }
            _ => break,
        }
    }
    chosen
        .into_iter()
        .map(|k| data.skins[k].name.clone())
        .collect()
}

/// A list of names for an error message: every name when few, else the first ones and a count.
fn listing<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let all: Vec<String> = names.map(|n| sanitize(n).into_owned()).collect();
    const SHOWN: usize = 40;
    if all.is_empty() {
        return "none".into();
    }
    if all.len() <= SHOWN {
        all.join(", ")
    } else {
        format!(
            "{}, ... ({} more)",
            all[..SHOWN].join(", "),
            all.len() - SHOWN
        )
    }
}

/// The animation called `name`; the error lists the animations there are.
pub fn animation_by_name(data: &SkeletonData, name: &str) -> Result<usize, UnknownName> {
    data.find_animation(name).ok_or_else(|| UnknownName {
        kind: NameKind::Animation,
        name: name.to_string(),
        choices: Some(listing(data.animations.iter().map(|a| a.name.as_str()))),
    })
}

/// Checks skin names (combined in this order); the error lists the skins there are.
/// `default` alone means the default skin only (an empty list).
pub fn skins_by_name(data: &SkeletonData, names: &[String]) -> Result<Vec<String>, UnknownName> {
    let names: Vec<String> = names
        .iter()
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .collect();
    for n in &names {
        if data.find_skin(n).is_none() && !(n == "default" && data.default_skin.is_none()) {
            return Err(UnknownName {
                kind: NameKind::Skin,
                name: n.clone(),
                choices: Some(listing(data.skins.iter().map(|s| s.name.as_str()))),
            });
        }
    }
    if names.iter().all(|n| n == "default") {
        return Ok(Vec::new());
    }
    Ok(names)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::path::PathBuf;

    fn corpus(rel: &str) -> Option<SkeletonData> {
        let bytes = corpus_bytes(rel)?;
        let name = PathBuf::from(rel)
            .file_name()?
            .to_string_lossy()
            .into_owned();
        Some(crate::format::load(&bytes, &name).expect("corpus file loads"))
    }

    fn chosen(rel: &str) -> Option<(String, AnimationReason, Vec<String>)> {
        let data = corpus(rel)?;
        let (i, why) = default_animation(&data).expect("has animations");
        Some((data.animations[i].name.clone(), why, default_skins(&data)))
    }

    #[test]
    fn spineboy_opens_walking_not_on_the_still_aim() {
        for v in ["3.8", "4.2"] {
            let Some((anim, why, skins)) = chosen(&format!("spine/{v}/spineboy-pro.json")) else {
                continue;
            };
            assert_eq!(
                (anim.as_str(), why),
                ("walk", AnimationReason::Cycle),
                "{v}"
            );
            assert!(skins.is_empty(), "spineboy's default skin dresses it");
        }
    }

    #[test]
    fn owl_opens_on_idle_not_on_the_zero_second_down() {
        let Some((anim, _, skins)) = chosen("spine/4.2/owl-pro.json") else {
            return;
        };
        assert_eq!(anim, "idle");
        assert!(skins.is_empty());
    }

    #[test]
    fn raptor_opens_walking() {
        let Some((anim, _, _)) = chosen("spine/4.2/raptor-pro.json") else {
            return;
        };
        assert_eq!(anim, "walk");
    }

    #[test]
    fn mix_and_match_opens_dressed() {
        for v in ["3.8", "4.2"] {
            let Some(data) = corpus(&format!("spine/{v}/mix-and-match-pro.json")) else {
                continue;
            };
            let (i, _) = default_animation(&data).expect("animations");
            assert_eq!(data.animations[i].name, "walk");
            let skins = default_skins(&data);
            assert_eq!(skins, vec!["full-skins/girl".to_string()], "{v}");
            let idx: Vec<usize> = skins.iter().filter_map(|s| data.find_skin(s)).collect();
            let named = data.slots.iter().filter(|s| s.attachment.is_some()).count();
            assert!(
                covered(&data, &idx) * 2 >= named,
                "the chosen skin shows most of the character"
            );
            assert!(covered(&data, &idx) > 4 * covered(&data, &[]).max(1));
        }
    }

    #[test]
    fn dragonboy_opens_on_a_moving_loop() {
        let Some(bytes) = corpus_bytes("dragonbones/4.5/DragonBoy.json") else {
            return;
        };
        let all = crate::format::load_all(&bytes, "DragonBoy.json").expect("loads");
        let data = &all[0];
        let (i, _) = default_animation(data).expect("animations");
        let a = &data.animations[i];
        assert!(!is_still(data, i), "{} moves", a.name);
        assert_eq!(a.name, "walk");
        assert_ne!(a.play_times, Some(1));
    }

    /// The bytes of `../shared/corpus/<rel>`, or `None` (printing why) when absent; fails in
    /// CI (`CI=true`).
    pub(crate) fn corpus_bytes(rel: &str) -> Option<Vec<u8>> {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus")
            .join(rel);
        match std::fs::read(&path) {
            Ok(b) => Some(b),
            Err(_) => {
                let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
                assert!(!ci, "{rel}: ../shared is missing (CI=true)");
                println!("SKIPPED {rel}: not in ../shared");
                None
            }
        }
    }

    #[test]
    fn goblins_and_chibi_open_on_a_character_skin() {
        if let Some((anim, _, skins)) = chosen("spine/4.2/goblins-pro.json") {
            assert_eq!(anim, "walk");
            assert_eq!(skins, vec!["goblin".to_string()]);
        }
        if let Some((anim, _, skins)) = chosen("spine/4.2/chibi-stickers.json") {
            assert!(anim.starts_with("movement/trot"), "{anim}");
            assert_eq!(skins.len(), 1, "{skins:?}");
        }
    }

    #[test]
    fn every_corpus_file_opens_on_a_moving_animation_when_one_exists() {
        let Some(root) = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/corpus/spine/4.2")
            .canonicalize()
            .ok()
        else {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
            assert!(!ci, "../shared is missing (CI=true)");
            return;
        };
        let mut seen = 0;
        for entry in std::fs::read_dir(root).expect("dir").flatten() {
            let p = entry.path();
            if p.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let Ok(data) = crate::format::load(&std::fs::read(&p).expect("read"), &name) else {
                continue;
            };
            let Some((i, why)) = default_animation(&data) else {
                continue;
            };
            seen += 1;
            let any_moving = (0..data.animations.len()).any(|k| !is_still(&data, k));
            assert_eq!(!is_still(&data, i), any_moving, "{name}");
            assert_eq!(why == AnimationReason::AllStill, !any_moving, "{name}");
            for s in default_skins(&data) {
                assert!(data.find_skin(&s).is_some(), "{name}: {s}");
            }
        }
        assert!(seen >= 20, "the 4.2 corpus has over 20 JSON files ({seen})");
    }

    fn tiny() -> SkeletonData {
        use crate::core::animation::Animation;
        let mut d = SkeletonData::default();
        d.animations.push(Animation::new("walk", vec![]));
        d.skins.push(crate::core::model::Skin::new("default"));
        d.skins.push(crate::core::model::Skin::new("red"));
        d.default_skin = Some(0);
        d
    }

    #[test]
    fn still_animations_only_open_on_the_first() {
        let d = tiny();
        assert_eq!(default_animation(&d), Some((0, AnimationReason::AllStill)));
        assert_eq!(default_animation(&SkeletonData::default()), None);
    }

    #[test]
    fn names_are_checked_and_errors_list_the_choices() {
        let d = tiny();
        assert_eq!(animation_by_name(&d, "walk"), Ok(0));
        assert_eq!(
            animation_by_name(&d, "fly").map_err(|e| e.to_string()),
            Err("no animation \"fly\"; the animations are: walk".into())
        );
        assert_eq!(
            skins_by_name(&d, &["red".into()]),
            Ok(vec!["red".to_string()])
        );
        assert_eq!(skins_by_name(&d, &["default".into()]), Ok(vec![]));
        let e = skins_by_name(&d, &["red".into(), "blue\u{1b}".into()]).unwrap_err();
        assert_eq!((e.kind, e.name.as_str()), (NameKind::Skin, "blue\u{1b}"));
        assert_eq!(
            e.to_string(),
            "no skin \"blue\\e\"; the skins are: default, red"
        );
    }

    #[test]
    fn cycle_names_rank_exact_before_partial() {
        assert_eq!(cycle_rank("walk"), Some((0, 0)));
        assert_eq!(cycle_rank("movement/trot-left"), Some((2, 1)));
        assert_eq!(cycle_rank("Idle"), Some((3, 0)));
        assert_eq!(cycle_rank("idle-turn"), Some((3, 1)));
        assert_eq!(cycle_rank("aim"), None);
        assert_eq!(cycle_rank("runaway"), Some((1, 1)));
    }
}
