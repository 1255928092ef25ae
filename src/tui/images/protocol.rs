//! The ways a picture reaches the terminal, and the `BONESCOPE_IMAGES` override.

/// How pictures are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// Kitty graphics (kitty, WezTerm, Ghostty, Konsole): zlib-compressed RGBA.
    Kitty,
    /// iTerm2 inline images (iTerm2, WezTerm, VS Code): base64 PNG.
    Iterm2,
    /// Sixel (xterm -ti vt340, foot, mlterm, Windows Terminal, tmux 3.4+): a palette image.
    Sixel,
    /// Two pixels a cell, as the upper half block with foreground and background colours.
    HalfBlock,
    /// No pictures.
    Off,
}

impl Protocol {
    /// The name used by `BONESCOPE_IMAGES` and in titles.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Kitty => "kitty",
            Protocol::Iterm2 => "iterm2",
            Protocol::Sixel => "sixel",
            Protocol::HalfBlock => "halfblock",
            Protocol::Off => "off",
        }
    }

    /// Parses a `BONESCOPE_IMAGES` value (case-insensitive); `auto` and empty are `None`
    /// (ask the terminal).
    pub fn parse_override(value: &str) -> Result<Option<Protocol>, String> {
        let v = value.trim().to_ascii_lowercase();
        Ok(Some(match v.as_str() {
            "" | "auto" => return Ok(None),
            "kitty" => Protocol::Kitty,
            "iterm2" | "iterm" => Protocol::Iterm2,
            "sixel" => Protocol::Sixel,
            "halfblock" | "half-block" | "blocks" => Protocol::HalfBlock,
            "off" | "none" | "0" => Protocol::Off,
            _ => {
                return Err(format!(
                    "BONESCOPE_IMAGES={}: expected auto, kitty, sixel, iterm2, halfblock or off",
                    crate::text::sanitize(value)
                ));
            }
        }))
    }

    /// Whether the protocol draws pixels (not cells).
    pub fn is_graphics(self) -> bool {
        matches!(self, Protocol::Kitty | Protocol::Iterm2 | Protocol::Sixel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn override_values() {
        assert_eq!(Protocol::parse_override("auto"), Ok(None));
        assert_eq!(Protocol::parse_override(""), Ok(None));
        for p in [
            Protocol::Kitty,
            Protocol::Iterm2,
            Protocol::Sixel,
            Protocol::HalfBlock,
            Protocol::Off,
        ] {
            assert_eq!(Protocol::parse_override(p.name()), Ok(Some(p)));
        }
        assert_eq!(
            Protocol::parse_override(" SIXEL "),
            Ok(Some(Protocol::Sixel))
        );
        let err = Protocol::parse_override("png").expect_err("unknown");
        assert!(err.contains("BONESCOPE_IMAGES=png"), "{err}");
    }
}
