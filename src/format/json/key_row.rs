//! The key-row request: how a 4.x key object (`{"time": t, "value": v, "curve": c}`, or
//! `x` and `y` for two values) asks the fast reader ([`super::de`]) to read it in one pass.
//!
//! Most of a small 4.x export is such keys; read through serde's map access each member costs
//! a key visit, a field match, an `Option` and a number visit. A key type asks with
//! `deserialize_newtype_struct(KEY_ROW_1 or KEY_ROW_2, visitor)`:
//!
//! - the fast reader reads a key object of the usual shape itself and hands the visitor's
//!   `visit_seq` the row of numbers `time, values..., curve code, curve numbers...` (a value
//!   written `null` or left out is NaN, an absent time 0, the curve code as in
//!   [`CURVE_NONE`] / [`CURVE_STEPPED`], or the count of the numbers that follow); anything
//!   else (a key written as an array, an escaped or unknown member name, a duplicate member,
//!   a number too large for `f32`, a curve of more than [`MAX_CURVE`] numbers) it reads
//!   again from the start by calling the visitor's `visit_newtype_struct`;
//! - any other deserializer (serde_json on the error path) calls `visit_newtype_struct`,
//!   which must read the key as the plain struct, so errors are the plain struct's.

/// A key of one value: members `time`, `value`, `curve`.
pub const KEY_ROW_1: &str = "$bonescope::json::KeyRow1";
/// A key of two values: members `time`, `x`, `y`, `curve`.
pub const KEY_ROW_2: &str = "$bonescope::json::KeyRow2";

/// Curve code: no `curve` member, or `null`.
pub const CURVE_NONE: f64 = -1.0;
/// Curve code: `"stepped"`.
pub const CURVE_STEPPED: f64 = -2.0;
/// The most curve numbers a row carries (4 per channel, two channels).
pub const MAX_CURVE: usize = 8;
