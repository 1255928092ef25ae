//! The Bones panel: the bone hierarchy as a collapsible tree with each bone's live local and
//! world values, the slots and constraints (IK, transform, path, physics, slider: with their
//! live values) as child rows of the bone they move (a slider: of its driving bone), and (`o`)
//! a flat list of the slots in the current draw order.
//!
//! A bone's row shows its pose (what animations set). Where constraints (or a Spine 4.3
//! slider) make its applied pose (the local transform its world transform comes from) show
//! differently, a `→ applied` row under it shows the applied values that differ, in the same
//! columns; whatever the skeleton's version.
//!
//! Rows name a bone relative to its parent when they share a dotted namespace
//! (`hand.right.IndexTip` under `hand.right.IndexDistalJoint` shows as `IndexTip`). Bones
//! with a 3D pose show their world position (metres) and Euler rotation instead of 2D values;
//! gated-off ones (an untracked hand) are dimmed.
//!
//! The tree is drawn here rather than with `tui-tree-widget`: its rows need a name column
//! whose width does not depend on the depth (so the value columns line up under one header),
//! only the visible rows are formatted, the expansion state is kept by bone name (to survive
//! reloads) and keys must work from the data alone, before the first render.

mod columns;
mod constraint_rows;
mod draw_order;
mod mouse;
mod tree;

pub use tree::Node;

use super::{Panel, PanelAction, PanelId, ViewCtx, panel_block, row_style};
use crate::core::model::{Inherit, SkeletonData};
use crate::core::skeleton::Skeleton;
use crate::tui::widgets::{fit, width};
use columns::Col;
use ratatui::Frame;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use std::collections::HashSet;
use std::sync::Arc;
use tree::{Hierarchy, Row};

/// What the panel lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BonesMode {
    /// The bone hierarchy with slots under their bones.
    #[default]
    Tree,
    /// The slots in the current draw order.
    DrawOrder,
}

/// The widest name column, in cells.
const NAME_MAX: usize = 40;
/// The name column keeps at least this many cells before value columns are added.
const NAME_MIN: usize = 18;
/// [`NAME_MIN`] for 3D skeletons: their rows are named relative to the parent (short), and
/// a position is worth more than the rest of a name.
const NAME_MIN_3D: usize = 12;

/// View state of the Bones panel.
#[derive(Debug, Default)]
pub struct BonesView {
    /// Names of the expanded bones (names, not indices, so expansion can survive a reload).
    open: HashSet<String>,
    /// The row under the cursor.
    cursor: Option<Node>,
    /// First visible tree row.
    offset: usize,
    /// The selected bone last followed (`None`: never synced).
    synced: Option<Option<usize>>,
    /// Identity of the skeleton data the index-based state refers to (0: none yet).
    data_key: usize,
    hierarchy: Hierarchy,
    /// Widest tree name cell (indent + expander + name) over all bones and slots.
    name_desired: usize,
    /// Whether some bone has a non-normal inherit mode, in the setup pose or by a timeline.
    any_inherit: bool,
    /// Whether some bone has a 3D pose (the value columns are then 3D).
    three_d: bool,
    mode: BonesMode,
    /// Cursor and first visible row in the draw-order list.
    order_cursor: usize,
    order_offset: usize,
    /// List rows at the last render (the PgUp/PgDn step).
    page: usize,
    /// Where the list rows were drawn last (for mouse clicks).
    list_area: Rect,
    /// Whether the next render may draw the held cells (every cell is readout text).
    hold: bool,
    held: super::held::HeldCells,
}

impl BonesView {
    /// What the panel lists.
    pub fn mode(&self) -> BonesMode {
        self.mode
    }

    /// Whether the bone named `name` is expanded.
    pub fn is_expanded(&self, name: &str) -> bool {
        self.open.contains(name)
    }

    /// Names of the expanded bones (to carry expansion over a reload).
    pub fn expanded(&self) -> impl Iterator<Item = &str> {
        self.open.iter().map(String::as_str)
    }

    /// The row under the cursor in the tree.
    pub fn cursor(&self) -> Option<Node> {
        self.cursor
    }

