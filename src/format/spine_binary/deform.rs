//! Deform, draw order and event timelines.

use super::anim::{curve, last_interp, time};
use super::anim38;
use super::read::{Reader, Version};
use crate::core::animation::*;
use crate::core::curve::Keys;
use crate::core::model::{Event, SkeletonData};
use crate::format::ErrorKind;
use crate::format::spine_binary::cursor::Read;

/// `skin -> slot -> attachment key -> keys`; each key holds a run of vertex values
/// (`start`, `end`) that replaces zeros, added to the setup vertices when unweighted.
pub fn attachments(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let skins = r.c.count(2, "deform skin count")?;
    for _ in 0..skins {
        let skin = r.c.index(data.skins.len(), "skin index")?;
        r.c.enter("deform skin", None, Some(&data.skins[skin].name));
        let slots = r.c.count(2, "slot count")?;
        for _ in 0..slots {
            let slot = r.c.index(data.slots.len(), "slot index")?;
            r.c.enter("slot", None, Some(&data.slots[slot].name));
            let count = r.c.count(2, "timeline count")?;
            for _ in 0..count {
                let at = r.c.offset();
                let key = r
                    .string_ref("attachment key")?
                    .ok_or_else(|| r.c.error_at(at, "attachment key is missing (null string)"))?;
                let Some(attachment) = data.skins[skin].get(slot, key) else {
                    return Err(r.c.error_at(
                        at,
                        format!(
                            "skin \"{}\" has no attachment \"{key}\" for slot \"{}\"",
                            data.skins[skin].name, data.slots[slot].name
                        ),
                    ));
                };
                r.c.enter(
                    if r.version.sequences() {
                        "attachment timeline"
                    } else {
                        "deform timeline"
                    },
                    None,
                    Some(key),
                );
                let target = Target {
                    slot,
                    attachment,
                    at,
                };
                // 4.1 added a type byte: 0 deform, 1 sequence (3.8 and 4.0: deform only).
                let at = r.c.offset();
                let kind = if r.version.sequences() {
                    r.c.u8("timeline type")?
                } else {
                    0
                };
                let timeline = match kind {
                    0 => deform(r, data, target)?,
                    1 => sequence(r, data, target)?,
                    t => {
                        return Err(r
                            .c
                            .error_at(at, format!("unknown attachment timeline type {t} (0..1)")));
                    }
                };
                out.extend(timeline);
                r.c.leave();
            }
            r.c.leave();
        }
        r.c.leave();
    }
    Ok(())
}

/// The attachment an attachment timeline animates, and the offset of its key (for errors).
#[derive(Clone, Copy)]
struct Target {
    slot: usize,
    attachment: usize,
    at: usize,
}

fn deform(r: &mut Reader<'_>, data: &SkeletonData, target: Target) -> Read<Option<Timeline>> {
    let Target {
        slot,
        attachment,
        at,
    } = target;
    let att = &data.attachments[attachment];
    let Some(vd) = att.vertex_data() else {
        return Err(r.c.error_at(
            at,
            format!(
                "deform keys need a mesh, path, bounding box or clipping attachment, not a {}",
                att.type_name()
            ),
        ));
    };
    // Weighted: an offset per influence (x, y); plain: absolute positions per vertex.
    let (len, setup) = match vd.bones {
        Some(_) => (vd.vertices.len() / 3 * 2, None),
        None => (vd.world_len, Some(vd.vertices.as_slice())),
    };
    // time (4) + end (1).
    let n = r.c.count(5, "key count")?;
    if !r.version.curve_after_key() {
        let at_b = r.c.offset();
        let beziers = r.c.uvarint("bezier count")?;
        if beziers > n {
            return Err(r
                .c
                .error_at(at_b, format!("{beziers} beziers for {n} keys")));
        }
    }
    let mut keys = Keys::new(0);
    let mut vertices = Vec::with_capacity(n);
    if n == 0 {
        return Ok(None);
    }
    r.c.enter("key", Some(0), None);
    let mut t = time(r, None)?;
    for i in 0..n {
        r.c.set_index(i);
        r.spend(len * 4)?;
        let mut v = match setup {
            Some(s) => s.to_vec(),
            None => vec![0.0; len],
        };
        let at = r.c.offset();
        let end = r.c.uvarint("end")?;
        if end > 0 {
            let start = r.c.uvarint("start")?;
            let stop = start.checked_add(end).filter(|&e| e <= len).ok_or_else(|| {
                r.c.error_at(
                    at,
                    format!(
                        "{end} values at offset {start} run past the end of the attachment's {len} deform values"
                    ),
                )
            })?;
            r.c.check_fits(at, end, 4, "deform value count")?;
            for slot in &mut v[start..stop] {
                let at = r.c.offset();
                let d = r.c.f32("deform value")?;
                // Added in f64 and rounded once, like the JSON loader.
                let sum = (d as f64 + *slot as f64) as f32;
                if !sum.is_finite() {
                    return Err(r.c.error_at(at, format!("deform value {d} overflows")));
                }
                *slot = sum;
            }
        }
        vertices.push(v);
        if i + 1 == n {
            keys.push(t, &[], last_interp(r));
            break;
        }
        let (t2, interp) = if r.version.curve_after_key() {
            let interp = anim38::curve(r, &mut keys)?;
            r.c.set_index(i + 1);
            (time(r, Some(t))?, interp)
        } else {
            let t2 = time(r, Some(t))?;
            (t2, curve(r, &mut keys, t, &[], t2, &[])?)
        };
        keys.push(t, &[], interp);
        t = t2;
    }
    r.c.leave();
    Ok((n > 0).then_some(Timeline::Deform(DeformTimeline {
        slot,
        attachment,
        keys,
        vertices,
    })))
}

