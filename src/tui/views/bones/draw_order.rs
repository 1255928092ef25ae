//! The draw-order list: every slot in the skeleton's current draw order.

use super::{BonesMode, BonesView, pad};
use crate::tui::views::{PanelAction, ViewCtx, row_style};
use crate::tui::widgets::fit;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

/// Which text columns the width allows.
struct Layout {
    index_w: usize,
    /// Width of each flexible column (slot, bone, attachment), including a trailing gap.
    flex_w: usize,
    bone: bool,
    blend: bool,
    setup: bool,
}

const BLEND_W: usize = 9;
const SETUP_W: usize = 6;

fn layout(width: usize, slots: usize) -> Layout {
    let index_w = slots.saturating_sub(1).to_string().len().max(3);
    // Index, the "moved" mark and a gap.
    let rest = width.saturating_sub(index_w + 2);
    let (bone, blend, setup, n_flex, fixed) = if rest >= 72 {
        (true, true, true, 3, BLEND_W + SETUP_W)
    } else if rest >= 54 {
        (true, false, true, 3, SETUP_W)
    } else {
        (false, false, false, 2, 0)
    };
    Layout {
        index_w,
        flex_w: (rest.saturating_sub(fixed) / n_flex).min(30),
        bone,
        blend,
        setup,
    }
}

impl BonesView {
    /// `draw order · 26 slots · 3 moved`.
    pub(super) fn draw_order_suffix(&self, ctx: &ViewCtx<'_>) -> String {
        let order = &ctx.session.skeleton().draw_order;
        let moved = order.iter().enumerate().filter(|&(k, &s)| k != s).count();
        format!("draw order · {} slots · {moved} moved", order.len())
    }

    pub(super) fn draw_order_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        let order = &ctx.session.skeleton().draw_order;
        let page = self.page.max(1);
        let last = order.len().saturating_sub(1);
        let target = match key.code {
            KeyCode::Up => self.order_cursor.saturating_sub(1),
            KeyCode::Down => self.order_cursor + 1,
            KeyCode::PageUp => self.order_cursor.saturating_sub(page),
            KeyCode::PageDown => self.order_cursor + page,
            KeyCode::Char('o') => {
                self.mode = BonesMode::Tree;
                return PanelAction::Handled;
            }
            _ => return PanelAction::Ignored,
        };
        self.order_cursor = target.min(last);
        match order
            .get(self.order_cursor)
            .and_then(|&s| ctx.session.data().slots.get(s))
        {
            Some(sd) if sd.bone < ctx.session.data().bones.len() => {
                PanelAction::SelectBone(sd.bone)
            }
            _ => PanelAction::Handled,
        }
    }

    pub(super) fn render_draw_order(
        &mut self,
        frame: &mut Frame<'_>,
        inner: Rect,
        ctx: &ViewCtx<'_>,
    ) {
        let data = ctx.session.data();
        let sk = ctx.session.skeleton();
        let order = &sk.draw_order;
        let header = inner.height >= 3;
        let list_y = inner.y + u16::from(header);
        let page = (inner.height - u16::from(header)) as usize;
        self.list_area = Rect::new(inner.x, list_y, inner.width, page as u16);
        self.page = page.max(1);
        self.order_cursor = self.order_cursor.min(order.len().saturating_sub(1));
        if self.order_cursor < self.order_offset {
            self.order_offset = self.order_cursor;
        } else if self.order_cursor >= self.order_offset + page {
            self.order_offset = self.order_cursor + 1 - page;
        }
        self.order_offset = self.order_offset.min(order.len().saturating_sub(page));

        let lay = layout(inner.width as usize, order.len());
        let flex = |s: &str| pad(&fit(s, lay.flex_w.saturating_sub(1)), lay.flex_w);
        let buf = frame.buffer_mut();
        if header {
            let mut text = format!("{:>w$}  ", "#", w = lay.index_w);
            text.push_str(&flex("slot"));
            if lay.bone {
                text.push_str(&flex("bone"));
            }
            text.push_str(&flex("attachment"));
            if lay.blend {
                text.push_str(&format!("{:<BLEND_W$}", "blend"));
            }
            if lay.setup {
                text.push_str(&format!("{:>w$}", "setup", w = SETUP_W - 1));
            }
            buf.set_line(
                inner.x,
                inner.y,
                &Line::styled(text, ctx.theme.dim()),
                inner.width,
            );
        }
        for (k, &s) in order.iter().enumerate().skip(self.order_offset).take(page) {
            let Some(sd) = data.slots.get(s) else {
                continue;
            };
            let moved = k != s;
            let mut spans = vec![Span::raw(format!(
                "{k:>w$}{} ",
                if moved { "*" } else { " " },
                w = lay.index_w
            ))];
            spans.push(Span::raw(flex(&sd.name)));
            if lay.bone {
                let bone = data.bones.get(sd.bone).map_or("?", |b| b.name.as_str());
                spans.push(Span::raw(flex(bone)));
            }
            let att = sk.slots[s]
                .attachment
                .and_then(|a| data.attachments.get(a))
                .map_or("—", |a| a.name.as_str());
            spans.push(Span::raw(flex(att)));
            if lay.blend {
                spans.push(Span::raw(format!("{:<BLEND_W$}", sd.blend.name())));
            }
            if lay.setup && moved {
                spans.push(Span::raw(format!("{s:>w$}", w = SETUP_W - 1)));
            }
            let y = list_y + (k - self.order_offset) as u16;
            let mut line = Line::from(spans);
            if moved {
                line = line.style(ctx.theme.key());
            }
            buf.set_line(inner.x, y, &line, inner.width);
            if k == self.order_cursor {
                buf.set_style(Rect::new(inner.x, y, inner.width, 1), row_style(ctx, true));
            }
        }
    }
}
