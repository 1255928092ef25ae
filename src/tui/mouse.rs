//! The mouse (`--mouse`): a left click focuses the panel under the pointer and selects what
//! is there (a dopesheet timeline row, a bone or slot row, an event row, a key of a key
//! list, which moves the playhead to it); a click or drag on the dopesheet's time axis scrubs;
//! the wheel is ↑ / ↓ for the panel under the pointer (in the preview: zoom) without moving
//! the focus. While an overlay is open the wheel scrolls it and clicks do nothing.

use crate::tui::app::{App, Overlay};
use crate::tui::keymap::Action;
use crate::tui::views::{PanelAction, PanelId, ViewCtx};
use ratatui::crossterm::event::{KeyCode, KeyEvent, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::Position;

/// What the left button is doing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MouseState {
    /// Pressed on the dopesheet: dragging scrubs.
    scrubbing: bool,
}

impl App {
    /// Handles a mouse event. Returns true when something visible changed.
    pub fn handle_mouse(&mut self, m: MouseEvent) -> bool {
        self.refresh_readouts();
        let wheel = match m.kind {
            MouseEventKind::ScrollUp => Some(KeyCode::Up),
            MouseEventKind::ScrollDown => Some(KeyCode::Down),
            _ => None,
        };
        if !matches!(self.overlay, Overlay::None) || self.search.typing() {
            return match wheel {
                Some(code) if !self.search.typing() => self.handle_key(KeyEvent::from(code)),
                _ => false,
            };
        }
        let here = self.panel_at(m.column, m.row);
        match m.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                self.mouse.scrubbing = false;
                let Some(id) = here else {
                    return false;
                };
                let focused = id != self.focus;
                if focused {
                    self.apply(Action::Focus(id));
                }
                self.click_in(id, m.column, m.row) || focused
            }
            MouseEventKind::Drag(MouseButton::Left) if self.mouse.scrubbing => {
                match self.panels.tracks.time_at(m.column, true) {
                    Some(t) => self.scrub_to(t),
                    None => false,
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                self.mouse.scrubbing = false;
                false
            }
            _ => match (wheel, here) {
                (Some(code), Some(id)) => self.wheel(id, code),
                _ => false,
            },
        }
    }

    /// The panel drawn at a screen cell.
    pub fn panel_at(&self, column: u16, row: u16) -> Option<PanelId> {
        self.areas
            .iter()
            .find(|(_, r)| r.contains(Position::new(column, row)))
            .map(|&(id, _)| id)
    }

    /// A left click inside panel `id` (already focused).
    fn click_in(&mut self, id: PanelId, column: u16, row: u16) -> bool {
        self.flush_seek();
        let playhead = self.playhead();
        let ctx = ViewCtx {
            session: &self.session,
            selection: &self.selection,
            timelines: &self.timelines,
            theme: &self.theme,
            marker: self.marker,
            focused: true,
            playhead,
            playing: self.playing,
        };
        let mut seek = None;
        let action = match id {
            PanelId::Tracks => {
                let hit = self
                    .panels
                    .tracks
                    .dopesheet_hit(column, row, ctx.timelines.len());
                match hit {
                    Some(hit) => {
                        seek = hit.time;
                        hit.timeline
                            .map_or(PanelAction::Ignored, PanelAction::SelectTimeline)
                    }
                    None => PanelAction::Ignored,
                }
            }
            PanelId::Bones => self.panels.bones.click(column, row, &ctx),
            PanelId::Events => self.panels.events.click(column, row, &ctx),
            PanelId::Curves => {
                seek = self.panels.curves.key_at(column, row, &ctx);
                PanelAction::Ignored
            }
            PanelId::Preview => PanelAction::Ignored,
        };
        let mut changed = match action {
            PanelAction::SelectTimeline(t) => {
                self.select_timeline(t);
                true
            }
            PanelAction::SelectBone(b) => {
                self.select_bone(b);
                true
            }
            PanelAction::Handled => true,
            _ => false,
        };
        if let Some(t) = seek {
            // A press on the dopesheet's axis: moving the pointer while pressed scrubs.
            self.mouse.scrubbing = id == PanelId::Tracks;
            changed |= self.scrub_to(t);
        }
        changed
    }

    /// The wheel over panel `id`: the panel's ↑ / ↓ (the preview: zoom in / out), the focus
    /// left where it was.
    fn wheel(&mut self, id: PanelId, code: KeyCode) -> bool {
        let code = match (id, code) {
            (PanelId::Preview, KeyCode::Up) => KeyCode::Char('z'),
            (PanelId::Preview, _) => KeyCode::Char('Z'),
            (_, c) => c,
        };
        let (focus, inspector) = (self.focus, self.inspector);
        self.focus = id;
        let changed = self.handle_key(KeyEvent::from(code));
        self.focus = focus;
        self.inspector = inspector;
        changed
    }

    /// Pauses and moves the playhead to time `t` of the shown animation (to the nearest
    /// frame): from the entry playing it, honouring its time scale; else to session time `t`.
    pub fn scrub_to(&mut self, t: f64) -> bool {
        self.playing = false;
        let at = self.playhead();
        let scale = self.shown_time_scale();
        let target = (self.session.time() + (t - at) / scale).max(0.0);
        let frame = (target * self.session.fps()).round();
        let frame = if frame.is_finite() { frame as u64 } else { 0 };
        if frame == self.session.frame() {
            return false;
        }
        self.session.seek_frame(frame);
        self.follow_playing();
        true
    }

    /// The time scale of the entry playing the shown animation (1 when none, or not positive).
    fn shown_time_scale(&self) -> f64 {
        let st = self.session.state();
        let Some(a) = self.selection.animation else {
            return 1.0;
        };
        (0..st.tracks.len())
            .find_map(|t| {
                let e = st.entry(st.current(t)?)?;
                (e.animation == Some(a)).then_some(e.time_scale)
            })
            .filter(|s| *s > 0.0 && s.is_finite())
            .unwrap_or(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn mouse(kind: MouseEventKind, column: u16, row: u16) -> MouseEvent {
        MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }
    }

    #[test]
    fn clicks_outside_every_panel_do_nothing() {
        let mut app = crate::tui::offscreen::sample_app("walk", 0.0);
        assert!(!app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), 5, 5)));
        assert_eq!(app.focus, PanelId::Tracks);
    }
}
