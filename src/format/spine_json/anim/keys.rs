//! Building [`Keys`] from JSON keys: times in order, curves, values.

use crate::core::curve::Keys;
use crate::format::LoadError;
use crate::format::json::Seg;
use crate::format::spine_json::ctx::{Ctx, join};
use crate::format::spine_json::curve::{CurveKey, interp};

use Seg::{Index, Key};

/// Checks key `i`'s time (at `at[i].time`) against the previous key's: times must be >= 0 and
/// must not decrease.
pub fn check_time(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    i: usize,
    time: f32,
    prev: Option<f32>,
) -> Result<(), LoadError> {
    let problem = if time < 0.0 {
        format!("key time {time} is negative")
    } else if let Some(prev) = prev.filter(|&p| time < p) {
        format!("key time {time} comes before the previous key's time {prev}")
    } else {
        return Ok(());
    };
    Err(ctx.err(&join(at, &[Index(i), Key("time")]), problem))
}

/// A value problem in one key: the field and the message.
pub type FieldError = (&'static str, String);

/// Keys with `N` channels, read from the key list at `at`, or at `at.field` when `field` is
/// given (joined only when something is wrong: the builder walks thousands of lists).
/// `values` gives a key's channels, or the field at fault.
pub fn curve_keys<K: CurveKey, const N: usize>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    field: Option<&'static str>,
    keys: &[K],
    mut values: impl FnMut(&K) -> Result<[f32; N], FieldError>,
) -> Result<Keys, LoadError> {
    let list = |more: &[Seg<'static>]| match field {
        Some(f) => join(at, &[&[Key(f)], more].concat()),
        None => join(at, more),
    };
    // One allocation: the keys and their bezier tables.
    let beziers = keys.iter().filter(|k| k.curve().is_bezier()).count();
    let mut out = Keys::with_capacity(N, keys.len(), beziers);
    let mut prev = None;
    for (i, k) in keys.iter().enumerate() {
        let time = k.time();
        if time < 0.0 || prev.is_some_and(|p| time < p) {
            check_time(ctx, &list(&[]), i, time, prev)?;
        }
        prev = Some(time);
        let v = values(k).map_err(|(field, msg)| ctx.err(&list(&[Index(i), Key(field)]), msg))?;
        let curve = interp(&mut out, k.curve());
        out.push(time, &v, curve);
    }
    Ok(out)
}
