//! IK constraint timelines of a `.dbbin` (header `constraint` map, timeline type 30): each
//! key frame's two frame int values are bendPositive (1 / 0) and the weight x100.

use super::super::dto;
use super::super::lenient::{Flag, Num};
use super::arrays::Arrays;
use super::timelines::{Base, Head, Key1, duration, tween};
use crate::format::LoadError;

/// The IK timeline of constraint `name`.
pub fn ik(
    arrays: &Arrays,
    b: Base,
    head: &Head,
    keys: &[Key1],
    name: &str,
) -> Result<dto::IkTimeline, LoadError> {
    let mut frames = Vec::with_capacity(keys.len());
    for (j, key) in keys.iter().enumerate() {
        let i = j
            .checked_mul(head.values)
            .and_then(|o| o.checked_add(b.frame_int + head.first_value))
            .ok_or_else(|| {
                arrays
                    .frame_int
                    .err(b.frame_int, "IK values index overflows")
            })?;
        let v = arrays.frame_int.slice(i, 2)?;
        frames.push(dto::IkFrame {
            duration: duration(keys, j),
            tween: tween(arrays, key)?,
            bend_positive: Flag(Some(v[0] != 0)),
            weight: Num(Some(v[1] as f64 / 100.0)),
        });
    }
    Ok(dto::IkTimeline {
        name: Some(name.into()),
        scale: head.scale,
        offset: head.offset,
        frame: frames,
    })
}
