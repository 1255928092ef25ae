//! The Curves panel: the selected timeline's channels plotted over the animation's time with
//! the exact curves the runtime evaluates (bezier tables, stepped holds), the keys, the
//! playhead and, with `v`, the bone's evaluated value (after mixing and constraints) as a
//! second line recorded while frames are shown. Timelines without plottable channels
//! (attachment, deform, events, draw order) show their keys as a list instead.
//!
//! Keys: `v` toggles the evaluated overlay; ↑ ↓ select the previous / next timeline.

mod mouse;

use super::tracks::axis;
use super::{Panel, PanelAction, PanelId, ViewCtx, panel_block};
use crate::core::animation::{Animation, BoneProperty, Joint3Channel, Timeline};
use crate::inspect::{self, Curve, Target, TimelineInfo};
use crate::text::sanitize;
use crate::tui::theme::ColorMode;
use crate::tui::widgets::{fit, width};
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Wrap};
use std::collections::BTreeMap;

/// What the overlay is called in the legend.
pub const OVERLAY_NAME: &str = "evaluated";

/// History keys are times rounded to this many seconds.
const HISTORY_QUANTUM: f64 = 1e-4;
/// The most history points kept (cleared beyond).
const HISTORY_MAX: usize = 20_000;

/// Recorded evaluated values of one bone timeline, by animation time.
#[derive(Debug, Default)]
struct History {
    /// (skeleton data address, animation, timeline) the points belong to.
    owner: Option<(usize, usize, usize)>,
    /// Quantized time → (exact time, value per channel).
    points: BTreeMap<i64, (f64, Vec<f64>)>,
}

/// View state of the Curves panel.
#[derive(Debug, Default)]
pub struct CurvesView {
    /// Whether the evaluated bone value is plotted over the curves.
    overlay: bool,
    history: History,
    /// First row shown in a key list.
    list_scroll: usize,
    /// Where the key list's rows were drawn last (none: a plot), for mouse clicks.
    list_area: Option<Rect>,
    /// Whether the next render may show the held legend (the plot and its playhead are
    /// drawn every frame).
    hold: bool,
    held: super::held::HeldLines<LegendKey, Vec<Line<'static>>>,
}

/// What a plot's legend was made for: width, timeline, channels, overlay, channel letters.
type LegendKey = (usize, usize, usize, bool, bool);

/// Whether channels are told apart by letters (no colour, several channels).
fn letters_key(theme: &crate::tui::theme::Theme, channels: usize) -> bool {
    theme.mode == ColorMode::None && channels > 1
}

impl CurvesView {
    /// Whether the evaluated overlay is on.
    pub fn overlay(&self) -> bool {
        self.overlay
    }

    /// Number of recorded (time, evaluated value) points.
    pub fn history_len(&self) -> usize {
        self.history.points.len()
    }

    /// The recorded points of channel `c`, in time order.
    pub fn history(&self, c: usize) -> Vec<(f64, f64)> {
        self.history
            .points
            .iter()
            .filter_map(|(_, (t, v))| Some((*t, *v.get(c)?)))
            .collect()
    }
}

impl Panel for CurvesView {
    fn hold_readouts(&mut self, hold: bool) {
        self.hold = hold;
    }

