//! The application model: what is loaded, the playback session, selection, focus and
//! overlays. Keys come in through [`App::handle_key`], time through [`App::tick`]; both
//! return whether anything visible changed, so the loop redraws only then.

use crate::core::model::SkeletonData;
use crate::inspect::{self, Target, TimelineInfo};
use crate::session::language::ViewerCommand;
use crate::session::{Command, Input, Session};
use crate::tui::keymap::{Action, global_action};
use crate::tui::theme::Theme;
use crate::tui::views::bones::BonesView;
use crate::tui::views::curves::CurvesView;
use crate::tui::views::events::EventsView;
use crate::tui::views::message_log::{Kind, LogView, MessageLog};
use crate::tui::views::picker::{Picker, PickerOutcome};
use crate::tui::views::preview::PreviewView;
use crate::tui::views::prompt::{Prompt, PromptOutcome};
use crate::tui::views::skin_picker::{SkinPicker, SkinPickerOutcome};
use crate::tui::views::tracks::TracksView;
use crate::tui::views::{MarkerKind, Panel, PanelAction, PanelId, Selection, ViewCtx};
use ratatui::crossterm::event::KeyEvent;
use std::sync::Arc;

/// A loaded file.
#[derive(Clone)]
pub struct Document {
    /// What the status bar calls it (file name, or "embedded sample").
    pub label: String,
    pub data: Arc<SkeletonData>,
}

/// An overlay drawn above the panels; it takes the keyboard while open.
pub enum Overlay {
    None,
    Help { scroll: u16 },
    AnimationPicker(Picker),
    SkinPicker(SkinPicker),
    ArmaturePicker(Picker),
    Prompt(Prompt),
    MessageLog(LogView),
}

/// Playback speeds `+`/`-` step through.
pub const SPEEDS: [f64; 8] = [0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0];

/// The panels' view states.
pub struct Panels {
    pub tracks: TracksView,
    pub curves: CurvesView,
    pub bones: BonesView,
    pub events: EventsView,
    pub preview: PreviewView,
}

impl Panels {
    /// The panel behind an id.
    pub fn get(&mut self, id: PanelId) -> &mut dyn Panel {
        match id {
            PanelId::Tracks => &mut self.tracks,
            PanelId::Curves => &mut self.curves,
            PanelId::Bones => &mut self.bones,
            PanelId::Events => &mut self.events,
            PanelId::Preview => &mut self.preview,
        }
    }
}

/// While playing, the text of the Bones, Curves and Tracks readouts refreshes at most once
/// per this many seconds of real time (the preview and the playheads every frame); paused,
/// at once.
pub const READOUT_PERIOD: f64 = 0.1;

/// The whole application state.
pub struct App {
    pub doc: Document,
    /// Every skeleton of the file (`doc.data` is one of them): DragonBones files hold several
    /// armatures, the other formats one.
    pub armatures: Vec<Arc<SkeletonData>>,
    pub session: Session,
    pub selection: Selection,
    /// Descriptions of the selected animation's timelines.
    pub timelines: Vec<TimelineInfo>,
    pub focus: PanelId,
    /// The panel shown beside the preview when the terminal is small.
    pub inspector: PanelId,
    pub playing: bool,
    pub speed: f64,
    pub looping: bool,
    /// Simulation time owed to playback but not yet stepped (seconds).
    play_debt: f64,
    /// Real seconds of playback since the readouts were last drawn exact.
    readout_age: f64,
    /// Input arrived since the last frame: the next one draws the readouts exact.
    readouts_stale: bool,
    pub marker: MarkerKind,
    pub theme: Theme,
    pub overlay: Overlay,
    /// A status message and whether it is an error.
    pub message: Option<(String, bool)>,
    pub panels: Panels,
    pub quit: bool,
    /// A reload error shown above everything until the next good load.
    pub banner: Option<String>,
    /// Where each panel was drawn last (for mouse clicks).
    pub areas: Vec<(PanelId, ratatui::layout::Rect)>,
    /// The track whose playing entry the status line, dopesheet and curves follow.
    pub track: usize,
    /// The dopesheet and curves keep showing the selected animation (no following).
    pub pinned: bool,
    /// The loop range's in and out frames: playback wraps from out back to in.
    pub range: (Option<u64>, Option<u64>),
    /// The newest frame played or stepped to (`.` goes back to it after time travel).
    pub newest: u64,
    /// The watched file (`:save` never writes over it).
    pub source: Option<std::path::PathBuf>,
    /// Whether `:save` may write files (the viewer); scripts run headless by the `session`
    /// command print their report instead and never write.
    pub may_write: bool,
    /// While true (the event loop handling a batch of queued input), frame moves only
    /// set `pending_frame`; [`App::flush_seek`] replays once for the whole batch.
    pub defer_seeks: bool,
    pending_frame: Option<u64>,
    /// The file being waited for (it did not exist yet when the viewer opened).
    pub waiting: Option<String>,
    /// Maximised panel and split sizes (kept for the whole session).
    pub layout: crate::tui::panels::PanelLayout,
    /// `/` search over bones and timelines.
    pub search: crate::tui::search::Search,
    /// What a mouse button press started (a dopesheet drag scrubs).
    pub mouse: crate::tui::mouse::MouseState,
    /// Every message shown (status notes, errors, loader warnings, reload errors), whole.
    pub messages: MessageLog,
    /// Prompt lines run, for Up/Down.
    pub history: crate::tui::prompt::history::History,
    /// Attached to a game (`bonescope attach`): its stream drives the session.
    pub live: Option<Box<crate::tui::live::Live>>,
}

