//! Point attachment world rotation as each official runtime reports it
//! (`tests/fixtures/point-rotation`, README there): degrees in 3.7-4.1 and 4.3, degrees ×
//! degRad² in 4.2.119 (`PointRotationRule`). From the JSON and (3.8+, the versions whose
//! binary the writer writes) from the JSON converted to `.skel`, our poses equal the
//! runtime's goldens.

use crate::common;

use super::spine_skel_writer::{load, scratch, write};
use common::project_dir;

const VERSIONS: [&str; 6] = ["3.7", "3.8", "4.0", "4.1", "4.2", "4.3"];

#[test]
fn point_rotation_is_what_each_runtime_reports() {
    let dir = scratch("point-rotation");
    for version in VERSIONS {
        let folder = project_dir()
            .join("tests/fixtures/point-rotation")
            .join(version);
        let (json, golden) = (folder.join("points.json"), folder.join("points.poses.json"));
        let r = common::golden_poses::check(&json, &golden);
        assert!(r.is_ok(), "{version} JSON: {}", r.unwrap_err());
        if version == "3.7" {
            continue;
        }
        let data = load(&std::fs::read(&json).expect("read"), version);
        let skel = dir.join(format!("points-{version}.skel"));
        std::fs::write(&skel, write(&data, version)).expect("write");
        let r = common::golden_poses::check(&skel, &golden);
        assert!(r.is_ok(), "{version} .skel: {}", r.unwrap_err());
    }
}

/// The 4.2 golden really is the degrees value times degRad² (so the test above cannot pass
/// by a tolerance): a point facing 70° reports 0.0213.
#[test]
fn the_4_2_golden_holds_the_scaled_rotation() {
    let golden = common::read_json(
        &project_dir().join("tests/fixtures/point-rotation/4.2/points.poses.json"),
    );
    let deg_rad = bonescope::core::math::SPINE_PI / 180.0;
    let r = golden["setup"]["points"]["s5"][2]
        .as_f64()
        .expect("a number");
    assert!((r - 70.0 * deg_rad * deg_rad).abs() < 1e-4, "{r}");
    let data = load(
        &std::fs::read(project_dir().join("tests/fixtures/point-rotation/4.1/points.json"))
            .expect("read"),
        "4.1",
    );
    assert_eq!(
        data.rules.point_rotation,
        bonescope::core::model::PointRotationRule::Degrees
    );
}
