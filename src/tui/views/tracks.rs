//! The Tracks panel: the animation state's tracks (entry, loop, alpha, time scale, time, the
//! mixing-from chain with mix progress, the queue), and below them a dopesheet of the selected
//! animation: one row per timeline with its keys on a time axis and the playhead. The
//! playhead is a tick on the ruler, and a line through the rows when paused (not while
//! playing, when it would redraw every row every frame).
//!
//! Keys: ↑ ↓ pgup pgdn move the timeline selection, `g` / `G` go to the first / last
//! timeline, enter selects the highlighted row. Everything else is left to the app.

pub mod axis;
mod mouse;

pub use mouse::DopeHit;

use super::{Panel, PanelAction, PanelId, ViewCtx, panel_block, row_style};
use crate::core::animation::Timeline;
use crate::core::curve::Interp;
use crate::core::state::{AnimationState, TrackEntry};
use crate::inspect::{Target, TimelineInfo};
use crate::text::sanitize;
use crate::tui::widgets::{fit, width};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// View state of the Tracks panel.
#[derive(Debug, Default)]
pub struct TracksView {
    /// First dopesheet row shown.
    scroll: usize,
    /// Dopesheet rows visible at the last render (the page for pgup / pgdn).
    page: usize,
    /// Where the dopesheet was drawn last (for mouse clicks).
    dope: Option<mouse::DopeGeometry>,
    /// Whether the next render may show the held track lines (the dopesheet and its
    /// playhead are drawn every frame).
    hold: bool,
    held: super::held::HeldLines<usize, Vec<(Line<'static>, bool)>>,
    /// The dopesheet's rows as last drawn exact while playing: they do not move then (the
    /// playhead is the ruler's tick alone), so held frames copy them instead of drawing them.
    held_rows: super::held::HeldCells,
}

impl TracksView {
    /// The first dopesheet row shown (after the last render).
    pub fn scroll(&self) -> usize {
        self.scroll
    }

    /// How many dopesheet rows the last render showed.
    pub fn visible_rows(&self) -> usize {
        self.page
    }
}

impl Panel for TracksView {
    fn hold_readouts(&mut self, hold: bool) {
        self.hold = hold;
    }

    fn render(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        let n = ctx.timelines.len();
        let suffix = match ctx.selection.timeline {
            _ if n == 0 => String::new(),
            Some(s) => format!("{}/{}", s.min(n - 1) + 1, n),
            None => format!("–/{n}"),
        };
        let block = panel_block(PanelId::Tracks, &suffix, ctx);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        self.dope = None;
        if inner.width == 0 || inner.height == 0 {
            self.page = 0;
            return;
        }
        let w = inner.width as usize;
        let h = inner.height as usize;
        let tagged = self.held.get(self.hold, w, || track_lines(ctx, w));
        // Tracks take what they need, up to a third of the panel (more when the dopesheet is
        // short, and always every playing track); the dopesheet (header + rows) gets the rest.
        let dope_wanted = 1 + n.max(1);
        let playing = tagged.iter().filter(|(_, p)| *p).count();
        let summary = usize::from(tagged.len() > playing);
        let budget = (h / 3)
            .max(1)
            .max(h.saturating_sub(dope_wanted))
            .max(playing + summary)
            .min(h);
        let mut lines = fit_track_lines(tagged, budget, w, ctx);
        lines.truncate(h);
        let buf = frame.buffer_mut();
        for (i, line) in lines.iter().enumerate() {
            render_line(buf, inner.x, inner.y + i as u16, inner.width, line);
        }
        let used = lines.len();
        if used >= h {
            self.page = 0;
            return;
        }
        let dope = Rect::new(
            inner.x,
            inner.y + used as u16,
            inner.width,
            (h - used) as u16,
        );
        self.render_dopesheet(buf, dope, ctx);
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        let n = ctx.timelines.len();
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return PanelAction::Ignored;
        }
        let cur = ctx.selection.timeline.map(|s| s.min(n.saturating_sub(1)));
        let page = self.page.max(1);
        let target = match key.code {
            KeyCode::Up => cur.map_or(0, |c| c.saturating_sub(1)),
            KeyCode::Down => cur.map_or(0, |c| c + 1),
            KeyCode::PageUp => cur.map_or(0, |c| c.saturating_sub(page)),
            KeyCode::PageDown => cur.map_or(0, |c| c + page),
            KeyCode::Char('g') => 0,
            KeyCode::Char('G') => n.saturating_sub(1),
            KeyCode::Enter => cur.unwrap_or(0),
            _ => return PanelAction::Ignored,
        };
        if n == 0 {
            return PanelAction::Ignored;
        }
        PanelAction::SelectTimeline(target.min(n - 1))
    }
}

