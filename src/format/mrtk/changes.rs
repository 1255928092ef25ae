//! Where an on/off (bool) curve changes state over a recording, so it can drive discrete
//! timelines (attachment keys, events) that the runtime already knows.
//!
//! A bool curve is a right-continuous step function after wrapping (see
//! [`UnityCurve::evaluate_step`]). Its state can only change where the wrapped time crosses a
//! key time, so the candidates are the key times and, for Loop/PingPong wrap modes, their
//! images in every cycle; the state on each interval between candidates is read at the
//! interval's middle, which is exact for mirrored (PingPong) cycles too.

use crate::core::unity_curve::{UnityCurve, WrapMode};

/// The most candidate times examined per curve; a looping curve with very short cycles over a
/// long recording stops there (and says so).
pub const MAX_CANDIDATES: usize = 100_000;

/// The state of a bool curve from time 0 to `end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Changes {
    /// `(time, on)`: the state at 0 first, then every change in time order.
    pub states: Vec<(f64, bool)>,
    /// True when [`MAX_CANDIDATES`] cut the list short (later changes are missing).
    pub truncated: bool,
}

fn wraps(mode: WrapMode) -> bool {
    matches!(mode, WrapMode::Loop | WrapMode::PingPong)
}

/// Adds candidate `t` when it lies in (0, `end`]; false when the list is full.
fn push(out: &mut Vec<f64>, t: f64, end: f64) -> bool {
    if out.len() >= MAX_CANDIDATES {
        return false;
    }
    if t > 0.0 && t <= end {
        out.push(t);
    }
    true
}

/// The state changes of `curve` (on = value above 0.5) over `[0, end]`.
pub fn changes(curve: &UnityCurve, end: f64) -> Changes {
    let on = |t: f64| curve.evaluate_step(t) > 0.5;
    let end = if end.is_finite() { end.max(0.0) } else { 0.0 };
    let finite: Vec<f64> = curve
        .keys
        .iter()
        .map(|k| k.time as f64)
        .filter(|t| t.is_finite())
        .collect();
    let mut truncated = false;
    let mut candidates = vec![0.0];
    for &t in &finite {
        if !push(&mut candidates, t, end) {
            truncated = true;
            break;
        }
    }
    if let (Some(&beg), Some(&last)) = (finite.first(), finite.last()) {
        let len = last - beg;
        if len > 0.0 && (wraps(curve.pre_wrap) || wraps(curve.post_wrap)) {
            // Images of every key in every cycle that reaches [0, end]: k + n*len (Loop) and
            // beg - (k - beg) + 2n*len (PingPong's mirrored half). Extra candidates are
            // harmless: they only split an interval of constant state.
            let first_cycle = ((0.0 - last) / len).floor() - 1.0;
            let last_cycle = ((end - beg) / len).ceil() + 1.0;
            let cycles = last_cycle - first_cycle + 1.0;
            // Counted in integers: at huge cycle numbers `n + 1.0 == n`.
            let cycles = if cycles.is_finite() {
                cycles as usize
            } else {
                usize::MAX
            };
            let mut examined = 0usize;
            'cycles: for i in 0..cycles {
                let n = first_cycle + i as f64;
                for &k in &finite {
                    examined += 2;
                    if examined > 2 * MAX_CANDIDATES {
                        truncated = true;
                        break 'cycles;
                    }
                    for t in [k + n * len, 2.0 * beg - k + n * len] {
                        if !push(&mut candidates, t, end) {
                            truncated = true;
                            break 'cycles;
                        }
                    }
                }
            }
        }
    }
    candidates.sort_by(f64::total_cmp);
    candidates.dedup();
    let mut states: Vec<(f64, bool)> = Vec::new();
    for (i, &c) in candidates.iter().enumerate() {
        let state = match candidates.get(i + 1) {
            Some(&next) => on((c + next) / 2.0),
            None if c < end => on((c + end) / 2.0),
            None => on(c),
        };
        if states.last().is_none_or(|&(_, s)| s != state) {
            states.push((c, state));
        }
    }
    Changes { states, truncated }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::unity_curve::UnityKey;

    fn curve(keys: &[(f32, f32)], wrap: WrapMode) -> UnityCurve {
        UnityCurve::new(
            keys.iter().map(|&(t, v)| UnityKey::new(t, v)).collect(),
            wrap,
            wrap,
        )
    }

    #[test]
    fn clamped_curves_change_at_their_keys() {
        // Keys before 0 set the state at 0 (MRTK 1.0 keeps one key before the cut-off).
        let c = curve(
            &[(-5.25, 0.0), (1.8, 1.0), (2.4, 0.0)],
            WrapMode::ClampForever,
        );
        let ch = changes(&c, 3.0);
        let at = |t: f32| t as f64;
        assert_eq!(
            ch.states,
            vec![(0.0, false), (at(1.8), true), (at(2.4), false)]
        );
        assert!(!ch.truncated);
        // Tracked from before the start to the end: one state.
        let c = curve(&[(-2.0, 1.0)], WrapMode::ClampForever);
        assert_eq!(changes(&c, 14.0).states, vec![(0.0, true)]);
        // No keys: off. A change after the end is not reached.
        assert_eq!(
            changes(&curve(&[], WrapMode::Loop), 1.0).states,
            vec![(0.0, false)]
        );
        let c = curve(&[(0.0, 0.0), (5.0, 1.0)], WrapMode::ClampForever);
        assert_eq!(changes(&c, 4.0).states, vec![(0.0, false)]);
        assert_eq!(changes(&c, 5.0).states, vec![(0.0, false), (5.0, true)]);
    }

    #[test]
    fn looping_and_ping_pong_repeat_their_changes() {
        // Off on [0, 1), on on [1, 2); the cycle is 2 s long (keys at 0, 1, 2).
        let keys = [(0.0, 0.0), (1.0, 1.0), (2.0, 0.0)];
        let ch = changes(&curve(&keys, WrapMode::Loop), 5.0);
        let times: Vec<(f64, bool)> = ch.states;
        assert_eq!(
            times,
            vec![
                (0.0, false),
                (1.0, true),
                (2.0, false),
                (3.0, true),
                (4.0, false),
                (5.0, true)
            ]
        );
        // PingPong mirrors the second cycle: on [2, 4) the time runs back from 2 to 0, so
        // the state is on while the mirrored time is in [1, 2), i.e. for t in (2, 3].
        let ch = changes(&curve(&keys, WrapMode::PingPong), 4.0);
        let sample = |t: f64| {
            ch.states
                .iter()
                .rev()
                .find(|(c, _)| *c <= t)
                .map(|s| s.1)
                .unwrap_or(false)
        };
        let c = curve(&keys, WrapMode::PingPong);
        for i in 0..400 {
            let t = i as f64 / 100.0 + 0.005;
            assert_eq!(sample(t), c.evaluate_step(t) > 0.5, "t = {t}");
        }
    }

    #[test]
    fn tiny_loops_stop_at_the_limit() {
        let c = curve(&[(0.0, 0.0), (1e-4, 1.0), (2e-4, 0.0)], WrapMode::Loop);
        let ch = changes(&c, 1000.0);
        assert!(ch.truncated);
        assert!(ch.states.len() <= MAX_CANDIDATES);
    }
}
