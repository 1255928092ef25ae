//! Compositing a premultiplied source pixel onto a premultiplied destination.

use crate::core::model::BlendMode;

/// `dst = src (op) dst` for one premultiplied RGBA pixel (0..1 channels).
#[inline]
pub fn blend(dst: &mut [f32; 4], src: [f32; 4], mode: BlendMode) {
    let sa = src[3];
    let da = dst[3];
    for k in 0..4 {
        let (s, d) = (src[k], dst[k]);
        dst[k] = match mode {
            BlendMode::Normal => s + d * (1.0 - sa),
            BlendMode::Additive => (s + d).min(1.0),
            BlendMode::Multiply => s * d + s * (1.0 - da) + d * (1.0 - sa),
            BlendMode::Screen => s + d - s * d,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GREY: [f32; 4] = [0.5, 0.5, 0.5, 1.0];

    fn px(mode: BlendMode, src: [f32; 4]) -> [f32; 4] {
        let mut d = GREY;
        blend(&mut d, src, mode);
        d
    }

    #[test]
    fn each_mode() {
        let half_red = [0.5, 0.0, 0.0, 0.5];
        assert_eq!(px(BlendMode::Normal, half_red), [0.75, 0.25, 0.25, 1.0]);
        assert_eq!(px(BlendMode::Additive, half_red), [1.0, 0.5, 0.5, 1.0]);
        assert_eq!(
            px(BlendMode::Screen, [0.5, 0.0, 0.0, 1.0]),
            [0.75, 0.5, 0.5, 1.0]
        );
        // Multiply darkens (not drawn as normal): white keeps, black blacks out.
        assert_eq!(px(BlendMode::Multiply, [1.0, 1.0, 1.0, 1.0]), GREY);
        assert_eq!(
            px(BlendMode::Multiply, [0.0, 0.0, 0.0, 1.0]),
            [0.0, 0.0, 0.0, 1.0]
        );
        assert_eq!(
            px(BlendMode::Multiply, [0.5, 1.0, 1.0, 1.0]),
            [0.25, 0.5, 0.5, 1.0]
        );
        // A transparent source changes nothing in any mode.
        for m in [
            BlendMode::Normal,
            BlendMode::Additive,
            BlendMode::Multiply,
            BlendMode::Screen,
        ] {
            assert_eq!(px(m, [0.0; 4]), GREY, "{m:?}");
        }
    }
}
