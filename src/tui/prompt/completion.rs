//! Tab completion at the prompt: the verb, then what the verb takes at that position
//! (animation, skin or bone names, `loop`, physics modes). One match completes; several
//! extend to their common prefix, and further Tabs cycle through them.

use crate::core::model::SkeletonData;

/// Every verb the prompt runs (animation commands, then viewer verbs).
pub const VERBS: &[&str] = &[
    "set",
    "queue",
    "add",
    "empty",
    "queue-empty",
    "clear",
    "mix",
    "alpha",
    "timescale",
    "physics",
    "seek",
    "frame",
    "step",
    "play",
    "home",
    "in",
    "out",
    "range",
    "track",
    "pin",
    "unpin",
    "save",
    "skin",
    "bone",
];

/// What a word position takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Verb,
    Animation,
    Skin,
    Bone,
    Fixed(&'static [&'static str]),
    Nothing,
}

/// What word `index` (0 = the verb) of a line starting with `verb` takes.
fn slot(verb: &str, index: usize) -> Slot {
    match (verb, index) {
        (_, 0) => Slot::Verb,
        ("set" | "queue" | "add", 2) | ("mix", 1 | 2) | ("pin", 1) => Slot::Animation,
        ("set" | "queue", 3) | ("add", 4) => Slot::Fixed(&["loop"]),
        ("skin", _) => Slot::Skin,
        ("bone", 1) => Slot::Bone,
        ("physics", 1) => Slot::Fixed(&["update", "pose", "none", "reset"]),
        ("clear", 1) => Slot::Fixed(&["all"]),
        ("range", 1) => Slot::Fixed(&["off"]),
        _ => Slot::Nothing,
    }
}

/// A word of the line: where it starts (bytes) and its text without quotes.
fn words(line: &str) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut cur: Option<(usize, String)> = None;
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        if c == '"' {
            quoted = !quoted;
            cur.get_or_insert((i, String::new()));
        } else if c.is_whitespace() && !quoted {
            out.extend(cur.take());
        } else {
            cur.get_or_insert((i, String::new())).1.push(c);
        }
    }
    out.extend(cur);
    out
}

/// The candidates for the word under the cursor (the end of `line`): where that word
/// starts, and the names that fit it (prefix matches first; else names containing it).
pub fn candidates(line: &str, data: &SkeletonData) -> (usize, Vec<String>) {
    let mut ws = words(line);
    let ends_in_space = line.chars().last().is_some_and(char::is_whitespace)
        && line.matches('"').count().is_multiple_of(2);
    let (start, word) = if ends_in_space || ws.is_empty() {
        (line.len(), String::new())
    } else {
        ws.pop().unwrap_or_default()
    };
    let index = ws.len();
    let verb = ws.first().map_or(word.as_str(), |(_, w)| w.as_str());
    let pool: Vec<String> = match slot(verb, index) {
        Slot::Verb => VERBS.iter().map(|v| v.to_string()).collect(),
        Slot::Animation => data.animations.iter().map(|a| a.name.clone()).collect(),
        Slot::Skin => data.skins.iter().map(|s| s.name.clone()).collect(),
        Slot::Bone => data.bones.iter().map(|b| b.name.clone()).collect(),
        Slot::Fixed(list) => list.iter().map(|s| s.to_string()).collect(),
        Slot::Nothing => Vec::new(),
    };
    let mut found: Vec<String> = pool
        .iter()
        .filter(|n| n.starts_with(&word))
        .cloned()
        .collect();
    if found.is_empty() && !word.is_empty() {
        let low = word.to_lowercase();
        found = pool
            .into_iter()
            .filter(|n| n.to_lowercase().contains(&low))
            .collect();
    }
    (start, found)
}

/// A name as the prompt reads it (double-quoted when it holds a space).
fn quoted(name: &str) -> String {
    if name.chars().any(char::is_whitespace) {
        format!("\"{name}\"")
    } else {
        name.to_string()
    }
}

