//! The two floors a JSON loader is measured against (see `Cargo.toml` for why this is a
//! package of its own).

use serde::de::IgnoredAny;

/// What a floor parse builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Floor {
    /// A `serde_json::Value` DOM: every key a `String`, every object a map.
    Value,
    /// Nothing (`IgnoredAny`): the syntax check alone.
    Ignored,
}

/// What [`parse_once`] returns (kept until the caller drops it, outside any clock).
pub enum Parsed {
    Value(serde_json::Value),
    Ignored(IgnoredAny),
}

impl Floor {
    pub fn from_name(name: &str) -> Option<Floor> {
        match name {
            "value" => Some(Floor::Value),
            "ignored" => Some(Floor::Ignored),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Floor::Value => "value",
            Floor::Ignored => "ignored",
        }
    }
}

/// One parse of `bytes`. Not inlined, so that profilers can attribute it. Panics on text
/// that is not JSON (the inputs are the benchmark's own files).
#[inline(never)]
pub fn parse_once(floor: Floor, bytes: &[u8]) -> Parsed {
    match floor {
        Floor::Value => Parsed::Value(serde_json::from_slice(bytes).expect("valid JSON")),
        Floor::Ignored => Parsed::Ignored(serde_json::from_slice(bytes).expect("valid JSON")),
    }
}

/// True when serde_json was built with its `float_roundtrip` feature (it must not be here).
pub fn float_roundtrip_enabled() -> bool {
    // 2.2250738585072011e-308 is the classic number whose plain (fast) parse differs from the
    // correctly rounded one that `float_roundtrip` gives.
    let text = "2.2250738585072011e-308";
    let parsed: f64 = serde_json::from_str(text).expect("a number");
    parsed.to_bits() == text.parse::<f64>().expect("a number").to_bits()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_json_is_plain() {
        assert!(
            !float_roundtrip_enabled(),
            "serde_json has float_roundtrip: the floor would be inflated"
        );
    }

    #[test]
    fn both_floors_parse() {
        assert!(matches!(
            parse_once(Floor::Value, b"{\"a\": [1.5]}"),
            Parsed::Value(_)
        ));
        assert!(matches!(
            parse_once(Floor::Ignored, b"[1, {}]"),
            Parsed::Ignored(_)
        ));
    }
}
