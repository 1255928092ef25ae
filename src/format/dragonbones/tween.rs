//! How a DragonBones key frame tweens into the next (docs/dragonbones.md §5.1-5.2), as core
//! [`Interp`]s.

use super::dto::Tween;
use crate::core::curve::{Ease, Interp, Keys};
use std::sync::Arc;

/// The interpolation out of a key frame lasting `frames` frames. A frame of no length never
/// tweens; a 4-number `curve` wins over `tweenEasing`; a missing, `null` or `"NaN"`
/// `tweenEasing` holds the value. Strengths are kept to hundredths and curve samples to
/// ten-thousandths, as the runtime stores them.
pub fn interp(tween: &Tween, frames: u32, keys: &mut Keys, seen: &mut SampledCurves) -> Interp {
    if frames == 0 {
        return Interp::Stepped;
    }
    if let Some(s) = &tween.samples {
        return keys.add_sampled(s.as_slice());
    }
    if let Some(c) = tween.curve.as_deref().filter(|c| c.len() == 4) {
        let samples = seen.get_or_sample(c, frames, || {
            shared_curve_samples([c[0], c[1], c[2], c[3]], frames as usize + 1)
        });
        return keys.add_sampled(samples);
    }
    if let Some(c) = tween
        .curve
        .as_deref()
        .filter(|c| c.len() > 4 && c.len() % 6 == 4)
    {
        let samples =
            seen.get_or_sample(c, frames, || chain_samples(c, frames as usize + 1).into());
        return keys.add_sampled(samples);
    }
    let Some(e) = tween.tween_easing.0 else {
        return Interp::Stepped;
    };
    let hundredths = |v: f64| ((v * 100.0).round() / 100.0) as f32;
    if e == 0.0 {
        Interp::Linear
    } else if e < 0.0 {
        Interp::Ease(Ease::QuadIn, hundredths(-e))
    } else if e <= 1.0 {
        Interp::Ease(Ease::QuadOut, hundredths(e))
    } else {
        Interp::Ease(Ease::QuadInOut, hundredths(e - 1.0))
    }
}

/// Curves already sampled in one animation, by their numbers (bit for bit) and key-frame
/// length: exports repeat a few curves over many key frames (swords_man: 396 curve keys, 12
/// distinct), and resampling one is a bisection per frame of its length.
#[derive(Default)]
pub struct SampledCurves {
    curves: Vec<SeenCurve>,
}

/// A curve met in an animation, with its samples.
struct SeenCurve {
    frames: u32,
    /// A 4-number curve's numbers as bits, inline (the common curve costs no allocation).
    four: [u64; 4],
    /// A chain's numbers (longer than 4).
    chain: Option<Box<[f64]>>,
    /// Shared with every key that uses the curve.
    samples: Arc<[f32]>,
}

impl SeenCurve {
    fn is(&self, curve: &[f64], frames: u32) -> bool {
        self.frames == frames
            && match (&self.chain, curve) {
                (None, [a, b, c, d]) => self.four == [a, b, c, d].map(|v| v.to_bits()),
                (Some(chain), _) => {
                    chain.len() == curve.len()
                        && chain
                            .iter()
                            .zip(curve)
                            .all(|(a, b)| a.to_bits() == b.to_bits())
                }
                (None, _) => false,
            }
    }
}

impl SampledCurves {
    /// Curves remembered at most: the lookup is a scan, and a file of ever-different curves
    /// must not make it quadratic.
    const MAX: usize = 64;

    /// The samples of `curve` over a key frame `frames` long, made by `sample` the first time.
    fn get_or_sample(
        &mut self,
        curve: &[f64],
        frames: u32,
        sample: impl FnOnce() -> Arc<[f32]>,
    ) -> Arc<[f32]> {
        if let Some(seen) = self.curves.iter().find(|s| s.is(curve, frames)) {
            return seen.samples.clone();
        }
        let samples = sample();
        if self.curves.len() < Self::MAX {
            let (four, chain) = match curve {
                [a, b, c, d] => ([a, b, c, d].map(|v| v.to_bits()), None),
                _ => ([0; 4], Some(curve.into())),
            };
            self.curves.push(SeenCurve {
                frames,
                four,
                chain,
                samples: samples.clone(),
            });
        }
        samples
    }
}

