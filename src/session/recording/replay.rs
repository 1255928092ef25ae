//! Replays a recording's calls on bonescope's runtime for the export's version and compares
//! the callbacks with the game's, frame by frame.
//!
//! A call the game made from inside a listener (`nested`) runs inside bonescope's own
//! listener, right after the callback it followed, so the runtime sees it at the same point.
//! Entry ids follow the protocol's numbering (first appearance, forgotten at `dispose`) on
//! bonescope's side too, so a game's id names the same entry while both agree.

use super::ReplayError;
use super::record::{Call, GameCallback, Hello, Item};
use super::verdict::{Divergence, FrameVerdict, Seen};
use crate::core::model::{RuntimeVersion, SkeletonData};
use crate::core::skeleton::{Physics, Skeleton};
use crate::core::state::{
    AnimationState, AnimationStateData, EntryId, Notification, NotificationKind,
};
use crate::session::{Command, CommandError, EntrySetting, Input, MAX_TRACKS, entry_setting};
use crate::text::sanitize;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Entry numbers in order of first appearance.
#[derive(Default)]
struct Ids {
    of: HashMap<EntryId, u64>,
    by: HashMap<u64, EntryId>,
    next: u64,
}

impl Ids {
    fn id(&mut self, e: EntryId) -> u64 {
        if let Some(n) = self.of.get(&e) {
            return *n;
        }
        self.next += 1;
        self.of.insert(e, self.next);
        self.by.insert(self.next, e);
        self.next
    }

    fn forget(&mut self, e: EntryId) {
        if let Some(n) = self.of.remove(&e) {
            self.by.remove(&n);
        }
    }
}

/// What the listener and the replay share during a frame.
#[derive(Default)]
struct Frame {
    ids: Ids,
    items: Vec<Item>,
    pos: usize,
    ours: usize,
    game: usize,
    divergence: Option<Divergence>,
    notes: Vec<String>,
    /// What this frame ran, as session inputs (a recorded session replays them exactly).
    ran: Vec<Input>,
}

impl Frame {
    /// Moves past items that are not callbacks or calls (unknown ones), noting them.
    fn skip_unknown(&mut self) {
        while let Some(Item::Unknown(m)) = self.items.get(self.pos) {
            self.notes.push(format!("skipped {m}"));
            self.pos += 1;
        }
    }
}

/// A replay in progress.
pub struct Replay {
    data: Arc<SkeletonData>,
    skeleton: Skeleton,
    state: AnimationState,
    shared: Rc<RefCell<Frame>>,
    physics: Physics,
    dt: f64,
    /// The dt most frames used so far (for the "different dt" cause).
    usual_dt: Option<f64>,
    /// A nested call happened in this frame or before.
    nested_seen: bool,
    runtime_note: Option<String>,
    stopped: bool,
}

/// The export's runtime version as `major.minor`.
pub fn export_version(data: &SkeletonData) -> Option<&'static str> {
    Some(match data.rules.version {
        RuntimeVersion::Spine37 => "3.7",
        RuntimeVersion::Spine38 => "3.8",
        RuntimeVersion::Spine40 => "4.0",
        RuntimeVersion::Spine41 => "4.1",
        RuntimeVersion::Spine42 => "4.2",
        RuntimeVersion::Spine43 => "4.3",
        _ => return None,
    })
}

impl Replay {
    /// A fresh skeleton and state for `data`, skinned as the hello says.
    pub fn new(data: Arc<SkeletonData>, hello: &Hello) -> Result<Replay, ReplayError> {
        let mut skeleton = Skeleton::new(data.clone());
        if let Some(skins) = &hello.skins {
            let names: Vec<&str> = skins.iter().map(String::as_str).collect();
            skeleton
                .set_skins_by_name(&names)
                .map_err(ReplayError::UnknownSkin)?;
        }
        skeleton.set_to_setup_pose();
        skeleton.update_world_transform();
        let mut state = AnimationState::new(AnimationStateData::new(data.clone()));
        let shared: Rc<RefCell<Frame>> = Rc::default();
        let s = shared.clone();
        state.add_listener(Box::new(move |st, note| on_callback(&s, st, note)));
        let game_version = hello.runtime.version.clone();
        let runtime_note = export_version(&data).and_then(|v| {
            let game_mm: Vec<&str> = game_version.split('.').take(2).collect();
            let game_mm = game_mm.join(".");
            (!game_version.is_empty() && game_mm != v).then(|| {
                format!(
                    "the game's runtime is {} {}, the export is {v}",
                    sanitize(&hello.runtime.name),
                    sanitize(&game_version)
                )
            })
        });
        Ok(Replay {
            data,
            skeleton,
            state,
            shared,
            physics: Physics::Update,
            dt: 0.0,
            usual_dt: None,
            nested_seen: false,
            runtime_note,
            stopped: false,
        })
    }