    fn render(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        let selected = axis::selected(ctx);
        let suffix = selected
            .and_then(|(_, info)| info)
            .map(|i| fit(&i.label(), (area.width as usize).saturating_sub(12)))
            .unwrap_or_default();
        let block = panel_block(PanelId::Curves, &suffix, ctx);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        self.list_area = None;
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        let message = |frame: &mut Frame<'_>, text: &str| {
            frame.render_widget(
                Paragraph::new(Span::styled(text.to_string(), ctx.theme.dim()))
                    .wrap(Wrap { trim: true }),
                inner,
            );
        };
        let Some((anim, info)) = selected else {
            message(frame, "no animation selected (a: animation picker)");
            return;
        };
        let Some(info) = info else {
            message(frame, "no timeline selected (↑ ↓ or the Tracks panel)");
            return;
        };
        let Some(tl) = anim.timelines.get(info.index) else {
            message(frame, "timeline not found");
            return;
        };
        self.record(ctx, info, tl);
        match Curve::new(tl) {
            Some(curve) if !info.channels.is_empty() => {
                self.render_plot(frame, inner, ctx, anim, info, &curve)
            }
            _ => self.render_key_list(frame, inner, ctx, tl),
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return PanelAction::Ignored;
        }
        let n = ctx.timelines.len();
        let cur = ctx.selection.timeline.map(|s| s.min(n.saturating_sub(1)));
        match key.code {
            KeyCode::Up | KeyCode::Down if n == 0 => PanelAction::Ignored,
            KeyCode::Up => PanelAction::SelectTimeline(cur.map_or(0, |c| c.saturating_sub(1))),
            KeyCode::Down => PanelAction::SelectTimeline(cur.map_or(0, |c| (c + 1).min(n - 1))),
            KeyCode::Char('v') => {
                let info = cur.and_then(|c| ctx.timelines.get(c));
                match info.map(|i| i.target) {
                    None => PanelAction::Message("no timeline selected".into()),
                    Some(Target::Bone(_)) => {
                        self.overlay = !self.overlay;
                        PanelAction::Message(if self.overlay {
                            "overlay on (bone after mixing+constraints)".into()
                        } else {
                            "overlay off".into()
                        })
                    }
                    Some(_) => {
                        PanelAction::Message("the evaluated overlay needs a bone timeline".into())
                    }
                }
            }
            _ => PanelAction::Ignored,
        }
    }
}

// ----- sampling ---------------------------------------------------------------------------

/// One letter per channel to draw it with when there is no colour: the initial of the
/// channel's last name part (`r g b a`, `x y`), upper case when that is taken (`dark.r` is
/// `R`), else another letter of the name, else a digit.
pub fn channel_letters(names: &[&str]) -> Vec<char> {
    let mut used: Vec<char> = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        let last = name.rsplit('.').next().unwrap_or(name);
        let initial = last.chars().next().filter(char::is_ascii_alphanumeric);
        let candidates = initial
            .into_iter()
            .flat_map(|c| [c.to_ascii_lowercase(), c.to_ascii_uppercase()])
            .chain(name.chars().filter(char::is_ascii_alphanumeric))
            .chain(char::from_digit(((i + 1) % 10) as u32, 10));
        let pick = candidates
            .into_iter()
            .find(|c| !used.contains(c))
            .unwrap_or('#');
        used.push(pick);
    }
    used
}

/// Times to sample a curve on [0, `end`]: `n` uniform samples, every key time and a time just
/// before each key (so stepped holds end in a vertical jump), sorted and deduplicated.
pub fn sample_times(key_times: &[f32], end: f64, n: usize) -> Vec<f64> {
    let end = if end.is_finite() && end > 0.0 {
        end
    } else {
        1.0
    };
    let n = n.max(2);
    let eps = end * 1e-6;
    let mut times: Vec<f64> = (0..n).map(|i| end * i as f64 / (n - 1) as f64).collect();
    for &k in key_times {
        let k = k as f64;
        if (0.0..=end).contains(&k) {
            times.push(k);
            if k - eps > 0.0 {
                times.push(k - eps);
            }
        }
    }
    times.sort_by(f64::total_cmp);
    times.dedup();
    times
}

