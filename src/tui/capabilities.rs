//! What the terminal can show, decided once from the environment: whether it takes UTF-8
//! (else everything on screen is ASCII), how many colours it gets (no 256-colour or 24-bit
//! escapes unless it says it has them), and the densest point marker it can draw.
//!
//! The rules, in order:
//! - `TERM` unset, `dumb`, `vt52`/`vt100`/`vt102`/`vt220`, or `linux` (the console font has no
//!   braille): ASCII. Dumb and vt terminals get no colour, the console 16 colours.
//! - A locale that is not UTF-8 (the first non-empty of `LC_ALL`, `LC_CTYPE`, `LANG`; none at
//!   all is the POSIX locale): ASCII.
//! - `NO_COLOR` (non-empty): no colour. `COLORTERM=truecolor|24bit`: 24-bit colour. Otherwise
//!   the 16 ANSI colours.
//! - Scroll margins (DECSTBM, VT100 on): all but `TERM` unset, `dumb` and `vt52`.
//! - Marker: ASCII when the screen is ASCII; octants on terminals known to draw them (kitty,
//!   ghostty, foot, WezTerm); sextants on VTE terminals (GNOME Terminal and kin, VTE 0.60+);
//!   braille otherwise (every UTF-8 terminal font has it).

use crate::tui::theme::ColorMode;
use crate::tui::views::MarkerKind;

/// What the terminal can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// The terminal takes UTF-8 and has fonts for box drawing and braille; false: ASCII only.
    pub unicode: bool,
    /// The colours it gets.
    pub color: ColorMode,
    /// The densest marker it can draw.
    pub marker: MarkerKind,
    /// It takes scroll margins (DECSTBM), so a band of rows can be scrolled.
    pub scroll_regions: bool,
}

/// Terminal types that get ASCII whatever the locale.
fn ascii_term(term: &str) -> bool {
    matches!(
        term,
        "" | "dumb" | "linux" | "vt52" | "vt100" | "vt102" | "vt220" | "ansi"
    ) || term.starts_with("vt100-")
        || term.starts_with("vt220-")
        || term.starts_with("linux-")
}

/// Terminal types without any colour.
fn colorless_term(term: &str) -> bool {
    matches!(term, "" | "dumb" | "vt52" | "vt100" | "vt102" | "vt220")
        || term.starts_with("vt100-")
        || term.starts_with("vt220-")
}

/// Whether a locale name (`en_US.UTF-8`, `C.utf8`, `C`) selects UTF-8.
fn utf8_locale(name: &str) -> bool {
    let l = name.to_ascii_lowercase();
    l.contains("utf-8") || l.contains("utf8")
}

impl Capabilities {
    /// Decides from environment variables looked up by `var` (empty values count as unset).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Capabilities {
        let get = |k: &str| var(k).filter(|v| !v.is_empty());
        let term = get("TERM").unwrap_or_default();
        let locale = get("LC_ALL")
            .or_else(|| get("LC_CTYPE"))
            .or_else(|| get("LANG"))
            .unwrap_or_else(|| "C".into());
        let unicode = !ascii_term(&term) && utf8_locale(&locale);
        let color = if get("NO_COLOR").is_some() || colorless_term(&term) {
            ColorMode::None
        } else if !ascii_term(&term)
            && get("COLORTERM")
                .map(|v| v.to_ascii_lowercase())
                .is_some_and(|v| v == "truecolor" || v == "24bit")
        {
            ColorMode::TrueColor
        } else {
            ColorMode::Ansi
        };
        let marker = if !unicode {
            MarkerKind::Ascii
        } else if draws_octants(&term, get("TERM_PROGRAM").as_deref()) {
            MarkerKind::Octant
        } else if get("VTE_VERSION")
            .and_then(|v| v.parse::<u32>().ok())
            .is_some_and(|v| v >= 6000)
        {
            MarkerKind::Sextant
        } else {
            MarkerKind::Braille
        };
        Capabilities {
            unicode,
            color,
            marker,
            scroll_regions: !matches!(term.as_str(), "" | "dumb" | "vt52"),
        }
    }

    /// Decides from this process's environment.
    pub fn from_env() -> Capabilities {
        Capabilities::from_vars(|k| std::env::var(k).ok())
    }

    /// The screen is ASCII: the terminal cannot show more, or the user asked for the ASCII
    /// marker (which then covers the whole screen, not only the plots).
    pub fn ascii_screen(&self, marker: MarkerKind) -> bool {
        !self.unicode || marker == MarkerKind::Ascii
    }
}

