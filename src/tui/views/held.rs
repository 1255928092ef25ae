//! Readouts held between refreshes while playing: the text of the Bones, Curves and Tracks
//! panels refreshes at most [`crate::tui::app::READOUT_PERIOD`] apart during playback (the
//! preview and the playheads move every frame), so that a playing viewer redraws, and sends
//! the terminal, little besides the picture. Paused, every readout is exact at once.

use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;

/// The cells a panel drew at its last exact render, to draw again while held.
#[derive(Debug, Default)]
pub struct HeldCells {
    /// Where they were drawn and whether the panel had the focus (its border shows it).
    key: Option<(Rect, bool)>,
    cells: Vec<Cell>,
}

impl HeldCells {
    /// Draws the held cells into `buf` when they were drawn at `area` with the same focus;
    /// false (nothing drawn) otherwise.
    pub fn restore(&self, buf: &mut Buffer, area: Rect, focused: bool) -> bool {
        if self.key != Some((area, focused)) || area.intersection(buf.area) != area {
            return false;
        }
        let mut cells = self.cells.iter();
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                if let (Some(cell), Some(to)) = (cells.next(), buf.cell_mut((x, y))) {
                    *to = cell.clone();
                }
            }
        }
        true
    }

    /// Keeps what `buf` shows at `area` (drawn with or without the focus).
    pub fn capture(&mut self, buf: &Buffer, area: Rect, focused: bool) {
        let area = area.intersection(buf.area);
        self.cells.clear();
        for y in area.top()..area.bottom() {
            for x in area.left()..area.right() {
                if let Some(cell) = buf.cell((x, y)) {
                    self.cells.push(cell.clone());
                }
            }
        }
        self.key = Some((area, focused));
    }

    /// Forgets the held cells.
    pub fn clear(&mut self) {
        self.key = None;
        self.cells.clear();
    }
}

/// A readout's lines kept with what they were made for (a width, a timeline...).
#[derive(Debug)]
pub struct HeldLines<K, L> {
    held: Option<(K, L)>,
}

impl<K, L> Default for HeldLines<K, L> {
    fn default() -> Self {
        HeldLines { held: None }
    }
}

impl<K: PartialEq, L: Clone> HeldLines<K, L> {
    /// The lines made for `key`: the held ones when `hold` and they were made for `key`,
    /// else fresh from `make` (and held for later).
    pub fn get(&mut self, hold: bool, key: K, make: impl FnOnce() -> L) -> L {
        if hold
            && let Some((k, lines)) = &self.held
            && *k == key
        {
            return lines.clone();
        }
        let lines = make();
        self.held = Some((key, lines.clone()));
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Style;

    #[test]
    fn held_cells_come_back_only_where_they_were_drawn() {
        let area = Rect::new(0, 0, 6, 2);
        let mut buf = Buffer::empty(area);
        buf.set_string(0, 0, "bone 1", Style::default());
        let mut held = HeldCells::default();
        held.capture(&buf, area, true);
        let mut next = Buffer::empty(area);
        assert!(!held.restore(&mut next, area, false), "focus changed");
        assert!(
            !held.restore(&mut next, Rect::new(0, 0, 5, 2), true),
            "moved"
        );
        assert!(held.restore(&mut next, area, true));
        assert_eq!(next, buf);
        held.clear();
        assert!(!held.restore(&mut next, area, true));
    }

    #[test]
    fn held_lines_are_fresh_unless_held_for_the_same_key() {
        let mut held: HeldLines<usize, String> = HeldLines::default();
        assert_eq!(held.get(true, 1, || "a".into()), "a", "nothing held yet");
        assert_eq!(held.get(true, 1, || "b".into()), "a", "held");
        assert_eq!(held.get(true, 2, || "c".into()), "c", "another key");
        assert_eq!(held.get(false, 2, || "d".into()), "d", "not held: exact");
        assert_eq!(held.get(true, 2, || "e".into()), "d");
    }
}