/// The bone's evaluated local value (after mixing and constraints) in the units of its
/// timeline's channels: rotation and shear relative to setup, translation added to setup,
/// scale as a factor of setup; for joint timelines the bone's 3D pose components (world
/// space, raw). `None` for timelines that do not target a bone.
pub fn evaluated(ctx: &ViewCtx<'_>, t: &Timeline) -> Option<Vec<f64>> {
    if let Timeline::Joint(jt) = t {
        let pose = ctx
            .session
            .skeleton()
            .bones
            .get(jt.bone)?
            .joint3
            .as_deref()?;
        return Some(match jt.channel {
            Joint3Channel::Position => pose.position.to_vec(),
            Joint3Channel::Rotation => pose.rotation.to_vec(),
            Joint3Channel::Direction => pose.direction.to_vec(),
        });
    }
    let Timeline::Bone(bt) = t else {
        return None;
    };
    let sk = ctx.session.skeleton();
    sk.bones.get(bt.bone)?;
    let setup = ctx.session.data().bones.get(bt.bone)?;
    let local = sk.applied_pose(bt.bone);
    let ratio = |v: f64, s: f64| if s != 0.0 { v / s } else { v };
    let mut out = match bt.property {
        BoneProperty::Rotate => vec![local.rotation - setup.rotation],
        BoneProperty::Translate => vec![local.x - setup.x, local.y - setup.y],
        BoneProperty::Scale => vec![
            ratio(local.scale_x, setup.scale_x),
            ratio(local.scale_y, setup.scale_y),
        ],
        BoneProperty::Shear => vec![local.shear_x - setup.shear_x, local.shear_y - setup.shear_y],
        BoneProperty::TranslateX => vec![local.x - setup.x],
        BoneProperty::TranslateY => vec![local.y - setup.y],
        BoneProperty::ScaleX => vec![ratio(local.scale_x, setup.scale_x)],
        BoneProperty::ScaleY => vec![ratio(local.scale_y, setup.scale_y)],
        BoneProperty::ShearX => vec![local.shear_x - setup.shear_x],
        BoneProperty::ShearY => vec![local.shear_y - setup.shear_y],
    };
    // Angles: the turn nearest the keyed value, so the overlay sits on the curve.
    if matches!(
        bt.property,
        BoneProperty::Rotate | BoneProperty::Shear | BoneProperty::ShearX | BoneProperty::ShearY
    ) {
        for (c, v) in out.iter_mut().enumerate() {
            if let Some(keyed) = Curve::new(t).and_then(|cv| cv.value(c, ctx.playhead)) {
                *v += 360.0 * ((keyed - *v) / 360.0).round();
            }
        }
    }
    Some(out)
}

/// Splits time-ordered points into runs without gaps longer than `gap`.
fn split_runs(points: &[(f64, f64)], gap: f64) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = Vec::new();
    for &p in points {
        match runs.last_mut() {
            Some(run) if run.last().is_some_and(|l| p.0 - l.0 <= gap) => run.push(p),
            _ => runs.push(vec![p]),
        }
    }
    runs
}

/// Y bounds covering `values` with a little padding; flat data gets ±1.
pub fn value_bounds(values: impl Iterator<Item = f64>) -> [f64; 2] {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() || !hi.is_finite() {
        return [-1.0, 1.0];
    }
    if hi - lo < 1e-9 {
        return [lo - 1.0, hi + 1.0];
    }
    let pad = (hi - lo) * 0.05;
    [lo - pad, hi + pad]
}

impl CurvesView {
    /// Records the bone's evaluated value at the playhead (bone timelines only).
    fn record(&mut self, ctx: &ViewCtx<'_>, info: &TimelineInfo, tl: &Timeline) {
        let owner = (
            std::sync::Arc::as_ptr(ctx.session.data()) as usize,
            ctx.selection.animation.unwrap_or(usize::MAX),
            info.index,
        );
        if self.history.owner != Some(owner) {
            self.history.owner = Some(owner);
            self.history.points.clear();
            self.list_scroll = 0;
        }
        if !matches!(info.target, Target::Bone(_)) {
            return;
        }
        let duration = ctx
            .session
            .data()
            .animations
            .get(owner.1)
            .map_or(0.0, |a| a.duration);
        let p = ctx.playhead;
        if !p.is_finite() || p < 0.0 || p > duration + 1e-9 {
            return;
        }
        if let Some(v) = evaluated(ctx, tl) {
            if self.history.points.len() >= HISTORY_MAX {
                self.history.points.clear();
            }
            self.history
                .points
                .insert((p / HISTORY_QUANTUM).round() as i64, (p, v));
        }
    }

