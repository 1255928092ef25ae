//! RGBA colors with 0..1 channels.

/// A color with channels in 0..1, kept in `f64` like the reference runtime's slot colors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Color {
    pub r: f64,
    pub g: f64,
    pub b: f64,
    pub a: f64,
}

impl Color {
    pub const WHITE: Color = Color::rgba(1.0, 1.0, 1.0, 1.0);
    pub const BLACK: Color = Color::rgba(0.0, 0.0, 0.0, 1.0);

    pub const fn rgba(r: f64, g: f64, b: f64, a: f64) -> Color {
        Color { r, g, b, a }
    }

    /// Parses `RRGGBB` or `RRGGBBAA` hex (alpha defaults to FF). Returns `None` on bad input.
    pub fn from_hex(hex: &str) -> Option<Color> {
        let bytes = hex.as_bytes();
        if bytes.len() != 6 && bytes.len() != 8 {
            return None;
        }
        let channel = |i: usize| -> Option<f64> {
            let s = hex.get(i * 2..i * 2 + 2)?;
            u8::from_str_radix(s, 16).ok().map(|v| v as f64 / 255.0)
        };
        let a = if bytes.len() == 8 { channel(3)? } else { 1.0 };
        Some(Color::rgba(channel(0)?, channel(1)?, channel(2)?, a))
    }

    /// Clamps every channel into 0..1.
    pub fn clamped(self) -> Color {
        let c = |v: f64| v.clamp(0.0, 1.0);
        Color::rgba(c(self.r), c(self.g), c(self.b), c(self.a))
    }
}

impl Default for Color {
    fn default() -> Self {
        Color::WHITE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex() {
        let c = Color::from_hex("ff000080").unwrap();
        assert_eq!((c.r, c.g, c.b), (1.0, 0.0, 0.0));
        assert!((c.a - 128.0 / 255.0).abs() < 1e-12);
        assert_eq!(Color::from_hex("00ff00").unwrap().a, 1.0);
        assert!(Color::from_hex("zz0000").is_none());
        assert!(Color::from_hex("fff").is_none());
        assert!(Color::from_hex("ééé").is_none());
    }
}
