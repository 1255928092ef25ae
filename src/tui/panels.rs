//! Panel arrangement the user controls: maximising the focused panel (`F`, again restores)
//! and widening or narrowing its column (`}` / `{`). The sizes are kept for the whole session
//! (reloads and armature switches included), per layout.
//!
//! Three layouts by terminal size: small (below 120x32) shows the preview beside the focused
//! inspector panel; medium (120 to 159 columns) stacks Tracks, Curves and Events on the left
//! and Preview over Bones on the right, so the Bones panel is wide enough for its local
//! rotation, position and scale columns; large (160 columns and more) puts them in three
//! columns.

use crate::tui::app::App;
use crate::tui::keymap::Action;
use crate::tui::layout::{Areas, MIN_HEIGHT, MIN_WIDTH};
use crate::tui::views::PanelId;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

/// How much one `{` / `}` moves a split (percent of the width).
const STEP: u16 = 4;
/// The narrowest a column may become (percent).
const MIN_COL: u16 = 12;

/// Which arrangement a terminal size gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Small,
    Medium,
    Large,
}

impl Mode {
    /// The layout for a terminal area.
    pub fn of(area: Rect) -> Mode {
        if area.height < 32 || area.width < 120 {
            Mode::Small
        } else if area.width < 160 {
            Mode::Medium
        } else {
            Mode::Large
        }
    }
}

/// The maximised state and the column widths (percent) of each layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PanelLayout {
    /// The focused panel fills the screen (it follows the focus).
    pub maximised: bool,
    /// Tracks+Curves, Preview+Events, Bones.
    pub large: Vec<u16>,
    /// Tracks+Curves+Events, Preview+Bones.
    pub medium: Vec<u16>,
    /// Preview, inspector.
    pub small: Vec<u16>,
    /// The terminal area at the last draw (which layout the keys resize).
    pub last_area: Rect,
}

impl Default for PanelLayout {
    fn default() -> Self {
        PanelLayout {
            maximised: false,
            large: vec![36, 40, 24],
            medium: vec![52, 48],
            small: vec![45, 55],
            last_area: Rect::new(0, 0, 80, 24),
        }
    }
}

impl PanelLayout {
    fn cols_mut(&mut self, mode: Mode) -> &mut Vec<u16> {
        match mode {
            Mode::Small => &mut self.small,
            Mode::Medium => &mut self.medium,
            Mode::Large => &mut self.large,
        }
    }

    /// Makes the column holding `panel` wider (`grow`) or narrower by one step, taking from
    /// or giving to its neighbours. False when it cannot change (a bound, or maximised).
    pub fn resize(&mut self, panel: PanelId, grow: bool) -> bool {
        if self.maximised {
            return false;
        }
        let mode = Mode::of(self.last_area);
        let i = column_of(mode, panel);
        let cols = self.cols_mut(mode);
        if grow {
            // Take from the widest other column.
            let Some(j) = (0..cols.len())
                .filter(|&j| j != i && cols[j] >= MIN_COL + STEP)
                .max_by_key(|&j| cols[j])
            else {
                return false;
            };
            cols[j] -= STEP;
            cols[i] += STEP;
        } else {
            if cols[i] < MIN_COL + STEP {
                return false;
            }
            // Give to the neighbour on the right (the left for the last column).
            let j = if i + 1 < cols.len() { i + 1 } else { i - 1 };
            cols[i] -= STEP;
            cols[j] += STEP;
        }
        true
    }
}

/// The column index of `panel` in a layout.
fn column_of(mode: Mode, panel: PanelId) -> usize {
    match (mode, panel) {
        (Mode::Small, PanelId::Preview) => 0,
        (Mode::Small, _) => 1,
        (Mode::Medium, PanelId::Preview | PanelId::Bones) => 1,
        (Mode::Medium, _) => 0,
        (Mode::Large, PanelId::Tracks | PanelId::Curves) => 0,
        (Mode::Large, PanelId::Preview | PanelId::Events) => 1,
        (Mode::Large, PanelId::Bones) => 2,
    }
}

fn percents(p: &[u16]) -> Vec<Constraint> {
    p.iter().map(|&v| Constraint::Percentage(v)).collect()
}

fn split(area: Rect, dir: Direction, p: &[u16]) -> Vec<Rect> {
    Layout::default()
        .direction(dir)
        .constraints(percents(p))
        .split(area)
        .to_vec()
}

/// Lays out `area` for the app's focus and layout; `None` below the minimum size. Records
/// the area (the resize keys act on the layout it gets).
pub fn compute(area: Rect, app: &mut App) -> Option<Areas> {
    app.layout.last_area = area;
    arrange(area, app.focus, app.inspector, &app.layout)
}

