//! Animation timelines of a `.dbbin`, read back into the 5.5 JSON structures.
//!
//! The header maps each bone or slot to `[type, timeline, ...]` pairs. A timeline (in the
//! timeline array) is: scale x100, offset x100, key frame count, values per frame, first value
//! (relative to the animation's value offset), then each key frame's place in the frame array
//! (relative to the animation's frame offset). A key frame there is its position in frames,
//! then for tweened timelines the tween type (0 none, 1 linear, 2 curve, 3-5 quad in / out /
//! in-out) followed by the sample count and samples x10000 (curve) or the strength x100
//! (quad); a display key frame holds the display index instead of a tween type.

use super::super::ctx::{Ctx, join};
use super::super::dto;
use super::super::lenient::Num;
use super::arrays::Arrays;
use crate::format::LoadError;
use crate::format::json::Seg::{self, Key};

/// Bone timeline types.
const BONE_ALL: f64 = 10.0;
const BONE_TRANSLATE: f64 = 11.0;
const BONE_ROTATE: f64 = 12.0;
const BONE_SCALE: f64 = 13.0;
/// Slot timeline types.
const SLOT_DISPLAY: f64 = 20.0;
const SLOT_COLOR: f64 = 21.0;
const SLOT_DEFORM: f64 = 22.0;
/// Constraint timeline type.
const IK: f64 = 30.0;

/// What the animation timelines of one armature refer to besides the arrays.
pub struct Armature<'a> {
    pub skins: &'a [dto::Skin],
    pub slots: usize,
    pub actions: &'a [dto::BinAction],
}

/// Where an animation's data starts in the frame arrays.
#[derive(Clone, Copy)]
pub(super) struct Base {
    pub frame_int: usize,
    pub frame_float: usize,
    pub frame: usize,
}

/// One timeline's header.
pub(super) struct Head {
    pub scale: Num,
    pub offset: Num,
    pub values: usize,
    pub first_value: usize,
    /// Frame-array index of each key frame.
    pub frames: Vec<usize>,
}

/// A key frame: its position and what follows in the frame array.
pub(super) struct Key1 {
    pub position: i64,
    /// Index of the word after the position.
    pub rest: usize,
}

