//! Key curves: `"curve"` (absent, `"stepped"`, a number cx1 with `c2`..`c4`, or the array
//! `[cx1, cy1, cx2, cy2]`).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};

use crate::core::curve::{Interp, Keys};

/// The `curve` field of a key.
///
/// Keys are read into lists of structs before they are built, and a list is one allocation:
/// the rare array form is boxed (and [`OptF64`] stands for `Option<f64>`) so that a rotate
/// key takes 56 bytes instead of 104, and a typical key list fits an allocator's small-block
/// cache.
#[derive(Clone, Debug, PartialEq)]
pub enum CurveDto {
    Stepped,
    /// cx1; cy1, cx2, cy2 come from `c2`, `c3`, `c4`.
    Bezier(f64),
    /// `[cx1, cy1, cx2, cy2]`.
    Points(Box<[f64; 4]>),
}

/// An optional number (`c2`, `c3`, `c4`) in eight bytes: absent or `null` is NaN, which JSON
/// cannot write. Reads exactly as `Option<f64>` does (use with `#[serde(default)]`).
#[derive(Clone, Copy, Debug)]
pub struct OptF64(f64);

impl OptF64 {
    /// The number, if the key has one.
    pub fn get(self) -> Option<f64> {
        (!self.0.is_nan()).then_some(self.0)
    }
}

impl From<f64> for OptF64 {
    /// A present number (NaN reads as absent).
    fn from(v: f64) -> OptF64 {
        OptF64(v)
    }
}

impl Default for OptF64 {
    fn default() -> OptF64 {
        OptF64(f64::NAN)
    }
}

impl<'de> Deserialize<'de> for OptF64 {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Option::<f64>::deserialize(deserializer).map(|v| OptF64(v.unwrap_or(f64::NAN)))
    }
}

/// A key's curve fields.
#[derive(Clone, Copy, Debug, Default)]
pub struct CurveSpec<'a> {
    pub curve: Option<&'a CurveDto>,
    pub c2: Option<f64>,
    pub c3: Option<f64>,
    pub c4: Option<f64>,
}

impl CurveSpec<'_> {
    /// Whether the key adds a bezier table (see [`interp`]).
    pub fn is_bezier(&self) -> bool {
        matches!(self.curve, Some(CurveDto::Bezier(_) | CurveDto::Points(_)))
    }
}

/// A key with a time and curve fields.
pub trait CurveKey {
    fn time(&self) -> f32;
    fn curve(&self) -> CurveSpec<'_>;
}

/// Implements [`CurveKey`] for key structs with `time`, `curve`, `c2`, `c3`, `c4` fields.
macro_rules! curve_key {
    ($($t:ty),* $(,)?) => {$(
        impl $crate::format::spine_json::curve::CurveKey for $t {
            fn time(&self) -> f32 {
                self.time.0
            }
            fn curve(&self) -> $crate::format::spine_json::curve::CurveSpec<'_> {
                $crate::format::spine_json::curve::CurveSpec {
                    curve: self.curve.as_ref(),
                    c2: self.c2.get(),
                    c3: self.c3.get(),
                    c4: self.c4.get(),
                }
            }
        }
    )*};
}
pub(crate) use curve_key;

