//! A posed bone: local pose, applied pose and world transform.

use super::memo::AxesTrig;
use crate::core::math::{DEG_RAD, RAD_DEG, atan2_deg};
use crate::core::model::{AppliedFormula, BoneData, Inherit};

/// The parts of the parent (or skeleton) a bone's world transform is computed from.
#[derive(Clone, Copy, Debug)]
pub struct ParentFrame {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub world_x: f64,
    pub world_y: f64,
}

/// Skeleton-level placement: position and (possibly negative) scale, and the degree to
/// radian factor of the runtime (see [`crate::core::model::Rules::deg_rad`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SkeletonFrame {
    pub x: f64,
    pub y: f64,
    pub scale_x: f64,
    pub scale_y: f64,
    pub deg_rad: f64,
    /// Below this squared parent x-axis length a `noRotationOrReflection` bone takes its
    /// rotation from the parent's y axis: 1e-4 up to 4.2, 1e-10 (1e-5 squared) in 4.3.
    pub axis_epsilon: f64,
}

impl SkeletonFrame {
    /// At the origin, unscaled, with true pi.
    pub const IDENTITY: SkeletonFrame = SkeletonFrame {
        x: 0.0,
        y: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        deg_rad: DEG_RAD,
        axis_epsilon: 0.0001,
    };
}

/// A local transform: translation, rotation, scale and shear (degrees).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Local {
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub scale_x: f64,
    pub scale_y: f64,
    pub shear_x: f64,
    pub shear_y: f64,
}

impl Local {
    /// The setup pose of a bone.
    pub fn setup(data: &BoneData) -> Local {
        Local {
            x: data.x,
            y: data.y,
            rotation: data.rotation,
            scale_x: data.scale_x,
            scale_y: data.scale_y,
            shear_x: data.shear_x,
            shear_y: data.shear_y,
        }
    }
}

/// The local 2x2 matrix columns (la, lb, lc, ld) of rotation, shear and scale: the x axis at
/// `rotation + shear_x`, the y axis at `rotation + 90 + shear_y`. Without shear both axes come
/// from one sine/cosine pair (the hot path: most bones have no shear), taken from `memo`.
#[inline]
fn local_axes(local: &Local, deg_rad: f64, memo: &mut AxesTrig) -> (f64, f64, f64, f64) {
    let Local {
        rotation,
        scale_x,
        scale_y,
        shear_x,
        shear_y,
        ..
    } = *local;
    let (sx, cx) = memo.x.sin_cos((rotation + shear_x) * deg_rad);
    if deg_rad == DEG_RAD {
        // With true pi the y axis is the x axis turned by 90 degrees: (cos, sin)(r + 90) =
        // (-sin r, cos r).
        if shear_x == shear_y {
            return (cx * scale_x, -sx * scale_y, sx * scale_x, cx * scale_y);
        }
        let (sy, cy) = memo.y.sin_cos((rotation + 90.0 + shear_y) * deg_rad);
        return (cx * scale_x, cy * scale_y, sx * scale_x, sy * scale_y);
    }
    // The 4.x runtimes' rounded pi makes a quarter turn ~2.3e-8 rad more than pi/2, so the y
    // axis (at `rotation + 90 + shear_y`) is not (-sin, cos) of the x axis. It is the x axis
    // turned by `90 + shear_y - shear_x` by the angle sum (within a few ulps of the direct
    // sine/cosine), and that turn only changes when a shear does: the memo keeps it.
    let (so, co) = memo.y.sin_cos((90.0 + shear_y - shear_x) * deg_rad);
    let (sy, cy) = (sx * co + cx * so, cx * co - sx * so);
    (cx * scale_x, cy * scale_y, sx * scale_x, sy * scale_y)
}

/// A bone of a posed skeleton.
#[derive(Clone, Debug, PartialEq)]
pub struct Bone {
    /// The pose timelines write (before constraints).
    pub pose: Local,
    /// The local transform that produced the current world transform.
    pub applied: Local,
    /// False when a constraint changed the world transform after `applied` was set.
    pub applied_valid: bool,
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub world_x: f64,
    pub world_y: f64,
    /// Inactive bones (skin-required, not in the skin) are skipped entirely.
    pub active: bool,
    /// How the bone inherits its parent's transform (part of the pose in Spine 4.2, where
    /// inherit timelines change it; the setup value elsewhere).
    pub inherit: Inherit,
    /// The 3D pose of a bone whose data has one (world space; see [`super::Joint3Pose`]).
    /// Boxed: most skeletons have none, and the per-frame loops walk `Bone`s.
    pub joint3: Option<Box<super::Joint3Pose>>,
}

