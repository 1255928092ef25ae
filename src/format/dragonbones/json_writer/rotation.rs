//! Rotations that a `.dbbin` keeps unwrapped (each key's value already includes the turns of
//! the tween into it) written as JSON `rotate` values with the `clockwise` turn requests that
//! make the JSON reader's unwrapping give the same tweens.

use super::super::transform::normalize;
use std::f64::consts::TAU;

/// The `clockwise` of each key (0: the shortest way) for unwrapped rotations `radians` of keys
/// starting at frames `starts`, written as `radians[j].to_degrees()`. The reader takes a key
/// at frame 0 as written (normalised); every other key goes from the previous one the
/// shortest way, or with the previous key's turns, each counted down once when the value is
/// already passed in the turning direction.
pub fn clockwise(radians: &[f64], starts: &[u32]) -> Vec<f64> {
    let read = |r: f64| normalize(r.to_degrees().to_radians());
    let mut out = vec![0.0; radians.len()];
    let Some(&first) = radians.first() else {
        return out;
    };
    let mut prev = read(first);
    let mut target = prev;
    for j in 1..radians.len() {
        let rn = read(radians[j]);
        if starts.get(j).copied().unwrap_or(1) == 0 {
            // A key on frame 0 is taken as written: nothing before it tweens into it.
            prev = rn;
            target = rn;
            continue;
        }
        target += radians[j] - radians[j - 1];
        let shortest = prev + normalize(rn - prev);
        if (shortest - target).abs() <= 1e-9 {
            prev = shortest;
            continue;
        }
        let m = ((target - rn) / TAU).round();
        out[j - 1] = if m > 0.0 {
            if rn >= prev { m + 1.0 } else { m }
        } else if m < 0.0 {
            if rn <= prev { m - 1.0 } else { m }
        } else if rn >= prev {
            1.0
        } else {
            -1.0
        };
        prev = rn + TAU * m;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// The JSON reader's unwrapping (as `anim.rs` does it), for checking.
    fn unwrap(deg: &[f64], cw: &[f64], starts: &[u32]) -> Vec<f64> {
        let (mut prev, mut turns) = (0.0f64, 0.0f64);
        let mut out = Vec::new();
        for j in 0..deg.len() {
            let mut rot = normalize(deg[j].to_radians());
            if starts[j] != 0 {
                if turns == 0.0 {
                    rot = prev + normalize(rot - prev);
                } else {
                    let passed = if turns > 0.0 {
                        rot >= prev
                    } else {
                        rot <= prev
                    };
                    if passed {
                        turns -= turns.signum();
                    }
                    rot = prev + (rot - prev) + TAU * turns;
                }
            }
            turns = cw[j];
            prev = rot;
            out.push(rot);
        }
        out
    }

    #[test]
    fn steps_of_any_size_survive() {
        let radians = [
            0.3,
            0.3 + 3.5,
            0.3 + 3.5 - 7.0,
            10.0,
            10.0 - 0.5,
            -20.0,
            -20.0 + PI,
        ];
        let starts = [0, 5, 9, 12, 20, 21, 30];
        let cw = clockwise(&radians, &starts);
        let deg: Vec<f64> = radians.iter().map(|r| r.to_degrees()).collect();
        let got = unwrap(&deg, &cw, &starts);
        for j in 1..radians.len() {
            let (a, b) = (got[j] - got[j - 1], radians[j] - radians[j - 1]);
            assert!((a - b).abs() < 1e-9, "key {j}: {got:?} {cw:?}");
        }
    }
}
