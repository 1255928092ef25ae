//! Compact 4.x key lists: the one- and two-value keys (`ValueKey`, `XyKey` lists: bone
//! rotate / translate / scale / shear, slot alpha, path position and spacing, physics values)
//! read into one flat buffer of numbers instead of a `Vec` of key structs.
//!
//! A key struct with its inline curve numbers takes ~130 bytes and the builder walked each list
//! twice through them; most of a 4.x file is such keys. Here a key is `time`, its `N` values
//! (NaN where the key omits one: JSON cannot write NaN, and the default depends on the
//! timeline, applied by the builder) and a curve code (-1 none, -2 `"stepped"`, otherwise the
//! count of the curve numbers that follow it in the buffer).
//!
//! What is read is what the derived `ValueKey` / `XyKey` structs read, through the same serde
//! calls in the same order (field names, duplicate fields, `Option<Raw32>` values, the curve's
//! visitor and its `expecting` text, a key written as an array handed to the derived struct),
//! so serde_json, which re-reads a file the fast path gave up on, reports the same errors.

use std::fmt;

use serde::Deserialize;
use serde::de::value::SeqAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use super::dto_anim4::{Curve4, ValueKey, XyKey};
use crate::format::json::Raw32;
use crate::format::json::key_row::{
    CURVE_NONE as NONE, CURVE_STEPPED as STEPPED, KEY_ROW_1, KEY_ROW_2,
};
use crate::format::json::number::NUMBER_ARRAY_OR_ANY;

/// A list of 4.x keys with `N` (1 or 2) values each, in file order.
#[derive(Debug, Default)]
pub struct KeyList4<const N: usize> {
    /// Per key: time, `N` values (NaN = omitted), curve code, then the curve numbers.
    data: Vec<f64>,
    len: usize,
    /// Keys with a bezier curve, and whether the last key has one (it adds no table).
    beziers: usize,
    last_bezier: bool,
    /// Whether some key's time (as stored, `f32`) is negative or before the previous key's:
    /// only then does the builder walk the times to find and report the first.
    disordered: bool,
    /// The last key's stored time.
    last_time: f32,
}

/// A key's curve as the builder sees it.
#[derive(Clone, Copy)]
pub enum Curve<'a> {
    Linear,
    Stepped,
    /// The curve's numbers (4 per channel when well formed).
    Bezier(&'a [f64]),
}

/// One key: raw time, values (NaN where omitted) and curve.
#[derive(Clone, Copy)]
pub struct Key<'a, const N: usize> {
    pub time: f64,
    pub values: [f64; N],
    pub curve: Curve<'a>,
}

impl<const N: usize> KeyList4<N> {
    /// The number of keys.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list has no keys.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bezier tables the keys add (a bezier out of the last key adds none), per channel.
    pub fn bezier_keys(&self) -> usize {
        self.beziers - usize::from(self.last_bezier)
    }

    /// Whether a time is negative or out of order (see [`check_time`]).
    ///
    /// [`check_time`]: super::anim::keys::check_time
    pub fn disordered(&self) -> bool {
        self.disordered
    }

    /// The keys in order.
    pub fn iter(&self) -> Iter<'_, N> {
        Iter {
            data: &self.data,
            pos: 0,
        }
    }

    /// Appends a key.
    fn push(&mut self, time: Raw32, values: [Option<Raw32>; N], curve: Option<&Curve4>) {
        self.data.push(time.0);
        for v in values {
            self.data.push(v.map_or(f64::NAN, |v| v.0));
        }
        match curve {
            None => self.data.push(NONE),
            Some(Curve4::Stepped) => self.data.push(STEPPED),
            Some(Curve4::Bezier(numbers)) => {
                self.data.push(numbers.len() as f64);
                self.data.extend_from_slice(numbers);
            }
        }
        self.ended(
            time.0,
            curve.is_some_and(|c| matches!(c, Curve4::Bezier(_))),
        );
    }

    /// Counts a key just written.
    fn ended(&mut self, time: f64, bezier: bool) {
        let time = time as f32;
        // The first key compares with 0 (`last_time`'s start): the same as "not negative".
        self.disordered |= !(time >= 0.0 && time >= self.last_time);
        self.last_time = time;
        self.len += 1;
        self.beziers += usize::from(bezier);
        self.last_bezier = bezier;
    }
}

