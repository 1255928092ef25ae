//! Keyframe storage and the interpolation between keys.
//!
//! Every timeline keeps its keys in a [`Keys`]: key times and values stored as `f32` (the
//! precision the reference runtimes keep them in), evaluated in `f64`. How one key blends into
//! the next is an [`Interp`]. New curve kinds (per-value absolute beziers, eased tweens, Unity
//! Hermite segments) are new `Interp` variants evaluated here, so timelines do not change.

use std::sync::Arc;

/// Number of interior samples in a bezier table.
pub const BEZIER_SAMPLES: usize = 9;

/// A key search hint, kept per timeline from one apply to the next (see
/// [`Keys::locate_from`]): the key the last lookup found. It is checked against the time
/// before use, so it saves the search but never changes a value (a pose does not depend on
/// how it was reached).
pub type KeyHint = usize;

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
    /// One cubic bezier per channel in absolute (time, value) space (Spine 4.x), sampled into
    /// tables `n .. n + channels` of [`Keys::bezier`] and interpolated by time. For keys
    /// without value channels (deform keys) table `n` maps time to a 0..1 percent.
    Bezier4(u32),
    /// A quadratic ease blended with the straight line by a strength (DragonBones
    /// `tweenEasing`): `p + (ease(p) - p) * strength`.
    Ease(Ease, f32),
    /// Value fractions sampled evenly in time, table `n` of [`Keys::sampled`], interpolated
    /// linearly with implicit ends (0, 0) and (1, 1) (DragonBones' resampled `curve`).
    Sampled(u32),
}

/// The easing shapes of [`Interp::Ease`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ease {
    /// `p^2`.
    QuadIn,
    /// `1 - (1 - p)^2`.
    QuadOut,
    /// `(1 - cos(pi p)) / 2`.
    QuadInOut,
}

impl Ease {
    /// The eased fraction at `p`.
    #[inline]
    pub fn at(self, p: f64) -> f64 {
        match self {
            Ease::QuadIn => p * p,
            Ease::QuadOut => 1.0 - (1.0 - p) * (1.0 - p),
            Ease::QuadInOut => 0.5 * (1.0 - (p * std::f64::consts::PI).cos()),
        }
    }
}

/// A remapping of animation time to key time for one timeline (DragonBones' per-timeline
/// `scale` and `offset`): `t / scale + offset`, wrapped into the animation's duration when the
/// animation repeats, held just past its end when it does not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeWarp {
    pub scale: f64,
    /// Seconds added after scaling.
    pub offset: f64,
    /// The animation's duration, seconds.
    pub duration: f64,
    /// Whether key time wraps at the duration (the animation repeats).
    pub wrap: bool,
    /// Keys sit on this frame grid (see [`snap_to_frame`]); 0 = continuous.
    pub frame_rate: f64,
}

impl TimeWarp {
    /// Key time for animation time `time`.
    pub fn apply(&self, time: f64) -> f64 {
        let d = self.duration;
        let mut t = time / self.scale + self.offset;
        if d > 0.0 {
            if !self.wrap && t >= d {
                t = d + 1e-6;
            } else {
                t %= d;
            }
        }
        if self.frame_rate > 0.0 {
            t = snap_to_frame(t, self.frame_rate);
        }
        t
    }
}

/// Adjusts `time` by at most a rounding error so that keys stored as `f32` seconds at whole
/// frames (`(frame / frame_rate) as f32`) are found the way a runtime that looks keys up by
/// frame index finds them: key `k` is reached when `floor(time * frame_rate) >= k`.
#[inline]
pub fn snap_to_frame(time: f64, frame_rate: f64) -> f64 {
    let frame = (time * frame_rate).floor();
    let lo = ((frame / frame_rate) as f32) as f64;
    let hi = (((frame + 1.0) / frame_rate) as f32) as f64;
    if time < lo {
        lo
    } else if time >= hi {
        // The largest f64 below `hi`.
        f64::from_bits(hi.to_bits() - 1)
    } else {
        time
    }
}

/// Where a time falls among the keys of a [`Keys`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Span {
    /// Before the first key (or no keys at all).
    Before,
    /// At or after the last key; holds the last key's index.
    Last(usize),
    /// Between key `key` and `key + 1`, `percent` of the way (raw time fraction, 0..1);
    /// `time` is the key time looked up (absolute curves interpolate by it).
    Between { key: usize, percent: f64, time: f64 },
}

/// Keyframes: times, `channels` values per key, and the interpolation out of each key.
///
/// Everything but DragonBones' sampled curves and eases lives in one buffer, so a timeline's
/// keys are one allocation (a load builds hundreds of them): `cap` key slots of times, then
/// `cap * channels` values, then a word per key for its interpolation (a tag and a table
/// number, stored as an `f32` bit pattern: copies of an `f32` keep its bits), then the bezier
/// tables, appended as they are added. A builder that knows its key and bezier counts
/// ([`Keys::with_capacity`]) allocates once; [`Keys::push`] past the capacity moves the
/// regions to a larger buffer.
#[derive(Clone)]
pub struct Keys {
    buf: Vec<f32>,
    len: usize,
    /// The keys the hinted lookups ([`Keys::locate_from`]) may answer from without the
    /// search: `len` without a [`TimeWarp`], 0 with one (a warp first maps the time). Always
    /// at most `len`, so `buf[..hinted]` are key times.
    hinted: usize,
    channels: usize,
    /// Where the values start: the key capacity.
    vals: usize,
    /// Where the interpolation words start.
    interps: usize,
    /// Where the bezier tables start.
    tables: usize,
    /// Evenly sampled value fractions referenced by [`Interp::Sampled`]. Shared: exports
    /// repeat a few curves over many key frames, and a loader hands each key the same table.
    sampled: Vec<Arc<[f32]>>,
    /// The strengths of [`Interp::Ease`] keys.
    eases: Vec<f32>,
    /// Maps animation time to key time before every lookup; `None` for most timelines.
    warp: Option<TimeWarp>,
}