/// Per key: the slots that move, each with its offset from its setup index; the others fill
/// the free places in setup order.
pub fn draw_order(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(5, "draw order key count")?;
    if n == 0 {
        return Ok(());
    }
    let slot_count = data.slots.len();
    let mut times = Vec::with_capacity(n);
    let mut orders = Vec::with_capacity(n);
    r.c.enter("draw order key", Some(0), None);
    for i in 0..n {
        r.c.set_index(i);
        times.push(time(r, times.last().copied())?);
        orders.push(keyed_order(r, slot_count, &|i| data.slots[i].name.clone())?);
    }
    r.c.leave();
    out.push(Timeline::DrawOrder(DrawOrderTimeline { times, orders }));
    Ok(())
}

/// One draw order key's offsets over `slot_count` places (`vi+ k`, per moved slot its
/// index and offset): the keyed order, or `None` (no offsets: the setup order).
fn keyed_order(
    r: &mut Reader<'_>,
    slot_count: usize,
    name_of: &dyn Fn(usize) -> String,
) -> Read<Option<Vec<usize>>> {
    let offsets = r.c.count(2, "offset count")?;
    if offsets == 0 {
        return Ok(None);
    }
    r.spend(slot_count * size_of::<usize>() * 2)?;
    let mut placed: Vec<Option<usize>> = vec![None; slot_count];
    let mut listed = vec![false; slot_count];
    for _ in 0..offsets {
        let at = r.c.offset();
        let slot = r.c.index(slot_count, "slot index")?;
        let offset = r.c.varint(true, "offset")?;
        if std::mem::replace(&mut listed[slot], true) {
            return Err(r
                .c
                .error_at(at, format!("slot \"{}\" is listed twice", name_of(slot)))
                .with_kind(ErrorKind::DuplicateName));
        }
        let target = (slot as i64 + offset as i64)
            .try_into()
            .ok()
            .filter(|&t: &usize| t < slot_count);
        let Some(target) = target else {
            return Err(r.c.error_at(
                at,
                format!(
                    "offset {offset} moves slot \"{}\" (setup index {slot}) outside the draw order (0..{slot_count})",
                    name_of(slot)
                ),
            ));
        };
        if placed[target].replace(slot).is_some() {
            return Err(r.c.error_at(
                at,
                format!(
                    "offset {offset} moves slot \"{}\" to draw order position {target}, already taken",
                    name_of(slot)
                ),
            ));
        }
    }
    let mut unlisted = (0..slot_count).filter(|&s| !listed[s]);
    let order: Option<Vec<usize>> = placed
        .into_iter()
        .map(|p| p.or_else(|| unlisted.next()))
        .collect();
    let order = order.ok_or_else(|| {
        r.c.error("draw order offsets do not form a permutation of the slots")
    })?;
    Ok(Some(order))
}