    /// Catches up with the data (new file) and with a selection made elsewhere: the selected
    /// bone's ancestors are opened and the cursor moves to it.
    fn sync(&mut self, ctx: &ViewCtx<'_>) {
        let data = ctx.session.data();
        let key = Arc::as_ptr(data) as usize;
        if key != self.data_key {
            let first = self.data_key == 0;
            self.data_key = key;
            self.hierarchy = Hierarchy::new(data);
            self.name_desired = desired_name_width(data, &self.hierarchy);
            self.any_inherit = data.bones.iter().any(|b| b.inherit != Inherit::Normal)
                || data.animations.iter().any(|a| {
                    a.timelines
                        .iter()
                        .any(|t| matches!(t, crate::core::animation::Timeline::Inherit(_)))
                });
            self.three_d = data.has_joints3();
            self.cursor = None;
            self.offset = 0;
            self.synced = None;
            self.order_cursor = 0;
            self.order_offset = 0;
            if first {
                for &r in &self.hierarchy.roots {
                    self.open.insert(data.bones[r].name.clone());
                }
            }
        }
        let sel = ctx.selection.bone.filter(|&b| b < data.bones.len());
        if self.synced != Some(sel) {
            self.synced = Some(sel);
            if let Some(b) = sel {
                for a in self.hierarchy.ancestors(b) {
                    self.open.insert(data.bones[a].name.clone());
                }
                if self.cursor.and_then(|n| self.hierarchy.bone_of(n, data)) != Some(b) {
                    self.cursor = Some(Node::Bone(b));
                }
            }
        }
    }

    /// Per bone: whether its applied pose shows differently from its pose (never for 3D
    /// skeletons, whose rows show world values).
    fn applied_rows(&self, sk: &Skeleton) -> Vec<bool> {
        if self.three_d {
            return Vec::new();
        }
        (0..sk.bones.len())
            .map(|i| {
                let bone = &sk.bones[i];
                bone.active && columns::applied_differs(&bone.pose, &sk.applied_pose(i))
            })
            .collect()
    }

    /// The visible rows and the cursor's row. A cursor hidden by a collapse (or on an
    /// applied row that went away) moves to its nearest visible ancestor.
    fn rows_and_cursor(&mut self, data: &SkeletonData, sk: &Skeleton) -> (Vec<Row>, Option<usize>) {
        let applied = self.applied_rows(sk);
        let rows = self.hierarchy.flatten(data, &self.open, &applied);
        // With no bone selected yet, the cursor starts on the first bone row.
        let Some(cursor) = self.cursor.or_else(|| rows.first().map(|r| r.node)) else {
            return (rows, None);
        };
        let find = |n: Node| rows.iter().position(|r| r.node == n);
        let idx = find(cursor).or_else(|| {
            let b = self.hierarchy.bone_of(cursor, data)?;
            std::iter::once(b)
                .chain(self.hierarchy.ancestors(b))
                .find_map(|a| find(Node::Bone(a)))
        });
        self.cursor = idx.map(|i| rows[i].node);
        (rows, idx)
    }

    /// Moves the tree cursor to row `target` (clamped) and selects its bone. An applied row
    /// is part of its bone's: the cursor passes it (onward when moving `down`, else to the
    /// bone).
    fn move_to(
        &mut self,
        target: usize,
        rows: &[Row],
        ctx: &ViewCtx<'_>,
        down: bool,
    ) -> PanelAction {
        let Some(last) = rows.len().checked_sub(1) else {
            return PanelAction::Handled;
        };
        let mut target = target.min(last);
        if matches!(rows[target].node, Node::Applied(_)) {
            target = if down && target < last {
                target + 1
            } else {
                target.saturating_sub(1)
            };
        }
        let node = rows[target].node;
        self.cursor = Some(node);
        match (node, self.hierarchy.bone_of(node, ctx.session.data())) {
            (Node::Bone(b), _) => PanelAction::SelectBone(b),
            (Node::Applied(_) | Node::Slot(_) | Node::Constraint(_), Some(b))
                if ctx.selection.bone != Some(b) =>
            {
                PanelAction::SelectBone(b)
            }
            _ => PanelAction::Handled,
        }
    }

