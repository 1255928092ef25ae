//! What only Spine 3.8 binary animations have: a key's curve written after its values, as a
//! normalised bezier (the rest of the animation reader is shared: [`super::anim`]).

use super::read::Reader;
use crate::core::curve::{Interp, Keys};
use crate::format::spine_binary::cursor::Read;

/// The curve out of a key: 0 linear, 1 stepped, 2 a normalised bezier (cx1, cy1, cx2, cy2),
/// the same cubic as 3.8 JSON's `curve`.
pub fn curve(r: &mut Reader<'_>, keys: &mut Keys) -> Read<Interp> {
    let at = r.c.offset();
    match r.c.u8("curve type")? {
        0 => Ok(Interp::Linear),
        1 => Ok(Interp::Stepped),
        2 => {
            let cx1 = r.c.f64("curve cx1")?;
            let cy1 = r.c.f64("curve cy1")?;
            let cx2 = r.c.f64("curve cx2")?;
            let cy2 = r.c.f64("curve cy2")?;
            Ok(keys.add_bezier(cx1, cy1, cx2, cy2))
        }
        t => Err(r.c.error_at(at, format!("unknown curve type {t} (0..2)"))),
    }
}
