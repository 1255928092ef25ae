//! Warnings about a curve that MRTK loads anyway: undefined wrap or weighted modes,
//! non-finite numbers, keys out of order or at the same time.

use super::model::CurveKind;
use crate::core::unity_curve::{UnityKey, WrapMode};

/// Where a curve's fields are, for warning offsets.
pub(super) struct CurveSite<'a> {
    pub path: &'a str,
    pub kind: CurveKind,
    /// Offset of the pre-wrap field.
    pub offset: u64,
    /// Bytes per key (28 for a full 1.0 float key, else 8).
    pub key_size: u64,
}

/// Appends `(offset, "<kind>: <path>: <detail>")` for each odd thing in the curve as read
/// (keys in file order).
pub(super) fn lint_curve(
    site: &CurveSite<'_>,
    wraps: [i32; 2],
    keys: &[UnityKey],
    warnings: &mut Vec<(u64, String)>,
) {
    let path = site.path;
    let mut warn = |offset: u64, kind: &str, detail: String| {
        warnings.push((offset, format!("{kind}: {path}: {detail}")));
    };
    for (i, (label, code)) in ["pre_wrap", "post_wrap"].into_iter().zip(wraps).enumerate() {
        if !WrapMode::from_code(code).is_known() {
            warn(
                site.offset + 4 * i as u64,
                "unknown_wrap_mode",
                format!("{label} {code} is not a Unity WrapMode (evaluated as Clamp)"),
            );
        }
    }
    let full = site.key_size == 28;
    let mut previous: Option<f32> = None;
    for (i, k) in keys.iter().enumerate() {
        let at = site.offset + 12 + i as u64 * site.key_size;
        if !k.time.is_finite() {
            warn(at, "non_finite_time", format!("key {i} time is {}", k.time));
        }
        if !k.value.is_finite() {
            warn(
                at + 4,
                "non_finite_value",
                format!("key {i} value is {}", k.value),
            );
        }
        if full {
            for (j, (name, v)) in [("in_tangent", k.in_tangent), ("out_tangent", k.out_tangent)]
                .into_iter()
                .enumerate()
            {
                let field = at + 8 + 4 * j as u64;
                if v.is_nan() {
                    warn(field, "nan_tangent", format!("key {i} {name} is NaN"));
                } else if v == f32::NEG_INFINITY {
                    warn(
                        field,
                        "negative_infinite_tangent",
                        format!("key {i} {name} is -inf (stepped here; sources disagree)"),
                    );
                }
            }
            for (j, (name, v)) in [("in_weight", k.in_weight), ("out_weight", k.out_weight)]
                .into_iter()
                .enumerate()
            {
                if !v.is_finite() {
                    warn(
                        at + 16 + 4 * j as u64,
                        "non_finite_weight",
                        format!("key {i} {name} is {v}"),
                    );
                }
            }
            if site.kind == CurveKind::Float && !(0..=3).contains(&k.weighted_mode) {
                warn(
                    at + 24,
                    "unknown_weighted_mode",
                    format!(
                        "key {i} weightedMode {} is not 0..3 (only bits 0 and 1 are used)",
                        k.weighted_mode
                    ),
                );
            }
        }
        if let Some(p) = previous
            && k.time.is_finite()
            && p.is_finite()
        {
            if k.time < p {
                warn(
                    at,
                    "unsorted_keys",
                    format!(
                        "key {i} time {} is before the previous key's {p} (sorted, as Unity does)",
                        k.time
                    ),
                );
            } else if k.time == p {
                warn(
                    at,
                    "duplicate_key_time",
                    format!("key {i} has the same time as the previous key ({p})"),
                );
            }
        }
        previous = Some(k.time);
    }
}