/// Defines key structs that share leading and trailing fields (`time`; the curve fields):
/// `key_structs!({head fields} {tail fields} marker; structs...)` writes each struct with
/// the head fields, its own, then the tail, and invokes `marker!(Name)` (which implements
/// the key's trait). A macro rather than `#[serde(flatten)]`, which cannot be combined
/// with `deny_unknown_fields`; the field order (and so serde's "expected one of" lists) is
/// the one written out by hand before.
macro_rules! key_structs {
    ({$($head:tt)*} {$($tail:tt)*} $marker:ident;) => {};
    (
        {$($head:tt)*} {$($tail:tt)*} $marker:ident;
        $(#[$attr:meta])* pub struct $name:ident { $($body:tt)* }
        $($rest:tt)*
    ) => {
        #[derive(serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $(#[$attr])*
        pub struct $name {
            $($head)*
            $($body)*
            $($tail)*
        }
        $marker!($name);
        $crate::format::spine_json::curve::key_structs!({$($head)*} {$($tail)*} $marker; $($rest)*);
    };
}
pub(crate) use key_structs;

/// The interpolation out of a key, adding its bezier table to `keys`.
// Inline: called once per key from generic readers that may land in another codegen unit,
// where a plain call (and `bezier_table` not inlined into it) cost 0.7 % of a 3.8 load.
#[inline]
pub fn interp(keys: &mut Keys, spec: CurveSpec<'_>) -> Interp {
    match spec.curve {
        None => Interp::Linear,
        Some(CurveDto::Stepped) => Interp::Stepped,
        Some(&CurveDto::Bezier(cx1)) => keys.add_bezier(
            cx1,
            spec.c2.unwrap_or(0.0),
            spec.c3.unwrap_or(1.0),
            spec.c4.unwrap_or(1.0),
        ),
        Some(CurveDto::Points(p)) => {
            let [cx1, cy1, cx2, cy2] = **p;
            keys.add_bezier(cx1, cy1, cx2, cy2)
        }
    }
}

impl<'de> Deserialize<'de> for CurveDto {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl<'de> Visitor<'de> for V {
            type Value = CurveDto;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"stepped\", a number or an array of 4 numbers")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<CurveDto, E> {
                if v == "stepped" {
                    Ok(CurveDto::Stepped)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(v), &self))
                }
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<CurveDto, E> {
                Ok(CurveDto::Bezier(v))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<CurveDto, E> {
                Ok(CurveDto::Bezier(v as f64))
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<CurveDto, E> {
                Ok(CurveDto::Bezier(v as f64))
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CurveDto, A::Error> {
                let mut p = [0.0; 4];
                for (i, slot) in p.iter_mut().enumerate() {
                    *slot = seq
                        .next_element()?
                        .ok_or_else(|| de::Error::invalid_length(i, &self))?;
                }
                if seq.next_element::<IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(5, &self));
                }
                Ok(CurveDto::Points(Box::new(p)))
            }
        }

        deserializer.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        let p = |s: &str| serde_json::from_str::<CurveDto>(s);
        assert_eq!(p("\"stepped\"").unwrap(), CurveDto::Stepped);
        assert_eq!(p("0.25").unwrap(), CurveDto::Bezier(0.25));
        assert_eq!(p("1").unwrap(), CurveDto::Bezier(1.0));
        assert_eq!(
            p("[0.25, 0, 0.75, 1]").unwrap(),
            CurveDto::Points(Box::new([0.25, 0.0, 0.75, 1.0]))
        );
        assert!(p("\"linear\"").is_err());
        assert!(p("[1, 2, 3]").is_err());
        assert!(p("[1, 2, 3, 4, 5]").is_err());
        assert!(p("true").is_err());
        assert!(p("{}").is_err());
    }

    #[test]
    fn optional_numbers_read_as_options_do() {
        #[derive(serde::Deserialize)]
        struct K {
            #[serde(default)]
            c2: OptF64,
        }
        let p = |s: &str| serde_json::from_str::<K>(s).map(|k| k.c2.get());
        assert_eq!(p("{}").unwrap(), None);
        assert_eq!(p(r#"{"c2": null}"#).unwrap(), None);
        assert_eq!(p(r#"{"c2": 0.5}"#).unwrap(), Some(0.5));
        assert_eq!(
            p(r#"{"c2": -0}"#).unwrap().map(f64::to_bits),
            Some((-0.0f64).to_bits())
        );
        let ours = p(r#"{"c2": "x"}"#).unwrap_err().to_string();
        let theirs = serde_json::from_str::<Option<f64>>(r#""x""#)
            .unwrap_err()
            .to_string();
        assert_eq!(ours.split(" at ").next(), theirs.split(" at ").next());
        assert_eq!(std::mem::size_of::<Option<CurveDto>>(), 16);
    }

    #[test]
    fn builds_interps() {
        let mut keys = Keys::new(1);
        assert_eq!(interp(&mut keys, CurveSpec::default()), Interp::Linear);
        let stepped = CurveDto::Stepped;
        assert_eq!(
            interp(
                &mut keys,
                CurveSpec {
                    curve: Some(&stepped),
                    ..CurveSpec::default()
                }
            ),
            Interp::Stepped
        );
        let b = CurveDto::Bezier(0.25);
        let spec = CurveSpec {
            curve: Some(&b),
            c2: None,
            c3: Some(0.75),
            c4: None,
        };
        assert_eq!(interp(&mut keys, spec), Interp::Bezier(0));
        let mut expect = Keys::new(1);
        expect.add_bezier(0.25, 0.0, 0.75, 1.0);
        assert_eq!(keys.bezier_tables(), expect.bezier_tables());
    }
}
