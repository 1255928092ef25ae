//! Slot timelines: attachment, color, two-color.

use crate::core::animation::{
    AttachmentTimeline, ColorKind, ColorTimeline, Timeline, TwoColorKind, TwoColorTimeline,
};
use crate::core::color::Color;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim::{AttachmentKey, SlotTimelinesDto};

use super::keys::{FieldError, check_time, curve_keys};
use crate::format::ErrorKind;
use Seg::{Index, Key};

/// A hex color from a key's `field`.
pub(crate) fn hex(hex: &str, field: &'static str) -> Result<Color, FieldError> {
    Color::from_hex(hex).ok_or_else(|| {
        (
            field,
            format!("bad color \"{hex}\" (expected RRGGBBAA or RRGGBB hex)"),
        )
    })
}

/// Whether any skin has an attachment with key `name` for `slot`.
pub fn slot_has_attachment(data: &SkeletonData, slot: usize, name: &str) -> bool {
    data.skins.iter().any(|s| s.get(slot, name).is_some())
}

pub fn slots(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<SlotTimelinesDto>,
    names: &Names<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry(anim, "slots", dtos, |at, name, t| {
        let slot = lookup(ctx, &names.slots, name, "slot", at)?;
        if let Some(keys) = t.attachment.as_deref_mut().filter(|k| !k.is_empty()) {
            let at = join(at, &[Key("attachment")]);
            out.push(attachment(ctx, &at, keys, slot, name, data)?);
        }
        if let Some(keys) = t.color.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, at, Some("color"), keys, |k| {
                let c = hex(&k.color, "color")?;
                Ok([c.r as f32, c.g as f32, c.b as f32, c.a as f32])
            })?;
            out.push(Timeline::Color(ColorTimeline {
                slot,
                kind: ColorKind::Color,
                keys,
            }));
        }
        if let Some(keys) = t.two_color.as_deref().filter(|k| !k.is_empty()) {
            let keys = curve_keys(ctx, at, Some("twoColor"), keys, |k| {
                let l = hex(&k.light, "light")?;
                let d = hex(&k.dark, "dark")?;
                Ok([l.r, l.g, l.b, l.a, d.r, d.g, d.b].map(|v| v as f32))
            })?;
            out.push(Timeline::TwoColor(TwoColorTimeline {
                slot,
                kind: TwoColorKind::TwoColor,
                keys,
            }));
        }
        Ok(())
    })
}

/// The names are taken out of `keys` (the DTOs are dropped after the build).
pub(crate) fn attachment(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &mut [AttachmentKey],
    slot: usize,
    slot_name: &str,
    data: &SkeletonData,
) -> Result<Timeline, LoadError> {
    let mut times = Vec::with_capacity(keys.len());
    let mut names = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter_mut().enumerate() {
        check_time(ctx, at, i, k.time.0, times.last().copied())?;
        if let Some(name) = &k.name
            && !slot_has_attachment(data, slot, name)
        {
            return Err(ctx
                .err(
                    &join(at, &[Index(i), Key("name")]),
                    format!("no skin has an attachment \"{name}\" for slot \"{slot_name}\""),
                )
                .with_kind(ErrorKind::DanglingReference));
        }
        times.push(k.time.0);
        names.push(k.name.take());
    }
    Ok(Timeline::Attachment(AttachmentTimeline::new(
        slot, times, names,
    )))
}