impl Bone {
    /// The affine map `[a, b, c, d, x, y]` of something placed at (`x`, `y`), turned by
    /// `rotation` degrees, on this bone (a DragonBones child armature's display), then
    /// mapped by `outer` when the skeleton is itself placed inside another one.
    pub fn placement(&self, x: f64, y: f64, rotation: f64, outer: Option<[f64; 6]>) -> [f64; 6] {
        let (s, c) = (rotation * crate::core::math::DEG_RAD).sin_cos();
        let here = [
            self.a * c + self.b * s,
            self.b * c - self.a * s,
            self.c * c + self.d * s,
            self.d * c - self.c * s,
            self.a * x + self.b * y + self.world_x,
            self.c * x + self.d * y + self.world_y,
        ];
        match outer {
            None => here,
            Some([pa, pb, pc, pd, px, py]) => [
                pa * here[0] + pb * here[2],
                pa * here[1] + pb * here[3],
                pc * here[0] + pd * here[2],
                pc * here[1] + pd * here[3],
                pa * here[4] + pb * here[5] + px,
                pc * here[4] + pd * here[5] + py,
            ],
        }
    }

    /// A bone in its setup pose with an identity world transform.
    pub fn new(data: &BoneData) -> Bone {
        let pose = Local::setup(data);
        Bone {
            pose,
            applied: pose,
            applied_valid: true,
            a: 1.0,
            b: 0.0,
            c: 0.0,
            d: 1.0,
            world_x: 0.0,
            world_y: 0.0,
            active: !data.skin_required,
            inherit: data.inherit,
            joint3: data
                .joint3
                .as_ref()
                .map(|j| Box::new(super::Joint3Pose::setup(j))),
        }
    }

    /// This bone's world frame, as a parent for its children.
    pub fn frame(&self) -> ParentFrame {
        ParentFrame {
            a: self.a,
            b: self.b,
            c: self.c,
            d: self.d,
            world_x: self.world_x,
            world_y: self.world_y,
        }
    }

    /// Transforms a point from this bone's space to world space.
    pub fn local_to_world(&self, x: f64, y: f64) -> (f64, f64) {
        (
            x * self.a + y * self.b + self.world_x,
            x * self.c + y * self.d + self.world_y,
        )
    }

    /// Transforms a point from world space to this bone's space.
    pub fn world_to_local(&self, x: f64, y: f64) -> (f64, f64) {
        let inv = 1.0 / (self.a * self.d - self.b * self.c);
        let (dx, dy) = (x - self.world_x, y - self.world_y);
        (
            (dx * self.d - dy * self.b) * inv,
            (dy * self.a - dx * self.c) * inv,
        )
    }

    /// World rotation of the x axis, degrees.
    pub fn world_rotation_x(&self) -> f64 {
        atan2_deg(self.c, self.a)
    }

    /// Sets `applied` to `local` and computes the world transform from it.
    #[inline]
    pub fn update_world(
        &mut self,
        local: Local,
        inherit: Inherit,
        parent: Option<ParentFrame>,
        sk: SkeletonFrame,
    ) {
        let mut memo = AxesTrig::ZERO;
        self.update_world_memo(local, inherit, parent, sk, &mut memo);
    }

    /// [`Bone::update_world`] with the sine and cosine of the rotation memoised in `memo`.
    #[inline]
    pub(crate) fn update_world_memo(
        &mut self,
        local: Local,
        inherit: Inherit,
        parent: Option<ParentFrame>,
        sk: SkeletonFrame,
        memo: &mut AxesTrig,
    ) {
        let w = match parent {
            Some(p) if inherit == Inherit::Normal => world_normal(&local, &p, sk.deg_rad, memo),
            _ => world_of(&local, inherit, parent, sk, memo),
        };
        self.applied = local;
        self.applied_valid = true;
        self.set_world(w);
    }

