//! Inverse kinematics: rotates one bone, or a parent/child pair, so the chain reaches a target.
//!
//! Spine 4.3 (`IkRule::V43`, found black-box against spine-core 4.3.13; fixture
//! `tests/fixtures/spine43/ik-rules-43.json`) solves with the 4.2 geometry but writes only the
//! bones' local rotation and scale, so a two-bone parent keeps its shear (4.2 set its world
//! transform from a shear-free pose); its guards use 1e-5 where 4.2 used 1e-4 (the
//! `noRotationOrReflection` axis: the world transform's 1e-10), and an IK angle of exactly
//! -180 wraps to 180. All 4.x runtimes turn radians into degrees with their rounded pi.

use super::{Local, Skeleton};
use crate::core::math::{DEG_RAD, RAD_DEG, SPINE_PI};
use crate::core::model::{IkConstraintData, IkRule, Inherit, SkeletonData};
use std::f64::consts::PI;

/// The animatable state of an IK constraint.
#[derive(Clone, Debug, PartialEq)]
pub struct IkConstraint {
    pub mix: f64,
    pub softness: f64,
    pub bend_direction: i32,
    pub compress: bool,
    pub stretch: bool,
    pub active: bool,
}

impl IkConstraint {
    /// The constraint in its setup state.
    pub fn new(data: &IkConstraintData) -> IkConstraint {
        let mut c = IkConstraint {
            mix: 0.0,
            softness: 0.0,
            bend_direction: 1,
            compress: false,
            stretch: false,
            active: true,
        };
        c.set_to_setup(data);
        c
    }

    /// Restores the setup values.
    pub fn set_to_setup(&mut self, d: &IkConstraintData) {
        self.mix = d.mix;
        self.softness = d.softness;
        self.bend_direction = d.bend_direction;
        self.compress = d.compress;
        self.stretch = d.stretch;
    }
}

/// Wraps a single-step rotation difference into (-180, 180] (4.3; earlier runtimes keep
/// exactly -180, so their range is [-180, 180]).
fn wrap_once(mut r: f64, rule: IkRule) -> f64 {
    if r > 180.0 {
        r -= 360.0;
    } else if r < -180.0 || (r == -180.0 && rule == IkRule::V43) {
        r += 360.0;
    }
    r
}

/// The threshold below which a length, scale difference or determinant counts as zero:
/// 0.0001 up to 4.2, 1e-5 in 4.3.
fn epsilon(rule: IkRule) -> f64 {
    if rule == IkRule::V43 { 1e-5 } else { 0.0001 }
}

/// 4.1 and later guard degenerate parents (a zero inverse for a vanishing determinant, a
/// minimum squared axis length) and flip `onlyTranslation` targets by the skeleton's sign.
fn guards_degenerate(rule: IkRule) -> bool {
    matches!(rule, IkRule::V41 | IkRule::V42 | IkRule::V43)
}

impl Skeleton {
    /// Degrees per radian as the runtime computes them (4.x: from its rounded pi, which
    /// decides angles that land exactly on the +-180 wrap).
    fn ik_rad_deg(&self) -> f64 {
        if self.frame.deg_rad == DEG_RAD {
            RAD_DEG
        } else {
            180.0 / SPINE_PI
        }
    }

    /// Runs IK constraint `i` (`data` is this skeleton's data).
    pub(crate) fn apply_ik(&mut self, data: &SkeletonData, i: usize) {
        let cd = &data.ik_constraints[i];
        let c = &self.ik[i];
        let (mix, softness, bend, compress, stretch) =
            (c.mix, c.softness, c.bend_direction, c.compress, c.stretch);
        let target = &self.bones[cd.target];
        let (tx, ty) = (target.world_x, target.world_y);
        if cd.rigid {
            self.ik_rigid(&cd.bones, tx, ty, bend, mix);
            if self.animated {
                // DragonBones: the second runtime update of a sample (see `animated`).
                self.ik_rigid(&cd.bones, tx, ty, bend, mix);
            }
            return;
        }
        let rule = data.rules.ik;
        // 4.x does nothing at all without mix (3.8 still recomputes a 2-bone child).
        if mix == 0.0 && rule != IkRule::V38 {
            return;
        }
        match cd.bones.as_slice() {
            [bone] => self.ik_one(*bone, tx, ty, compress, stretch, StretchY::of(cd), mix),
            [parent, child] => {
                // 4.2 and 4.3 solve only chains that inherit normally.
                if matches!(rule, IkRule::V42 | IkRule::V43)
                    && (self.bones[*parent].inherit != Inherit::Normal
                        || self.bones[*child].inherit != Inherit::Normal)
                {
                    return;
                }
                self.ik_two(
                    i,
                    *parent,
                    *child,
                    tx,
                    ty,
                    bend as f64,
                    stretch,
                    StretchY::of(cd),
                    softness,
                    mix,
                )
            }
            _ => {}
        }
    }