/// One coordinate of the bezier from 0 to 1 with control values `p1`, `p2`, at parameter `t`.
pub fn bezier(p1: f64, p2: f64, t: f64) -> f64 {
    let lt = 1.0 - t;
    3.0 * t * lt * lt * p1 + 3.0 * lt * t * t * p2 + t * t * t
}

/// [`fill_curve_samples`] into a new list of `n`.
#[cfg(test)]
pub fn curve_samples(c: [f64; 4], n: usize) -> Vec<f32> {
    let mut out = vec![0.0; n];
    fill_curve_samples(c, &mut out);
    out
}

/// [`fill_curve_samples`] into a new shared list of `n` (one allocation, where the keys keep
/// them).
fn shared_curve_samples(c: [f64; 4], n: usize) -> Arc<[f32]> {
    let mut out: Arc<[f32]> = std::iter::repeat_n(0.0, n).collect();
    // A fresh `Arc` is its only owner.
    if let Some(out) = Arc::get_mut(&mut out) {
        fill_curve_samples(c, out);
    }
    out
}

/// `out.len()` (`n`) value fractions of the bezier (0,0) (x1,y1) (x2,y2) (1,1) at times
/// `(i + 1) / (n + 1)`: for each time the curve parameter is bisected to 1e-4, and the value
/// rounded to 1e-4.
fn fill_curve_samples([x1, y1, x2, y2]: [f64; 4], out: &mut [f32]) {
    let n = out.len();
    for (chunk, samples) in out.chunks_mut(LANES).enumerate() {
        let first = chunk * LANES;
        let mut t = [0.0; LANES];
        for (lane, t) in t.iter_mut().enumerate().take(samples.len()) {
            *t = (first + lane + 1) as f64 / (n + 1) as f64;
        }
        for (sample, m) in samples.iter_mut().zip(bisect_lanes(x1, x2, t)) {
            *sample = ten_thousandths(bezier(y1, y2, m));
        }
    }
}

/// A sample value as the runtime stores it: rounded to ten-thousandths, kept as `f32`.
fn ten_thousandths(v: f64) -> f32 {
    ((v * 10000.0).round() / 10000.0) as f32
}

/// How many samples [`fill_curve_samples`] bisects side by side: one SSE2 register of `f64`s
/// (four or eight lanes measured more instructions: their brackets no longer fit in registers).
const LANES: usize = 2;

/// [`bisect`] of [`LANES`] times at once. Every bisection takes the same steps (the bracket
/// halves exactly each step, whichever half is kept), so the lanes share the bracket's width,
/// stay in step, and are packed into vector instructions; keeping the upper half is adding the
/// half width. Each lane computes what [`bisect_by`] computes, operation for operation.
fn bisect_lanes(x1: f64, x2: f64, t: [f64; LANES]) -> [f64; LANES] {
    let (mut lo, mut mid) = ([0.0f64; LANES], [0.5f64; LANES]);
    let mut width = 1.0f64;
    while width > 0.0001 {
        width *= 0.5;
        for lane in 0..LANES {
            let m = lo[lane] + width;
            let later = t[lane] - bezier(x1, x2, m) > 0.0;
            lo[lane] += if later { width } else { 0.0 };
            mid[lane] = m;
        }
    }
    mid
}

/// One sample of [`fill_curve_samples`] at time `t`.
fn curve_samples_at([x1, y1, x2, y2]: [f64; 4], t: f64) -> f32 {
    let mid = bisect(x1, x2, t);
    ten_thousandths(bezier(y1, y2, mid))
}

/// The curve parameter at which the x of the bezier (0,0) (x1,_) (x2,_) (1,1) reaches `t`,
/// bisected to 1e-4 (the last midpoint tried), as the runtime finds it.
pub fn bisect(x1: f64, x2: f64, t: f64) -> f64 {
    bisect_by(t, |m| bezier(x1, x2, m))
}

/// The runtime's bisection of `x(m) = t` over `0..1`: halve the bracket `lo..hi` at its
/// midpoint, keeping the upper half while `t - x(mid) > 0`, until it is no wider than 1e-4;
/// the answer is the last midpoint. The bracket is kept as `lo..lo + width`: `width` is a power
/// of two and `lo` a multiple of it, so `lo + width / 2` is exactly `(lo + hi) / 2`.
fn bisect_by(t: f64, x: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut width, mut mid) = (0.0f64, 1.0f64, 0.5);
    while width > 0.0001 {
        width *= 0.5;
        mid = lo + width;
        if t - x(mid) > 0.0 {
            lo = mid;
        }
    }
    mid
}

