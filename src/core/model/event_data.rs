/// A named event with its default payload.
#[derive(Clone, Debug, PartialEq)]
pub struct EventData {
    pub name: String,
    pub int: i32,
    pub float: f64,
    pub string: String,
    pub audio: Option<String>,
    pub volume: f64,
    pub balance: f64,
}

impl EventData {
    /// An event with the format's default payload.
    pub fn new(name: impl Into<String>) -> EventData {
        EventData {
            name: name.into(),
            int: 0,
            float: 0.0,
            string: String::new(),
            audio: None,
            volume: 1.0,
            balance: 0.0,
        }
    }
}

/// An event fired by an animation: its definition plus the key's payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Index into `SkeletonData::events`.
    pub data: usize,
    /// The key's time (storage precision).
    pub time: f64,
    pub int: i32,
    pub float: f64,
    pub string: String,
    pub volume: f64,
    pub balance: f64,
}
