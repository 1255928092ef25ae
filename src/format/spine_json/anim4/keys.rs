//! Building [`Keys`] from 4.x JSON keys: f32 times and values, one absolute bezier per
//! channel built from the file's own numbers.

use crate::core::curve::{Interp, Keys};
use crate::format::LoadError;
use crate::format::json::{Raw32, Seg};
use crate::format::spine_json::anim::keys::{FieldError, check_time};
use crate::format::spine_json::ctx::{Ctx, join};
use crate::format::spine_json::dto_anim4::{Curve4, Curved4};
use crate::format::spine_json::dto_keys4::{Curve, KeyList4};

use Seg::{Index, Key};

/// A 4.x key as the builder needs it.
pub struct Key4<const N: usize> {
    pub time: Raw32,
    /// The stored values; a bezier out of this key starts at them.
    pub values: [f64; N],
    /// Where a bezier into this key ends: the values, except where a runtime quirk keeps
    /// another stored value (transform `mixShearY`, see the transform builder).
    pub arrive: [f64; N],
}

/// Keys with `N` channels from `keys`; `key` gives each key's time and values (or the field
/// at fault). `key` is called twice per key (it only reads the key): once to check every
/// key in order, then again while building, one key ahead (a bezier into the next key ends
/// at its values). The two passes keep the first error the one a single checking pass finds,
/// without a list of built keys (an allocation per timeline).
pub fn curve_keys4<K: Curved4, const N: usize>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    keys: &[K],
    mut key: impl FnMut(usize, &K) -> Result<Key4<N>, FieldError>,
) -> Result<Keys, LoadError> {
    let mut built = |i: usize, k: &K| {
        key(i, k).map_err(|(field, msg)| ctx.err(&join(at, &[Index(i), Key(field)]), msg))
    };
    let mut prev = None;
    for (i, k) in keys.iter().enumerate() {
        let time = built(i, k)?.time.f32();
        check_time(ctx, at, i, time, prev)?;
        prev = Some(time);
    }
    // One allocation: a bezier out of any key but the last adds a table per channel.
    let curved = keys.iter().rev().skip(1);
    let beziers = curved
        .filter(|k| matches!(k.curve(), Some(Curve4::Bezier(_))))
        .count();
    let mut out = Keys::with_capacity(N, keys.len(), beziers.saturating_mul(N.max(1)));
    let Some(first) = keys.first() else {
        return Ok(out);
    };
    let mut b = built(0, first)?;
    for (i, k) in keys.iter().enumerate() {
        let next = match keys.get(i + 1) {
            Some(n) => Some(built(i + 1, n)?),
            None => None,
        };
        let interp = match (k.curve(), &next) {
            (_, None) => Interp::Stepped,
            (None, Some(_)) => Interp::Linear,
            (Some(Curve4::Stepped), Some(_)) => Interp::Stepped,
            (Some(Curve4::Bezier(numbers)), Some(next)) => {
                let curves = bezier_points::<N>(ctx, at, i, numbers)?;
                out.add_bezier4(b.time.0, &b.values, curves, next.time.0, &next.arrive)
            }
        };
        let stored = b.values.map(|v| v as f32);
        out.push(b.time.f32(), &stored, interp);
        match next {
            Some(n) => b = n,
            None => break,
        }
    }
    Ok(out)
}

/// The `[cx1, cy1, cx2, cy2]` of each of `N` channels, or an error at key `i`'s curve.
pub fn bezier_points<'n, const N: usize>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    i: usize,
    numbers: &'n [f64],
) -> Result<&'n [[f64; 4]], LoadError> {
    let want = 4 * N.max(1);
    if numbers.len() != want {
        return Err(ctx.err(
            &join(at, &[Index(i), Key("curve")]),
            format!(
                "a curve of this timeline has {want} numbers (4 per channel), not {}",
                numbers.len()
            ),
        ));
    }
    Ok(numbers.as_chunks::<4>().0)
}

/// A plain key: `values` stored and arrived at.
pub fn plain<const N: usize>(time: Raw32, values: [f64; N]) -> Key4<N> {
    Key4 {
        time,
        values,
        arrive: values,
    }
}

/// A value or its default.
pub fn or(v: Option<Raw32>, default: f64) -> f64 {
    v.map_or(default, |v| v.0)
}

/// Keys from a compact list of one- or two-value keys (each value `default` when omitted),
/// checked and built as [`curve_keys4`] does: every time first, in order, then the curves of
/// the keys a bezier leaves (all but the last).
pub fn list_keys4<const N: usize>(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    list: &KeyList4<N>,
    default: f64,
) -> Result<Keys, LoadError> {
    if list.disordered() {
        let mut prev = None;
        for (i, k) in list.iter().enumerate() {
            let time = k.time as f32;
            check_time(ctx, at, i, time, prev)?;
            prev = Some(time);
        }
    }
    let mut out = Keys::with_capacity(N, list.len(), list.bezier_keys().saturating_mul(N));
    let mut keys = list.iter().map(|k| {
        let values = k.values.map(|v| if v.is_nan() { default } else { v });
        (k.time, values, k.curve)
    });
    let Some(mut b) = keys.next() else {
        return Ok(out);
    };
    let mut i = 0;
    loop {
        let next = keys.next();
        let (time, values, curve) = b;
        let interp = match (curve, &next) {
            (_, None) => Interp::Stepped,
            (Curve::Linear, Some(_)) => Interp::Linear,
            (Curve::Stepped, Some(_)) => Interp::Stepped,
            (Curve::Bezier(numbers), Some((t2, v2, _))) => {
                let curves = bezier_points::<N>(ctx, at, i, numbers)?;
                out.add_bezier4(time, &values, curves, *t2, v2)
            }
        };
        out.push(time as f32, &values.map(|v| v as f32), interp);
        match next {
            Some(n) => b = n,
            None => break,
        }
        i += 1;
    }
    Ok(out)
}

/// The times of keys without values (checked as [`check_time`] does).
pub fn key_times(
    ctx: Ctx<'_>,
    at: &[Seg<'_>],
    times: impl ExactSizeIterator<Item = f32>,
) -> Result<Vec<f32>, LoadError> {
    let mut out: Vec<f32> = Vec::with_capacity(times.len());
    for (i, time) in times.enumerate() {
        check_time(ctx, at, i, time, out.last().copied())?;
        out.push(time);
    }
    Ok(out)
}
