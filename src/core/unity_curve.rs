//! Unity `AnimationCurve.Evaluate` semantics: cubic Hermite segments with tangents scaled by the
//! segment length, weighted segments as a cubic Bezier in (time, value), `+inf` tangents as
//! stepped segments, pre/post wrap modes and the 0/1-key rules. Pure math, no I/O.
//!
//! Unity's evaluator is closed source; this follows the public re-implementations as summarised
//! in `docs/mrtk-input-animation.md` (shared), section 7. Keys are stored as `f32` like Unity's,
//! and evaluated in `f64`.

use std::cmp::Ordering;

/// Unity's default tangent weight, used on a side whose weighted-mode bit is not set.
pub const DEFAULT_WEIGHT: f64 = 1.0 / 3.0;

/// Unity `WeightedMode` bit: the key's in-weight is used.
pub const WEIGHTED_IN: i32 = 1;
/// Unity `WeightedMode` bit: the key's out-weight is used.
pub const WEIGHTED_OUT: i32 = 2;
/// Unity `WeightedMode.Both`.
pub const WEIGHTED_BOTH: i32 = WEIGHTED_IN | WEIGHTED_OUT;

/// A Unity `WrapMode` as stored (the public enum values), with any other code kept as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapMode {
    /// 0: evaluated as clamp.
    Default,
    /// 1: `Once` (= `Clamp`).
    Once,
    /// 2: repeat.
    Loop,
    /// 4: mirror every other cycle.
    PingPong,
    /// 8: clamp (what every MRTK recording stores).
    ClampForever,
    /// Any other code; Unity's behaviour is undefined, evaluated as clamp.
    Other(i32),
}

impl WrapMode {
    /// The mode for a stored code.
    pub fn from_code(code: i32) -> WrapMode {
        match code {
            0 => WrapMode::Default,
            1 => WrapMode::Once,
            2 => WrapMode::Loop,
            4 => WrapMode::PingPong,
            8 => WrapMode::ClampForever,
            other => WrapMode::Other(other),
        }
    }

    /// The stored code.
    pub fn code(self) -> i32 {
        match self {
            WrapMode::Default => 0,
            WrapMode::Once => 1,
            WrapMode::Loop => 2,
            WrapMode::PingPong => 4,
            WrapMode::ClampForever => 8,
            WrapMode::Other(c) => c,
        }
    }

    /// True for the codes Unity defines (0, 1, 2, 4, 8).
    pub fn is_known(self) -> bool {
        !matches!(self, WrapMode::Other(_))
    }
}

/// One Unity `Keyframe`. Tangents are slopes (value per second); weights are fractions of the
/// segment length, used only where `weighted_mode` sets the bit for that side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnityKey {
    pub time: f32,
    pub value: f32,
    pub in_tangent: f32,
    pub out_tangent: f32,
    pub in_weight: f32,
    pub out_weight: f32,
    /// Unity `WeightedMode`: bit 0 in-weight, bit 1 out-weight; other bits are ignored.
    pub weighted_mode: i32,
}

impl UnityKey {
    /// A key with zero tangents and weights and no weighted mode (a flat Hermite key).
    pub fn new(time: f32, value: f32) -> UnityKey {
        UnityKey {
            time,
            value,
            in_tangent: 0.0,
            out_tangent: 0.0,
            in_weight: 0.0,
            out_weight: 0.0,
            weighted_mode: 0,
        }
    }
}

/// A Unity `AnimationCurve`: keys sorted by time, and the wrap modes before the first and
/// from the last key on.
#[derive(Clone, Debug, PartialEq)]
pub struct UnityCurve {
    /// Sorted by time (stably; NaN times last). [`UnityCurve::new`] sorts.
    pub keys: Vec<UnityKey>,
    pub pre_wrap: WrapMode,
    pub post_wrap: WrapMode,
}

