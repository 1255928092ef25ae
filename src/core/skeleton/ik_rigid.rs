//! Rigid inverse kinematics (DragonBones' IK): the world transforms of the chain are turned
//! about their origins, scale and shear untouched, instead of solving for local rotations.

use super::Skeleton;
use std::f64::consts::PI;

/// `r` wrapped into (-pi, pi].
fn wrap(r: f64) -> f64 {
    let r = (r + PI) % (2.0 * PI);
    if r > 0.0 { r - PI } else { r + PI }
}

impl Skeleton {
    /// Turns `bone`'s world transform about its origin by `radians`, moving `pivot` along:
    /// the bone's origin orbits (`pivot_x`, `pivot_y`).
    fn turn_world(&mut self, bone: usize, radians: f64, pivot_x: f64, pivot_y: f64) {
        let (s, c) = radians.sin_cos();
        let b = &mut self.bones[bone];
        let (dx, dy) = (b.world_x - pivot_x, b.world_y - pivot_y);
        b.world_x = pivot_x + c * dx - s * dy;
        b.world_y = pivot_y + s * dx + c * dy;
        b.rotate_world(radians.to_degrees());
    }

    /// Points one bone, or a parent/child pair, at (tx, ty) by turning world transforms.
    ///
    /// One bone: its x axis turns toward the target. Two bones: by the law of cosines over
    /// the parent-to-child distance, the child's length (in its world scale) and the
    /// parent-to-target distance, the parent turns so the child's origin lies on the elbow
    /// side `bend` (+1: the elbow clockwise of the line to the target; mirrored under a
    /// reflecting grandparent), then the
    /// child turns toward the target; out of reach the chain points straight at it. `mix`
    /// scales the parent's turn; the child ends `mix` of the way from its angle before the
    /// parent turned to the aim at the target (DragonBonesJS 5.6, probed with weights 0.5
    /// and 0.8).
    pub(crate) fn ik_rigid(&mut self, bones: &[usize], tx: f64, ty: f64, bend: i32, mix: f64) {
        // The update order leaves a two-bone chain's child to the constraint.
        if let [_, child] = *bones {
            let pose = self.bones[child].pose;
            self.update_bone_world(child, pose);
        }
        if mix == 0.0 {
            return;
        }
        match *bones {
            [bone] => {
                let b = &self.bones[bone];
                let current = b.c.atan2(b.a);
                let aim = (ty - b.world_y).atan2(tx - b.world_x);
                let (x, y) = (b.world_x, b.world_y);
                self.turn_world(bone, wrap(aim - current) * mix, x, y);
            }
            [parent, child] => {
                let p = &self.bones[parent];
                let c = &self.bones[child];
                let (px, py) = (p.world_x, p.world_y);
                let (cx, cy) = (c.world_x, c.world_y);
                let a = (cx - px).hypot(cy - py);
                let b = self.data.bones[child].length * c.world_scale_x();
                let d = (tx - px).hypot(ty - py);
                let mut side = bend as f64;
                if let Some(g) = self.data.bones[parent].parent {
                    let g = &self.bones[g];
                    if g.a * g.d - g.b * g.c < 0.0 {
                        side = -side;
                    }
                }
                let elbow = if a > 0.0 && d > 0.0 {
                    ((a * a + d * d - b * b) / (2.0 * a * d))
                        .clamp(-1.0, 1.0)
                        .acos()
                } else {
                    0.0
                };
                let target_angle = (ty - py).atan2(tx - px);
                let child_angle = (cy - py).atan2(cx - px);
                let turn = wrap(target_angle - side * elbow - child_angle) * mix;
                // The runtime blends the child from its angle before the parent turned (it
                // is not updated in between); with mix 1 that makes no difference.
                let before = c.c.atan2(c.a);
                self.turn_world(parent, turn, px, py);
                self.turn_world(child, turn, px, py);
                let c = &self.bones[child];
                let (cx, cy) = (c.world_x, c.world_y);
                let aim = (ty - cy).atan2(tx - cx);
                self.turn_world(child, wrap(aim - before) * mix - turn, cx, cy);
            }
            _ => {}
        }
    }
}
