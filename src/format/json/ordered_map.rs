//! JSON objects used as maps, read in file order.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// A JSON object's members in file order. Keys may repeat; loaders decide whether that is an
/// error (they report it with the member's position, see [`super::path::Seg::Entry`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderedMap<T>(pub Vec<(String, T)>);

impl<T> Default for OrderedMap<T> {
    fn default() -> Self {
        OrderedMap(Vec::new())
    }
}

impl<T> OrderedMap<T> {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The index of the first member whose key repeats an earlier key.
    pub fn first_duplicate(&self) -> Option<usize> {
        // Most maps are small: comparing pairs is cheaper than building a set.
        if self.0.len() <= 16 {
            return (1..self.0.len()).find(|&i| self.0[..i].iter().any(|(k, _)| *k == self.0[i].0));
        }
        let mut seen = std::collections::HashSet::with_capacity(self.0.len());
        self.0.iter().position(|(k, _)| !seen.insert(k.as_str()))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OrderedMap<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = OrderedMap<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0).min(1024));
                while let Some(entry) = map.next_entry::<String, T>()? {
                    out.push(entry);
                }
                Ok(OrderedMap(out))
            }
        }

        deserializer.deserialize_map(V(PhantomData))
    }
}

/// An object's key read without a copy when the text holds it unescaped (for keys that are
/// only compared, such as timeline names).
pub struct MapKey<'de>(Cow<'de, str>);

impl MapKey<'_> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for MapKey<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl<'de> Visitor<'de> for V {
            type Value = MapKey<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: serde::de::Error>(
                self,
                v: &'de str,
            ) -> Result<MapKey<'de>, E> {
                Ok(MapKey(Cow::Borrowed(v)))
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<MapKey<'de>, E> {
                Ok(MapKey(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<MapKey<'de>, E> {
                Ok(MapKey(Cow::Owned(v)))
            }
        }

        deserializer.deserialize_str(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_file_order_and_repeats() {
        let m: OrderedMap<i32> =
            serde_json::from_str(r#"{"z": 1, "a": 2, "m": 3, "a": 4}"#).unwrap();
        let keys: Vec<_> = m.0.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(keys, [("z", 1), ("a", 2), ("m", 3), ("a", 4)]);
        assert_eq!(m.first_duplicate(), Some(3));
        let big = |repeat: usize| {
            let mut m = OrderedMap((0..40).map(|i| (i.to_string(), i)).collect());
            m.0.push((repeat.to_string(), 0));
            m
        };
        assert_eq!(big(7).first_duplicate(), Some(40));
        assert_eq!(big(99).first_duplicate(), None);
        let k: MapKey<'_> = serde_json::from_str("\"a\\\"b\"").unwrap();
        assert_eq!(k.as_str(), "a\"b");
        let small = OrderedMap(vec![("a".to_string(), 1), ("b".to_string(), 2)]);
        assert_eq!(small.first_duplicate(), None);
        assert!(serde_json::from_str::<OrderedMap<i32>>("[1]").is_err());
    }
}