/// The keys of a [`KeyList4`].
pub struct Iter<'a, const N: usize> {
    data: &'a [f64],
    pos: usize,
}

impl<'a, const N: usize> Iterator for Iter<'a, N> {
    type Item = Key<'a, N>;

    #[inline]
    fn next(&mut self) -> Option<Key<'a, N>> {
        let row = self.data.get(self.pos..self.pos + N + 2)?;
        let time = row[0];
        let mut values = [0.0; N];
        values.copy_from_slice(&row[1..=N]);
        let code = row[N + 1];
        self.pos += N + 2;
        let curve = if code == NONE {
            Curve::Linear
        } else if code == STEPPED {
            Curve::Stepped
        } else {
            let count = code as usize;
            let numbers = &self.data[self.pos..self.pos + count];
            self.pos += count;
            Curve::Bezier(numbers)
        };
        Some(Key {
            time,
            values,
            curve,
        })
    }
}

/// The derived key struct of `N` values (`ValueKey` or `XyKey`): its name and fields.
fn shape<const N: usize>() -> (&'static str, &'static [&'static str]) {
    if N == 1 {
        ("ValueKey", &["time", "value", "curve"])
    } else {
        ("XyKey", &["time", "x", "y", "curve"])
    }
}

impl<'de, const N: usize> Deserialize<'de> for KeyList4<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<const N: usize>;

        impl<'de, const N: usize> Visitor<'de> for V<N> {
            type Value = KeyList4<N>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<KeyList4<N>, A::Error> {
                let mut out = KeyList4 {
                    data: Vec::with_capacity(16 * (N + 2)),
                    ..KeyList4::default()
                };
                while seq.next_element_seed(KeySeed(&mut out))?.is_some() {}
                Ok(out)
            }
        }

        deserializer.deserialize_seq(V::<N>)
    }
}

/// Reads one key into the list.
struct KeySeed<'a, const N: usize>(&'a mut KeyList4<N>);

impl<'de, const N: usize> DeserializeSeed<'de> for KeySeed<'_, N> {
    type Value = ();

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        let name = if N == 1 { KEY_ROW_1 } else { KEY_ROW_2 };
        deserializer.deserialize_newtype_struct(name, KeyRow(self.0))
    }
}

/// A key asked for as a key row ([`crate::format::json::key_row`]): the fast reader's row, or
/// the plain struct read by [`KeySeed`].
struct KeyRow<'a, const N: usize>(&'a mut KeyList4<N>);

impl<'de, const N: usize> Visitor<'de> for KeyRow<'_, N> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", shape::<N>().0)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let (name, fields) = shape::<N>();
        d.deserialize_struct(name, fields, KeySeed(self.0))
    }

    /// The row: time, `N` values, curve code, curve numbers, as the list keeps them.
    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let out = self.0;
        let start = out.data.len();
        out.data.reserve(seq.size_hint().unwrap_or(N + 2));
        while let Some(v) = seq.next_element::<f64>()? {
            out.data.push(v);
        }
        let (time, code) = match out.data.get(start..start + N + 2) {
            Some(row) => (row[0], row[N + 1]),
            None => {
                return Err(de::Error::invalid_length(
                    out.data.len() - start,
                    &"a key row",
                ));
            }
        };
        out.ended(time, code >= 0.0);
        Ok(())
    }
}

