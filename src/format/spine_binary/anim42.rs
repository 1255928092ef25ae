//! Spine 4.2 timelines: IK keys with a flags byte, inherit keys and physics timelines.

use super::anim::{curve_keys, time};
use super::read::Reader;
use crate::core::animation::*;
use crate::core::curve::{Interp, Keys};
use crate::core::model::{ConstraintRef, Inherit, SkeletonData};
use crate::format::spine_binary::cursor::Read;

/// IK keys: per key a flags byte (bit 0 mix not 0, 1 mix not 1: a float follows when 0 is
/// set too, 2 softness follows, 3 bend positive, 4 compress, 5 stretch, 6 stepped and 7
/// bezier: the curve of the segment that ends at this key), the time, the floats, and for a
/// bezier two curves (mix, softness) in absolute units.
pub fn ik(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "IK timeline count")?;
    for i in 0..n {
        r.c.enter("IK timeline", Some(i), None);
        let constraint = r.constraint(
            data.ik_constraints.len(),
            super::anim::ik_index,
            "IK constraint index",
        )?;
        // flags + time.
        let count = r.c.count(5, "key count")?;
        let at = r.c.offset();
        let beziers = r.c.uvarint("bezier count")?;
        if beziers > count.saturating_mul(2) {
            return Err(r.c.error_at(
                at,
                format!("{beziers} beziers for {count} keys of 2 curved channels"),
            ));
        }
        // Each bezier takes 16 bytes of the file: reserve no more than could follow.
        let mut keys = Keys::with_capacity(5, count, beziers.min(r.c.remaining() / 16));
        let mut prev: Option<(f32, [f32; 5])> = None;
        r.c.enter("key", Some(0), None);
        for k in 0..count {
            r.c.set_index(k);
            let at = r.c.offset();
            let f = r.c.u8("flags")?;
            let t = time(r, prev.map(|p| p.0))?;
            let bit = |n: u8| f & (1 << n) != 0;
            let mix = match (bit(0), bit(1)) {
                (false, _) => 0.0,
                (true, false) => 1.0,
                (true, true) => r.c.f32("mix")?,
            };
            let softness = if bit(2) { r.c.f32("softness")? } else { 0.0 };
            let v = [
                mix,
                softness,
                if bit(3) { 1.0 } else { -1.0 },
                if bit(4) { 1.0 } else { 0.0 },
                if bit(5) { 1.0 } else { 0.0 },
            ];
            if let Some((t0, v0)) = prev {
                let interp = match (bit(6), bit(7)) {
                    (false, false) => Interp::Linear,
                    (true, false) => Interp::Stepped,
                    (false, true) => {
                        let mut curves = [[0.0; 4]; 2];
                        for c in &mut curves {
                            for x in c.iter_mut() {
                                *x = r.c.f64("curve control point")?;
                            }
                        }
                        let f = |v: &[f32; 5]| [v[0] as f64, v[1] as f64];
                        keys.add_bezier4(t0 as f64, &f(&v0), &curves, t as f64, &f(&v))
                    }
                    (true, true) => {
                        return Err(r
                            .c
                            .error_at(at, format!("key flags {f:#04x}: stepped and bezier")));
                    }
                };
                keys.push(t0, &v0, interp);
            }
            prev = Some((t, v));
        }
        if let Some((t, v)) = prev {
            keys.push(t, &v, Interp::Stepped);
        }
        r.c.leave();
        if !keys.is_empty() {
            out.push(Timeline::Ik(IkTimeline { constraint, keys }));
        }
        r.c.leave();
    }
    Ok(())
}

/// Inherit keys of a bone: per key the time and the mode (a byte, 0 normal ..
/// 4 noScaleOrReflection).
pub fn inherit(r: &mut Reader<'_>, bone: usize) -> Read<Option<Timeline>> {
    let n = r.c.count(5, "key count")?;
    let mut times = Vec::with_capacity(n);
    let mut modes = Vec::with_capacity(n);
    r.c.enter("key", Some(0), None);
    for k in 0..n {
        r.c.set_index(k);
        times.push(time(r, times.last().copied())?);
        let at = r.c.offset();
        modes.push(match r.c.u8("inherit mode")? {
            0 => Inherit::Normal,
            1 => Inherit::OnlyTranslation,
            2 => Inherit::NoRotationOrReflection,
            3 => Inherit::NoScale,
            4 => Inherit::NoScaleOrReflection,
            m => return Err(r.c.error_at(at, format!("unknown inherit mode {m} (0..4)"))),
        });
    }
    r.c.leave();
    Ok((n > 0).then_some(Timeline::Inherit(InheritTimeline { bone, times, modes })))
}

/// Physics timelines: per constraint (index + 1; 0 is the global timelines) its timelines,
/// each a type (0 inertia, 1 strength, 2 damping, 4 mass, 5 wind, 6 gravity, 7 mix, 8 reset)
/// and keys: one curved value, or for resets only times.
pub fn physics(r: &mut Reader<'_>, data: &SkeletonData, out: &mut Vec<Timeline>) -> Read<()> {
    let n = r.c.count(2, "physics timeline count")?;
    for i in 0..n {
        r.c.enter("physics timeline", Some(i), None);
        let at = r.c.offset();
        let index = r.c.uvarint("physics constraint index")?;
        let constraint = match index {
            0 => None,
            // 4.3: an index into the one constraint list (+ 1).
            i if r.version.one_constraint_list() => match r.constraints.get(i - 1) {
                Some(&ConstraintRef::Physics(p)) => Some(p),
                _ => {
                    return Err(r.c.error_at(
                        at,
                        format!("physics constraint index {i} names no physics constraint"),
                    ));
                }
            },
            i if i <= data.physics_constraints.len() => Some(i - 1),
            i => {
                return Err(r.c.error_at(
                    at,
                    format!(
                        "physics constraint index {i} is out of range (1..={}, or 0 for all)",
                        data.physics_constraints.len()
                    ),
                ));
            }
        };
        let count = r.c.count(2, "timeline count")?;
        for _ in 0..count {
            let at = r.c.offset();
            let t = r.c.u8("timeline type")?;
            let property = match t {
                0 => PhysicsProperty::Inertia,
                1 => PhysicsProperty::Strength,
                2 => PhysicsProperty::Damping,
                4 => PhysicsProperty::Mass,
                5 => PhysicsProperty::Wind,
                6 => PhysicsProperty::Gravity,
                7 => PhysicsProperty::Mix,
                8 => {
                    let n = r.c.count(4, "key count")?;
                    let mut times = Vec::with_capacity(n);
                    r.c.enter("key", Some(0), None);
                    for k in 0..n {
                        r.c.set_index(k);
                        times.push(time(r, times.last().copied())?);
                    }
                    r.c.leave();
                    if !times.is_empty() {
                        out.push(Timeline::PhysicsReset(PhysicsResetTimeline {
                            constraint,
                            times,
                        }));
                    }
                    continue;
                }
                t => {
                    return Err(r.c.error_at(
                        at,
                        format!(
                            "unknown physics timeline type {t} (0..2, 4..8; 3 is not established)"
                        ),
                    ));
                }
            };
            let keys = curve_keys(r, 4, 1, |r| Ok([r.c.f32("value")?]))?;
            if !keys.is_empty() {
                out.push(Timeline::Physics(PhysicsTimeline {
                    constraint,
                    property,
                    keys,
                }));
            }
        }
        r.c.leave();
    }
    Ok(())
}
