//! Discrete timelines: draw order and events.

use crate::core::animation::{DrawOrderTimeline, EventTimeline, Timeline};
use crate::core::model::{Event, SkeletonData};
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::spine_json::SpineVersion;
use crate::format::spine_json::ctx::{Ctx, Names, join, lookup};
use crate::format::spine_json::dto_anim::{DrawOrderOffset, EventKey};

use super::keys::check_time;
use crate::format::ErrorKind;
use Seg::{Index, Key};

/// `drawOrder` (or `draworder`, which `field` names): per key, the whole slot order, or
/// `None` for the setup order.
pub fn draw_order(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    field: &'static str,
    keys: &[crate::format::spine_json::dto_anim::DrawOrderKey],
    names: &Names<'_>,
    slot_count: usize,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    if keys.is_empty() {
        return Ok(());
    }
    let at = join(anim, &[Key(field)]);
    let mut times = Vec::with_capacity(keys.len());
    let mut orders = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        check_time(ctx, &at, i, k.time.0, times.last().copied())?;
        let order = match k.offsets.as_deref() {
            None | Some([]) => None,
            Some(offsets) => {
                let at = join(&at, &[Index(i), Key("offsets")]);
                ctx.spend(slot_count * size_of::<usize>(), &at)?;
                Some(order(ctx, &at, offsets, names, slot_count)?)
            }
        };
        times.push(k.time.0);
        orders.push(order);
    }
    out.push(Timeline::DrawOrder(DrawOrderTimeline { times, orders }));
    Ok(())
}

/// Each listed slot moves to its setup index + offset; the others fill the free places in
/// setup order.
pub(crate) fn order(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    offsets: &[DrawOrderOffset],
    names: &Names<'_>,
    slot_count: usize,
) -> Result<Vec<usize>, LoadError> {
    let mut placed: Vec<Option<usize>> = vec![None; slot_count];
    let mut listed = vec![false; slot_count];
    for (j, o) in offsets.iter().enumerate() {
        let slot_at = join(at, &[Index(j), Key("slot")]);
        let offset_at = join(at, &[Index(j), Key("offset")]);
        let slot = lookup(ctx, &names.slots, &o.slot, "slot", &slot_at)?;
        let name = &o.slot;
        if std::mem::replace(&mut listed[slot], true) {
            return Err(ctx
                .err(&slot_at, format!("slot \"{name}\" is listed twice"))
                .with_kind(ErrorKind::DuplicateName));
        }
        let target = (slot as i64)
            .checked_add(o.offset)
            .filter(|&t| t >= 0 && t < slot_count as i64);
        let Some(target) = target.map(|t| t as usize) else {
            return Err(ctx.err(
                &offset_at,
                format!(
                    "offset {} moves slot \"{name}\" (setup index {slot}) outside the draw order (0..{slot_count})",
                    o.offset
                ),
            ));
        };
        if let Some(other) = placed[target] {
            let other = offsets
                .iter()
                .find(|o| names.slots.get(o.slot.as_str()) == Some(&other));
            return Err(ctx.err(
                &offset_at,
                format!(
                    "offset {} moves slot \"{name}\" to draw order position {target}, already taken by slot \"{}\"",
                    o.offset,
                    other.map_or("?", |o| o.slot.as_str())
                ),
            ));
        }
        placed[target] = Some(slot);
    }
    let mut unlisted = (0..slot_count).filter(|&s| !listed[s]);
    let order: Option<Vec<usize>> = placed
        .into_iter()
        .map(|p| p.or_else(|| unlisted.next()))
        .collect();
    order.ok_or_else(|| {
        ctx.err(
            at,
            "draw order offsets do not form a permutation of the slots",
        )
    })
}

/// Event keys; `int`, `float` and `string` default to the event's definition. 3.8 defaults
/// `volume` / `balance` to the definition too; 4.x reads them only for events with audio and
/// defaults them per key to 1 and 0 (the 4.2 runtime ignores the definition's values there);
/// 4.3.13 defaults both to the definition's volume (pinned by `spec/events-43`).
pub fn events(
    ctx: Ctx<'_>,
    anim: &[Seg<'_>],
    keys: &[EventKey],
    names: &Names<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    if keys.is_empty() {
        return Ok(());
    }
    let at = join(anim, &[Key("events")]);
    let mut times = Vec::with_capacity(keys.len());
    let mut events = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        check_time(ctx, &at, i, k.time.0, times.last().copied())?;
        let name_at = join(&at, &[Index(i), Key("name")]);
        let index = lookup(ctx, &names.events, &k.name, "event", &name_at)?;
        let Some(d) = data.events.get(index) else {
            return Err(ctx
                .err(&name_at, format!("unknown event \"{}\"", k.name))
                .with_kind(ErrorKind::DanglingReference));
        };
        if k.string.is_none() {
            ctx.spend(d.string.len(), &join(&at, &[Index(i)]))?;
        }
        let (volume, balance) = if ctx.version.is_3x() {
            (k.volume.unwrap_or(d.volume), k.balance.unwrap_or(d.balance))
        } else if d.audio.is_some() {
            // 4.3.13 reads an omitted volume and an omitted balance as the definition's volume.
            let (volume, balance) = if ctx.version >= SpineVersion::V43 {
                (d.volume, d.volume)
            } else {
                (1.0, 0.0)
            };
            (k.volume.unwrap_or(volume), k.balance.unwrap_or(balance))
        } else {
            (0.0, 0.0)
        };
        times.push(k.time.0);
        events.push(Event {
            data: index,
            time: k.time.0 as f64,
            int: k.int.unwrap_or(d.int),
            float: k.float.unwrap_or(d.float),
            string: k.string.clone().unwrap_or_else(|| d.string.clone()),
            volume,
            balance,
        });
    }
    out.push(Timeline::Event(EventTimeline { times, events }));
    Ok(())
}
