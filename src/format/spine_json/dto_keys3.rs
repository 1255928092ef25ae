//! 3.x rotate and translate / scale / shear keys, read through the key-row request
//! ([`crate::format::json::key_row`]): the fast reader reads the usual key object in one pass;
//! every other reader, and every unusual key, goes through the plain derived struct (same
//! name, same fields in the same order), so values and errors are the derived struct's.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};

use super::curve::{CurveDto, OptF64, curve_key};
use crate::format::json::F32;
use crate::format::json::key_row::{
    CURVE_NONE, CURVE_NUMBER, CURVE_POINTS, CURVE_STEPPED, KEY_ROW_3_ROTATE, KEY_ROW_3_XY,
};

/// A 3.x key with `time`, its `$n` value fields, then `curve`, `c2`, `c3`, `c4`: the struct
/// the builder reads; in module `$plain` the derived reader of the same name and fields (in
/// that order: serde's messages quote the name and list the fields); and its `Deserialize`,
/// which asks for the key row `$row` and falls back to the derived reader.
macro_rules! key3 {
    ($(#[$doc:meta])* $name:ident, $plain:ident, $row:ident, $n:literal { $($value:ident),* }) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name {
            pub time: F32,
            $(pub $value: Option<F32>,)*
            pub curve: Option<CurveDto>,
            pub c2: OptF64,
            pub c3: OptF64,
            pub c4: OptF64,
        }

        mod $plain {
            use super::{CurveDto, F32, OptF64};

            #[derive(Debug, serde::Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct $name {
                #[serde(default)]
                pub time: F32,
                $(pub $value: Option<F32>,)*
                pub curve: Option<CurveDto>,
                #[serde(default)]
                pub c2: OptF64,
                #[serde(default)]
                pub c3: OptF64,
                #[serde(default)]
                pub c4: OptF64,
            }
        }

        impl From<$plain::$name> for $name {
            fn from(k: $plain::$name) -> $name {
                $name {
                    time: k.time,
                    $($value: k.$value,)*
                    curve: k.curve,
                    c2: k.c2,
                    c3: k.c3,
                    c4: k.c4,
                }
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                struct V;

                impl<'de> Visitor<'de> for V {
                    type Value = $name;

                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str(concat!("struct ", stringify!($name)))
                    }

                    fn visit_newtype_struct<D: Deserializer<'de>>(
                        self,
                        d: D,
                    ) -> Result<$name, D::Error> {
                        $plain::$name::deserialize(d).map($name::from)
                    }

                    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<$name, A::Error> {
                        let Row {
                            time,
                            values: [$($value),*],
                            curve,
                            c: [c2, c3, c4],
                        } = read_row::<$n, A>(seq)?;
                        Ok($name { time, $($value,)* curve, c2, c3, c4 })
                    }
                }

                deserializer.deserialize_newtype_struct($row, V)
            }
        }
    };
}

key3!(
    /// A rotate key.
    RotateKey, plain_rotate, KEY_ROW_3_ROTATE, 1 { angle }
);
key3!(
    /// Translate, scale and shear keys (the defaults differ: the builder applies them).
    XyKey, plain_xy, KEY_ROW_3_XY, 2 { x, y }
);

curve_key!(RotateKey, XyKey);

/// A 3.x key row (`N` values): time, values, curve code, four curve numbers, `c2` to `c4`.
struct Row<const N: usize> {
    time: F32,
    values: [Option<F32>; N],
    curve: Option<CurveDto>,
    c: [OptF64; 3],
}

