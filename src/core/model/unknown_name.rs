//! A name asked for that the skeleton does not have.

use crate::text::sanitize;

/// What kind of item a name was looked up among.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    Animation,
    Skin,
    Bone,
}

impl NameKind {
    /// The singular word ("animation").
    pub fn word(self) -> &'static str {
        match self {
            NameKind::Animation => "animation",
            NameKind::Skin => "skin",
            NameKind::Bone => "bone",
        }
    }
}

/// No item of this kind has this name; `choices` lists the names there are, when the caller
/// wants them said.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("no {} \"{}\"{}", .kind.word(), sanitize(.name), .choices.as_ref().map(|c| format!("; the {}s are: {c}", .kind.word())).unwrap_or_default())]
pub struct UnknownName {
    pub kind: NameKind,
    /// The name as asked (unsanitized; the message sanitizes it).
    pub name: String,
    /// The names there are, listed for a person (already sanitized).
    pub choices: Option<String>,
}

impl UnknownName {
    /// An unknown name without a listing of the choices.
    pub fn new(kind: NameKind, name: &str) -> UnknownName {
        UnknownName {
            kind,
            name: name.to_string(),
            choices: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_sanitizes_the_name_and_lists_choices() {
        let mut e = UnknownName::new(NameKind::Skin, "red\u{1b}[2J");
        assert_eq!(e.to_string(), "no skin \"red\\e[2J\"");
        e.choices = Some("a, b".into());
        assert_eq!(e.to_string(), "no skin \"red\\e[2J\"; the skins are: a, b");
    }
}
