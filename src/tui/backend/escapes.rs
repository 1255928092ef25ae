//! The escape sequences the backend writes: SGR attribute changes (shortest of incremental
//! and reset), cursor moves, and colours as the terminal takes them (16, 256 or 24-bit).

use super::Pen;
use ratatui::style::{Color, Modifier};

/// The shortest SGR sequence switching the attributes from `from` (`None`: unknown) to `to`.
pub(super) fn pen_bytes(from: Option<Pen>, to: Pen) -> Vec<u8> {
    if from == Some(to) {
        return Vec::new();
    }
    let full = sgr_from_reset(to).join(";");
    let params = match from {
        Some(from) => {
            let inc = sgr_incremental(from, to).join(";");
            if inc.len() <= full.len() { inc } else { full }
        }
        None => full,
    };
    if params.is_empty() {
        return Vec::new();
    }
    // A reset alone needs no parameter: `ESC [ m` (terminfo's `sgr0` for xterm, screen
    // and tmux).
    if params == "0" {
        return b"\x1b[m".to_vec();
    }
    let mut out = Vec::with_capacity(params.len() + 3);
    out.extend_from_slice(b"\x1b[");
    out.extend_from_slice(params.as_bytes());
    out.push(b'm');
    out
}

/// The length of [`cup`].
#[inline]
pub(super) fn cup_len(x: u16, y: u16) -> usize {
    match (x, y) {
        (0, 0) => 3,
        (0, y) => 3 + digits(y + 1),
        (x, y) => 4 + digits(y + 1) + digits(x + 1),
    }
}

/// The length of [`csi_n`].
#[inline]
pub(super) fn csi_n_len(n: u16) -> usize {
    3 + if n == 1 { 0 } else { digits(n) }
}

#[inline]
pub(super) fn digits(n: u16) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// Appends `ESC [ row ; col H` (1-based), shortened where the defaults allow.
pub(super) fn cup(out: &mut Vec<u8>, x: u16, y: u16) {
    out.extend_from_slice(b"\x1b[");
    if (x, y) != (0, 0) {
        decimal(out, u32::from(y) + 1);
        if x != 0 {
            out.push(b';');
            decimal(out, u32::from(x) + 1);
        }
    }
    out.push(b'H');
}

/// `ESC [ n <final>`, the count left out when it is 1.
pub(super) fn csi_n(out: &mut Vec<u8>, n: u16, fin: u8) {
    out.extend_from_slice(b"\x1b[");
    if n != 1 {
        decimal(out, u32::from(n));
    }
    out.push(fin);
}

