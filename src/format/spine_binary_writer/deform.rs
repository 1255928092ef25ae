//! Attachment timelines (deform; 4.1+ also sequence), draw order and event timelines.

use super::curves::keys;
use super::out::{Out, Strings};
use super::{Ctx, WriteError};
use crate::core::animation::*;
use crate::core::model::SkeletonData;
use crate::format::spine_json::SpineVersion;

/// One skin's attachment timelines: per slot, (attachment key, timeline).
type SlotTimelines<'a> = Vec<(usize, Vec<(&'a str, &'a Timeline)>)>;

/// `skin -> slot -> attachment key -> timeline`; 4.1+ with a type byte (0 deform,
/// 1 sequence).
pub fn attachments(
    o: &mut Out,
    s: &mut Strings,
    cx: &Ctx<'_>,
    list: &[&Timeline],
) -> Result<(), WriteError> {
    let mut skins: Vec<(usize, SlotTimelines<'_>)> = Vec::new();
    for &t in list {
        let (slot, attachment) = match t {
            Timeline::Deform(d) => (d.slot, d.attachment),
            Timeline::Sequence(q) => (q.slot, q.attachment),
            _ => continue,
        };
        let (skin, own, key) = cx
            .places
            .get(&attachment)
            .ok_or_else(|| WriteError("keys of an attachment that no skin holds".into()))?;
        // 4.3: the copy the loader made for a slot whose linked mesh follows this mesh; the
        // file says so once, by the mesh's timeline slots.
        if cx.v >= SpineVersion::V43
            && slot != *own
            && super::attachment42::follower_slots(cx, attachment).contains(&slot)
        {
            continue;
        }
        let skin = cx.skin_pos[*skin];
        let i = match skins.iter().position(|(s, _)| *s == skin) {
            Some(i) => i,
            None => {
                skins.push((skin, Vec::new()));
                skins.len() - 1
            }
        };
        let slots = &mut skins[i].1;
        let j = match slots.iter().position(|(s, _)| *s == slot) {
            Some(j) => j,
            None => {
                slots.push((slot, Vec::new()));
                slots.len() - 1
            }
        };
        slots[j].1.push((key.as_str(), t));
    }
    o.uvarint(skins.len());
    for (skin, slots) in skins {
        o.uvarint(skin);
        o.uvarint(slots.len());
        for (slot, timelines) in slots {
            o.uvarint(slot);
            o.uvarint(timelines.len());
            for (key, t) in timelines {
                s.write(o, Some(key));
                match t {
                    Timeline::Deform(d) => {
                        if cx.v >= SpineVersion::V41 {
                            o.u8(0);
                        }
                        deform(o, cx, d)?;
                    }
                    Timeline::Sequence(q) => {
                        if cx.v < SpineVersion::V41 {
                            return Err(WriteError(
                                "sequence timelines came with Spine 4.1".into(),
                            ));
                        }
                        o.u8(1);
                        sequence(o, q);
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// Deform keys: per key the run of values that differ from the setup vertices (plain) or
/// from zero (weighted offsets): its length, start and values (length 0: the setup).
fn deform(o: &mut Out, cx: &Ctx<'_>, t: &DeformTimeline) -> Result<(), WriteError> {
    let vd = cx.d.attachments[t.attachment]
        .vertex_data()
        .ok_or_else(|| WriteError("deform keys of an attachment without vertices".into()))?;
    let setup = vd.bones.is_none().then_some(vd.vertices.as_slice());
    let offsets: Vec<Vec<f32>> = t
        .vertices
        .iter()
        .map(|verts| match setup {
            // The reader adds the offset to the setup value in f64 and rounds once.
            Some(s) => verts
                .iter()
                .zip(s)
                .map(|(&x, &s)| (x as f64 - s as f64) as f32)
                .collect(),
            None => verts.clone(),
        })
        .collect();
    keys(o, cx.v, &t.keys, 0, &mut |_, _| Ok(()), &mut |o, i| {
        let run = &offsets[i];
        match run.iter().position(|&x| x != 0.0) {
            None => o.uvarint(0),
            Some(start) => {
                let end = run.iter().rposition(|&x| x != 0.0).map_or(start, |e| e + 1);
                o.uvarint(end - start);
                o.uvarint(start);
                run[start..end].iter().for_each(|&x| o.f32(x));
            }
        }
        Ok(())
    })
}

/// Sequence keys: per key the time, the mode (low 4 bits) and start index (above) as an
/// int, and the delay.
fn sequence(o: &mut Out, t: &SequenceTimeline) {
    o.uvarint(t.times.len());
    for (&time, k) in t.times.iter().zip(&t.keys) {
        o.f32(time);
        let mode = SequenceMode::ALL
            .iter()
            .position(|&m| m == k.mode)
            .unwrap_or(0) as i32;
        o.i32((k.index << 4) | mode);
        o.f32(k.delay);
    }
}

/// Draw order keys: per key the slots that move, in slot order, each with its offset from
/// its setup index (the others keep their relative order).
pub fn draw_order(o: &mut Out, t: Option<&DrawOrderTimeline>) {
    let Some(t) = t else {
        o.uvarint(0);
        return;
    };
    o.uvarint(t.times.len());
    for (&time, order) in t.times.iter().zip(&t.orders) {
        o.f32(time);
        moved(o, order.as_deref());
    }
}

/// 4.3 draw order folder timelines: the folder's slots, then per key its time and the
/// offsets of the moved slots by their position in the folder.
pub fn draw_order_folders(
    o: &mut Out,
    list: &[&DrawOrderFolderTimeline],
) -> Result<(), WriteError> {
    o.uvarint(list.len());
    for t in list {
        o.uvarint(t.slots.len());
        t.slots.iter().for_each(|&s| o.uvarint(s));
        o.uvarint(t.times.len());
        for (&time, order) in t.times.iter().zip(&t.orders) {
            o.f32(time);
            let within = order.as_ref().map(|order| {
                order
                    .iter()
                    .map(|s| t.slots.iter().position(|x| x == s))
                    .collect::<Option<Vec<usize>>>()
                    .filter(|w| w.len() == t.slots.len())
                    .ok_or_else(|| {
                        WriteError("a draw order folder key orders slots outside its folder".into())
                    })
            });
            moved(o, within.transpose()?.as_deref());
        }
    }
    Ok(())
}

/// Event keys: time, event index, int, float, the string when it differs from the
/// definition's (4.2: a string or null; earlier: a flag, then the string), and volume and
/// balance for events with audio.
pub fn events(o: &mut Out, d: &SkeletonData, v: SpineVersion, t: Option<&EventTimeline>) {
    let Some(t) = t else {
        o.uvarint(0);
        return;
    };
    o.uvarint(t.events.len());
    for (&time, e) in t.times.iter().zip(&t.events) {
        let def = &d.events[e.data];
        o.f32(time);
        o.uvarint(e.data);
        o.zigzag(e.int);
        o.f64(e.float);
        let own = e.string != def.string;
        // 4.2: the string, null for the definition's; before: a flag, then the string.
        if v >= SpineVersion::V42 {
            o.string(own.then_some(e.string.as_str()));
        } else {
            o.bool(own);
            if own {
                o.str(&e.string);
            }
        }
        if def.audio.is_some() {
            o.f64(e.volume);
            o.f64(e.balance);
        }
    }
}

/// The entries of `order` (position -> index) that moved: their count, then by index each
/// index and its offset to its position (none for a key without an order).
fn moved(o: &mut Out, order: Option<&[usize]>) {
    let order = order.unwrap_or_default();
    let mut moved: Vec<(usize, i32)> = order
        .iter()
        .enumerate()
        .filter(|&(p, &s)| p != s)
        .map(|(p, &s)| (s, p as i32 - s as i32))
        .collect();
    moved.sort_unstable();
    o.uvarint(moved.len());
    for (index, offset) in moved {
        o.uvarint(index);
        o.varint(offset);
    }
}
