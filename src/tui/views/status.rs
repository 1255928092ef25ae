//! The status bar: file, format, animation, time, frame, speed, play state, messages.

use crate::tui::app::App;
use crate::tui::widgets::fit;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The status line's text pieces (also used by tests).
pub fn text(app: &App) -> String {
    let data = app.session.data();
    let anim = app.selection.animation.and_then(|a| data.animations.get(a));
    let duration = anim.map_or(0.0, |a| a.duration);
    let fps = app.session.fps();
    let state = if app.playing {
        "▶ playing"
    } else {
        "⏸ paused"
    };
    format!(
        "{} │ {} {} │ {} │ t {:.3}/{:.3} s │ frame {}/{} │ {}× │ {} │ {} │ ? help",
        crate::text::sanitize(&app.doc.label),
        crate::text::sanitize(&data.source.format),
        crate::text::sanitize(&data.source.version),
        anim.map_or("(no animation)".into(), |a| crate::text::sanitize(&a.name)
            .into_owned()),
        app.playhead(),
        duration,
        app.session.frame(),
        (duration * fps).round() as u64,
        app.speed,
        if app.looping { "loop" } else { "once" },
        state,
    )
}

/// Draws the status bar (and the message, if any, on its right).
pub fn render(frame: &mut Frame<'_>, area: Rect, app: &App) {
    let w = area.width as usize;
    let mut spans = vec![Span::styled(fit(&text(app), w), app.theme.selected())];
    if let Some((msg, is_error)) = &app.message {
        let used = crate::tui::widgets::width(&text(app)).min(w);
        let room = w.saturating_sub(used + 1);
        if room > 8 {
            let style = if *is_error {
                app.theme.error()
            } else {
                app.theme.highlight()
            };
            spans.push(Span::raw(" "));
            spans.push(Span::styled(fit(msg, room), style));
        }
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), area);
}
