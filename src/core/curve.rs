//! Keyframe storage and the interpolation between keys.
//!
//! Every timeline keeps its keys in a [`Keys`]: key times and values stored as `f32` (the
//! precision the reference runtimes keep them in), evaluated in `f64`. How one key blends into
//! the next is an [`Interp`]. New curve kinds (per-value absolute beziers, eased tweens, Unity
//! Hermite segments) are new `Interp` variants evaluated here, so timelines do not change.

/// Number of interior samples in a bezier table.
pub const BEZIER_SAMPLES: usize = 9;

/// How a key blends into the next key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interp {
    /// Straight line between the two keys.
    Linear,
    /// Hold this key's value until the next key.
    Stepped,
    /// A cubic bezier in normalised (time, value) space, sampled into table `n` of
    /// [`Keys::bezier`] (Spine 3.x semantics: the curve maps time percent to value percent).
    Bezier(u32),
}

/// Where a time falls among the keys of a [`Keys`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Span {
    /// Before the first key (or no keys at all).
    Before,
    /// At or after the last key; holds the last key's index.
    Last(usize),
    /// Between key `key` and `key + 1`, `percent` of the way (raw time fraction, 0..1).
    Between { key: usize, percent: f64 },
}

/// Keyframes: times, `channels` values per key, and the interpolation out of each key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Keys {
    pub times: Vec<f32>,
    pub values: Vec<f32>,
    pub channels: usize,
    /// One entry per key: how that key blends into the next (the last key's is unused).
    pub interp: Vec<Interp>,
    /// Sampled bezier tables referenced by [`Interp::Bezier`]: 9 (x, y) pairs each.
    pub bezier: Vec<[f32; BEZIER_SAMPLES * 2]>,
}

impl Keys {
    /// Empty keys with `channels` values per key.
    pub fn new(channels: usize) -> Keys {
        Keys {
            channels,
            ..Keys::default()
        }
    }

    /// Appends a key. `values.len()` must equal `channels`.
    pub fn push(&mut self, time: f32, values: &[f32], interp: Interp) {
        debug_assert_eq!(values.len(), self.channels);
        self.times.push(time);
        self.values.extend_from_slice(values);
        self.interp.push(interp);
    }

    /// Adds a normalised bezier with control points (cx1, cy1), (cx2, cy2) and returns its
    /// interpolation.
    pub fn add_bezier(&mut self, cx1: f64, cy1: f64, cx2: f64, cy2: f64) -> Interp {
        let table = bezier_table(cx1, cy1, cx2, cy2);
        self.bezier.push(table);
        Interp::Bezier((self.bezier.len() - 1) as u32)
    }

    /// Number of keys.
    #[inline]
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// True when there are no keys.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// Time of key `i`.
    #[inline]
    pub fn time(&self, i: usize) -> f64 {
        self.times[i] as f64
    }

    /// Value `channel` of key `i`.
    #[inline]
    pub fn value(&self, i: usize, channel: usize) -> f64 {
        self.values[i * self.channels + channel] as f64
    }

    /// The time of the last key, or 0 with no keys.
    pub fn last_time(&self) -> f64 {
        self.times.last().map_or(0.0, |&t| t as f64)
    }

    /// Finds where `time` falls among the keys.
    #[inline]
    pub fn locate(&self, time: f64) -> Span {
        let n = self.times.len();
        if n == 0 || time < self.times[0] as f64 {
            return Span::Before;
        }
        if time >= self.times[n - 1] as f64 {
            return Span::Last(n - 1);
        }
        // First key strictly after `time`; keys at equal times resolve to the last of them.
        let next = self.times.partition_point(|&t| (t as f64) <= time);
        let key = next - 1;
        let next_time = self.times[next] as f64;
        let percent = 1.0 - (time - next_time) / (self.times[key] as f64 - next_time);
        Span::Between { key, percent }
    }