    /// The runtime mismatch between the game and the export, if any.
    pub fn runtime_note(&self) -> Option<&str> {
        self.runtime_note.as_deref()
    }

    /// The replayed state (for views).
    pub fn state(&self) -> &AnimationState {
        &self.state
    }

    /// The replayed skeleton (for views).
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// After a gap the game's stream is incomplete: stop comparing.
    pub fn stop(&mut self) {
        self.stopped = true;
    }

    /// Replays one frame's items and compares its callbacks.
    pub fn frame(&mut self, frame: u64, items: &[Item]) -> FrameVerdict {
        {
            let mut f = self.shared.borrow_mut();
            f.items = items.to_vec();
            f.pos = 0;
            f.ours = 0;
            f.game = items
                .iter()
                .filter(|i| matches!(i, Item::Callback(_)))
                .count();
            f.notes.clear();
            f.divergence = None;
            f.ran.clear();
        }
        let mut frame_dt = None;
        loop {
            let next = {
                let mut f = self.shared.borrow_mut();
                f.skip_unknown();
                let pos = f.pos;
                match f.items.get(pos).cloned() {
                    None => break,
                    Some(Item::Callback(c)) => {
                        // The game fired a callback here that bonescope did not.
                        if f.divergence.is_none() {
                            let index = f.ours;
                            f.divergence = Some(Divergence {
                                index,
                                game: Some(Seen::from_game(&c)),
                                ours: None,
                                causes: Vec::new(),
                            });
                        }
                        f.pos += 1;
                        continue;
                    }
                    Some(Item::Call { call, nested }) => {
                        f.pos += 1;
                        (call, nested)
                    }
                    Some(Item::Unknown(_)) => continue,
                }
            };
            let (call, nested) = next;
            if nested {
                self.nested_seen = true;
            }
            if let Some(c) = session_command(&call) {
                self.shared.borrow_mut().ran.push(Input::Command(c));
            }
            match &call {
                Call::Update { dt } if dt.is_finite() => {
                    frame_dt = Some(*dt);
                    self.dt = *dt;
                    self.state.update(*dt);
                }
                Call::Apply => {
                    self.state.apply(&mut self.skeleton);
                    self.skeleton.update(self.dt);
                    self.skeleton.update_world_transform_with(self.physics);
                }
                Call::SetSkins { skins } => {
                    let names: Vec<&str> = skins.iter().map(String::as_str).collect();
                    if let Err(m) = self.skeleton.set_skins_by_name(&names) {
                        self.note(format!("unknown skin \"{}\"", sanitize(&m.name)));
                    }
                }
                Call::ResetPhysics => self.skeleton.reset_physics(),
                Call::Physics { mode } => match physics_mode(mode) {
                    Some(p) => self.physics = p,
                    None => self.note(format!("unknown physics mode \"{}\"", sanitize(mode))),
                },
                _ => {
                    let shared = self.shared.clone();
                    run_call(&shared, &mut self.state, &call, None);
                }
            }
        }
        let mut f = self.shared.borrow_mut();
        if let Some(dt) = frame_dt {
            match self.usual_dt {
                None => self.usual_dt = Some(dt),
                Some(u) if (u - dt).abs() > 1e-9 && f.divergence.is_some() => {
                    f.notes
                        .push(format!("this frame's dt {dt} differs from the usual {u}"));
                }
                _ => {}
            }
        }
        if self.stopped {
            f.divergence = None;
        }
        let mut divergence = f.divergence.take();
        if let Some(d) = &mut divergence {
            d.causes = self.causes(frame_dt);
        }
        FrameVerdict {
            frame,
            game: f.game,
            ours: f.ours,
            divergence,
            notes: std::mem::take(&mut f.notes),
        }
    }

    fn note(&self, m: String) {
        self.shared.borrow_mut().notes.push(m);
    }

