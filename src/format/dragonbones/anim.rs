//! Animations: bone, slot, FFD, zOrder and action timelines on DragonBones' frame grid
//! (docs/dragonbones.md §4-6).
//!
//! Key frames sit at whole frames (`start / frameRate` seconds) and are found by frame index
//! (`Animation::frame_rate`). The last key frame lasts to the end of the animation; when the
//! animation repeats and that frame tweens, it tweens back to the first key frame, which is an
//! extra key at the end here. Per-timeline `scale`/`offset` become a [`TimeWarp`].

use super::ctx::{Ctx, join, rejoin};
use super::displays::{DeformSpace, display_name};
use super::dto;
use super::lenient::Num;
use super::setup::color;
use super::transform::{DbTransform, flip, normalize};
use super::tween;
use crate::core::animation::{
    Animation, AttachmentTimeline, BoneProperty, BoneTimeline, ColorKind, ColorTimeline,
    DeformTimeline, DrawOrderTimeline, EventTimeline, IkTimeline, LatticeTimeline, Timeline,
};
use crate::core::curve::{Interp, Keys, TimeWarp};
use crate::core::model::{AttachmentId, AttachmentKind, Event, EventData, SkeletonData};
use crate::format::ErrorKind;
use crate::format::LoadError;
use crate::format::json::Seg::{self, Index, Key};
use crate::format::json::SmallKey;
use foldhash::HashMap;

/// Longest animation or key frame accepted, in frames (over a day at 60 fps).
const MAX_FRAMES: f64 = 10_000_000.0;

/// What the timelines of one animation share.
struct Frame<'a> {
    cx: &'a Ctx<'a>,
    fps: f64,
    /// Length in frames (at least 1).
    count: u32,
    /// Whether the animation repeats (`playTimes` other than 1).
    wrap: bool,
    /// The curves this animation's key frames have sampled so far.
    curves: std::cell::RefCell<tween::SampledCurves>,
}

