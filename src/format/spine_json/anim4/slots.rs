//! 4.x slot timelines: attachment, rgba, rgb, alpha, rgba2, rgb2.

use crate::core::animation::{ColorKind, ColorTimeline, Timeline, TwoColorKind, TwoColorTimeline};
use crate::core::color::Color;
use crate::core::model::SkeletonData;
use crate::format::LoadError;
use crate::format::json::{OrderedMap, Seg};
use crate::format::spine_json::anim::keys::FieldError;
use crate::format::spine_json::anim::slots::attachment;
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim4::{SlotTimeline, SlotTimelines};

use super::keys::{curve_keys4, or, plain};
use Seg::{Entry, Key};

/// A hex color from a key's `field`; `rgb` colors must have 6 digits, others 6 or 8.
fn hex(hex: &str, field: &'static str) -> Result<Color, FieldError> {
    Color::from_hex(hex).ok_or_else(|| {
        (
            field,
            format!("bad color \"{hex}\" (expected RRGGBBAA or RRGGBB hex)"),
        )
    })
}

pub fn slots(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    dtos: &mut OrderedMap<SlotTimelines>,
    names: &Names<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    ctx.no_duplicates(dtos, &join(anim, &[Key("slots")]))?;
    for (i, (name, timelines)) in dtos.0.iter_mut().enumerate() {
        let name = name.as_str();
        let slot_at = join(anim, &[Key("slots"), Entry(i, name)]);
        let slot = lookup(ctx, &names.slots, name, "slot", &slot_at)?;
        for (kind, t) in &mut timelines.0 {
            let at = join(&slot_at, &[Key(kind)]);
            let color = |kind, keys| Timeline::Color(ColorTimeline { slot, kind, keys });
            let timeline = match t {
                SlotTimeline::Attachment(keys) => {
                    if keys.is_empty() {
                        continue;
                    }
                    attachment(ctx, &at, keys, slot, name, data)?
                }
                SlotTimeline::Rgba(keys) => {
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| {
                            let c = hex(&k.color, "color")?;
                            Ok(plain(k.time, [c.r, c.g, c.b, c.a]))
                        },
                    )?;
                    color(ColorKind::Rgba, keys)
                }
                SlotTimeline::Rgb(keys) => {
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| {
                            let c = hex(&k.color, "color")?;
                            Ok(plain(k.time, [c.r, c.g, c.b]))
                        },
                    )?;
                    color(ColorKind::Rgb, keys)
                }
                SlotTimeline::Alpha(keys) => {
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| Ok(plain(k.time, [or(k.value, 0.0)])),
                    )?;
                    color(ColorKind::Alpha, keys)
                }
                SlotTimeline::Rgba2(keys) => {
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| {
                            let l = hex(&k.light, "light")?;
                            let d = hex(&k.dark, "dark")?;
                            Ok(plain(k.time, [l.r, l.g, l.b, l.a, d.r, d.g, d.b]))
                        },
                    )?;
                    Timeline::TwoColor(TwoColorTimeline {
                        slot,
                        kind: TwoColorKind::Rgba2,
                        keys,
                    })
                }
                SlotTimeline::Rgb2(keys) => {
                    let keys = curve_keys4(
                        ctx,
                        &at,
                        keys,
                        |k| k.curve.as_ref(),
                        |_, k| {
                            let l = hex(&k.light, "light")?;
                            let d = hex(&k.dark, "dark")?;
                            Ok(plain(k.time, [l.r, l.g, l.b, d.r, d.g, d.b]))
                        },
                    )?;
                    Timeline::TwoColor(TwoColorTimeline {
                        slot,
                        kind: TwoColorKind::Rgb2,
                        keys,
                    })
                }
            };
            if timeline.key_times().is_empty() {
                continue;
            }
            out.push(timeline);
        }
    }
    Ok(())
}