    /// Computes the world transform from the applied pose (the 4.x frame's bone update),
    /// with the sine and cosine of the rotation memoised in `memo`.
    #[inline]
    pub(crate) fn update_world_from_applied_memo(
        &mut self,
        parent: Option<ParentFrame>,
        sk: SkeletonFrame,
        memo: &mut AxesTrig,
    ) {
        let w = match parent {
            Some(p) if self.inherit == Inherit::Normal => {
                world_normal(&self.applied, &p, sk.deg_rad, memo)
            }
            _ => world_of(&self.applied, self.inherit, parent, sk, memo),
        };
        self.applied_valid = true;
        self.set_world(w);
    }

    /// Computes the world transform from the bone's own pose (what a frame does for most
    /// bones) and makes the pose the applied transform.
    #[inline]
    pub fn update_world_from_pose(
        &mut self,
        inherit: Inherit,
        parent: Option<ParentFrame>,
        sk: SkeletonFrame,
    ) {
        let mut memo = AxesTrig::ZERO;
        self.update_world_from_pose_memo(inherit, parent, sk, &mut memo);
    }

    /// [`Bone::update_world_from_pose`] with the sine and cosine of the rotation memoised in
    /// `memo` (one per bone, kept by the skeleton across frames).
    #[inline]
    pub(crate) fn update_world_from_pose_memo(
        &mut self,
        inherit: Inherit,
        parent: Option<ParentFrame>,
        sk: SkeletonFrame,
        memo: &mut AxesTrig,
    ) {
        let w = match parent {
            Some(p) if inherit == Inherit::Normal => world_normal(&self.pose, &p, sk.deg_rad, memo),
            _ => world_of(&self.pose, inherit, parent, sk, memo),
        };
        self.applied = self.pose;
        self.applied_valid = true;
        self.set_world(w);
    }

    /// Computes the world transform of a child of a DragonBones surface bone from `local`:
    /// placed through `cell` (the lattice's map at its position, after the surface's parent
    /// frame); DragonBones inherit rules take the parent's rotation from the surface bone's
    /// own frame `surface` (observed with DragonBonesJS 5.6.300).
    pub(crate) fn update_world_under_surface(
        &mut self,
        local: Local,
        cell: ParentFrame,
        surface: &ParentFrame,
        sk: SkeletonFrame,
    ) {
        let mut memo = AxesTrig::ZERO;
        let w = match self.inherit {
            Inherit::DragonBones {
                translation,
                rotation,
                scale,
            } => {
                let turn = atan2_deg(surface.c, surface.a);
                world_dragonbones_turned(&local, &cell, turn, sk, translation, rotation, scale)
            }
            Inherit::Normal => world_normal(&local, &cell, sk.deg_rad, &mut memo),
            other => world_of(&local, other, Some(cell), sk, &mut memo),
        };
        self.applied = local;
        self.applied_valid = true;
        self.set_world(w);
    }

    #[inline]
    pub(super) fn set_world(&mut self, w: ParentFrame) {
        (self.a, self.b, self.c, self.d, self.world_x, self.world_y) =
            (w.a, w.b, w.c, w.d, w.world_x, w.world_y);
    }

    /// Recomputes `applied` from the world transform (after a constraint changed it), with
    /// the 3.8 formula.
    pub fn update_applied(&mut self, parent: Option<ParentFrame>) {
        self.update_applied_with(parent, AppliedFormula::V38, SkeletonFrame::IDENTITY);
    }

    /// Recomputes `applied` from the world transform with the given runtime's formula
    /// (`frame`: the skeleton's position and scale).
    pub fn update_applied_with(
        &mut self,
        parent: Option<ParentFrame>,
        formula: AppliedFormula,
        frame: SkeletonFrame,
    ) {
        self.applied = self.applied_from_world(parent, formula, frame);
        self.applied_valid = true;
    }