/// Words per bezier table.
const TABLE: usize = BEZIER_SAMPLES * 2;

/// A key's interpolation word: [`BEZIER4`] and the first table's number below it (the
/// frame's most common case, told by one bit test), or a tag in the low [`TAG_BITS`] and a
/// table number (for eases the strength's place in `eases`) above them.
const BEZIER4: u32 = 1 << 31;
const TAG_BITS: u32 = 3;
const TAG_MASK: u32 = (1 << TAG_BITS) - 1;
const LINEAR: u32 = 0;
const STEPPED: u32 = 1;
const BEZIER: u32 = 2;
const EASE_IN: u32 = 4;
const EASE_OUT: u32 = 5;
const EASE_IN_OUT: u32 = 6;
const SAMPLED: u32 = 7;

impl Default for Keys {
    fn default() -> Keys {
        Keys::new(0)
    }
}

impl PartialEq for Keys {
    fn eq(&self, other: &Keys) -> bool {
        self.channels == other.channels
            && self.times() == other.times()
            && self.values() == other.values()
            && self.interps().eq(other.interps())
            && self.bezier_tables() == other.bezier_tables()
            && self.sampled == other.sampled
            && self.warp == other.warp
    }
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keys")
            .field("times", &self.times())
            .field("values", &self.values())
            .field("channels", &self.channels)
            .field("interp", &self.interps().collect::<Vec<_>>())
            .field("bezier", &self.bezier_tables().as_chunks::<TABLE>().0)
            .field("sampled", &self.sampled)
            .field("warp", &self.warp)
            .finish()
    }
}

impl Keys {
    /// Empty keys with `channels` values per key.
    pub fn new(channels: usize) -> Keys {
        Keys {
            buf: Vec::new(),
            len: 0,
            hinted: 0,
            channels,
            vals: 0,
            interps: 0,
            tables: 0,
            sampled: Vec::new(),
            eases: Vec::new(),
            warp: None,
        }
    }

    /// Empty keys with room for `keys` keys and `beziers` bezier tables: filling them takes
    /// no further allocation. Callers bound both by what their input can hold.
    pub fn with_capacity(channels: usize, keys: usize, beziers: usize) -> Keys {
        let mut k = Keys::new(channels);
        let slots = Keys::slots(keys, channels);
        // Made at its size (`reserve_exact` on an empty list takes the growth path).
        k.buf = Vec::with_capacity(slots.saturating_add(beziers.saturating_mul(TABLE)));
        k.buf.resize(slots, 0.0);
        k.set_cap(keys);
        k
    }

    /// Places the regions for `cap` key slots.
    fn set_cap(&mut self, cap: usize) {
        self.vals = cap;
        self.interps = cap * (self.channels + 1);
        self.tables = cap * (self.channels + 2);
    }

    /// Buffer words of `keys` key slots.
    fn slots(keys: usize, channels: usize) -> usize {
        keys.saturating_mul(channels.saturating_add(2))
    }

    /// Moves the regions to a buffer with room for `cap` keys (at least the current count).
    fn grow(&mut self, cap: usize) {
        let ch = self.channels;
        let tables = &self.buf[self.tables..];
        let mut buf = Vec::with_capacity(Keys::slots(cap, ch).saturating_add(tables.len()));
        let region = |buf: &mut Vec<f32>, from: usize, used: usize, room: usize| {
            buf.extend_from_slice(&self.buf[from..from + used]);
            buf.resize(buf.len() + (room - used), 0.0);
        };
        region(&mut buf, 0, self.len, cap);
        region(&mut buf, self.vals, self.len * ch, cap * ch);
        region(&mut buf, self.interps, self.len, cap);
        buf.extend_from_slice(tables);
        self.buf = buf;
        self.set_cap(cap);
    }

    /// Appends a key. `values.len()` must equal `channels`.
    ///
    /// Inlined so that a loader's fixed channel count makes the value copy a few moves.
    #[inline]
    pub fn push(&mut self, time: f32, values: &[f32], interp: Interp) {
        debug_assert_eq!(values.len(), self.channels);
        if self.len == self.vals {
            self.grow(self.vals.saturating_mul(2).max(4));
        }
        let (i, ch) = (self.len, self.channels);
        self.buf[i] = time;
        let v = self.vals + i * ch;
        self.buf[v..v + ch].copy_from_slice(values);
        let word = self.encode(interp);
        self.buf[self.interps + i] = word;
        self.len += 1;
        self.hinted = if self.warp.is_none() { self.len } else { 0 };
    }

    /// Adds a bezier table and returns its number.
    #[inline]
    pub fn push_bezier(&mut self, table: [f32; TABLE]) -> u32 {
        let n = self.bezier_count() as u32;
        self.buf.extend_from_slice(&table);
        n
    }

    /// Adds copies of `tables` (as [`Keys::bezier_tables`] gives them) and returns the number
    /// of the first.
    pub fn extend_beziers(&mut self, tables: &[f32]) -> u32 {
        debug_assert_eq!(tables.len() % TABLE, 0);
        let n = self.bezier_count() as u32;
        self.buf.extend_from_slice(tables);
        n
    }

