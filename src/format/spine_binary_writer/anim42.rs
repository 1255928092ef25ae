//! Spine 4.2 timelines: IK keys with a flags byte, inherit keys and physics timelines (the
//! inverse of the reader's `anim42`).

use super::WriteError;
use super::anim::{Groups, floats};
use super::curves::bezier4;
use super::out::Out;
use super::setup::inherit_mode;
use crate::core::animation::*;
use crate::core::curve::Interp;
use crate::format::spine_json::SpineVersion;

/// IK keys: per key a flags byte (bit 0 mix not 0, 1 mix not 1, 2 softness, 3 bend
/// positive, 4 compress, 5 stretch, 6 stepped, 7 bezier: the curve of the segment ending
/// here), the time, the floats, and for a bezier the mix and softness curves.
pub fn ik(o: &mut Out, list: &[(usize, &IkTimeline)]) -> Result<(), WriteError> {
    o.uvarint(list.len());
    for &(constraint, t) in list {
        o.uvarint(constraint);
        let k = &t.keys;
        o.uvarint(k.len());
        let beziers = (0..k.len().saturating_sub(1))
            .filter(|&i| matches!(k.interp(i), Interp::Bezier4(_)))
            .count();
        o.uvarint(beziers * 2);
        for i in 0..k.len() {
            let (mix, softness) = (k.values()[i * 5], k.values()[i * 5 + 1]);
            let bit = |on: bool, n: u8| if on { 1u8 << n } else { 0 };
            let into = if i > 0 { Some(k.interp(i - 1)) } else { None };
            let f = bit(mix != 0.0, 0)
                | bit(mix != 0.0 && mix != 1.0, 1)
                | bit(softness != 0.0, 2)
                | bit(k.value(i, 2) > 0.0, 3)
                | bit(k.value(i, 3) != 0.0, 4)
                | bit(k.value(i, 4) != 0.0, 5)
                | bit(into == Some(Interp::Stepped), 6)
                | bit(matches!(into, Some(Interp::Bezier4(_))), 7);
            o.u8(f);
            o.f32(k.times()[i]);
            if mix != 0.0 && mix != 1.0 {
                o.f32(mix);
            }
            if softness != 0.0 {
                o.f32(softness);
            }
            match into {
                Some(Interp::Bezier4(b)) => {
                    for p in bezier4(k, i - 1, b as usize, 2) {
                        p.into_iter().for_each(|c| o.f32(c));
                    }
                }
                None | Some(Interp::Linear | Interp::Stepped) => {}
                Some(_) => {
                    return Err(WriteError(
                        "an IK key curve that Spine 4.2 cannot hold".into(),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Inherit keys (4.2 bone timeline type 10): per key the time and the mode byte.
pub fn inherit(o: &mut Out, v: SpineVersion, t: &InheritTimeline) -> Result<(), WriteError> {
    if v < SpineVersion::V42 {
        return Err(WriteError("inherit timelines came with Spine 4.2".into()));
    }
    o.u8(10);
    o.uvarint(t.times.len());
    for (&time, &m) in t.times.iter().zip(&t.modes) {
        o.f32(time);
        o.u8(inherit_mode(m, "an inherit key")?);
    }
    Ok(())
}

/// Physics timelines per constraint (index + 1; 0: the global timelines).
pub fn physics(o: &mut Out, groups: &Groups<'_, Option<usize>>) -> Result<(), WriteError> {
    o.uvarint(groups.0.len());
    for (constraint, list) in &groups.0 {
        o.uvarint(constraint.map_or(0, |c| c + 1));
        o.uvarint(list.len());
        for t in list {
            match t {
                Timeline::Physics(t) => {
                    o.u8(match t.property {
                        PhysicsProperty::Inertia => 0,
                        PhysicsProperty::Strength => 1,
                        PhysicsProperty::Damping => 2,
                        PhysicsProperty::Mass => 4,
                        PhysicsProperty::Wind => 5,
                        PhysicsProperty::Gravity => 6,
                        PhysicsProperty::Mix => 7,
                    });
                    floats(o, SpineVersion::V42, &t.keys, 1)?;
                }
                Timeline::PhysicsReset(t) => {
                    o.u8(8);
                    o.uvarint(t.times.len());
                    t.times.iter().for_each(|&x| o.f32(x));
                }
                _ => {}
            }
        }
    }
    Ok(())
}
