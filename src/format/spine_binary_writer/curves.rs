//! Curve keys as each version writes them: 3.8 a key's curve after its values as a
//! normalised bezier; 4.x a bezier count up front and each segment's curve after the next
//! key's time and values, one absolute (time, value) bezier per curved channel. Beziers are
//! solved back from the model's sampled tables by the JSON writer's [`control_points`].

use super::WriteError;
use super::out::Out;
use crate::core::curve::{Interp, Keys};
use crate::format::spine_json::SpineVersion;
use crate::format::spine_json_writer::curve::{Kind, control_points};

/// Writes key `i`'s values (of the kind the caller knows) to the buffer.
pub type Values<'a> = &'a mut dyn FnMut(&mut Out, usize) -> Result<(), WriteError>;

/// Curve keys: count, (4.x) bezier count, then per key its time and values and the curve
/// of each segment. `curved` is how many leading channels are curved (`0`: one percent
/// bezier, deform keys); `values` writes those of a key, `discrete` the rest (IK bend,
/// compress, stretch), which 4.x writes after the curve into the key.
pub fn keys(
    o: &mut Out,
    v: SpineVersion,
    k: &Keys,
    curved: usize,
    values: Values<'_>,
    discrete: Values<'_>,
) -> Result<(), WriteError> {
    o.uvarint(k.len());
    if k.is_empty() {
        return Ok(());
    }
    let v38 = v == SpineVersion::V38;
    if !v38 {
        let segments = (0..k.len() - 1)
            .filter(|&i| matches!(k.interp(i), Interp::Bezier4(_)))
            .count();
        o.uvarint(segments * curved.max(1));
    }
    o.f32(k.times()[0]);
    values(o, 0)?;
    discrete(o, 0)?;
    for i in 1..k.len() {
        if v38 {
            curve38(o, k, i - 1)?;
            o.f32(k.times()[i]);
            values(o, i)?;
            discrete(o, i)?;
        } else {
            o.f32(k.times()[i]);
            values(o, i)?;
            curve4(o, k, i - 1, curved)?;
            discrete(o, i)?;
        }
    }
    Ok(())
}

/// No discrete values.
pub fn none(_: &mut Out, _: usize) -> Result<(), WriteError> {
    Ok(())
}

/// The 3.8 curve out of key `i`: 0 linear, 1 stepped, 2 a normalised bezier.
pub fn curve38(o: &mut Out, k: &Keys, i: usize) -> Result<(), WriteError> {
    match k.interp(i) {
        Interp::Linear => o.u8(0),
        Interp::Stepped => o.u8(1),
        Interp::Bezier(b) => {
            o.u8(2);
            let p = control_points(k.bezier(b as usize), Kind::Normalised, 0.0, 0.0, 1.0, 1.0);
            p.into_iter().for_each(|c| o.f32(c));
        }
        other => return Err(unwritable(other, "3.8")),
    }
    Ok(())
}

/// The 4.x curve of the segment from key `i` to `i + 1`: 0 linear, 1 stepped, 2 one bezier
/// per curved channel (`0`: one percent bezier).
pub fn curve4(o: &mut Out, k: &Keys, i: usize, curved: usize) -> Result<(), WriteError> {
    match k.interp(i) {
        Interp::Linear => o.u8(0),
        Interp::Stepped => o.u8(1),
        Interp::Bezier4(b) => {
            o.u8(2);
            for p in bezier4(k, i, b as usize, curved) {
                p.into_iter().for_each(|c| o.f32(c));
            }
        }
        other => return Err(unwritable(other, "4.x")),
    }
    Ok(())
}

/// The control points of the 4.x bezier `b` from key `i`: one set per curved channel, or
/// one percent curve when `curved` is 0.
pub fn bezier4(k: &Keys, i: usize, b: usize, curved: usize) -> Vec<[f32; 4]> {
    let (t1, t2) = (k.time(i), k.time(i + 1));
    if curved == 0 {
        return vec![control_points(k.bezier(b), Kind::Percent, t1, 0.0, t2, 1.0)];
    }
    (0..curved)
        .map(|c| {
            control_points(
                k.bezier(b + c),
                Kind::Absolute,
                t1,
                k.value(i, c),
                t2,
                k.value(i + 1, c),
            )
        })
        .collect()
}

fn unwritable(i: Interp, version: &str) -> WriteError {
    WriteError(format!(
        "a {} curve cannot be written in a Spine {version} binary",
        match i {
            Interp::Bezier(_) => "normalised (3.8) bezier",
            Interp::Bezier4(_) => "4.x bezier",
            Interp::Ease(..) => "DragonBones eased",
            _ => "sampled",
        }
    ))
}