    fn render_plot(
        &mut self,
        frame: &mut Frame<'_>,
        inner: Rect,
        ctx: &ViewCtx<'_>,
        anim: &Animation,
        info: &TimelineInfo,
        curve: &Curve<'_>,
    ) {
        let tl = curve.timeline();
        let glyphs = axis::Glyphs::for_marker(ctx.marker);
        let theme = ctx.theme;
        let end = if anim.duration > 0.0 {
            anim.duration
        } else {
            1.0
        };
        let channels = info.channels.len().min(curve.channels());
        let is_bone = matches!(info.target, Target::Bone(_));
        let show_overlay = self.overlay && is_bone;
        let p = ctx.playhead;
        let on_axis = p.is_finite() && (-1e-9..=end + 1e-9).contains(&p);
        let eval_now = if show_overlay {
            evaluated(ctx, tl)
        } else {
            None
        };

        // Legend: the playhead time, each channel's value there, the overlay (readout text:
        // held while playing, see `held`).
        // Without colour, channels are told apart by their own letters (line and legend).
        let letters =
            letters_key(theme, channels).then(|| channel_letters(&info.channels[..channels]));
        let w = inner.width as usize;
        let legend_key = (w, info.index, channels, show_overlay, letters.is_some());
        let legend = self.held.get(self.hold, legend_key, || {
            let mut items: Vec<Vec<Span<'static>>> = Vec::new();
            items.push(vec![Span::styled(
                format!("{} t {}", glyphs.playhead, crate::tui::widgets::secs(p)),
                theme.playhead(),
            )]);
            for c in 0..channels {
                let v = curve.value(c, p).map_or("–".into(), axis::value_label);
                let mark = letters.as_ref().map_or(glyphs.moving, |l| l[c]);
                items.push(vec![
                    Span::styled(format!("{mark}{mark} "), theme.series(c)),
                    Span::styled(format!("{} {v}", info.channels[c]), theme.text()),
                ]);
            }
            if show_overlay {
                let vals = eval_now.as_ref().map_or("–".to_string(), |v| {
                    v.iter()
                        .map(|x| axis::value_label(*x))
                        .collect::<Vec<_>>()
                        .join(" ")
                });
                items.push(vec![Span::styled(
                    format!("{} {OVERLAY_NAME} {vals}", glyphs.evaluated.unwrap_or('•')),
                    theme.highlight(),
                )]);
                items.push(vec![Span::styled(
                    "(bone after mixing+constraints)",
                    theme.dim(),
                )]);
            }
            let mut legend: Vec<Line<'static>> = Vec::new();
            let mut cur: Vec<Span<'static>> = Vec::new();
            let mut cur_w = 0;
            for item in items {
                let iw: usize = item.iter().map(|s| width(&s.content)).sum();
                if cur_w > 0 && cur_w + 2 + iw > w {
                    legend.push(Line::from(std::mem::take(&mut cur)));
                    cur_w = 0;
                }
                if cur_w > 0 {
                    cur.push(Span::raw("  "));
                    cur_w += 2;
                }
                cur_w += iw;
                cur.extend(item);
            }
            if !cur.is_empty() {
                legend.push(Line::from(cur));
            }
            legend
        });
        let legend_h = if inner.height >= 6 {
            legend.len().min((inner.height as usize / 3).max(1))
        } else {
            0
        };
        for (i, line) in legend.iter().take(legend_h).enumerate() {
            let r = Rect::new(inner.x, inner.y + i as u16, inner.width, 1);
            frame.render_widget(line.clone(), r);
        }
        let chart_area = Rect::new(
            inner.x,
            inner.y + legend_h as u16,
            inner.width,
            inner.height - legend_h as u16,
        );
        if chart_area.width < 8 || chart_area.height < 3 {
            if legend_h == 0 {
                let text = legend.first().cloned().unwrap_or_default();
                frame.render_widget(text, Rect::new(inner.x, inner.y, inner.width, 1));
            }
            return;
        }

        // Data.
        let n = (chart_area.width as usize * 4).max(64);
        let times = sample_times(curve.key_times(), end, n);
        let series: Vec<Vec<(f64, f64)>> = (0..channels)
            .map(|c| {
                times
                    .iter()
                    .filter_map(|&x| Some((x, curve.value(c, x)?)))
                    .collect()
            })
            .collect();
        // Keys denser than one per two columns (recordings keep a key per frame) would bury
        // the line: those channels show the line alone.
        let key_room = chart_area.width as usize / 2;
        let key_pts: Vec<(f64, f64)> = (0..channels)
            .map(|c| curve.key_points(c))
            .filter(|pts| pts.len() <= key_room)
            .flatten()
            .collect();
        let gap = 2.5 / ctx.session.fps().max(1.0);
        let runs: Vec<Vec<(f64, f64)>> = if show_overlay {
            (0..channels)
                .flat_map(|c| split_runs(&self.history(c), gap))
                .collect()
        } else {
            Vec::new()
        };
        let eval_pts: Vec<(f64, f64)> = match (&eval_now, on_axis) {
            (Some(v), true) => v.iter().map(|&y| (p, y)).collect(),
            _ => Vec::new(),
        };
        let bounds = value_bounds(
            series
                .iter()
                .flatten()
                .map(|pt| pt.1)
                .chain(runs.iter().flatten().map(|pt| pt.1))
                .chain(eval_pts.iter().map(|pt| pt.1)),
        );
        let playhead_line: Vec<(f64, f64)> = if on_axis {
            let x = p.clamp(0.0, end);
            vec![(x, bounds[0]), (x, bounds[1])]
        } else {
            Vec::new()
        };

        // Markers: keys and the evaluated value stand out from the curves.
        let key_marker = Marker::Custom(glyphs.key);
        let overlay_marker = glyphs.evaluated.map_or(Marker::Dot, Marker::Custom);
        let now_marker = Marker::Custom(glyphs.now);

        let mut datasets = Vec::new();
        if !playhead_line.is_empty() {
            datasets.push(
                Dataset::default()
                    .data(&playhead_line)
                    .marker(Marker::Custom(glyphs.playhead))
                    .graph_type(GraphType::Line)
                    .style(theme.playhead()),
            );
        }
        for (c, s) in series.iter().enumerate() {
            datasets.push(
                Dataset::default()
                    .data(s)
                    .marker(
                        letters
                            .as_ref()
                            .map_or(ctx.marker.marker(), |l| Marker::Custom(l[c])),
                    )
                    .graph_type(GraphType::Line)
                    .style(theme.series(c)),
            );
        }
        for run in &runs {
            datasets.push(
                Dataset::default()
                    .data(run)
                    .marker(overlay_marker)
                    .graph_type(GraphType::Line)
                    .style(theme.highlight()),
            );
        }
        datasets.push(
            Dataset::default()
                .data(&key_pts)
                .marker(key_marker)
                .graph_type(GraphType::Scatter)
                .style(theme.key()),
        );
        if !eval_pts.is_empty() {
            datasets.push(
                Dataset::default()
                    .data(&eval_pts)
                    .marker(now_marker)
                    .graph_type(GraphType::Scatter)
                    .style(theme.highlight()),
            );
        }

        let x_labels: Vec<String> = if chart_area.width >= 24 {
            vec!["0".into(), axis::short(end / 2.0, 3), axis::short(end, 3)]
        } else {
            vec!["0".into(), axis::short(end, 3)]
        };
        let y_labels: Vec<String> = if chart_area.height >= 9 {
            vec![
                axis::value_label(bounds[0]),
                axis::value_label((bounds[0] + bounds[1]) / 2.0),
                axis::value_label(bounds[1]),
            ]
        } else {
            vec![axis::value_label(bounds[0]), axis::value_label(bounds[1])]
        };
        let chart = Chart::new(datasets)
            .legend_position(None)
            .x_axis(
                Axis::default()
                    .bounds([0.0, end])
                    .labels(x_labels)
                    .style(theme.dim()),
            )
            .y_axis(
                Axis::default()
                    .bounds(bounds)
                    .labels(y_labels)
                    .style(theme.dim()),
            );
        frame.render_widget(chart, chart_area);
    }