    /// What the last [`Replay::frame`] ran, as inputs of a recorded session
    /// ([`crate::session::Session::recorded`]): replayed there, they give the same state.
    pub fn take_inputs(&mut self) -> Vec<Input> {
        std::mem::take(&mut self.shared.borrow_mut().ran)
    }

    fn causes(&self, frame_dt: Option<f64>) -> Vec<String> {
        let mut c = Vec::new();
        if let Some(n) = &self.runtime_note {
            c.push(format!("runtime version differs: {n}"));
        }
        if self.nested_seen {
            c.push("a call from inside a listener (runs at another point of the drain)".into());
        }
        if let (Some(dt), Some(u)) = (frame_dt, self.usual_dt)
            && (dt - u).abs() > 1e-9
        {
            c.push(format!("a different dt ({dt} after {u})"));
        }
        if c.is_empty() {
            c.push("the game's runtime is another version than the export's".into());
            c.push("a call from inside a listener the recorder did not see".into());
            c.push("a different dt".into());
        }
        let _ = &self.data;
        c
    }
}

/// The session input for a top-level skeleton-side call (state calls are converted when
/// they run, with the entry they name resolved).
fn session_command(call: &Call) -> Option<Command> {
    Some(match call {
        Call::Update { dt } if dt.is_finite() => Command::Update { dt: *dt },
        Call::Apply => Command::Apply,
        Call::SetSkins { skins } => Command::SetSkins {
            skins: skins.clone(),
        },
        Call::ResetPhysics => Command::ResetPhysics,
        Call::Physics { mode } => Command::PhysicsMode {
            mode: physics_mode(mode)?,
        },
        _ => return None,
    })
}

fn physics_mode(m: &str) -> Option<Physics> {
    Some(match m {
        "none" => Physics::None,
        "reset" => Physics::Reset,
        "update" => Physics::Update,
        "pose" => Physics::Pose,
        _ => return None,
    })
}

/// bonescope's listener: compares each callback with the game's next one and runs the
/// game's calls made from inside that listener.
fn on_callback(shared: &Rc<RefCell<Frame>>, st: &mut AnimationState, note: &Notification) {
    let (nested, after): (Vec<Call>, usize) = {
        let mut f = shared.borrow_mut();
        let entry = f.ids.id(note.entry);
        let animation = st
            .entry(note.entry)
            .and_then(|e| e.animation)
            .and_then(|i| st.data.skeleton.animations.get(i))
            .map(|a| a.name.clone());
        let event = note.event.as_ref().map(|e| {
            let name = st
                .data
                .skeleton
                .events
                .get(e.data)
                .map_or(String::new(), |d| d.name.clone());
            (name, i64::from(e.int), e.string.clone(), e.float)
        });
        let ours = Seen {
            kind: note.kind.name().into(),
            track: note.track,
            entry,
            animation,
            event,
        };
        if note.kind == NotificationKind::Dispose {
            f.ids.forget(note.entry);
        }
        let index = f.ours;
        f.ours += 1;
        f.skip_unknown();
        let pos = f.pos;
        let game: Option<GameCallback> = match f.items.get(pos) {
            Some(Item::Callback(c)) => Some(c.clone()),
            _ => None,
        };
        let matched = game
            .as_ref()
            .is_some_and(|g| Seen::from_game(g).same(&ours));
        if f.divergence.is_none() && !matched {
            f.divergence = Some(Divergence {
                index,
                game: game.as_ref().map(Seen::from_game),
                ours: Some(ours),
                causes: Vec::new(),
            });
        }
        if !matched {
            return;
        }
        f.pos += 1;
        let mut calls = Vec::new();
        loop {
            f.skip_unknown();
            let pos = f.pos;
            match f.items.get(pos) {
                Some(Item::Call { call, nested: true }) => {
                    calls.push(call.clone());
                    f.pos += 1;
                }
                _ => break,
            }
        }
        (calls, f.ours)
    };
    for call in &nested {
        match call {
            Call::Update { .. }
            | Call::Apply
            | Call::SetSkins { .. }
            | Call::ResetPhysics
            | Call::Physics { .. } => shared
                .borrow_mut()
                .notes
                .push("a skeleton call from inside a listener is not replayed".into()),
            _ => run_call(shared, st, call, Some(after)),
        }
    }
}