    /// Adds a normalised bezier with control points (cx1, cy1), (cx2, cy2) and returns its
    /// interpolation.
    pub fn add_bezier(&mut self, cx1: f64, cy1: f64, cx2: f64, cy2: f64) -> Interp {
        Interp::Bezier(self.push_bezier(bezier_table(cx1, cy1, cx2, cy2)))
    }

    /// Adds the per-channel absolute beziers (Spine 4.x) of the key about to be pushed at
    /// (`t1`, `v1`) toward the next key at (`t2`, `v2`): one `[cx1, cy1, cx2, cy2]` per channel,
    /// in the raw f64 precision of the file (the tables are built from it, then stored as f32).
    pub fn add_bezier4(
        &mut self,
        t1: f64,
        v1: &[f64],
        curves: &[[f64; 4]],
        t2: f64,
        v2: &[f64],
    ) -> Interp {
        let first = self.bezier_count() as u32;
        for (c, &[cx1, cy1, cx2, cy2]) in curves.iter().enumerate() {
            self.push_bezier(bezier4_table(t1, v1[c], cx1, cy1, cx2, cy2, t2, v2[c]));
        }
        Interp::Bezier4(first)
    }

    /// Adds the percent bezier of a deform key (Spine 4.x) between key times `t1` and `t2`.
    pub fn add_percent_bezier4(&mut self, t1: f64, curve: [f64; 4], t2: f64) -> Interp {
        let [cx1, cy1, cx2, cy2] = curve;
        Interp::Bezier4(self.push_bezier(percent_bezier4_table(t1, cx1, cy1, cx2, cy2, t2)))
    }

    /// Adds an evenly sampled curve (value fractions at `(i + 1) / (n + 1)`) and returns its
    /// interpolation.
    pub fn add_sampled(&mut self, samples: impl Into<Arc<[f32]>>) -> Interp {
        self.sampled.push(samples.into());
        Interp::Sampled((self.sampled.len() - 1) as u32)
    }

    /// Values per key.
    #[inline(always)]
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// The key times, in order.
    #[inline(always)]
    pub fn times(&self) -> &[f32] {
        &self.buf[..self.len]
    }

    /// The values, `channels` per key.
    #[inline(always)]
    pub fn values(&self) -> &[f32] {
        let at = self.vals;
        &self.buf[at..at + self.len * self.channels]
    }

    /// The values, to change in place (key order and count stay).
    pub fn values_mut(&mut self) -> &mut [f32] {
        let at = self.vals;
        &mut self.buf[at..at + self.len * self.channels]
    }

    /// How key `i` blends into the next key (the last key's is unused). Panics past the last
    /// key, as indexing does.
    #[inline(always)]
    pub fn interp(&self, i: usize) -> Interp {
        self.decode(self.word(i))
    }

    /// Key `i`'s interpolation word.
    #[inline(always)]
    fn word(&self, i: usize) -> u32 {
        debug_assert!(i < self.len, "key {i} of {}", self.len);
        self.buf[self.interps + i].to_bits()
    }

    /// The first table of key `i`'s [`Interp::Bezier4`] curve, if it has one.
    #[inline(always)]
    pub(crate) fn bezier4_at(&self, i: usize) -> Option<usize> {
        let word = self.word(i);
        (word & BEZIER4 != 0).then_some((word & !BEZIER4) as usize)
    }

    /// The word that stands for `interp` (an ease's strength goes to `eases`).
    #[inline]
    fn encode(&mut self, interp: Interp) -> f32 {
        let (tag, payload) = match interp {
            Interp::Linear => (LINEAR, 0),
            Interp::Stepped => (STEPPED, 0),
            Interp::Bezier(n) => (BEZIER, n as usize),
            Interp::Bezier4(n) => {
                // 2^31 tables would take 150 GB: no input reaches that.
                assert!(n < BEZIER4, "curve table {n}");
                return f32::from_bits(BEZIER4 | n);
            }
            Interp::Sampled(n) => (SAMPLED, n as usize),
            Interp::Ease(ease, strength) => {
                self.eases.push(strength);
                let tag = match ease {
                    Ease::QuadIn => EASE_IN,
                    Ease::QuadOut => EASE_OUT,
                    Ease::QuadInOut => EASE_IN_OUT,
                };
                (tag, self.eases.len() - 1)
            }
        };
        // 2^28 tables would take 19 GB: no input reaches that.
        assert!(payload < 1 << (31 - TAG_BITS), "curve table {payload}");
        f32::from_bits(tag | (payload as u32) << TAG_BITS)
    }

    /// The interpolation [`Keys::encode`] gave the word of.
    #[inline(always)]
    fn decode(&self, word: u32) -> Interp {
        if word & BEZIER4 != 0 {
            return Interp::Bezier4(word & !BEZIER4);
        }
        let n = word >> TAG_BITS;
        let ease = |e| Interp::Ease(e, self.eases[n as usize]);
        match word & TAG_MASK {
            STEPPED => Interp::Stepped,
            BEZIER => Interp::Bezier(n),
            EASE_IN => ease(Ease::QuadIn),
            EASE_OUT => ease(Ease::QuadOut),
            EASE_IN_OUT => ease(Ease::QuadInOut),
            SAMPLED => Interp::Sampled(n),
            // LINEAR, and nothing else is ever written.
            _ => Interp::Linear,
        }
    }

    /// [`Keys::interp`], `None` past the last key.
    pub fn get_interp(&self, i: usize) -> Option<Interp> {
        (i < self.len).then(|| self.interp(i))
    }

