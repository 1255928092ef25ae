//! Rendering off-screen: one panel or the whole app into a ratatui `TestBackend` buffer, as
//! text. Snapshot tests and the render benchmark use it; so can a headless `render` command.

use crate::inspect::TimelineInfo;
use crate::session::Session;
use crate::tui::app::App;
use crate::tui::theme::{ColorMode, Theme};
use crate::tui::views::{MarkerKind, Panel, Selection, ViewCtx};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

/// The text of a buffer, one line per row (trailing spaces kept, so widths are visible).
pub fn buffer_text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut skip = 0;
        for x in 0..area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let cell = &buf[(x, y)];
            let sym = cell.symbol();
            out.push_str(sym);
            skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
        }
        out.push('\n');
    }
    out
}

/// Everything a panel needs besides itself, for off-screen rendering.
pub struct PanelScene<'a> {
    pub session: &'a Session,
    pub selection: &'a Selection,
    pub timelines: &'a [TimelineInfo],
    pub playhead: f64,
    pub playing: bool,
    pub focused: bool,
    pub marker: MarkerKind,
}

impl<'a> PanelScene<'a> {
    /// The scene a panel of `app` sees (focused).
    pub fn of(app: &'a App) -> PanelScene<'a> {
        PanelScene {
            session: &app.session,
            selection: &app.selection,
            timelines: &app.timelines,
            playhead: app.playhead(),
            playing: app.playing,
            focused: true,
            marker: app.marker,
        }
    }

    /// The view context of this scene drawn with `theme`.
    fn ctx<'t>(&self, theme: &'t Theme) -> ViewCtx<'t>
    where
        'a: 't,
    {
        ViewCtx {
            session: self.session,
            selection: self.selection,
            timelines: self.timelines,
            theme,
            marker: self.marker,
            focused: self.focused,
            playhead: self.playhead,
            playing: self.playing,
        }
    }
}

/// Sends `key` to `panel` with `app`'s state, as the app does when the panel is focused.
pub fn send_key(
    panel: &mut dyn Panel,
    app: &App,
    key: ratatui::crossterm::event::KeyEvent,
) -> crate::tui::views::PanelAction {
    let theme = Theme::new(ColorMode::None);
    let ctx = PanelScene::of(app).ctx(&theme);
    panel.handle_key(key, &ctx)
}

/// Renders `panel` filling a `width` x `height` buffer (no color).
pub fn render_panel(
    panel: &mut dyn Panel,
    scene: &PanelScene<'_>,
    width: u16,
    height: u16,
) -> Buffer {
    let theme = Theme::new(ColorMode::None);
    let ctx = scene.ctx(&theme);
    let mut term = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    term.draw(|f| panel.render(f, f.area(), &ctx))
        .expect("draw");
    term.backend().buffer().clone()
}

/// Renders the preview's picture alone (no border, title or footer) into a `width` x
/// `height` buffer (no color): `render`'s text output.
pub fn render_preview_bare(
    view: &mut crate::tui::views::preview::PreviewView,
    scene: &PanelScene<'_>,
    width: u16,
    height: u16,
) -> Buffer {
    let theme = Theme::new(ColorMode::None);
    let ctx = scene.ctx(&theme);
    let mut term = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    term.draw(|f| view.render_bare(f, f.area(), &ctx))
        .expect("draw");
    term.backend().buffer().clone()
}

/// Renders the whole app into a `width` x `height` buffer.
pub fn render_app(app: &mut App, width: u16, height: u16) -> Buffer {
    let mut term = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    term.draw(|f| crate::tui::render::draw(f, app))
        .expect("draw");
    term.backend().buffer().clone()
}

/// An app on the built-in sample, paused, with animation `animation` selected and playing
/// on track 0, at `time` seconds; colorless. For tests and benchmarks.
pub fn sample_app(animation: &str, time: f64) -> App {
    let data = crate::format::load(crate::tui::EMBEDDED_SAMPLE, "lantern-keeper")
        .expect("built-in sample loads");
    let doc = crate::tui::app::Document {
        label: "lantern-keeper.json".into(),
        data: std::sync::Arc::new(data),
    };
    let mut app = App::new(doc, Theme::new(ColorMode::None), MarkerKind::Braille).expect("app");
    if let Some(i) = app.doc.data.find_animation(animation) {
        app.play_animation(i);
    }
    app.session.seek_time(time);
    app
}

