//! Small text helpers: every name from a file is sanitized and fitted to a cell width.

use crate::text::sanitize;
use unicode_width::UnicodeWidthChar;

/// `s` sanitized and cut to at most `width` terminal cells (with "…" when cut).
pub fn fit(s: &str, width: usize) -> String {
    let clean = sanitize(s);
    let total: usize = clean.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return clean.into_owned();
    }
    if width == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in clean.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Display width of a sanitized string.
pub fn width(s: &str) -> usize {
    sanitize(s).chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// Formats seconds compactly: `1.234`.
pub fn secs(t: f64) -> String {
    if t.is_finite() {
        format!("{t:.3}")
    } else {
        "–".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_by_cells() {
        assert_eq!(fit("hip", 10), "hip");
        assert_eq!(fit("upper-arm-left", 8), "upper-a…");
        assert_eq!(fit("腕腕腕腕", 5), "腕腕…");
        assert_eq!(fit("a\u{1b}[2Jb", 20), "a\\e[2Jb");
        assert_eq!(fit("abc", 0), "");
    }
}
