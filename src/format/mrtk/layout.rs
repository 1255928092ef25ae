//! Which curves a file holds, in file order, and their names (`camera.rotation.w`,
//! `hand.right.joint.IndexTip.position.y`, `eye_gaze.direction.x`, ...).

use super::model::CurveKind;

/// The 27 `TrackedHandJoint` values, in file order (joint 0, `None`, never carries data).
pub const JOINT_NAMES: [&str; 27] = [
    "None",
    "Wrist",
    "Palm",
    "ThumbMetacarpalJoint",
    "ThumbProximalJoint",
    "ThumbDistalJoint",
    "ThumbTip",
    "IndexMetacarpal",
    "IndexKnuckle",
    "IndexMiddleJoint",
    "IndexDistalJoint",
    "IndexTip",
    "MiddleMetacarpal",
    "MiddleKnuckle",
    "MiddleMiddleJoint",
    "MiddleDistalJoint",
    "MiddleTip",
    "RingMetacarpal",
    "RingKnuckle",
    "RingMiddleJoint",
    "RingDistalJoint",
    "RingTip",
    "PinkyMetacarpal",
    "PinkyKnuckle",
    "PinkyMiddleJoint",
    "PinkyDistalJoint",
    "PinkyTip",
];

/// Each joint's parent joint (an index into [`JOINT_NAMES`]): the wrist holds the palm and
/// the five finger chains (metacarpal to tip). `None` for the wrist (the hand's root) and
/// for joint 0, which carries nothing.
pub const JOINT_PARENTS: [Option<usize>; 27] = [
    None,     // None
    None,     // Wrist
    Some(1),  // Palm
    Some(1),  // ThumbMetacarpalJoint
    Some(3),  // ThumbProximalJoint
    Some(4),  // ThumbDistalJoint
    Some(5),  // ThumbTip
    Some(1),  // IndexMetacarpal
    Some(7),  // IndexKnuckle
    Some(8),  // IndexMiddleJoint
    Some(9),  // IndexDistalJoint
    Some(10), // IndexTip
    Some(1),  // MiddleMetacarpal
    Some(12), // MiddleKnuckle
    Some(13), // MiddleMiddleJoint
    Some(14), // MiddleDistalJoint
    Some(15), // MiddleTip
    Some(1),  // RingMetacarpal
    Some(17), // RingKnuckle
    Some(18), // RingMiddleJoint
    Some(19), // RingDistalJoint
    Some(20), // RingTip
    Some(1),  // PinkyMetacarpal
    Some(22), // PinkyKnuckle
    Some(23), // PinkyMiddleJoint
    Some(24), // PinkyDistalJoint
    Some(25), // PinkyTip
];

/// The 7 curves of a pose (camera, each joint): world position, then rotation quaternion.
pub const POSE_FIELDS: [&str; 7] = [
    "position.x",
    "position.y",
    "position.z",
    "rotation.x",
    "rotation.y",
    "rotation.z",
    "rotation.w",
];

/// The 6 curves of the eye-gaze ray.
pub const RAY_FIELDS: [&str; 6] = [
    "origin.x",
    "origin.y",
    "origin.z",
    "direction.x",
    "direction.y",
    "direction.z",
];

/// The four bool curves, in file order.
pub const BOOL_CURVES: [&str; 4] = [
    "hand.left.tracked",
    "hand.right.tracked",
    "hand.left.pinching",
    "hand.right.pinching",
];

/// Curves in the camera section.
pub const CAMERA_CURVES: usize = POSE_FIELDS.len();
/// Curves in the hand section: 4 bool curves, then 2 x 27 joints x 7.
pub const HAND_CURVES: usize = BOOL_CURVES.len() + 2 * JOINT_NAMES.len() * POSE_FIELDS.len();
/// Curves in the eye-gaze section.
pub const GAZE_CURVES: usize = RAY_FIELDS.len();

/// A hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hand {
    Left,
    Right,
}

impl Hand {
    /// "left" or "right", as in curve paths.
    pub fn name(self) -> &'static str {
        match self {
            Hand::Left => "left",
            Hand::Right => "right",
        }
    }
}

