//! The panels. Each panel is a struct holding only its own view state (scroll, cursor) with
//! a `render` and a `handle_key`; everything it shows comes from [`ViewCtx`], and everything
//! it wants changed goes back to the app as a [`PanelAction`].

pub mod bones;
pub mod curves;
pub mod events;
pub mod help;
pub mod message_log;
pub mod picker;
pub mod preview;
pub mod prompt;
pub mod skin_picker;
pub mod status;
pub mod tracks;

use crate::inspect::TimelineInfo;
use crate::session::Session;
use crate::tui::theme::Theme;
use ratatui::crossterm::event::KeyEvent;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, BorderType, Borders};

/// The five panels, in `tab` order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PanelId {
    Tracks,
    Curves,
    Bones,
    Events,
    Preview,
}

impl PanelId {
    /// Every panel in focus order.
    pub const ALL: [PanelId; 5] = [
        PanelId::Tracks,
        PanelId::Curves,
        PanelId::Bones,
        PanelId::Events,
        PanelId::Preview,
    ];

    /// The panel's title (tests and users find panels by it).
    pub fn title(self) -> &'static str {
        match self {
            PanelId::Tracks => "Tracks",
            PanelId::Curves => "Curves",
            PanelId::Bones => "Bones",
            PanelId::Events => "Events",
            PanelId::Preview => "Preview",
        }
    }
}

/// What the user has selected; kept by names where it must survive reloads (the app maps).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The animation shown in the dopesheet and curves (index into the skeleton data).
    pub animation: Option<usize>,
    /// The selected timeline of that animation (index into its timelines).
    pub timeline: Option<usize>,
    /// The selected bone.
    pub bone: Option<usize>,
}

/// Which point marker plots and the preview draw with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    Braille,
    HalfBlock,
    Ascii,
}

impl MarkerKind {
    /// The ratatui marker.
    pub fn marker(self) -> ratatui::symbols::Marker {
        match self {
            MarkerKind::Braille => ratatui::symbols::Marker::Braille,
            MarkerKind::HalfBlock => ratatui::symbols::Marker::HalfBlock,
            MarkerKind::Ascii => ratatui::symbols::Marker::Custom('*'),
        }
    }

    /// Its name as the `--marker` option spells it.
    pub fn name(self) -> &'static str {
        match self {
            MarkerKind::Braille => "braille",
            MarkerKind::HalfBlock => "halfblock",
            MarkerKind::Ascii => "ascii",
        }
    }
}

/// Everything a panel may read while rendering or handling a key.
pub struct ViewCtx<'a> {
    pub session: &'a Session,
    pub selection: &'a Selection,
    /// Descriptions of the selected animation's timelines (same order as its timelines).
    pub timelines: &'a [TimelineInfo],
    pub theme: &'a Theme,
    pub marker: MarkerKind,
    /// Whether this panel has the keyboard focus.
    pub focused: bool,
    /// The time within the selected animation at the playhead (seconds), if it is playing on
    /// some track; else the session time.
    pub playhead: f64,
}

/// What a panel asks the app to do after a key.
#[derive(Clone, Debug, PartialEq)]
pub enum PanelAction {
    /// The key is not for this panel: the app handles it globally.
    Ignored,
    /// Handled; the panel's view state changed (redraw).
    Handled,
    /// Select a timeline of the selected animation (also selects its bone, if any).
    SelectTimeline(usize),
    /// Select a bone.
    SelectBone(usize),
    /// Show a message in the status bar.
    Message(String),
    /// Move the session to this frame (the event log's Enter).
    SeekFrame(u64),
}

/// A bordered block titled with the panel's name (plus an optional suffix).
pub fn panel_block<'a>(id: PanelId, suffix: &str, ctx: &ViewCtx<'_>) -> Block<'a> {
    let title = if suffix.is_empty() {
        format!(" {} ", id.title())
    } else {
        format!(" {} {} ", id.title(), suffix)
    };
    Block::default()
        .borders(Borders::ALL)
        .border_type(if ctx.focused {
            BorderType::Thick
        } else {
            BorderType::Plain
        })
        .border_style(ctx.theme.border(ctx.focused))
        .title(Span::styled(title, ctx.theme.title(ctx.focused)))
}

/// The style for a list row: reversed when selected.
pub fn row_style(ctx: &ViewCtx<'_>, selected: bool) -> Style {
    if selected {
        ctx.theme.selected()
    } else {
        ctx.theme.text()
    }
}

/// Common shape of the five panels.
pub trait Panel {
    /// Draws the panel into `area` (including its border).
    fn render(
        &mut self,
        frame: &mut ratatui::Frame<'_>,
        area: ratatui::layout::Rect,
        ctx: &ViewCtx<'_>,
    );
    /// Handles a key while focused.
    fn handle_key(&mut self, key: KeyEvent, ctx: &ViewCtx<'_>) -> PanelAction;
}