/// Appends `n` in decimal (no allocation: cursor moves are most of a frame's escapes).
fn decimal(out: &mut Vec<u8>, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// SGR parameters setting `pen` from the default state.
pub(super) fn sgr_from_reset(pen: Pen) -> Vec<String> {
    let mut p = vec!["0".to_string()];
    p.extend(modifier_on(pen.modifier));
    if pen.fg != Color::Reset {
        p.push(color_param(pen.fg, false));
    }
    if pen.bg != Color::Reset {
        p.push(color_param(pen.bg, true));
    }
    p
}

/// SGR parameters changing only what differs from `from` to `to`.
pub(super) fn sgr_incremental(from: Pen, to: Pen) -> Vec<String> {
    let mut p = Vec::new();
    let removed = from.modifier - to.modifier;
    let mut keep = from.modifier & to.modifier;
    // Bold and dim share one "off" (22): turning either off turns both off.
    if removed.intersects(Modifier::BOLD | Modifier::DIM) {
        p.push("22".to_string());
        keep.remove(Modifier::BOLD | Modifier::DIM);
    }
    for (m, off) in [
        (Modifier::ITALIC, "23"),
        (Modifier::UNDERLINED, "24"),
        (Modifier::SLOW_BLINK | Modifier::RAPID_BLINK, "25"),
        (Modifier::REVERSED, "27"),
        (Modifier::HIDDEN, "28"),
        (Modifier::CROSSED_OUT, "29"),
    ] {
        if removed.intersects(m) {
            p.push(off.to_string());
            keep.remove(m);
        }
    }
    p.extend(modifier_on(to.modifier - keep));
    if from.fg != to.fg {
        p.push(color_param(to.fg, false));
    }
    if from.bg != to.bg {
        p.push(color_param(to.bg, true));
    }
    p
}

pub(super) fn modifier_on(m: Modifier) -> Vec<String> {
    [
        (Modifier::BOLD, "1"),
        (Modifier::DIM, "2"),
        (Modifier::ITALIC, "3"),
        (Modifier::UNDERLINED, "4"),
        (Modifier::SLOW_BLINK, "5"),
        (Modifier::RAPID_BLINK, "6"),
        (Modifier::REVERSED, "7"),
        (Modifier::HIDDEN, "8"),
        (Modifier::CROSSED_OUT, "9"),
    ]
    .iter()
    .filter(|(f, _)| m.contains(*f))
    .map(|(_, s)| s.to_string())
    .collect()
}

/// One colour's SGR parameter (foreground or background).
pub(super) fn color_param(c: Color, bg: bool) -> String {
    let base = |n: u8| {
        // 30-37 / 90-97, backgrounds 40-47 / 100-107.
        let code = if n < 8 { 30 + n } else { 90 + n - 8 };
        (u16::from(code) + if bg { 10 } else { 0 }).to_string()
    };
    match c {
        Color::Reset => (if bg { "49" } else { "39" }).to_string(),
        Color::Indexed(n) if n < 16 => base(n),
        Color::Indexed(n) => format!("{};5;{n}", if bg { 48 } else { 38 }),
        Color::Rgb(r, g, b) => format!("{};2;{r};{g};{b}", if bg { 48 } else { 38 }),
        named => base(ansi_index(named).unwrap_or(7)),
    }
}

/// The ANSI palette index (0-15) of a named colour.
pub(super) fn ansi_index(c: Color) -> Option<u8> {
    Some(match c {
        Color::Black => 0,
        Color::Red => 1,
        Color::Green => 2,
        Color::Yellow => 3,
        Color::Blue => 4,
        Color::Magenta => 5,
        Color::Cyan => 6,
        Color::Gray => 7,
        Color::DarkGray => 8,
        Color::LightRed => 9,
        Color::LightGreen => 10,
        Color::LightYellow => 11,
        Color::LightBlue => 12,
        Color::LightMagenta => 13,
        Color::LightCyan => 14,
        Color::White => 15,
        Color::Indexed(n) if n < 16 => n,
        _ => return None,
    })
}

/// A colour for a 16-colour terminal: named colours as they are, others the nearest of the
/// 16 (so no 256-colour or 24-bit escape is ever sent).
pub(super) fn to_ansi(c: Color) -> Color {
    let rgb = match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Indexed(n) if n >= 16 => indexed_rgb(n),
        other => return other,
    };
    const PALETTE: [(Color, (u8, u8, u8)); 16] = [
        (Color::Black, (0, 0, 0)),
        (Color::Red, (205, 0, 0)),
        (Color::Green, (0, 205, 0)),
        (Color::Yellow, (205, 205, 0)),
        (Color::Blue, (0, 0, 238)),
        (Color::Magenta, (205, 0, 205)),
        (Color::Cyan, (0, 205, 205)),
        (Color::Gray, (229, 229, 229)),
        (Color::DarkGray, (127, 127, 127)),
        (Color::LightRed, (255, 0, 0)),
        (Color::LightGreen, (0, 255, 0)),
        (Color::LightYellow, (255, 255, 0)),
        (Color::LightBlue, (92, 92, 255)),
        (Color::LightMagenta, (255, 0, 255)),
        (Color::LightCyan, (0, 255, 255)),
        (Color::White, (255, 255, 255)),
    ];
    let d = |(r, g, b): (u8, u8, u8)| {
        let (dr, dg, db) = (
            i32::from(r) - i32::from(rgb.0),
            i32::from(g) - i32::from(rgb.1),
            i32::from(b) - i32::from(rgb.2),
        );
        dr * dr + dg * dg + db * db
    };
    PALETTE
        .iter()
        .min_by_key(|(_, p)| d(*p))
        .map_or(Color::Reset, |(c, _)| *c)
}

/// The RGB value of a 256-colour palette entry (16-255).
pub(super) fn indexed_rgb(n: u8) -> (u8, u8, u8) {
    if n >= 232 {
        let v = 8 + 10 * (n - 232);
        return (v, v, v);
    }
    let i = n - 16;
    let level = |k: u8| if k == 0 { 0 } else { 55 + 40 * k };
    (level(i / 36), level((i / 6) % 6), level(i % 6))
}