/// Runs one state call (not update / apply / skeleton calls) and numbers the entry it made;
/// `nested`: made from inside the listener after this many notifications of the frame.
fn run_call(
    shared: &Rc<RefCell<Frame>>,
    st: &mut AnimationState,
    call: &Call,
    nested: Option<usize>,
) {
    let command = match command_of(shared, st, call) {
        Ok(c) => c,
        Err(m) => {
            shared.borrow_mut().notes.push(m.to_string());
            return;
        }
    };
    if let Err(m) = command.validate(&st.data.skeleton) {
        shared.borrow_mut().notes.push(m.to_string());
        return;
    }
    shared.borrow_mut().ran.push(match nested {
        Some(after) => Input::Nested {
            after,
            command: command.clone(),
        },
        None => Input::Command(command.clone()),
    });
    if let Some(id) = command.run(st) {
        let ours = shared.borrow_mut().ids.id(id);
        let theirs = match call {
            Call::SetAnimation { entry, .. }
            | Call::AddAnimation { entry, .. }
            | Call::SetEmptyAnimation { entry, .. }
            | Call::AddEmptyAnimation { entry, .. } => *entry,
            _ => None,
        };
        if let Some(t) = theirs
            && t != ours
        {
            shared.borrow_mut().notes.push(format!(
                "the game's call returned entry {t}, bonescope's entry {ours}"
            ));
        }
    }
}

/// The session command for a recorded state call.
fn command_of(
    shared: &Rc<RefCell<Frame>>,
    st: &AnimationState,
    call: &Call,
) -> Result<Command, ReplayError> {
    let data = &st.data.skeleton;
    let anim = |n: &str| {
        data.find_animation(n)
            .ok_or_else(|| ReplayError::UnknownAnimation(n.to_string()))
    };
    let track = |t: usize| {
        if t < MAX_TRACKS {
            Ok(t)
        } else {
            Err(ReplayError::Command(CommandError::TrackBeyondLimit {
                track: t,
                limit: MAX_TRACKS - 1,
            }))
        }
    };
    Ok(match call {
        Call::SetAnimation {
            track: t,
            animation,
            r#loop,
            ..
        } => Command::SetAnimation {
            track: track(*t)?,
            animation: anim(animation)?,
            looping: *r#loop,
        },
        Call::AddAnimation {
            track: t,
            animation,
            r#loop,
            delay,
            ..
        } => Command::AddAnimation {
            track: track(*t)?,
            animation: anim(animation)?,
            looping: *r#loop,
            delay: *delay,
        },
        Call::SetEmptyAnimation {
            track: t,
            mix_duration,
            ..
        } => Command::SetEmptyAnimation {
            track: track(*t)?,
            mix_duration: *mix_duration,
        },
        Call::AddEmptyAnimation {
            track: t,
            mix_duration,
            delay,
            ..
        } => Command::AddEmptyAnimation {
            track: track(*t)?,
            mix_duration: *mix_duration,
            delay: *delay,
        },
        Call::SetEmptyAnimations { mix_duration } => Command::SetEmptyAnimations {
            mix_duration: *mix_duration,
        },
        Call::ClearTrack { track: t } => Command::ClearTrack { track: track(*t)? },
        Call::ClearTracks => Command::ClearTracks,
        Call::SetMix { from, to, duration } => Command::SetMix {
            from: anim(from)?,
            to: anim(to)?,
            duration: *duration,
        },
        Call::DefaultMix { duration } => Command::DefaultMix {
            duration: *duration,
        },
        Call::TimeScale { value } => Command::TimeScale { value: *value },
        Call::Entry {
            entry,
            property,
            value,
        } => {
            let id = shared
                .borrow()
                .ids
                .by
                .get(entry)
                .copied()
                .ok_or(ReplayError::EntryNotLive(*entry))?;
            Command::EntrySetting {
                entry: id,
                setting: setting_of(property, value)?,
            }
        }
        Call::Update { .. }
        | Call::Apply
        | Call::SetSkins { .. }
        | Call::ResetPhysics
        | Call::Physics { .. } => return Err(ReplayError::NotAStateCall),
    })
}

/// The setting of a recorded `entry` call. The game's runtime had the property, so every
/// runtime line's properties are accepted (the export's version does not gate them).
fn setting_of(property: &str, value: &Value) -> Result<EntrySetting, ReplayError> {
    entry_setting(property, value, RuntimeVersion::Spine43)?
        .ok_or_else(|| ReplayError::NothingToSet(property.to_string()))
}
