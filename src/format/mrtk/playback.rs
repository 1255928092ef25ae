//! What MRTK's playback makes of several curves at one time: the camera and joint poses,
//! whether a hand is tracked and pinching, and the eye-gaze ray.

use super::layout::Hand;
use super::model::{NamedCurve, Recording};

/// A world-space pose, as MRTK evaluates it: each component from its own curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pose {
    pub position: [f64; 3],
    /// The four rotation curves (x, y, z, w) as MRTK passes them on: not normalised.
    pub rotation_raw: [f64; 4],
}

impl Pose {
    /// The rotation normalised (identity when all components are 0).
    pub fn rotation(&self) -> [f64; 4] {
        let m = self.rotation_raw.iter().map(|c| c * c).sum::<f64>().sqrt();
        if m < 1.4e-45 {
            return [0.0, 0.0, 0.0, 1.0];
        }
        self.rotation_raw.map(|c| c / m)
    }
}

/// A hand's state at one time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandState {
    /// Joints are only applied while tracked.
    pub tracked: bool,
    pub pinching: bool,
}

/// A ray: origin and a unit direction (zero when the stored vector is shorter than 1e-5,
/// as Unity's `Ray` does).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ray {
    pub origin: [f64; 3],
    pub direction: [f64; 3],
}

fn pose_of(curves: &[NamedCurve], t: f64) -> Pose {
    let v = |i: usize| curves[i].value(t);
    Pose {
        position: [v(0), v(1), v(2)],
        rotation_raw: [v(3), v(4), v(5), v(6)],
    }
}

impl Recording {
    /// The camera pose at `t`.
    pub fn camera_pose(&self, t: f64) -> Option<Pose> {
        self.camera_curves().map(|c| pose_of(c, t))
    }

    /// Whether `hand` is tracked and pinching at `t` (curve value above 0.5).
    pub fn hand_state(&self, hand: Hand, t: f64) -> Option<HandState> {
        let (tracked, pinching) = self.hand_state_curves(hand)?;
        Some(HandState {
            tracked: tracked.value(t) > 0.5,
            pinching: pinching.value(t) > 0.5,
        })
    }

    /// The pose of `joint` of `hand` at `t` (meaningful only while the hand is tracked).
    pub fn joint_pose(&self, hand: Hand, joint: usize, t: f64) -> Option<Pose> {
        self.joint_curves(hand, joint).map(|c| pose_of(c, t))
    }

    /// The eye-gaze ray at `t`.
    pub fn eye_gaze(&self, t: f64) -> Option<Ray> {
        let c = self.eye_gaze_curves()?;
        let v = |i: usize| c[i].value(t);
        let d = [v(3), v(4), v(5)];
        let m = d.iter().map(|c| c * c).sum::<f64>().sqrt();
        Some(Ray {
            origin: [v(0), v(1), v(2)],
            direction: if m > 1e-5 { d.map(|c| c / m) } else { [0.0; 3] },
        })
    }
}