/// How times outside the keyed range map back into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrap {
    Clamp,
    Repeat,
    PingPong,
}

fn behaviour(mode: WrapMode) -> Wrap {
    match mode {
        WrapMode::Loop => Wrap::Repeat,
        WrapMode::PingPong => Wrap::PingPong,
        _ => Wrap::Clamp,
    }
}

/// Sort key of a time: NaN sorts after everything.
fn order_time(t: f32) -> f32 {
    if t.is_nan() { f32::INFINITY } else { t }
}

impl UnityCurve {
    /// A curve from keys in any order; sorts them stably by time, as Unity does on assignment.
    pub fn new(mut keys: Vec<UnityKey>, pre_wrap: WrapMode, post_wrap: WrapMode) -> UnityCurve {
        keys.sort_by(|a, b| {
            order_time(a.time)
                .partial_cmp(&order_time(b.time))
                .unwrap_or(Ordering::Equal)
        });
        UnityCurve {
            keys,
            pre_wrap,
            post_wrap,
        }
    }

    /// `AnimationCurve.Evaluate(t)`: 0 without keys, the key's value with one key, otherwise
    /// the segment holding `t` after wrapping.
    pub fn evaluate(&self, t: f64) -> f64 {
        self.eval(t, false)
    }

    /// A right-continuous step function: the value of the last key with time <= `t` after
    /// wrapping. This is how MRTK's boolean curves behave (their keys carry an out-weight of
    /// 1e6 whose Bezier holds the left value until the next key).
    pub fn evaluate_step(&self, t: f64) -> f64 {
        self.eval(t, true)
    }

    fn eval(&self, t: f64, step: bool) -> f64 {
        let keys = &self.keys;
        let (first, last) = match keys.as_slice() {
            [] => return 0.0,
            [only] => return only.value as f64,
            [first, .., last] => (first, last),
        };
        let (beg, end) = (first.time as f64, last.time as f64);
        let wrapped = if t >= end {
            match behaviour(self.post_wrap) {
                Wrap::Clamp => return last.value as f64,
                _ if end == beg => return last.value as f64,
                // At exactly the end, Unity's weighted path does not wrap (last value) while
                // its cached unweighted path lands on the first key (low certainty).
                Wrap::Repeat if t == end => {
                    let (a, b) = segment(keys, beg);
                    let weighted = step || is_weighted(&keys[a], &keys[b]);
                    return if weighted { last.value } else { first.value } as f64;
                }
                Wrap::PingPong if t == end => return last.value as f64,
                Wrap::Repeat => wrap_repeat(t, beg, end),
                Wrap::PingPong => wrap_ping_pong(t, beg, end),
            }
        } else if t < beg {
            match behaviour(self.pre_wrap) {
                Wrap::Clamp => return first.value as f64,
                _ if end == beg => return first.value as f64,
                Wrap::Repeat => wrap_repeat(t, beg, end),
                Wrap::PingPong => wrap_ping_pong(t, beg, end),
            }
        } else {
            t
        };
        let (lhs, rhs) = segment(keys, wrapped);
        if step {
            keys[lhs].value as f64
        } else {
            interpolate(&keys[lhs], &keys[rhs], wrapped)
        }
    }
}

/// `lhs` = the last key with time <= `t` (or the first key), `rhs` = the next one (or `lhs`
/// when it is the last key).
fn segment(keys: &[UnityKey], t: f64) -> (usize, usize) {
    // "Not after t" rather than "<= t": a NaN on either side counts as not after (as in the
    // reference evaluator).
    let upper =
        keys.partition_point(|k| (k.time as f64).partial_cmp(&t) != Some(Ordering::Greater));
    (upper.saturating_sub(1), upper.min(keys.len() - 1))
}

/// Unity `Mathf.Repeat`: `x` modulo `len`, kept within [0, len].
fn repeat(x: f64, len: f64) -> f64 {
    // max/min rather than clamp: NaN must pass through, not panic.
    (x - (x / len).floor() * len).max(0.0).min(len)
}