/// Replaces the binary references of `anim` with timelines. Kinds this reader does not know
/// are left out and named in `warnings`.
pub fn read(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    anim: &mut dto::Animation,
    arm: &Armature<'_>,
    arrays: &Arrays,
    warnings: &mut Vec<String>,
) -> Result<(), LoadError> {
    let name = anim.name.clone().unwrap_or_default();
    let oat = join(at, &[Key("offset")]);
    let base = |k: usize| -> Result<usize, LoadError> {
        match anim.offset.get(k) {
            None => Ok(0),
            Some(&v) if v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f64 => Ok(v as usize),
            Some(v) => Err(cx.err(&oat, format!("offset {v} is not an array index"))),
        }
    };
    let b = Base {
        frame_int: base(0)?,
        frame_float: base(1)?,
        frame: base(2)?,
    };
    if let dto::Tracks::Refs(refs) = &anim.bone {
        let mut out = Vec::with_capacity(refs.len());
        for (bone, r) in refs {
            let tat = join(at, &[Key("bone"), Key(bone)]);
            let mut tl = dto::BoneTimeline {
                name: Some(bone.as_str().into()),
                ..Default::default()
            };
            for (kind, k) in pairs(cx, &tat, r)? {
                let head = head(arrays, b, k)?;
                tl.scale = head.scale;
                tl.offset = head.offset;
                let keys = keys(arrays, &head)?;
                match kind {
                    BONE_ALL => bone_all(arrays, b, &head, &keys, &mut tl)?,
                    BONE_TRANSLATE | BONE_SCALE => {
                        let (dx, dy) = if kind == BONE_SCALE {
                            (1.0, 1.0)
                        } else {
                            (0.0, 0.0)
                        };
                        let mut frames = Vec::with_capacity(keys.len());
                        for (j, key) in keys.iter().enumerate() {
                            let v = values(arrays, b, &head, j, 2)?;
                            frames.push(dto::XyFrame {
                                duration: duration(&keys, j),
                                tween: tween(arrays, key)?,
                                x: Num(Some(v.first().copied().unwrap_or(dx))),
                                y: Num(Some(v.get(1).copied().unwrap_or(dy))),
                            });
                        }
                        if kind == BONE_SCALE {
                            tl.scale_frame = frames;
                        } else {
                            tl.translate_frame = frames;
                        }
                    }
                    BONE_ROTATE => {
                        let mut frames = Vec::with_capacity(keys.len());
                        for (j, key) in keys.iter().enumerate() {
                            let v = values(arrays, b, &head, j, 2)?;
                            let (r, s) = (v[0], v[1]);
                            frames.push(dto::RotateFrame {
                                duration: duration(&keys, j),
                                tween: tween(arrays, key)?,
                                rotate: Num(Some(r.to_degrees())),
                                skew: Num(Some(s.to_degrees())),
                                radians: Some((r, s)),
                                ..Default::default()
                            });
                        }
                        tl.rotate_frame = frames;
                    }
                    other => warnings.push(format!(
                        "animation \"{name}\": bone \"{bone}\" timeline type {other} is not read"
                    )),
                }
            }
            out.push(tl);
        }
        anim.bone = dto::Tracks::List(out);
    }
    let mut ffd = Vec::new();
    if let dto::Tracks::Refs(refs) = &anim.slot {
        let mut out = Vec::with_capacity(refs.len());
        for (slot, r) in refs {
            let tat = join(at, &[Key("slot"), Key(slot)]);
            let mut tl = dto::SlotTimeline {
                name: Some(slot.as_str().into()),
                ..Default::default()
            };
            for (kind, k) in pairs(cx, &tat, r)? {
                let head = head(arrays, b, k)?;
                let keys = keys(arrays, &head)?;
                match kind {
                    SLOT_DISPLAY => {
                        for (j, key) in keys.iter().enumerate() {
                            tl.display_frame.push(dto::DisplayFrame {
                                duration: duration(&keys, j),
                                value: Num(Some(arrays.frame.at(key.rest)? as f64)),
                                ..Default::default()
                            });
                        }
                    }
                    SLOT_COLOR => {
                        for (j, key) in keys.iter().enumerate() {
                            let vi = b.frame_int + head.first_value + j * head.values;
                            let ci = arrays.frame_int.at(vi)?;
                            let ci = usize::try_from(ci).map_err(|_| {
                                arrays
                                    .frame_int
                                    .err(vi, format!("color index {ci} is negative"))
                            })?;
                            let c = arrays.int.slice(ci, 8)?;
                            let n = |k: usize| Num(Some(c[k] as f64));
                            tl.color_frame.push(dto::ColorFrame {
                                duration: duration(&keys, j),
                                tween: tween(arrays, key)?,
                                value: Some(dto::ColorTransform {
                                    a_m: n(0),
                                    r_m: n(1),
                                    g_m: n(2),
                                    b_m: n(3),
                                    a_o: n(4),
                                    r_o: n(5),
                                    g_o: n(6),
                                    b_o: n(7),
                                }),
                                color: None,
                            });
                        }
                    }
                    SLOT_DEFORM => {
                        ffd.push(super::deform::timeline(arrays, b, &head, &keys, arm, slot)?)
                    }
                    other => warnings.push(format!(
                        "animation \"{name}\": slot \"{slot}\" timeline type {other} is not read"
                    )),
                }
            }
            out.push(tl);
        }
        anim.slot = dto::Tracks::List(out);
    }
    anim.ffd.extend(ffd);
    if let dto::Tracks::Refs(refs) = &anim.constraint {
        for (ik, r) in refs {
            let tat = join(at, &[Key("constraint"), Key(ik)]);
            for (kind, k) in pairs(cx, &tat, r)? {
                if kind != IK {
                    warnings.push(format!(
                        "animation \"{name}\": constraint \"{ik}\" timeline type {kind} is not read"
                    ));
                    continue;
                }
                let head = head(arrays, b, k)?;
                let keys = keys(arrays, &head)?;
                anim.ik
                    .push(super::constraint::ik(arrays, b, &head, &keys, ik)?);
            }
        }
        anim.constraint = dto::Tracks::List(Vec::new());
    }
    if let Some(z) = &mut anim.z_order
        && let Some(k) = z.binary.take()
    {
        let k = index(cx, &join(at, &[Key("zOrder")]), k)?;
        let head = head(arrays, b, k)?;
        let keys = keys(arrays, &head)?;
        z.frame = super::animation_level::z_order(arrays, &keys, arm.slots)?;
    }
    if let Some(k) = anim.action.0.take() {
        let k = index(cx, &join(at, &[Key("action")]), k)?;
        let head = head(arrays, b, k)?;
        let keys = keys(arrays, &head)?;
        anim.frame = super::animation_level::actions(arrays, &keys, arm.actions)?;
    }
    Ok(())
}

/// A header number that must be an array index.
fn index(cx: &Ctx<'_>, at: &[Seg<'_>], k: f64) -> Result<usize, LoadError> {
    if k >= 0.0 && k.fract() == 0.0 && k <= u32::MAX as f64 {
        Ok(k as usize)
    } else {
        Err(cx.err(at, format!("timeline offset {k} is not an array index")))
    }
}