/// 4.3 draw order folder timelines: per timeline `vi+ k` folder slots, `vi+ frames`, per
/// frame `f time` and the offsets of the folder's slots by their position in the folder.
pub fn draw_order_folders(
    r: &mut Reader<'_>,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Read<()> {
    let n = r.c.count(2, "draw order folder timeline count")?;
    for i in 0..n {
        r.c.enter("draw order folder timeline", Some(i), None);
        let k = r.c.count(1, "folder slot count")?;
        let mut slots = Vec::with_capacity(k);
        for _ in 0..k {
            let at = r.c.offset();
            let s = r.c.index(data.slots.len(), "slot index")?;
            if slots.contains(&s) {
                return Err(r
                    .c
                    .error_at(
                        at,
                        format!("slot \"{}\" is listed twice", data.slots[s].name),
                    )
                    .with_kind(ErrorKind::DuplicateName));
            }
            slots.push(s);
        }
        let frames = r.c.count(5, "key count")?;
        let mut times = Vec::with_capacity(frames);
        let mut orders = Vec::with_capacity(frames);
        for _ in 0..frames {
            times.push(time(r, times.last().copied())?);
            let within = keyed_order(r, k, &|j| data.slots[slots[j]].name.clone())?;
            orders.push(within.map(|w| w.into_iter().map(|j| slots[j]).collect()));
        }
        out.push(Timeline::DrawOrderFolder(DrawOrderFolderTimeline {
            slots,
            times,
            orders,
        }));
        r.c.leave();
    }
    Ok(())
}

/// Event keys: time, event index, int, float, an optional string (else the definition's),
/// and volume and balance when the event has audio.
pub fn events(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(4 + 1 + 1 + 4 + 1, "event key count")?;
    if n == 0 {
        return Ok(());
    }
    let mut times = Vec::with_capacity(n);
    let mut events = Vec::with_capacity(n);
    r.c.enter("event key", Some(0), None);
    for i in 0..n {
        r.c.set_index(i);
        let t = time(r, times.last().copied())?;
        let index = r.c.index(data.events.len(), "event index")?;
        let d = &data.events[index];
        let int = r.c.varint(false, "int")?;
        let float = r.c.f64("float")?;
        // 3.8-4.1: a flag, then the string; 4.2: the string, null for the definition's
        // (established with the official 4.2 reader).
        let own = if r.version >= Version::V42 {
            r.c.string("string")?
        } else if r.c.bool("has string flag")? {
            Some(r.c.string("string")?.unwrap_or_default())
        } else {
            None
        };
        let string = match own {
            Some(s) => s,
            None => {
                r.spend(d.string.len())?;
                d.string.clone()
            }
        };
        let (volume, balance) = if d.audio.is_some() {
            (r.c.f64("volume")?, r.c.f64("balance")?)
        } else {
            (d.volume, d.balance)
        };
        times.push(t);
        events.push(Event {
            data: index,
            time: t as f64,
            int,
            float,
            string,
            volume,
            balance,
        });
    }
    r.c.leave();
    out.push(Timeline::Event(EventTimeline { times, events }));
    Ok(())
}

/// 4.1+ image sequence keys: per key its time, an int holding the mode (low 4 bits) and the
/// start index (the rest), and the delay.
fn sequence(r: &mut Reader<'_>, data: &SkeletonData, target: Target) -> Read<Option<Timeline>> {
    let Target {
        slot,
        attachment,
        at,
    } = target;
    if data.attachments[attachment].sequence.is_none() {
        return Err(r
            .c
            .error_at(at, "sequence keys need an attachment with a sequence"));
    }
    let n = r.c.count(12, "key count")?;
    let mut times = Vec::with_capacity(n);
    let mut keys = Vec::with_capacity(n);
    r.c.enter("key", Some(0), None);
    for i in 0..n {
        r.c.set_index(i);
        times.push(time(r, times.last().copied())?);
        let at = r.c.offset();
        let mode_and_index = r.c.i32("mode and index")?;
        let mode = SequenceMode::ALL
            .get((mode_and_index & 0xf) as usize)
            .copied()
            .ok_or_else(|| {
                r.c.error_at(
                    at,
                    format!("unknown sequence mode {} (0..6)", mode_and_index & 0xf),
                )
            })?;
        let delay = r.c.f32("delay")?;
        keys.push(SequenceKey {
            mode,
            index: mode_and_index >> 4,
            delay,
        });
    }
    r.c.leave();
    Ok((n > 0).then_some(Timeline::Sequence(SequenceTimeline {
        slot,
        attachment,
        times,
        keys,
    })))
}