/// The longest prefix all names share (on char boundaries).
fn common_prefix(names: &[String]) -> String {
    let Some(first) = names.first() else {
        return String::new();
    };
    let mut end = first.len();
    for n in &names[1..] {
        end = first
            .char_indices()
            .zip(n.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(end);
    }
    first[..end].to_string()
}

/// Tab state: the candidates being cycled, when several matched.
#[derive(Clone, Debug, Default)]
pub struct Completer {
    cycle: Option<Cycle>,
}

#[derive(Clone, Debug)]
struct Cycle {
    start: usize,
    names: Vec<String>,
    next: usize,
    /// The line as the last Tab left it (typing anything else ends the cycle).
    left: String,
}

impl Completer {
    /// Completes `input` in place; returns the hint to show (the candidates, or why none).
    pub fn tab(&mut self, input: &mut String, data: &SkeletonData) -> String {
        if let Some(c) = self.cycle.as_mut().filter(|c| c.left == *input) {
            let name = &c.names[c.next % c.names.len()];
            c.next += 1;
            input.truncate(c.start);
            input.push_str(&quoted(name));
            c.left = input.clone();
            return listing(&c.names);
        }
        self.cycle = None;
        let (start, names) = candidates(input, data);
        match names.len() {
            0 => "no completion".into(),
            1 => {
                input.truncate(start);
                input.push_str(&quoted(&names[0]));
                input.push(' ');
                String::new()
            }
            _ => {
                let typed = words(&input[start..])
                    .pop()
                    .map(|(_, w)| w)
                    .unwrap_or_default();
                let prefix = common_prefix(&names);
                input.truncate(start);
                if prefix.len() > typed.len() && prefix.starts_with(&typed) {
                    // Open the quote so a later Tab or typing continues the name.
                    if names.iter().any(|n| n.chars().any(char::is_whitespace)) {
                        input.push('"');
                    }
                    input.push_str(&prefix);
                    self.cycle = Some(Cycle {
                        start,
                        names: names.clone(),
                        next: 0,
                        left: input.clone(),
                    });
                } else {
                    input.push_str(&quoted(&names[0]));
                    self.cycle = Some(Cycle {
                        start,
                        names: names.clone(),
                        next: 1,
                        left: input.clone(),
                    });
                }
                listing(&names)
            }
        }
    }

    /// Typing or history ends a cycle.
    pub fn reset(&mut self) {
        self.cycle = None;
    }
}

/// The candidates as a hint (the first few and a count).
fn listing(names: &[String]) -> String {
    const SHOWN: usize = 12;
    let mut s = names
        .iter()
        .take(SHOWN)
        .map(|n| crate::text::sanitize(n).into_owned())
        .collect::<Vec<_>>()
        .join("  ");
    if names.len() > SHOWN {
        s.push_str(&format!("  (+{} more)", names.len() - SHOWN));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::animation::Animation;
    use crate::core::model::{BoneData, Skin};

    fn data() -> SkeletonData {
        let mut d = SkeletonData::default();
        for a in ["walk", "wave", "big wave", "idle"] {
            d.animations.push(Animation::new(a, vec![]));
        }
        for s in ["default", "eyes/blue", "eyes/green", "hair/pink"] {
            d.skins.push(Skin::new(s));
        }
        for b in ["root", "hip", "head"] {
            d.bones.push(BoneData::new(b, None));
        }
        d
    }

    fn tab(line: &str) -> (String, String) {
        let mut input = line.to_string();
        let hint = Completer::default().tab(&mut input, &data());
        (input, hint)
    }

    #[test]
    fn completes_verbs_and_names_by_position() {
        assert_eq!(tab("ti").0, "timescale ");
        assert_eq!(tab("set 0 wal").0, "set 0 walk ");
        assert_eq!(tab("set 0 walk l").0, "set 0 walk loop ");
        assert_eq!(tab("skin hair").0, "skin hair/pink ");
        assert_eq!(tab("skin hair/pink eyes/g").0, "skin hair/pink eyes/green ");
        assert_eq!(tab("bone he").0, "bone head ");
        assert_eq!(tab("physics r").0, "physics reset ");
        assert_eq!(tab("mix walk bi").0, "mix walk \"big wave\" ");
        assert_eq!(tab("pin id").0, "pin idle ");
    }

    #[test]
    fn several_matches_extend_the_prefix_then_cycle() {
        let d = data();
        let mut c = Completer::default();
        let mut input = "skin ey".to_string();
        let hint = c.tab(&mut input, &d);
        assert_eq!(input, "skin eyes/");
        assert_eq!(hint, "eyes/blue  eyes/green");
        c.tab(&mut input, &d);
        assert_eq!(input, "skin eyes/blue");
        c.tab(&mut input, &d);
        assert_eq!(input, "skin eyes/green");
        c.tab(&mut input, &d);
        assert_eq!(input, "skin eyes/blue", "cycles round");
        let mut verbs = "s".to_string();
        let hint = Completer::default().tab(&mut verbs, &d);
        assert_eq!(
            verbs, "set",
            "set, seek, step, save, skin share only s: the first"
        );
        assert!(hint.contains("set") && hint.contains("skin"), "{hint}");
    }

    #[test]
    fn nothing_to_complete_says_so() {
        assert_eq!(tab("seek 1"), ("seek 1".into(), "no completion".into()));
        assert_eq!(
            tab("set 0 fly"),
            ("set 0 fly".into(), "no completion".into())
        );
        assert_eq!(
            tab("set 0 WAV").0,
            "set 0 wave",
            "no prefix match: contains, cycling"
        );
    }

    #[test]
    fn an_empty_line_lists_the_verbs() {
        let (line, hint) = tab("");
        assert_eq!(line, "set");
        assert!(hint.starts_with("set  queue  add"), "{hint}");
    }
}
