//! Numbers kept in single precision (key times, key values, vertex data).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};

/// A JSON number stored as `f32`: parsed as `f64`, then rounded once. A number too large for
/// `f32` is an error (serde's own `f32` would silently give infinity).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct F32(pub f32);

/// `v` rounded to `f32`, or `None` when it does not fit.
pub fn to_f32(v: f64) -> Option<f32> {
    let f = v as f32;
    f.is_finite().then_some(f)
}

fn too_large<E: de::Error>(v: f64) -> E {
    E::custom(format_args!("number {v} is too large for 32-bit storage"))
}

struct F32Visitor;

impl Visitor<'_> for F32Visitor {
    type Value = f32;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<f32, E> {
        to_f32(v).ok_or_else(|| too_large(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<f32, E> {
        self.visit_f64(u64_to_f64(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f32, E> {
        self.visit_f64(v as f64)
    }
}

/// `v as f64`, in one instruction for the integers files hold (below 2^63, converted as
/// `i64` to the same value) instead of the five of a `u64`.
#[inline(always)]
fn u64_to_f64(v: u64) -> f64 {
    match i64::try_from(v) {
        Ok(i) => i as f64,
        Err(_) => v as f64,
    }
}

impl<'de> Deserialize<'de> for F32 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_f64(F32Visitor).map(F32)
    }
}

/// A number kept in the file's own precision (bezier tables are built from it) that must
/// still fit the `f32` it is stored as.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Raw32(pub f64);

impl Raw32 {
    /// The stored (`f32`) value.
    pub fn f32(self) -> f32 {
        self.0 as f32
    }
}

impl<'de> Deserialize<'de> for Raw32 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl Visitor<'_> for V {
            type Value = Raw32;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a number")
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Raw32, E> {
                to_f32(v).map(|_| Raw32(v)).ok_or_else(|| too_large(v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Raw32, E> {
                self.visit_f64(v as f64)
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Raw32, E> {
                self.visit_f64(v as f64)
            }
        }

        deserializer.deserialize_f64(V)
    }
}

/// The newtype-struct name through which an array of numbers asks to be read in one loop:
/// the loaders' fast reader ([`super::de`]) then reads each element as a number right where
/// it stands instead of one `deserialize_*` call per element (most of a mesh-heavy file is
/// such arrays). Any other deserializer (serde_json on the error path) sees a newtype around
/// the plain array, reads it as one, and reports the same errors as for the array itself.
pub const NUMBER_ARRAY: &str = "$bonescope::json::NumberArray";

/// Like [`NUMBER_ARRAY`], for a value that may be an array of numbers or something else (a
/// key's `curve`: `"stepped"` or numbers): the fast reader hands an array to the visitor's
/// `visit_seq` with its elements read as numbers in place, anything else as `deserialize_any`
/// would. Any other deserializer sees a newtype: the visitor's `visit_newtype_struct` must
/// read the value with `deserialize_any`, which gives the errors of the plain value.
pub const NUMBER_ARRAY_OR_ANY: &str = "$bonescope::json::NumberArrayOrAny";

/// Reads an array of `T` through [`NUMBER_ARRAY`], each element turned into a `U` by `F`
/// (a type parameter, not a function pointer, so that the conversion inlines).
struct NumbersVisitor<T, F> {
    /// What a visitor of the plain array expects (serde_json's error messages quote it).
    expecting: &'static str,
    convert: F,
    element: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>, U, F: Fn(T) -> U> Visitor<'de> for NumbersVisitor<T, F> {
    type Value = Vec<U>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expecting)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Vec<U>, D::Error> {
        d.deserialize_seq(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<U>, A::Error> {
        // Vertex, UV and index arrays are long: start with room for a typical short one.
        let hint = seq.size_hint().unwrap_or(0).min(4096);
        let mut out = Vec::with_capacity(hint.max(4 * super::list::LIST_START));
        while let Some(v) = seq.next_element::<T>()? {
            out.push((self.convert)(v));
        }
        Ok(out)
    }
}

fn numbers<'de, D: Deserializer<'de>, T: Deserialize<'de>, U>(
    deserializer: D,
    expecting: &'static str,
    convert: impl Fn(T) -> U,
) -> Result<Vec<U>, D::Error> {
    let visitor = NumbersVisitor {
        expecting,
        convert,
        element: PhantomData,
    };
    deserializer.deserialize_newtype_struct(NUMBER_ARRAY, visitor)
}

/// A JSON array of numbers stored as `f32` (see [`F32`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct F32List(pub Vec<f32>);

impl<'de> Deserialize<'de> for F32List {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        numbers(deserializer, "an array of numbers", |F32(v)| v).map(F32List)
    }
}

/// A JSON array of numbers of type `T` (`u32`, `f64`), read as a `Vec<T>` would be.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumberList<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NumberList<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // "a sequence": the words of serde's own `Vec` visitor, so errors read as before.
        numbers(deserializer, "a sequence", |v: T| v).map(NumberList)
    }
}

/// For `#[serde(default, deserialize_with = "opt_numbers")]` on an `Option<Vec<T>>` field of
/// numbers: the field keeps its type, the array is read as a [`NumberList`].
pub fn opt_numbers<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Vec<T>>, D::Error> {
    Option::<NumberList<T>>::deserialize(deserializer).map(|o| o.map(|l| l.0))
}

/// For `#[serde(deserialize_with = "vec_numbers")]` on a `Vec<T>` field of numbers: the field
/// keeps its type, the array is read as a [`NumberList`].
pub fn vec_numbers<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    NumberList::<T>::deserialize(deserializer).map(|l| l.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_once_and_rejects_overflow() {
        assert_eq!(serde_json::from_str::<F32>("0.1").unwrap().0, 0.1f64 as f32);
        assert_eq!(serde_json::from_str::<F32>("-3").unwrap().0, -3.0);
        assert_eq!(serde_json::from_str::<F32>("7").unwrap().0, 7.0);
        let err = serde_json::from_str::<F32>("1e39").unwrap_err().to_string();
        assert!(err.contains("too large for 32-bit"), "{err}");
        assert!(serde_json::from_str::<F32>("\"1\"").is_err());
        let l: F32List = serde_json::from_str("[1, 2.5, -0]").unwrap();
        assert_eq!(l.0, [1.0, 2.5, 0.0]);
        assert!(serde_json::from_str::<F32List>("[1, 4e38]").is_err());
        let n: NumberList<u32> = serde_json::from_str("[3, 0, 7]").unwrap();
        assert_eq!(n.0, [3, 0, 7]);
        for bad in ["[1.5]", "[-1]", "{}", "[\"1\"]"] {
            let ours = serde_json::from_str::<NumberList<u32>>(bad).unwrap_err();
            let plain = serde_json::from_str::<Vec<u32>>(bad).unwrap_err();
            assert_eq!(ours.to_string(), plain.to_string(), "{bad}");
        }
    }
}
