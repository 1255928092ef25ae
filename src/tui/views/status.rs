//! The status bar: play state, animation, time, frame, speed, loop, file and format, the
//! runtime version whose rules play it, the physics mode (skeletons with physics
//! constraints), and the latest message. Segments drop out by priority when the terminal is narrow.

use crate::text::sanitize;
use crate::tui::app::App;
use crate::tui::widgets::{fit, width};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The status segments in display order, each with its priority (lower = kept longer).
fn segments(app: &App) -> Vec<(u8, String)> {
    let data = app.session.data();
    let st = app.session.state();
    let anim = app.selection.animation.and_then(|a| data.animations.get(a));
    let duration = anim.map_or(0.0, |a| a.duration);
    let fps = app.session.fps();
    // Following: the followed track's chain (`walk <- idle 56%`); pinned: the pinned name.
    let shown = match (
        app.pinned,
        crate::session::report::chain_brief(st, app.track),
    ) {
        (false, Some(chain)) => format!("{}: {chain}", app.track),
        _ => {
            let name = anim.map_or("(no animation)".into(), |a| sanitize(&a.name).into_owned());
            if app.pinned {
                format!("pin {name}")
            } else {
                name
            }
        }
    };
    let at = app.playhead();
    let mut segs = vec![
        (
            0,
            if app.playing {
                "▶ play".to_string()
            } else {
                "⏸ pause".to_string()
            },
        ),
        (1, shown),
        (
            2,
            // The shown animation's time, in seconds and in its own frames.
            if duration > 0.0 {
                format!(
                    "t {at:.3}/{duration:.3}s ({}/{})",
                    (at * fps + 1e-6).floor() as u64,
                    (duration * fps).round() as u64
                )
            } else {
                format!("t {at:.3}/{duration:.3}s")
            },
        ),
        (
            4,
            format!("#{} {:.3}s", app.session.frame(), app.session.time()),
        ),
        (5, format!("{}×", app.speed)),
        (
            6,
            if app.looping {
                "loop".to_string()
            } else {
                "once".to_string()
            },
        ),
        (3, sanitize(&app.doc.label).into_owned()),
    ];
    // The runtime whose rules play the file; one segment when the export's own version
    // already names it ("Spine 4.2.22" for the 4.2 rules).
    let exported = format!(
        "{} {}",
        sanitize(&data.source.format),
        sanitize(&data.source.version)
    );
    let rules = data.rules.label();
    if exported.starts_with(rules) {
        segs.push((4, exported));
    } else {
        segs.push((7, exported));
        segs.push((4, rules.to_string()));
    }
    if !app.session.skins().is_empty() {
        segs.push((
            6,
            format!("skin {}", sanitize(&app.session.skins().join("+"))),
        ));
    }
    segs.push((8, "? help".to_string()));
    if !data.physics_constraints.is_empty() {
        let mode = crate::session::physics_name(app.session.physics());
        segs.insert(2, (2, format!("physics {mode}")));
    }
    if app.range != (None, None) {
        let show = |f: Option<u64>| f.map_or("-".to_string(), |f| f.to_string());
        segs.insert(
            4,
            (
                5,
                format!("in {} out {}", show(app.range.0), show(app.range.1)),
            ),
        );
    }
    segs
}

/// The status text for a width (without the message).
pub fn text(app: &App, w: usize, reserve: usize) -> String {
    let segs = segments(app);
    let sep = " │ ";
    let mut keep = vec![true; segs.len()];
    let total = |keep: &[bool]| -> usize {
        let parts: Vec<usize> = segs
            .iter()
            .zip(keep)
            .filter(|(_, k)| **k)
            .map(|((_, s), _)| width(s))
            .collect();
        // Each separator " │ " is 3 cells; one space pads each end.
        parts.iter().sum::<usize>() + 3 * parts.len().saturating_sub(1) + 2
    };
    // Drop the least important segments until the rest fits.
    let mut order: Vec<usize> = (0..segs.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(segs[i].0));
    for i in order {
        if total(&keep) + reserve <= w {
            break;
        }
        if segs[i].0 > 1 {
            keep[i] = false;
        }
    }
    let parts: Vec<&str> = segs
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|((_, s), _)| s.as_str())
        .collect();
    format!(" {} ", parts.join(sep))
}

/// Draws the status bar, with the latest message on its right when there is room (the
/// message takes the room of less important segments).
pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let w = area.width as usize;
    let msg = app
        .message
        .as_ref()
        .map(|(m, e)| (sanitize(m).into_owned(), *e));
    let reserve = msg.as_ref().map_or(0, |(m, _)| width(m).min(w / 2) + 1);
    let status = text(app, w, reserve);
    let mut spans = vec![Span::styled(fit(&status, w), app.theme.selected())];
    if let Some((m, is_error)) = msg {
        let room = w.saturating_sub(width(&status) + 1);
        if room >= 6 {
            let style = if is_error {
                app.theme.error()
            } else {
                app.theme.highlight()
            };
            spans.push(Span::raw(" "));
            // A message cut short points at the log that keeps it whole.
            let shown = if width(&m) > room && room > 12 {
                format!("{} (m)", fit(&m, room - 4))
            } else {
                fit(&m, room)
            };
            spans.push(Span::styled(shown, style));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