    /// Points `bone` at (tx, ty) in world space, blending by `alpha`.
    #[allow(clippy::too_many_arguments)]
    fn ik_one(
        &mut self,
        bone: usize,
        target_x: f64,
        target_y: f64,
        compress: bool,
        stretch: bool,
        stretch_y: StretchY,
        alpha: f64,
    ) {
        self.ensure_applied(bone);
        let rule = self.data.rules.ik;
        let eps = epsilon(rule);
        let data = &self.data.bones[bone];
        let Some(pi) = data.parent else {
            return;
        };
        let inherit = self.bones[bone].inherit;
        let length = data.length;
        let p = self.bones[pi].frame();
        let b = &self.bones[bone];
        let ap = b.applied;
        let (pa, mut pb, pc, mut pd) = (p.a, p.b, p.c, p.d);
        let mut rotation_ik = -ap.shear_x - ap.rotation;
        let rad_deg = self.ik_rad_deg();
        let atan2_deg = |y: f64, x: f64| y.atan2(x) * rad_deg;
        let (mut tx, mut ty);
        match inherit {
            Inherit::OnlyTranslation => {
                tx = target_x - b.world_x;
                ty = target_y - b.world_y;
                if guards_degenerate(rule) {
                    tx *= crate::core::math::signum(self.frame.scale_x);
                    ty *= crate::core::math::signum(self.frame.scale_y);
                }
            }
            _ => {
                if inherit == Inherit::NoRotationOrReflection {
                    let mut l2 = pa * pa + pc * pc;
                    if guards_degenerate(rule) {
                        l2 = l2.max(eps);
                    }
                    let s = (pa * pd - pb * pc).abs() / l2;
                    let sa = pa / self.frame.scale_x;
                    let sc = pc / self.frame.scale_y;
                    pb = -sc * s * self.frame.scale_x;
                    pd = sa * s * self.frame.scale_y;
                    rotation_ik += atan2_deg(sc, sa);
                }
                let x = target_x - p.world_x;
                let y = target_y - p.world_y;
                let d = pa * pd - pb * pc;
                if guards_degenerate(rule) && d.abs() <= eps {
                    tx = 0.0;
                    ty = 0.0;
                } else {
                    tx = (x * pd - y * pb) / d - ap.x;
                    ty = (y * pa - x * pc) / d - ap.y;
                }
            }
        }
        rotation_ik += atan2_deg(ty, tx);
        if ap.scale_x < 0.0 {
            rotation_ik += 180.0;
        }
        rotation_ik = wrap_once(rotation_ik, rule);
        let (mut sx, mut sy) = (ap.scale_x, ap.scale_y);
        if compress || stretch {
            if matches!(inherit, Inherit::NoScale | Inherit::NoScaleOrReflection) {
                tx = target_x - b.world_x;
                ty = target_y - b.world_y;
            }
            let len = length * sx;
            let dd = (tx * tx + ty * ty).sqrt();
            if ((compress && dd < len) || (stretch && dd > len)) && len > eps {
                let s = (dd / len - 1.0) * alpha + 1.0;
                sx *= s;
                sy = stretch_y.apply(sy, s);
            }
        }
        let local = Local {
            rotation: ap.rotation + rotation_ik * alpha,
            scale_x: sx,
            scale_y: sy,
            ..ap
        };
        self.update_bone_world(bone, local);
    }