    /// [`Keys::locate`], trying the key in `hint` and the one after it before searching, and
    /// leaving the key found in `hint` (times move forward a frame at a time, so the last
    /// key found usually still holds). The result is the same as `locate`'s whatever the hint:
    /// with sorted times exactly one key `k` has `times[k] <= time < times[k + 1]`, the key the
    /// search finds.
    #[inline(always)]
    pub fn locate_from(&self, time: f64, hint: &mut usize) -> Span {
        let times = &self.times;
        let n = times.len();
        if n == 0 || time < times[0] as f64 {
            return Span::Before;
        }
        if time >= times[n - 1] as f64 {
            return Span::Last(n - 1);
        }
        let holds = |k: usize| match times.get(k..k + 2) {
            Some(&[a, b]) => (a as f64) <= time && time < b as f64,
            _ => false,
        };
        let key = if holds(*hint) {
            *hint
        } else if holds(*hint + 1) {
            *hint + 1
        } else {
            times.partition_point(|&t| (t as f64) <= time) - 1
        };
        *hint = key;
        let next_time = times[key + 1] as f64;
        let percent = 1.0 - (time - next_time) / (times[key] as f64 - next_time);
        Span::Between { key, percent }
    }

    /// Applies key `key`'s interpolation to a raw time fraction, giving the value fraction.
    #[inline]
    pub fn curve_percent(&self, key: usize, percent: f64) -> f64 {
        match self.interp[key] {
            Interp::Linear => percent,
            Interp::Stepped => 0.0,
            Interp::Bezier(table) => bezier_percent(&self.bezier[table as usize], percent),
        }
    }

    /// The interpolated value of `channel` between `key` and `key + 1` at raw fraction `percent`.
    pub fn lerp(&self, key: usize, channel: usize, percent: f64) -> f64 {
        self.between(key, channel, self.curve_percent(key, percent))
    }

    /// The value of `channel` the value fraction `p` of the way from `key` to `key + 1` (`p`
    /// from [`Keys::curve_percent`]; timelines with several channels evaluate the curve once).
    #[inline]
    pub fn between(&self, key: usize, channel: usize, p: f64) -> f64 {
        let a = self.value(key, channel);
        a + (self.value(key + 1, channel) - a) * p
    }

    /// The value of `channel` at `time`: clamped to the first/last key outside the keyed range.
    /// Used by views and the `curves` command; timelines apply their own blending rules.
    pub fn sample(&self, time: f64, channel: usize) -> Option<f64> {
        match self.locate(time) {
            Span::Before => (!self.is_empty()).then(|| self.value(0, channel)),
            Span::Last(i) => Some(self.value(i, channel)),
            Span::Between { key, percent } => Some(self.lerp(key, channel, percent)),
        }
    }
}

/// Samples the cubic bezier from (0,0) to (1,1) with control points (cx1,cy1), (cx2,cy2) at
/// t = 0.1 .. 0.9 by forward differencing.
///
/// With B(t) = a t^3 + b t^2 + c t (a = 3cx1 - 3cx2 + 1, b = 3cx2 - 6cx1, c = 3cx1) and step
/// h = 0.1 the differences start at d1 = a h^3 + b h^2 + c h, d2 = 6 a h^3 + 2 b h^2 and
/// d3 = 6 a h^3. The accumulators stay f64 and each sample is stored as f32, which reproduces
/// the reference runtime's tables to the last bit in practice.
pub fn bezier_table(cx1: f64, cy1: f64, cx2: f64, cy2: f64) -> [f32; BEZIER_SAMPLES * 2] {
    // h = 0.1: 3h = 0.3, 3h^2 = 0.03, 6h^3 = 0.006.
    let coeffs = |c1: f64, c2: f64| {
        let a = (c1 - c2) * 3.0 + 1.0;
        let b3h2 = (-c1 * 2.0 + c2) * 0.03;
        let d3 = a * 0.006;
        let d2 = b3h2 * 2.0 + d3;
        let d1 = c1 * 0.3 + b3h2 + d3 / 6.0;
        (d1, d2, d3)
    };
    let (mut dfx, mut ddfx, dddfx) = coeffs(cx1, cx2);
    let (mut dfy, mut ddfy, dddfy) = coeffs(cy1, cy2);
    let mut out = [0f32; BEZIER_SAMPLES * 2];
    let (mut x, mut y) = (dfx, dfy);
    for i in 0..BEZIER_SAMPLES {
        out[i * 2] = x as f32;
        out[i * 2 + 1] = y as f32;
        dfx += ddfx;
        dfy += ddfy;
        ddfx += dddfx;
        ddfy += dddfy;
        x += dfx;
        y += dfy;
    }
    out
}