    /// Every key's interpolation, in key order.
    pub fn interps(&self) -> impl Iterator<Item = Interp> + '_ {
        (0..self.len).map(|i| self.interp(i))
    }

    /// Replaces key `i`'s interpolation (its tables must exist already).
    pub fn set_interp(&mut self, i: usize, interp: Interp) {
        assert!(i < self.len, "key {i} of {}", self.len);
        let word = self.encode(interp);
        self.buf[self.interps + i] = word;
    }

    /// Bezier table `n` (see [`Interp::Bezier`] and [`Interp::Bezier4`]): 9 (x, y) pairs.
    #[inline(always)]
    pub fn bezier(&self, n: usize) -> &[f32; TABLE] {
        let at = self.tables + n * TABLE;
        match self.buf[at..at + TABLE].first_chunk::<TABLE>() {
            Some(t) => t,
            None => unreachable!("a slice of TABLE words"),
        }
    }

    /// Number of bezier tables.
    pub fn bezier_count(&self) -> usize {
        (self.buf.len() - self.tables) / TABLE
    }

    /// Every bezier table, one after the other.
    pub fn bezier_tables(&self) -> &[f32] {
        &self.buf[self.tables..]
    }

    /// Sampled curve `n` (see [`Interp::Sampled`]).
    pub fn sampled(&self, n: usize) -> &[f32] {
        &self.sampled[n]
    }

    /// The time warp applied before every lookup, if any.
    pub fn warp(&self) -> Option<&TimeWarp> {
        self.warp.as_ref()
    }

    /// Sets the time warp applied before every lookup.
    pub fn set_warp(&mut self, warp: Option<TimeWarp>) {
        self.warp = warp;
        self.hinted = if self.warp.is_none() { self.len } else { 0 };
    }

    /// Number of keys.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no keys.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Time of key `i`.
    #[inline]
    pub fn time(&self, i: usize) -> f64 {
        self.times()[i] as f64
    }

    /// Value `channel` of key `i`.
    #[inline]
    pub fn value(&self, i: usize, channel: usize) -> f64 {
        self.buf[self.vals + i * self.channels + channel] as f64
    }

    /// Channels `first .. first + N` of key `key` and of the next key. Values are stored key
    /// by key, so both rows are two slices: two bounds checks in all rather than one per value
    /// (the same bounds [`Keys::value`] checks: a row past the buffer panics).
    #[inline(always)]
    fn rows<const N: usize>(&self, key: usize, first: usize) -> (&[f32; N], &[f32; N]) {
        let at = self.vals + key * self.channels + first;
        let a = self.buf[at..].first_chunk::<N>();
        let b = self.buf[at + self.channels..].first_chunk::<N>();
        match (a, b) {
            (Some(a), Some(b)) => (a, b),
            _ => panic!("key {key} channels {first}+{N} past the values"),
        }
    }

    /// Channels `first .. first + N` between `key` (at time `t1`) and the next key (at `t2`)
    /// at key time `time`, `percent` the raw time fraction there: what [`Keys::between_at`]
    /// gives for each channel, with the key's interpolation word, times and values read once
    /// for all channels.
    #[inline(always)]
    pub fn span_values<const N: usize>(
        &self,
        key: usize,
        first: usize,
        time: f64,
        (t1, t2): (f64, f64),
        percent: f64,
    ) -> [f64; N] {
        let (a, b) = self.rows::<N>(key, first);
        let mut out = [0.0; N];
        match self.bezier4_at(key) {
            Some(table) => {
                for (ch, v) in out.iter_mut().enumerate() {
                    *v = bezier4_value(
                        self.bezier(table + first + ch),
                        time,
                        t1,
                        a[ch] as f64,
                        t2,
                        b[ch] as f64,
                    );
                }
            }
            // A normalised curve is one fraction for every channel: evaluate it once.
            None => {
                let p = self.curve_percent(key, percent);
                for (ch, v) in out.iter_mut().enumerate() {
                    let a = a[ch] as f64;
                    *v = a + (b[ch] as f64 - a) * p;
                }
            }
        }
        out
    }

    /// The time of the last key, or 0 with no keys.
    pub fn last_time(&self) -> f64 {
        self.times().last().map_or(0.0, |&t| t as f64)
    }

    /// Finds where `time` falls among the keys.
    #[inline]
    pub fn locate(&self, time: f64) -> Span {
        let time = self.key_time(time);
        let n = self.len;
        // A NaN time counts as before the first key rather than reaching the search.
        if n == 0 || time.is_nan() || time < self.times()[0] as f64 {
            return Span::Before;
        }
        if time >= self.times()[n - 1] as f64 {
            return Span::Last(n - 1);
        }
        // First key strictly after `time`; keys at equal times resolve to the last of them.
        let next = self.times().partition_point(|&t| (t as f64) <= time);
        let key = next - 1;
        let next_time = self.times()[next] as f64;
        let percent = 1.0 - (time - next_time) / (self.times()[key] as f64 - next_time);
        Span::Between { key, percent, time }
    }

    /// [`Keys::locate`], trying the key in `hint` and the one after it before searching, and
    /// leaving the key found in `hint` (times move forward a frame at a time, so the last
    /// key found usually still holds). The result is the same as `locate`'s whatever the hint:
    /// with sorted times (which every loader checks) exactly one key `k` has
    /// `times[k] <= time < times[k + 1]`, the key the search finds.
    #[inline(always)]
    pub fn locate_from(&self, time: f64, hint: &mut KeyHint) -> Span {
        if let Some((key, t1, t2)) = self.hinted_key(time, *hint) {
            let percent = 1.0 - (time - t2) / (t1 - t2);
            return Span::Between { key, percent, time };
        }
        if let Some(k) = self.hinted_last(time, *hint) {
            return Span::Last(k);
        }
        if self.before_first(time) {
            return Span::Before;
        }
        self.locate_searched(time, hint)
    }

    /// [`Keys::locate_from`] when the time is not in the hinted span: the key after it, or
    /// a search. Leaves the key found (the last key after it) in `hint`, its facts cleared.
    #[inline(never)]
    fn locate_searched(&self, time: f64, hint: &mut KeyHint) -> Span {
        let time = self.key_time(time);
        let times = self.times();
        let n = times.len();
        if n == 0 || time.is_nan() || time < times[0] as f64 {
            return Span::Before;
        }
        if time >= times[n - 1] as f64 {
            *hint = n - 1;
            return Span::Last(n - 1);
        }
        let holds = |k: usize| match times.get(k..k.wrapping_add(2)) {
            Some(&[a, b]) => (a as f64) <= time && time < b as f64,
            _ => false,
        };
        let after = hint.wrapping_add(1);
        let key = if holds(after) {
            after
        } else {
            times.partition_point(|&t| (t as f64) <= time) - 1
        };
        *hint = key;
        let next_time = times[key + 1] as f64;
        let percent = 1.0 - (time - next_time) / (times[key] as f64 - next_time);
        Span::Between { key, percent, time }
    }

    /// The key `hint` names and the times of it and the next key, when `time` falls between
    /// them (`times[k] <= time < times[k + 1]`) and no [`TimeWarp`] applies: then it is the
    /// span [`Keys::locate`] finds (with sorted times exactly one key holds the time), so the
    /// hint only saves the search and never changes a result.
    #[inline(always)]
    fn hinted_key(&self, time: f64, hint: KeyHint) -> Option<(usize, f64, f64)> {
        let k = hint;
        // Two keys from `k` on among the hinted times (none with a warp).
        match self
            .hinted_times()
            .get(k..)
            .and_then(|t| t.first_chunk::<2>())
        {
            Some(&[a, b]) if (a as f64) <= time && time < b as f64 => Some((k, a as f64, b as f64)),
            _ => None,
        }
    }

    /// The key times the hinted lookups may use: all of them, none with a [`TimeWarp`].
    #[inline(always)]
    fn hinted_times(&self) -> &[f32] {
        // Times start the buffer, and `hinted <= len`.
        &self.buf[..self.hinted]
    }

    /// The last key, when `hint` names it and `time` is at or after it (no [`TimeWarp`]):
    /// [`Keys::locate`] gives `Span::Last` there.
    #[inline(always)]
    fn hinted_last(&self, time: f64, hint: KeyHint) -> Option<usize> {
        let k = hint;
        let times = self.hinted_times();
        // Key `k` is the last of the hinted times (none with a warp).
        let last =
            k.wrapping_add(1) == times.len() && times.last().is_some_and(|&t| time >= t as f64);
        last.then_some(k)
    }

    /// Whether `time` is before the first key (no [`TimeWarp`]): [`Keys::locate`] gives
    /// `Span::Before` there, and the hinted lookups answer without the out-of-line search
    /// (timelines whose first key is late sit there frame after frame).
    #[inline(always)]
    fn before_first(&self, time: f64) -> bool {
        // The first hinted time is key 0's (none with a warp).
        self.hinted_times()
            .first()
            .is_some_and(|&t| time < t as f64)
    }

    /// Channel `channel` between `key` (at time `t1`) and the next key (at `t2`) at key time
    /// `time`: what [`Keys::between_at`] gives for the span [`Keys::locate`] finds there.
    #[inline(always)]
    fn value_in_span(&self, key: usize, channel: usize, time: f64, (t1, t2): (f64, f64)) -> f64 {
        let percent = 1.0 - (time - t2) / (t1 - t2);
        let [v] = self.span_values::<1>(key, channel, time, (t1, t2), percent);
        v
    }

    /// The value of `channel` at animation time `time`, `None` before the first key (the last
    /// key's value after it), searching from `hint` as [`Keys::locate_from`] does: the same
    /// value as [`Keys::channel_at`] of [`Keys::locate`]'s span, by a shorter path when the
    /// time is still in the hinted span.
    #[inline(always)]
    pub fn value_from(&self, time: f64, hint: &mut KeyHint, channel: usize) -> Option<f64> {
        if let Some((key, t1, t2)) = self.hinted_key(time, *hint) {
            return Some(self.value_in_span(key, channel, time, (t1, t2)));
        }
        if let Some(k) = self.hinted_last(time, *hint) {
            return Some(self.value(k, channel));
        }
        if self.before_first(time) {
            return None;
        }
        self.value_searched(time, hint, channel)
    }

    /// [`Keys::value_from`] when the hint misses.
    #[inline(never)]
    fn value_searched(&self, time: f64, hint: &mut KeyHint, channel: usize) -> Option<f64> {
        // The hinted span missed already: what `locate_from` would do next.
        match self.locate_searched(time, hint) {
            Span::Before => None,
            Span::Last(k) => Some(self.value(k, channel)),
            // As the hinted path reads a span (what `channel_at` gives, without its call).
            Span::Between { key, percent, time } => {
                let span = (self.time(key), self.time(key + 1));
                let [v] = self.span_values::<1>(key, channel, time, span, percent);
                Some(v)
            }
        }
    }

    /// Channels 0 and 1 at animation time `time` ([`Keys::value_from`] for two-channel keys).
    #[inline(always)]
    pub fn values2_from(&self, time: f64, hint: &mut KeyHint) -> Option<(f64, f64)> {
        if let Some((key, t1, t2)) = self.hinted_key(time, *hint) {
            let percent = 1.0 - (time - t2) / (t1 - t2);
            let [x, y] = self.span_values::<2>(key, 0, time, (t1, t2), percent);
            return Some((x, y));
        }
        if let Some(k) = self.hinted_last(time, *hint) {
            return Some((self.value(k, 0), self.value(k, 1)));
        }
        if self.before_first(time) {
            return None;
        }
        self.values2_searched(time, hint)
    }

    /// [`Keys::values2_from`] when the hint misses.
    #[inline(never)]
    fn values2_searched(&self, time: f64, hint: &mut KeyHint) -> Option<(f64, f64)> {
        match self.locate_searched(time, hint) {
            Span::Before => None,
            Span::Last(k) => Some((self.value(k, 0), self.value(k, 1))),
            // Both channels from one curve evaluation, as the hinted path does.
            Span::Between { key, percent, time } => {
                let span = (self.time(key), self.time(key + 1));
                let [x, y] = self.span_values::<2>(key, 0, time, span, percent);
                Some((x, y))
            }
        }
    }

    /// Channels `first .. first + N` at animation time `time` ([`Keys::values2_from`] for any
    /// run of channels): what [`Keys::channel_at`] gives for each at [`Keys::locate`]'s span,
    /// `None` before the first key, with the span found and its curve evaluated once.
    #[inline(always)]
    pub fn values_from<const N: usize>(
        &self,
        time: f64,
        hint: &mut KeyHint,
        first: usize,
    ) -> Option<[f64; N]> {
        if let Some((key, t1, t2)) = self.hinted_key(time, *hint) {
            let percent = 1.0 - (time - t2) / (t1 - t2);
            return Some(self.span_values::<N>(key, first, time, (t1, t2), percent));
        }
        if let Some(k) = self.hinted_last(time, *hint) {
            return Some(std::array::from_fn(|ch| self.value(k, first + ch)));
        }
        if self.before_first(time) {
            return None;
        }
        self.values_searched::<N>(time, hint, first)
    }

    /// [`Keys::values_from`] when the hint misses.
    #[inline(never)]
    fn values_searched<const N: usize>(
        &self,
        time: f64,
        hint: &mut KeyHint,
        first: usize,
    ) -> Option<[f64; N]> {
        match self.locate_searched(time, hint) {
            Span::Before => None,
            Span::Last(k) => Some(std::array::from_fn(|ch| self.value(k, first + ch))),
            Span::Between { key, percent, time } => {
                let span = (self.time(key), self.time(key + 1));
                Some(self.span_values::<N>(key, first, time, span, percent))
            }
        }
    }

    /// The key time for animation time `time` (the same unless the keys have a [`TimeWarp`]).
    #[inline(always)]
    pub fn key_time(&self, time: f64) -> f64 {
        match &self.warp {
            None => time,
            Some(w) => w.apply(time),
        }
    }

    /// Applies key `key`'s interpolation to a raw time fraction, giving the value fraction.
    /// Absolute (4.x) curves are per channel: use [`Keys::channel_at`] for them; here they
    /// give the fraction of their first table (deform percent curves have only that one).
    #[inline(always)]
    pub fn curve_percent(&self, key: usize, percent: f64) -> f64 {
        // Linear keys are most keys of many rigs: their fraction is the raw one, without the
        // call that the other kinds take.
        if self.word(key) & (BEZIER4 | TAG_MASK) == LINEAR {
            return percent;
        }
        self.curved_percent(key, percent)
    }

    /// [`Keys::curve_percent`] of a key that is not linear.
    #[inline(never)]
    fn curved_percent(&self, key: usize, percent: f64) -> f64 {
        // By tag: decoding the whole `Interp` first costs a second dispatch on hot paths.
        let word = self.word(key);
        if word & BEZIER4 != 0 {
            let (t1, t2) = (self.time(key), self.time(key + 1));
            let time = t1 + (t2 - t1) * percent;
            let table = (word & !BEZIER4) as usize;
            return bezier4_value(self.bezier(table), time, t1, 0.0, t2, 1.0);
        }
        let table = (word >> TAG_BITS) as usize;
        match word & TAG_MASK {
            LINEAR => percent,
            STEPPED => 0.0,
            BEZIER => bezier_percent(self.bezier(table), percent),
            SAMPLED => sampled_percent(self.sampled(table), percent),
            _ => match self.decode(word) {
                Interp::Ease(ease, strength) => {
                    percent + (ease.at(percent) - percent) * strength as f64
                }
                _ => percent,
            },
        }
    }

    /// The value fraction between `key` and `key + 1` at raw fraction `percent`, `time` being
    /// that key time (for one-channel percent curves such as deform keys).
    #[inline]
    pub fn percent_at(&self, key: usize, percent: f64, time: f64) -> f64 {
        match self.bezier4_at(key) {
            Some(table) => bezier4_value(
                self.bezier(table),
                time,
                self.time(key),
                0.0,
                self.time(key + 1),
                1.0,
            ),
            _ => self.curve_percent(key, percent),
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

    /// The value of `channel` at a span that is not `Before` (the last key's value at `Last`).
    /// This is the one curve evaluation every timeline, view and command goes through.
    #[inline]
    pub fn channel_at(&self, sp: Span, channel: usize) -> f64 {
        match sp {
            Span::Last(i) => self.value(i, channel),
            Span::Between { key, percent, time } => self.between_at(key, channel, percent, time),
            Span::Before => self.value(0, channel),
        }
    }

    /// The value of `channel` between `key` and `key + 1`, `percent` of the way in time
    /// (`time` is that key time, used by absolute curves).
    #[inline]
    pub fn between_at(&self, key: usize, channel: usize, percent: f64, time: f64) -> f64 {
        match self.bezier4_at(key) {
            Some(table) => bezier4_value(
                self.bezier(table + channel),
                time,
                self.time(key),
                self.value(key, channel),
                self.time(key + 1),
                self.value(key + 1, channel),
            ),
            _ => self.between(key, channel, self.curve_percent(key, percent)),
        }
    }

    /// The value of `channel` at `time`: clamped to the first/last key outside the keyed range.
    /// Used by views and the `curves` command; timelines apply their own blending rules.
    pub fn sample(&self, time: f64, channel: usize) -> Option<f64> {
        match self.locate(time) {
            Span::Before => (!self.is_empty()).then(|| self.value(0, channel)),
            Span::Last(i) => Some(self.value(i, channel)),
            sp @ Span::Between { .. } => Some(self.channel_at(sp, channel)),
        }
    }
}

/// Samples one channel's cubic bezier of a Spine 4.x key from (`t1`, `v1`) to (`t2`, `v2`) with
/// absolute control points (`cx1`, `cy1`), (`cx2`, `cy2`) at parameters 0.1 .. 0.9 by forward
/// differencing, with the runtimes' literal constants (0.16666667, not 1/6).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn bezier4_table(
    t1: f64,
    v1: f64,
    cx1: f64,
    cy1: f64,
    cx2: f64,
    cy2: f64,
    t2: f64,
    v2: f64,
) -> [f32; BEZIER_SAMPLES * 2] {
    let tx = (t1 - cx1 * 2.0 + cx2) * 0.03;
    let ty = (v1 - cy1 * 2.0 + cy2) * 0.03;
    let ex = ((cx1 - cx2) * 3.0 - t1 + t2) * 0.006;
    let ey = ((cy1 - cy2) * 3.0 - v1 + v2) * 0.006;
    forward_differences(t1, v1, cx1, cy1, tx, ty, ex, ey)
}

