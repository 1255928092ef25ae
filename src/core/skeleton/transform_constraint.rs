//! Transform constraints: move bones toward (a mix of) a target bone's transform.

use super::Skeleton;
use crate::core::math::{DEG_RAD, wrap_degrees_38};
use crate::core::model::{ConstraintRule, SkeletonData, TransformConstraintData};
use std::f64::consts::{FRAC_PI_2, PI};

/// The animatable state of a transform constraint.
#[derive(Clone, Debug, PartialEq)]
pub struct TransformConstraint {
    pub mix_rotate: f64,
    pub mix_x: f64,
    pub mix_y: f64,
    pub mix_scale_x: f64,
    pub mix_scale_y: f64,
    pub mix_shear_y: f64,
    pub active: bool,
}

impl TransformConstraint {
    /// The constraint in its setup state.
    pub fn new(data: &TransformConstraintData) -> TransformConstraint {
        let mut c = TransformConstraint {
            mix_rotate: 0.0,
            mix_x: 0.0,
            mix_y: 0.0,
            mix_scale_x: 0.0,
            mix_scale_y: 0.0,
            mix_shear_y: 0.0,
            active: true,
        };
        c.set_to_setup(data);
        c
    }

    /// Restores the setup mixes.
    pub fn set_to_setup(&mut self, d: &TransformConstraintData) {
        self.mix_rotate = d.mix_rotate;
        self.mix_x = d.mix_x;
        self.mix_y = d.mix_y;
        self.mix_scale_x = d.mix_scale_x;
        self.mix_scale_y = d.mix_scale_y;
        self.mix_shear_y = d.mix_shear_y;
    }
}

/// The mixes of a transform constraint, copied out for one run, and the rules it runs by.
#[derive(Clone, Copy)]
struct Mixes {
    rotate: f64,
    x: f64,
    y: f64,
    scale_x: f64,
    scale_y: f64,
    shear: f64,
    rule: ConstraintRule,
}

impl Mixes {
    fn v4(&self) -> bool {
        self.rule != ConstraintRule::V38
    }
}

/// Wraps radians into [-PI, PI] with one step.
fn wrap_rad(mut r: f64) -> f64 {
    if r > PI {
        r -= PI * 2.0;
    } else if r < -PI {
        r += PI * 2.0;
    }
    r
}

impl Skeleton {
    /// Runs transform constraint `i` (`data` is this skeleton's data).
    pub(crate) fn apply_transform(&mut self, data: &SkeletonData, i: usize) {
        let cd = &data.transform_constraints[i];
        let c = &self.transforms[i];
        let mixes = Mixes {
            rotate: c.mix_rotate,
            x: c.mix_x,
            y: c.mix_y,
            scale_x: c.mix_scale_x,
            scale_y: c.mix_scale_y,
            shear: c.mix_shear_y,
            rule: data.rules.constraints,
        };
        if mixes.v4() {
            // 4.0 tests mixScaleX twice and never mixScaleY.
            let scale_y = if mixes.rule == ConstraintRule::V40 {
                mixes.scale_x
            } else {
                mixes.scale_y
            };
            if [
                mixes.rotate,
                mixes.x,
                mixes.y,
                mixes.scale_x,
                scale_y,
                mixes.shear,
            ]
            .iter()
            .all(|&m| m == 0.0)
            {
                return;
            }
        }
        match (cd.local, cd.relative) {
            (false, false) => self.transform_world(i, cd, mixes, false),
            (false, true) => self.transform_world(i, cd, mixes, true),
            (true, false) => self.transform_local(cd, mixes, false),
            (true, true) => self.transform_local(cd, mixes, true),
        }
    }

