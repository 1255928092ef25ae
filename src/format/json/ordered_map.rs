//! JSON objects used as maps, read in file order.

use arrayvec::ArrayString;
use foldhash::HashSetExt;
use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};

/// A JSON object's members in file order. Keys may repeat; loaders decide whether that is an
/// error (they report it with the member's position, see [`super::path::Seg::Entry`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderedMap<T>(pub Vec<(SmallKey, T)>);

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
        let mut seen = foldhash::HashSet::with_capacity(self.0.len());
        // Hashed as stored: `as_str` would validate the UTF-8 again.
        self.0.iter().position(|(k, _)| !seen.insert(k))
    }
}

/// Bytes a [`SmallKey`] holds without an allocation (the key and name fields of the Spine
/// exports average about 10 bytes; attachment paths such as `shine/lower-side-1-shine` run
/// to 24). 24 is the most that keeps a key 32 bytes: the inline length is a `u32`.
const INLINE_KEY: usize = 24;

// A longer inline key would make every map entry larger (and every move of one dearer).
const _: () = assert!(std::mem::size_of::<SmallKey>() == 32);

/// An object's key, held inline when short. Most keys of a Spine export are short names read
/// once and only compared or looked up; as `String`s they were a third of a load's
/// allocations. The inline form is an `ArrayString` (checked text) rather than bytes, so
/// reading it back as `&str` does not validate the UTF-8 again (that was ~110 instructions
/// per name, paid on every lookup).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum SmallKey {
    Inline(ArrayString<INLINE_KEY>),
    Heap(Box<str>),
}

impl SmallKey {
    pub fn new(s: &str) -> SmallKey {
        match ArrayString::from(s) {
            Ok(a) => SmallKey::Inline(a),
            Err(_) => SmallKey::Heap(s.into()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            SmallKey::Inline(a) => a.as_str(),
            SmallKey::Heap(s) => s,
        }
    }
}

impl Deref for SmallKey {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl Default for SmallKey {
    fn default() -> SmallKey {
        SmallKey::Inline(ArrayString::new())
    }
}

impl From<String> for SmallKey {
    fn from(s: String) -> SmallKey {
        match ArrayString::from(&s) {
            Ok(a) => SmallKey::Inline(a),
            Err(_) => SmallKey::Heap(s.into_boxed_str()),
        }
    }
}

impl From<&str> for SmallKey {
    fn from(s: &str) -> SmallKey {
        SmallKey::new(s)
    }
}

impl From<SmallKey> for String {
    fn from(k: SmallKey) -> String {
        match k {
            SmallKey::Inline(..) => k.as_str().to_owned(),
            SmallKey::Heap(s) => s.into(),
        }
    }
}

impl PartialEq<str> for SmallKey {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for SmallKey {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for SmallKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for SmallKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SmallKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;

        impl Visitor<'_> for V {
            type Value = SmallKey;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<SmallKey, E> {
                Ok(SmallKey::new(v))
            }

            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<SmallKey, E> {
                Ok(if v.len() <= INLINE_KEY {
                    SmallKey::new(&v)
                } else {
                    SmallKey::Heap(v.into_boxed_str())
                })
            }
        }

        deserializer.deserialize_str(V)
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
                while let Some(entry) = map.next_entry::<SmallKey, T>()? {
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
    fn a_key_from_an_owned_string_is_the_key_from_its_text() {
        for text in [
            "",
            "a",
            "é日🙂",
            &"x".repeat(INLINE_KEY),
            &"y".repeat(INLINE_KEY + 1),
        ] {
            let from_owned = SmallKey::from(text.to_string());
            assert_eq!(from_owned, SmallKey::new(text));
            assert_eq!(from_owned.as_str(), text);
            assert_eq!(
                matches!(from_owned, SmallKey::Inline(_)),
                text.len() <= INLINE_KEY
            );
        }
        assert_eq!(SmallKey::default().as_str(), "");
    }

    #[test]
    fn keeps_file_order_and_repeats() {
        let m: OrderedMap<i32> =
            serde_json::from_str(r#"{"z": 1, "a": 2, "m": 3, "a": 4}"#).unwrap();
        let keys: Vec<_> = m.0.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(keys, [("z", 1), ("a", 2), ("m", 3), ("a", 4)]);
        assert_eq!(m.first_duplicate(), Some(3));
        let big = |repeat: usize| {
            let mut m = OrderedMap(
                (0..40)
                    .map(|i| (SmallKey::new(&i.to_string()), i))
                    .collect(),
            );
            m.0.push((SmallKey::new(&repeat.to_string()), 0));
            m
        };
        assert_eq!(big(7).first_duplicate(), Some(40));
        assert_eq!(big(99).first_duplicate(), None);
        let k: MapKey<'_> = serde_json::from_str("\"a\\\"b\"").unwrap();
        assert_eq!(k.as_str(), "a\"b");
        let small = OrderedMap(vec![("a".into(), 1), ("b".into(), 2)]);
        assert_eq!(small.first_duplicate(), None);
        let long = "a key longer than twenty-two bytes";
        let keys: OrderedMap<i32> =
            serde_json::from_str(&format!(r#"{{"{long}": 1, "\u00e9t\u00e9": 2, "": 3}}"#))
                .unwrap();
        assert!(matches!(keys.0[0].0, SmallKey::Heap(_)));
        assert_eq!(keys.0[0].0.as_str(), long);
        assert!(matches!(keys.0[1].0, SmallKey::Inline(..)));
        assert_eq!(keys.0[1].0.as_str(), "été");
        assert_eq!(keys.0[2].0.as_str(), "");
        assert_eq!(String::from(keys.0[1].0.clone()), "été");
        assert_eq!(String::from(keys.0[0].0.clone()), long);
        assert!(serde_json::from_str::<OrderedMap<i32>>("[1]").is_err());
    }
}