    fn render_key_list(
        &mut self,
        frame: &mut Frame<'_>,
        inner: Rect,
        ctx: &ViewCtx<'_>,
        tl: &Timeline,
    ) {
        let theme = ctx.theme;
        let rows = key_rows(ctx, tl);
        let w = inner.width as usize;
        let h = inner.height as usize;
        let buf = frame.buffer_mut();
        let header = format!("  {:>7}  {}", "time", key_kind(tl));
        buf.set_stringn(inner.x, inner.y, fit(&header, w), w, theme.dim());
        let list_h = h.saturating_sub(1);
        if list_h == 0 {
            return;
        }
        if rows.is_empty() {
            buf.set_stringn(inner.x, inner.y + 1, fit("(no keys)", w), w, theme.dim());
            return;
        }
        let current = rows.iter().rposition(|(t, _)| *t <= ctx.playhead + 1e-9);
        if let Some(c) = current {
            if c < self.list_scroll {
                self.list_scroll = c;
            } else if c >= self.list_scroll + list_h {
                self.list_scroll = c + 1 - list_h;
            }
        }
        self.list_scroll = self.list_scroll.min(rows.len().saturating_sub(list_h));
        self.list_area = Some(Rect::new(inner.x, inner.y + 1, inner.width, list_h as u16));
        for (r, (t, text)) in rows.iter().enumerate().skip(self.list_scroll).take(list_h) {
            let y = inner.y + 1 + (r - self.list_scroll) as u16;
            let is_cur = current == Some(r);
            let (mark, style) = if is_cur {
                ("▶", theme.highlight())
            } else {
                (" ", theme.text())
            };
            let line = format!("{mark} {:>7.3}  {text}", t);
            buf.set_stringn(inner.x, y, fit(&line, w), w, style);
        }
        if rows.len() > list_h {
            // Where the list is, at the right of the header.
            let pos = format!(
                "{}-{}/{}",
                self.list_scroll + 1,
                (self.list_scroll + list_h).min(rows.len()),
                rows.len()
            );
            if width(&pos) + width(&header) < w {
                let x = inner.x + (w - width(&pos)) as u16;
                buf.set_stringn(x, inner.y, &pos, width(&pos), theme.dim());
            }
        }
    }
}