/// Writes `line` at (x, y), clipped to `w` cells.
fn render_line(buf: &mut Buffer, x: u16, y: u16, w: u16, line: &Line<'_>) {
    let mut cx = x;
    let end = x + w;
    for span in &line.spans {
        if cx >= end {
            break;
        }
        let (nx, _) = buf.set_stringn(
            cx,
            y,
            span.content.as_ref(),
            (end - cx) as usize,
            line.style.patch(span.style),
        );
        cx = nx;
    }
}

// ----- tracks ----------------------------------------------------------------------------

/// At most `budget` of the track list's lines: every playing track's line first of all;
/// mixing-out, queued, finished and empty tracks' lines while room remains, the rest
/// summarised on one `… N more` line.
fn fit_track_lines(
    tagged: Vec<(Line<'static>, bool)>,
    budget: usize,
    w: usize,
    ctx: &ViewCtx<'_>,
) -> Vec<Line<'static>> {
    if tagged.len() <= budget {
        return tagged.into_iter().map(|(l, _)| l).collect();
    }
    let playing = tagged.iter().filter(|(_, p)| *p).count();
    // Room for the others once the playing lines and the summary line are in.
    let mut room = budget.saturating_sub(playing + 1);
    let mut hidden = 0;
    let mut out = Vec::with_capacity(budget);
    for (line, is_playing) in tagged {
        if is_playing {
            out.push(line);
        } else if room > 0 {
            room -= 1;
            out.push(line);
        } else {
            hidden += 1;
        }
    }
    if hidden > 0 && out.len() < budget {
        out.push(Line::from(Span::styled(
            fit(
                &format!("  … {hidden} more (mixing, queued or finished)"),
                w,
            ),
            ctx.theme.dim(),
        )));
    }
    out
}

/// The lines of the track list for a width, each with whether it is a playing track's
/// own line (the ones never summarised away).
pub fn track_lines(ctx: &ViewCtx<'_>, w: usize) -> Vec<(Line<'static>, bool)> {
    let st = ctx.session.state();
    let theme = ctx.theme;
    let mut out = Vec::new();
    if st.tracks.is_empty() {
        out.push((
            Line::from(Span::styled(fit("(no tracks)", w), theme.dim())),
            false,
        ));
        return out;
    }
    for t in 0..st.tracks.len() {
        let head = format!("#{t} ");
        let Some(e) = st.current(t).and_then(|id| st.entry(id)) else {
            out.push((
                Line::from(vec![
                    Span::styled(fit(&head, w), theme.dim()),
                    Span::styled(fit("—", w.saturating_sub(width(&head))), theme.dim()),
                ]),
                false,
            ));
            continue;
        };
        let ended = !e.looping && e.track_time >= e.animation_end - e.animation_start;
        out.push((main_line(st, e, &head, w, ctx), !ended));
        // The mixing-from chain: each entry mixing out, with the progress of the entry mixing
        // in over it.
        let mut into = e;
        let mut depth = 1;
        let mut guard = 0;
        while let Some(from) = into.mixing_from.and_then(|id| st.entry(id)) {
            let pct = if into.mix_duration > 0.0 {
                (into.mix_time / into.mix_duration * 100.0).clamp(0.0, 100.0)
            } else {
                100.0
            };
            let indent = "  ".repeat(depth);
            let name = st.animation_name(from.id);
            let base = format!("{indent}← ");
            let pct_s = format!(" {pct:.0}%");
            let detail = format!(
                " ({}/{}s) t {}",
                axis::short(into.mix_time.min(into.mix_duration), 2),
                axis::short(into.mix_duration, 2),
                crate::tui::widgets::secs(from.animation_time()),
            );
            let fixed = width(&base) + width(&pct_s);
            let (name_w, extra) = if fixed + width(name) + width(&detail) <= w {
                (width(name), detail)
            } else {
                (w.saturating_sub(fixed).max(3), String::new())
            };
            out.push((
                Line::from(vec![
                    Span::styled(base, theme.dim()),
                    Span::styled(fit(name, name_w), theme.text()),
                    Span::styled(pct_s, theme.highlight()),
                    Span::styled(extra, theme.dim()),
                ]),
                false,
            ));
            into = from;
            depth += 1;
            guard += 1;
            if guard > 64 {
                break;
            }
        }
        // The queue.
        let mut next = e.next;
        let mut guard = 0;
        while let Some(q) = next.and_then(|id| st.entry(id)) {
            let name = st.animation_name(q.id);
            let mut info = format!("delay {}", axis::short(q.delay, 2));
            if q.mix_duration > 0.0 {
                info.push_str(&format!(", mix {}", axis::short(q.mix_duration, 2)));
            }
            if q.looping {
                info.push_str(", loop");
            }
            let base = "  → ".to_string();
            let tail = format!(" ({info})");
            let name_w = w
                .saturating_sub(width(&base) + width(&tail))
                .max(3)
                .min(width(name));
            out.push((
                Line::from(vec![
                    Span::styled(base, theme.dim()),
                    Span::styled(fit(name, name_w), theme.text()),
                    Span::styled(tail, theme.dim()),
                ]),
                false,
            ));
            next = q.next;
            guard += 1;
            if guard > 64 {
                break;
            }
        }
    }
    out
}

