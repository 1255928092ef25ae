//! Cells made safe and, on ASCII screens, transliterated: box drawing, symbols and names from
//! files become ASCII look-alikes, cell for cell.

/// A cell's text with control characters (which no widget should produce) made harmless.
pub(super) fn sanitize_symbol(sym: &str) -> String {
    if sym.chars().any(char::is_control) {
        sym.chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect()
    } else {
        sym.to_string()
    }
}

/// The ASCII stand-in for a cell's symbol, `width` cells wide.
pub fn ascii_symbol(sym: &str, width: usize) -> String {
    let mut chars = sym.chars();
    let c = match (chars.next(), chars.next()) {
        (Some(c), None) => ascii_char(c),
        _ => None,
    };
    match c {
        Some(c) if width <= 1 => c.to_string(),
        _ => "?".repeat(width.max(usize::from(!sym.is_empty()))),
    }
}

/// The ASCII look-alike of one character, if there is one.
pub(super) fn ascii_char(c: char) -> Option<char> {
    if c.is_ascii() {
        return Some(if c.is_ascii_control() { '?' } else { c });
    }
    Some(match c {
        // Box drawing: lines, then corners, tees and crosses.
        '─' | '━' | '┄' | '┅' | '┈' | '┉' | '╌' | '╍' | '╴' | '╶' | '╸' | '╺' => {
            '-'
        }
        '═' => '=',
        '│' | '┃' | '┆' | '┇' | '┊' | '┋' | '╎' | '╏' | '║' | '╵' | '╷' | '╹' | '╻' => {
            '|'
        }
        '\u{2500}'..='\u{257f}' => '+',
        // Braille: a dot or nothing.
        '\u{2800}' => ' ',
        '\u{2801}'..='\u{28ff}' => '*',
        // Block elements, sextants, octants and other legacy computing cells.
        '\u{2580}'..='\u{259f}' | '\u{1fb00}'..='\u{1fbff}' | '\u{1cc00}'..='\u{1cebf}' => '#',
        '…' | '≈' | '∼' => '~',
        '·' | '•' | '∙' | '⋅' => '.',
        '◆' | '◇' | '◦' | '○' | '♦' => 'o',
        '●' | '◉' => '@',
        '▶' | '►' | '▸' | '▹' | '→' | '⟶' | '»' | '›' => '>',
        '◀' | '◄' | '◂' | '◃' | '←' | '«' | '‹' => '<',
        '▼' | '▾' | '▽' | '↓' => 'v',
        '▲' | '▴' | '△' | '↑' => '^',
        '⏸' | '‖' | '¦' => '|',
        '—' | '–' | '‐' | '‑' | '−' => '-',
        '×' => 'x',
        'α' => 'a',
        '°' => 'd',
        '⚠' | '❗' => '!',
        '✓' | '✔' => 'v',
        '✗' | '✘' => 'x',
        '“' | '”' | '„' => '"',
        '‘' | '’' | '‚' => '\'',
        '\u{a0}' => ' ',
        _ => return None,
    })
}