/// Evaluates a sampled bezier table at time fraction `percent` by linear interpolation between
/// the samples, with implicit ends at (0,0) and (1,1).
pub fn bezier_percent(table: &[f32; BEZIER_SAMPLES * 2], percent: f64) -> f64 {
    let percent = percent.clamp(0.0, 1.0);
    let (mut px, mut py) = (0.0, 0.0);
    for i in 0..BEZIER_SAMPLES {
        let x = table[i * 2] as f64;
        let y = table[i * 2 + 1] as f64;
        if x >= percent {
            return py + (y - py) * (percent - px) / (x - px);
        }
        px = x;
        py = y;
    }
    py + (1.0 - py) * (percent - px) / (1.0 - px)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_bezier_is_identity() {
        // Control points on the diagonal give the straight line.
        let t = bezier_table(1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0);
        for p in [0.0, 0.05, 0.25, 0.5, 0.93, 1.0] {
            assert!((bezier_percent(&t, p) - p).abs() < 1e-6, "{p}");
        }
    }

    #[test]
    fn bezier_samples_match_closed_form() {
        let (cx1, cy1, cx2, cy2) = (0.25, 0.0, 0.75, 1.0);
        let t = bezier_table(cx1, cy1, cx2, cy2);
        for i in 0..BEZIER_SAMPLES {
            let s = (i + 1) as f64 * 0.1;
            let b = |c1: f64, c2: f64| {
                3.0 * (1.0 - s) * (1.0 - s) * s * c1 + 3.0 * (1.0 - s) * s * s * c2 + s * s * s
            };
            assert!((t[i * 2] as f64 - b(cx1, cx2)).abs() < 1e-6);
            assert!((t[i * 2 + 1] as f64 - b(cy1, cy2)).abs() < 1e-6);
        }
    }

    #[test]
    fn bezier_percent_clamps() {
        let t = bezier_table(0.5, 0.0, 0.5, 1.0);
        assert_eq!(bezier_percent(&t, -1.0), 0.0);
        assert!((bezier_percent(&t, 2.0) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn locate_and_sample() {
        let mut k = Keys::new(1);
        k.push(0.0, &[0.0], Interp::Linear);
        k.push(1.0, &[10.0], Interp::Stepped);
        k.push(2.0, &[20.0], Interp::Linear);
        assert_eq!(k.locate(-0.5), Span::Before);
        assert_eq!(k.locate(2.0), Span::Last(2));
        assert_eq!(k.sample(0.5, 0), Some(5.0));
        assert_eq!(k.sample(1.5, 0), Some(10.0));
        assert_eq!(k.sample(1.0, 0), Some(10.0));
        assert_eq!(k.sample(9.0, 0), Some(20.0));
        assert_eq!(Keys::new(1).sample(0.0, 0), None);
    }

    #[test]
    fn locate_from_any_hint_matches_locate() {
        let mut k = Keys::new(1);
        for (i, t) in [0.0f32, 0.25, 0.5, 0.5, 0.5, 0.75, 1.0, 1.0, 2.0]
            .iter()
            .enumerate()
        {
            k.push(*t, &[i as f32], Interp::Linear);
        }
        let mut time = -0.5;
        while time < 2.5 {
            for start in 0..12 {
                let mut hint = start;
                assert_eq!(
                    k.locate_from(time, &mut hint),
                    k.locate(time),
                    "{time} {start}"
                );
            }
            time += 0.03125;
        }
        let mut hint = 3;
        assert_eq!(Keys::new(1).locate_from(0.0, &mut hint), Span::Before);
    }

    #[test]
    fn equal_key_times_take_the_later_key() {
        let mut k = Keys::new(1);
        k.push(0.0, &[0.0], Interp::Linear);
        k.push(1.0, &[5.0], Interp::Linear);
        k.push(1.0, &[7.0], Interp::Linear);
        k.push(2.0, &[9.0], Interp::Linear);
        assert!(matches!(k.locate(1.0), Span::Between { key: 2, .. }));
    }
}