/// `#0 walk ▶ loop α1.00 ×1.00 t 0.533/1.000`, compacted when narrow.
fn main_line(
    st: &AnimationState,
    e: &TrackEntry,
    head: &str,
    w: usize,
    ctx: &ViewCtx<'_>,
) -> Line<'static> {
    let theme = ctx.theme;
    let name = st.animation_name(e.id);
    let duration = e.animation_end - e.animation_start;
    let ended = !e.looping && e.track_time >= duration;
    let sym = if ended { "■" } else { "▶" };
    let at = e.animation_time();
    let full = format!(
        " {sym} {} α{:.2} ×{:.2} t {:.3}/{:.3}",
        if e.looping { "loop" } else { "once" },
        e.alpha,
        e.time_scale,
        at,
        e.animation_end
    );
    let mut compact = format!(
        " {sym}{} {:.2}/{:.2}",
        if e.looping { "↻" } else { "" },
        at,
        e.animation_end
    );
    if e.alpha != 1.0 {
        compact.push_str(&format!(" α{:.2}", e.alpha));
    }
    if e.time_scale != 1.0 {
        compact.push_str(&format!(" ×{:.2}", e.time_scale));
    }
    let name_w = width(name).clamp(1, 12);
    let rest = if width(head) + name_w + width(&full) <= w {
        full
    } else {
        compact
    };
    let name_room = w.saturating_sub(width(head) + width(&rest)).max(4);
    Line::from(vec![
        Span::styled(head.to_string(), theme.dim()),
        Span::styled(fit(name, name_room), theme.title(false)),
        Span::styled(rest, theme.text()),
    ])
}

// ----- dopesheet -------------------------------------------------------------------------

/// A dopesheet label for `info` in at most `w` cells: the full label when `with_kind` and it
/// fits, else the name and property without the kind, else a shortened name that keeps the
/// (abbreviated) property.
pub fn dopesheet_label(info: &TimelineInfo, w: usize, with_kind: bool) -> String {
    // Global physics timelines (every constraint following the global value) have no name.
    if info.target == Target::Physics(None) {
        let full = format!("physics (global).{}", info.property);
        let short = format!("(global).{}", info.property);
        return fit(
            if with_kind && width(&full) <= w {
                &full
            } else {
                &short
            },
            w,
        );
    }
    let full = sanitize(&info.label()).into_owned();
    if matches!(info.target, Target::Events | Target::DrawOrder) || (with_kind && width(&full) <= w)
    {
        return fit(&full, w);
    }
    let name = sanitize(&info.target_name).into_owned();
    let short = format!("{name}.{}", info.property);
    if width(&short) <= w {
        return short;
    }
    let prop = format!(".{}", short_property(info.property));
    let name_w = w.saturating_sub(width(&prop));
    if name_w >= 3 {
        return format!("{}{prop}", fit_middle(&name, name_w));
    }
    fit(&short, w)
}