/// [`curve_samples`] of a chain of segments (5.5 `curve` longer than 4 numbers: two control
/// points, then for each further segment its start point and two control points; the chain
/// runs from (0,0) to (1,1)). A time is looked up in the first segment whose end is not
/// before it. As DragonBonesJS 5.6.300 does (observed with probe chains of two to four
/// segments through the oracle, tests/fixtures/dragonbones5), the first and the last segment
/// are then read as a curve from (0,0) to (1,1) with the segment's two control points, not
/// from their own start to their end; the segments between are proper beziers from their
/// start point to their end point.
pub fn chain_samples(c: &[f64], n: usize) -> Vec<f32> {
    let segments = (c.len() + 2) / 6;
    (0..n)
        .map(|i| {
            let t = (i + 1) as f64 / (n + 1) as f64;
            let end_x = |k: usize| c.get(k * 6 + 4).copied().unwrap_or(1.0);
            let k = (0..segments)
                .find(|&k| end_x(k) >= t)
                .unwrap_or(segments - 1);
            let p = &c[k * 6..k * 6 + 4];
            if k == 0 || k + 1 == segments {
                return curve_samples_at([p[0], p[1], p[2], p[3]], t);
            }
            let (x0, y0, x3, y3) = (c[k * 6 - 2], c[k * 6 - 1], c[k * 6 + 4], c[k * 6 + 5]);
            let mid = bisect4([x0, p[0], p[2], x3], t);
            let y = bezier4([y0, p[1], p[3], y3], mid);
            ten_thousandths(y)
        })
        .collect()
}

/// The cubic bezier through values `p` at parameter `u`.
pub fn bezier4(p: [f64; 4], u: f64) -> f64 {
    let lu = 1.0 - u;
    lu * lu * lu * p[0] + 3.0 * u * lu * lu * p[1] + 3.0 * lu * u * u * p[2] + u * u * u * p[3]
}