/// Which sections a file has; gives each curve's index in file order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sections {
    pub camera: bool,
    pub hands: bool,
    pub eye_gaze: bool,
}

impl Sections {
    /// Index of the first camera curve.
    pub fn camera_start(self) -> Option<usize> {
        self.camera.then_some(0)
    }

    /// Index of the first hand curve (`hand.left.tracked`).
    pub fn hands_start(self) -> Option<usize> {
        self.hands
            .then_some(if self.camera { CAMERA_CURVES } else { 0 })
    }

    /// Index of the first curve of `joint` (0..27) of `hand`.
    pub fn joint_start(self, hand: Hand, joint: usize) -> Option<usize> {
        let hand_index = match hand {
            Hand::Left => 0,
            Hand::Right => 1,
        };
        let start = self.hands_start()? + BOOL_CURVES.len();
        (joint < JOINT_NAMES.len())
            .then(|| start + (hand_index * JOINT_NAMES.len() + joint) * POSE_FIELDS.len())
    }

    /// Index of the first eye-gaze curve.
    pub fn gaze_start(self) -> Option<usize> {
        let before =
            if self.camera { CAMERA_CURVES } else { 0 } + if self.hands { HAND_CURVES } else { 0 };
        self.eye_gaze.then_some(before)
    }

    /// Every curve's path and kind, in file order.
    pub fn curves(self) -> Vec<(String, CurveKind)> {
        let mut out = Vec::new();
        if self.camera {
            out.extend(
                POSE_FIELDS
                    .iter()
                    .map(|f| (format!("camera.{f}"), CurveKind::Float)),
            );
        }
        if self.hands {
            out.extend(BOOL_CURVES.iter().map(|b| (b.to_string(), CurveKind::Bool)));
            for hand in [Hand::Left, Hand::Right] {
                for joint in JOINT_NAMES {
                    out.extend(POSE_FIELDS.iter().map(|f| {
                        (
                            format!("hand.{}.joint.{joint}.{f}", hand.name()),
                            CurveKind::Float,
                        )
                    }));
                }
            }
        }
        if self.eye_gaze {
            out.extend(
                RAY_FIELDS
                    .iter()
                    .map(|f| (format!("eye_gaze.{f}"), CurveKind::Float)),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_match_the_file_order() {
        let all = Sections {
            camera: true,
            hands: true,
            eye_gaze: true,
        };
        let curves = all.curves();
        assert_eq!(curves.len(), 395);
        assert_eq!(curves[all.hands_start().unwrap()].0, "hand.left.tracked");
        let i = all.joint_start(Hand::Right, 11).unwrap();
        assert_eq!(curves[i + 4].0, "hand.right.joint.IndexTip.rotation.y");
        assert_eq!(curves[all.gaze_start().unwrap()].0, "eye_gaze.origin.x");
        let gaze_only = Sections {
            camera: false,
            hands: false,
            eye_gaze: true,
        };
        assert_eq!(gaze_only.gaze_start(), Some(0));
        assert_eq!(gaze_only.joint_start(Hand::Left, 1), None);
    }

    #[test]
    fn joint_parents_come_first_and_chains_end_at_tips() {
        for (j, p) in JOINT_PARENTS.iter().enumerate() {
            if let Some(p) = p {
                assert!(*p < j && *p >= 1, "{}", JOINT_NAMES[j]);
            }
        }
        let chain = |mut j: usize| {
            let mut names = vec![JOINT_NAMES[j]];
            while let Some(p) = JOINT_PARENTS[j] {
                names.push(JOINT_NAMES[p]);
                j = p;
            }
            names
        };
        assert_eq!(
            chain(11),
            [
                "IndexTip",
                "IndexDistalJoint",
                "IndexMiddleJoint",
                "IndexKnuckle",
                "IndexMetacarpal",
                "Wrist"
            ]
        );
        assert_eq!(chain(6).len(), 5, "thumb: 4 joints and the wrist");
        assert_eq!(chain(2), ["Palm", "Wrist"]);
    }
}
