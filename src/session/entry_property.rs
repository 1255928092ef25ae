//! Track-entry properties as the JSON inputs name them (scenario files' `entry` steps and
//! recordings' `entry` calls), read into [`EntrySetting`]s: one reader for both.

use crate::core::animation::MixBlend;
use crate::core::model::RuntimeVersion;
use crate::session::EntrySetting;
use crate::text::sanitize;
use serde_json::Value;
use thiserror::Error;

/// Why a property cannot be set.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum EntryPropertyError {
    #[error("entry property \"{}\" must be a number", sanitize(.0))]
    NotANumber(String),
    #[error("entry property \"{}\" must be true or false", sanitize(.0))]
    NotABoolean(String),
    #[error("mixBlend {} is not setup, first, replace or add", sanitize(.0))]
    NotABlend(String),
    #[error("setMixDuration must be [mixDuration, delay]")]
    NotAPair,
    /// A name the protocol does not define, or one the export's runtime does not have.
    #[error("unknown entry property \"{}\" for this runtime", sanitize(.0))]
    Unknown(String),
}

/// Which runtime line's entry properties exist: 4.0 adds `reverse`, 4.1
/// `shortestRotation`, 4.2 `alphaAttachmentThreshold` and `setMixDuration(mix, delay)`.
fn line(version: RuntimeVersion) -> u32 {
    match version {
        RuntimeVersion::Spine40 => 40,
        RuntimeVersion::Spine41 => 41,
        RuntimeVersion::Spine42 => 42,
        RuntimeVersion::Spine43 => 43,
        _ => 38,
    }
}

/// The setting `key: value` makes on the runtime of `version`; `None` for what sets
/// nothing (`comment`, `resetRotationDirections: false`).
pub fn entry_setting(
    key: &str,
    value: &Value,
    version: RuntimeVersion,
) -> Result<Option<EntrySetting>, EntryPropertyError> {
    use EntrySetting as S;
    let line = line(version);
    let number = || {
        value
            .as_f64()
            .ok_or_else(|| EntryPropertyError::NotANumber(key.to_string()))
    };
    let boolean = || {
        value
            .as_bool()
            .ok_or_else(|| EntryPropertyError::NotABoolean(key.to_string()))
    };
    Ok(Some(match key {
        "comment" => return Ok(None),
        "setMixDuration" if line >= 42 => {
            let pair = value.as_array().filter(|a| a.len() == 2);
            let nums: Option<Vec<f64>> = pair.map(|a| a.iter().filter_map(Value::as_f64).collect());
            match nums.as_deref() {
                Some(&[mix, delay]) => S::SetMixDuration { mix, delay },
                _ => return Err(EntryPropertyError::NotAPair),
            }
        }
        "mixDuration" => S::MixDuration(number()?),
        "trackEnd" => S::TrackEnd(number()?),
        "alpha" => S::Alpha(number()?),
        "timeScale" => S::TimeScale(number()?),
        // 4.3 has no holdPrevious: it is TrackEntry.keepHold there (applied by the setting).
        "holdPrevious" => S::HoldPrevious(boolean()?),
        "eventThreshold" => S::EventThreshold(number()?),
        "attachmentThreshold" => S::AttachmentThreshold(number()?),
        "drawOrderThreshold" => S::DrawOrderThreshold(number()?),
        "delay" => S::Delay(number()?),
        "loop" => S::Loop(boolean()?),
        "trackTime" => S::TrackTime(number()?),
        "animationStart" => S::AnimationStart(number()?),
        "animationEnd" => S::AnimationEnd(number()?),
        "animationLast" => S::AnimationLast(number()?),
        "reverse" if line >= 40 => S::Reverse(boolean()?),
        "shortestRotation" if line >= 41 => S::ShortestRotation(boolean()?),
        "alphaAttachmentThreshold" if line >= 42 => S::AlphaAttachmentThreshold(number()?),
        "resetRotationDirections" => match value {
            // Recordings send the call with no value; scenario files say `true`.
            Value::Null => S::ResetRotationDirections,
            _ if boolean()? => S::ResetRotationDirections,
            _ => return Ok(None),
        },
        "mixBlend" => S::MixBlend(match value.as_str() {
            Some("setup") => MixBlend::Setup,
            Some("first") => MixBlend::First,
            Some("replace") => MixBlend::Replace,
            Some("add") => MixBlend::Add,
            _ => return Err(EntryPropertyError::NotABlend(value.to_string())),
        }),
        other => return Err(EntryPropertyError::Unknown(other.to_string())),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn properties_exist_from_their_runtime_line_on() {
        let v = RuntimeVersion::Spine38;
        assert_eq!(
            entry_setting("reverse", &json!(true), v),
            Err(EntryPropertyError::Unknown("reverse".into()))
        );
        assert_eq!(
            entry_setting("reverse", &json!(true), RuntimeVersion::Spine40),
            Ok(Some(EntrySetting::Reverse(true)))
        );
        assert_eq!(
            entry_setting("setMixDuration", &json!([0.2, 1]), RuntimeVersion::Spine42),
            Ok(Some(EntrySetting::SetMixDuration {
                mix: 0.2,
                delay: 1.0
            }))
        );
        assert_eq!(entry_setting("comment", &json!("x"), v), Ok(None));
        assert_eq!(
            entry_setting("resetRotationDirections", &json!(false), v),
            Ok(None)
        );
        assert_eq!(
            entry_setting("alpha", &json!("1"), v),
            Err(EntryPropertyError::NotANumber("alpha".into()))
        );
        assert_eq!(
            entry_setting("mixBlend", &json!("mul"), v)
                .unwrap_err()
                .to_string(),
            "mixBlend \"mul\" is not setup, first, replace or add"
        );
    }
}