/// [`bisect`] for a bezier whose x runs through `x` (its own start and end).
pub fn bisect4(x: [f64; 4], t: f64) -> f64 {
    bisect_by(t, |m| bezier4(x, m))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::dragonbones::lenient::Num;

    #[test]
    fn bisections_give_the_runtimes_samples_bit_for_bit() {
        // The runtime's procedure as it reads, one sample at a time.
        fn runtime_bisect(x: impl Fn(f64) -> f64, t: f64) -> f64 {
            let (mut lo, mut hi) = (0.0f64, 1.0f64);
            let mut mid = 0.5;
            while hi - lo > 0.0001 {
                mid = (hi + lo) * 0.5;
                if t - x(mid) > 0.0 {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            mid
        }
        let one_by_one = |[x1, y1, x2, y2]: [f64; 4], n: usize| -> Vec<u32> {
            (0..n)
                .map(|i| {
                    let t = (i + 1) as f64 / (n + 1) as f64;
                    let mid = runtime_bisect(|m| bezier(x1, x2, m), t);
                    ((bezier(y1, y2, mid) * 10000.0).round() / 10000.0) as f32
                })
                .map(f32::to_bits)
                .collect()
        };
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let odd = [
            0.0,
            -0.0,
            1.0,
            -1.5,
            3.0,
            1e-310,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ];
        for round in 0..3000 {
            let c: [f64; 4] = std::array::from_fn(|_| {
                let r = next();
                if r % 5 == 0 {
                    odd[(r >> 8) as usize % odd.len()]
                } else {
                    ((r >> 11) as f64 / (1u64 << 53) as f64) * 3.0 - 1.0
                }
            });
            let n = round % 70;
            let got: Vec<u32> = curve_samples(c, n).iter().map(|v| v.to_bits()).collect();
            assert_eq!(got, one_by_one(c, n), "{c:?} {n}");
            let shared: Vec<u32> = shared_curve_samples(c, n)
                .iter()
                .map(|v| v.to_bits())
                .collect();
            assert_eq!(shared, got);
            // The bisections themselves (before the rounding of the samples hides a slip).
            let t = (round % 97) as f64 / 97.0;
            let lanes: [f64; LANES] = std::array::from_fn(|l| t + l as f64 / 89.0);
            for (l, mid) in bisect_lanes(c[0], c[2], lanes).into_iter().enumerate() {
                let want = runtime_bisect(|m| bezier(c[0], c[2], m), lanes[l]);
                assert_eq!(mid.to_bits(), want.to_bits(), "{c:?} {}", lanes[l]);
            }
            let x4 = [c[0], c[1], c[2], c[3]];
            assert_eq!(
                bisect(c[0], c[2], t).to_bits(),
                runtime_bisect(|m| bezier(c[0], c[2], m), t).to_bits()
            );
            assert_eq!(
                bisect4(x4, t).to_bits(),
                runtime_bisect(|m| bezier4(x4, m), t).to_bits()
            );
        }
    }

    fn interp_fresh(t: &Tween, frames: u32, keys: &mut Keys) -> Interp {
        interp(t, frames, keys, &mut SampledCurves::default())
    }

    #[test]
    fn a_remembered_curve_gives_the_same_samples() {
        let mut seen = SampledCurves::default();
        let mut k = Keys::new(1);
        let curve = |c: Vec<f64>| Tween {
            curve: Some(c),
            ..Tween::default()
        };
        let chain = vec![0.1, 0.2, 0.3, 0.4, 0.5, 0.5, 0.6, 0.7, 0.8, 0.9];
        for (t, frames) in [
            (curve(vec![0.5, 0.0, 0.5, 1.0]), 5),
            (curve(vec![0.5, 0.0, 0.5, 1.0]), 5),
            (curve(vec![0.5, 0.0, 0.5, 1.0]), 5),
            (curve(vec![0.5, 0.0, 0.5, 1.0]), 7),
            (curve(vec![0.5, -0.0, 0.5, 1.0]), 5),
            (curve(chain.clone()), 9),
            (curve(chain.clone()), 9),
            (curve(chain), 9),
        ] {
            let i = interp(&t, frames, &mut k, &mut seen);
            let Interp::Sampled(n) = i else {
                panic!("{i:?}")
            };
            let c = t.curve.as_deref().unwrap();
            let want = if c.len() == 4 {
                curve_samples([c[0], c[1], c[2], c[3]], frames as usize + 1)
            } else {
                chain_samples(c, frames as usize + 1)
            };
            let bits = |s: &[f32]| s.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(k.sampled(n as usize)), bits(&want));
        }
        // 0.0 and -0.0 are told apart, and so are lengths.
        assert_eq!(seen.curves.len(), 4);
    }

    fn tw(e: Option<f64>) -> Tween {
        Tween {
            tween_easing: Num(e),
            ..Tween::default()
        }
    }

    #[test]
    fn easing_values_pick_the_shape() {
        let mut k = Keys::new(1);
        assert_eq!(interp_fresh(&tw(None), 5, &mut k), Interp::Stepped);
        assert_eq!(interp_fresh(&tw(Some(0.0)), 5, &mut k), Interp::Linear);
        assert_eq!(interp_fresh(&tw(Some(0.0)), 0, &mut k), Interp::Stepped);
        assert_eq!(
            interp_fresh(&tw(Some(-0.5)), 5, &mut k),
            Interp::Ease(Ease::QuadIn, 0.5)
        );
        assert_eq!(
            interp_fresh(&tw(Some(0.333)), 5, &mut k),
            Interp::Ease(Ease::QuadOut, 0.33)
        );
        assert_eq!(
            interp_fresh(&tw(Some(2.0)), 5, &mut k),
            Interp::Ease(Ease::QuadInOut, 1.0)
        );
    }

    #[test]
    fn curves_are_resampled_per_segment_length() {
        let mut k = Keys::new(1);
        let t = Tween {
            curve: Some(vec![0.5, 0.0, 0.5, 1.0]),
            ..Tween::default()
        };
        assert_eq!(interp_fresh(&t, 5, &mut k), Interp::Sampled(0));
        assert_eq!(k.sampled(0).len(), 6);
        // Symmetric curve: the middle sample of an odd count is one half.
        let s = curve_samples([0.5, 0.0, 0.5, 1.0], 3);
        assert!((s[1] - 0.5).abs() < 1e-3, "{s:?}");
        assert!(s[0] < 0.25 && s[2] > 0.75);
    }
}
