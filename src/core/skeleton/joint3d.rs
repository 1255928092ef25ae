//! The live 3D pose of a bone that has one, and the 2D stand-in generic code sees.
//!
//! Timelines write [`Joint3Pose`] values in world space. After the bones' 2D world transforms
//! are computed, a bone with a 3D pose gets the front view of it as its 2D world transform
//! (x right, y up; the rotation's x and y axes projected), so snapshots, the `poses` command
//! and anything else that reads only 2D keep working.

use super::{ParentFrame, Skeleton, SkeletonFrame};
use crate::core::math3d::{Quat, Vec3, rotate};
use crate::core::model::Joint3Setup;

/// A bone's 3D pose in world space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joint3Pose {
    pub position: Vec3,
    /// Raw quaternion `[x, y, z, w]` as interpolated (not normalised; see
    /// [`crate::core::math3d::normalize_quat`]).
    pub rotation: Quat,
    /// Ray direction as interpolated (not normalised).
    pub direction: Vec3,
}

impl Joint3Pose {
    /// The setup pose.
    pub fn setup(data: &Joint3Setup) -> Joint3Pose {
        Joint3Pose {
            position: data.position,
            rotation: data.rotation,
            direction: data.direction,
        }
    }

    /// The front view as a 2D world frame: position (x, y), and the rotated x and y axes'
    /// x and y components as the matrix columns; placed by the skeleton frame.
    pub fn front_frame(&self, sk: SkeletonFrame) -> ParentFrame {
        let ax = rotate(self.rotation, [1.0, 0.0, 0.0]);
        let ay = rotate(self.rotation, [0.0, 1.0, 0.0]);
        ParentFrame {
            a: ax[0] * sk.scale_x,
            b: ay[0] * sk.scale_x,
            c: ax[1] * sk.scale_y,
            d: ay[1] * sk.scale_y,
            world_x: self.position[0] * sk.scale_x + sk.x,
            world_y: self.position[1] * sk.scale_y + sk.y,
        }
    }
}

impl Skeleton {
    /// Resets every 3D pose to its setup values.
    pub(super) fn set_joints3_to_setup_pose(&mut self) {
        for (bone, data) in self.bones.iter_mut().zip(&self.data.bones) {
            // In place: no allocation per reset.
            match (&mut bone.joint3, &data.joint3) {
                (Some(pose), Some(setup)) => **pose = Joint3Pose::setup(setup),
                (pose, setup) => *pose = setup.as_ref().map(|s| Box::new(Joint3Pose::setup(s))),
            }
        }
    }

    /// Whether bone `i`'s 3D node is shown: it has a 3D pose, is active, and the slot that
    /// gates it (if any) shows an attachment.
    pub fn joint3_shown(&self, i: usize) -> bool {
        let (Some(bone), Some(data)) = (self.bones.get(i), self.data.bones.get(i)) else {
            return false;
        };
        let Some(setup) = &data.joint3 else {
            return false;
        };
        bone.active
            && bone.joint3.is_some()
            && setup
                .shown_by
                .is_none_or(|s| self.slots.get(s).is_some_and(|s| s.attachment.is_some()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::Joint3Kind;

    #[test]
    fn front_frame_projects_position_and_axes() {
        let h = 45f64.to_radians();
        // 90 degrees about z: x axis to +y, y axis to -x.
        let pose = Joint3Pose {
            position: [0.5, 1.5, 9.0],
            rotation: [0.0, 0.0, h.sin(), h.cos()],
            direction: [0.0, 0.0, 1.0],
        };
        let sk = SkeletonFrame {
            x: 10.0,
            y: 0.0,
            scale_x: 1.0,
            scale_y: 2.0,
            ..SkeletonFrame::IDENTITY
        };
        let f = pose.front_frame(sk);
        assert_eq!((f.world_x, f.world_y), (10.5, 3.0));
        assert!(f.a.abs() < 1e-12 && (f.c - 2.0).abs() < 1e-12);
        assert!((f.b + 1.0).abs() < 1e-12 && f.d.abs() < 1e-12);
        let setup = Joint3Pose::setup(&Joint3Setup::new(Joint3Kind::Ray));
        assert_eq!(setup.direction, [0.0, 0.0, 1.0]);
    }
}
