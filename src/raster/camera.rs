//! Viewport and world-to-pixel mapping (y up in the world, y down in pixels).

use crate::core::model::AttachmentKind;
use crate::core::skeleton::Skeleton;

/// A rectangle of the world (y up): `x`, `y` its bottom-left corner.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// The world-to-pixel map: `px = ox + x * scale`, `py = oy - y * scale`. Pixel `(i, j)`
/// covers `[i, i+1) x [j, j+1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    pub scale: f64,
    pub ox: f64,
    pub oy: f64,
}

impl Camera {
    /// Fits `viewport` into `width` x `height` pixels, centred, keeping its aspect ratio.
    pub fn fit(viewport: Viewport, width: u32, height: u32) -> Camera {
        let (w, h) = (f64::from(width), f64::from(height));
        let (vw, vh) = (viewport.w.max(1e-9), viewport.h.max(1e-9));
        let s = (w / vw).min(h / vh);
        Camera {
            scale: s,
            ox: (w - vw * s) / 2.0 - viewport.x * s,
            oy: (h - vh * s) / 2.0 + (viewport.y + vh) * s,
        }
    }

    /// The pixel position of a world point.
    pub fn to_pixel(&self, x: f64, y: f64) -> (f64, f64) {
        (self.ox + x * self.scale, self.oy - y * self.scale)
    }
}

/// Bounds of the skeleton's visible regions and meshes as posed, padded by 5% of the larger
/// side and rounded outward to integers (the render oracle's default camera); `None` when
/// nothing is shown.
pub fn default_viewport(skeleton: &Skeleton) -> Option<Viewport> {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &slot in &skeleton.draw_order {
        let Some(id) = skeleton.slots[slot].attachment else {
            continue;
        };
        if !skeleton.bones[skeleton.data.slots[slot].bone].active {
            continue;
        }
        let kind = &skeleton.data.attachments[id].kind;
        if !matches!(kind, AttachmentKind::Region(_) | AttachmentKind::Mesh(_)) {
            continue;
        }
        let Some(v) = skeleton.slot_world_vertices(slot) else {
            continue;
        };
        for p in v.chunks_exact(2) {
            if p[0].is_finite() && p[1].is_finite() {
                x0 = x0.min(p[0]);
                y0 = y0.min(p[1]);
                x1 = x1.max(p[0]);
                y1 = y1.max(p[1]);
            }
        }
    }
    if x0 > x1 || y0 > y1 {
        return None;
    }
    let pad = 0.05 * (x1 - x0).max(y1 - y0);
    let (x0, y0) = ((x0 - pad).floor(), (y0 - pad).floor());
    let (x1, y1) = ((x1 + pad).ceil(), (y1 + pad).ceil());
    Some(Viewport {
        x: x0,
        y: y0,
        w: (x1 - x0).max(1.0),
        h: (y1 - y0).max(1.0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_and_centres_with_y_up() {
        let v = Viewport {
            x: -10.0,
            y: 0.0,
            w: 20.0,
            h: 10.0,
        };
        let c = Camera::fit(v, 100, 100);
        assert_eq!(c.scale, 5.0);
        // The viewport is centred vertically: 25 px above and below.
        assert_eq!(c.to_pixel(-10.0, 10.0), (0.0, 25.0));
        assert_eq!(c.to_pixel(10.0, 0.0), (100.0, 75.0));
    }
}