impl Frame<'_> {
    fn duration(&self) -> f64 {
        self.count as f64 / self.fps
    }

    fn time(&self, start: u32) -> f32 {
        (start as f64 / self.fps) as f32
    }

    /// Start and length of each key frame of the timeline at `at` (its `frame` list): a
    /// missing duration is 1 frame, the last frame lasts to the end of the animation.
    fn spans(
        &self,
        at: &[Seg<'_>],
        durations: impl ExactSizeIterator<Item = Num>,
    ) -> Result<Vec<(u32, u32)>, LoadError> {
        self.spans_in(at, "frame", durations)
    }

    /// [`Frame::spans`] of the key-frame list `list` of the timeline at `at` (5.5's named
    /// lists). The list's path is only joined for an error: most timelines have none.
    fn spans_in(
        &self,
        at: &[Seg<'_>],
        list: &'static str,
        durations: impl ExactSizeIterator<Item = Num>,
    ) -> Result<Vec<(u32, u32)>, LoadError> {
        let mut out = Vec::with_capacity(durations.len());
        self.spans_into(at, list, durations, &mut out)?;
        Ok(out)
    }

    /// [`Frame::spans_in`] into `out` (emptied first), for a loop over many timelines that
    /// keeps one list.
    fn spans_into(
        &self,
        at: &[Seg<'_>],
        list: &'static str,
        durations: impl ExactSizeIterator<Item = Num>,
        out: &mut Vec<(u32, u32)>,
    ) -> Result<(), LoadError> {
        let n = durations.len();
        out.clear();
        out.reserve(n);
        let mut start = 0u32;
        for (i, d) in durations.enumerate() {
            let len = if i + 1 == n {
                self.count.saturating_sub(start)
            } else {
                let d = d.or(1.0);
                if !(0.0..=MAX_FRAMES).contains(&d) {
                    return Err(self.cx.err(
                        &join(at, &[Key(list), Index(i), Key("duration")]),
                        format!("frame duration {d} is out of range (0 to {MAX_FRAMES})"),
                    ));
                }
                d.round() as u32
            };
            out.push((start, len));
            start = start.saturating_add(len);
        }
        Ok(())
    }

    /// The time warp for a timeline's `scale` and `offset` (kept to hundredths, like the
    /// runtime), or `None` when they change nothing.
    fn warp(&self, scale: Num, offset: Num) -> Option<TimeWarp> {
        // Values beyond a million durations are no warp anyone exported; they would only
        // make key times infinite.
        let hundredths = |v: f64| (v * 100.0).round() / 100.0;
        let sane = |v: f64, default: f64| if v.abs() <= 1e6 { v } else { default };
        let (scale, offset) = (
            Num(Some(sane(scale.or(1.0), 1.0))),
            Num(Some(sane(offset.or(0.0), 0.0))),
        );
        let (s, o) = (hundredths(scale.or(1.0)), hundredths(offset.or(0.0)));
        (s != 1.0 || o != 0.0).then(|| TimeWarp {
            scale: if s > 0.0 { s } else { 1.0 },
            offset: o * self.duration(),
            duration: self.duration(),
            wrap: self.wrap,
            frame_rate: self.fps,
        })
    }

    /// Closes a timeline of `frames` key frames whose last key tweens back to the first (see
    /// the module docs): an extra key at the end holding `first`'s values. Says whether it
    /// added one, so timelines with per-key arrays add the first one's copy.
    fn close_wrap(&self, frames: usize, keys: &mut Keys, first: &[f32]) -> bool {
        let last = keys
            .len()
            .checked_sub(1)
            .map_or(Interp::Stepped, |i| keys.interp(i));
        let wraps = self.wrap && frames > 1 && last != Interp::Stepped;
        if wraps {
            keys.push(self.duration() as f32, first, Interp::Stepped);
        }
        wraps
    }
}

/// The index of the bone or slot a timeline names (`find` looks it up), or a located error.
fn target<'n>(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    name: &'n Option<SmallKey>,
    kind: &str,
    find: impl Fn(&str) -> Option<usize>,
) -> Result<(usize, &'n str), LoadError> {
    let n = name.as_deref().unwrap_or("");
    match find(n) {
        Some(i) => Ok((i, n)),
        None => Err(cx
            .err(&join(at, &[Key("name")]), format!("unknown {kind} \"{n}\""))
            .with_kind(ErrorKind::DanglingReference)),
    }
}

/// Builds one animation. `events` collects the event definitions the file implies.
#[allow(clippy::too_many_arguments)]
pub fn animation(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    a: &dto::Animation,
    fps: f64,
    spaces: &HashMap<AttachmentId, DeformSpace>,
    data: &SkeletonData,
    surfaces: &[bool],
    events: &mut Vec<EventData>,
) -> Result<Animation, LoadError> {
    let name = match a.name.as_deref() {
        None | Some("") => "default".to_string(),
        Some(n) => n.to_string(),
    };
    let count = a.duration.or(1.0);
    if count.is_nan() || count > MAX_FRAMES {
        return Err(cx.err(
            &join(at, &[Key("duration")]),
            format!("duration {count} frames is out of range"),
        ));
    }
    let f = Frame {
        cx,
        fps,
        count: (count.round() as u32).max(1),
        wrap: a.play_times.or(1.0) != 1.0,
        curves: Default::default(),
    };
    let mut timelines = Vec::new();
    // Lent to each bone timeline in turn (see `bone_timelines`).
    let (mut keys, mut spans) = (Vec::new(), Vec::new());
    let mut fired: Vec<(f32, Event)> = Vec::new();
    let mut fire = |time: f32, acts: &dto::Fired, origin: &str| {
        let Some(acts) = acts else { return };
        for mut ev in frame_events(acts, origin, events) {
            ev.time = time as f64;
            fired.push((time, ev));
        }
    };
    // One path buffer for every timeline: a timeline's path is the base of its error paths.
    let mut tat = Vec::with_capacity(at.len() + 2);
    // Animation-level frames carry only events, sounds and actions.
    f.spans_into(
        at,
        "frame",
        a.frame.iter().map(|fr| fr.duration),
        &mut spans,
    )?;
    for (fr, &(start, _)) in a.frame.iter().zip(&spans) {
        fire(f.time(start), &fr.fire, &fr.origin);
    }
    for (i, tl) in a.bone.list().iter().enumerate() {
        rejoin(&mut tat, at, &[Key("bone"), Index(i)]);
        let (bone, bname) = target(cx, &tat, &tl.name, "bone", |n| data.find_bone(n))?;
        f.spans_into(
            &tat,
            "frame",
            tl.frame.iter().map(|fr| fr.duration),
            &mut spans,
        )?;
        for (fr, &(start, _)) in tl.frame.iter().zip(&spans) {
            fire(f.time(start), &fr.fire, bname);
        }
        // The runtime ignores a surface bone's timelines (its lattice places its children).
        if !surfaces.get(bone).copied().unwrap_or(false) {
            bone_timelines(&f, &tat, tl, &spans, bone, &mut keys, &mut timelines)?;
        }
    }
    for (i, tl) in a.slot.list().iter().enumerate() {
        rejoin(&mut tat, at, &[Key("slot"), Index(i)]);
        let (slot, sname) = target(cx, &tat, &tl.name, "slot", |n| data.find_slot(n))?;
        if !tl.frame.is_empty() {
            let spans = f.spans(&tat, tl.frame.iter().map(|fr| fr.duration))?;
            for (fr, &(start, _)) in tl.frame.iter().zip(&spans) {
                fire(f.time(start), &fr.fire, sname);
            }
            let display = tl.frame.iter().zip(&spans);
            let display = display.map(|(fr, &(s, _))| (s, fr.display_index.or(0.0)));
            let color = tl
                .frame
                .iter()
                .zip(&spans)
                .map(|(fr, &(start, len))| ColorKey {
                    tween: &fr.tween,
                    start,
                    len,
                    color: fr.color.as_ref(),
                });
            let color: Vec<_> = color.collect();
            // A frame without a color means the identity color, so the list drives the
            // color even when no frame names one (it matters when the setup color is not
            // the identity).
            slot_display(&f, &display.collect::<Vec<_>>(), slot, data, &mut timelines);
            slot_color(&f, &tat, &color, tl, slot, data, &mut timelines)?;
            continue;
        }
        if !tl.display_frame.is_empty() {
            let spans = f.spans_in(
                &tat,
                "displayFrame",
                tl.display_frame.iter().map(|fr| fr.duration),
            )?;
            for (fr, &(start, _)) in tl.display_frame.iter().zip(&spans) {
                fire(f.time(start), &fr.fire, sname);
            }
            let display = tl.display_frame.iter().zip(&spans);
            let display = display.map(|(fr, &(s, _))| (s, fr.value.or(0.0)));
            slot_display(&f, &display.collect::<Vec<_>>(), slot, data, &mut timelines);
        }
        if !tl.color_frame.is_empty() {
            let cat = join(&tat, &[Key("colorFrame")]);
            let spans = f.spans_in(
                &tat,
                "colorFrame",
                tl.color_frame.iter().map(|fr| fr.duration),
            )?;
            let color = tl
                .color_frame
                .iter()
                .zip(&spans)
                .map(|(fr, &(start, len))| ColorKey {
                    tween: &fr.tween,
                    start,
                    len,
                    color: fr.value.as_ref().or(fr.color.as_ref()),
                });
            slot_color(
                &f,
                &cat,
                &color.collect::<Vec<_>>(),
                tl,
                slot,
                data,
                &mut timelines,
            )?;
        }
    }
    for (i, tl) in a.ffd.iter().enumerate() {
        rejoin(&mut tat, at, &[Key("ffd"), Index(i)]);
        if !tl.frame.is_empty() {
            timelines.push(ffd_timeline(&f, &tat, tl, spaces, data)?);
        }
    }
    for (i, tl) in a.surface.iter().enumerate() {
        rejoin(&mut tat, at, &[Key("surface"), Index(i)]);
        if !tl.frame.is_empty() {
            timelines.push(surface_timeline(&f, &tat, tl, data)?);
        }
    }
    for (i, tl) in a.ik.iter().enumerate() {
        rejoin(&mut tat, at, &[Key("ik"), Index(i)]);
        if !tl.frame.is_empty() {
            timelines.push(ik_timeline(&f, &tat, tl, data)?);
        }
    }
    if let Some(z) = &a.z_order {
        rejoin(&mut tat, at, &[Key("zOrder")]);
        if !z.frame.is_empty() {
            timelines.push(z_order_timeline(&f, &tat, z, data.slots.len())?);
        }
    }
    if !fired.is_empty() {
        fired.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (times, evs) = fired.into_iter().unzip();
        timelines.push(Timeline::Event(EventTimeline { times, events: evs }));
    }
    let mut anim = Animation::new(name, timelines);
    anim.duration = f.duration();
    anim.frame_rate = Some(fps);
    anim.play_times = Some(a.play_times.or(1.0).clamp(0.0, u32::MAX as f64) as u32);
    anim.fade_in = a.fade_in_time.0.filter(|t| *t > 0.0 && t.is_finite());
    // `scale` stretches playback: the runtime plays at 1/scale.
    let scale = a.scale.or(1.0);
    if scale > 0.0 && scale.is_finite() {
        anim.time_scale = 1.0 / scale;
    }
    Ok(anim)
}

/// The events one key frame fires: its `event`, `sound` and `action` fields and the 5.x
/// `events`/`actions` lists. Events and sounds carry the bone or slot they were keyed on as
/// their string; actions are `gotoAndPlay` events naming the animation (`action` when the
/// file names none), but an `actions` entry of type 10 is a frame event and one of another
/// non-zero type a sound event, by its `name` (tests/fixtures/dragonbones5/README.md).
fn frame_events(acts: &dto::FrameActions, origin: &str, defs: &mut Vec<EventData>) -> Vec<Event> {
    let mut out = Vec::new();
    let mut emit = |name: &str, audio: bool, string: &str, int: i32, float: f64| {
        let data = match defs
            .iter()
            .position(|d| d.name == name && d.audio.is_some() == audio)
        {
            Some(i) => i,
            None => {
                let mut d = EventData::new(name);
                if audio {
                    d.audio = Some(name.to_string());
                }
                defs.push(d);
                defs.len() - 1
            }
        };
        out.push(Event {
            data,
            // Set by the caller, which knows the key frame.
            time: 0.0,
            int,
            float,
            string: string.to_string(),
            volume: 1.0,
            balance: 0.0,
        });
    };
    if let Some(e) = &acts.event {
        emit(e, false, origin, 0, 0.0);
    }
    if let Some(s) = &acts.sound {
        emit(s, true, origin, 0, 0.0);
    }
    // An action without an animation name still changes playback in the runtime: it is
    // shown, as "action".
    match acts.action.as_ref().map(|a| a.0.as_deref()) {
        Some(Some(a)) => emit("gotoAndPlay", false, a, 0, 0.0),
        Some(None) => emit("action", false, origin, 0, 0.0),
        None => {}
    }
    for e in &acts.events {
        let string = e
            .strings
            .first()
            .cloned()
            .or_else(|| e.bone.as_deref().map(str::to_string))
            .or_else(|| e.slot.as_deref().map(str::to_string))
            .unwrap_or_else(|| origin.to_string());
        let int = e.ints.first().map_or(0, |&v| v as i32);
        let float = e.floats.first().copied().unwrap_or(0.0);
        emit(e.name.as_deref().unwrap_or(""), false, &string, int, float);
    }
    // After the frame's other events, in list order (observed with the oracle).
    for a in &acts.actions {
        let name = a.name.as_deref();
        let kind = a.kind.or(0.0);
        if let Some(g) = &a.goto_and_play {
            emit("gotoAndPlay", false, g, 0, 0.0);
        } else if kind == 0.0 {
            if let Some(n) = name {
                emit("gotoAndPlay", false, n, 0, 0.0);
            }
        } else {
            emit(name.unwrap_or(""), kind != 10.0, origin, 0, 0.0);
        }
    }
    out
}

/// One key of a bone channel group: how it tweens, where it sits and its (up to two) values.
#[derive(Clone, Copy)]
struct ChannelKey<'t> {
    tween: &'t dto::Tween,
    start: u32,
    len: u32,
    row: [f64; 2],
}