/// What the value column of a key list holds.
fn key_kind(t: &Timeline) -> &'static str {
    match t {
        Timeline::Attachment(_) => "attachment",
        Timeline::Deform(_) => "deform",
        Timeline::Event(_) => "event",
        Timeline::DrawOrder(_) => "draw order",
        Timeline::Inherit(_) => "inherit",
        Timeline::Sequence(_) => "sequence",
        Timeline::PhysicsReset(_) => "physics",
        _ => "value",
    }
}

/// The keys of a timeline without plottable channels, as (time, text) rows (text sanitized).
pub fn key_rows(ctx: &ViewCtx<'_>, t: &Timeline) -> Vec<(f64, String)> {
    let data = ctx.session.data();
    match t {
        Timeline::Attachment(a) => a
            .times
            .iter()
            .zip(&a.names)
            .map(|(&time, name)| {
                let text = name
                    .as_deref()
                    .map_or("(none)".to_string(), |n| sanitize(n).into_owned());
                (time as f64, text)
            })
            .collect(),
        Timeline::Deform(d) => {
            let att = data.attachments.get(d.attachment);
            let name = att.map_or(String::from("?"), |a| sanitize(&a.name).into_owned());
            let setup: Option<Vec<f32>> = att.and_then(|a| a.vertex_data()).map(|vd| {
                if vd.bones.is_some() {
                    Vec::new()
                } else {
                    vd.vertices.clone()
                }
            });
            d.keys
                .times()
                .iter()
                .zip(&d.vertices)
                .map(|(&time, v)| {
                    let n = v.len() / 2;
                    let base = |i: usize| {
                        setup
                            .as_ref()
                            .and_then(|s| s.get(i))
                            .copied()
                            .unwrap_or(0.0)
                    };
                    let mut moved = 0;
                    let mut max = 0f64;
                    for i in 0..n {
                        let dx = (v[2 * i] - base(2 * i)) as f64;
                        let dy = (v[2 * i + 1] - base(2 * i + 1)) as f64;
                        let dist = (dx * dx + dy * dy).sqrt();
                        if dist > 1e-6 {
                            moved += 1;
                            max = max.max(dist);
                        }
                    }
                    let text = if moved == 0 {
                        format!("{name}: {n} vertices, setup shape")
                    } else {
                        format!(
                            "{name}: {moved} of {n} vertices moved (max {})",
                            axis::short(max, 2)
                        )
                    };
                    (time as f64, text)
                })
                .collect()
        }
        Timeline::Event(e) => e
            .times
            .iter()
            .zip(&e.events)
            .map(|(&time, ev)| {
                let def = data.events.get(ev.data);
                let mut text = def.map_or("?".to_string(), |d| sanitize(&d.name).into_owned());
                if ev.int != 0 {
                    text.push_str(&format!(" int={}", ev.int));
                }
                if ev.float != 0.0 {
                    text.push_str(&format!(" float={}", axis::short(ev.float, 3)));
                }
                if !ev.string.is_empty() {
                    text.push_str(&format!(" \"{}\"", sanitize(&ev.string)));
                }
                if def.is_some_and(|d| d.audio.is_some()) || ev.volume != 1.0 || ev.balance != 0.0 {
                    text.push_str(&format!(
                        " vol={} bal={}",
                        axis::short(ev.volume, 2),
                        axis::short(ev.balance, 2)
                    ));
                }
                (time as f64, text)
            })
            .collect(),
        Timeline::DrawOrder(d) => d
            .times
            .iter()
            .zip(&d.orders)
            .map(|(&time, order)| {
                let text = match order {
                    None => "setup order".to_string(),
                    Some(o) => {
                        let moved = o.iter().enumerate().filter(|(i, s)| *i != **s).count();
                        format!("draw order changed ({moved} slots moved)")
                    }
                };
                (time as f64, text)
            })
            .collect(),
        Timeline::Inherit(i) => i
            .times
            .iter()
            .zip(&i.modes)
            .map(|(&time, mode)| (time as f64, mode.name().to_string()))
            .collect(),
        Timeline::Sequence(q) => q
            .times
            .iter()
            .zip(&q.keys)
            .map(|(&time, k)| {
                let text = format!(
                    "{} from image {}, {} s per image",
                    k.mode.name(),
                    k.index,
                    axis::short(k.delay as f64, 4)
                );
                (time as f64, text)
            })
            .collect(),
        Timeline::PhysicsReset(r) => r
            .times
            .iter()
            .map(|&time| (time as f64, "reset".to_string()))
            .collect(),
        other => match inspect::keys_of(other) {
            Some(keys) => (0..keys.len())
                .map(|k| {
                    let vals: Vec<String> = (0..keys.channels())
                        .map(|c| axis::value_label(keys.value(k, c)))
                        .collect();
                    (keys.time(k), vals.join(" "))
                })
                .collect(),
            None => Vec::new(),
        },
    }
}

#[cfg(test)]
mod letter_tests {
    use super::channel_letters;

    #[test]
    fn channels_get_distinct_letters() {
        assert_eq!(channel_letters(&["r", "g", "b", "a"]), ['r', 'g', 'b', 'a']);
        assert_eq!(
            channel_letters(&["r", "g", "b", "a", "dark.r", "dark.g", "dark.b"]),
            ['r', 'g', 'b', 'a', 'R', 'G', 'B']
        );
        assert_eq!(channel_letters(&["x", "y"]), ['x', 'y']);
        assert_eq!(channel_letters(&["mix", "mix"]), ['m', 'M']);
    }
}