impl<'de, const N: usize> Visitor<'de> for KeySeed<'_, N> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {}", shape::<N>().0)
    }

    /// A key written as an array of its fields: read by the derived struct.
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<(), A::Error> {
        let de = SeqAccessDeserializer::new(seq);
        let mut values = [None; N];
        let (time, curve) = if N == 1 {
            let k = ValueKey::deserialize(de)?;
            values[0] = k.value;
            (k.time, k.curve)
        } else {
            let k = XyKey::deserialize(de)?;
            values[0] = k.x;
            values[N - 1] = k.y;
            (k.time, k.curve)
        };
        self.0.push(time, values, curve.as_ref());
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let out = self.0;
        let fields = shape::<N>().1;
        let start = out.data.len();
        out.data.resize(start + N + 2, f64::NAN);
        let mut time: Option<Raw32> = None;
        let mut values: [Option<Option<Raw32>>; N] = [None; N];
        let mut curve: Option<f64> = None;
        while let Some(field) = map.next_key_seed(FieldSeed::<N>)? {
            if field == 0 {
                if time.is_some() {
                    return Err(de::Error::duplicate_field("time"));
                }
                time = Some(map.next_value()?);
            } else if field <= N {
                if values[field - 1].is_some() {
                    return Err(de::Error::duplicate_field(fields[field]));
                }
                values[field - 1] = Some(map.next_value()?);
            } else {
                if curve.is_some() {
                    return Err(de::Error::duplicate_field("curve"));
                }
                curve = Some(map.next_value_seed(CurveSeed(&mut out.data))?);
            }
        }
        let row = &mut out.data[start..start + N + 2];
        let time = time.unwrap_or_default().0;
        row[0] = time;
        for (slot, v) in row[1..=N].iter_mut().zip(values) {
            *slot = v.flatten().map_or(f64::NAN, |v| v.0);
        }
        let code = curve.unwrap_or(NONE);
        row[N + 1] = code;
        out.ended(time, code >= 0.0);
        Ok(())
    }
}

/// A key's field name: its index in the struct's fields.
struct FieldSeed<const N: usize>;

impl<'de, const N: usize> DeserializeSeed<'de> for FieldSeed<N> {
    type Value = usize;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<usize, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<const N: usize> Visitor<'_> for FieldSeed<N> {
    type Value = usize;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field identifier")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<usize, E> {
        let fields = shape::<N>().1;
        match usize::try_from(v) {
            Ok(i) if i < fields.len() => Ok(i),
            _ => Err(E::invalid_value(
                de::Unexpected::Unsigned(v),
                &if N == 1 {
                    "field index 0 <= i < 3"
                } else {
                    "field index 0 <= i < 4"
                },
            )),
        }
    }

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<usize, E> {
        match (N, v) {
            (_, "time") => Ok(0),
            (1, "value") | (2, "x") => Ok(1),
            (2, "y") => Ok(2),
            (_, "curve") => Ok(N + 1),
            _ => Err(E::unknown_field(v, shape::<N>().1)),
        }
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<usize, E> {
        let fields = shape::<N>().1;
        match fields.iter().position(|f| f.as_bytes() == v) {
            Some(i) => Ok(i),
            None => Err(E::unknown_field(&String::from_utf8_lossy(v), fields)),
        }
    }
}

/// A key's `curve` (`Option<Curve4>`): its numbers appended to the buffer, its code returned.
struct CurveSeed<'a>(&'a mut Vec<f64>);

impl<'de> DeserializeSeed<'de> for CurveSeed<'_> {
    type Value = f64;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<f64, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> Visitor<'de> for CurveSeed<'_> {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: de::Error>(self) -> Result<f64, E> {
        Ok(NONE)
    }

    fn visit_unit<E: de::Error>(self) -> Result<f64, E> {
        Ok(NONE)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<f64, D::Error> {
        deserializer.deserialize_newtype_struct(NUMBER_ARRAY_OR_ANY, CurveValue(self.0))
    }
}

/// A present `curve`, read as [`Curve4`] reads it (through [`NUMBER_ARRAY_OR_ANY`]: the fast
/// reader reads its numbers in one loop).
struct CurveValue<'a>(&'a mut Vec<f64>);