/// The table of a Spine 4.x deform key's percent curve (values 0 to 1), with the runtimes'
/// specialised constants for that case.
pub fn percent_bezier4_table(
    t1: f64,
    cx1: f64,
    cy1: f64,
    cx2: f64,
    cy2: f64,
    t2: f64,
) -> [f32; BEZIER_SAMPLES * 2] {
    let tx = (t1 - cx1 * 2.0 + cx2) * 0.03;
    let ex = ((cx1 - cx2) * 3.0 - t1 + t2) * 0.006;
    let ty = cy2 * 0.03 - cy1 * 0.06;
    let ey = (cy1 - cy2 + 0.33333333) * 0.018;
    forward_differences(t1, 0.0, cx1, cy1, tx, ty, ex, ey)
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn forward_differences(
    t1: f64,
    v1: f64,
    cx1: f64,
    cy1: f64,
    tx: f64,
    ty: f64,
    ex: f64,
    ey: f64,
) -> [f32; BEZIER_SAMPLES * 2] {
    let (mut gx, mut gy) = (tx * 2.0 + ex, ty * 2.0 + ey);
    let mut dx = (cx1 - t1) * 0.3 + tx + ex * 0.16666667;
    let mut dy = (cy1 - v1) * 0.3 + ty + ey * 0.16666667;
    let (mut x, mut y) = (t1 + dx, v1 + dy);
    let mut out = [0f32; BEZIER_SAMPLES * 2];
    for i in 0..BEZIER_SAMPLES {
        out[i * 2] = x as f32;
        out[i * 2 + 1] = y as f32;
        dx += gx;
        dy += gy;
        gx += ex;
        gy += ey;
        x += dx;
        y += dy;
    }
    out
}

/// Evaluates an absolute bezier table at `time` between the keys (`t1`, `v1`) and (`t2`, `v2`):
/// before the first sample from the key, after the last toward the next key, else between the
/// first sample at or after `time` and the one before it.
#[inline]
pub fn bezier4_value(
    table: &[f32; BEZIER_SAMPLES * 2],
    time: f64,
    t1: f64,
    v1: f64,
    t2: f64,
    v2: f64,
) -> f64 {
    let x0 = table[0] as f64;
    if x0 > time {
        let y0 = table[1] as f64;
        return v1 + (time - t1) / (x0 - t1) * (y0 - v1);
    }
    for s in 1..BEZIER_SAMPLES {
        let x = table[s * 2] as f64;
        if x >= time {
            let (px, py) = (table[s * 2 - 2] as f64, table[s * 2 - 1] as f64);
            let y = table[s * 2 + 1] as f64;
            return py + (time - px) / (x - px) * (y - py);
        }
    }
    let (px, py) = (table[16] as f64, table[17] as f64);
    py + (time - px) / (t2 - px) * (v2 - py)
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

/// Evaluates evenly spaced samples (value fractions at `(i + 1) / (n + 1)`) at time fraction
/// `percent` by linear interpolation, with implicit ends at 0 and 1.
pub fn sampled_percent(samples: &[f32], percent: f64) -> f64 {
    if percent <= 0.0 {
        return 0.0;
    }
    if percent >= 1.0 {
        return 1.0;
    }
    let segments = samples.len() + 1;
    let x = percent * segments as f64;
    let i = (x.floor() as usize).min(segments - 1);
    let lo = if i == 0 { 0.0 } else { samples[i - 1] as f64 };
    let hi = if i == segments - 1 {
        1.0
    } else {
        samples[i] as f64
    };
    lo + (hi - lo) * (x - i as f64)
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
        assert_eq!(k.locate_from(f64::NAN, &mut hint), Span::Before);
        assert_eq!(k.locate(f64::NAN), Span::Before);
    }

    #[test]
    fn eases_blend_with_the_line_by_strength() {
        let mut k = Keys::new(1);
        k.push(0.0, &[0.0], Interp::Ease(Ease::QuadIn, 1.0));
        k.push(1.0, &[1.0], Interp::Linear);
        assert!((k.sample(0.5, 0).unwrap() - 0.25).abs() < 1e-12);
        k.set_interp(0, Interp::Ease(Ease::QuadOut, 0.5));
        assert!((k.sample(0.5, 0).unwrap() - (0.5 + (0.75 - 0.5) * 0.5)).abs() < 1e-12);
        k.set_interp(0, Interp::Ease(Ease::QuadInOut, 1.0));
        assert!(
            (k.sample(0.25, 0).unwrap() - 0.5 * (1.0 - (0.25 * std::f64::consts::PI).cos())).abs()
                < 1e-12
        );
    }

    #[test]
    fn sampled_curves_interpolate_between_samples() {
        let s = [0.1f32, 0.5, 0.6];
        assert_eq!(sampled_percent(&s, 0.0), 0.0);
        assert_eq!(sampled_percent(&s, 1.0), 1.0);
        assert!((sampled_percent(&s, 0.125) - 0.05).abs() < 1e-7);
        assert!((sampled_percent(&s, 0.5) - 0.5).abs() < 1e-7);
        assert!((sampled_percent(&s, 0.875) - 0.8).abs() < 1e-7);
    }

    #[test]
    fn snapping_finds_keys_by_frame_index() {
        for fps in [24.0, 30.0, 36.0, 60.0] {
            for f in 0..3000u32 {
                let t = f as f64 / fps;
                let s = snap_to_frame(t, fps);
                let key = ((f as f64 / fps) as f32) as f64;
                let next = (((f + 1) as f64 / fps) as f32) as f64;
                let frame = (t * fps).floor();
                if frame == f as f64 {
                    assert!(s >= key && s < next, "{fps} {f}");
                } else {
                    assert!(s < key, "{fps} {f}");
                }
                // Within the f32 rounding of the key times themselves.
                assert!((s - t).abs() < 1e-6 * t.max(1.0));
            }
        }
    }

    #[test]
    fn warps_scale_offset_and_wrap() {
        let w = TimeWarp {
            scale: 0.5,
            offset: 0.25,
            duration: 1.0,
            wrap: true,
            frame_rate: 0.0,
        };
        assert!((w.apply(0.5) - 0.25).abs() < 1e-12);
        let held = TimeWarp { wrap: false, ..w };
        assert!((held.apply(0.5) - (1.0 + 1e-6)).abs() < 1e-12);
    }

    /// The same keys built by growing and into an exact capacity: equal parts, and the exact
    /// one never reallocates.
    #[test]
    fn one_buffer_keeps_every_part_through_growth() {
        let build = |k: &mut Keys| {
            for i in 0..9u32 {
                let t = i as f32 * 0.5;
                let v = [i as f32, -(i as f32)];
                let interp = match i % 6 {
                    0 => k.add_bezier(0.25, 0.0, 0.75, 1.0),
                    1 => k.add_bezier4(
                        t as f64,
                        &[1.0, 2.0],
                        &[[0.1, 1.0, 0.3, 2.0]; 2],
                        0.5,
                        &[3.0, 4.0],
                    ),
                    2 => Interp::Ease(Ease::QuadOut, 0.25 * i as f32),
                    3 => Interp::Stepped,
                    4 => k.add_sampled(vec![0.2, 0.7]),
                    _ => Interp::Linear,
                };
                k.push(t, &v, interp);
            }
        };
        let mut grown = Keys::new(2);
        build(&mut grown);
        let mut exact = Keys::with_capacity(2, 9, 6);
        let room = exact.buf.capacity();
        build(&mut exact);
        assert_eq!(exact.buf.capacity(), room);
        assert_eq!(grown, exact);
        assert_eq!(
            grown.times(),
            &[0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0]
        );
        assert_eq!(grown.values()[14..16], [7.0, -7.0]);
        assert_eq!(grown.bezier_count(), 6);
        assert_eq!(grown.interp(0), Interp::Bezier(0));
        assert_eq!(grown.interp(1), Interp::Bezier4(1));
        assert_eq!(grown.interp(2), Interp::Ease(Ease::QuadOut, 0.5));
        assert_eq!(grown.interp(6), Interp::Bezier(3));
        assert_eq!(grown.interp(7), Interp::Bezier4(4));
        assert_eq!(grown.interp(8), Interp::Ease(Ease::QuadOut, 2.0));
        assert_eq!(grown.get_interp(9), None);
        assert_eq!(grown.sampled(0), &[0.2, 0.7]);
        assert_eq!(grown.bezier(0), &bezier_table(0.25, 0.0, 0.75, 1.0));
        let mut changed = exact.clone();
        changed.set_interp(3, Interp::Linear);
        assert_ne!(changed, exact);
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
