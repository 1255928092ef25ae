//! Time-axis math shared by the dopesheet (Tracks) and the Curves panel: mapping animation
//! times to columns, compact number labels, and the ruler text.

use crate::core::animation::Animation;
use crate::inspect::TimelineInfo;
use crate::tui::views::{MarkerKind, ViewCtx};

/// The glyphs the timeline views draw with: geometric shapes and box drawing, or plain ASCII
/// with the ascii marker (`M` cycles markers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyphs {
    /// A key on the dopesheet and in plots.
    pub key: char,
    /// The playhead line.
    pub playhead: char,
    /// The playhead's tick on the ruler.
    pub playhead_tick: char,
    /// Between keys whose value moves.
    pub moving: char,
    /// Between keys that hold (stepped, equal values, discrete keys).
    pub holding: char,
    /// The evaluated overlay's line (`None`: ratatui's dot marker).
    pub evaluated: Option<char>,
    /// The evaluated value at the playhead.
    pub now: char,
}

impl Glyphs {
    /// The glyphs for a marker kind.
    pub fn for_marker(marker: MarkerKind) -> Glyphs {
        match marker {
            MarkerKind::Ascii => Glyphs {
                key: 'o',
                playhead: '|',
                playhead_tick: 'v',
                moving: '-',
                holding: '.',
                evaluated: Some('+'),
                now: '@',
            },
            _ => Glyphs {
                key: '◆',
                playhead: '│',
                playhead_tick: '▼',
                moving: '─',
                holding: '·',
                evaluated: None,
                now: '●',
            },
        }
    }
}

/// The selected animation and the description of its selected timeline, if both exist.
pub fn selected<'a>(ctx: &'a ViewCtx<'_>) -> Option<(&'a Animation, Option<&'a TimelineInfo>)> {
    let anim = ctx
        .selection
        .animation
        .and_then(|a| ctx.session.data().animations.get(a))?;
    let info = ctx.selection.timeline.and_then(|t| ctx.timelines.get(t));
    Some((anim, info))
}

/// The column (0..width) of time `t` on an axis from 0 to `duration` spread over `width`
/// cells; `None` when `t` is outside the axis (beyond rounding) or there are no cells.
pub fn column(t: f64, duration: f64, width: usize) -> Option<usize> {
    if width == 0 || !t.is_finite() {
        return None;
    }
    if duration <= 0.0 || !duration.is_finite() {
        return (t.abs() < 1e-9).then_some(0);
    }
    let eps = duration * 1e-9;
    if t < -eps || t > duration + eps {
        return None;
    }
    let f = (t / duration).clamp(0.0, 1.0);
    // A hair of bias so a playhead accumulated from frame steps (0.49999999999999994) lands
    // on the column of the key it equals (0.5) when the key sits on a half column.
    Some(((f * (width - 1) as f64 + 1e-7).round() as usize).min(width - 1))
}

/// A number with at most `decimals` decimals and no trailing zeros: `1`, `0.5`, `-2.25`.
pub fn short(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "–".to_string();
    }
    let s = format!("{v:.decimals$}");
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    if s == "-0" { "0".to_string() } else { s }
}

/// A value label with a precision suited to its magnitude.
pub fn value_label(v: f64) -> String {
    let a = v.abs();
    if a >= 1000.0 {
        short(v, 0)
    } else if a >= 100.0 {
        short(v, 1)
    } else {
        short(v, 2)
    }
}

/// The ruler text for an axis of `width` cells from 0 to `duration`: "0" at the left, the
/// duration ending at the right and, when there is room, the midpoint centred.
pub fn ruler(duration: f64, width: usize) -> String {
    let mut cells: Vec<char> = vec![' '; width];
    if width == 0 {
        return String::new();
    }
    let place = |cells: &mut Vec<char>, at: usize, s: &str| {
        for (i, c) in s.chars().enumerate() {
            if let Some(cell) = cells.get_mut(at + i) {
                *cell = c;
            }
        }
    };
    place(&mut cells, 0, "0");
    if duration <= 0.0 || !duration.is_finite() {
        // A single pose: nothing to spread.
        return cells.into_iter().collect();
    }
    let end = short(duration, 3);
    let end_len = end.chars().count();
    if width >= end_len + 2 {
        let at = width - end_len;
        place(&mut cells, at, &end);
        let mid = short(duration / 2.0, 3);
        let mid_len = mid.chars().count();
        let centre = (width - 1) / 2;
        let start = centre.saturating_sub(mid_len / 2);
        // At least two blanks between labels.
        if start >= 3 && start + mid_len + 2 <= at {
            place(&mut cells, start, &mid);
        }
    }
    cells.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns() {
        assert_eq!(column(0.0, 1.0, 11), Some(0));
        assert_eq!(column(0.5, 1.0, 11), Some(5));
        assert_eq!(column(1.0, 1.0, 11), Some(10));
        assert_eq!(column(1.5, 1.0, 11), None);
        assert_eq!(column(-0.1, 1.0, 11), None);
        assert_eq!(column(0.0, 0.0, 11), Some(0));
        assert_eq!(column(0.5, 1.0, 0), None);
        assert_eq!(column(f64::NAN, 1.0, 5), None);
        // Frame-stepped times land with the key they equal.
        let mut t = 0.0;
        for _ in 0..15 {
            t += 1.0 / 30.0;
        }
        assert_eq!(column(t, 1.0, 46), column(0.5, 1.0, 46));
    }

    #[test]
    fn labels() {
        assert_eq!(short(1.0, 3), "1");
        assert_eq!(short(0.5, 3), "0.5");
        assert_eq!(short(-0.0001, 3), "0");
        assert_eq!(short(1.2345, 3), "1.234");
        assert_eq!(value_label(123.456), "123.5");
        assert_eq!(ruler(1.0, 11), "0   0.5   1");
        assert_eq!(ruler(1.5, 4), "0   ");
        assert_eq!(ruler(1.5, 5), "0 1.5");
        assert_eq!(ruler(0.0, 6), "0     ");
    }
}