/// The keys of a 5.5 split x/y list (`translateFrame`, `scaleFrame`) into `keys`, each row
/// made by `row`.
fn xy_keys<'a>(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    name: &'static str,
    frames: &'a [dto::XyFrame],
    row: fn(&dto::XyFrame) -> [f64; 2],
    keys: &mut Vec<ChannelKey<'a>>,
) -> Result<(), LoadError> {
    let spans = f.spans_in(at, name, frames.iter().map(|fr| fr.duration))?;
    keys.clear();
    keys.extend(
        frames
            .iter()
            .zip(spans)
            .map(|(fr, (start, len))| ChannelKey {
                tween: &fr.tween,
                start,
                len,
                row: row(fr),
            }),
    );
    Ok(())
}

/// `groups` keys of a timeline's `n` frames in `keys`, group after group, each set to the
/// first frame's key until filled in.
fn key_groups<'a>(keys: &mut Vec<ChannelKey<'a>>, tween: &'a dto::Tween, groups: usize, n: usize) {
    let blank = ChannelKey {
        tween,
        start: 0,
        len: 0,
        row: [0.0; 2],
    };
    keys.clear();
    keys.resize(groups * n, blank);
}

/// A bone timeline's frames as translate, rotate, shear and scale timelines (each left out
/// when all its keys are the identity): the 4.x / 5.0 combined `frame` list, or 5.5's
/// `translateFrame`, `rotateFrame` and `scaleFrame` lists, each on its own key frames.
/// `keys` is room the caller lends for the key groups (kept from timeline to timeline: four
/// lists per timeline were a tenth of a 4.5 file's animation building in allocations).
fn bone_timelines<'a>(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    tl: &'a dto::BoneTimeline,
    spans: &[(u32, u32)],
    bone: usize,
    keys: &mut Vec<ChannelKey<'a>>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    let warp = f.warp(tl.scale, tl.offset);
    let mut push = |property, keys: &[ChannelKey<'_>], n: usize, identity: [f64; 2]| {
        channel_timeline(f, at, bone, property, keys, n, identity, warp, out)
    };
    if let Some(first) = tl.frame.first() {
        let n = tl.frame.len();
        key_groups(keys, &first.tween, 4, n);
        let mut unwrap = Unwrap::default();
        for (i, (fr, &(start, len))) in tl.frame.iter().zip(spans).enumerate() {
            let t = DbTransform::parse(&fr.transform);
            let rot = unwrap.next(start, t.rotation, fr.tween_rotate.or(0.0));
            let key = |row| ChannelKey {
                tween: &fr.tween,
                start,
                len,
                row,
            };
            keys[i] = key([t.x, flip(t.y)]);
            keys[n + i] = key([flip(rot.to_degrees()), 0.0]);
            keys[2 * n + i] = key([0.0, flip(t.skew.to_degrees())]);
            keys[3 * n + i] = key([t.scale_x, t.scale_y]);
        }
        let (tr, rest) = keys.split_at(n);
        let (ro, rest) = rest.split_at(n);
        let (sh, sc) = rest.split_at(n);
        push(BoneProperty::Translate, tr, 2, [0.0, 0.0])?;
        push(BoneProperty::Rotate, ro, 1, [0.0, 0.0])?;
        push(BoneProperty::Shear, sh, 2, [0.0, 0.0])?;
        return push(BoneProperty::Scale, sc, 2, [1.0, 1.0]);
    }
    if !tl.translate_frame.is_empty() {
        xy_keys(
            f,
            at,
            "translateFrame",
            &tl.translate_frame,
            |fr| [fr.x.or(0.0), flip(fr.y.or(0.0))],
            keys,
        )?;
        push(BoneProperty::Translate, keys, 2, [0.0, 0.0])?;
    }
    if let Some(first) = tl.rotate_frame.first() {
        let spans = f.spans_in(
            at,
            "rotateFrame",
            tl.rotate_frame.iter().map(|fr| fr.duration),
        )?;
        let mut unwrap = Unwrap::default();
        let n = tl.rotate_frame.len();
        key_groups(keys, &first.tween, 2, n);
        for (i, (fr, &(start, len))) in tl.rotate_frame.iter().zip(&spans).enumerate() {
            let (rot, skew) = match fr.radians {
                Some(r) => r,
                None => {
                    let rotation = normalize(fr.rotate.or(0.0).to_radians());
                    let rot = unwrap.next(start, rotation, fr.clockwise.or(0.0));
                    (rot, normalize(fr.skew.or(0.0).to_radians()))
                }
            };
            let key = |row| ChannelKey {
                tween: &fr.tween,
                start,
                len,
                row,
            };
            keys[i] = key([flip(rot.to_degrees()), 0.0]);
            keys[n + i] = key([0.0, flip(skew.to_degrees())]);
        }
        let (ro, sh) = keys.split_at(n);
        push(BoneProperty::Rotate, ro, 1, [0.0, 0.0])?;
        push(BoneProperty::Shear, sh, 2, [0.0, 0.0])?;
    }
    if !tl.scale_frame.is_empty() {
        xy_keys(
            f,
            at,
            "scaleFrame",
            &tl.scale_frame,
            |fr| [fr.x.or(1.0), fr.y.or(1.0)],
            keys,
        )?;
        push(BoneProperty::Scale, keys, 2, [1.0, 1.0])?;
    }
    Ok(())
}

