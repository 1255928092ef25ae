//! Which frame a time falls on.
//!
//! Times reached by stepping are sums of many `1 / fps` steps, so a time meant to be frame
//! `n` is `n / fps` give or take a rounding error that grows with the number of steps: a fixed
//! epsilon (`(t * fps + 1e-6).floor()`) put `t 19999.933` on frame 599,997 instead of
//! 599,998. A time within a tolerance relative to its magnitude of a frame boundary is that
//! frame; the tolerance stays far below anything the labels show (1e-3 of a frame at a
//! million frames).

/// The frame index (`floor(time * fps)`, robust to accumulated rounding) as a float, so
/// callers clamp as they need. Non-finite or negative input gives 0.
pub fn frame_index(time: f64, fps: f64) -> f64 {
    let exact = time * fps;
    if !exact.is_finite() || exact <= 0.0 {
        return 0.0;
    }
    let nearest = exact.round();
    let tolerance = (exact * 1e-9).max(1e-6);
    if (exact - nearest).abs() <= tolerance {
        nearest
    } else {
        exact.floor()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stepped_times_land_on_their_frame_at_any_size() {
        assert_eq!(frame_index(0.0, 30.0), 0.0);
        assert_eq!(frame_index(-1.0, 30.0), 0.0);
        assert_eq!(frame_index(f64::NAN, 30.0), 0.0);
        assert_eq!(frame_index(0.7, 30.0), 21.0); // 0.7 * 30 = 20.999999999999996
        assert_eq!(frame_index(0.5 / 30.0, 30.0), 0.0);
        assert_eq!(frame_index(1.999 / 30.0, 30.0), 1.0);
        for fps in [24.0, 30.0, 60.0] {
            // Time accumulated step by step, as the state's track time is.
            let dt = 1.0 / fps;
            let mut t = 0.0f64;
            for n in 1..=1_000_000u64 {
                t += dt;
                if n % 9_973 == 0 || n > 999_990 {
                    assert_eq!(frame_index(t, fps), n as f64, "{fps} fps, frame {n}, t {t}");
                }
            }
        }
        // The label: 599,998 frames at 30 fps.
        assert_eq!(frame_index(599_998.0 / 30.0 - 1e-7, 30.0), 599_998.0);
        // Half a frame is still the frame before.
        assert_eq!(frame_index((599_998.5) / 30.0, 30.0), 599_998.0);
    }
}