/// `s` (sanitized) cut to `w` cells in the middle, keeping its start and its end (where
/// names differ: `-l` / `-r`, numbers): `foot-…et-l`.
pub fn fit_middle(s: &str, w: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let clean = sanitize(s);
    if width(&clean) <= w {
        return clean.into_owned();
    }
    if w < 3 {
        return fit(&clean, w);
    }
    let room = w - 1;
    let (head_w, tail_w) = (room - room / 2, room / 2);
    let mut head = String::new();
    let mut used = 0;
    for c in clean.chars() {
        let cw = c.width().unwrap_or(0);
        if used + cw > head_w {
            break;
        }
        head.push(c);
        used += cw;
    }
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in clean.chars().rev() {
        let cw = c.width().unwrap_or(0);
        if used + cw > tail_w {
            break;
        }
        tail.push(c);
        used += cw;
    }
    tail.reverse();
    format!("{head}…{}", tail.into_iter().collect::<String>())
}

/// A shorter name for a property, for narrow label columns.
fn short_property(p: &str) -> &str {
    match p {
        "translate" => "trans",
        "attachment" => "attach",
        "rotate" => "rot",
        "twoColor" => "tint",
        "transform" => "xform",
        "position" => "pos",
        "spacing" => "space",
        "rotation" => "rot",
        "direction" => "dir",
        "origin" => "orig",
        other => other,
    }
}

/// How the span between two keys is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fill {
    /// The value moves.
    Moving,
    /// The value holds (stepped, equal values, discrete keys).
    Holding,
    /// Nothing between (events).
    Blank,
}

/// The fill of the span between key `k` and key `k + 1`.
fn segment_fill(t: &Timeline, k: usize) -> Fill {
    let keys = match t {
        Timeline::Event(_) | Timeline::PhysicsReset(_) => return Fill::Blank,
        // Discrete keys: the keyed mode or image holds until the next key.
        Timeline::Attachment(_)
        | Timeline::DrawOrder(_)
        | Timeline::Inherit(_)
        | Timeline::Sequence(_) => return Fill::Holding,
        Timeline::Joint(j) => {
            // Keys are the union over components: the span moves when any component does.
            let (Some(&a), Some(&b)) = (j.times.get(k), j.times.get(k + 1)) else {
                return Fill::Holding;
            };
            return if j.values(a as f64) != j.values(b as f64) {
                Fill::Moving
            } else {
                Fill::Holding
            };
        }
        Timeline::Lattice(d) => {
            if d.keys.get_interp(k) == Some(Interp::Stepped) {
                return Fill::Holding;
            }
            return match (d.vertices.get(k), d.vertices.get(k + 1)) {
                (Some(a), Some(b)) if a != b => Fill::Moving,
                _ => Fill::Holding,
            };
        }
        Timeline::Deform(d) => {
            if d.keys.get_interp(k) == Some(Interp::Stepped) {
                return Fill::Holding;
            }
            return match (d.vertices.get(k), d.vertices.get(k + 1)) {
                (Some(a), Some(b)) if a != b => Fill::Moving,
                _ => Fill::Holding,
            };
        }
        other => match crate::inspect::keys_of(other) {
            Some(k) => k,
            None => return Fill::Blank,
        },
    };
    if keys.get_interp(k) == Some(Interp::Stepped) || k + 1 >= keys.len() {
        return Fill::Holding;
    }
    let moves = (0..keys.channels()).any(|c| keys.value(k, c) != keys.value(k + 1, c));
    if moves { Fill::Moving } else { Fill::Holding }
}