/// Rotations unwrapped the runtime's way: the shortest way from the previous key unless that
/// key asks for extra turns (4.x `tweenRotate`, 5.5 `clockwise`).
#[derive(Default)]
struct Unwrap {
    prev: f64,
    turns: f64,
}

impl Unwrap {
    /// The unwrapped rotation (radians) of a key at frame `start`; `turns` is the key's own
    /// request for the tween that leaves it.
    fn next(&mut self, start: u32, rotation: f64, turns: f64) -> f64 {
        let mut rot = rotation;
        if start != 0 {
            if self.turns == 0.0 {
                rot = self.prev + normalize(rot - self.prev);
            } else {
                let passed = if self.turns > 0.0 {
                    rot >= self.prev
                } else {
                    rot <= self.prev
                };
                if passed {
                    self.turns -= self.turns.signum();
                }
                rot = self.prev + (rot - self.prev) + std::f64::consts::TAU * self.turns;
            }
        }
        self.turns = if turns.is_finite() {
            turns.trunc()
        } else {
            0.0
        };
        self.prev = rot;
        rot
    }
}

/// One bone timeline of `n` channels from `keys`, left out when every key is `identity`.
#[allow(clippy::too_many_arguments)]
fn channel_timeline(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    bone: usize,
    property: BoneProperty,
    keys_in: &[ChannelKey<'_>],
    n: usize,
    identity: [f64; 2],
    warp: Option<TimeWarp>,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    if keys_in.iter().all(|k| k.row[..n] == identity[..n]) {
        return Ok(());
    }
    // One more key than frames: a looping timeline's closing key.
    let mut keys = Keys::with_capacity(n, keys_in.len() + 1, 0);
    let row = |k: &ChannelKey<'_>| [k.row[0] as f32, k.row[1] as f32];
    for k in keys_in {
        f.cx.spend(k.len as usize * 4, at)?;
        let interp = tween::interp(k.tween, k.len, &mut keys, &mut f.curves.borrow_mut());
        keys.push(f.time(k.start), &row(k)[..n], interp);
    }
    let first = keys_in.first().map(row).unwrap_or_default();
    f.close_wrap(keys_in.len(), &mut keys, &first[..n]);
    keys.set_warp(warp);
    out.push(Timeline::Bone(BoneTimeline {
        bone,
        property,
        keys,
        shortest: false,
    }));
    Ok(())
}

/// A slot display key frame: its start and display index.
type DisplayKey = (u32, f64);

/// A slot color key frame (no color: the identity).
struct ColorKey<'t> {
    tween: &'t dto::Tween,
    start: u32,
    len: u32,
    color: Option<&'t dto::ColorTransform>,
}

