//! The value columns of a bone row, chosen by the width available: 2D transforms, or for
//! skeletons with 3D poses the world position (metres) and rotation (Unity Euler degrees).

use crate::core::math3d::{euler_degrees, normalize3};
use crate::core::model::{BoneData, Inherit, Joint3Kind};
use crate::core::skeleton::{Bone, Local};

/// A value column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Col {
    Rot,
    X,
    Y,
    ScaleX,
    ScaleY,
    ShearX,
    ShearY,
    WorldRot,
    WorldX,
    WorldY,
    Inherit,
    /// 3D world position.
    PosX,
    PosY,
    PosZ,
    /// 3D world rotation as Unity Euler angles (z, then x, then y); for a ray, the angles
    /// that look along it.
    EulerX,
    EulerY,
    EulerZ,
}

/// Groups of columns in the order they are added as width allows (pairs go together): the
/// local transform first (what timelines key), then the world values.
const PRIORITY: [&[Col]; 7] = [
    &[Col::Rot],
    &[Col::X, Col::Y],
    &[Col::ScaleX, Col::ScaleY],
    &[Col::WorldX, Col::WorldY],
    &[Col::WorldRot],
    &[Col::ShearX, Col::ShearY],
    &[Col::Inherit],
];

/// Groups of 3D columns in the order they are added.
const PRIORITY_3D: [&[Col]; 2] = [
    &[Col::PosX, Col::PosY, Col::PosZ],
    &[Col::EulerX, Col::EulerY, Col::EulerZ],
];

/// Columns in display order.
const DISPLAY: [Col; 17] = [
    Col::Rot,
    Col::X,
    Col::Y,
    Col::ScaleX,
    Col::ScaleY,
    Col::ShearX,
    Col::ShearY,
    Col::WorldRot,
    Col::WorldX,
    Col::WorldY,
    Col::Inherit,
    Col::PosX,
    Col::PosY,
    Col::PosZ,
    Col::EulerX,
    Col::EulerY,
    Col::EulerZ,
];

impl Col {
    /// Width in cells, including the one-space gap before the value.
    pub fn width(self) -> usize {
        match self {
            Col::Rot | Col::X | Col::Y | Col::WorldRot | Col::WorldX | Col::WorldY => 7,
            Col::ScaleX | Col::ScaleY => 6,
            Col::ShearX | Col::ShearY => 7,
            Col::Inherit => 23,
            Col::PosX | Col::PosY | Col::PosZ => 7,
            Col::EulerX | Col::EulerY | Col::EulerZ => 7,
        }
    }

    /// The header label.
    pub fn label(self) -> &'static str {
        match self {
            Col::Rot => "rot",
            Col::X => "x",
            Col::Y => "y",
            Col::ScaleX => "sx",
            Col::ScaleY => "sy",
            Col::ShearX => "shx",
            Col::ShearY => "shy",
            Col::WorldRot => "wrot",
            Col::WorldX => "wx",
            Col::WorldY => "wy",
            Col::Inherit => "inherit",
            Col::PosX => "x",
            Col::PosY => "y",
            Col::PosZ => "z",
            Col::EulerX => "rx",
            Col::EulerY => "ry",
            Col::EulerZ => "rz",
        }
    }

    /// The pose field a local column shows, with its decimals (`None` for other columns).
    fn local(self, l: &Local) -> Option<(f64, usize)> {
        Some(match self {
            Col::Rot => (l.rotation, 1),
            Col::X => (l.x, 1),
            Col::Y => (l.y, 1),
            Col::ScaleX => (l.scale_x, 2),
            Col::ScaleY => (l.scale_y, 2),
            Col::ShearX => (l.shear_x, 1),
            Col::ShearY => (l.shear_y, 1),
            _ => return None,
        })
    }

    /// Whether `applied` shows a different value than `pose` in this local column: by at
    /// least half the last decimal shown, angles modulo whole turns (an applied pose
    /// recovered from world transforms has its rotation in (-180, 180]).
    fn differs(self, pose: &Local, applied: &Local) -> bool {
        let (Some((p, decimals)), Some((a, _))) = (self.local(pose), self.local(applied)) else {
            return false;
        };
        let mut d = a - p;
        if matches!(self, Col::Rot | Col::ShearX | Col::ShearY) {
            d -= (d / 360.0).round() * 360.0;
        }
        if d.is_nan() {
            // Both NaN shows the same; one NaN differs.
            return p.is_nan() != a.is_nan();
        }
        d.abs() >= 0.5 * 10f64.powi(-(decimals as i32))
    }

    /// The applied-pose row's cell: the applied value where it differs from the pose, blank
    /// where it does not (and for world and inherit columns, which the bone's row shows).
    pub fn applied_cell(self, pose: &Local, applied: &Local) -> String {
        match self.local(applied) {
            Some((v, decimals)) if self.differs(pose, applied) => {
                fixed(v, decimals, self.width() - 1)
            }
            _ => String::new(),
        }
    }

    /// The cell text (without the gap), at most `width() - 1` cells.
    pub fn cell(self, bone: &Bone, data: &BoneData) -> String {
        let w = self.width() - 1;
        if let Some((v, decimals)) = self.local(&bone.pose) {
            return fixed(v, decimals, w);
        }
        match self {
            Col::Rot | Col::X | Col::Y | Col::ScaleX | Col::ScaleY | Col::ShearX | Col::ShearY => {
                String::new()
            }
            Col::WorldRot => fixed(bone.world_rotation_x(), 1, w),
            Col::WorldX => fixed(bone.world_x, 1, w),
            Col::WorldY => fixed(bone.world_y, 1, w),
            // Live: inherit timelines (Spine 4.2) change it.
            Col::Inherit => match bone.inherit {
                Inherit::Normal => String::new(),
                other => other.name().to_string(),
            },
            Col::PosX | Col::PosY | Col::PosZ | Col::EulerX | Col::EulerY | Col::EulerZ => {
                self.cell_3d(bone, data)
            }
        }
    }

    /// A 3D column's cell; empty for a bone without a 3D pose.
    fn cell_3d(self, bone: &Bone, data: &BoneData) -> String {
        let w = self.width() - 1;
        let (Some(j), Some(setup)) = (&bone.joint3, &data.joint3) else {
            return String::new();
        };
        let euler = || {
            if setup.kind == Joint3Kind::Ray {
                look_degrees(j.direction)
            } else {
                euler_degrees(j.rotation)
            }
        };
        match self {
            Col::PosX => fixed(j.position[0], 3, w),
            Col::PosY => fixed(j.position[1], 3, w),
            Col::PosZ => fixed(j.position[2], 3, w),
            Col::EulerX => fixed(euler()[0], 1, w),
            Col::EulerY => fixed(euler()[1], 1, w),
            Col::EulerZ => fixed(euler()[2], 1, w),
            _ => String::new(),
        }
    }
}

