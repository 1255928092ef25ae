//! DragonBones' loose value types. Exporters write numbers as strings (`"NaN"`), booleans as
//! strings (`"false"`) and display types as numbers; the runtime coerces them with fixed rules
//! (docs/dragonbones.md §1), and so do these types.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};

/// A number as the runtime reads it: `null` and `"NaN"` count as absent (the field's default
/// applies), other strings are coerced (`"12"` is 12, anything unparsable 0), booleans are 1/0.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Num(pub Option<f64>);

impl Num {
    /// The value, or `default` when absent.
    pub fn or(self, default: f64) -> f64 {
        self.0.unwrap_or(default)
    }
}

struct NumVisitor;

impl<'de> Visitor<'de> for NumVisitor {
    type Value = Num;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a number (or a numeric string)")
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Num, E> {
        if v.is_finite() {
            Ok(Num(Some(v)))
        } else {
            Err(E::custom(format_args!("number {v} is out of range")))
        }
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Num, E> {
        Ok(Num(Some(v as f64)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Num, E> {
        Ok(Num(Some(v as f64)))
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Num, E> {
        Ok(Num(Some(if v { 1.0 } else { 0.0 })))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Num, E> {
        if v == "NaN" {
            return Ok(Num(None));
        }
        let n = v.trim().parse::<f64>().ok().filter(|n| n.is_finite());
        Ok(Num(Some(n.unwrap_or(0.0))))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Num, E> {
        Ok(Num(None))
    }

    fn visit_none<E: de::Error>(self) -> Result<Num, E> {
        Ok(Num(None))
    }
}

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(NumVisitor)
    }
}

/// A boolean as the runtime reads it: the strings `"0"`, `"NaN"`, `""`, `"false"`, `"null"` and
/// `"undefined"` are false and any other string true; numbers are true unless 0; `null` is false.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Flag(pub Option<bool>);

impl Flag {
    /// The value, or `default` when the field is missing.
    pub fn or(self, default: bool) -> bool {
        self.0.unwrap_or(default)
    }
}

struct FlagVisitor;

impl<'de> Visitor<'de> for FlagVisitor {
    type Value = Flag;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a boolean")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Flag, E> {
        Ok(Flag(Some(v)))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Flag, E> {
        Ok(Flag(Some(v != 0.0)))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Flag, E> {
        Ok(Flag(Some(v != 0)))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Flag, E> {
        Ok(Flag(Some(v != 0)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Flag, E> {
        let falsy = ["0", "NaN", "", "false", "null", "undefined"];
        Ok(Flag(Some(!falsy.contains(&v))))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Flag, E> {
        Ok(Flag(Some(false)))
    }

    fn visit_none<E: de::Error>(self) -> Result<Flag, E> {
        Ok(Flag(Some(false)))
    }
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(FlagVisitor)
    }
}

/// A display's `type`: a name or the runtime's numeric `DisplayType`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DisplayType {
    #[default]
    Image,
    Armature,
    Mesh,
    BoundingBox,
    /// 5.5+ path displays (a curve bones can follow): kept as an outline.
    Path,
}

impl<'de> Deserialize<'de> for DisplayType {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = DisplayType;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(
                    "a display type (\"image\", \"armature\", \"mesh\", \"boundingBox\", \"path\" or 0-4)",
                )
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<DisplayType, E> {
                Ok(match v {
                    "image" => DisplayType::Image,
                    "armature" => DisplayType::Armature,
                    "mesh" => DisplayType::Mesh,
                    "boundingBox" => DisplayType::BoundingBox,
                    "path" => DisplayType::Path,
                    _ => {
                        return Err(E::invalid_value(de::Unexpected::Str(v), &self));
                    }
                })
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<DisplayType, E> {
                Ok(match v {
                    0 => DisplayType::Image,
                    1 => DisplayType::Armature,
                    2 => DisplayType::Mesh,
                    3 => DisplayType::BoundingBox,
                    4 => DisplayType::Path,
                    _ => return Err(E::invalid_value(de::Unexpected::Unsigned(v), &self)),
                })
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<DisplayType, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Signed(v), &self)),
                }
            }
        }
        deserializer.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct T {
        #[serde(default)]
        n: Num,
        #[serde(default)]
        f: Flag,
    }

    fn t(s: &str) -> T {
        serde_json::from_str(s).unwrap()
    }

    #[test]
    fn numbers_coerce_like_the_runtime() {
        assert_eq!(t(r#"{"n": 2.5}"#).n, Num(Some(2.5)));
        assert_eq!(t(r#"{"n": "NaN"}"#).n, Num(None));
        assert_eq!(t(r#"{"n": null}"#).n, Num(None));
        assert_eq!(t(r#"{"n": "12"}"#).n, Num(Some(12.0)));
        assert_eq!(t(r#"{"n": "abc"}"#).n, Num(Some(0.0)));
        assert_eq!(t(r#"{}"#).n, Num(None));
        assert!(serde_json::from_str::<T>(r#"{"n": [1]}"#).is_err());
    }

    #[test]
    fn flags_coerce_like_the_runtime() {
        assert_eq!(t(r#"{"f": "false"}"#).f, Flag(Some(false)));
        assert_eq!(t(r#"{"f": "0"}"#).f, Flag(Some(false)));
        assert_eq!(t(r#"{"f": "yes"}"#).f, Flag(Some(true)));
        assert_eq!(t(r#"{"f": 0}"#).f, Flag(Some(false)));
        assert_eq!(t(r#"{"f": 2}"#).f, Flag(Some(true)));
        assert_eq!(t(r#"{"f": null}"#).f, Flag(Some(false)));
        assert_eq!(t(r#"{}"#).f, Flag(None));
    }

    #[test]
    fn display_types_by_name_or_number() {
        let d: DisplayType = serde_json::from_str("1").unwrap();
        assert_eq!(d, DisplayType::Armature);
        let d: DisplayType = serde_json::from_str("\"mesh\"").unwrap();
        assert_eq!(d, DisplayType::Mesh);
        assert!(serde_json::from_str::<DisplayType>("\"sprite\"").is_err());
        assert!(serde_json::from_str::<DisplayType>("7").is_err());
        let d: DisplayType = serde_json::from_str("\"path\"").unwrap();
        assert_eq!(d, DisplayType::Path);
    }
}