/// Terminals whose own renderers draw the octants of Unicode 16 (no font needed).
fn draws_octants(term: &str, program: Option<&str>) -> bool {
    matches!(term, "xterm-kitty" | "xterm-ghostty")
        || term == "foot"
        || term.starts_with("foot-")
        || matches!(program, Some("WezTerm" | "ghostty"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(vars: &[(&str, &str)]) -> Capabilities {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Capabilities::from_vars(|k| {
            vars.iter()
                .find(|(name, _)| name == k)
                .map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn utf8_xterm_gets_unicode_braille_and_16_colours() {
        let c = caps(&[("TERM", "xterm-256color"), ("LANG", "en_US.UTF-8")]);
        assert_eq!(
            c,
            Capabilities {
                unicode: true,
                color: ColorMode::Ansi,
                marker: MarkerKind::Braille,
                scroll_regions: true,
            }
        );
        assert!(!c.ascii_screen(MarkerKind::Braille));
        assert!(c.ascii_screen(MarkerKind::Ascii));
    }

    #[test]
    fn dumb_and_vt_terminals_get_ascii_without_colour() {
        for term in ["dumb", "vt100", "vt102", "vt220", ""] {
            let c = caps(&[
                ("TERM", term),
                ("LANG", "C.UTF-8"),
                ("COLORTERM", "truecolor"),
            ]);
            assert!(!c.unicode, "{term}");
            assert_eq!(c.color, ColorMode::None, "{term}");
            assert_eq!(c.marker, MarkerKind::Ascii, "{term}");
            // VT100 has scroll margins; the dumb terminal and an unknown one get none.
            assert_eq!(c.scroll_regions, term.starts_with("vt"), "{term}");
        }
    }

    #[test]
    fn the_linux_console_gets_ascii_with_16_colours() {
        let c = caps(&[
            ("TERM", "linux"),
            ("LANG", "en_US.UTF-8"),
            ("COLORTERM", "truecolor"),
        ]);
        assert!(!c.unicode);
        assert_eq!(c.color, ColorMode::Ansi);
        assert_eq!(c.marker, MarkerKind::Ascii);
    }

    #[test]
    fn a_non_utf8_locale_gets_ascii_and_lc_all_wins() {
        for vars in [
            vec![("TERM", "xterm"), ("LANG", "C")],
            vec![("TERM", "xterm"), ("LANG", "en_US.ISO-8859-1")],
            vec![("TERM", "xterm")],
            vec![
                ("TERM", "xterm"),
                ("LANG", "en_US.UTF-8"),
                ("LC_ALL", "POSIX"),
            ],
            vec![
                ("TERM", "xterm"),
                ("LANG", "en_US.UTF-8"),
                ("LC_CTYPE", "C"),
            ],
        ] {
            let c = caps(&vars);
            assert!(!c.unicode, "{vars:?}");
            assert_eq!(c.marker, MarkerKind::Ascii, "{vars:?}");
            assert_eq!(c.color, ColorMode::Ansi, "{vars:?}");
        }
        // An empty LC_ALL does not count; a UTF-8 LC_CTYPE is enough.
        let c = caps(&[("TERM", "xterm"), ("LC_ALL", ""), ("LC_CTYPE", "C.utf8")]);
        assert!(c.unicode);
    }

    #[test]
    fn no_color_and_colorterm() {
        let base = [("TERM", "xterm-256color"), ("LANG", "C.UTF-8")];
        let with = |extra: &[(&str, &str)]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            caps(&v).color
        };
        assert_eq!(with(&[]), ColorMode::Ansi);
        assert_eq!(with(&[("COLORTERM", "truecolor")]), ColorMode::TrueColor);
        assert_eq!(with(&[("COLORTERM", "24BIT")]), ColorMode::TrueColor);
        assert_eq!(with(&[("COLORTERM", "yes")]), ColorMode::Ansi);
        assert_eq!(
            with(&[("COLORTERM", "truecolor"), ("NO_COLOR", "1")]),
            ColorMode::None
        );
        // NO_COLOR set but empty does not disable colour (no-color.org).
        assert_eq!(with(&[("NO_COLOR", "")]), ColorMode::Ansi);
    }

    #[test]
    fn densest_marker_by_terminal() {
        let m = |vars: &[(&str, &str)]| {
            let mut v = vec![("LANG", "en_US.UTF-8")];
            v.extend_from_slice(vars);
            caps(&v).marker
        };
        assert_eq!(m(&[("TERM", "xterm-kitty")]), MarkerKind::Octant);
        assert_eq!(m(&[("TERM", "xterm-ghostty")]), MarkerKind::Octant);
        assert_eq!(m(&[("TERM", "foot")]), MarkerKind::Octant);
        assert_eq!(
            m(&[("TERM", "xterm-256color"), ("TERM_PROGRAM", "WezTerm")]),
            MarkerKind::Octant
        );
        assert_eq!(
            m(&[("TERM", "xterm-256color"), ("VTE_VERSION", "7600")]),
            MarkerKind::Sextant
        );
        assert_eq!(
            m(&[("TERM", "xterm-256color"), ("VTE_VERSION", "5202")]),
            MarkerKind::Braille
        );
        // Inside tmux the outer terminal is unknown: braille.
        assert_eq!(
            m(&[("TERM", "tmux-256color"), ("TERM_PROGRAM", "tmux")]),
            MarkerKind::Braille
        );
        // No UTF-8: ASCII even on kitty.
        assert_eq!(
            caps(&[("TERM", "xterm-kitty"), ("LANG", "C")]).marker,
            MarkerKind::Ascii
        );
    }
}