/// Display-index keys as an attachment timeline, left out when every key shows the setup
/// display.
fn slot_display(
    f: &Frame<'_>,
    keys: &[DisplayKey],
    slot: usize,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) {
    let name = |&(_, index): &DisplayKey| display_name(data, slot, index);
    // Compared before anything is copied: most slot timelines only key colors.
    let setup = data.slots[slot].attachment.as_deref();
    if keys.iter().any(|k| name(k) != setup) {
        out.push(Timeline::Attachment(AttachmentTimeline::new(
            slot,
            keys.iter().map(|&(s, _)| f.time(s)).collect(),
            keys.iter().map(|k| name(k).map(str::to_string)).collect(),
        )));
    }
}

/// Color keys as a color timeline of multipliers and offsets (the value replaces the setup
/// color; a key without one is the identity).
fn slot_color(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    keys_in: &[ColorKey<'_>],
    tl: &dto::SlotTimeline,
    slot: usize,
    data: &SkeletonData,
    out: &mut Vec<Timeline>,
) -> Result<(), LoadError> {
    // Identity colors over an identity setup color change nothing: left out (exporters
    // write them for every slot key, `.dbbin` ones always).
    let setup = &data.slots[slot];
    let clear = crate::core::color::Color::rgba(0.0, 0.0, 0.0, 0.0);
    let plain =
        setup.color == crate::core::color::Color::WHITE && setup.offset.is_none_or(|o| o == clear);
    let identity = (crate::core::color::Color::WHITE, clear);
    if plain && keys_in.iter().all(|k| color(k.color) == identity) {
        return Ok(());
    }
    let mut keys = Keys::with_capacity(8, keys_in.len() + 1, 0);
    let mut first = [0f32; 8];
    for (k, key) in keys_in.iter().enumerate() {
        f.cx.spend(key.len as usize * 4, at)?;
        let interp = tween::interp(key.tween, key.len, &mut keys, &mut f.curves.borrow_mut());
        let (m, o) = color(key.color);
        // The runtime keeps whole percents and whole offset units.
        let pct = |v: f64| ((v * 100.0).round() / 100.0) as f32;
        let unit = |v: f64| ((v * 255.0).round() / 255.0) as f32;
        let row = [
            pct(m.r),
            pct(m.g),
            pct(m.b),
            pct(m.a),
            unit(o.r),
            unit(o.g),
            unit(o.b),
            unit(o.a),
        ];
        if k == 0 {
            first = row;
        }
        keys.push(f.time(key.start), &row, interp);
    }
    f.close_wrap(keys_in.len(), &mut keys, &first);
    keys.set_warp(f.warp(tl.scale, tl.offset));
    out.push(Timeline::Color(ColorTimeline {
        slot,
        kind: ColorKind::Color,
        keys,
    }));
    Ok(())
}

/// An FFD timeline as a deform timeline: offsets become absolute bone-space positions for
/// plain meshes, per-influence bind-space offsets for skinned ones.
fn ffd_timeline(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    tl: &dto::FfdTimeline,
    spaces: &HashMap<AttachmentId, DeformSpace>,
    data: &SkeletonData,
) -> Result<Timeline, LoadError> {
    let cx = f.cx;
    let skin_name = match tl.skin.as_deref() {
        None | Some("") => "default",
        Some(s) => s,
    };
    let slot_name = tl.slot.as_deref().unwrap_or("");
    let display = tl.name.as_deref().unwrap_or("");
    let skin = data.find_skin(skin_name).ok_or_else(|| {
        cx.err(
            &join(at, &[Key("skin")]),
            format!("unknown skin \"{skin_name}\""),
        )
        .with_kind(ErrorKind::DanglingReference)
    })?;
    let slot = data.find_slot(slot_name).ok_or_else(|| {
        cx.err(
            &join(at, &[Key("slot")]),
            format!("unknown slot \"{slot_name}\""),
        )
        .with_kind(ErrorKind::DanglingReference)
    })?;
    let attachment = data.skins[skin].get(slot, display).ok_or_else(|| {
        cx.err(
            &join(at, &[Key("name")]),
            format!("skin \"{skin_name}\" has no display \"{display}\" in slot \"{slot_name}\""),
        )
    })?;
    let AttachmentKind::Mesh(mesh) = &data.attachments[attachment].kind else {
        return Err(cx.err(
            &join(at, &[Key("name")]),
            format!("display \"{display}\" is not a mesh"),
        ));
    };
    let space = spaces.get(&attachment).ok_or_else(|| {
        cx.err(
            &join(at, &[Key("name")]),
            format!("display \"{display}\" is not a mesh"),
        )
    })?;
    let n2 = mesh.vertices.vertex_count() * 2;
    let per_key = match space {
        DeformSpace::Skinned(b) => b.len(),
        DeformSpace::Plain(_) => n2,
    };
    let spans = f.spans(at, tl.frame.iter().map(|fr| fr.duration))?;
    let mut keys = Keys::with_capacity(0, tl.frame.len() + 1, 0);
    let mut arrays: Vec<Vec<f32>> = Vec::with_capacity(tl.frame.len() + 1);
    for (k, (fr, &(start, len))) in tl.frame.iter().zip(&spans).enumerate() {
        let fat = join(at, &[Key("frame"), Index(k)]);
        cx.spend((per_key + n2 + len as usize) * 8, &fat)?;
        let offset = fr.offset.or(0.0);
        if !(0.0..=n2 as f64).contains(&offset) {
            return Err(cx.err(
                &join(&fat, &[Key("offset")]),
                format!("offset {offset} is past the mesh's {n2} vertex numbers"),
            ));
        }
        let mut full = vec![0.0f64; n2];
        for (j, &v) in fr.vertices.iter().enumerate() {
            if let Some(slot) = full.get_mut(offset as usize + j) {
                *slot = v;
            }
        }
        let arr = match (space, &fr.influences) {
            (DeformSpace::Skinned(b), Some(inf)) => {
                if inf.len() != b.len() {
                    return Err(cx.err(
                        &fat,
                        format!(
                            "{} deform numbers for a mesh of {} influence numbers",
                            inf.len(),
                            b.len()
                        ),
                    ));
                }
                inf.chunks_exact(2)
                    .flat_map(|p| [p[0] as f32, flip(p[1]) as f32])
                    .collect()
            }
            (DeformSpace::Skinned(b), None) => b.offsets(&full),
            (DeformSpace::Plain(m), _) => (0..n2 / 2)
                .flat_map(|v| {
                    let (dx, dy) = m.apply_delta(full[v * 2], full[v * 2 + 1]);
                    let base = &mesh.vertices.vertices;
                    [base[v * 2] + dx as f32, base[v * 2 + 1] + flip(dy) as f32]
                })
                .collect(),
        };
        let interp = tween::interp(&fr.tween, len, &mut keys, &mut f.curves.borrow_mut());
        keys.push(f.time(start), &[], interp);
        arrays.push(arr);
    }
    if f.close_wrap(spans.len(), &mut keys, &[]) {
        arrays.push(arrays[0].clone());
    }
    keys.set_warp(f.warp(tl.scale, tl.offset));
    Ok(Timeline::Deform(DeformTimeline {
        slot,
        attachment,
        keys,
        vertices: arrays,
    }))
}

/// A 5.6 surface timeline: per key frame, offsets (from `offset` on, the rest 0) of the
/// surface bone's lattice vertices, tweened as FFD frames are.
fn surface_timeline(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    tl: &dto::FfdTimeline,
    data: &SkeletonData,
) -> Result<Timeline, LoadError> {
    let cx = f.cx;
    let (bone, name) = target(cx, at, &tl.name, "bone", |n| data.find_bone(n))?;
    let Some(lattice) = data.bones[bone].lattice.as_deref() else {
        return Err(cx.err(
            &join(at, &[Key("name")]),
            format!("bone \"{name}\" is not a surface"),
        ));
    };
    let n2 = lattice.vertices.len();
    let spans = f.spans(at, tl.frame.iter().map(|fr| fr.duration))?;
    let mut keys = Keys::with_capacity(0, tl.frame.len() + 1, 0);
    let mut arrays: Vec<Vec<f32>> = Vec::with_capacity(tl.frame.len() + 1);
    for (k, (fr, &(start, len))) in tl.frame.iter().zip(&spans).enumerate() {
        let fat = join(at, &[Key("frame"), Index(k)]);
        cx.spend((n2 + len as usize) * 8, &fat)?;
        let offset = fr.offset.or(0.0);
        if !(0.0..=n2 as f64).contains(&offset) {
            return Err(cx.err(
                &join(&fat, &[Key("offset")]),
                format!("offset {offset} is past the lattice's {n2} vertex numbers"),
            ));
        }
        let mut full = vec![0.0f32; n2];
        for (j, &v) in fr.vertices.iter().enumerate() {
            let i = offset as usize + j;
            if let Some(slot) = full.get_mut(i) {
                // Odd positions are y offsets: y down in the file, up in the core.
                *slot = if i % 2 == 1 { flip(v) } else { v } as f32;
            }
        }
        let interp = tween::interp(&fr.tween, len, &mut keys, &mut f.curves.borrow_mut());
        keys.push(f.time(start), &[], interp);
        arrays.push(full);
    }
    if f.close_wrap(spans.len(), &mut keys, &[]) {
        arrays.push(arrays[0].clone());
    }
    keys.set_warp(f.warp(tl.scale, tl.offset));
    Ok(Timeline::Lattice(LatticeTimeline {
        bone,
        keys,
        vertices: arrays,
    }))
}

/// An IK timeline: `weight` is the constraint's mix, tweened; `bendPositive` (default true)
/// holds until the next key frame.
fn ik_timeline(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    tl: &dto::IkTimeline,
    data: &SkeletonData,
) -> Result<Timeline, LoadError> {
    let cx = f.cx;
    let name = tl.name.as_deref().unwrap_or("");
    let constraint = data
        .ik_constraints
        .iter()
        .position(|c| c.name == name)
        .ok_or_else(|| {
            cx.err(
                &join(at, &[Key("name")]),
                format!("unknown IK constraint \"{name}\""),
            )
            .with_kind(ErrorKind::DanglingReference)
        })?;
    let spans = f.spans(at, tl.frame.iter().map(|fr| fr.duration))?;
    let mut keys = Keys::with_capacity(5, tl.frame.len() + 1, 0);
    let mut first = [0f32; 5];
    for (k, (fr, &(start, len))) in tl.frame.iter().zip(&spans).enumerate() {
        cx.spend(len as usize * 4, at)?;
        let interp = tween::interp(&fr.tween, len, &mut keys, &mut f.curves.borrow_mut());
        // Bend directions are mirrored by the y flip, as for the setup pose.
        let bend = if fr.bend_positive.or(true) { -1.0 } else { 1.0 };
        let row = [fr.weight.or(1.0) as f32, 0.0, bend, 0.0, 0.0];
        if k == 0 {
            first = row;
        }
        keys.push(f.time(start), &row, interp);
    }
    f.close_wrap(spans.len(), &mut keys, &first);
    keys.set_warp(f.warp(tl.scale, tl.offset));
    Ok(Timeline::Ik(IkTimeline { constraint, keys }))
}

/// A zOrder timeline: each key moves listed slots `offset` places from their setup position,
/// the others keep their relative order.
fn z_order_timeline(
    f: &Frame<'_>,
    at: &[Seg<'_>],
    z: &dto::ZOrderTimeline,
    slots: usize,
) -> Result<Timeline, LoadError> {
    let cx = f.cx;
    let spans = f.spans(at, z.frame.iter().map(|fr| fr.duration))?;
    let mut times = Vec::with_capacity(spans.len());
    let mut orders = Vec::with_capacity(spans.len());
    for (k, (fr, &(start, _))) in z.frame.iter().zip(&spans).enumerate() {
        let zat = join(at, &[Key("frame"), Index(k), Key("zOrder")]);
        times.push(f.time(start));
        if let Some(order) = &fr.order {
            orders.push(Some(order.clone()));
            continue;
        }
        if fr.z_order.is_empty() {
            orders.push(None);
            continue;
        }
        cx.spend(slots * 24, &zat)?;
        orders.push(Some(
            offsets_to_order(&fr.z_order, slots)
                .map_err(|(i, m)| cx.err(&join(&zat, &[Index(i)]), m))?,
        ));
    }
    Ok(Timeline::DrawOrder(DrawOrderTimeline { times, orders }))
}

/// Applies `[slot, offset, ...]` pairs to the setup order: listed slots move `offset` places,
/// the others fill the remaining places in their setup order. Errors give the pair's index.
///
/// Exporters sometimes write offsets that move a slot outside the draw order, or two slots
/// onto one place. The runtime then drops that placement: such a slot keeps its setup
/// position as its sort key, and places nobody fills stay empty. Sorting every slot by its
/// key (ties by slot index) reproduces the order it shows.
fn offsets_to_order(pairs: &[i64], slots: usize) -> Result<Vec<usize>, (usize, String)> {
    if !pairs.len().is_multiple_of(2) {
        return Err((pairs.len() - 1, "zOrder must be slot, offset pairs".into()));
    }
    let mut place: Vec<Option<usize>> = vec![None; slots];
    let mut unchanged = Vec::with_capacity(slots);
    let mut original = 0usize;
    for (p, pair) in pairs.chunks_exact(2).enumerate() {
        let (slot, offset) = (pair[0], pair[1]);
        if slot < 0 || slot as usize >= slots || (slot as usize) < original {
            return Err((
                p * 2,
                format!("slot index {slot} is out of range or out of order"),
            ));
        }
        while original != slot as usize {
            unchanged.push(original);
            original += 1;
        }
        let to = original as i64 + offset;
        if (0..slots as i64).contains(&to) {
            place[to as usize] = Some(original);
        }
        original += 1;
    }
    unchanged.extend(original..slots);
    for p in place.iter_mut().rev() {
        if p.is_none() {
            *p = unchanged.pop();
        }
    }
    let mut key: Vec<usize> = (0..slots).collect();
    for (pos, slot) in place.iter().enumerate() {
        if let Some(s) = *slot {
            key[s] = pos;
        }
    }
    let mut order: Vec<usize> = (0..slots).collect();
    order.sort_by_key(|&s| (key[s], s));
    Ok(order)
}

#[cfg(test)]
mod tests {
    use super::offsets_to_order;

    #[test]
    fn z_order_offsets_move_slots_and_keep_the_rest() {
        assert_eq!(offsets_to_order(&[0, 2], 4).unwrap(), vec![1, 2, 0, 3]);
        assert_eq!(offsets_to_order(&[3, -3], 4).unwrap(), vec![3, 0, 1, 2]);
        assert_eq!(offsets_to_order(&[], 3).unwrap(), vec![0, 1, 2]);
        assert!(offsets_to_order(&[5, 0], 3).is_err());
        assert!(offsets_to_order(&[2, 0, 1, 0], 3).is_err());
        assert!(offsets_to_order(&[0], 3).is_err());
    }

    #[test]
    fn placements_outside_the_order_are_dropped() {
        // Slot 2 would move to -1: it keeps its setup key (2), and the place it left is
        // filled by nobody (only slots 0 and 1 are "unchanged" for three places).
        assert_eq!(offsets_to_order(&[2, -3], 3).unwrap(), vec![0, 1, 2]);
        // Slot 0 to place 2, slot 1 dropped: keys 0 -> 2, 1 -> 1, 2 -> 1.
        assert_eq!(offsets_to_order(&[0, 2, 1, -5], 3).unwrap(), vec![1, 2, 0]);
    }
}
