//! Arrays read into a `Vec` that starts with room for a typical array.
//!
//! serde_json tells a visitor nothing about an array's length, so a plain `Vec` grows from 4
//! elements by doubling: a timeline of ten keys costs three allocations and two copies. The
//! loaders read thousands of such short-lived arrays (the keys are turned into model data and
//! dropped); starting with room for [`LIST_START`] elements makes most of them one allocation.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, SeqAccess, Visitor};

/// Elements a list has room for before it first grows.
pub const LIST_START: usize = 16;

/// A JSON array read with room for [`LIST_START`] elements from the start.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct List<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for List<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = List<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<List<T>, A::Error> {
                let hint = seq.size_hint().unwrap_or(0).min(4096);
                let mut out = Vec::with_capacity(hint.max(LIST_START));
                while let Some(v) = seq.next_element()? {
                    out.push(v);
                }
                Ok(List(out))
            }
        }

        deserializer.deserialize_seq(V(PhantomData))
    }
}

/// For `#[serde(default, deserialize_with = "opt_list")]` on an `Option<Vec<T>>` field: the
/// field keeps its type, the array is read as a [`List`].
pub fn opt_list<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<Vec<T>>, D::Error> {
    Option::<List<T>>::deserialize(deserializer).map(|o| o.map(|l| l.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_arrays_like_vec() {
        let l: List<u32> = serde_json::from_str("[1, 2, 3]").unwrap();
        assert_eq!(l.0, [1, 2, 3]);
        assert!(l.0.capacity() >= LIST_START);
        let long: List<u32> = serde_json::from_str(&format!("{:?}", vec![7; 100])).unwrap();
        assert_eq!(long.0, vec![7; 100]);
        let e = serde_json::from_str::<List<u32>>("{}")
            .unwrap_err()
            .to_string();
        let v = serde_json::from_str::<Vec<u32>>("{}")
            .unwrap_err()
            .to_string();
        assert_eq!(e, v);
        #[derive(serde::Deserialize)]
        struct S {
            #[serde(default, deserialize_with = "opt_list")]
            a: Option<Vec<u32>>,
        }
        assert_eq!(serde_json::from_str::<S>("{}").unwrap().a, None);
        assert_eq!(serde_json::from_str::<S>("{\"a\": null}").unwrap().a, None);
        assert_eq!(
            serde_json::from_str::<S>("{\"a\": [2]}").unwrap().a,
            Some(vec![2])
        );
    }
}