fn wrap_repeat(t: f64, beg: f64, end: f64) -> f64 {
    repeat(t - beg, end - beg) + beg
}

fn wrap_ping_pong(t: f64, beg: f64, end: f64) -> f64 {
    let len = end - beg;
    len - (repeat(t - beg, 2.0 * len) - len).abs() + beg
}

/// A segment is weighted when its left key uses its out-weight or its right key its in-weight.
fn is_weighted(lhs: &UnityKey, rhs: &UnityKey) -> bool {
    lhs.weighted_mode & WEIGHTED_OUT != 0 || rhs.weighted_mode & WEIGHTED_IN != 0
}

/// The value of the segment `lhs` -> `rhs` at time `t`.
fn interpolate(lhs: &UnityKey, rhs: &UnityKey, t: f64) -> f64 {
    let (out_t, in_t) = (lhs.out_tangent as f64, rhs.in_tangent as f64);
    let (va, vb) = (lhs.value as f64, rhs.value as f64);
    // Stepped: +inf in every source; -inf stepped in some, NaN in others (we step).
    if out_t.is_infinite() || in_t.is_infinite() {
        return va;
    }
    let dx = rhs.time as f64 - lhs.time as f64;
    if dx == 0.0 {
        return va;
    }
    if is_weighted(lhs, rhs) {
        let w_out = if lhs.weighted_mode & WEIGHTED_OUT != 0 {
            lhs.out_weight as f64
        } else {
            DEFAULT_WEIGHT
        };
        let w_in = if rhs.weighted_mode & WEIGHTED_IN != 0 {
            rhs.in_weight as f64
        } else {
            DEFAULT_WEIGHT
        };
        let s = (t - lhs.time as f64) / dx;
        let u = bezier_extract_u(s, w_out, 1.0 - w_in);
        let (p1, p2) = (va + w_out * out_t * dx, vb - w_in * in_t * dx);
        let om = 1.0 - u;
        return om * om * om * va + 3.0 * u * om * om * p1 + 3.0 * u * u * om * p2 + u * u * u * vb;
    }
    if dx > 0.0 && dx < 1e-4 {
        return short_hermite(lhs, rhs, t);
    }
    hermite(va, out_t * dx, vb, in_t * dx, (t - lhs.time as f64) / dx)
}

/// Cubic Hermite at `s` in [0, 1], with end tangents already scaled by the segment length.
fn hermite(va: f64, m0: f64, vb: f64, m1: f64, s: f64) -> f64 {
    let (s2, s3) = (s * s, s * s * s);
    (2.0 * s3 - 3.0 * s2 + 1.0) * va
        + (s3 - 2.0 * s2 + s) * m0
        + (-2.0 * s3 + 3.0 * s2) * vb
        + (s3 - s2) * m1
}

/// Segments shorter than 0.1 ms: Unity's cached polynomial with the length clamped to 1e-4
/// (low certainty; it only differs from [`hermite`] on such segments).
fn short_hermite(lhs: &UnityKey, rhs: &UnityKey, t: f64) -> f64 {
    const DX: f64 = 1e-4;
    let dy = rhs.value as f64 - lhs.value as f64;
    let d1 = lhs.out_tangent as f64 * DX;
    let d2 = rhs.in_tangent as f64 * DX;
    let inv = 1.0 / (DX * DX);
    let c0 = (d1 + d2 - 2.0 * dy) * inv / DX;
    let c1 = (3.0 * dy - 2.0 * d1 - d2) * inv;
    let u = t - lhs.time as f64;
    ((c0 * u + c1) * u + lhs.out_tangent as f64) * u + lhs.value as f64
}

