//! Column layout and formatting of log lines.

use super::TYPE_CYCLE;
use crate::core::model::{Event, SkeletonData};
use crate::session::LogLine;
use crate::text::sanitize;
use crate::tui::theme::Theme;
use crate::tui::widgets::{fit, width};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};

const PHASE_W: usize = 7;
const TRACK_W: usize = 2;
const ENTRY_W: usize = 5;
const TYPE_W: usize = 9;
const TIME_W: usize = 7;
const ANIM_MIN: usize = 8;
/// The animation column's width taken before the optional columns (up to the longest
/// name); past it the column grows into what they leave free.
const ANIM_FIRST: usize = 32;
/// The payload width kept before optional columns are added.
const PAYLOAD_WANT: usize = 26;

/// Which columns show and how wide the flexible ones are (each fixed column is followed by
/// one space).
pub struct Columns {
    width: usize,
    frame_w: usize,
    phase: bool,
    entry: bool,
    track_time: bool,
    anim_time: bool,
    anim_w: usize,
    payload_w: usize,
}

impl Columns {
    /// The layout for `width` cells when frames go up to `last_frame` and the longest
    /// animation name is `anim_desired` cells. Frame, track, type, animation and event
    /// payload always show; the animation column gets its names' width (up to
    /// [`ANIM_FIRST`]) first, then animation time, phase and track time are added in that
    /// order while the payload keeps [`PAYLOAD_WANT`] cells; what is left widens the
    /// animation column up to the longest name, then the payload.
    pub fn new(width: usize, last_frame: u64, anim_desired: usize) -> Columns {
        let anim_max = anim_desired.max(ANIM_MIN);
        let anim_first = anim_desired.clamp(ANIM_MIN, ANIM_FIRST);
        let frame_w = last_frame.to_string().len().max(5);
        let fixed = frame_w + 1 + TRACK_W + 1 + TYPE_W + 1 + ENTRY_W + 1;
        let mut used = fixed + anim_first + 1 + PAYLOAD_WANT;
        let mut add = |w: usize| {
            let fits = used + w < width;
            if fits {
                used += w + 1;
            }
            fits
        };
        // The entry id always shows (in `fixed`): two entries of one animation must be
        // told apart.
        let entry = true;
        let anim_time = add(TIME_W);
        let phase = add(PHASE_W);
        let track_time = add(TIME_W);
        let optional = [(anim_time, TIME_W), (phase, PHASE_W), (track_time, TIME_W)]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, w)| w + 1)
            .sum::<usize>();
        // What is left for "animation payload".
        let rest = width.saturating_sub(fixed + optional);
        let anim_w = if rest >= ANIM_MIN + 1 + PAYLOAD_WANT {
            (rest - 1 - PAYLOAD_WANT).min(anim_max)
        } else {
            ANIM_MIN.min(rest / 2)
        };
        let payload_w = rest.saturating_sub(anim_w + 1);
        Columns {
            width,
            frame_w,
            phase,
            entry,
            track_time,
            anim_time,
            anim_w,
            payload_w,
        }
    }

    /// The header row.
    pub fn header(&self) -> String {
        let mut s = format!("{:>w$} ", "frame", w = self.frame_w);
        if self.phase {
            s.push_str(&format!("{:<PHASE_W$} ", "phase"));
        }
        s.push_str(&format!("{:>TRACK_W$} ", "tr"));
        if self.entry {
            s.push_str(&format!("{:>ENTRY_W$} ", "entry"));
        }
        s.push_str(&format!("{:<TYPE_W$} ", "type"));
        let label = if self.anim_w >= 9 {
            "animation"
        } else {
            "anim"
        };
        s.push_str(&format!("{:<w$} ", label, w = self.anim_w));
        if self.track_time {
            s.push_str(&format!("{:>TIME_W$} ", "track t"));
        }
        if self.anim_time {
            s.push_str(&format!("{:>TIME_W$} ", "anim t"));
        }
        s.push_str("event");
        s
    }

    /// One log line, formatted (names sanitized and fitted).
    pub fn line(&self, line: &LogLine, data: &SkeletonData, theme: &Theme) -> Line<'static> {
        match line {
            LogLine::Marker { frame, text } => {
                let head = format!("{frame:>w$} ── {} ", sanitize(text), w = self.frame_w);
                let total = self.width;
                let mut s = fit(&head, total);
                let rest = total.saturating_sub(width(&s));
                s.extend(std::iter::repeat_n('─', rest));
                Line::styled(s, theme.text().add_modifier(Modifier::BOLD))
            }
            LogLine::Notification { frame, phase, note } => {
                let mut spans = Vec::with_capacity(9);
                let mut lead = format!("{frame:>w$} ", w = self.frame_w);
                if self.phase {
                    lead.push_str(&format!("{:<PHASE_W$} ", phase.name()));
                }
                lead.push_str(&format!("{:>TRACK_W$} ", note.track));
                if self.entry {
                    lead.push_str(&format!("{:>ENTRY_W$} ", format!("#{}", note.entry)));
                }
                spans.push(Span::raw(lead));
                let color = TYPE_CYCLE.iter().position(|&k| k == note.kind).unwrap_or(0);
                spans.push(Span::styled(
                    format!("{:<TYPE_W$} ", note.kind.name()),
                    theme.notification(color),
                ));
                let anim = fit(&note.animation, self.anim_w);
                let pad = self.anim_w.saturating_sub(width(&anim));
                let mut mid = format!("{anim}{} ", " ".repeat(pad));
                if self.track_time {
                    mid.push_str(&format!("{:>TIME_W$} ", secs(note.track_time)));
                }
                if self.anim_time {
                    mid.push_str(&format!("{:>TIME_W$} ", secs(note.animation_time)));
                }
                spans.push(Span::raw(mid));
                if let Some(ev) = &note.event {
                    spans.push(Span::raw(fit(&payload(ev, data), self.payload_w)));
                }
                Line::from(spans)
            }
        }
    }
}

