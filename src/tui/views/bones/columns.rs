//! The value columns of a bone row, chosen by the width available.

use crate::core::model::{BoneData, Inherit};
use crate::core::skeleton::Bone;

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
}

/// Groups of columns in the order they are added as width allows (pairs go together).
const PRIORITY: [&[Col]; 7] = [
    &[Col::Rot],
    &[Col::WorldX, Col::WorldY],
    &[Col::WorldRot],
    &[Col::X, Col::Y],
    &[Col::ScaleX, Col::ScaleY],
    &[Col::ShearX, Col::ShearY],
    &[Col::Inherit],
];

/// Columns in display order.
const DISPLAY: [Col; 11] = [
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
];

impl Col {
    /// Width in cells, including the one-space gap before the value.
    pub fn width(self) -> usize {
        match self {
            Col::Rot | Col::X | Col::Y | Col::WorldRot | Col::WorldX | Col::WorldY => 7,
            Col::ScaleX | Col::ScaleY => 6,
            Col::ShearX | Col::ShearY => 7,
            Col::Inherit => 23,
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
        }
    }

    /// The cell text (without the gap), at most `width() - 1` cells.
    pub fn cell(self, bone: &Bone, data: &BoneData) -> String {
        let w = self.width() - 1;
        let p = &bone.pose;
        match self {
            Col::Rot => fixed(p.rotation, 1, w),
            Col::X => fixed(p.x, 1, w),
            Col::Y => fixed(p.y, 1, w),
            Col::ScaleX => fixed(p.scale_x, 2, w),
            Col::ScaleY => fixed(p.scale_y, 2, w),
            Col::ShearX => fixed(p.shear_x, 1, w),
            Col::ShearY => fixed(p.shear_y, 1, w),
            Col::WorldRot => fixed(bone.world_rotation_x(), 1, w),
            Col::WorldX => fixed(bone.world_x, 1, w),
            Col::WorldY => fixed(bone.world_y, 1, w),
            Col::Inherit => match data.inherit {
                Inherit::Normal => String::new(),
                other => other.name().to_string(),
            },
        }
    }
}

/// The columns that fit beside a name column of at least `name_min` cells in `width` cells,
/// in display order. The inherit column is offered only when some bone needs it.
pub fn choose(width: usize, name_min: usize, with_inherit: bool) -> Vec<Col> {
    let mut used = name_min;
    let mut chosen = Vec::new();
    for group in PRIORITY {
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
    fn narrow_keeps_rotation_and_world_position() {
        assert_eq!(
            choose(42, 18, true),
            vec![Col::Rot, Col::WorldX, Col::WorldY]
        );
        assert_eq!(choose(78, 18, true).len(), 8);
        assert_eq!(choose(158, 18, true).len(), 11);
        assert!(!choose(158, 18, false).contains(&Col::Inherit));
    }
}