/// The Euler angles (degrees, in [0, 360)) of a rotation looking along `d` with no roll:
/// what Unity's `Quaternion.LookRotation(d).eulerAngles` gives. Zero for a zero direction.
fn look_degrees(d: [f64; 3]) -> [f64; 3] {
    let [x, y, z] = normalize3(d);
    if [x, y, z] == [0.0; 3] {
        return [0.0; 3];
    }
    let pitch = (-y).clamp(-1.0, 1.0).asin().to_degrees();
    let yaw = x.atan2(z).to_degrees();
    let wrap = |a: f64| {
        let r = a.rem_euclid(360.0);
        if r >= 360.0 { 0.0 } else { r + 0.0 }
    };
    [wrap(pitch), wrap(yaw), 0.0]
}

/// The 2D local columns, in display order.
const LOCAL: [Col; 7] = [
    Col::Rot,
    Col::X,
    Col::Y,
    Col::ScaleX,
    Col::ScaleY,
    Col::ShearX,
    Col::ShearY,
];

/// Whether the applied pose shows differently from the pose in some local value.
pub fn applied_differs(pose: &Local, applied: &Local) -> bool {
    LOCAL.iter().any(|c| c.differs(pose, applied))
}

/// The labels of the local values that differ but have no column in `shown` (`sx sy`), for
/// the applied row to name what the panel is too narrow to show.
pub fn hidden_differences(shown: &[Col], pose: &Local, applied: &Local) -> String {
    LOCAL
        .iter()
        .filter(|c| !shown.contains(c) && c.differs(pose, applied))
        .map(|c| c.label())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The columns that fit beside a name column of at least `name_min` cells in `width` cells,
/// in display order. The inherit column is offered only when some bone needs it; `three_d`
/// chooses from the 3D columns instead of the 2D ones.
pub fn choose(width: usize, name_min: usize, with_inherit: bool, three_d: bool) -> Vec<Col> {
    let mut used = name_min;
    let mut chosen = Vec::new();
    let groups: &[&[Col]] = if three_d { &PRIORITY_3D } else { &PRIORITY };
    for &group in groups {
        if group.contains(&Col::Inherit) && !with_inherit {
            continue;
        }
        let w: usize = group.iter().map(|c| c.width()).sum();
        if used + w > width {
            break;
        }
        used += w;
        chosen.extend_from_slice(group);
    }
    DISPLAY
        .iter()
        .copied()
        .filter(|c| chosen.contains(c))
        .collect()
}

/// `v` with `decimals` decimals, dropping decimals (then using an exponent) to stay within
/// `width` characters. Never prints "-0.0".
pub fn fixed(v: f64, decimals: usize, width: usize) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    let mut last = String::new();
    for d in (0..=decimals).rev() {
        let mut s = format!("{v:.d$}");
        if s.starts_with('-') && s[1..].bytes().all(|c| c == b'0' || c == b'.') {
            s.remove(0);
        }
        if s.len() <= width {
            return s;
        }
        last = s;
    }
    let e = format!("{v:.0e}");
    if e.len() <= width { e } else { last }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_fits() {
        assert_eq!(fixed(12.345, 1, 7), "12.3");
        assert_eq!(fixed(-0.01, 1, 7), "0.0");
        assert_eq!(fixed(-1234.56, 1, 6), "-1235");
        assert_eq!(fixed(-12345.67, 1, 6), "-12346");
        assert_eq!(fixed(123456789.0, 1, 6), "1e8");
        assert_eq!(fixed(f64::NAN, 1, 6), "NaN");
    }

    #[test]
    fn narrow_keeps_the_local_transform() {
        assert_eq!(choose(42, 18, true, false), vec![Col::Rot, Col::X, Col::Y]);
        assert_eq!(
            choose(55, 18, true, false),
            vec![Col::Rot, Col::X, Col::Y, Col::ScaleX, Col::ScaleY],
            "the Bones panel of the 120-column layout"
        );
        assert_eq!(choose(78, 18, true, false).len(), 8);
        assert_eq!(choose(158, 18, true, false).len(), 11);
        assert!(!choose(158, 18, false, false).contains(&Col::Inherit));
    }

    #[test]
    fn three_d_columns_position_first() {
        assert_eq!(
            choose(42, 18, false, true),
            vec![Col::PosX, Col::PosY, Col::PosZ]
        );
        assert_eq!(choose(70, 18, false, true).len(), 6);
        assert!(choose(38, 18, false, true).is_empty());
    }

    #[test]
    fn applied_cells_show_only_differences() {
        let pose = Local {
            rotation: 370.0,
            x: 10.0,
            scale_x: 1.0,
            scale_y: 1.0,
            ..Local::default()
        };
        // The same orientation a whole turn apart, and noise below the last decimal.
        let mut applied = Local {
            rotation: 10.0 + 1e-9,
            x: 10.04,
            ..pose
        };
        assert!(!applied_differs(&pose, &applied));
        assert_eq!(Col::Rot.applied_cell(&pose, &applied), "");
        applied.x = 10.05;
        applied.scale_y = 0.8;
        assert!(applied_differs(&pose, &applied));
        assert_eq!(Col::X.applied_cell(&pose, &applied), "10.1");
        assert_eq!(Col::ScaleY.applied_cell(&pose, &applied), "0.80");
        assert_eq!(
            Col::WorldX.applied_cell(&pose, &applied),
            "",
            "world is the bone's row"
        );
        assert_eq!(
            hidden_differences(&[Col::Rot, Col::X, Col::Y], &pose, &applied),
            "sy"
        );
        applied.shear_y = f64::NAN;
        assert_eq!(Col::ShearY.applied_cell(&pose, &applied), "NaN");
    }

    #[test]
    fn inherit_cell_is_live() {
        let data = BoneData::new("b", None);
        let mut bone = Bone::new(&data);
        assert_eq!(Col::Inherit.cell(&bone, &data), "", "normal shows nothing");
        // An inherit timeline (Spine 4.2) changed the live mode: the cell follows it.
        bone.inherit = Inherit::NoScale;
        assert_eq!(Col::Inherit.cell(&bone, &data), Inherit::NoScale.name());
    }

    #[test]
    fn three_d_cells() {
        use crate::core::model::Joint3Setup;
        let mut data = BoneData::new("j", None);
        assert_eq!(Col::PosX.cell(&Bone::new(&data), &data), "", "a 2D bone");
        let mut setup = Joint3Setup::new(Joint3Kind::Joint);
        setup.position = [0.1234, -1.5, 2.0];
        let h = 15f64.to_radians();
        setup.rotation = [0.0, h.sin(), 0.0, h.cos()];
        data.joint3 = Some(setup);
        let bone = Bone::new(&data);
        let cells: Vec<String> = [Col::PosX, Col::PosY, Col::PosZ, Col::EulerX, Col::EulerY]
            .iter()
            .map(|c| c.cell(&bone, &data))
            .collect();
        assert_eq!(cells, ["0.123", "-1.500", "2.000", "0.0", "30.0"]);
        // A ray looking right and down by 45 degrees.
        let look = look_degrees([1.0, -1.0, 0.0]);
        assert!(
            (look[0] - 45.0).abs() < 1e-9 && look[1] == 90.0 && look[2] == 0.0,
            "{look:?}"
        );
        assert_eq!(look_degrees([0.0; 3]), [0.0; 3]);
    }
}
