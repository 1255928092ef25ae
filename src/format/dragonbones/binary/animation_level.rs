//! Animation-level timelines of a `.dbbin`: zOrder (header `zOrder`, the timeline's offset)
//! and actions (header `action`). A zOrder key frame is its position, a count, then that many
//! slot indices in drawing order (count 0: the setup order). An action key frame is its
//! position, a count, then indices into the armature's header `actions` list, whose entries
//! are `{type, name, bone?, slot?, ints?, floats?, strings?}` (type 0 play, 10 event, 11
//! sound; as in JSON, any other type is a sound).

use super::super::dto;
use super::super::lenient::Num;
use super::arrays::Arrays;
use super::timelines::{Key1, duration};
use crate::format::LoadError;

/// Action `type` values.
const PLAY: f64 = 0.0;
const EVENT: f64 = 10.0;

/// A key frame's count and the values after it.
fn listed<'a>(arrays: &'a Arrays, key: &Key1) -> Result<&'a [i16], LoadError> {
    let f = &arrays.frame;
    let n = f.at(key.rest)?;
    let n = usize::try_from(n).map_err(|_| f.err(key.rest, format!("count {n} is negative")))?;
    f.slice(key.rest + 1, n)
}

/// The zOrder key frames, each with its draw order.
pub fn z_order(
    arrays: &Arrays,
    keys: &[Key1],
    slots: usize,
) -> Result<Vec<dto::ZOrderFrame>, LoadError> {
    let f = &arrays.frame;
    let mut out = Vec::with_capacity(keys.len());
    for (j, key) in keys.iter().enumerate() {
        let list = listed(arrays, key)?;
        let mut frame = dto::ZOrderFrame {
            duration: duration(keys, j),
            ..Default::default()
        };
        if !list.is_empty() {
            if list.len() != slots {
                return Err(f.err(
                    key.rest,
                    format!("a zOrder of {} slots for {slots} slots", list.len()),
                ));
            }
            let mut seen = vec![false; slots];
            let mut order = Vec::with_capacity(slots);
            for (i, &s) in list.iter().enumerate() {
                let s = usize::try_from(s).ok().filter(|&s| s < slots);
                let Some(s) = s.filter(|&s| !seen[s]) else {
                    return Err(f.err(
                        key.rest + 1 + i,
                        "zOrder slot index is out of range or repeated",
                    ));
                };
                seen[s] = true;
                order.push(s);
            }
            frame.order = Some(order);
        }
        out.push(frame);
    }
    Ok(out)
}

/// The action key frames as animation-level frames: one per action, the first of a key frame
/// lasting to the next key frame, the others 0 frames.
pub fn actions(
    arrays: &Arrays,
    keys: &[Key1],
    defs: &[dto::BinAction],
) -> Result<Vec<dto::ActionFrame>, LoadError> {
    let f = &arrays.frame;
    let mut out = Vec::with_capacity(keys.len());
    for (j, key) in keys.iter().enumerate() {
        let list = listed(arrays, key)?;
        let mut frames = Vec::with_capacity(list.len().max(1));
        for (i, &a) in list.iter().enumerate() {
            let at = key.rest + 1 + i;
            let def = usize::try_from(a)
                .ok()
                .and_then(|a| defs.get(a))
                .ok_or_else(|| {
                    f.err(
                        at,
                        format!("action {a} is not in the header's {} actions", defs.len()),
                    )
                })?;
            let e = &def.entry;
            let name = e.name.clone().unwrap_or_default();
            let mut fr = dto::ActionFrame {
                duration: Num(Some(0.0)),
                // An event keyed on a slot names the slot (JSON keys it on the slot's frame).
                origin: e
                    .slot
                    .as_deref()
                    .or(e.bone.as_deref())
                    .unwrap_or_default()
                    .to_string(),
                ..Default::default()
            };
            match def.kind.or(EVENT) {
                PLAY => fr.fire.get_or_insert_default().action = Some(dto::ActionField(Some(name))),
                EVENT => fr
                    .fire
                    .get_or_insert_default()
                    .events
                    .push(dto::EventEntry {
                        name: Some(name),
                        bone: None,
                        slot: None,
                        ints: e.ints.clone(),
                        floats: e.floats.clone(),
                        strings: e.strings.clone(),
                    }),
                // 11, and like the JSON reader (and the runtime) every other type: a sound.
                _ => fr.fire.get_or_insert_default().sound = Some(name.into()),
            }
            frames.push(fr);
        }
        if frames.is_empty() {
            frames.push(dto::ActionFrame::default());
        }
        frames[0].duration = duration(keys, j);
        out.extend(frames);
    }
    Ok(out)
}
