//! The plain-data recording: every curve in file order with its path, the markers, the
//! duration and what the reader warned about.

use super::layout::{BOOL_CURVES, CAMERA_CURVES, GAZE_CURVES, Hand, POSE_FIELDS, Sections};
use crate::core::unity_curve::UnityCurve;

/// The file's format version (1.0 or 1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: i32,
    pub minor: i32,
}

/// How a curve is evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurveKind {
    /// A Unity curve of a float (position, rotation component, gaze).
    Float,
    /// An on/off curve: a step function, true where the value is above 0.5.
    Bool,
}

/// One curve with its path (`hand.right.joint.IndexTip.position.y`).
#[derive(Clone, Debug, PartialEq)]
pub struct NamedCurve {
    pub path: String,
    pub kind: CurveKind,
    /// Byte offset of the curve's pre-wrap field.
    pub offset: u64,
    pub curve: UnityCurve,
}

impl NamedCurve {
    /// The curve's value at `t` (bool curves: 0 or 1 as stored, held from key to key).
    pub fn value(&self, t: f64) -> f64 {
        match self.kind {
            CurveKind::Float => self.curve.evaluate(t),
            CurveKind::Bool => self.curve.evaluate_step(t),
        }
    }
}

/// A named time mark from the editor's timeline tools.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub time: f32,
    /// Decoded as UTF-8 with U+FFFD for bad bytes, otherwise unsanitized: sanitize to show.
    pub name: String,
}

/// A loaded MRTK input recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub version: Version,
    pub has_camera: bool,
    pub has_hands: bool,
    pub has_eye_gaze: bool,
    /// Every curve, in file order (see [`super::layout`]).
    pub curves: Vec<NamedCurve>,
    pub markers: Vec<Marker>,
    /// MRTK's duration: the latest finite key time of any curve, at least 0. Playback runs
    /// over `0 <= t < duration`.
    pub duration: f64,
    /// Conditions MRTK tolerates, each at its byte offset: `"<kind>: <what>"`, kind being
    /// e.g. `unsorted_keys`, `non_finite_value`, `unknown_wrap_mode`, `trailing_bytes`.
    pub warnings: Vec<(u64, String)>,
}

impl Recording {
    /// Which sections the file has.
    pub fn sections(&self) -> Sections {
        Sections {
            camera: self.has_camera,
            hands: self.has_hands,
            eye_gaze: self.has_eye_gaze,
        }
    }

    /// The curve with this path.
    pub fn curve(&self, path: &str) -> Option<&NamedCurve> {
        self.curves.iter().find(|c| c.path == path)
    }

    /// `n` curves from index `start`, if the file has them.
    fn run(&self, start: Option<usize>, n: usize) -> Option<&[NamedCurve]> {
        let start = start?;
        self.curves.get(start..start + n)
    }

    /// The camera's 7 pose curves.
    pub fn camera_curves(&self) -> Option<&[NamedCurve]> {
        self.run(self.sections().camera_start(), CAMERA_CURVES)
    }

    /// The tracked and pinching curves of `hand`.
    pub fn hand_state_curves(&self, hand: Hand) -> Option<(&NamedCurve, &NamedCurve)> {
        let bools = self.run(self.sections().hands_start(), BOOL_CURVES.len())?;
        Some(match hand {
            Hand::Left => (&bools[0], &bools[2]),
            Hand::Right => (&bools[1], &bools[3]),
        })
    }

    /// The 7 pose curves of `joint` (an index into [`super::JOINT_NAMES`]) of `hand`.
    pub fn joint_curves(&self, hand: Hand, joint: usize) -> Option<&[NamedCurve]> {
        self.run(self.sections().joint_start(hand, joint), POSE_FIELDS.len())
    }

    /// The eye-gaze ray's 6 curves.
    pub fn eye_gaze_curves(&self) -> Option<&[NamedCurve]> {
        self.run(self.sections().gaze_start(), GAZE_CURVES)
    }
}
