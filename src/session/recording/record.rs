//! The records of the attach protocol, version 1, and their parsing from one JSON line.

use serde::Deserialize;
use serde_json::Value;

/// The protocol's name in `hello`.
pub const PROTOCOL: &str = "bonescope-attach";
/// The most items one frame may hold.
pub const MAX_ITEMS: usize = 65_536;

/// The first record: who is talking and about which skeleton.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Hello {
    pub protocol: String,
    pub version: u32,
    pub token: String,
    pub runtime: RuntimeInfo,
    pub skeleton: SkeletonRef,
    pub skins: Option<Vec<String>>,
}

/// The game's runtime (`spine-ts` `4.2.119`).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct RuntimeInfo {
    pub name: String,
    pub version: String,
}

/// The skeleton file the game loaded.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct SkeletonRef {
    pub path: Option<String>,
    pub size: Option<u64>,
    pub sha256: Option<String>,
}

/// One line.
#[derive(Clone, Debug, PartialEq)]
pub enum Record {
    Hello(Hello),
    Frame {
        frame: u64,
        items: Vec<Item>,
    },
    /// The recorder dropped lines.
    Gap {
        dropped: u64,
    },
    Bye {
        frames: u64,
        dropped: u64,
    },
}

/// One thing that happened in a frame, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A call the game made; `nested` when made from inside a listener.
    Call {
        call: Call,
        nested: bool,
    },
    Callback(GameCallback),
    /// An item this reader does not know (a newer protocol): reported, skipped.
    Unknown(String),
}

/// A call on the state (names as the game spelled them).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(
    tag = "call",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Call {
    SetAnimation {
        track: usize,
        animation: String,
        #[serde(default)]
        r#loop: bool,
        entry: Option<u64>,
    },
    AddAnimation {
        track: usize,
        animation: String,
        #[serde(default)]
        r#loop: bool,
        #[serde(default)]
        delay: f64,
        entry: Option<u64>,
    },
    SetEmptyAnimation {
        track: usize,
        #[serde(default)]
        mix_duration: f64,
        entry: Option<u64>,
    },
    AddEmptyAnimation {
        track: usize,
        #[serde(default)]
        mix_duration: f64,
        #[serde(default)]
        delay: f64,
        entry: Option<u64>,
    },
    SetEmptyAnimations {
        #[serde(default)]
        mix_duration: f64,
    },
    ClearTrack {
        track: usize,
    },
    ClearTracks,
    SetMix {
        from: String,
        to: String,
        duration: f64,
    },
    DefaultMix {
        duration: f64,
    },
    TimeScale {
        value: f64,
    },
    Entry {
        entry: u64,
        property: String,
        #[serde(default)]
        value: Value,
    },
    SetSkins {
        skins: Vec<String>,
    },
    ResetPhysics,
    Physics {
        mode: String,
    },
    Update {
        dt: f64,
    },
    Apply,
}

/// A listener callback the game's runtime fired.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameCallback {
    #[serde(rename = "callback")]
    pub kind: String,
    #[serde(default)]
    pub track: usize,
    pub entry: u64,
    #[serde(default)]
    pub animation: Option<String>,
    #[serde(default)]
    pub track_time: Option<f64>,
    #[serde(default)]
    pub event: Option<GameEvent>,
}

/// The event of an `event` callback.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct GameEvent {
    pub name: String,
    pub int: i64,
    pub float: f64,
    pub string: Option<String>,
    pub time: f64,
}

/// Why a line is not a record.
#[derive(Debug, Clone, PartialEq)]
pub enum ParseProblem {
    /// Not a record (the line is skipped).
    Fatal(String),
    /// A record kind this version does not know (skipped, reported).
    UnknownKind(String),
}

/// The field `key` of record `kind` as a count, else why not.
fn u64_field(v: &Value, kind: &str, key: &str) -> Result<u64, ParseProblem> {
    v.get(key).and_then(Value::as_u64).ok_or_else(|| {
        ParseProblem::Fatal(format!("{kind}: \"{key}\" must be a non-negative integer"))
    })
}