    /// The applied pose [`Bone::update_applied_with`] recovers, without storing it.
    pub fn applied_from_world(
        &self,
        parent: Option<ParentFrame>,
        formula: AppliedFormula,
        frame: SkeletonFrame,
    ) -> Local {
        if formula == AppliedFormula::V43 {
            let w = super::local_from_world43::World {
                a: self.a,
                b: self.b,
                c: self.c,
                d: self.d,
                x: self.world_x,
                y: self.world_y,
            };
            return super::local_from_world43::local_from_world(w, self.inherit, parent, frame);
        }
        // The runtime's degree/radian factors (4.x: its rounded pi).
        let rad = if frame.deg_rad == DEG_RAD {
            RAD_DEG
        } else {
            180.0 / crate::core::math::SPINE_PI
        };
        let atan2_deg = |y: f64, x: f64| y.atan2(x) * rad;
        let Some(p) = parent else {
            let (x, y) = match formula {
                AppliedFormula::V38 => (self.world_x, self.world_y),
                _ => (self.world_x - frame.x, self.world_y - frame.y),
            };
            return Local {
                x,
                y,
                rotation: atan2_deg(self.c, self.a),
                scale_x: (self.a * self.a + self.c * self.c).sqrt(),
                scale_y: (self.b * self.b + self.d * self.d).sqrt(),
                shear_x: 0.0,
                shear_y: atan2_deg(
                    self.a * self.b + self.c * self.d,
                    self.a * self.d - self.b * self.c,
                ),
            };
        };
        let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
        let mut pid = 1.0 / (pa * pd - pb * pc);
        let (mut ia, mut ib, mut ic, mut id) = (pd * pid, pb * pid, pc * pid, pa * pid);
        let dx = self.world_x - p.world_x;
        let dy = self.world_y - p.world_y;
        let x = dx * ia - dy * ib;
        let y = dy * id - dx * ic;
        let (ra, rb, rc, rd);
        if formula == AppliedFormula::V42 && self.inherit == Inherit::OnlyTranslation {
            (ra, rb, rc, rd) = (self.a, self.b, self.c, self.d);
        } else {
            if formula == AppliedFormula::V42 {
                let (sx, sy) = (frame.scale_x, frame.scale_y);
                match self.inherit {
                    Inherit::NoRotationOrReflection => {
                        let s = (pa * pd - pb * pc).abs() / (pa * pa + pc * pc);
                        pb = -pc * sx * s / sy;
                        pd = pa * sy * s / sx;
                        pid = 1.0 / (pa * pd - pb * pc);
                        ia = pd * pid;
                        ib = pb * pid;
                    }
                    Inherit::NoScale | Inherit::NoScaleOrReflection => {
                        let (sin, cos) = (self.pose.rotation * frame.deg_rad).sin_cos();
                        pa = (pa * cos + pb * sin) / sx;
                        pc = (pc * cos + pd * sin) / sy;
                        let mut l = (pa * pa + pc * pc).sqrt();
                        if l > 0.00001 {
                            l = 1.0 / l;
                        }
                        pa *= l;
                        pc *= l;
                        let mut s = (pa * pa + pc * pc).sqrt();
                        if self.inherit == Inherit::NoScale
                            && (pid < 0.0) != ((sx < 0.0) != (sy < 0.0))
                        {
                            s = -s;
                        }
                        let q = std::f64::consts::FRAC_PI_2 + pc.atan2(pa);
                        pb = q.cos() * s;
                        pd = q.sin() * s;
                        pid = 1.0 / (pa * pd - pb * pc);
                        (ia, ib, ic, id) = (pd * pid, pb * pid, pc * pid, pa * pid);
                    }
                    _ => {}
                }
            }
            ra = ia * self.a - ib * self.c;
            rb = ia * self.b - ib * self.d;
            rc = id * self.c - ic * self.a;
            rd = id * self.d - ic * self.b;
        }
        let mut scale_x = (ra * ra + rc * rc).sqrt();
        let (scale_y, shear_y, rotation);
        if scale_x > 0.0001 {
            let det = ra * rd - rb * rc;
            scale_y = det / scale_x;
            let shear = atan2_deg(ra * rb + rc * rd, det);
            shear_y = if formula == AppliedFormula::V42 {
                -shear
            } else {
                shear
            };
            rotation = atan2_deg(rc, ra);
        } else {
            scale_x = 0.0;
            scale_y = (rb * rb + rd * rd).sqrt();
            shear_y = 0.0;
            rotation = 90.0 - atan2_deg(rd, rb);
        }
        Local {
            x,
            y,
            rotation,
            scale_x,
            scale_y,
            shear_x: 0.0,
            shear_y,
        }
    }

    /// Rotates the world transform by `degrees` (used by constraints).
    pub fn rotate_world(&mut self, degrees: f64) {
        let (sin, cos) = (degrees * DEG_RAD).sin_cos();
        let (a, b, c, d) = (self.a, self.b, self.c, self.d);
        self.a = cos * a - sin * c;
        self.b = cos * b - sin * d;
        self.c = sin * a + cos * c;
        self.d = sin * b + cos * d;
        self.applied_valid = false;
    }

