//! Drawing the whole screen from the app model.

use crate::tui::app::{App, Overlay};
use crate::tui::layout;
use crate::tui::views::{help, status};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

/// Draws everything.
pub fn draw(frame: &mut Frame<'_>, app: &mut App) {
    let area = frame.area();
    if let Some(file) = app.waiting.clone() {
        app.areas.clear();
        crate::tui::waiting::render(frame, app, &file);
        return;
    }
    let Some(areas) = crate::tui::panels::compute(area, app) else {
        app.areas.clear();
        let msg = format!(
            "terminal too small: {}x{} (bonescope needs at least {}x{}); enlarge it or press q to quit",
            area.width,
            area.height,
            layout::MIN_WIDTH,
            layout::MIN_HEIGHT
        );
        frame.render_widget(
            Paragraph::new(Line::from(msg)).wrap(Wrap { trim: true }),
            area,
        );
        return;
    };
    let playhead = app.playhead();
    let hold = app.hold_readouts();
    app.areas = areas.panels.clone();
    for (id, rect) in &areas.panels {
        let ctx = crate::tui::views::ViewCtx {
            session: &app.session,
            selection: &app.selection,
            timelines: &app.timelines,
            theme: &app.theme,
            marker: app.marker,
            focused: app.focus == *id && matches!(app.overlay, Overlay::None),
            playhead,
            playing: app.playing,
        };
        let panel = app.panels.get(*id);
        panel.hold_readouts(hold);
        panel.render(frame, *rect, &ctx);
    }
    if let Some(strip) = areas.tabs {
        let shown: Vec<_> = areas.panels.iter().map(|(id, _)| *id).collect();
        crate::tui::views::tab_strip::render(frame, strip, &shown, &app.theme);
    }
    status::render(frame, areas.status, app);
    if let Some(banner) = &app.banner {
        let row = Rect::new(area.x, area.y, area.width, 1);
        let text = crate::tui::widgets::fit(&format!(" ⚠ {banner} "), area.width as usize);
        frame.render_widget(
            Paragraph::new(Line::from(ratatui::text::Span::styled(
                text,
                app.theme
                    .error()
                    .add_modifier(ratatui::style::Modifier::REVERSED),
            ))),
            row,
        );
    }
    match &mut app.overlay {
        Overlay::None => {}
        Overlay::Help { scroll } => help::render(frame, area, scroll, &app.theme),
        Overlay::AnimationPicker(p) | Overlay::ArmaturePicker(p) => {
            p.render(frame, area, &app.theme)
        }
        Overlay::SkinPicker(p) => p.render(frame, area, &app.theme),
        Overlay::Prompt(p) => p.render(frame, areas.status, &app.theme),
        Overlay::MessageLog(v) => {
            crate::tui::views::message_log::render(frame, area, &app.messages, v, &app.theme)
        }
    }
    crate::tui::search::render(frame, areas.status, app);
}

/// The status line's rectangle for an area (for tests).
pub fn status_row(area: Rect) -> Rect {
    Rect::new(area.x, area.bottom().saturating_sub(1), area.width, 1)
}