impl TracksView {
    fn render_dopesheet(&mut self, buf: &mut Buffer, area: Rect, ctx: &ViewCtx<'_>) {
        let theme = ctx.theme;
        let glyphs = axis::Glyphs::for_marker(ctx.marker);
        let w = area.width as usize;
        let Some((anim, _)) = axis::selected(ctx) else {
            buf.set_stringn(
                area.x,
                area.y,
                fit("no animation selected (a: picker)", w),
                w,
                theme.dim(),
            );
            self.page = 0;
            return;
        };
        let n = ctx.timelines.len();
        // Label column about a third of the width; the axis takes the rest.
        let (label_w, axis_w) = if w >= 16 {
            let l = (w * 2 / 5).clamp(6, 32);
            (l, w - l - 1)
        } else {
            (w, 0)
        };
        let axis_x = area.x + label_w as u16 + 1;
        let duration = anim.duration;
        self.dope = Some(mouse::DopeGeometry {
            area,
            axis_x,
            axis_w,
            duration,
        });
        let playhead_col = axis::column(ctx.playhead, duration, axis_w);

        // Header: animation name and the ruler.
        let head = fit(
            &format!("{} {}s", anim.name, axis::short(duration, 3)),
            label_w,
        );
        buf.set_stringn(area.x, area.y, &head, label_w, theme.title(false));
        if axis_w > 0 {
            let ruler = axis::ruler(duration, axis_w);
            buf.set_stringn(axis_x, area.y, &ruler, axis_w, theme.dim());
            // Paused, the line below shows where the playhead is, so the tick keeps off the
            // labels; playing, the tick is the only mark and shows over them.
            if let Some(c) = playhead_col
                && (ctx.playing || ruler.chars().nth(c) == Some(' '))
            {
                let mut tmp = [0u8; 4];
                let tick = glyphs.playhead_tick.encode_utf8(&mut tmp);
                buf.set_stringn(axis_x + c as u16, area.y, tick, 1, theme.playhead());
            }
        }

        let rows = (area.height as usize).saturating_sub(1);
        self.page = rows;
        if rows == 0 {
            return;
        }
        if n == 0 {
            buf.set_stringn(area.x, area.y + 1, fit("(no timelines)", w), w, theme.dim());
            return;
        }
        let rows_area = Rect::new(area.x, area.y + 1, area.width, rows as u16);
        if self.hold && ctx.playing && self.held_rows.restore(buf, rows_area, ctx.focused) {
            return;
        }
        // Kinds ("bone", "slot", ...) only when every label fits with them: consistent rows.
        let with_kind = ctx.timelines.iter().all(|i| width(&i.label()) <= label_w);
        let sel = ctx.selection.timeline.map(|s| s.min(n - 1));
        // Keep the selection visible; never leave blank rows below when scrolled.
        if let Some(s) = sel {
            if s < self.scroll {
                self.scroll = s;
            } else if s >= self.scroll + rows {
                self.scroll = s + 1 - rows;
            }
        }
        self.scroll = self.scroll.min(n.saturating_sub(rows));

        for r in 0..rows.min(n - self.scroll) {
            let i = self.scroll + r;
            let info = &ctx.timelines[i];
            let y = area.y + 1 + r as u16;
            let selected = sel == Some(i);
            let style = row_style(ctx, selected);
            // Fill the row so the selection shows across its whole width (cell by cell:
            // `set_stringn` splits its text into graphemes, a large part of a frame's cost).
            for x in area.x..area.x + w as u16 {
                if let Some(cell) = buf.cell_mut((x, y)) {
                    cell.set_char(' ').set_style(style);
                }
            }
            let label = dopesheet_label(info, label_w, with_kind);
            buf.set_stringn(area.x, y, &label, label_w, style);
            if axis_w == 0 {
                continue;
            }
            let Some(tl) = anim.timelines.get(info.index) else {
                continue;
            };
            let mut cells: Vec<(char, Style)> = vec![(' ', style); axis_w];
            let times = tl.key_times();
            let cols: Vec<Option<usize>> = times
                .iter()
                .map(|&t| axis::column(t as f64, duration, axis_w))
                .collect();
            for k in 0..times.len().saturating_sub(1) {
                let (Some(a), Some(b)) = (cols[k], cols[k + 1]) else {
                    continue;
                };
                let g = match segment_fill(tl, k) {
                    Fill::Moving => glyphs.moving,
                    Fill::Holding => glyphs.holding,
                    Fill::Blank => ' ',
                };
                for cell in cells.iter_mut().take(b).skip(a + 1) {
                    *cell = (g, style.patch(theme.dim()));
                }
            }
            for c in cols.iter().flatten() {
                cells[*c] = (glyphs.key, style.patch(theme.key()));
            }
            // The line through the rows only when paused: while playing it would move every
            // frame through every row, the largest share of the bytes a frame sends after the
            // preview (over SSH), and the ruler's tick already shows where the playhead is.
            if let Some(c) = playhead_col.filter(|_| !ctx.playing) {
                let g = if cells[c].0 == glyphs.key {
                    glyphs.key
                } else {
                    glyphs.playhead
                };
                cells[c] = (g, style.patch(theme.playhead()));
            }
            // Every glyph of the axis is one cell wide: set the cells directly.
            for (c, (g, st)) in cells.iter().enumerate() {
                if let Some(cell) = buf.cell_mut((axis_x + c as u16, y)) {
                    cell.set_char(*g).set_style(*st);
                }
            }
        }
        if ctx.playing {
            self.held_rows.capture(buf, rows_area, ctx.focused);
        } else {
            self.held_rows.clear();
        }
    }
}