impl<'de> Visitor<'de> for CurveValue<'_> {
    type Value = f64;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(super::dto_anim4::CURVE4_EXPECTING)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<f64, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<f64, E> {
        if v == "stepped" {
            Ok(STEPPED)
        } else {
            Err(E::invalid_value(de::Unexpected::Str(v), &self))
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<f64, A::Error> {
        let mut count = 0usize;
        while let Some(v) = seq.next_element::<f64>()? {
            if !v.is_finite() {
                return Err(de::Error::custom("curve numbers must be finite"));
            }
            self.0.push(v);
            count += 1;
        }
        Ok(count as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::json::list::List;

    /// A key as the derived structs read it: time, values, curve.
    type Plain<const N: usize> = (Raw32, [Option<Raw32>; N], Option<Curve4>);

    /// The keys of a list of derived key structs, as a compact list would hold them.
    fn rows<const N: usize>(keys: &[Plain<N>]) -> Vec<f64> {
        let mut out = KeyList4::<N>::default();
        for (t, v, c) in keys {
            out.push(*t, *v, c.as_ref());
        }
        out.data
    }

    fn value_rows(keys: &[ValueKey]) -> Vec<f64> {
        let k: Vec<_> = (keys.iter())
            .map(|k| (k.time, [k.value], k.curve.clone()))
            .collect();
        rows(&k)
    }

    fn xy_rows(keys: &[XyKey]) -> Vec<f64> {
        let k: Vec<_> = (keys.iter())
            .map(|k| (k.time, [k.x, k.y], k.curve.clone()))
            .collect();
        rows(&k)
    }

    /// Reads `text` both ways (serde_json, and the fast reader where it applies): the same
    /// keys, or the same error.
    fn same(text: &str) {
        let ours1 = serde_json::from_str::<KeyList4<1>>(text);
        let theirs1 = serde_json::from_str::<List<ValueKey>>(text);
        match (&ours1, &theirs1) {
            (Ok(a), Ok(b)) => {
                let want = value_rows(&b.0);
                assert_eq!(format!("{:?}", a.data), format!("{want:?}"), "{text}");
                assert_eq!(a.len(), b.0.len());
                let fast = crate::format::json::de::from_slice::<KeyList4<1>>(text.as_bytes());
                if let Ok(f) = fast {
                    assert_eq!(format!("{:?}", f.data), format!("{want:?}"), "{text}");
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
            _ => panic!("{text}: {:?} / {:?}", ours1.is_ok(), theirs1.is_ok()),
        }
        let ours2 = serde_json::from_str::<KeyList4<2>>(text);
        let theirs2 = serde_json::from_str::<List<XyKey>>(text);
        match (&ours2, &theirs2) {
            (Ok(a), Ok(b)) => {
                let want = xy_rows(&b.0);
                assert_eq!(format!("{:?}", a.data), format!("{want:?}"), "{text}");
                let fast = crate::format::json::de::from_slice::<KeyList4<2>>(text.as_bytes());
                if let Ok(f) = fast {
                    assert_eq!(format!("{:?}", f.data), format!("{want:?}"), "{text}");
                }
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{text}"),
            _ => panic!("{text}: {:?} / {:?}", ours2.is_ok(), theirs2.is_ok()),
        }
    }

    #[test]
    fn reads_as_the_key_structs_do() {
        for text in [
            "[]",
            "[{}]",
            r#"[{"time": 0.5, "value": 3, "curve": [0.1, 0.2, 0.3, 0.4]}, {"time": 1}]"#,
            r#"[{"curve": "stepped", "value": null, "time": 2}]"#,
            r#"[{"x": 1, "y": -2.5, "curve": [1, 2, 3, 4, 5, 6, 7, 8]}, {"y": 4}]"#,
            r#"[{"time": 1, "curve": []}]"#,
            r#"[{"time": 1, "curve": null}]"#,
            r#"[[0.5, 2, "stepped"]]"#,
            r#"[[0.5]]"#,
            r#"[[]]"#,
            r#"[{"time": 1, "time": 2}]"#,
            r#"[{"value": 1, "value": 2}]"#,
            r#"[{"x": 1, "x": 2}]"#,
            r#"[{"curve": "stepped", "curve": "stepped"}]"#,
            r#"[{"time": 1, "bogus": 2}]"#,
            r#"[{"time": "1"}]"#,
            r#"[{"time": null}]"#,
            r#"[{"value": "a"}]"#,
            r#"[{"value": 1e39}]"#,
            r#"[{"curve": "linear"}]"#,
            r#"[{"curve": 0.5}]"#,
            r#"[{"curve": true}]"#,
            r#"[{"curve": {}}]"#,
            r#"[{"curve": [1, "a"]}]"#,
            r#"[{"curve": [1, null]}]"#,
            r#"[3]"#,
            r#"["a"]"#,
            r#"[null]"#,
            r#"{}"#,
            r#""x""#,
            r#"null"#,
        ] {
            same(text);
        }
    }

    /// Keys of the usual shapes, and of shapes the key-row pass hands back to the general
    /// path (a key written as an array, a long curve, a name near the end of the text): the
    /// fast reader reads each, and to the same rows as serde_json.
    #[test]
    fn the_key_row_pass_reads_as_serde_json_reads() {
        for text in [
            r#"[{ "value": 2.2 }, { "time": 0.0667, "value": 13.22 }]"#,
            r#"[{"time":0.5,"value":-3,"curve":[0.1,2,0.3,4]},{"time":1,"value":null}]"#,
            r#"[ { "time" : 1 , "value" : 7 , "curve" : "stepped" } ]"#,
            "[{\n\t\"time\":\t2,\r\n\"curve\": null, \"value\": 1e3}]",
            r#"[{"curve": [1, 2, 3, 4, 5, 6, 7, 8], "x": -0, "y": 12345678901234567890}]"#,
            r#"[{"curve": [1, 2, 3, 4, 5, 6, 7, 8, 9], "x": 1}]"#,
            r#"[{"time": 1, "curve": []}, {"time": 2}]"#,
            r#"[[0.5, 2, "stepped"], {"time": 1, "value": 2}]"#,
            r#"[[0.5, 2, null, [0, 0, 1, 1, 0, 0, 1, 1]], {"time": 1, "y": 2}]"#,
            r#"[{"x":1}]"#,
            r#"[{"y":1}]"#,
            r#"[{}]"#,
            r#"[{"time": 1.5e-3, "value": -0.000001}]"#,
        ] {
            same(text);
            assert!(
                crate::format::json::de::from_slice::<KeyList4<1>>(text.as_bytes()).is_ok()
                    || crate::format::json::de::from_slice::<KeyList4<2>>(text.as_bytes()).is_ok(),
                "the fast reader reads {text}"
            );
        }
    }

    #[test]
    fn tracks_times_and_beziers() {
        let l: KeyList4<1> = serde_json::from_str(
            r#"[{"curve": [0, 0, 1, 1]}, {"time": 1, "curve": "stepped"}, {"time": 2, "curve": [0, 0, 1, 1]}]"#,
        )
        .unwrap();
        assert_eq!((l.len(), l.bezier_keys(), l.disordered()), (3, 1, false));
        for (text, disordered) in [
            (r#"[{"time": -1}]"#, true),
            (r#"[{"time": 2}, {"time": 1}]"#, true),
            (r#"[{"time": 1}, {"time": 1}]"#, false),
            (r#"[{"time": -0}]"#, false),
        ] {
            let l: KeyList4<2> = serde_json::from_str(text).unwrap();
            assert_eq!(l.disordered(), disordered, "{text}");
        }
    }
}
