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
        let channel = |hi, lo| hex_pair(hi, lo).map(|v| f64::from(v) / 255.0);
        match *hex.as_bytes() {
            [r0, r1, g0, g1, b0, b1] => Some(Color::rgba(
                channel(r0, r1)?,
                channel(g0, g1)?,
                channel(b0, b1)?,
                1.0,
            )),
            [r0, r1, g0, g1, b0, b1, a0, a1] => Some(Color::rgba(
                channel(r0, r1)?,
                channel(g0, g1)?,
                channel(b0, b1)?,
                channel(a0, a1)?,
            )),
            _ => None,
        }
    }

    /// Clamps every channel into 0..1.
    pub fn clamped(self) -> Color {
        let c = |v: f64| v.clamp(0.0, 1.0);
        Color::rgba(c(self.r), c(self.g), c(self.b), c(self.a))
    }
}

/// The value of two bytes as `u8::from_str_radix(text, 16)` reads them, leading `+` included
/// ("+f" is 15), by table: colours are parsed for every colour key, and the library's general
/// parser was 3 % of a load of colour-keyed exports.
#[inline]
fn hex_pair(hi: u8, lo: u8) -> Option<u8> {
    let (hi, lo) = (HEX_DIGIT[hi as usize], HEX_DIGIT[lo as usize]);
    match (hi, lo) {
        (0..=15, 0..=15) => Some(hi * 16 + lo),
        (PLUS, 0..=15) => Some(lo),
        _ => None,
    }
}

/// [`HEX_DIGIT`]'s mark for `+`; other non-digits are 255.
const PLUS: u8 = 16;

/// Each byte's hex digit value, [`PLUS`] for `+`, 255 for anything else.
const HEX_DIGIT: [u8; 256] = {
    let mut table = [255u8; 256];
    let mut i = 0;
    while i < 10 {
        table[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        table[b'a' as usize + i] = 10 + i as u8;
        table[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    table[b'+' as usize] = PLUS;
    table
};

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
        assert!(Color::from_hex("é0000").is_none());
        assert_eq!(Color::from_hex("+f0000").unwrap().r, 15.0 / 255.0);
    }

    #[test]
    fn hex_pairs_read_as_from_str_radix_reads_them() {
        for hi in 0..=255u8 {
            for lo in 0..=255u8 {
                let pair = [hi, lo];
                let expected = std::str::from_utf8(&pair)
                    .ok()
                    .and_then(|s| u8::from_str_radix(s, 16).ok());
                assert_eq!(hex_pair(hi, lo), expected, "{pair:?}");
            }
        }
    }
}