/// `"loader warning: <first> (+N more ...)"` when the loader tolerated oddities in the file
/// (sanitized). The warning comes first: a narrow status bar cuts the end.
pub fn warnings_note(data: &SkeletonData) -> Option<String> {
    // An export the official runtimes refuse (Spine 3.8.75) matters more than any oddity.
    let (format, version) = (&data.source.format, &data.source.version);
    if let Some(why) = crate::lint::versions::runtime_refusal(format, version) {
        return Some(format!("warning: {why}"));
    }
    let first = crate::text::sanitize(data.load_warnings.first()?);
    Some(match data.load_warnings.len() {
        1 => format!("loader warning: {first}"),
        n => format!(
            "loader warning: {first} (+{} more; `bonescope poses FILE` lists all)",
            n - 1
        ),
    })
}

/// The skins a file opens with (the viewer, `render`, `session`, `diff`):
/// [`crate::view_defaults::default_skins`].
pub fn initial_skins(data: &SkeletonData) -> Vec<String> {
    crate::view_defaults::default_skins(data)
}

/// The status line's word on a failed reload: short enough for 80 columns beside the time;
/// the banner carries the located error and `m` the whole message.
pub(crate) const RELOAD_FAILED_NOTE: &str = "reload failed (m: details)";

impl App {
    /// Opens `doc` paused at time 0 with its first animation looping on track 0.
    /// An app on a file's skeletons, called `label`: the main one
    /// ([`crate::view_defaults::main_armature`]) is shown, the others are behind the armature
    /// picker.
    pub fn open(
        label: String,
        armatures: Vec<Arc<SkeletonData>>,
        theme: Theme,
        marker: MarkerKind,
    ) -> Result<App, String> {
        let data = armatures
            .get(crate::view_defaults::main_armature(&armatures))
            .cloned()
            .ok_or("the file holds no skeleton")?;
        let mut app = App::new(Document { label, data }, theme, marker)?;
        app.armatures = armatures;
        Ok(app)
    }

    pub fn new(doc: Document, theme: Theme, marker: MarkerKind) -> Result<App, String> {
        let session =
            Session::new(doc.data.clone(), initial_skins(&doc.data)).map_err(|e| e.to_string())?;
        let mut app = App {
            armatures: vec![doc.data.clone()],
            doc,
            session,
            selection: Selection::default(),
            timelines: Vec::new(),
            focus: PanelId::Tracks,
            inspector: PanelId::Tracks,
            playing: false,
            speed: 1.0,
            looping: true,
            play_debt: 0.0,
            readout_age: 0.0,
            readouts_stale: true,
            marker,
            theme,
            overlay: Overlay::None,
            message: None,
            panels: Panels {
                tracks: TracksView::default(),
                curves: CurvesView::default(),
                bones: BonesView::default(),
                events: EventsView::default(),
                preview: PreviewView::default(),
            },
            quit: false,
            banner: None,
            areas: Vec::new(),
            track: 0,
            pinned: false,
            range: (None, None),
            newest: 0,
            source: None,
            may_write: true,
            defer_seeks: false,
            pending_frame: None,
            waiting: None,
            layout: Default::default(),
            search: Default::default(),
            mouse: Default::default(),
            messages: MessageLog::default(),
            history: Default::default(),
            live: None,
        };
        if !app.doc.data.animations.is_empty() {
            app.play_animation(0);
        }
        app.log_warnings();
        if let Some(w) = warnings_note(&app.doc.data) {
            app.message = Some((w, false));
        }
        Ok(app)
    }