    /// Bends `parent` and `child` so the child's tip reaches (tx, ty), blending by `alpha`.
    #[allow(clippy::too_many_arguments)]
    fn ik_two(
        &mut self,
        constraint: usize,
        parent: usize,
        child: usize,
        target_x: f64,
        target_y: f64,
        bend_dir: f64,
        stretch: bool,
        stretch_y: StretchY,
        softness: f64,
        alpha: f64,
    ) {
        let rule = self.data.rules.ik;
        let v4 = rule != IkRule::V38;
        let eps = epsilon(rule);
        if alpha == 0.0 {
            let pose = self.bones[child].pose;
            self.update_bone_world(child, pose);
            return;
        }
        self.ensure_applied(parent);
        self.ensure_applied(child);
        let Some(ppi) = self.data.bones[parent].parent else {
            return;
        };
        let pap = self.bones[parent].applied;
        let cap = self.bones[child].applied;
        let child_len = self.data.bones[child].length;
        let (px, py) = (pap.x, pap.y);
        let (mut psx, mut psy, mut csx) = (pap.scale_x, pap.scale_y, cap.scale_x);
        let (mut sx, mut sy) = (psx, psy);
        let (os1, mut s2);
        if psx < 0.0 {
            psx = -psx;
            os1 = 180.0;
            s2 = -1.0;
        } else {
            os1 = 0.0;
            s2 = 1.0;
        }
        if psy < 0.0 {
            psy = -psy;
            s2 = -s2;
        }
        let os2 = if csx < 0.0 {
            csx = -csx;
            180.0
        } else {
            0.0
        };
        let pb = &self.bones[parent];
        let cx = cap.x;
        let (cy, cwx, cwy);
        let uniform = (psx - psy).abs() <= eps;
        // 4.x also measures along the parent's x axis when stretching.
        if !uniform || (v4 && stretch) {
            cy = 0.0;
            cwx = pb.a * cx + pb.world_x;
            cwy = pb.c * cx + pb.world_y;
        } else {
            cy = cap.y;
            cwx = pb.a * cx + pb.b * cy + pb.world_x;
            cwy = pb.c * cx + pb.d * cy + pb.world_y;
        }
        let pp = self.bones[ppi].frame();
        let (a, b, c, d) = (pp.a, pp.b, pp.c, pp.d);
        let det = a * d - b * c;
        let id = if guards_degenerate(rule) && det.abs() <= eps {
            0.0
        } else {
            1.0 / det
        };
        let (x, y) = (cwx - pp.world_x, cwy - pp.world_y);
        let dx = (x * d - y * b) * id - px;
        let dy = (y * a - x * c) * id - py;
        let l1 = (dx * dx + dy * dy).sqrt();
        let mut l2 = child_len * csx;
        if l1 < eps {
            self.ik_one(
                parent,
                target_x,
                target_y,
                false,
                stretch,
                StretchY::None,
                alpha,
            );
            let local = Local {
                x: cx,
                y: cy,
                rotation: 0.0,
                ..cap
            };
            self.update_bone_world(child, local);
            return;
        }
        let (x, y) = (target_x - pp.world_x, target_y - pp.world_y);
        let mut tx = (x * d - y * b) * id - px;
        let mut ty = (y * a - x * c) * id - py;
        let mut dd = tx * tx + ty * ty;
        if softness != 0.0 {
            let softness = softness * psx * (csx + 1.0) / 2.0;
            let td = dd.sqrt();
            let sd = td - l1 - l2 * psx + softness;
            if sd > 0.0 {
                let mut p = (sd / (softness * 2.0)).min(1.0) - 1.0;
                p = (sd - softness * (1.0 - p * p)) / td;
                tx -= p * tx;
                ty -= p * ty;
                dd = tx * tx + ty * ty;
            }
        }
        let (a1, a2);
        'solve: {
            if uniform {
                l2 *= psx;
                let mut cos = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
                if cos < -1.0 {
                    cos = -1.0;
                } else if cos > 1.0 {
                    cos = 1.0;
                    if stretch {
                        let s = (dd.sqrt() / (l1 + l2) - 1.0) * alpha + 1.0;
                        sx *= s;
                        if v4 {
                            sy = stretch_y.apply(sy, s);
                        }
                    }
                }
                a2 = cos.acos() * bend_dir;
                let a = l1 + l2 * cos;
                let b = l2 * a2.sin();
                a1 = (ty * a - tx * b).atan2(tx * a + ty * b);
                break 'solve;
            }
            // Non-uniform parent scale: intersect the target circle with the child's ellipse.
            let a = psx * l2;
            let b = psy * l2;
            let (aa, bb) = (a * a, b * b);
            let ta = ty.atan2(tx);
            let c = bb * l1 * l1 + aa * dd - aa * bb;
            let c1 = -2.0 * bb * l1;
            let c2 = bb - aa;
            let disc = c1 * c1 - 4.0 * c2 * c;
            if disc >= 0.0 {
                let mut q = disc.sqrt();
                if c1 < 0.0 {
                    q = -q;
                }
                q = -(c1 + q) / 2.0;
                let r0 = q / c2;
                let r1 = c / q;
                let r = if r0.abs() < r1.abs() { r0 } else { r1 };
                if r * r <= dd {
                    let y = (dd - r * r).sqrt() * bend_dir;
                    a1 = ta - y.atan2(r);
                    a2 = (y / psy).atan2((r - l1) / psx);
                    break 'solve;
                }
            }
            let (mut min_angle, mut min_x, mut min_y) = (PI, l1 - a, 0.0);
            let mut min_dist = min_x * min_x;
            let (mut max_angle, mut max_x, mut max_y) = (0.0, l1 + a, 0.0);
            let mut max_dist = max_x * max_x;
            let cc = -a * l1 / (aa - bb);
            if (-1.0..=1.0).contains(&cc) {
                let ang = cc.acos();
                let x = a * ang.cos() + l1;
                let y = b * ang.sin();
                let dist = x * x + y * y;
                if dist < min_dist {
                    min_angle = ang;
                    min_dist = dist;
                    min_x = x;
                    min_y = y;
                }
                if dist > max_dist {
                    max_angle = ang;
                    max_dist = dist;
                    max_x = x;
                    max_y = y;
                }
            }
            if dd <= (min_dist + max_dist) / 2.0 {
                a1 = ta - (min_y * bend_dir).atan2(min_x);
                a2 = min_angle * bend_dir;
            } else {
                a1 = ta - (max_y * bend_dir).atan2(max_x);
                a2 = max_angle * bend_dir;
            }
        }
        let rad_deg = self.ik_rad_deg();
        let os = self.memos.ik_child[constraint].atan2(cy, cx) * s2;
        let rotation = pap.rotation;
        let a1 = wrap_once((a1 - os) * rad_deg + os1 - rotation, rule);
        // 4.3 writes only the parent's local rotation and scale; earlier runtimes set its
        // world transform from a pose without shear.
        let (shear_x, shear_y) = if rule == IkRule::V43 {
            (pap.shear_x, pap.shear_y)
        } else {
            (0.0, 0.0)
        };
        let local = Local {
            x: px,
            y: py,
            rotation: rotation + a1 * alpha,
            scale_x: sx,
            scale_y: if v4 { sy } else { pap.scale_y },
            shear_x,
            shear_y,
        };
        self.update_bone_world(parent, local);
        let rotation = cap.rotation;
        let a2 = wrap_once(
            ((a2 + os) * rad_deg - cap.shear_x) * s2 + os2 - rotation,
            rule,
        );
        let local = Local {
            x: cx,
            y: cy,
            rotation: rotation + a2 * alpha,
            ..cap
        };
        self.update_bone_world(child, local);
    }
}

/// How an IK stretch or compress of x by `s` also scales y: not at all, by `s` (`uniform`), or
/// keeping the area (Spine 4.3 `scaleY: "volume"`, eased below 0.7 so y does not explode).
#[derive(Clone, Copy, Debug, PartialEq)]
enum StretchY {
    None,
    Uniform,
    Volume,
}

impl StretchY {
    fn of(cd: &IkConstraintData) -> StretchY {
        if cd.volume {
            StretchY::Volume
        } else if cd.uniform {
            StretchY::Uniform
        } else {
            StretchY::None
        }
    }

    fn apply(self, sy: f64, s: f64) -> f64 {
        match self {
            StretchY::None => sy,
            StretchY::Uniform => sy * s,
            StretchY::Volume => sy / if s < 0.7 { 0.25 + 0.642857 * s } else { s },
        }
    }
}
