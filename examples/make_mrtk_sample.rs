//! Writes `samples/mrtk/wave-and-pinch.bin`, bonescope's own MRTK2 input animation (format 1.1).
//!
//! Regenerate (deterministic, same bytes every time):
//!
//! ```text
//! cargo run --example make_mrtk_sample            # writes samples/mrtk/wave-and-pinch.bin
//! cargo run --example make_mrtk_sample -- OUT.bin # writes elsewhere
//! ```
//!
//! Content (3 s): the camera looks forward with a small head turn to the right and back; the
//! eye gaze sweeps from left to right; the right hand is tracked from 0.25 s to 2.75 s, waves
//! (the wrist rocks about the forward axis) and pinches twice (thumb and index tips meet,
//! 1.0-1.4 s and 1.9-2.3 s); the left hand is never tracked. Markers: "wave", "pinch 1",
//! "pinch 2". Like MRTK's recorder, frames are taken at 30 fps and each curve is then thinned
//! with Ramer-Douglas-Peucker (1 mm / 0.001), keeping (time, value) keys; joints get keys
//! only while the hand is tracked.

use bonescope::format::mrtk::{JOINT_NAMES, MAGIC};
use byteorder::{LittleEndian, WriteBytesExt};
use std::f64::consts::PI;
use std::io::{self, Write};
use std::path::PathBuf;

const FPS: f64 = 30.0;
const DURATION: f64 = 3.0;
const TRACKED: (f64, f64) = (0.25, 2.75);
const PINCHES: [(f64, f64); 2] = [(1.0, 1.4), (1.9, 2.3)];
const TOLERANCE: f64 = 0.001;
/// Unity `WrapMode.ClampForever`, what every MRTK curve stores.
const CLAMP_FOREVER: i32 = 8;

type V3 = [f64; 3];
type Quat = [f64; 4]; // x, y, z, w

fn axis_angle(axis: V3, degrees: f64) -> Quat {
    let h = degrees.to_radians() / 2.0;
    [
        axis[0] * h.sin(),
        axis[1] * h.sin(),
        axis[2] * h.sin(),
        h.cos(),
    ]
}

