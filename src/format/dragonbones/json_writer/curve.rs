//! Sampled curves (what a `.dbbin` keeps of a key frame's `curve`) written back as a JSON
//! `curve` the runtime samples to the same values.
//!
//! The runtime samples a key frame of `f` frames at `f + 1` times `(i + 1) / (f + 2)`, each
//! in the first segment of a chained curve whose end is not before it; it reads the first and
//! the last segment as curves from (0,0) to (1,1) with their control points, and the others
//! as beziers from their start to their end point (see
//! [`super::super::tween::chain_samples`]). So one segment per sample: the first and last
//! with control points `(X, y), (X, y)` whose `y` puts the curve on the sample at the
//! parameter the runtime's bisection lands on; the others straight lines between shared
//! points, each end chosen so that the line passes through its sample where the bisection
//! lands. Ends sit 0.4 of the sample spacing past each sample time: the recurrence of the
//! line ends damps (a factor 2/3 per segment) and no sample time falls on a midpoint the
//! bisection tries.

use super::super::tween::{bezier, bisect, bisect4};

/// The x of both control points: any value in (0, 1) keeps x monotonic; one that is not a
/// simple fraction keeps the bisection away from ties at sample times like 1/2.
const X: f64 = 0.35;

/// A JSON `curve` (4 numbers, or a chain) for a key frame lasting `frames` frames whose
/// runtime samples are `samples`. When the binary holds another count than the runtime takes
/// for that length, the samples are read at the runtime's times first.
pub fn chain(samples: &[f32], frames: u32) -> Vec<f64> {
    let n = frames as usize + 1;
    let h = 1.0 / (n + 1) as f64;
    let time = |i: usize| (i + 1) as f64 * h;
    let targets: Vec<f64> = if samples.len() == n {
        samples.iter().map(|&s| s as f64).collect()
    } else {
        (0..n)
            .map(|i| {
                let v = crate::core::curve::sampled_percent(samples, time(i));
                (v * 10000.0).round() / 10000.0
            })
            .collect()
    };
    // The first or last segment: control points (X, y), (X, y) on a curve from (0,0) to (1,1).
    let outer = |i: usize| {
        let mid = bisect(X, X, time(i));
        // bezier(y, y, mid) = 3 mid (1 - mid) y + mid^3.
        let y = (targets[i] - mid * mid * mid) / (3.0 * mid * (1.0 - mid));
        debug_assert!((bezier(y, y, mid) - targets[i]).abs() < 1e-9);
        [X, y, X, y]
    };
    let mut out = Vec::with_capacity(4 + 6 * (n - 1));
    out.extend_from_slice(&outer(0));
    if n == 1 {
        return out;
    }
    let end = |i: usize| time(i) + 0.4 * h;
    let mut w = targets[0] + 0.4 * (targets[1] - targets[0]);
    out.extend_from_slice(&[end(0), w]);
    for (i, &target) in targets.iter().enumerate().take(n - 1).skip(1) {
        let (x0, x3) = (end(i - 1), end(i));
        let dx = x3 - x0;
        let xs = [x0, x0 + dx / 3.0, x0 + 2.0 * dx / 3.0, x3];
        let mid = bisect4(xs, time(i));
        // Control points a third and two thirds along the line: y = y0 + mid (y3 - y0).
        let y0 = w;
        w = y0 + (target - y0) / mid;
        let dy = w - y0;
        out.extend_from_slice(&[xs[1], y0 + dy / 3.0, xs[2], y0 + 2.0 * dy / 3.0, x3, w]);
    }
    out.extend_from_slice(&outer(n - 1));
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::tween::{chain_samples, curve_samples};
    use super::*;

    #[test]
    fn the_chain_samples_back_to_the_samples() {
        for frames in [2, 7, 40, 200] {
            let want = curve_samples([0.1, 0.9, 0.3, -0.4], frames as usize + 1);
            let c = chain(&want, frames);
            assert_eq!(c.len(), 4 + 6 * frames as usize);
            assert_eq!(chain_samples(&c, frames as usize + 1), want, "{frames}");
        }
    }

    #[test]
    fn one_frame_is_a_plain_curve_with_two_samples() {
        let want = vec![0.25f32, 0.9];
        let c = chain(&want, 1);
        assert_eq!(chain_samples(&c, 2), want);
    }

    #[test]
    fn other_counts_are_resampled_at_the_runtime_times() {
        // Linear samples of any count read back linear.
        let lin: Vec<f32> = (1..=3).map(|i| i as f32 / 4.0).collect();
        let c = chain(&lin, 5);
        let got = chain_samples(&c, 6);
        for (i, g) in got.iter().enumerate() {
            assert!((*g as f64 - (i + 1) as f64 / 7.0).abs() < 2e-4, "{got:?}");
        }
    }
}
