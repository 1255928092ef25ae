//! Spine 4.3 animation sections: slider timelines and draw-order folders.

use foldhash::{HashMap, HashMapExt};

use crate::core::animation::{DrawOrderFolderTimeline, SliderProperty, SliderTimeline, Timeline};
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::SpineVersion;
use crate::format::spine_json::anim::discrete::order;
use crate::format::spine_json::anim::keys::check_time;
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup, lookup_at};
use crate::format::spine_json::dto_anim4::{AnimationDto, DrawOrderFolder, SliderTimelines};

use super::keys::list_keys4;
use crate::format::ErrorKind;
use Seg::{Index, Key};

/// The 4.3 sections are errors in older files.
pub fn check_keys(ctx: Ctx<'_>, anim: &[Seg<'_>], a: &AnimationDto) -> Result<(), LoadError> {
    if ctx.version >= SpineVersion::V43 {
        return Ok(());
    }
    for (key, present) in [
        ("slider", a.slider.is_some()),
        ("drawOrderFolder", a.draw_order_folder.is_some()),
        ("color", a.color.is_some()),
    ] {
        if present {
            return Err(ctx.err(
                &join(anim, &[Key(key)]),
                format!("\"{key}\" is new in Spine 4.3"),
            ));
        }
    }
    Ok(())
}

/// Slider keys: `time` and `mix` (one channel each, value default 1).
pub fn sliders(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<SliderTimelines>,
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry_lazy(anim, "slider", dtos, |c_at, name, t| {
        let constraint = lookup_at(ctx, &names.slider, name, "slider", c_at)?;
        for (kind, keys, property) in [
            ("time", &t.time, SliderProperty::Time),
            ("mix", &t.mix, SliderProperty::Mix),
        ] {
            let Some(keys) = keys else {
                continue;
            };
            let at = c_at.join(&[Key(kind)]);
            let keys = list_keys4(ctx, &at, keys, 1.0)?;
            if !keys.is_empty() {
                out.push(Timeline::Slider(SliderTimeline {
                    constraint,
                    property,
                    keys,
                }));
            }
        }
        Ok(())
    })
}

/// Draw-order folders: per folder its slots and keys whose offsets are positions within the
/// folder.
pub fn draw_order_folders(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    folders: &[DrawOrderFolder],
    names: &Names<'_>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    for (f, folder) in folders.iter().enumerate() {
        let at = join(anim, &[Key("drawOrderFolder"), Index(f)]);
        let mut slots = Vec::with_capacity(folder.slots.len());
        let mut local: HashMap<&str, usize> = HashMap::with_capacity(folder.slots.len());
        for (j, name) in folder.slots.iter().enumerate() {
            let slot_at = join(&at, &[Key("slots"), Index(j)]);
            let slot = lookup(ctx, &names.slots, name, "slot", &slot_at)?;
            if local.insert(name.as_str(), j).is_some() {
                return Err(ctx
                    .err(&slot_at, format!("slot \"{name}\" is listed twice"))
                    .with_kind(ErrorKind::DuplicateName));
            }
            slots.push(slot);
        }
        if folder.keys.is_empty() {
            continue;
        }
        let folder_names = Names {
            slots: local,
            ..Names::default()
        };
        let mut times = Vec::with_capacity(folder.keys.len());
        let mut orders = Vec::with_capacity(folder.keys.len());
        for (i, k) in folder.keys.iter().enumerate() {
            let keys_at = join(&at, &[Key("keys")]);
            check_time(ctx, &keys_at, i, k.time.0, times.last().copied())?;
            let keyed = match k.offsets.as_deref() {
                None | Some([]) => None,
                Some(offsets) => {
                    let o_at = join(&keys_at, &[Index(i), Key("offsets")]);
                    for (j, o) in offsets.iter().enumerate() {
                        if !folder_names.slots.contains_key(o.slot.as_str()) {
                            return Err(ctx.err(
                                &join(&o_at, &[Index(j), Key("slot")]),
                                format!("slot \"{}\" is not in this draw order folder", o.slot),
                            ));
                        }
                    }
                    ctx.spend(slots.len() * size_of::<usize>(), &o_at)?;
                    let within = order(ctx, &o_at, offsets, &folder_names, slots.len())?;
                    Some(within.into_iter().map(|j| slots[j]).collect())
                }
            };
            times.push(k.time.0);
            orders.push(keyed);
        }
        out.push(Timeline::DrawOrderFolder(DrawOrderFolderTimeline {
            slots,
            times,
            orders,
        }));
    }
    Ok(())
}