    fn tree_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        let data = ctx.session.data().clone();
        let sk = ctx.session.skeleton();
        let (rows, idx) = self.rows_and_cursor(&data, sk);
        let page = self.page.max(1);
        match key.code {
            KeyCode::Up => self.move_to(idx.map_or(0, |i| i.saturating_sub(1)), &rows, ctx, false),
            KeyCode::Down => self.move_to(idx.map_or(0, |i| i + 1), &rows, ctx, true),
            KeyCode::PageUp => {
                self.move_to(idx.map_or(0, |i| i.saturating_sub(page)), &rows, ctx, false)
            }
            KeyCode::PageDown => self.move_to(idx.map_or(0, |i| i + page), &rows, ctx, true),
            KeyCode::Enter => {
                if let Some(Node::Bone(b)) = self.cursor
                    && self.hierarchy.expandable(b)
                {
                    let name = &data.bones[b].name;
                    if !self.open.remove(name) {
                        self.open.insert(name.clone());
                    }
                }
                PanelAction::Handled
            }
            KeyCode::Char('*') => {
                for (b, bd) in data.bones.iter().enumerate() {
                    if self.hierarchy.expandable(b) {
                        self.open.insert(bd.name.clone());
                    }
                }
                PanelAction::Handled
            }
            KeyCode::Char('c') => {
                self.open.clear();
                let before = self.cursor.and_then(|n| self.hierarchy.bone_of(n, &data));
                let (_, idx) = self.rows_and_cursor(&data, sk);
                match (idx, self.cursor) {
                    (Some(_), Some(Node::Bone(b))) if before != Some(b) => {
                        PanelAction::SelectBone(b)
                    }
                    _ => PanelAction::Handled,
                }
            }
            KeyCode::Char('o') => {
                self.mode = BonesMode::DrawOrder;
                PanelAction::Handled
            }
            _ => PanelAction::Ignored,
        }
    }

    fn render_tree(&mut self, frame: &mut Frame<'_>, inner: Rect, ctx: &ViewCtx<'_>) {
        let data = ctx.session.data().clone();
        let skeleton = ctx.session.skeleton();
        let (rows, idx) = self.rows_and_cursor(&data, skeleton);
        let header = inner.height >= 3;
        let list = Rect {
            y: inner.y + u16::from(header),
            height: inner.height - u16::from(header),
            ..inner
        };
        let page = list.height as usize;
        self.page = page.max(1);
        self.list_area = list;
        if let Some(i) = idx {
            // A bone's applied row belongs with it: scroll it into view too.
            let last = match (rows[i].node, rows.get(i + 1).map(|r| r.node)) {
                (Node::Bone(b), Some(Node::Applied(a))) if a == b && page > 1 => i + 1,
                _ => i,
            };
            if i < self.offset {
                self.offset = i;
            } else if last >= self.offset + page {
                self.offset = last + 1 - page;
            }
        }
        self.offset = self.offset.min(rows.len().saturating_sub(page));
        // Never an orphan `→ applied` row at the top (its bone scrolled out): show one row
        // less above, or its bone when the cursor is on it.
        if self.offset > 0
            && matches!(
                rows.get(self.offset).map(|r| r.node),
                Some(Node::Applied(_))
            )
        {
            if idx == Some(self.offset) || self.offset + page >= rows.len() {
                self.offset -= 1;
            } else {
                self.offset += 1;
            }
        }

        let w = inner.width as usize;
        let name_min = self
            .name_desired
            .min(if self.three_d { NAME_MIN_3D } else { NAME_MIN });
        let cols = columns::choose(w, name_min, self.any_inherit, self.three_d);
        let cols_w: usize = cols.iter().map(|c| c.width()).sum();
        let name_w = w.saturating_sub(cols_w).min(self.name_desired);
        let buf = frame.buffer_mut();

        if header {
            let mut spans = vec![Span::raw(pad(&fit("bone", name_w), name_w))];
            for c in &cols {
                spans.push(Span::raw(match c {
                    Col::Inherit => format!(" {:<w$}", c.label(), w = c.width() - 1),
                    _ => format!("{:>w$}", c.label(), w = c.width()),
                }));
            }
            let y = inner.y;
            buf.set_line(
                inner.x,
                y,
                &Line::from(spans).style(ctx.theme.dim()),
                inner.width,
            );
        }

        let selected = ctx.selection.bone;
        // Two cells per level when every name fits or the indent takes at most half the name
        // column; else one.
        let deepest = rows.iter().map(|r| r.depth).max().unwrap_or(0);
        let step = if name_w >= self.name_desired || deepest * 2 <= name_w / 2 {
            2
        } else {
            1
        };
        let indent_of = |depth: usize| (depth * step).min(name_w.saturating_sub(6).max(name_w / 2));
        // Constraint rows' values start after the widest constraint name on screen (not the
        // whole name column, which long slot names widen): their live values come first.
        let constraint_w = rows
            .iter()
            .skip(self.offset)
            .take(page)
            .filter_map(|r| match r.node {
                Node::Constraint(c) => {
                    Some(indent_of(r.depth) + 2 + width(data.constraint_name(c)))
                }
                _ => None,
            })
            .max()
            .unwrap_or(0)
            .min(name_w);
        for (k, row) in rows.iter().enumerate().skip(self.offset).take(page) {
            let y = list.y + (k - self.offset) as u16;
            let indent = indent_of(row.depth);
            let is_cursor = Some(k) == idx;
            let line = match row.node {
                Node::Bone(b) => {
                    let bd = &data.bones[b];
                    let bone = &skeleton.bones[b];
                    let expander = if !self.hierarchy.expandable(b) {
                        "  "
                    } else if self.open.contains(&bd.name) {
                        "▾ "
                    } else {
                        "▸ "
                    };
                    let cell = format!(
                        "{}{expander}{}",
                        " ".repeat(indent),
                        crate::text::sanitize(self.hierarchy.bone_label(&data, b))
                    );
                    let mut name_style = ctx.theme.text();
                    if selected == Some(b) {
                        name_style = name_style.add_modifier(Modifier::BOLD);
                    }
                    let mut spans =
                        vec![Span::styled(pad(&fit(&cell, name_w), name_w), name_style)];
                    if !bone.active {
                        let rest = w.saturating_sub(name_w);
                        spans.push(Span::raw(fit(" inactive (not in skin)", rest)));
                        Line::from(spans).style(ctx.theme.dim())
                    } else if bd.joint3.is_some() && !skeleton.joint3_shown(b) {
                        // A 3D node gated off (an untracked hand): values, dimmed.
                        for c in &cols {
                            spans.push(Span::raw(format!(
                                "{:>w$}",
                                c.cell(bone, bd),
                                w = c.width()
                            )));
                        }
                        Line::from(spans).style(ctx.theme.dim())
                    } else {
                        for c in &cols {
                            let v = c.cell(bone, bd);
                            spans.push(Span::raw(match c {
                                Col::Inherit => format!(" {:<w$}", v, w = c.width() - 1),
                                _ => format!("{:>w$}", v, w = c.width()),
                            }));
                        }
                        Line::from(spans)
                    }
                }
                Node::Slot(s) => {
                    let cell = format!(
                        "{}◦ {}",
                        " ".repeat(indent),
                        crate::text::sanitize(self.hierarchy.slot_label(&data, s))
                    );
                    let rest = w.saturating_sub(name_w);
                    let info = slot_info(ctx, s);
                    Line::from(vec![
                        Span::raw(pad(&fit(&cell, name_w), name_w)),
                        Span::raw(fit(&info, rest)),
                    ])
                    .style(ctx.theme.dim())
                }
                Node::Applied(b) => {
                    let pose = &skeleton.bones[b].pose;
                    let applied = skeleton.applied_pose(b);
                    // What differs but has no column here is named in the name cell.
                    let hidden = columns::hidden_differences(&cols, pose, &applied);
                    let label = if hidden.is_empty() {
                        "→ applied".to_string()
                    } else {
                        format!("→ applied {hidden}")
                    };
                    let cell = format!("{}{label}", " ".repeat(indent));
                    let mut spans = vec![Span::styled(
                        pad(&fit(&cell, name_w), name_w),
                        ctx.theme.dim(),
                    )];
                    for c in &cols {
                        let v = c.applied_cell(pose, &applied);
                        spans.push(Span::styled(
                            format!("{:>w$}", v, w = c.width()),
                            ctx.theme.highlight(),
                        ));
                    }
                    Line::from(spans)
                }
                Node::Constraint(c) => {
                    let name = crate::text::sanitize(data.constraint_name(c));
                    let glyph = constraint_rows::glyph(c);
                    let cell = format!("{}{glyph} {name}", " ".repeat(indent));
                    let rest = w.saturating_sub(constraint_w);
                    let info = constraint_rows::info(&data, skeleton, c);
                    Line::from(vec![
                        Span::raw(pad(&fit(&cell, constraint_w), constraint_w)),
                        Span::raw(fit(&info, rest)),
                    ])
                    .style(ctx.theme.dim())
                }
            };
            let area = Rect::new(list.x, y, list.width, 1);
            buf.set_line(area.x, y, &line, area.width);
            if is_cursor {
                buf.set_style(area, row_style(ctx, true));
            }
        }
    }
}

