//! 4.x slot timelines: attachment, rgba, rgb, alpha, rgba2, rgb2.

use crate::core::animation::{ColorKind, ColorTimeline, Timeline, TwoColorKind, TwoColorTimeline};
use crate::core::color::Color;
use crate::core::curve::Keys;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::anim::slots::{attachment, hex};
use crate::format::spine_json::ctx::{Ctx, Names, lookup_at};
use crate::format::spine_json::dto_anim4::{Color2Key, ColorKey, SlotTimeline, SlotTimelines};

use super::keys::{curve_keys4, list_keys4, plain};
use Seg::Key;

pub fn slots(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<SlotTimelines>,
    names: &Names<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.each_entry_lazy(anim, "slots", dtos, |slot_at, name, timelines| {
        let slot = lookup_at(ctx, &names.slots, name, "slot", slot_at)?;
        for (kind, t) in timelines.0.iter_mut() {
            let at = slot_at.join(&[Key(kind)]);
            let color = |kind, keys| Timeline::Color(ColorTimeline { slot, kind, keys });
            let two = |kind, keys| Timeline::TwoColor(TwoColorTimeline { slot, kind, keys });
            let timeline = match t {
                SlotTimeline::Attachment(keys) => {
                    if keys.is_empty() {
                        continue;
                    }
                    attachment(ctx, &at, keys, slot, name, data)?
                }
                SlotTimeline::Rgba(keys) => color(
                    ColorKind::Rgba,
                    colors(ctx, &at, keys, |c| [c.r, c.g, c.b, c.a])?,
                ),
                SlotTimeline::Rgb(keys) => {
                    color(ColorKind::Rgb, colors(ctx, &at, keys, |c| [c.r, c.g, c.b])?)
                }
                SlotTimeline::Alpha(keys) => {
                    color(ColorKind::Alpha, list_keys4(ctx, &at, keys, 0.0)?)
                }
                SlotTimeline::Rgba2(keys) => two(
                    TwoColorKind::Rgba2,
                    colors2(ctx, &at, keys, |l, d| [l.r, l.g, l.b, l.a, d.r, d.g, d.b])?,
                ),
                SlotTimeline::Rgb2(keys) => two(
                    TwoColorKind::Rgb2,
                    colors2(ctx, &at, keys, |l, d| [l.r, l.g, l.b, d.r, d.g, d.b])?,
                ),
            };
            if timeline.key_times().is_empty() {
                continue;
            }
            out.push(timeline);
        }
        Ok(())
    })
}

/// `rgba` / `rgb` keys: the channels `channels` takes from the key's color.
fn colors<const N: usize>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &[ColorKey],
    channels: fn(Color) -> [f64; N],
) -> Result<Keys, LoadError> {
    curve_keys4(ctx, at, keys, |_, k| {
        Ok(plain(k.time, channels(hex(&k.color, "color")?)))
    })
}

/// `rgba2` / `rgb2` keys: the channels `channels` takes from the light and dark colors.
fn colors2<const N: usize>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &[Color2Key],
    channels: fn(Color, Color) -> [f64; N],
) -> Result<Keys, LoadError> {
    curve_keys4(ctx, at, keys, |_, k| {
        let (l, d) = (hex(&k.light, "light")?, hex(&k.dark, "dark")?);
        Ok(plain(k.time, channels(l, d)))
    })
}