impl Record {
    /// Parses one line. Items that are not understood become [`Item::Unknown`] with the
    /// reason (the rest of the frame stays usable).
    pub fn parse(line: &[u8]) -> Result<Record, ParseProblem> {
        let v: Value = serde_json::from_slice(line)
            .map_err(|e| ParseProblem::Fatal(format!("not JSON: {e}")))?;
        let kind = v
            .get("kind")
            .and_then(Value::as_str)
            .ok_or_else(|| ParseProblem::Fatal("no \"kind\"".into()))?;
        let fatal = ParseProblem::Fatal;
        match kind {
            "hello" => serde_json::from_value(v)
                .map(Record::Hello)
                .map_err(|e| fatal(format!("hello: {e}"))),
            "frame" => {
                let frame = u64_field(&v, "frame", "frame")?;
                let list = v
                    .get("items")
                    .and_then(Value::as_array)
                    .ok_or_else(|| fatal("frame: \"items\" must be a list".into()))?;
                if list.len() > MAX_ITEMS {
                    return Err(fatal(format!(
                        "frame {frame}: {} items, more than {MAX_ITEMS}",
                        list.len()
                    )));
                }
                let items = list.iter().enumerate().map(|(i, x)| item(i, x)).collect();
                Ok(Record::Frame { frame, items })
            }
            "gap" => Ok(Record::Gap {
                dropped: u64_field(&v, "gap", "dropped")?,
            }),
            "bye" => Ok(Record::Bye {
                frames: v.get("frames").and_then(Value::as_u64).unwrap_or(0),
                dropped: v.get("dropped").and_then(Value::as_u64).unwrap_or(0),
            }),
            other => Err(ParseProblem::UnknownKind(
                crate::text::sanitize(other).into_owned(),
            )),
        }
    }
}

fn item(i: usize, x: &Value) -> Item {
    let unknown = |m: String| Item::Unknown(format!("item {i}: {m}"));
    if x.get("call").is_some() {
        let nested = x.get("nested").and_then(Value::as_bool).unwrap_or(false);
        match serde_json::from_value::<Call>(x.clone()) {
            Ok(call) => Item::Call { call, nested },
            Err(e) => unknown(crate::text::sanitize(&e.to_string()).into_owned()),
        }
    } else if x.get("callback").is_some() {
        match serde_json::from_value::<GameCallback>(x.clone()) {
            Ok(c) => Item::Callback(c),
            Err(e) => unknown(crate::text::sanitize(&e.to_string()).into_owned()),
        }
    } else {
        unknown("neither a call nor a callback".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_with_calls_and_callbacks_parses() {
        let line = br#"{"kind":"frame","frame":3,"items":[{"call":"update","dt":0.5},
            {"callback":"event","track":0,"entry":1,"animation":"walk","event":{"name":"step","int":2}},
            {"call":"setAnimation","track":0,"animation":"run","loop":true,"entry":2,"nested":true},
            {"call":"fly"}]}"#;
        let Record::Frame { frame, items } = Record::parse(line).unwrap() else {
            panic!("not a frame")
        };
        assert_eq!(frame, 3);
        assert_eq!(
            items[0],
            Item::Call {
                call: Call::Update { dt: 0.5 },
                nested: false
            }
        );
        assert!(matches!(&items[1], Item::Callback(c) if c.event.as_ref().unwrap().int == 2));
        assert!(matches!(&items[2], Item::Call { nested: true, .. }));
        assert!(matches!(&items[3], Item::Unknown(m) if m.contains("item 3")));
    }

    #[test]
    fn unknown_kinds_and_junk_are_told_apart() {
        assert_eq!(
            Record::parse(br#"{"kind":"telemetry"}"#),
            Err(ParseProblem::UnknownKind("telemetry".into()))
        );
        assert!(matches!(
            Record::parse(b"{nope"),
            Err(ParseProblem::Fatal(_))
        ));
        assert!(matches!(
            Record::parse(br#"{"kind":"frame","frame":-1,"items":[]}"#),
            Err(ParseProblem::Fatal(_))
        ));
    }
}