    /// A context for rendering or key handling by panel `id`.
    pub fn ctx(&self, id: PanelId) -> ViewCtx<'_> {
        ViewCtx {
            session: &self.session,
            selection: &self.selection,
            timelines: &self.timelines,
            theme: &self.theme,
            marker: self.marker,
            focused: self.focus == id && matches!(self.overlay, Overlay::None),
            playhead: self.playhead(),
            playing: self.playing,
        }
    }

    /// The time within the selected animation: from the first track playing it, else the
    /// session time.
    pub fn playhead(&self) -> f64 {
        let st = self.session.state();
        if let Some(a) = self.selection.animation {
            // The followed track first, then the others; current entries first, then
            // entries still mixing out beneath them.
            let others = (0..st.tracks.len()).filter(|&t| t != self.track);
            for t in std::iter::once(self.track).chain(others) {
                let mut id = st.current(t);
                while let Some(e) = id.and_then(|i| st.entry(i)) {
                    if e.animation == Some(a) {
                        return e.animation_time();
                    }
                    id = e.mixing_from;
                }
            }
        }
        self.session.time()
    }

    /// Selects animation `index` and restarts the session with it on track 0 at time 0.
    pub fn play_animation(&mut self, index: usize) {
        // A file that says how often an animation plays sets looping (`l` still toggles).
        if let Some(n) = self
            .doc
            .data
            .animations
            .get(index)
            .and_then(|a| a.play_times)
        {
            self.looping = n != 1;
        }
        self.select_animation(Some(index));
        let cmd = Command::SetAnimation {
            track: 0,
            animation: index,
            looping: self.looping,
        };
        if let Err(e) = self.session.restart_with(vec![cmd]) {
            self.error(e.to_string());
        }
        self.play_debt = 0.0;
        self.newest = self.session.frame();
    }

    /// The animation picker's choice: animation `index` replaces track 0 at the current
    /// frame, a recorded `set` command like `:set 0 NAME`, so the other tracks, the queue,
    /// the event log and time travel stay. The view follows track 0.
    pub fn pick_animation(&mut self, index: usize) {
        self.flush_seek();
        let looping = match self.doc.data.animations.get(index) {
            Some(a) => a.play_times.map_or(self.looping, |n| n != 1),
            None => return,
        };
        self.looping = looping;
        let cmd = Command::SetAnimation {
            track: 0,
            animation: index,
            looping,
        };
        match crate::session::playhead::record(&mut self.session, cmd) {
            Ok(text) => {
                self.track = 0;
                self.pinned = false;
                self.follow_playing();
                self.note(text);
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Shows animation `index` in the dopesheet and curves (does not change playback).
    pub fn select_animation(&mut self, index: Option<usize>) {
        self.selection.animation = index;
        self.timelines = index
            .and_then(|i| self.doc.data.animations.get(i))
            .map(|a| inspect::describe(&self.doc.data, a))
            .unwrap_or_default();
        self.selection.timeline = if self.timelines.is_empty() {
            None
        } else {
            Some(0)
        };
        self.follow_timeline_bone();
    }

    fn follow_timeline_bone(&mut self) {
        if let Some(info) = self.selection.timeline.and_then(|t| self.timelines.get(t))
            && let Target::Bone(b) = info.target
        {
            self.selection.bone = Some(b);
        }
    }

    /// Shows an error in the status bar (and keeps it whole in the message log).
    pub fn error(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        self.messages.push(Kind::Error, &msg, self.session.frame());
        self.message = Some((msg, true));
    }

    /// Shows a note in the status bar (and keeps it whole in the message log).
    pub fn note(&mut self, msg: impl Into<String>) {
        let msg = msg.into();
        self.messages.push(Kind::Note, &msg, self.session.frame());
        self.message = Some((msg, false));
    }

    /// Puts every loader warning of the shown skeleton in the message log.
    fn log_warnings(&mut self) {
        let frame = self.session.frame();
        for w in &self.doc.data.load_warnings {
            self.messages.push(Kind::Warning, w, frame);
        }
    }

    /// Shows skeleton `i` of the file: a fresh session on it (the animation and skins the
    /// viewer would open it on, looping as that animation says), keeping the speed, the panel
    /// in focus, the message log and the prompt history.
    pub fn switch_armature(&mut self, i: usize) {
        let Some(data) = self.armatures.get(i).cloned() else {
            return;
        };
        if Arc::ptr_eq(&data, &self.doc.data) {
            return;
        }
        let doc = Document {
            label: self.doc.label.clone(),
            data,
        };
        match App::new(doc, self.theme.clone(), self.marker) {
            Ok(mut fresh) => {
                fresh.armatures = std::mem::take(&mut self.armatures);
                fresh.speed = self.speed;
                fresh.focus = self.focus;
                fresh.inspector = self.inspector;
                fresh.banner = self.banner.take();
                fresh.layout = self.layout.clone();
                fresh.history = std::mem::take(&mut self.history);
                let mut log = std::mem::take(&mut self.messages);
                for e in fresh.messages.entries() {
                    log.push(e.kind, &e.text, e.frame);
                }
                fresh.messages = log;
                // The other skeleton opens on its own sensible animation and skins too.
                if let Err(e) = crate::tui::default_choice::start(&mut fresh, None, None) {
                    fresh.error(e);
                }
                let name = crate::text::sanitize(&fresh.doc.data.name).into_owned();
                fresh.note(format!("armature {name}"));
                *self = fresh;
            }
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Replaces the model with a reloaded one, keeping the user's place: animation, time,
    /// play state, speed, every track's entries (commands replayed by animation name),
    /// selected timeline and bone (by name). Says what changed and what could not be kept.
    pub fn reload(&mut self, data: Arc<SkeletonData>, diff: &crate::diff::ModelDiff) {
        self.refresh_readouts();
        self.flush_seek();
        let summary = diff.summary();
        let old = self.doc.data.clone();
        let rename = |n: &str| diff.animation_name_in_new(n).to_string();
        let anim_name = self
            .selection
            .animation
            .and_then(|a| old.animations.get(a))
            .map(|a| rename(&a.name));
        let timeline_label = self
            .selection
            .timeline
            .and_then(|t| self.timelines.get(t))
            .map(|t| t.label());
        let bone_name = self
            .selection
            .bone
            .and_then(|b| old.bones.get(b))
            .map(|b| b.name.clone());
        let crate::session::Reloaded {
            session,
            mut lost,
            restored,
            skin_lost,
        } = match self
            .session
            .reloaded(data.clone(), &rename, &format!("reload: {summary}"))
        {
            Ok(r) => r,
            Err(e) => {
                self.show_banner(format!("reload failed: {e}"));
                return;
            }
        };
        if skin_lost {
            lost.push("skin".into());
        }
        self.doc.data = data.clone();
        self.session = session;
        // Selection by name; fall back to what track 0 plays, then the first animation.
        let anim = anim_name.as_deref().and_then(|n| data.find_animation(n));
        if anim.is_none() && anim_name.is_some() {
            lost.push(format!(
                "animation '{}'",
                crate::text::sanitize(anim_name.as_deref().unwrap_or(""))
            ));
        }
        let fallback = || {
            let st = self.session.state();
            st.current(0)
                .and_then(|id| st.entry(id))
                .and_then(|e| e.animation)
                .or((!data.animations.is_empty()).then_some(0))
        };
        let anim = anim.or_else(fallback);
        self.select_animation(anim);
        if let Some(label) = timeline_label
            && let Some(i) = self.timelines.iter().position(|t| t.label() == label)
        {
            self.selection.timeline = Some(i);
        }
        self.selection.bone = bone_name
            .as_deref()
            .and_then(|n| data.find_bone(n))
            .or(self.selection.bone.filter(|&b| b < data.bones.len()));
        self.banner = None;
        self.follow_playing();
        let mut note = format!("reloaded: {summary}");
        if !restored.is_empty() {
            note.push_str(&format!("; back: {}", restored.join(", ")));
        }
        if !lost.is_empty() {
            note.push_str(&format!("; no longer there: {}", lost.join(", ")));
        }
        if let Some(w) = warnings_note(&data) {
            note.push_str("; ");
            note.push_str(&w);
        }
        self.note(note);
        // Warnings already logged for the previous version are not repeated.
        if old.load_warnings != data.load_warnings {
            self.log_warnings();
        }
    }

    /// Shows a reload failure while keeping the last good model on screen.
    pub fn reload_failed(&mut self, error: &str) {
        self.show_banner(format!(
            "{}: {error} (showing the last good version)",
            crate::text::sanitize(&self.doc.label)
        ));
    }

    /// Raises the error banner: logged whole, and the status line no longer shows a note
    /// (a stale `reloaded: ...`) that the banner contradicts.
    fn show_banner(&mut self, text: String) {
        self.messages
            .push(Kind::Banner, &text, self.session.frame());
        self.banner = Some(text);
        self.message = Some((RELOAD_FAILED_NOTE.into(), true));
    }

    /// Handles a key press. Returns true when something visible changed.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        self.refresh_readouts();
        // A note (not an error) has been seen once the user acts: it gives its room back to
        // the time and duration (the message log keeps it).
        let had_note = matches!(self.message, Some((_, false)));
        if had_note {
            self.message = None;
        }
        self.handle_key_inner(key) || had_note
    }

    fn handle_key_inner(&mut self, key: KeyEvent) -> bool {
        if self.search.typing() {
            return self.search_key(key);
        }
        if let Some(changed) = crate::tui::live::key(self, key) {
            return changed;
        }
        let deferred_step = self.defer_seeks
            && matches!(self.overlay, Overlay::None)
            && matches!(global_action(key), Some(Action::StepFrames(_)));
        if !deferred_step {
            self.flush_seek();
        }
        let changed = self.handle_key_now(key);
        crate::tui::live::after_key(self);
        self.follow_playing();
        self.newest = self.newest.max(self.target_frame());
        changed
    }

    /// Runs a frame move deferred while handling a batch of input (one replay for all).
    pub fn flush_seek(&mut self) {
        if let Some(f) = self.pending_frame.take() {
            self.session.seek_frame(f);
            self.follow_playing();
        }
    }

    /// The frame the session is at, or will be once a deferred move runs.
    pub(crate) fn target_frame(&self) -> u64 {
        self.pending_frame.unwrap_or_else(|| self.session.frame())
    }

    /// Moves to frame `f` (deferred while `defer_seeks`).
    pub(crate) fn go_to_frame(&mut self, f: u64) {
        if self.defer_seeks {
            self.pending_frame = Some(f.min(crate::session::MAX_FRAMES));
        } else {
            self.session.seek_frame(f);
        }
    }

    /// Shows the entry playing on the followed track (its animation) in the dopesheet and
    /// curves, unless pinned; keeps the selected timeline when the new animation has one
    /// with the same label.
    pub fn follow_playing(&mut self) {
        if self.pinned {
            return;
        }
        let st = self.session.state();
        let Some(anim) = st
            .current(self.track)
            .and_then(|id| st.entry(id))
            .and_then(|e| e.animation)
        else {
            return;
        };
        if self.selection.animation == Some(anim) {
            return;
        }
        let label = self
            .selection
            .timeline
            .and_then(|t| self.timelines.get(t))
            .map(|t| t.label());
        self.select_animation(Some(anim));
        if let Some(label) = label
            && let Some(i) = self.timelines.iter().position(|t| t.label() == label)
        {
            self.selection.timeline = Some(i);
            self.follow_timeline_bone();
        }
    }

    fn handle_key_now(&mut self, key: KeyEvent) -> bool {
        match std::mem::replace(&mut self.overlay, Overlay::None) {
            Overlay::None => {}
            Overlay::Help { scroll } => {
                self.overlay = crate::tui::views::help::handle_key(key, scroll);
                return true;
            }
            Overlay::AnimationPicker(mut p) => {
                match p.handle_key(key) {
                    PickerOutcome::Open => self.overlay = Overlay::AnimationPicker(p),
                    PickerOutcome::Cancel => {}
                    PickerOutcome::Chosen(i) => self.pick_animation(i),
                }
                return true;
            }
            Overlay::ArmaturePicker(mut p) => {
                match p.handle_key(key) {
                    PickerOutcome::Open => self.overlay = Overlay::ArmaturePicker(p),
                    PickerOutcome::Cancel => {}
                    PickerOutcome::Chosen(i) => self.switch_armature(i),
                }
                return true;
            }
            Overlay::SkinPicker(mut p) => {
                match p.handle_key(key) {
                    SkinPickerOutcome::Open => self.overlay = Overlay::SkinPicker(p),
                    SkinPickerOutcome::Cancel => {}
                    SkinPickerOutcome::Apply(skins) => match self.set_skins(skins) {
                        Ok(text) => self.note(text),
                        Err(e) => self.error(e),
                    },
                }
                return true;
            }
            Overlay::Prompt(mut p) => {
                let data = self.doc.data.clone();
                match p.handle_key(key, &data) {
                    PromptOutcome::Open => self.overlay = Overlay::Prompt(p),
                    PromptOutcome::Cancel => {}
                    PromptOutcome::Submit(line) => {
                        self.history.push(&line);
                        self.run_prompt(&line)
                    }
                }
                return true;
            }
            Overlay::MessageLog(v) => {
                if let Some(v) = v.handle_key(key) {
                    self.overlay = Overlay::MessageLog(v);
                }
                return true;
            }
        }
        let focus = self.focus;
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
        let action = self.panels.get(focus).handle_key(key, &ctx);
        match action {
            PanelAction::Handled => true,
            PanelAction::SelectTimeline(t) => {
                self.selection.timeline = Some(t);
                self.follow_timeline_bone();
                true
            }
            PanelAction::SelectBone(b) => {
                self.select_bone(b);
                true
            }
            PanelAction::SeekFrame(f) => {
                self.playing = false;
                self.session.seek_frame(f);
                self.note(format!("frame {f}"));
                true
            }
            PanelAction::Message(m) => {
                self.note(m);
                true
            }
            PanelAction::Ignored => match global_action(key) {
                Some(a) => self.apply(a),
                None => false,
            },
        }
    }

    fn run_prompt(&mut self, line: &str) {
        match self.run_line(line) {
            Ok(text) => self.note(text),
            Err(e) => self.error(e),
        }
    }

    /// Runs one prompt line (a viewer verb or an animation command); returns what it did.
    /// The `session` command runs scripts through this too.
    pub fn run_line(&mut self, line: &str) -> Result<String, String> {
        use crate::session::playhead::{self, Outcome};
        // Attached to a game, its calls are the session's inputs: no line rewrites them.
        crate::tui::live::check_line(self, line)?;
        self.flush_seek();
        let result = match playhead::run_line(&mut self.session, &mut self.range, line) {
            Ok(Outcome::Recorded(text) | Outcome::Said(text)) => Ok(text),
            Ok(Outcome::Moved(text)) => {
                self.playing = false;
                Ok(text)
            }
            Ok(Outcome::View(verb)) => self.run_view_verb(verb),
            Err(e) => Err(e.to_string()),
        };
        self.follow_playing();
        result
    }

    /// The verbs about what the viewer shows: the followed track, pinning, the selected bone,
    /// saving the event log.
    fn run_view_verb(&mut self, cmd: ViewerCommand) -> Result<String, String> {
        match cmd {
            ViewerCommand::Track(t) => {
                self.track = t;
                self.pinned = false;
                self.follow_playing();
                Ok(format!("following track {t}"))
            }
            ViewerCommand::Pin(name) => {
                if let Some(n) = name {
                    let a =
                        self.doc.data.find_animation(&n).ok_or_else(|| {
                            format!("no animation \"{}\"", crate::text::sanitize(&n))
                        })?;
                    self.select_animation(Some(a));
                }
                self.pinned = true;
                Ok("pinned (unpin follows the playing entry again)".into())
            }
            ViewerCommand::Unpin => {
                self.pinned = false;
                self.follow_playing();
                Ok(format!("following track {}", self.track))
            }
            ViewerCommand::Save(path) => self.save_log(&path, false),
            ViewerCommand::SaveOver(path) => self.save_log(&path, true),
            ViewerCommand::Bone(name) => {
                let b = self
                    .doc
                    .data
                    .find_bone(&name)
                    .ok_or_else(|| format!("no bone \"{}\"", crate::text::sanitize(&name)))?;
                self.selection.bone = Some(b);
                Ok(format!("bone {}", crate::text::sanitize(&name)))
            }
            // The session ran the others (playhead, loop range, skins).
            _ => Err("the session runs this verb, not the view".into()),
        }
    }

    /// `p` / `R`: records the next physics mode, or a reset, as a session input.
    fn physics_key(&mut self, action: Action) {
        use crate::core::skeleton::Physics;
        self.flush_seek();
        if self.doc.data.physics_constraints.is_empty() {
            self.note("this skeleton has no physics constraints");
            return;
        }
        let cmd = if action == Action::ResetPhysics {
            Command::ResetPhysics
        } else {
            let mode = match self.session.physics() {
                Physics::Update => Physics::Pose,
                Physics::Pose => Physics::None,
                Physics::None | Physics::Reset => Physics::Update,
            };
            Command::PhysicsMode { mode }
        };
        let text = cmd.describe(&self.doc.data);
        match self.session.push(cmd) {
            Ok(()) => self.note(format!("at {:.3} s: {text}", self.session.time())),
            Err(e) => self.error(e.to_string()),
        }
    }

    /// Combines `names` (checked; `default` alone: the default skin only) and says which.
    pub fn set_skins(&mut self, names: Vec<String>) -> Result<String, String> {
        let skins = crate::view_defaults::skins_by_name(&self.doc.data, &names)
            .map_err(|e| e.to_string())?;
        self.session.set_skins(skins).map_err(|e| e.to_string())?;
        Ok(crate::session::playhead::skins_text(&self.session))
    }

    /// Writes the event log as the Events panel shows it (its filters) to `path`: NDJSON
    /// when the name ends in `.ndjson` or `.json`, else text. Never the watched file (under
    /// any name), an existing file only when `overwrite` (`save!`), never a FIFO or device
    /// (which could block the viewer or reach the terminal).
    fn save_log(&mut self, path: &std::path::Path, overwrite: bool) -> Result<String, String> {
        use crate::output_file::{OutputError, OutputOptions, check_output, write_output};
        let shown = crate::text::sanitize(&path.display().to_string()).into_owned();
        if !self.may_write {
            return Err("save writes a file; the session command prints its report instead".into());
        }
        let opts = OutputOptions {
            protect: self.source.as_deref(),
            overwrite,
            special_in_place: false,
        };
        let refused = |e: OutputError| match e {
            OutputError::IsInput(_) => {
                format!(
                    "{shown} is the watched file (by this or another name); not writing over it"
                )
            }
            OutputError::Exists(_) => format!("{shown} exists; save! {shown} replaces it"),
            e => e.to_string(),
        };
        check_output(path, &opts).map_err(refused)?;
        let ndjson = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("ndjson" | "json")
        );
        let text = {
            let log = self.session.log();
            self.panels.events.export(&log, &self.doc.data, ndjson)
        };
        write_output(path, text.as_bytes(), &opts).map_err(refused)?;
        Ok(format!("event log written to {shown}"))
    }

    /// Applies a global action.
    pub fn apply(&mut self, action: Action) -> bool {
        match action {
            Action::Quit => self.quit = true,
            Action::Help => self.overlay = Overlay::Help { scroll: 0 },
            Action::PlayPause => {
                self.playing = !self.playing;
                self.play_debt = 0.0;
            }
            Action::StepFrames(n) => {
                self.playing = false;
                let f = self.target_frame() as i64 + n;
                self.go_to_frame(f.max(0) as u64);
            }
            Action::PrevKey | Action::NextKey => self.jump_to_key(action == Action::NextKey),
            Action::Home => self.seek_animation_start(),
            Action::Live => {
                let f = self.newest;
                if self.target_frame() == f {
                    self.note(format!("at the newest frame ({f})"));
                } else {
                    self.go_to_frame(f);
                    self.note(format!("back to the newest frame ({f})"));
                }
            }
            Action::RangeIn | Action::RangeOut => {
                let f = self.session.frame();
                if action == Action::RangeIn {
                    self.range.0 = Some(f);
                } else {
                    self.range.1 = Some(f);
                }
                let text = crate::session::playhead::range_text(&self.range);
                self.note(text);
            }
            Action::End => self.seek_animation_end(),
            Action::Faster | Action::Slower => {
                let i = SPEEDS.iter().position(|&s| s >= self.speed).unwrap_or(3);
                let j = if action == Action::Faster {
                    (i + 1).min(SPEEDS.len() - 1)
                } else {
                    i.saturating_sub(1)
                };
                self.speed = SPEEDS[j];
            }
            Action::ToggleLoop => self.toggle_loop(),
            Action::NextPanel | Action::PrevPanel => {
                let i = PanelId::ALL
                    .iter()
                    .position(|&p| p == self.focus)
                    .unwrap_or(0);
                let n = PanelId::ALL.len();
                let j = if action == Action::NextPanel {
                    (i + 1) % n
                } else {
                    (i + n - 1) % n
                };
                self.focus_panel(PanelId::ALL[j]);
            }
            Action::Focus(p) => self.focus_panel(p),
            Action::AnimationPicker => {
                let items: Vec<String> = self
                    .doc
                    .data
                    .animations
                    .iter()
                    .map(|a| a.name.clone())
                    .collect();
                let current = self.selection.animation.unwrap_or(0);
                self.overlay = Overlay::AnimationPicker(Picker::new("Animation", items, current));
            }
            Action::SkinPicker => {
                let data = &self.doc.data;
                let names: Vec<String> = (0..data.skins.len())
                    .filter(|&k| Some(k) != data.default_skin && data.skins[k].name != "default")
                    .map(|k| data.skins[k].name.clone())
                    .collect();
                self.overlay = Overlay::SkinPicker(SkinPicker::new(names, self.session.skins()));
            }
            Action::MessageLog => self.overlay = Overlay::MessageLog(LogView::default()),
            Action::ArmaturePicker => {
                if self.armatures.len() < 2 {
                    self.note("this file holds one skeleton".to_string());
                } else {
                    let items: Vec<String> =
                        self.armatures.iter().map(|d| d.name.clone()).collect();
                    let current = self
                        .armatures
                        .iter()
                        .position(|d| Arc::ptr_eq(d, &self.doc.data))
                        .unwrap_or(0);
                    self.overlay = Overlay::ArmaturePicker(Picker::new("Armature", items, current));
                }
            }
            Action::Prompt => self.overlay = Overlay::Prompt(Prompt::new(&self.history)),
            Action::CyclePhysics | Action::ResetPhysics => self.physics_key(action),
            Action::Search | Action::SearchNext | Action::SearchPrev => {
                return self.search_action(action);
            }
            Action::Maximise | Action::Widen | Action::Narrow => return self.layout_action(action),
            Action::CycleMarker => {
                self.marker = self.marker.next();
                self.note(format!("marker {}", self.marker.name()));
            }
        }
        true
    }

    /// Focuses the panel drawn at a screen position (a mouse click). True when it changed.
    pub fn click(&mut self, column: u16, row: u16) -> bool {
        let hit = self
            .areas
            .iter()
            .find(|(_, r)| r.contains(ratatui::layout::Position::new(column, row)));
        match hit {
            Some(&(id, _)) if matches!(self.overlay, Overlay::None) && id != self.focus => {
                self.focus_panel(id);
                true
            }
            _ => false,
        }
    }

    fn focus_panel(&mut self, p: PanelId) {
        self.focus = p;
        if p != PanelId::Preview {
            self.inspector = p;
        }
    }

    fn toggle_loop(&mut self) {
        self.looping = !self.looping;
        let mut inputs = self.session.inputs().to_vec();
        match inputs.iter_mut().find(|(f, i)| {
            *f == 0 && matches!(i, Input::Command(Command::SetAnimation { track: 0, .. }))
        }) {
            Some((_, Input::Command(Command::SetAnimation { looping, .. }))) => {
                *looping = self.looping
            }
            _ => return,
        }
        self.session.set_inputs(inputs);
        self.note(if self.looping { "loop on" } else { "loop off" });
    }

    /// The entry playing the selected animation: (time scale, looping, duration).
    fn selected_entry(&self) -> Option<(f64, bool, f64)> {
        let st = self.session.state();
        let a = self.selection.animation?;
        (0..st.tracks.len()).find_map(|t| {
            let e = st.entry(st.current(t)?)?;
            (e.animation == Some(a)).then_some((
                e.time_scale,
                e.looping,
                e.animation_end - e.animation_start,
            ))
        })
    }

    fn jump_to_key(&mut self, forward: bool) {
        self.playing = false;
        let Some(info) = self.selection.timeline.and_then(|t| self.timelines.get(t)) else {
            self.note("no timeline selected");
            return;
        };
        let Some(anim) = self
            .selection
            .animation
            .and_then(|a| self.doc.data.animations.get(a))
        else {
            return;
        };
        let times = anim.timelines[info.index].key_times();
        let at = self.playhead();
        let eps = 0.5 / self.session.fps();
        let target = if forward {
            times.iter().map(|&t| t as f64).find(|&t| t > at + 1e-6)
        } else {
            times
                .iter()
                .rev()
                .map(|&t| t as f64)
                .find(|&t| t < at - 1e-6)
        };
        let Some(key) = target else {
            self.note(if forward {
                "no later key"
            } else {
                "no earlier key"
            });
            return;
        };
        let scale = self
            .selected_entry()
            .map_or(1.0, |(s, _, _)| if s > 0.0 { s } else { 1.0 });
        let _ = eps;
        self.session
            .seek_time((self.session.time() + (key - at) / scale).max(0.0));
    }

    /// The current entry of the followed track (track 0 unless `:track` chose another):
    /// (time within this loop of its animation, the animation's duration, time scale,
    /// looping, seconds since the entry started).
    fn followed_entry(&self) -> Option<(f64, f64, f64, bool, f64)> {
        let st = self.session.state();
        let e = st.entry(st.current(self.track)?)?;
        let scale = if e.time_scale > 0.0 {
            e.time_scale
        } else {
            1.0
        };
        Some((
            e.animation_time() - e.animation_start,
            e.animation_end - e.animation_start,
            scale,
            e.looping,
            e.track_time.max(0.0) / scale,
        ))
    }

    /// `Home`: the start of the followed track's animation (of this loop), not frame 0.
    fn seek_animation_start(&mut self) {
        self.playing = false;
        let Some((at, _, scale, _, since)) = self.followed_entry() else {
            self.go_to_frame(0);
            return;
        };
        let now = self.session.time();
        let target = (now - (at / scale).min(since)).max(0.0);
        let exact = target * self.session.fps();
        let nearest = exact.round();
        if (exact - nearest).abs() <= 1e-6 {
            // A start on the frame grid (the usual case): that frame.
            self.go_to_frame(nearest.max(0.0) as u64);
        } else {
            // A start between frames (a loop of a duration off the grid, 3.6667 s at 30 fps,
            // begins a thousandth of a frame after frame 110): the start itself, a nanosecond
            // in so that rounding cannot land on the previous loop's end. The next whole
            // frame was nearly a frame into the animation.
            self.session.seek_time(target + 1e-9);
        }
    }

    /// `End`: the end of the followed track's animation (a looping one: just before it
    /// wraps).
    fn seek_animation_end(&mut self) {
        self.playing = false;
        let Some((at, duration, scale, looping, _)) = self.followed_entry() else {
            return;
        };
        // A looping animation wraps to 0 at its end: stop just before it.
        let back = if looping { 1e-4 } else { 0.0 };
        self.session
            .seek_time((self.session.time() + (duration - at) / scale - back).max(0.0));
    }

    /// Whether this frame may draw the text of the Bones, Curves and Tracks readouts as last
    /// drawn exact (playing, no input since, and drawn exact less than [`READOUT_PERIOD`]
    /// ago); when not, they are drawn exact and their clock restarts.
    pub fn hold_readouts(&mut self) -> bool {
        let hold = self.playing && !self.readouts_stale && self.readout_age + 1e-9 < READOUT_PERIOD;
        if !hold {
            self.readout_age = 0.0;
            self.readouts_stale = false;
        }
        hold
    }

    /// Makes the next frame draw every readout exact (after input or a reload).
    pub fn refresh_readouts(&mut self) {
        self.readouts_stale = true;
    }

    /// Advances playback by `real_seconds` of wall time. Returns true when the pose changed.
    pub fn tick(&mut self, real_seconds: f64) -> bool {
        if !self.playing {
            return false;
        }
        self.readout_age += real_seconds;
        self.play_debt += real_seconds * self.speed;
        let fps = self.session.fps();
        let frames = (self.play_debt * fps).floor();
        if frames < 1.0 {
            return false;
        }
        self.play_debt -= frames / fps;
        crate::session::playhead::advance(&mut self.session, &self.range, frames as u64);
        self.follow_playing();
        self.newest = self.newest.max(self.session.frame());
        if self.finished() {
            self.playing = false;
            self.note("end of animation");
        }
        true
    }

    /// True when nothing more will change: every track holds a finished, non-looping entry
    /// with nothing queued and no mix in progress.
    fn finished(&self) -> bool {
        let st = self.session.state();
        (0..st.tracks.len()).all(|t| match st.current(t).and_then(|id| st.entry(id)) {
            None => true,
            Some(e) => {
                !e.looping
                    && e.next.is_none()
                    && e.mixing_from.is_none()
                    && e.track_time >= e.animation_end - e.animation_start
            }
        })
    }
}
