//! Key curves: `"curve"` (absent, `"stepped"`, a number cx1 with `c2`..`c4`, or the array
//! `[cx1, cy1, cx2, cy2]`).

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, SeqAccess, Visitor};

use crate::core::curve::{Interp, Keys};

/// The `curve` field of a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CurveDto {
    Stepped,
    /// cx1; cy1, cx2, cy2 come from `c2`, `c3`, `c4`.
    Bezier(f64),
    /// `[cx1, cy1, cx2, cy2]`.
    Points([f64; 4]),
}

/// A key's curve fields.
#[derive(Clone, Copy, Debug, Default)]
pub struct CurveSpec<'a> {
    pub curve: Option<&'a CurveDto>,
    pub c2: Option<f64>,
    pub c3: Option<f64>,
    pub c4: Option<f64>,
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
                    c2: self.c2,
                    c3: self.c3,
                    c4: self.c4,
                }
            }
        }
    )*};
}
pub(crate) use curve_key;

/// The interpolation out of a key, adding its bezier table to `keys`.
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
        Some(&CurveDto::Points([cx1, cy1, cx2, cy2])) => keys.add_bezier(cx1, cy1, cx2, cy2),
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
                Ok(CurveDto::Points(p))
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
            CurveDto::Points([0.25, 0.0, 0.75, 1.0])
        );
        assert!(p("\"linear\"").is_err());
        assert!(p("[1, 2, 3]").is_err());
        assert!(p("[1, 2, 3, 4, 5]").is_err());
        assert!(p("true").is_err());
        assert!(p("{}").is_err());
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
        assert_eq!(keys.bezier, expect.bezier);
    }
}