    /// World-space modes: change the constrained bones' world matrices directly.
    fn transform_world(
        &mut self,
        i: usize,
        cd: &TransformConstraintData,
        m: Mixes,
        relative: bool,
    ) {
        let t = self.bones[cd.target].frame();
        let data = self.data.clone();
        let (ta, tb, tc, td) = (t.a, t.b, t.c, t.d);
        let reflect = if ta * td - tb * tc > 0.0 {
            DEG_RAD
        } else {
            -DEG_RAD
        };
        let offset_rotation = cd.offset_rotation * reflect;
        let offset_shear_y = cd.offset_shear_y * reflect;
        let memo = &mut self.memos.transforms[i];
        for (&bi, (bone_angle, turn)) in cd.bones.iter().zip(&mut memo.bones) {
            let bone = &mut self.bones[bi];
            let mut modified = false;
            if m.rotate != 0.0 {
                let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
                let r = if relative {
                    memo.target.atan2(tc, ta) + offset_rotation
                } else {
                    memo.target.atan2(tc, ta) - bone_angle.atan2(c, a) + offset_rotation
                };
                let r = wrap_rad(r) * m.rotate;
                let (sin, cos) = turn.sin_cos(r);
                bone.a = cos * a - sin * c;
                bone.b = cos * b - sin * d;
                bone.c = sin * a + cos * c;
                bone.d = sin * b + cos * d;
                modified = true;
            }
            if m.x != 0.0 || m.y != 0.0 {
                // The offset in the target's world space (as `Bone::local_to_world`).
                let (x, y) = (
                    cd.offset_x * ta + cd.offset_y * tb + t.world_x,
                    cd.offset_x * tc + cd.offset_y * td + t.world_y,
                );
                if relative {
                    bone.world_x += x * m.x;
                    bone.world_y += y * m.y;
                } else {
                    bone.world_x += (x - bone.world_x) * m.x;
                    bone.world_y += (y - bone.world_y) * m.y;
                }
                modified = true;
            }
            // 3.8 scales both axes when its one scale mix is > 0; 4.x each axis when its
            // own mix is not 0, guarding only against a zero column.
            let (scale_x, scale_y) = if m.v4() {
                (m.scale_x != 0.0, m.scale_y != 0.0)
            } else {
                (m.scale_x > 0.0, m.scale_x > 0.0)
            };
            let guard = |s: f64| if m.v4() { s != 0.0 } else { s > 0.00001 };
            if scale_x {
                let s = if relative {
                    ((ta * ta + tc * tc).sqrt() - 1.0 + cd.offset_scale_x) * m.scale_x + 1.0
                } else {
                    let s = (bone.a * bone.a + bone.c * bone.c).sqrt();
                    if guard(s) {
                        (s + ((ta * ta + tc * tc).sqrt() - s + cd.offset_scale_x) * m.scale_x) / s
                    } else {
                        s
                    }
                };
                bone.a *= s;
                bone.c *= s;
                modified = true;
            }
            if scale_y {
                let s = if relative {
                    ((tb * tb + td * td).sqrt() - 1.0 + cd.offset_scale_y) * m.scale_y + 1.0
                } else {
                    let s = (bone.b * bone.b + bone.d * bone.d).sqrt();
                    if guard(s) {
                        (s + ((tb * tb + td * td).sqrt() - s + cd.offset_scale_y) * m.scale_y) / s
                    } else {
                        s
                    }
                };
                bone.b *= s;
                bone.d *= s;
                modified = true;
            }
            if m.shear > 0.0 {
                let (b, d) = (bone.b, bone.d);
                let by = d.atan2(b);
                let r = if relative {
                    let r = wrap_rad(td.atan2(tb) - tc.atan2(ta));
                    by + (r - FRAC_PI_2 + offset_shear_y) * m.shear
                } else {
                    let r = wrap_rad(td.atan2(tb) - tc.atan2(ta) - (by - bone.c.atan2(bone.a)));
                    by + (r + offset_shear_y) * m.shear
                };
                let s = (b * b + d * d).sqrt();
                bone.b = r.cos() * s;
                bone.d = r.sin() * s;
                modified = true;
            }
            if modified {
                super::defer_applied(&mut self.bones, &mut self.applied_parent, &data, bi);
            }
        }
    }

    /// Local-space modes: change the constrained bones' applied local transforms.
    fn transform_local(&mut self, cd: &TransformConstraintData, m: Mixes, relative: bool) {
        self.ensure_applied(cd.target);
        let t = self.bones[cd.target].applied;
        // 3.8 to 4.1 wrap local rotation and shear differences into one turn; 4.2 does not.
        let wrap = |r: f64| {
            if m.rule == ConstraintRule::V42 {
                r
            } else {
                wrap_degrees_38(r)
            }
        };
        for &bi in &cd.bones {
            self.ensure_applied(bi);
            let ap = self.bones[bi].applied;
            let mut l = ap;
            if relative && m.v4() {
                l.rotation += (t.rotation + cd.offset_rotation) * m.rotate;
                l.x += (t.x + cd.offset_x) * m.x;
                l.y += (t.y + cd.offset_y) * m.y;
                l.scale_x *= (t.scale_x - 1.0 + cd.offset_scale_x) * m.scale_x + 1.0;
                l.scale_y *= (t.scale_y - 1.0 + cd.offset_scale_y) * m.scale_y + 1.0;
                l.shear_y += (t.shear_y + cd.offset_shear_y) * m.shear;
            } else if relative {
                if m.rotate != 0.0 {
                    l.rotation += (t.rotation + cd.offset_rotation) * m.rotate;
                }
                if m.x != 0.0 {
                    l.x += (t.x + cd.offset_x) * m.x;
                    l.y += (t.y + cd.offset_y) * m.y;
                }
                if m.scale_x != 0.0 {
                    if l.scale_x > 0.00001 {
                        l.scale_x *= (t.scale_x - 1.0 + cd.offset_scale_x) * m.scale_x + 1.0;
                    }
                    if l.scale_y > 0.00001 {
                        l.scale_y *= (t.scale_y - 1.0 + cd.offset_scale_y) * m.scale_y + 1.0;
                    }
                }
                if m.shear != 0.0 {
                    l.shear_y += (t.shear_y + cd.offset_shear_y) * m.shear;
                }
            } else {
                if m.rotate != 0.0 {
                    let r = wrap(t.rotation - ap.rotation + cd.offset_rotation);
                    l.rotation += r * m.rotate;
                }
                if m.v4() || m.x != 0.0 {
                    l.x += (t.x - ap.x + cd.offset_x) * m.x;
                    l.y += (t.y - ap.y + cd.offset_y) * m.y;
                }
                // 3.8 needs a positive scale; 4.x any but 0.
                let (scale_x, scale_y) = if m.v4() {
                    (
                        m.scale_x != 0.0 && l.scale_x != 0.0,
                        m.scale_y != 0.0 && l.scale_y != 0.0,
                    )
                } else {
                    (
                        m.scale_x != 0.0 && l.scale_x > 0.00001,
                        m.scale_x != 0.0 && l.scale_y > 0.00001,
                    )
                };
                if scale_x {
                    l.scale_x = (l.scale_x
                        + (t.scale_x - l.scale_x + cd.offset_scale_x) * m.scale_x)
                        / l.scale_x;
                }
                if scale_y {
                    l.scale_y = (l.scale_y
                        + (t.scale_y - l.scale_y + cd.offset_scale_y) * m.scale_y)
                        / l.scale_y;
                }
                if m.shear != 0.0 {
                    let r = wrap(t.shear_y - ap.shear_y + cd.offset_shear_y);
                    l.shear_y += r * m.shear;
                }
            }
            self.update_bone_world(bi, l);
        }
    }
}
