//! Prompt lines that change the animation state: `set`, `queue`, `add`, `empty`, `clear`,
//! `mix`, `alpha`, `timescale` (entry time scale), `physics`. Parsed into session commands.

use super::PromptError;
use crate::core::model::SkeletonData;
use crate::session::Command;
use crate::text::sanitize;

/// Help lines for these commands (shown in the help overlay and on a parse error).
pub const HELP: &[(&str, &str)] = &[
    (
        "set T ANIM [loop]",
        "play ANIM on track T now (mixing from what plays)",
    ),
    (
        "queue T ANIM [loop]",
        "queue ANIM on track T after the last entry (delay 0)",
    ),
    (
        "add T ANIM DELAY [loop]",
        "queue ANIM on track T with DELAY seconds",
    ),
    (
        "empty T MIX",
        "mix track T out to the setup pose over MIX seconds",
    ),
    ("queue-empty T MIX", "queue a mix out to the setup pose"),
    (
        "clear T | clear all",
        "stop track T (or every track) at once",
    ),
    (
        "mix SECS | mix FROM TO SECS",
        "default mix, or the mix from one animation to another",
    ),
    ("alpha T A", "set the alpha of track T's current entry"),
    (
        "timescale T S",
        "set the time scale of track T's current entry",
    ),
    (
        "physics update|pose|none|reset",
        "how frames run physics constraints (Spine 4.2), or reset them",
    ),
];

fn track(s: Option<&str>) -> Result<usize, PromptError> {
    let s = s.ok_or(PromptError::Missing("track number"))?;
    s.parse::<usize>()
        .map_err(|_| PromptError::not_a(s, "a track number"))
}

fn number(s: Option<&str>, what: &'static str) -> Result<f64, PromptError> {
    let s = s.ok_or(PromptError::Missing(what))?;
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(PromptError::NotANumber {
            word: sanitize(s).into_owned(),
            what,
        }),
    }
}

fn animation(data: &SkeletonData, s: Option<&str>) -> Result<usize, PromptError> {
    let s = s.ok_or(PromptError::Missing("animation name"))?;
    data.find_animation(s)
        .ok_or_else(|| PromptError::NoAnimation(sanitize(s).into_owned()))
}

fn looping(s: Option<&str>) -> Result<bool, PromptError> {
    match s {
        None => Ok(false),
        Some("loop") => Ok(true),
        Some(other) => Err(PromptError::NotLoop(sanitize(other).into_owned())),
    }
}

/// Parses one prompt line that changes the animation state. Animation names with spaces
/// can be quoted with double quotes.
pub fn parse(line: &str, data: &SkeletonData) -> Result<Command, PromptError> {
    let words = split(line)?;
    let mut it = words.iter().map(String::as_str);
    let verb = it.next().ok_or(PromptError::Empty)?;
    let cmd = match verb {
        "set" => {
            let t = track(it.next())?;
            let a = animation(data, it.next())?;
            Command::SetAnimation {
                track: t,
                animation: a,
                looping: looping(it.next())?,
            }
        }
        "queue" => {
            let t = track(it.next())?;
            let a = animation(data, it.next())?;
            Command::AddAnimation {
                track: t,
                animation: a,
                looping: looping(it.next())?,
                delay: 0.0,
            }
        }
        "add" => {
            let t = track(it.next())?;
            let a = animation(data, it.next())?;
            let delay = number(it.next(), "delay")?;
            Command::AddAnimation {
                track: t,
                animation: a,
                looping: looping(it.next())?,
                delay,
            }
        }
        "empty" => Command::SetEmptyAnimation {
            track: track(it.next())?,
            mix_duration: number(it.next(), "mix")?,
        },
        "queue-empty" => Command::AddEmptyAnimation {
            track: track(it.next())?,
            mix_duration: number(it.next(), "mix")?,
            delay: 0.0,
        },
        "clear" => match it.next() {
            Some("all") => Command::ClearTracks,
            t => Command::ClearTrack { track: track(t)? },
        },
        "mix" => {
            let rest: Vec<&str> = it.by_ref().collect();
            match rest.as_slice() {
                [secs] => Command::DefaultMix {
                    duration: number(Some(secs), "mix")?,
                },
                [from, to, secs] => Command::SetMix {
                    from: animation(data, Some(from))?,
                    to: animation(data, Some(to))?,
                    duration: number(Some(secs), "mix")?,
                },
                _ => return Err(PromptError::Usage("mix SECS, or mix FROM TO SECS")),
            }
        }
        "alpha" => Command::TrackAlpha {
            track: track(it.next())?,
            alpha: number(it.next(), "alpha")?,
        },
        "timescale" => Command::TrackTimeScale {
            track: track(it.next())?,
            time_scale: number(it.next(), "time scale")?,
        },
        "physics" => {
            use crate::core::skeleton::Physics;
            match it.next() {
                Some("update") => Command::PhysicsMode {
                    mode: Physics::Update,
                },
                Some("pose") => Command::PhysicsMode {
                    mode: Physics::Pose,
                },
                Some("none") => Command::PhysicsMode {
                    mode: Physics::None,
                },
                Some("reset") => Command::ResetPhysics,
                Some(other) => {
                    return Err(PromptError::not_a(other, "update, pose, none or reset"));
                }
                None => return Err(PromptError::Usage("physics update|pose|none|reset")),
            }
        }
        other => return Err(PromptError::UnknownCommand(sanitize(other).into_owned())),
    };
    if let Some(extra) = it.next() {
        return Err(PromptError::unexpected(extra));
    }
    cmd.validate(data)
        .map_err(|e| PromptError::Invalid(e.into()))?;
    Ok(cmd)
}