    /// The world scale along the bone's x axis.
    pub fn world_scale_x(&self) -> f64 {
        (self.a * self.a + self.c * self.c).sqrt()
    }

    /// The world scale along the bone's y axis.
    pub fn world_scale_y(&self) -> f64 {
        (self.b * self.b + self.d * self.d).sqrt()
    }
}

/// [`world_of`] for a bone with a parent and `Inherit::Normal`: the parent's matrix times the
/// local one. Split out so the per-frame loop inlines this case (nearly every bone) and only
/// calls the general function for the rest.
#[inline(always)]
fn world_normal(local: &Local, p: &ParentFrame, deg_rad: f64, memo: &mut AxesTrig) -> ParentFrame {
    let (la, lb, lc, ld) = local_axes(local, deg_rad, memo);
    let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
    ParentFrame {
        a: pa * la + pb * lc,
        b: pa * lb + pb * ld,
        c: pc * la + pd * lc,
        d: pc * lb + pd * ld,
        world_x: pa * local.x + pb * local.y + p.world_x,
        world_y: pc * local.x + pd * local.y + p.world_y,
    }
}

/// [`Inherit::DragonBones`]: see there. The parent's world rotation is the angle of its world
/// x axis, which is what DragonBones' decomposed rotation plus its half turn for a negative
/// decomposed scale amounts to.
fn world_dragonbones(
    local: &Local,
    p: &ParentFrame,
    sk: SkeletonFrame,
    translation: bool,
    inherit_rotation: bool,
    scale: bool,
) -> ParentFrame {
    let parent_rotation = atan2_deg(p.c, p.a);
    world_dragonbones_turned(
        local,
        p,
        parent_rotation,
        sk,
        translation,
        inherit_rotation,
        scale,
    )
}

/// [`world_dragonbones`] with the parent's world rotation given: under a surface bone it is
/// the surface's own, while `p` is the lattice's map at the bone's position.
fn world_dragonbones_turned(
    local: &Local,
    p: &ParentFrame,
    parent_rotation: f64,
    sk: SkeletonFrame,
    translation: bool,
    inherit_rotation: bool,
    scale: bool,
) -> ParentFrame {
    let mut l = *local;
    let mut memo = AxesTrig::ZERO;
    let mut w = if scale {
        if !inherit_rotation {
            l.rotation -= parent_rotation;
        }
        world_normal(&l, p, sk.deg_rad, &mut memo)
    } else {
        if inherit_rotation {
            let mut r = l.rotation + parent_rotation;
            if p.a * p.d - p.b * p.c < 0.0 {
                r -= 2.0 * l.rotation;
                l.shear_y += 180.0;
            }
            l.rotation = r;
        }
        let (la, lb, lc, ld) = local_axes(&l, sk.deg_rad, &mut memo);
        ParentFrame {
            a: la * sk.scale_x,
            b: lb * sk.scale_x,
            c: lc * sk.scale_y,
            d: ld * sk.scale_y,
            world_x: p.a * l.x + p.b * l.y + p.world_x,
            world_y: p.c * l.x + p.d * l.y + p.world_y,
        }
    };
    if !translation {
        w.world_x = l.x * sk.scale_x + sk.x;
        w.world_y = l.y * sk.scale_y + sk.y;
    }
    w
}