fn mul(a: Quat, b: Quat) -> Quat {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

fn rotate(q: Quat, v: V3) -> V3 {
    let r = mul(mul(q, [v[0], v[1], v[2], 0.0]), [-q[0], -q[1], -q[2], q[3]]);
    [r[0], r[1], r[2]]
}

fn lerp3(a: V3, b: V3, s: f64) -> V3 {
    [0, 1, 2].map(|i| a[i] + (b[i] - a[i]) * s)
}

fn smoothstep(x: f64) -> f64 {
    let x = x.clamp(0.0, 1.0);
    x * x * (3.0 - 2.0 * x)
}

const X: V3 = [1.0, 0.0, 0.0];
const Y: V3 = [0.0, 1.0, 0.0];
const Z: V3 = [0.0, 0.0, 1.0];

/// Camera: at eye height, a slight bob, looking forward and a little down, turning the head
/// up to 12 degrees right between 1.0 and 2.6 s.
fn camera(t: f64) -> (V3, Quat) {
    let position = [
        0.01 * (2.0 * PI * t / 3.0).sin(),
        1.6 + 0.004 * (2.0 * PI * t / 1.5).sin(),
        0.0,
    ];
    let turn = if (1.0..=2.6).contains(&t) {
        12.0 * (PI * (t - 1.0) / 1.6).sin().powi(2)
    } else {
        0.0
    };
    (position, mul(axis_angle(Y, turn), axis_angle(X, 3.0)))
}

/// Eye gaze: from the eyes, sweeping -20 to +20 degrees of yaw, 5 degrees down.
fn gaze(t: f64) -> (V3, V3) {
    let (eye, _) = camera(t);
    let yaw = (-20.0 + 40.0 * t / DURATION).to_radians();
    let pitch = (-5.0f64).to_radians();
    let dir = [
        yaw.sin() * pitch.cos(),
        pitch.sin(),
        yaw.cos() * pitch.cos(),
    ];
    ([eye[0], eye[1] - 0.03, eye[2] + 0.02], dir)
}

/// How closed the pinch is (0 open .. 1 tips together), easing in and out over 0.1 s.
fn pinch_amount(t: f64) -> f64 {
    PINCHES
        .iter()
        .map(|&(a, b)| smoothstep((t - (a - 0.1)) / 0.1) * (1.0 - smoothstep((t - b) / 0.1)))
        .fold(0.0, f64::max)
}

/// The open right hand in wrist space (metres): +y along the fingers, thumb towards -x, palm
/// facing +z (away from the user). Returns (position, curl axis, curl degrees when pinching).
fn open_hand(joint: &str) -> (V3, V3, f64) {
    let finger = |x: f64, scale: f64, seg: usize| -> V3 {
        let y = [0.02, 0.085, 0.125, 0.15, 0.172][seg];
        [x, y * scale, 0.0]
    };
    let seg = |name: &str| {
        ["Metacarpal", "Knuckle", "MiddleJoint", "DistalJoint", "Tip"]
            .iter()
            .position(|s| name.ends_with(s))
            .unwrap_or(0)
    };
    match joint {
        "Wrist" | "None" => ([0.0; 3], X, 0.0),
        "Palm" => ([0.0, 0.045, 0.01], X, 0.0),
        "ThumbMetacarpalJoint" => ([-0.025, 0.015, 0.01], Z, 5.0),
        "ThumbProximalJoint" => ([-0.045, 0.04, 0.015], Z, 15.0),
        "ThumbDistalJoint" => ([-0.058, 0.065, 0.018], Z, 25.0),
        "ThumbTip" => ([-0.065, 0.087, 0.02], Z, 30.0),
        j if j.starts_with("Index") => {
            let s = seg(j);
            (finger(-0.022, 0.95, s), X, [0.0, 15.0, 40.0, 60.0, 70.0][s])
        }
        j if j.starts_with("Middle") => (finger(-0.003, 1.0, seg(j)), X, 0.0),
        j if j.starts_with("Ring") => (finger(0.016, 0.95, seg(j)), X, 0.0),
        j => (finger(0.032, 0.8, seg(j)), X, 0.0),
    }
}

/// Where the thumb and index tips meet, in wrist space.
const PINCH_POINT: V3 = [-0.048, 0.105, 0.035];

/// World pose of a right-hand joint at `t`.
fn right_joint(joint: &str, t: f64) -> (V3, Quat) {
    let phase = 2.0 * PI * 1.25 * (t - TRACKED.0);
    let wrist = [0.22 + 0.03 * phase.sin(), 1.40, 0.42];
    let hand = mul(axis_angle(Z, 15.0 * phase.sin()), axis_angle(X, -10.0));
    let p = pinch_amount(t);
    let (mut local, axis, curl) = open_hand(joint);
    let toward = match joint {
        "IndexTip" | "ThumbTip" => 1.0,
        "IndexDistalJoint" | "ThumbDistalJoint" => 0.6,
        "IndexMiddleJoint" => 0.3,
        _ => 0.0,
    };
    local = lerp3(local, PINCH_POINT, toward * p);
    let r = rotate(hand, local);
    let position = [wrist[0] + r[0], wrist[1] + r[1], wrist[2] + r[2]];
    (position, mul(hand, axis_angle(axis, -curl * p)))
}

/// Keys kept by Ramer-Douglas-Peucker on the value error of linear interpolation.
fn simplify(samples: &[(f64, f64)]) -> Vec<(f64, f64)> {
    fn keep(s: &[(f64, f64)], lo: usize, hi: usize, out: &mut Vec<bool>) {
        if hi <= lo + 1 {
            return;
        }
        let ((t0, v0), (t1, v1)) = (s[lo], s[hi]);
        let error = |i: usize| {
            let (t, v) = s[i];
            (v - (v0 + (v1 - v0) * (t - t0) / (t1 - t0))).abs()
        };
        let (worst, e) = (lo + 1..hi)
            .map(|i| (i, error(i)))
            .fold((lo, 0.0), |a, b| if b.1 > a.1 { b } else { a });
        if e > TOLERANCE {
            out[worst] = true;
            keep(s, lo, worst, out);
            keep(s, worst, hi, out);
        }
    }
    if samples.len() < 3 {
        return samples.to_vec();
    }
    let mut kept = vec![false; samples.len()];
    kept[0] = true;
    kept[samples.len() - 1] = true;
    keep(samples, 0, samples.len() - 1, &mut kept);
    samples
        .iter()
        .zip(kept)
        .filter_map(|(s, k)| k.then_some(*s))
        .collect()
}

/// Frame times from `a` to `b` inclusive at 30 fps.
fn frames(a: f64, b: f64) -> Vec<f64> {
    let n = ((b - a) * FPS).round() as usize;
    (0..=n).map(|i| a + i as f64 / FPS).collect()
}

/// A float curve in 1.1 layout: wrap modes, key count, (time, value) keys.
fn float_curve(out: &mut Vec<u8>, keys: &[(f64, f64)]) -> io::Result<()> {
    out.write_i32::<LittleEndian>(CLAMP_FOREVER)?;
    out.write_i32::<LittleEndian>(CLAMP_FOREVER)?;
    out.write_i32::<LittleEndian>(keys.len() as i32)?;
    for &(t, v) in keys {
        out.write_f32::<LittleEndian>(t as f32)?;
        out.write_f32::<LittleEndian>(v as f32)?;
    }
    Ok(())
}

/// Samples `f` over `times` and writes one thinned curve per component.
fn component_curves<const N: usize>(
    out: &mut Vec<u8>,
    times: &[f64],
    f: impl Fn(f64) -> [f64; N],
) -> io::Result<usize> {
    let values: Vec<[f64; N]> = times.iter().map(|&t| f(t)).collect();
    let mut keys = 0;
    for c in 0..N {
        let samples: Vec<(f64, f64)> = times.iter().zip(&values).map(|(&t, v)| (t, v[c])).collect();
        let kept = simplify(&samples);
        keys += kept.len();
        float_curve(out, &kept)?;
    }
    Ok(keys)
}

/// A .NET `BinaryWriter` string: 7-bit encoded length, UTF-8 bytes.
fn dotnet_string(out: &mut Vec<u8>, s: &str) -> io::Result<()> {
    let mut n = s.len();
    while n >= 0x80 {
        out.write_u8((n as u8 & 0x7f) | 0x80)?;
        n >>= 7;
    }
    out.write_u8(n as u8)?;
    out.write_all(s.as_bytes())
}

/// The recording's bytes and its total key count (also used by `tests/goldens/mrtk_sample.rs`).
pub fn recording() -> io::Result<(Vec<u8>, usize)> {
    let mut out = Vec::new();
    out.write_u64::<LittleEndian>(MAGIC)?;
    out.write_i32::<LittleEndian>(1)?;
    out.write_i32::<LittleEndian>(1)?;
    out.write_all(&[1, 1, 1])?; // camera, hands, eye gaze
    let all = frames(0.0, DURATION);
    let mut keys = component_curves(&mut out, &all, |t| {
        let (p, q) = camera(t);
        [p[0], p[1], p[2], q[0], q[1], q[2], q[3]]
    })?;
    // Bool curves: left tracked, right tracked, left pinching, right pinching.
    let right_pinch: Vec<(f64, f64)> = std::iter::once((0.0, 0.0))
        .chain(PINCHES.iter().flat_map(|&(a, b)| [(a, 1.0), (b, 0.0)]))
        .collect();
    for bools in [
        vec![(0.0, 0.0)],
        vec![(0.0, 0.0), (TRACKED.0, 1.0), (TRACKED.1, 0.0)],
        vec![(0.0, 0.0)],
        right_pinch,
    ] {
        keys += bools.len();
        float_curve(&mut out, &bools)?;
    }
    // Left hand never tracked: 27 x 7 empty curves. Right hand: every joint but None.
    for _ in 0..JOINT_NAMES.len() * 7 {
        float_curve(&mut out, &[])?;
    }
    let tracked = frames(TRACKED.0, TRACKED.1);
    for joint in JOINT_NAMES {
        if joint == "None" {
            for _ in 0..7 {
                float_curve(&mut out, &[])?;
            }
            continue;
        }
        keys += component_curves(&mut out, &tracked, |t| {
            let (p, q) = right_joint(joint, t);
            [p[0], p[1], p[2], q[0], q[1], q[2], q[3]]
        })?;
    }
    keys += component_curves(&mut out, &all, |t| {
        let (o, d) = gaze(t);
        [o[0], o[1], o[2], d[0], d[1], d[2]]
    })?;
    let markers = [(0.25, "wave"), (1.0, "pinch 1"), (1.9, "pinch 2")];
    out.write_i32::<LittleEndian>(markers.len() as i32)?;
    for (t, name) in markers {
        out.write_f32::<LittleEndian>(t)?;
        dotnet_string(&mut out, name)?;
    }
    Ok((out, keys))
}

fn main() -> io::Result<()> {
    let path = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/mrtk/wave-and-pinch.bin"),
        PathBuf::from,
    );
    let (bytes, keys) = recording()?;
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, &bytes)?;
    println!(
        "wrote {} ({} bytes, 395 curves, {keys} keys)",
        path.display(),
        bytes.len()
    );
    Ok(())
}