/// The parameter `u` in [0, 1] where the time Bezier with control x's `0, w1, w2, 1` reaches
/// `s`: Unity's closed-form solve (depressed cubic with the roots tried largest, smallest,
/// middle; then quadratic, linear), falling back to 0 or 1 when no root is in range.
pub fn bezier_extract_u(s: f64, w1: f64, w2: f64) -> f64 {
    let a = 3.0 * w1 - 3.0 * w2 + 1.0;
    let b = -6.0 * w1 + 3.0 * w2;
    let c = 3.0 * w1;
    let d = -s;
    let fallback = if s < 0.5 { 0.0 } else { 1.0 };
    let in_range = |u: f64| (0.0..=1.0).contains(&u);
    if a.abs() > 1e-3 {
        let p = -b / (3.0 * a);
        let p2 = p * p;
        let q = p2 * p + (b * c - 3.0 * a * d) / (6.0 * a * a);
        let q2 = q * q;
        let rmp2 = c / (3.0 * a) - p2;
        let disc = q2 + rmp2 * rmp2 * rmp2;
        if disc < 0.0 {
            let r3 = (-disc + q2).sqrt().cbrt();
            let phi3 = (-disc).sqrt().atan2(q) / 3.0;
            let third = 2.0 * std::f64::consts::PI / 3.0;
            return [phi3, phi3 + third, phi3 - third]
                .into_iter()
                .map(|phi| 2.0 * r3 * phi.cos() + p)
                .find(|&u| in_range(u))
                .unwrap_or(fallback);
        }
        let ss = disc.sqrt();
        let u = (q + ss).cbrt() + (q - ss).cbrt() + p;
        return if in_range(u) { u } else { fallback };
    }
    if b.abs() > 1e-3 {
        let ss = (c * c - 4.0 * b * d).sqrt();
        return [(-c - ss) / (2.0 * b), (-c + ss) / (2.0 * b)]
            .into_iter()
            .find(|&u| in_range(u))
            .unwrap_or(fallback);
    }
    if c.abs() > 1e-3 {
        return -d / c;
    }
    0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(time: f32, value: f32, in_t: f32, out_t: f32) -> UnityKey {
        UnityKey {
            in_tangent: in_t,
            out_tangent: out_t,
            ..UnityKey::new(time, value)
        }
    }

    fn weighted(time: f32, value: f32, tangent: f32, in_w: f32, out_w: f32) -> UnityKey {
        UnityKey {
            in_weight: in_w,
            out_weight: out_w,
            weighted_mode: WEIGHTED_BOTH,
            ..key(time, value, tangent, tangent)
        }
    }

    fn curve(keys: Vec<UnityKey>, pre: i32, post: i32) -> UnityCurve {
        UnityCurve::new(keys, WrapMode::from_code(pre), WrapMode::from_code(post))
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn zero_and_one_key() {
        let empty = curve(vec![], 2, 4);
        assert_eq!(empty.evaluate(-3.0), 0.0);
        assert_eq!(empty.evaluate_step(7.0), 0.0);
        let one = curve(vec![key(1.0, 0.25, 5.0, 5.0)], 2, 4);
        for t in [-10.0, 1.0, 1.5, 99.0] {
            assert_eq!(one.evaluate(t), 0.25);
        }
    }

    #[test]
    fn flat_tangents_give_smoothstep() {
        // 0 -> 1 over [0, 2] with zero tangents: v(s) = 3s^2 - 2s^3.
        let c = curve(vec![key(0.0, 0.0, 0.0, 0.0), key(2.0, 1.0, 0.0, 0.0)], 8, 8);
        assert!(close(c.evaluate(0.5), 3.0 / 16.0 - 2.0 / 64.0));
        assert!(close(c.evaluate(1.0), 0.5));
        assert_eq!(c.evaluate(2.0), 1.0);
    }

    #[test]
    fn tangents_are_scaled_by_the_segment_length() {
        // Slope 1 at both ends of a segment from (0, 0) to (4, 4): the straight line.
        let c = curve(vec![key(0.0, 0.0, 1.0, 1.0), key(4.0, 4.0, 1.0, 1.0)], 8, 8);
        for t in [0.5, 1.0, 2.5, 3.75] {
            assert!(close(c.evaluate(t), t), "{t}");
        }
    }

    #[test]
    fn clamps_outside_the_keys() {
        let c = curve(vec![key(0.0, 2.0, 0.0, 0.0), key(1.0, 5.0, 0.0, 0.0)], 8, 1);
        assert_eq!(c.evaluate(-1.0), 2.0);
        assert_eq!(c.evaluate(1.0), 5.0);
        assert_eq!(c.evaluate(9.0), 5.0);
        // Default (0) and undefined codes clamp too.
        let c = curve(c.keys.clone(), 0, 16);
        assert_eq!(c.evaluate(-1.0), 2.0);
        assert_eq!(c.evaluate(3.0), 5.0);
    }

    #[test]
    fn infinite_tangent_steps() {
        let c = curve(
            vec![key(0.0, 1.0, 0.0, f32::INFINITY), key(1.0, 3.0, 0.0, 0.0)],
            8,
            8,
        );
        assert_eq!(c.evaluate(0.0), 1.0);
        assert_eq!(c.evaluate(0.999), 1.0);
        assert_eq!(c.evaluate(1.0), 3.0);
        let c = curve(
            vec![key(0.0, 1.0, 0.0, 0.0), key(1.0, 3.0, f32::INFINITY, 0.0)],
            8,
            8,
        );
        assert_eq!(c.evaluate(0.5), 1.0);
    }

    #[test]
    fn zero_weights_give_a_straight_line() {
        // What MRTK writes for every float key: tangents 0, weights 0, Both.
        let c = curve(
            vec![
                weighted(0.0, 0.0, 0.0, 0.0, 0.0),
                weighted(2.0, 1.0, 0.0, 0.0, 0.0),
            ],
            8,
            8,
        );
        for t in [0.25, 0.5, 1.0, 1.5] {
            assert!(close(c.evaluate(t), t / 2.0), "{t}");
        }
    }

    #[test]
    fn third_weights_equal_hermite() {
        let third = 1.0f32 / 3.0;
        let w = curve(
            vec![
                weighted(0.0, 0.0, 2.0, third, third),
                weighted(1.0, 1.0, -1.0, third, third),
            ],
            8,
            8,
        );
        let h = curve(
            vec![key(0.0, 0.0, 2.0, 2.0), key(1.0, 1.0, -1.0, -1.0)],
            8,
            8,
        );
        for t in [0.1, 0.3, 0.5, 0.8] {
            assert!((w.evaluate(t) - h.evaluate(t)).abs() < 1e-6, "{t}");
        }
    }

    #[test]
    fn out_only_weight_uses_a_third_on_the_other_side() {
        let mut a = weighted(0.0, 0.0, 0.0, 0.0, 1.0 / 3.0);
        a.weighted_mode = WEIGHTED_OUT;
        let c = curve(vec![a, key(1.0, 1.0, 0.0, 0.0)], 8, 8);
        let h = curve(vec![key(0.0, 0.0, 0.0, 0.0), key(1.0, 1.0, 0.0, 0.0)], 8, 8);
        assert!((c.evaluate(0.3) - h.evaluate(0.3)).abs() < 1e-6);
    }

    #[test]
    fn solver_finds_the_bezier_parameter() {
        for (w1, w2) in [(0.1, 0.2), (0.9, 0.1), (0.5, 0.5), (0.0, 1.0), (0.3, 0.95)] {
            for s in [0.0, 0.05, 0.3, 0.5, 0.77, 1.0] {
                let u = bezier_extract_u(s, w1, w2);
                let om = 1.0 - u;
                let x = 3.0 * w1 * u * om * om + 3.0 * w2 * u * u * om + u * u * u;
                assert!((x - s).abs() < 1e-9, "w=({w1},{w2}) s={s} u={u} x={x}");
            }
        }
    }

    #[test]
    fn loop_and_ping_pong() {
        // A line 0 -> 1 over [0, 1], weighted like MRTK keys.
        let line = || {
            vec![
                weighted(0.0, 0.0, 0.0, 0.0, 0.0),
                weighted(1.0, 1.0, 0.0, 0.0, 0.0),
            ]
        };
        let l = curve(line(), 2, 2);
        assert!(close(l.evaluate(1.25), 0.25));
        assert!(close(l.evaluate(-0.25), 0.75));
        assert!(close(l.evaluate(3.5), 0.5));
        assert_eq!(l.evaluate(1.0), 1.0); // weighted: no wrap at exactly the end
        let p = curve(line(), 4, 4);
        assert!(close(p.evaluate(1.25), 0.75));
        assert!(close(p.evaluate(2.25), 0.25));
        assert!(close(p.evaluate(-0.25), 0.25));
        assert_eq!(p.evaluate(1.0), 1.0);
        // Unweighted loop at exactly the end lands on the first key.
        let u = curve(vec![key(0.0, 0.0, 1.0, 1.0), key(1.0, 2.0, 1.0, 1.0)], 2, 2);
        assert_eq!(u.evaluate(1.0), 0.0);
        // Zero-length span: the end value, no division by zero.
        let z = curve(vec![key(1.0, 3.0, 0.0, 0.0), key(1.0, 7.0, 0.0, 0.0)], 2, 4);
        assert_eq!(z.evaluate(0.0), 3.0);
        assert_eq!(z.evaluate(5.0), 7.0);
    }

    #[test]
    fn steps_and_duplicate_times() {
        let c = curve(
            vec![
                key(0.0, 0.0, 0.0, 0.0),
                key(1.0, 1.0, 0.0, 0.0),
                key(2.0, 0.0, 0.0, 0.0),
            ],
            8,
            2,
        );
        assert_eq!(c.evaluate_step(0.99), 0.0);
        assert_eq!(c.evaluate_step(1.0), 1.0);
        assert_eq!(c.evaluate_step(1.5), 1.0);
        assert_eq!(c.evaluate_step(2.5), 0.0); // loops: 0.5
        assert_eq!(c.evaluate_step(3.25), 1.0); // loops: 1.25
        // With duplicate times the later key wins from that time on.
        let d = curve(
            vec![
                key(0.0, 0.0, 0.0, 0.0),
                key(1.0, 1.0, 0.0, 0.0),
                key(1.0, 5.0, 0.0, 0.0),
                key(2.0, 5.0, 0.0, 0.0),
            ],
            8,
            8,
        );
        assert_eq!(d.evaluate(1.0), 5.0);
    }

    #[test]
    fn new_sorts_stably_with_nan_last() {
        let c = curve(
            vec![
                key(2.0, 2.0, 0.0, 0.0),
                key(f32::NAN, 9.0, 0.0, 0.0),
                key(0.0, 0.0, 0.0, 0.0),
                key(2.0, 3.0, 0.0, 0.0),
            ],
            8,
            8,
        );
        let values: Vec<f32> = c.keys.iter().map(|k| k.value).collect();
        assert_eq!(values, [0.0, 2.0, 3.0, 9.0]);
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let c = curve(
            vec![
                key(f32::NEG_INFINITY, f32::NAN, f32::NAN, f32::NAN),
                weighted(0.0, 1.0, 0.0, 1e6, -3.0),
                key(f32::INFINITY, 2.0, 0.0, 0.0),
            ],
            2,
            4,
        );
        for t in [f64::NAN, f64::NEG_INFINITY, -1.0, 0.0, 0.5, f64::INFINITY] {
            let _ = c.evaluate(t);
            let _ = c.evaluate_step(t);
        }
    }
}
