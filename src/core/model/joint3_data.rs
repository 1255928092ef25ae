//! Setup data of bones that carry a 3D pose (tracked hand joints, a head-mounted camera, an
//! eye-gaze ray) next to their 2D transform.

use crate::core::math3d::{IDENTITY, Quat, Vec3};

/// What a 3D node is, so views know how to draw it. The runtime treats them all alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Joint3Kind {
    /// A joint of an articulated figure: drawn as a point with a line to its parent joint.
    Joint,
    /// A viewer (head, camera): drawn as a small frustum looking along its local +z.
    Camera,
    /// A ray from the position along the direction (eye gaze).
    Ray,
}

/// The setup pose of a bone's 3D channels, in world space: Unity's frame (x right, y up,
/// z forward), metres.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint3Setup {
    pub kind: Joint3Kind,
    pub position: Vec3,
    /// Raw quaternion `[x, y, z, w]`.
    pub rotation: Quat,
    /// Ray direction (unused by other kinds).
    pub direction: Vec3,
    /// The node is shown only while this slot shows an attachment (a hand's "tracked" slot);
    /// `None`: always shown.
    pub shown_by: Option<usize>,
}

impl Joint3Setup {
    /// A node of `kind` at the origin with the identity rotation, always shown.
    pub fn new(kind: Joint3Kind) -> Joint3Setup {
        Joint3Setup {
            kind,
            position: [0.0; 3],
            rotation: IDENTITY,
            direction: [0.0, 0.0, 1.0],
            shown_by: None,
        }
    }
}
