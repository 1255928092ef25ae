//! The key-row request: how a key object asks the fast reader ([`super::de`]) to read it in
//! one pass. Most of a small export is keys; read through serde's map access each member costs
//! a key visit, a field match, an `Option` and a number visit.
//!
//! A key type asks with `deserialize_newtype_struct(name, visitor)`, `name` one of the
//! `KEY_ROW_*` constants below:
//!
//! - the fast reader reads a key object of that shape itself and hands the visitor's
//!   `visit_seq` its row of numbers (layouts below; a value written `null` or left out is
//!   NaN, an absent time 0). Anything else (a key written as an array, an escaped, unknown or
//!   repeated member name, a number too large for `f32` where the key stores one, a curve of
//!   another form) it reads again from the start by calling the visitor's
//!   `visit_newtype_struct`;
//! - any other deserializer (serde_json on the error path) calls `visit_newtype_struct`,
//!   which must read the key as the plain struct, so errors are the plain struct's.
//!
//! Rows of 4.x keys (`time`, `value` or `x` and `y`, `curve`): `time, values..., code,
//! curve numbers...`, the code [`CURVE_NONE`], [`CURVE_STEPPED`] or the count of the curve
//! numbers that follow (at most [`MAX_CURVE`]).
//!
//! Rows of 3.x keys (`time`, `angle` or `x` and `y`, `curve`, `c2`, `c3`, `c4`), always
//! `values + 9` long: `time, values..., code, p1, p2, p3, p4, c2, c3, c4`, the code
//! [`CURVE_NONE`], [`CURVE_STEPPED`], [`CURVE_NUMBER`] (`curve` a number, in `p1`) or
//! [`CURVE_POINTS`] (`curve` an array of four numbers, `p1` to `p4`); `c2` to `c4` NaN when
//! absent or `null`.

/// A 4.x key of one value: members `time`, `value`, `curve`.
pub const KEY_ROW_1: &str = "$bonescope::json::KeyRow1";
/// A 4.x key of two values: members `time`, `x`, `y`, `curve`.
pub const KEY_ROW_2: &str = "$bonescope::json::KeyRow2";
/// A 3.x rotate key: members `time`, `angle`, `curve`, `c2`, `c3`, `c4`.
pub const KEY_ROW_3_ROTATE: &str = "$bonescope::json::KeyRow3Rotate";
/// A 3.x translate, scale or shear key: members `time`, `x`, `y`, `curve`, `c2`, `c3`, `c4`.
pub const KEY_ROW_3_XY: &str = "$bonescope::json::KeyRow3Xy";

/// Curve code: no `curve` member, or `null`.
pub const CURVE_NONE: f64 = -1.0;
/// Curve code: `"stepped"`.
pub const CURVE_STEPPED: f64 = -2.0;
/// Curve code (3.x): a number, `cx1` of a bezier whose other numbers are `c2` to `c4`.
pub const CURVE_NUMBER: f64 = -3.0;
/// Curve code (3.x): an array of four numbers.
pub const CURVE_POINTS: f64 = -4.0;
/// The most curve numbers a 4.x row carries (4 per channel, two channels).
pub const MAX_CURVE: usize = 8;