/// The panel rectangles for `area` (pure: tests call it directly).
pub fn arrange(
    area: Rect,
    focus: PanelId,
    inspector: PanelId,
    layout: &PanelLayout,
) -> Option<Areas> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let [main, status] = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Min(1), Constraint::Length(1)])
        .areas(area);
    if layout.maximised {
        return Some(Areas {
            panels: vec![(focus, main)],
            status,
            tabs: None,
        });
    }
    let mut tabs = None;
    let panels = match Mode::of(area) {
        Mode::Large => {
            let cols = split(main, Direction::Horizontal, &layout.large);
            let left = split(cols[0], Direction::Vertical, &[50, 50]);
            let mid = split(cols[1], Direction::Vertical, &[62, 38]);
            vec![
                (PanelId::Tracks, left[0]),
                (PanelId::Curves, left[1]),
                (PanelId::Preview, mid[0]),
                (PanelId::Events, mid[1]),
                (PanelId::Bones, cols[2]),
            ]
        }
        Mode::Medium => {
            let cols = split(main, Direction::Horizontal, &layout.medium);
            let left = split(cols[0], Direction::Vertical, &[40, 30, 30]);
            let right = split(cols[1], Direction::Vertical, &[50, 50]);
            vec![
                (PanelId::Tracks, left[0]),
                (PanelId::Curves, left[1]),
                (PanelId::Events, left[2]),
                (PanelId::Preview, right[0]),
                (PanelId::Bones, right[1]),
            ]
        }
        Mode::Small => {
            let inspector = if inspector == PanelId::Preview {
                PanelId::Tracks
            } else {
                inspector
            };
            // A tab strip on top names the hidden panels and the keys that show them.
            let [strip, main] = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Length(1), Constraint::Min(1)])
                .areas(main);
            tabs = Some(strip);
            let cols = split(main, Direction::Horizontal, &layout.small);
            vec![(PanelId::Preview, cols[0]), (inspector, cols[1])]
        }
    };
    Some(Areas {
        panels,
        status,
        tabs,
    })
}

impl App {
    /// `F`, `{`, `}`.
    pub fn layout_action(&mut self, action: Action) -> bool {
        match action {
            Action::Maximise => {
                self.layout.maximised = !self.layout.maximised;
                self.note(if self.layout.maximised {
                    format!("{} maximised (F restores)", self.focus.title())
                } else {
                    "layout restored".to_string()
                });
            }
            Action::Widen | Action::Narrow => {
                let grow = action == Action::Widen;
                if !self.layout.resize(self.focus, grow) {
                    self.note(if self.layout.maximised {
                        "maximised: F restores the layout first"
                    } else if grow {
                        "as wide as it goes"
                    } else {
                        "as narrow as it goes"
                    });
                }
            }
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn width_of(a: &Areas, id: PanelId) -> u16 {
        a.panels
            .iter()
            .find(|(p, _)| *p == id)
            .map_or(0, |(_, r)| r.width)
    }

    #[test]
    fn medium_gives_bones_room() {
        let l = PanelLayout::default();
        let a = arrange(
            Rect::new(0, 0, 120, 40),
            PanelId::Tracks,
            PanelId::Tracks,
            &l,
        )
        .expect("fits");
        assert_eq!(a.panels.len(), 5);
        assert!(width_of(&a, PanelId::Bones) >= 56, "{a:?}");
        assert_eq!(a.tabs, None, "every panel shows");
    }

    #[test]
    fn small_has_a_tab_strip_above_the_two_panels() {
        let a = arrange(
            Rect::new(0, 0, 80, 24),
            PanelId::Events,
            PanelId::Events,
            &PanelLayout::default(),
        )
        .expect("fits");
        assert_eq!(a.tabs, Some(Rect::new(0, 0, 80, 1)));
        assert!(
            a.panels.iter().all(|(_, r)| r.y == 1 && r.bottom() == 23),
            "{a:?}"
        );
    }

    #[test]
    fn maximise_follows_focus_and_fills_the_screen() {
        let l = PanelLayout {
            maximised: true,
            ..Default::default()
        };
        let a = arrange(Rect::new(0, 0, 80, 24), PanelId::Bones, PanelId::Bones, &l).expect("fits");
        assert_eq!(a.panels, vec![(PanelId::Bones, Rect::new(0, 0, 80, 23))]);
        assert_eq!(a.tabs, None);
    }

    #[test]
    fn resize_moves_the_split_within_bounds() {
        let mut l = PanelLayout {
            last_area: Rect::new(0, 0, 200, 60),
            ..Default::default()
        };
        assert!(l.resize(PanelId::Bones, true));
        assert_eq!(
            l.large,
            vec![36, 36, 28],
            "taken from the widest other column"
        );
        assert!(l.resize(PanelId::Tracks, false));
        assert_eq!(l.large, vec![32, 40, 28]);
        for _ in 0..40 {
            l.resize(PanelId::Bones, false);
        }
        assert!(l.large.iter().all(|&c| c >= MIN_COL), "{:?}", l.large);
        assert_eq!(l.large.iter().sum::<u16>(), 100);
        // Other layouts are untouched.
        assert_eq!(l.small, vec![45, 55]);
    }
}
