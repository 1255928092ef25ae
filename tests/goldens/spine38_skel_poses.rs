//! Spine 3.7 and 3.8 binary exports (`.skel`) against the official runtime's goldens made from the
//! same `.skel` files (`../shared/golden/spine/<3.7|3.8>/<name>.skel.poses.json`; 3.7's made with spine-c 3.7; the JSON goldens
//! do not apply to them: the JSON export is rounded).

use crate::common;

use common::golden_poses::run_skel_goldens;

#[test]
fn official_runtime_skel_goldens_3_8() {
    run_skel_goldens("3.8", 21);
}

#[test]
fn official_runtime_skel_goldens_3_7() {
    run_skel_goldens("3.7", 21);
}