/// Splits on spaces, keeping "double quoted" words together.
pub fn split(line: &str) -> Result<Vec<String>, PromptError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if quoted {
        return Err(PromptError::UnterminatedQuote);
    }
    if any {
        words.push(cur);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::animation::Animation;

    fn data() -> SkeletonData {
        let mut d = SkeletonData::default();
        d.animations.push(Animation::new("walk", vec![]));
        d.animations.push(Animation::new("big wave", vec![]));
        d
    }

    #[test]
    fn parses_the_commands() {
        let d = data();
        assert_eq!(
            parse("set 1 walk loop", &d),
            Ok(Command::SetAnimation {
                track: 1,
                animation: 0,
                looping: true
            })
        );
        assert_eq!(
            parse("queue 0 \"big wave\"", &d),
            Ok(Command::AddAnimation {
                track: 0,
                animation: 1,
                looping: false,
                delay: 0.0
            })
        );
        assert_eq!(
            parse("add 2 walk 0.5", &d),
            Ok(Command::AddAnimation {
                track: 2,
                animation: 0,
                looping: false,
                delay: 0.5
            })
        );
        assert_eq!(parse("clear all", &d), Ok(Command::ClearTracks));
        assert_eq!(parse("physics reset", &d), Ok(Command::ResetPhysics));
        assert_eq!(
            parse("physics none", &d),
            Ok(Command::PhysicsMode {
                mode: crate::core::skeleton::Physics::None
            })
        );
        assert!(parse("physics fast", &d).is_err());
        assert_eq!(
            parse("mix 0.2", &d),
            Ok(Command::DefaultMix { duration: 0.2 })
        );
        assert_eq!(
            parse("alpha 1 0.5", &d),
            Ok(Command::TrackAlpha {
                track: 1,
                alpha: 0.5
            })
        );
    }

    #[test]
    fn errors_are_clear_and_sanitized() {
        let d = data();
        let e = parse("set 1 run", &d).unwrap_err();
        assert_eq!(e, PromptError::NoAnimation("run".into()));
        assert_eq!(e.to_string(), "no animation \"run\"");
        assert_eq!(
            parse("set x walk", &d).unwrap_err().to_string(),
            "\"x\" is not a track number"
        );
        assert!(matches!(
            parse("fly", &d),
            Err(PromptError::UnknownCommand(_))
        ));
        assert_eq!(
            parse("set 1 \"w\u{1b}", &d),
            Err(PromptError::UnterminatedQuote)
        );
        assert_eq!(
            parse("set 1 \"run\u{1b}[2J\"", &d).unwrap_err().to_string(),
            "no animation \"run\\e[2J\""
        );
        assert!(parse("alpha 1 NaN", &d).is_err());
        assert!(parse("set 999 walk", &d).is_err());
    }
}