/// `name i=1 f=0.5 "text"` plus ` vol=0.8 bal=-0.3` when the event has audio (sanitized).
pub fn payload(ev: &Event, data: &SkeletonData) -> String {
    let ed = data.events.get(ev.data);
    let name = ed.map_or_else(
        || format!("#{}", ev.data),
        |e| sanitize(&e.name).into_owned(),
    );
    let mut s = format!(
        "{name} i={} f={} \"{}\"",
        ev.int,
        compact(ev.float),
        sanitize(&ev.string)
    );
    if ed.is_some_and(|e| e.audio.is_some()) {
        s.push_str(&format!(
            " vol={} bal={}",
            compact(ev.volume),
            compact(ev.balance)
        ));
    }
    s
}

/// A number with up to 3 decimals, trailing zeros dropped.
fn compact(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" { "0".into() } else { s.into() }
}

/// Seconds with 3 decimals, fewer when that would not fit the column.
fn secs(t: f64) -> String {
    if !t.is_finite() {
        return "–".into();
    }
    for d in (0..=3).rev() {
        let s = format!("{t:.d$}");
        if s.len() <= TIME_W {
            return s;
        }
    }
    format!("{t:.0e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_keeps_the_essentials() {
        let c = Columns::new(42, 100, 12);
        assert!(c.entry && !c.phase && !c.track_time && !c.anim_time);
        assert_eq!((c.anim_w, c.payload_w), (8, 8));
        let c = Columns::new(78, 100, 12);
        assert!(c.entry && c.anim_time && !c.phase && !c.track_time);
        assert_eq!(c.anim_w, 12, "names whole before the phase column");
        assert!(c.payload_w >= PAYLOAD_WANT);
        let c = Columns::new(86, 100, 12);
        assert!(c.anim_time && c.phase && !c.track_time);
        let c = Columns::new(158, 100, 12);
        assert!(c.phase && c.entry && c.track_time && c.anim_time);
        assert_eq!(c.anim_w, 12);
        for w in 0..60 {
            let c = Columns::new(w, 0, 40);
            assert!(c.anim_w + c.payload_w <= w);
        }
    }

    #[test]
    fn the_animation_column_grows_into_free_space() {
        // `pot-moving-followed-by-rain` (27 cells) whole at 80 columns, before `phase`.
        let c = Columns::new(80, 1000, 27);
        assert_eq!(c.anim_w, 27);
        assert!(c.payload_w >= PAYLOAD_WANT);
        // Longer than the first allotment: whole when the terminal is wide.
        let c = Columns::new(200, 1000, 45);
        assert!(c.phase && c.track_time && c.anim_time);
        assert_eq!(c.anim_w, 45);
        let c = Columns::new(120, 1000, 45);
        assert!(c.anim_w >= 32, "{}", c.anim_w);
    }

    #[test]
    fn numbers() {
        assert_eq!(compact(0.5), "0.5");
        assert_eq!(compact(1.0), "1");
        assert_eq!(compact(-0.0001), "0");
        assert_eq!(secs(1.2345), "1.234");
        assert_eq!(secs(123456.0), "123456");
    }
}