/// The world transform of a bone with local transform `local` under `parent` (the sine and
/// cosine of the rotation come through `memo`).
fn world_of(
    local: &Local,
    inherit: Inherit,
    parent: Option<ParentFrame>,
    sk: SkeletonFrame,
    memo: &mut AxesTrig,
) -> ParentFrame {
    let Local {
        x,
        y,
        rotation,
        scale_x,
        scale_y,
        shear_x,
        shear_y,
    } = *local;
    let mut w = ParentFrame {
        a: 0.0,
        b: 0.0,
        c: 0.0,
        d: 0.0,
        world_x: 0.0,
        world_y: 0.0,
    };
    let Some(p) = parent else {
        let (la, lb, lc, ld) = local_axes(local, sk.deg_rad, memo);
        w.a = la * sk.scale_x;
        w.b = lb * sk.scale_x;
        w.c = lc * sk.scale_y;
        w.d = ld * sk.scale_y;
        w.world_x = x * sk.scale_x + sk.x;
        w.world_y = y * sk.scale_y + sk.y;
        return w;
    };
    let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
    w.world_x = pa * x + pb * y + p.world_x;
    w.world_y = pc * x + pd * y + p.world_y;
    let (la, lb, lc, ld);
    match inherit {
        Inherit::Normal => return world_normal(local, &p, sk.deg_rad, memo),
        Inherit::DragonBones {
            translation,
            rotation: inherit_rotation,
            scale,
        } => return world_dragonbones(local, &p, sk, translation, inherit_rotation, scale),
        Inherit::OnlyTranslation => {
            (w.a, w.b, w.c, w.d) = local_axes(local, sk.deg_rad, memo);
        }
        Inherit::NoRotationOrReflection => {
            // Keep the parent's scale and shear but drop its rotation and reflection.
            let mut s = pa * pa + pc * pc;
            let prx;
            if s > sk.axis_epsilon {
                s = (pa * pd - pb * pc).abs() / s;
                pa /= sk.scale_x;
                pc /= sk.scale_y;
                pb = pc * s;
                pd = pa * s;
                prx = memo.parent.atan2(pc, pa) * RAD_DEG;
            } else {
                pa = 0.0;
                pc = 0.0;
                prx = 90.0 - atan2_deg(pd, pb);
            }
            let rx = rotation + shear_x - prx;
            let (sx, cx) = memo.x.sin_cos(rx * DEG_RAD);
            // The y axis (at `rotation + shear_y - prx + 90`) is the x axis turned by
            // `90 + shear_y - shear_x`, by the angle sum (within a few ulps of its own
            // sine/cosine); that turn changes only with the shears, so its memo holds.
            let (so, co) = memo.y.sin_cos((90.0 + shear_y - shear_x) * DEG_RAD);
            la = cx * scale_x;
            lb = (cx * co - sx * so) * scale_y;
            lc = sx * scale_x;
            ld = (sx * co + cx * so) * scale_y;
            w.a = pa * la - pb * lc;
            w.b = pa * lb - pb * ld;
            w.c = pc * la + pd * lc;
            w.d = pc * lb + pd * ld;
        }
        Inherit::NoScale | Inherit::NoScaleOrReflection => {
            // Take the parent's rotation (as a unit frame) but none of its scale.
            let (sin, cos) = memo.x.sin_cos(rotation * DEG_RAD);
            let mut za = (pa * cos + pb * sin) / sk.scale_x;
            let mut zc = (pc * cos + pd * sin) / sk.scale_y;
            let mut s = (za * za + zc * zc).sqrt();
            if s > 0.00001 {
                s = 1.0 / s;
            }
            za *= s;
            zc *= s;
            s = (za * za + zc * zc).sqrt();
            if inherit == Inherit::NoScale
                && ((pa * pd - pb * pc) < 0.0) != ((sk.scale_x < 0.0) != (sk.scale_y < 0.0))
            {
                s = -s;
            }
            // The y axis is the x axis turned a quarter, scaled by `s`: the runtimes' angle
            // `pi/2 + atan2(zc, za)` with its cosine and sine is (-zc, za) over the length
            // (within a few ulps). A zero axis keeps their formula (atan2(0, 0) = 0).
            let (zb, zd) = match s.abs() {
                len if len > 0.0 => (-zc / len * s, za / len * s),
                _ => {
                    let r = std::f64::consts::FRAC_PI_2 + zc.atan2(za);
                    (r.cos() * s, r.sin() * s)
                }
            };
            let (sx, cx) = memo.y.sin_cos(shear_x * DEG_RAD);
            let (sy, cy) = memo.z.sin_cos((90.0 + shear_y) * DEG_RAD);
            la = cx * scale_x;
            lb = cy * scale_y;
            lc = sx * scale_x;
            ld = sy * scale_y;
            w.a = za * la + zb * lc;
            w.b = za * lb + zb * ld;
            w.c = zc * la + zd * lc;
            w.d = zc * lb + zd * ld;
        }
    }
    w.a *= sk.scale_x;
    w.b *= sk.scale_x;
    w.c *= sk.scale_y;
    w.d *= sk.scale_y;
    w
}
