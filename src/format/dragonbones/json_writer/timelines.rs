//! An animation's bone and slot timelines (read from a `.dbbin` into the 5.5 structures) as
//! 5.5 JSON lists: `translateFrame`, `rotateFrame`, `scaleFrame`, `displayFrame`,
//! `colorFrame`, each key frame with its `duration` and tween.

use super::super::dto;
use super::super::lenient::Num;
use super::{curve, num, rotation};
use crate::format::json::SmallKey;
use serde_json::{Map, Value};

/// The `bone` list of `anim`; `count` is the animation's length in frames.
pub fn bones(anim: &dto::Animation, count: u32) -> Value {
    let list = anim.bone.list().iter().map(|tl| {
        let mut o = head(&tl.name, tl.scale, tl.offset);
        let xy = |frames: &[dto::XyFrame], default: f64| {
            let lens = lengths(frames.iter().map(|f| f.duration), count);
            let list = frames.iter().zip(&lens).map(|(f, &len)| {
                let mut k = key(len, Some((&f.tween, len)));
                k.insert("x".into(), num(f.x.or(default)));
                k.insert("y".into(), num(f.y.or(default)));
                Value::Object(k)
            });
            Value::Array(list.collect())
        };
        if !tl.translate_frame.is_empty() {
            o.insert("translateFrame".into(), xy(&tl.translate_frame, 0.0));
        }
        if !tl.rotate_frame.is_empty() {
            o.insert("rotateFrame".into(), rotate(&tl.rotate_frame, count));
        }
        if !tl.scale_frame.is_empty() {
            o.insert("scaleFrame".into(), xy(&tl.scale_frame, 1.0));
        }
        Value::Object(o)
    });
    Value::Array(list.collect())
}

/// The `slot` list of `anim`; `count` is the animation's length in frames.
pub fn slots(anim: &dto::Animation, count: u32) -> Value {
    let list = anim.slot.list().iter().map(|tl| {
        let mut o = head(&tl.name, tl.scale, tl.offset);
        if !tl.display_frame.is_empty() {
            let frames = &tl.display_frame;
            let lens = lengths(frames.iter().map(|f| f.duration), count);
            let list = frames.iter().zip(&lens).map(|(f, &len)| {
                let mut k = key(len, None);
                k.insert("value".into(), num(f.value.or(0.0)));
                Value::Object(k)
            });
            o.insert("displayFrame".into(), Value::Array(list.collect()));
        }
        if !tl.color_frame.is_empty() {
            let frames = &tl.color_frame;
            let lens = lengths(frames.iter().map(|f| f.duration), count);
            let list = frames.iter().zip(&lens).map(|(f, &len)| {
                let mut k = key(len, Some((&f.tween, len)));
                if let Some(c) = f.value.as_ref().or(f.color.as_ref()) {
                    k.insert("value".into(), color(c));
                }
                Value::Object(k)
            });
            o.insert("colorFrame".into(), Value::Array(list.collect()));
        }
        Value::Object(o)
    });
    Value::Array(list.collect())
}

/// A timeline's name and (when they change anything) its time scale and offset.
fn head(name: &Option<SmallKey>, scale: Num, offset: Num) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert(
        "name".into(),
        Value::from(name.as_deref().unwrap_or_default()),
    );
    if let Some(s) = scale.0.filter(|&s| s != 1.0) {
        o.insert("scale".into(), num(s));
    }
    if let Some(v) = offset.0.filter(|&v| v != 0.0) {
        o.insert("offset".into(), num(v));
    }
    o
}

/// The frame lengths of key frames with `durations`; the last runs to the animation's end
/// (a `.dbbin` does not store it).
fn lengths(durations: impl ExactSizeIterator<Item = Num>, count: u32) -> Vec<u32> {
    let n = durations.len();
    let mut out = Vec::with_capacity(n);
    let mut start = 0u32;
    for (i, d) in durations.enumerate() {
        let len = if i + 1 == n {
            count.saturating_sub(start)
        } else {
            // The binary reader made these from key positions: whole and in range.
            d.or(1.0).max(0.0).min(u32::MAX as f64) as u32
        };
        out.push(len);
        start = start.saturating_add(len);
    }
    out
}

/// A key frame object with its duration and, for tweened timelines, its tween.
fn key(len: u32, tween: Option<(&dto::Tween, u32)>) -> Map<String, Value> {
    let mut k = Map::new();
    k.insert("duration".into(), Value::from(len));
    let Some((t, len)) = tween else {
        return k;
    };
    if let Some(s) = &t.samples {
        if len > 0 {
            let c = curve::chain(s, len);
            k.insert(
                "curve".into(),
                Value::Array(c.into_iter().map(num).collect()),
            );
        }
    } else if let Some(c) = &t.curve {
        k.insert(
            "curve".into(),
            Value::Array(c.iter().map(|&v| num(v)).collect()),
        );
    } else if let Some(e) = t.tween_easing.0 {
        k.insert("tweenEasing".into(), num(e));
    }
    k
}

/// `rotateFrame`: rotation and skew in degrees, with the turns the binary's unwrapped values
/// hold as `clockwise`.
fn rotate(frames: &[dto::RotateFrame], count: u32) -> Value {
    let lens = lengths(frames.iter().map(|f| f.duration), count);
    let mut starts = Vec::with_capacity(lens.len());
    let mut start = 0u32;
    for &l in &lens {
        starts.push(start);
        start = start.saturating_add(l);
    }
    let radians: Vec<(f64, f64)> = frames
        .iter()
        .map(|f| {
            f.radians
                .unwrap_or((f.rotate.or(0.0).to_radians(), f.skew.or(0.0).to_radians()))
        })
        .collect();
    let rot: Vec<f64> = radians.iter().map(|r| r.0).collect();
    let cw = rotation::clockwise(&rot, &starts);
    let list = frames.iter().enumerate().map(|(j, f)| {
        let mut k = key(lens[j], Some((&f.tween, lens[j])));
        k.insert("rotate".into(), num(radians[j].0.to_degrees()));
        k.insert("skew".into(), num(radians[j].1.to_degrees()));
        if cw[j] != 0.0 {
            k.insert("clockwise".into(), num(cw[j]));
        }
        Value::Object(k)
    });
    Value::Array(list.collect())
}

fn color(c: &dto::ColorTransform) -> Value {
    let mut o = Map::new();
    for (name, v, default) in [
        ("aM", c.a_m, 100.0),
        ("rM", c.r_m, 100.0),
        ("gM", c.g_m, 100.0),
        ("bM", c.b_m, 100.0),
        ("aO", c.a_o, 0.0),
        ("rO", c.r_o, 0.0),
        ("gO", c.g_o, 0.0),
        ("bO", c.b_o, 0.0),
    ] {
        o.insert(name.into(), num(v.or(default)));
    }
    Value::Object(o)
}
