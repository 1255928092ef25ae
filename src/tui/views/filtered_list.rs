//! What the list pickers (animations, armatures, skins) share: the filter, the keys that move
//! the cursor or edit the filter, and the centred box with its filter line.

use crate::tui::theme::Theme;
use crate::tui::widgets::fit;
use ratatui::Frame;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear};

/// The longest filter kept, in characters (typing more is ignored).
const MAX_FILTER_CHARS: usize = 64;

/// Rows PageUp and PageDown move.
const PAGE: usize = 10;

/// Whether `name` passes `filter_lower` (the filter lowercased): a case-insensitive
/// substring; an empty filter passes everything.
pub fn matches(filter_lower: &str, name: &str) -> bool {
    filter_lower.is_empty() || name.to_lowercase().contains(filter_lower)
}

/// Applies a key that moves `cursor` over `rows` rows or edits `filter` (which puts the
/// cursor back on the first row); any other key does nothing.
pub fn move_or_filter(code: KeyCode, cursor: &mut usize, filter: &mut String, rows: usize) {
    let last = rows.saturating_sub(1);
    match code {
        KeyCode::Up => *cursor = cursor.saturating_sub(1),
        KeyCode::Down => *cursor = (*cursor + 1).min(last),
        KeyCode::PageUp => *cursor = cursor.saturating_sub(PAGE),
        KeyCode::PageDown => *cursor = (*cursor + PAGE).min(last),
        KeyCode::Home => *cursor = 0,
        KeyCode::End => *cursor = last,
        KeyCode::Backspace => {
            filter.pop();
            *cursor = 0;
        }
        KeyCode::Char(c) if !c.is_control() => {
            if filter.chars().count() < MAX_FILTER_CHARS {
                filter.push(c);
            }
            *cursor = 0;
        }
        _ => {}
    }
}

/// The size of a list overlay in `area`: `want` columns, and `items` rows plus `chrome` rows
/// (borders, filter, summary) but at least `min_h`, within a two-cell margin. Counts too large
/// for a terminal saturate instead of wrapping.
pub fn box_size(area: Rect, want: usize, items: usize, chrome: u16, min_h: u16) -> (u16, u16) {
    let cells = |n: usize| u16::try_from(n).unwrap_or(u16::MAX);
    let w = area.width.saturating_sub(4).min(cells(want));
    let h = area
        .height
        .saturating_sub(4)
        .min(cells(items).saturating_add(chrome))
        .max(min_h);
    (w, h)
}

/// Clears a `w` x `h` box centred in `area`, draws its focused border titled `title`, and
/// returns the inside.
pub fn centred_box(
    frame: &mut Frame<'_>,
    area: Rect,
    w: u16,
    h: u16,
    title: &str,
    theme: &Theme,
) -> Rect {
    let r = Rect::new(
        area.x + (area.width.saturating_sub(w)) / 2,
        area.y + (area.height.saturating_sub(h)) / 2,
        w,
        h,
    );
    frame.render_widget(Clear, r);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border(true))
        .title(fit(title, w.saturating_sub(2) as usize));
    let inner = block.inner(r);
    frame.render_widget(block, r);
    inner
}

/// The "filter: ..." line atop a list `width` cells wide.
pub fn filter_line(filter: &str, width: usize, theme: &Theme) -> Line<'static> {
    Line::from(vec![
        Span::styled("filter: ", theme.dim()),
        Span::raw(fit(filter, width.saturating_sub(8))),
    ])
}

/// The style of a list row: reverse video under the cursor.
pub fn row_style(theme: &Theme, under_cursor: bool) -> Style {
    if under_cursor {
        theme.selected()
    } else {
        theme.text()
    }
}

/// The line a list shows when the filter hides every row.
pub fn no_match_line(theme: &Theme) -> Line<'static> {
    Line::from(Span::styled("no match", theme.dim()))
}