/// ` slot #<draw index> <attachment> (<kind>)[ seq <index>] <rrggbbaa>[ dark <rrggbb>]` for a
/// slot row; `seq` when the attachment has an image sequence: the slot's sequence index and,
/// for -1 (the setup image), the image shown.
fn slot_info(ctx: &ViewCtx<'_>, s: usize) -> String {
    let data = ctx.session.data();
    let sk = ctx.session.skeleton();
    let slot = &sk.slots[s];
    let order = sk
        .draw_order
        .iter()
        .position(|&d| d == s)
        .map_or("?".to_string(), |i| i.to_string());
    let att = match slot.attachment.and_then(|a| data.attachments.get(a)) {
        Some(a) => {
            let mut s = format!("{} ({})", crate::text::sanitize(&a.name), a.type_name());
            if let Some(seq) = &a.sequence {
                s.push_str(&sequence_info(slot.sequence_index, seq));
            }
            s
        }
        None => "—".to_string(),
    };
    let mut out = format!(" slot #{order} {att} {}", hex(slot.color, true));
    if let Some(dark) = slot.dark {
        out.push_str(" dark ");
        out.push_str(&hex(dark, false));
    }
    out
}

/// ` seq <index>` (` seq -1=<image>` for the setup image) of a slot showing a sequence.
fn sequence_info(index: i32, seq: &crate::core::model::Sequence) -> String {
    if index == -1 {
        format!(" seq -1={}", seq.resolve(index))
    } else {
        format!(" seq {index}")
    }
}