/// Reads a row of `N` values (it is `N + 9` numbers long).
fn read_row<'de, const N: usize, A: SeqAccess<'de>>(mut seq: A) -> Result<Row<N>, A::Error> {
    let mut row = [0.0; 2 + 9];
    let mut len = 0;
    while let Some(v) = seq.next_element::<f64>()? {
        *row.get_mut(len)
            .ok_or_else(|| de::Error::invalid_length(len + 1, &"a key row"))? = v;
        len += 1;
    }
    if len != N + 9 {
        return Err(de::Error::invalid_length(len, &"a key row"));
    }
    let stored = |v: f64| (!v.is_nan()).then_some(F32(v as f32));
    let mut values = [None; N];
    for (slot, &v) in values.iter_mut().zip(&row[1..=N]) {
        *slot = stored(v);
    }
    let p = &row[N + 2..N + 6];
    let code = row[N + 1];
    let curve = if code == CURVE_NONE {
        None
    } else if code == CURVE_STEPPED {
        Some(CurveDto::Stepped)
    } else if code == CURVE_NUMBER {
        Some(CurveDto::Bezier(p[0]))
    } else if code == CURVE_POINTS {
        Some(CurveDto::Points(Box::new([p[0], p[1], p[2], p[3]])))
    } else {
        return Err(de::Error::custom("a key row with an unknown curve code"));
    };
    let opt = OptF64::from;
    Ok(Row {
        time: F32(row[0] as f32),
        values,
        curve,
        c: [opt(row[N + 6]), opt(row[N + 7]), opt(row[N + 8])],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::json::de::from_slice;

    /// Reads `text` as a list of keys with serde_json, with the fast reader and as the plain
    /// derived structs: the same keys (bit for bit, through `Debug`), or the same error.
    fn same<T, P>(text: &str, fast_reads: bool)
    where
        T: for<'de> Deserialize<'de> + fmt::Debug,
        P: for<'de> Deserialize<'de> + fmt::Debug,
    {
        let ours = serde_json::from_str::<Vec<T>>(text);
        let plain = serde_json::from_str::<Vec<P>>(text);
        let fast = from_slice::<Vec<T>>(text.as_bytes());
        match (&ours, &plain) {
            (Ok(a), Ok(b)) => {
                let a = format!("{a:?}");
                assert_eq!(a, format!("{b:?}"), "{text}");
                match fast {
                    Ok(f) => assert_eq!(format!("{f:?}"), a, "{text}"),
                    Err(_) => assert!(!fast_reads, "the fast reader gave up on {text}"),
                }
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "{text}");
                assert!(fast.is_err(), "{text}");
            }
            _ => panic!("{text}: {ours:?} / {plain:?}"),
        }
    }

    #[test]
    fn keys_read_as_the_derived_structs_do() {
        // (text, whether the fast reader reads it)
        let rotate = [
            (
                r#"[{ "time": 0, "angle": 2.2 }, { "time": 0.0667, "angle": -13.22, "curve": "stepped" }]"#,
                true,
            ),
            (
                r#"[{"angle": 1, "curve": 0.25, "c2": 0, "c3": 0.75, "c4": 1}, {"time": 1}]"#,
                true,
            ),
            (
                r#"[{"time": 1, "curve": [0.25, 0, 0.75, 1]}, {"time": 2, "angle": null, "c3": null}]"#,
                true,
            ),
            (r#"[ { "c4" : 1 , "c2" : -0 , "time" : 3 } ]"#, true),
            (r#"[{"curve": 1, "c2": 1e300}]"#, true),
            (r#"[{"curve": null}, {}]"#, true),
            (r#"[[0.5, 2, "stepped", 1, 2, 3]]"#, true),
            (r#"[{"time": 1, "curve": [1, 2, 3]}]"#, false),
            (r#"[{"time": 1, "curve": [1, 2, 3, 4, 5]}]"#, false),
            (r#"[{"time": 1, "curve": "linear"}]"#, false),
            (r#"[{"time": 1, "time": 2}]"#, false),
            (r#"[{"c2": 1, "c2": 2}]"#, false),
            (r#"[{"angle": 1e39}]"#, false),
            (r#"[{"angle": "1"}]"#, false),
            (r#"[{"c5": 1}]"#, false),
            (r#"[{"x": 1}]"#, false),
            (r#"[{"time": null}]"#, false),
        ];
        for (text, fast) in rotate {
            same::<RotateKey, plain_rotate::RotateKey>(text, fast);
        }
        let xy = [
            (
                r#"[{ "time": 0.1333, "x": 4.86, "y": -0.24, "curve": 0.25, "c3": 0.75 }]"#,
                true,
            ),
            (
                r#"[{"y": 4}, {"x": 1, "curve": "stepped"}, {"x": null, "y": null}]"#,
                true,
            ),
            (
                r#"[{"time":1,"x":1,"y":2,"curve":[0,0,1,1],"c2":0.5}]"#,
                true,
            ),
            (r#"[{"angle": 1}]"#, false),
            (r#"[{"x": 1, "x": 2}]"#, false),
            (r#"[{"y": -1e39}]"#, false),
        ];
        for (text, fast) in xy {
            same::<XyKey, plain_xy::XyKey>(text, fast);
        }
    }
}