/// An app on a file's bytes (any format [`crate::format::load_all`] reads, every skeleton of
/// it), opened as the viewer opens it (main armature, the opening animation and skins of
/// [`crate::session::opening`]), paused at `time` seconds; colorless. For tests.
pub fn file_app(bytes: &[u8], label: &str, time: f64) -> Result<App, String> {
    file_app_with(bytes, label, time, None, None)
}

/// [`file_app`] with the viewer's `--animation` / `--skin` choices.
pub fn file_app_with(
    bytes: &[u8],
    label: &str,
    time: f64,
    animation: Option<&str>,
    skins: Option<&[String]>,
) -> Result<App, String> {
    let all = crate::format::load_all(bytes, label).map_err(|e| e.to_string())?;
    let armatures = all.into_iter().map(std::sync::Arc::new).collect();
    let mut app = App::open(
        label.into(),
        armatures,
        Theme::new(ColorMode::None),
        MarkerKind::Braille,
    )?;
    // The viewer's own opening choice, so a test sees what a user who opens the file sees.
    crate::tui::default_choice::start(&mut app, animation, skins)?;
    app.session.seek_time(time);
    Ok(app)
}

/// A `Write` sink that only counts bytes (for measuring what a real terminal would receive).
#[derive(Clone, Debug, Default)]
pub struct CountingSink {
    count: std::rc::Rc<std::cell::Cell<u64>>,
}

impl CountingSink {
    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.count.get()
    }

    /// Resets the count to zero.
    pub fn reset(&self) {
        self.count.set(0);
    }
}

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.count.set(self.count.get() + buf.len() as u64);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A terminal of a fixed size drawing through the viewer's own backend into a byte counter
/// (colourless, UTF-8).
pub fn counting_terminal(
    width: u16,
    height: u16,
) -> (
    Terminal<crate::tui::backend::LeanBackend<CountingSink>>,
    CountingSink,
) {
    counting_terminal_for(width, height, ColorMode::None, false)
}

/// [`counting_terminal`] for a colour mode, and ASCII or not.
pub fn counting_terminal_for(
    width: u16,
    height: u16,
    color: ColorMode,
    ascii: bool,
) -> (
    Terminal<crate::tui::backend::LeanBackend<CountingSink>>,
    CountingSink,
) {
    let sink = CountingSink::default();
    (
        lean_terminal(sink.clone(), width, height, color, ascii),
        sink,
    )
}

/// A `Write` sink keeping every byte (for inspecting what a real terminal would receive).
#[derive(Clone, Debug, Default)]
pub struct RecordingSink {
    bytes: std::rc::Rc<std::cell::RefCell<Vec<u8>>>,
}

impl RecordingSink {
    /// Takes the bytes written so far.
    pub fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.bytes.borrow_mut())
    }
}

impl std::io::Write for RecordingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A terminal of a fixed size drawing through the viewer's own backend into a byte recorder.
pub fn recording_terminal(
    width: u16,
    height: u16,
    color: ColorMode,
    ascii: bool,
) -> (
    Terminal<crate::tui::backend::LeanBackend<RecordingSink>>,
    RecordingSink,
) {
    let sink = RecordingSink::default();
    (
        lean_terminal(sink.clone(), width, height, color, ascii),
        sink,
    )
}

/// A fixed-size terminal drawing through the viewer's own backend into `sink`.
fn lean_terminal<W: std::io::Write>(
    sink: W,
    width: u16,
    height: u16,
    color: ColorMode,
    ascii: bool,
) -> Terminal<crate::tui::backend::LeanBackend<W>> {
    let backend = crate::tui::backend::LeanBackend::with_size(sink, width, height, color, ascii);
    let mut term = Terminal::with_options(
        backend,
        ratatui::TerminalOptions {
            viewport: ratatui::Viewport::Fixed(ratatui::layout::Rect::new(0, 0, width, height)),
        },
    )
    .expect("terminal");
    // As the viewer does: erase once, so every cell is known from the start (through the
    // backend: `Terminal::clear` of a fixed viewport erases row by row, which the backend
    // does not track).
    ratatui::backend::Backend::clear(term.backend_mut()).expect("clear");
    term
}