/// A color as `rrggbbaa` (or `rrggbb`) hex.
fn hex(c: crate::core::color::Color, alpha: bool) -> String {
    let c = c.clamped();
    let b = |v: f64| (v * 255.0).round() as u8;
    if alpha {
        format!("{:02x}{:02x}{:02x}{:02x}", b(c.r), b(c.g), b(c.b), b(c.a))
    } else {
        format!("{:02x}{:02x}{:02x}", b(c.r), b(c.g), b(c.b))
    }
}

/// The widest tree name cell over every bone and slot, clamped to [`NAME_MAX`].
fn desired_name_width(data: &SkeletonData, h: &Hierarchy) -> usize {
    let bones = data
        .bones
        .iter()
        .enumerate()
        .map(|(i, _)| h.depth[i] * 2 + 2 + width(h.bone_label(data, i)));
    let slots = data.slots.iter().enumerate().map(|(i, s)| {
        h.depth.get(s.bone).map_or(0, |d| d + 1) * 2 + 2 + width(h.slot_label(data, i))
    });
    // Constraint rows sit one level under their bone. Applied rows are left out: they come
    // and go with the pose, and the layout should not.
    let constraints = h.constraints.iter().enumerate().flat_map(|(b, list)| {
        list.iter()
            .map(move |&c| (h.depth[b] + 1) * 2 + 2 + width(data.constraint_name(c)))
    });
    bones
        .chain(slots)
        .chain(constraints)
        .chain(std::iter::once("bone".len()))
        .max()
        .unwrap_or(0)
        .min(NAME_MAX)
}

/// `s` (already fitted) padded with spaces to `w` cells.
fn pad(s: &str, w: usize) -> String {
    let used = width(s);
    let mut out = String::with_capacity(s.len() + w.saturating_sub(used));
    out.push_str(s);
    out.extend(std::iter::repeat_n(' ', w.saturating_sub(used)));
    out
}

impl Panel for BonesView {
    fn hold_readouts(&mut self, hold: bool) {
        self.hold = hold;
    }

    fn render(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        if self.hold && self.held.restore(frame.buffer_mut(), area, ctx.focused) {
            return;
        }
        self.render_exact(frame, area, ctx);
        // Only playback holds readouts: paused frames need no copy.
        if ctx.playing {
            self.held.capture(frame.buffer_mut(), area, ctx.focused);
        } else {
            self.held.clear();
        }
    }

    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction {
        if key
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        {
            return PanelAction::Ignored;
        }
        self.sync(ctx);
        match self.mode {
            BonesMode::Tree => self.tree_key(key, ctx),
            BonesMode::DrawOrder => self.draw_order_key(key, ctx),
        }
    }
}

impl BonesView {
    /// Draws the panel from the session as it is.
    fn render_exact(&mut self, frame: &mut Frame<'_>, area: Rect, ctx: &ViewCtx<'_>) {
        self.sync(ctx);
        let data = ctx.session.data();
        let suffix = match self.mode {
            BonesMode::Tree => {
                let mut s = format!("{} bones", data.bones.len());
                if let Some(b) = ctx.selection.bone.and_then(|b| data.bones.get(b)) {
                    s.push_str(" · ");
                    s.push_str(&fit(&b.name, 24));
                }
                s
            }
            BonesMode::DrawOrder => self.draw_order_suffix(ctx),
        };
        let block = panel_block(PanelId::Bones, &suffix, ctx);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        match self.mode {
            BonesMode::Tree => self.render_tree(frame, inner, ctx),
            BonesMode::DrawOrder => self.render_draw_order(frame, inner, ctx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_rows_name_the_index() {
        let seq = crate::core::model::Sequence {
            count: 4,
            start: 1,
            digits: 2,
            setup: 2,
        };
        assert_eq!(sequence_info(-1, &seq), " seq -1=2");
        assert_eq!(sequence_info(3, &seq), " seq 3");
    }
}
