//! JSON objects used as maps, read in file order.

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
        assert!(serde_json::from_str::<OrderedMap<i32>>("[1]").is_err());
    }
}
