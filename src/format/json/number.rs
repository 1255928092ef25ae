//! Numbers kept in single precision (key times, key values, vertex data).

use std::fmt;

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
        self.visit_f64(v as f64)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<f32, E> {
        self.visit_f64(v as f64)
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

/// A JSON array of numbers stored as `f32` (see [`F32`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct F32List(pub Vec<f32>);

impl<'de> Deserialize<'de> for F32List {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl<'de> Visitor<'de> for V {
            type Value = F32List;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an array of numbers")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<F32List, A::Error> {
                // Vertex and UV arrays are long: start with room for a typical short one.
                let hint = seq.size_hint().unwrap_or(0).min(4096);
                let mut out = Vec::with_capacity(hint.max(4 * super::list::LIST_START));
                while let Some(F32(v)) = seq.next_element()? {
                    out.push(v);
                }
                Ok(F32List(out))
            }
        }

        deserializer.deserialize_seq(V)
    }
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
    }
}
