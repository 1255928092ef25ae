//! Orthographic views of 3D poses for the preview: front, top and side, each turned about
//! the vertical axis in steps (orbit). World frame as in the core's 3D poses (Unity: x right,
//! y up, z forward, left-handed); a view maps a point to (across, up) on the canvas.

use crate::core::math3d::{Vec3, dot3};

/// Degrees one orbit step turns the view.
pub const ORBIT_STEP: i32 = 15;

/// Which side the 3D scene is seen from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum View3 {
    /// From behind the recording's viewer, looking along +z: x right, y up.
    #[default]
    Front,
    /// From above, looking down: x right, z (forward) up.
    Top,
    /// From the right (+x), looking along -x: z (forward) right, y up.
    Side,
}

impl View3 {
    /// The next view in `v` order.
    pub fn next(self) -> View3 {
        match self {
            View3::Front => View3::Top,
            View3::Top => View3::Side,
            View3::Side => View3::Front,
        }
    }

    /// The view's name.
    pub fn name(self) -> &'static str {
        match self {
            View3::Front => "front",
            View3::Top => "top",
            View3::Side => "side",
        }
    }

    /// (yaw, pitch) of the viewer in degrees: yaw turns about +y, pitch looks down.
    fn angles(self) -> (f64, f64) {
        match self {
            View3::Front => (0.0, 0.0),
            View3::Top => (0.0, 90.0),
            View3::Side => (-90.0, 0.0),
        }
    }
}

/// A view plus an orbit about the vertical axis.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Projection {
    pub view: View3,
    /// Orbit steps of [`ORBIT_STEP`] degrees (positive: the viewer walks to the right).
    pub orbit: i32,
}

impl Projection {
    /// The orbit in degrees, within (-180, 180].
    pub fn orbit_degrees(&self) -> i32 {
        let d = (self.orbit * ORBIT_STEP).rem_euclid(360);
        if d > 180 { d - 360 } else { d }
    }

    /// Turns the view by `steps` orbit steps (kept within one turn).
    pub fn orbit_by(&mut self, steps: i32) {
        let per_turn = 360 / ORBIT_STEP;
        self.orbit = (self.orbit + steps).rem_euclid(per_turn);
    }

    /// "front", "side +30°", ...
    pub fn label(&self) -> String {
        match self.orbit_degrees() {
            0 => self.view.name().to_string(),
            d => format!("{} {d:+}°", self.view.name()),
        }
    }

    /// The canvas axes in world space: (across, up).
    pub fn axes(&self) -> (Vec3, Vec3) {
        let (yaw, pitch) = self.view.angles();
        let yaw = (yaw - f64::from(self.orbit_degrees())).to_radians();
        let pitch = pitch.to_radians();
        let (sy, cy) = yaw.sin_cos();
        let (sp, cp) = pitch.sin_cos();
        // The viewer looks along (sy·cp, -sp, cy·cp); across is its right-hand side, up is
        // perpendicular to both (exact 0/1 terms at the three base views).
        let across = [cy, 0.0, -sy];
        let up = [sy * sp, cp, cy * sp];
        (across, up)
    }

    /// `p` on the canvas (across, up).
    pub fn project(&self, p: Vec3) -> (f64, f64) {
        let (across, up) = self.axes();
        (dot3(p, across), dot3(p, up))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-12 && (a.1 - b.1).abs() < 1e-12
    }

    #[test]
    fn base_views() {
        let p = [1.0, 2.0, 3.0];
        let front = Projection::default();
        assert!(close(front.project(p), (1.0, 2.0)));
        let top = Projection {
            view: View3::Top,
            orbit: 0,
        };
        assert!(close(top.project(p), (1.0, 3.0)), "forward is up");
        let side = Projection {
            view: View3::Side,
            orbit: 0,
        };
        assert!(close(side.project(p), (3.0, 2.0)), "forward is right");
    }

    #[test]
    fn orbiting_walks_around_the_vertical_axis() {
        let mut p = Projection::default();
        // Six steps to the right of the front view is the side view (from +x): forward
        // points right on the canvas.
        p.orbit_by(6);
        assert_eq!(p.orbit_degrees(), 90);
        assert!(close(p.project([0.0, 1.0, 1.0]), (1.0, 1.0)), "= side view");
        p.orbit_by(-12);
        assert_eq!(p.orbit_degrees(), -90);
        assert!(close(p.project([0.0, 1.0, 1.0]), (-1.0, 1.0)), "from -x");
        p.orbit_by(-12);
        assert_eq!(p.orbit_degrees(), 90);
        assert_eq!(p.label(), "front +90°");
        p.orbit_by(6);
        assert_eq!(p.orbit_degrees(), 180);
        assert!(
            close(p.project([1.0, 0.0, 0.0]), (-1.0, 0.0)),
            "seen from the front"
        );
        // Every view keeps lengths (an orthographic projection of a unit vector along an
        // axis of the canvas).
        for view in [View3::Front, View3::Top, View3::Side] {
            for orbit in 0..24 {
                let (a, u) = Projection { view, orbit }.axes();
                assert!((dot3(a, a) - 1.0).abs() < 1e-12 && (dot3(u, u) - 1.0).abs() < 1e-12);
                assert!(dot3(a, u).abs() < 1e-12);
            }
        }
        assert_eq!(View3::Front.next().next().next(), View3::Front);
    }
}