/// `[type, timeline, ...]` as pairs with the timeline as an index.
pub(super) fn pairs(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    r: &[f64],
) -> Result<Vec<(f64, usize)>, LoadError> {
    if !r.len().is_multiple_of(2) {
        return Err(cx.err(at, "timeline references must be type, offset pairs"));
    }
    r.chunks_exact(2)
        .map(|p| {
            let k = p[1];
            if k >= 0.0 && k.fract() == 0.0 && k <= u32::MAX as f64 {
                Ok((p[0], k as usize))
            } else {
                Err(cx.err(at, format!("timeline offset {k} is not an array index")))
            }
        })
        .collect()
}

pub(super) fn head(arrays: &Arrays, b: Base, k: usize) -> Result<Head, LoadError> {
    let t = &arrays.timeline;
    let hundredths = |v: u16| Num(Some(v as f64 / 100.0));
    let n = t.at(k + 2)? as usize;
    let frames = t
        .slice(k + 5, n)?
        .iter()
        .map(|&f| b.frame + f as usize)
        .collect();
    Ok(Head {
        scale: hundredths(t.at(k)?),
        offset: hundredths(t.at(k + 1)?),
        values: t.at(k + 3)? as usize,
        first_value: t.at(k + 4)? as usize,
        frames,
    })
}

pub(super) fn keys(arrays: &Arrays, head: &Head) -> Result<Vec<Key1>, LoadError> {
    let mut out: Vec<Key1> = Vec::with_capacity(head.frames.len());
    for &p in &head.frames {
        let position = arrays.frame.at(p)? as i64;
        if let Some(prev) = out.last()
            && position < prev.position
        {
            return Err(arrays.frame.err(
                p,
                format!("key frame at {position} comes before the previous one"),
            ));
        }
        if position < 0 {
            return Err(arrays
                .frame
                .err(p, format!("key frame position {position} is negative")));
        }
        out.push(Key1 {
            position,
            rest: p + 1,
        });
    }
    Ok(out)
}

/// Key frame `j`'s length in frames (the last one's is set by the builder).
pub(super) fn duration(keys: &[Key1], j: usize) -> Num {
    match keys.get(j + 1) {
        Some(next) => Num(Some((next.position - keys[j].position) as f64)),
        None => Num(Some(0.0)),
    }
}

/// `count` floats of key frame `j`.
fn values(
    arrays: &Arrays,
    b: Base,
    head: &Head,
    j: usize,
    count: usize,
) -> Result<Vec<f64>, LoadError> {
    let i = b.frame_float + head.first_value + j * head.values;
    Ok(arrays
        .frame_float
        .slice(i, count)?
        .iter()
        .map(|&v| v as f64)
        .collect())
}

/// How key frame `key` tweens.
pub(super) fn tween(arrays: &Arrays, key: &Key1) -> Result<dto::Tween, LoadError> {
    let f = &arrays.frame;
    let kind = f.at(key.rest)?;
    let mut t = dto::Tween::default();
    match kind {
        0 => {}
        1 => t.tween_easing = Num(Some(0.0)),
        2 => {
            let n = f.at(key.rest + 1)?;
            let n = usize::try_from(n)
                .map_err(|_| f.err(key.rest + 1, format!("sample count {n} is negative")))?;
            t.samples = Some(
                f.slice(key.rest + 2, n)?
                    .iter()
                    .map(|&v| v as f32 / 10000.0)
                    .collect(),
            );
        }
        3..=5 => {
            let k = f.at(key.rest + 1)? as f64 / 100.0;
            t.tween_easing = Num(Some(match kind {
                3 => -k,
                4 => k,
                _ => 1.0 + k,
            }));
        }
        other => return Err(f.err(key.rest, format!("unknown tween type {other}"))),
    }
    Ok(t)
}

/// A 5.0 combined bone timeline (x, y, rotation, skew, scale x, scale y per key frame) as the
/// three 5.5 lists on the same key frames.
fn bone_all(
    arrays: &Arrays,
    b: Base,
    head: &Head,
    keys: &[Key1],
    tl: &mut dto::BoneTimeline,
) -> Result<(), LoadError> {
    for (j, key) in keys.iter().enumerate() {
        let v = values(arrays, b, head, j, 6)?;
        let d = duration(keys, j);
        let n = |k: usize| Num(Some(v[k]));
        tl.translate_frame.push(dto::XyFrame {
            duration: d,
            tween: tween(arrays, key)?,
            x: n(0),
            y: n(1),
        });
        tl.rotate_frame.push(dto::RotateFrame {
            duration: d,
            tween: tween(arrays, key)?,
            rotate: Num(Some(v[2].to_degrees())),
            skew: Num(Some(v[3].to_degrees())),
            radians: Some((v[2], v[3])),
            ..Default::default()
        });
        tl.scale_frame.push(dto::XyFrame {
            duration: d,
            tween: tween(arrays, key)?,
            x: n(4),
            y: n(5),
        });
    }
    Ok(())
}
