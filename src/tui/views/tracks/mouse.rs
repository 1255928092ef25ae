//! Mouse hits on the dopesheet: a timeline row (its label) or a time (the axis, any row).

use super::TracksView;
use ratatui::layout::{Position, Rect};

/// Where the dopesheet was drawn at the last render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct DopeGeometry {
    /// Header row and timeline rows.
    pub area: Rect,
    /// First column of the time axis and its width (0: no axis).
    pub axis_x: u16,
    pub axis_w: usize,
    /// The animation's duration (the axis spans 0 to it).
    pub duration: f64,
}

/// What a click on the dopesheet hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DopeHit {
    /// The timeline at this row (index into the shown animation's timelines), if any.
    pub timeline: Option<usize>,
    /// The animation time under the pointer, when it is over the time axis.
    pub time: Option<f64>,
}

impl TracksView {
    /// The dopesheet row and time at a screen cell; `None` outside the dopesheet.
    pub fn dopesheet_hit(&self, column: u16, row: u16, timelines: usize) -> Option<DopeHit> {
        let g = self.dope?;
        if !g.area.contains(Position::new(column, row)) {
            return None;
        }
        let timeline = (row > g.area.y)
            .then(|| self.scroll + (row - g.area.y - 1) as usize)
            .filter(|&t| t < timelines);
        Some(DopeHit {
            timeline,
            time: self.time_at(column, false),
        })
    }

    /// The animation time at screen column `column` on the axis; with `clamp`, columns left
    /// or right of the axis give its start or end (a drag past the edge).
    pub fn time_at(&self, column: u16, clamp: bool) -> Option<f64> {
        let g = self.dope?;
        if g.axis_w == 0 || !g.duration.is_finite() || g.duration < 0.0 {
            return None;
        }
        let last = g.axis_w.saturating_sub(1) as f64;
        let c = column as f64 - g.axis_x as f64;
        if !clamp && (c < 0.0 || c > last) {
            return None;
        }
        let f = if last > 0.0 {
            (c / last).clamp(0.0, 1.0)
        } else {
            0.0
        };
        Some(f * g.duration)
    }
}
