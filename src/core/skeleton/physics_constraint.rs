//! Spine 4.2 physics constraints: a spring simulation, stepped at a fixed rate on skeleton
//! time, that offsets one bone's world transform (translation, rotation, stretch, shear) so it
//! lags behind, overshoots and settles as the skeleton moves.

use super::memo::Pow;
use super::{Bone, Skeleton};
use crate::core::math::clamp;
use crate::core::model::{PhysicsConstraintData, PhysicsRule, ScaleYMode, SkeletonData};

/// The runtimes' own pi (an f64 literal 4.6e-8 off `PI`): the physics angle wrap and
/// [`PhysicsConstraint::rotate`] use it, and their results differ from `PI`'s at 1e-8.
use crate::core::math::SPINE_PI;
const SPINE_PI2: f64 = SPINE_PI * 2.0;
/// `1 / (2 pi')`, precomputed as the runtimes do (the wrap multiplies by it).
const SPINE_INV_PI2: f64 = 1.0 / SPINE_PI2;
/// Degrees to radians with pi'.
const SPINE_DEG_RAD: f64 = SPINE_PI / 180.0;
/// Most simulation steps one update takes: time beyond it is dropped, so an absurd time jump
/// or step rate cannot stall the caller (at 60 fps this is over 4.8 hours at once).
const MAX_STEPS: f64 = 1_048_576.0;

/// How a world transform update treats physics constraints.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Physics {
    /// Physics does nothing: bones keep their pose (what pose sampling uses).
    #[default]
    None,
    /// Reset every constraint, then update (records the bone positions, no offsets).
    Reset,
    /// Advance the simulation to the skeleton time and apply it.
    Update,
    /// Apply the current offsets without advancing the simulation.
    Pose,
}

/// The live state of a physics constraint: animatable values (reset by the setup pose,
/// driven by physics timelines) and simulation state (kept by the setup pose, cleared by
/// [`PhysicsConstraint::reset`]).
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsConstraint {
    pub inertia: f64,
    pub strength: f64,
    pub damping: f64,
    /// `1 / mass`.
    pub mass_inverse: f64,
    pub wind: f64,
    pub gravity: f64,
    pub mix: f64,
    /// Inactive constraints (bone inactive, or skin-required and not in the skin) do nothing.
    pub active: bool,
    /// The next update only records the bone position.
    pub reset: bool,
    /// Time accumulated but not simulated yet (seconds, under one step after an update).
    pub remaining: f64,
    /// Skeleton time of the last update.
    pub last_time: f64,
    /// Bone world position at the last update, for translation inertia.
    pub ux: f64,
    pub uy: f64,
    /// Bone world position (offset included) after the last update.
    pub cx: f64,
    pub cy: f64,
    /// The bone's world x axis times its length after the last update.
    pub tx: f64,
    pub ty: f64,
    pub x_offset: f64,
    pub x_velocity: f64,
    pub y_offset: f64,
    pub y_velocity: f64,
    /// Angle offset in radians, shared by the rotate and shear channels.
    pub rotate_offset: f64,
    pub rotate_velocity: f64,
    pub scale_offset: f64,
    pub scale_velocity: f64,
    /// The per-step damping factor `damping^(60 step)` (the same every update unless the
    /// damping is animated).
    damping_step: Pow,
    /// Spine 4.3: how much each offset changed in the last update's steps, so the pose can
    /// be interpolated between the last two steps by the time left over.
    pub lag: Lag,
}

/// Spine 4.3 sub-step interpolation state of a physics constraint.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Lag {
    /// Whether this constraint follows the 4.3 rules (lag, scaleY modes).
    pub on: bool,
    pub x: f64,
    pub y: f64,
    pub rotate: f64,
    pub scale: f64,
}

/// What one update of a physics constraint reads of the skeleton.
#[derive(Clone, Copy, Debug)]
pub struct PhysicsContext {
    /// The skeleton time (seconds).
    pub time: f64,
    /// The skeleton scale.
    pub scale_x: f64,
    pub scale_y: f64,
    /// Skeleton units per physics meter.
    pub reference_scale: f64,
    /// The constrained bone's (data) length.
    pub bone_length: f64,
}

/// Which channels a constraint drives (a weight above 0 turns one on).
#[derive(Clone, Copy, Debug)]
struct Channels {
    x: bool,
    y: bool,
    /// Rotate or shear: both move the one angular offset.
    angle: bool,
    scale: bool,
}

impl Channels {
    fn of(data: &PhysicsConstraintData) -> Channels {
        Channels {
            x: data.x > 0.0,
            y: data.y > 0.0,
            angle: data.rotate > 0.0 || data.shear_x > 0.0,
            scale: data.scale_x > 0.0,
        }
    }
}

/// Rotates the column `(p, q)` by `r` radians.
#[inline]
fn rotate_column(p: &mut f64, q: &mut f64, r: f64) {
    let (sin, cos) = (r.sin(), r.cos());
    let (x, y) = (*p, *q);
    *p = cos * x - sin * y;
    *q = sin * x + cos * y;
}

impl PhysicsConstraint {
    /// The constraint in its setup state, waiting to record the bone position. The last
    /// update time starts at 0, not at the skeleton time.
    pub fn new(data: &PhysicsConstraintData) -> PhysicsConstraint {
        let mut c = PhysicsConstraint {
            inertia: 0.0,
            strength: 0.0,
            damping: 0.0,
            mass_inverse: 0.0,
            wind: 0.0,
            gravity: 0.0,
            mix: 0.0,
            active: true,
            reset: true,
            remaining: 0.0,
            last_time: 0.0,
            ux: 0.0,
            uy: 0.0,
            cx: 0.0,
            cy: 0.0,
            tx: 0.0,
            ty: 0.0,
            x_offset: 0.0,
            x_velocity: 0.0,
            y_offset: 0.0,
            y_velocity: 0.0,
            rotate_offset: 0.0,
            rotate_velocity: 0.0,
            scale_offset: 0.0,
            scale_velocity: 0.0,
            damping_step: Pow::ONE,
            lag: Lag::default(),
        };
        c.set_to_setup(data);
        c
    }

    /// Restores the setup values of the animatable parameters (not the simulation).
    pub fn set_to_setup(&mut self, d: &PhysicsConstraintData) {
        self.inertia = d.inertia;
        self.strength = d.strength;
        self.damping = d.damping;
        self.mass_inverse = d.mass_inverse;
        self.wind = d.wind;
        self.gravity = d.gravity;
        self.mix = d.mix;
    }

    /// Drops the simulation: offsets and velocities become 0, the time is consumed up to
    /// `time` (the skeleton time) and the next update only records the bone position.
    pub fn reset(&mut self, time: f64) {
        self.remaining = 0.0;
        self.last_time = time;
        self.reset = true;
        self.x_offset = 0.0;
        self.x_velocity = 0.0;
        self.y_offset = 0.0;
        self.y_velocity = 0.0;
        self.rotate_offset = 0.0;
        self.rotate_velocity = 0.0;
        self.scale_offset = 0.0;
        self.scale_velocity = 0.0;
        self.lag = Lag {
            on: self.lag.on,
            ..Lag::default()
        };
    }

    /// 4.3: the fraction of the last step's change to take back (the time left over, in
    /// steps, from 1 down to 0); 0 without lag.
    fn lag_z(&self, h: f64) -> f64 {
        if self.lag.on && h > 0.0 {
            (1.0 - self.remaining / h).max(0.0)
        } else {
            0.0
        }
    }

    /// Makes the next update see the bone as having moved by `(x, y)` more than it did.
    pub fn translate(&mut self, x: f64, y: f64) {
        self.ux -= x;
        self.uy -= y;
        self.cx -= x;
        self.cy -= y;
    }

    /// Makes the next update see the bone as having turned `degrees` more about `(x, y)`
    /// than it did.
    pub fn rotate(&mut self, x: f64, y: f64, degrees: f64) {
        let r = degrees * SPINE_DEG_RAD;
        let (cos, sin) = (r.cos(), r.sin());
        let (dx, dy) = (self.cx - x, self.cy - y);
        self.translate(dx * cos - dy * sin - dx, dx * sin + dy * cos - dy);
    }

    /// Runs the constraint on its bone's world transform (already computed this frame).
    /// Returns whether the world transform was edited; the caller then recomputes the bone's
    /// applied pose from it.
    pub fn update(
        &mut self,
        data: &PhysicsConstraintData,
        bone: &mut Bone,
        ctx: PhysicsContext,
        mode: Physics,
    ) -> bool {
        let mix = self.mix;
        if mix == 0.0 {
            return false;
        }
        let ch = Channels::of(data);
        let l = ctx.bone_length;
        match mode {
            Physics::None => return false,
            Physics::Reset => {
                self.reset(ctx.time);
                self.simulate(data, bone, ctx, ch);
            }
            Physics::Update => self.simulate(data, bone, ctx, ch),
            Physics::Pose => {
                let z = self.lag_z(data.step);
                if ch.x {
                    bone.world_x += (self.x_offset - self.lag.x * z) * mix * data.x;
                }
                if ch.y {
                    bone.world_y += (self.y_offset - self.lag.y * z) * mix * data.y;
                }
            }
        }
        let z = self.lag_z(data.step);
        if ch.angle {
            let o = (self.rotate_offset - self.lag.rotate * z) * mix;
            if data.shear_x > 0.0 {
                let mut r = 0.0;
                if data.rotate > 0.0 {
                    r = o * data.rotate;
                    rotate_column(&mut bone.b, &mut bone.d, r);
                }
                r += o * data.shear_x;
                rotate_column(&mut bone.a, &mut bone.c, r);
            } else {
                let r = o * data.rotate;
                rotate_column(&mut bone.b, &mut bone.d, r);
                rotate_column(&mut bone.a, &mut bone.c, r);
            }
        }
        if ch.scale {
            let s = 1.0 + (self.scale_offset - self.lag.scale * z) * mix * data.scale_x;
            bone.a *= s;
            bone.c *= s;
            if self.lag.on {
                let k = match data.scale_y {
                    ScaleYMode::None => 1.0,
                    ScaleYMode::Uniform => s,
                    ScaleYMode::Volume => {
                        if s.abs() >= 0.7 {
                            1.0 / s.abs()
                        } else {
                            4.0 - 3.67347 * s.abs()
                        }
                    }
                };
                bone.b *= k;
                bone.d *= k;
            }
        }
        if mode != Physics::Pose {
            self.tx = l * bone.a;
            self.ty = l * bone.c;
        }
        true
    }

    /// Advances the simulation to `ctx.time` and offsets the bone's world position (the
    /// `update` mode up to, not including, the angular and scale offsets).
    fn simulate(
        &mut self,
        data: &PhysicsConstraintData,
        bone: &mut Bone,
        ctx: PhysicsContext,
        ch: Channels,
    ) {
        let Channels { x, y, .. } = ch;
        // Time is a running sum, so `delta` can be a few ulps under the frame's dt: kept
        // exact, it decides on which frame a step happens.
        let delta = (ctx.time - self.last_time).max(0.0);
        let remaining_before = self.remaining;
        self.remaining += delta;
        self.last_time = ctx.time;
        let h = data.step;
        if self.remaining > h * MAX_STEPS {
            self.remaining = h * MAX_STEPS;
        }
        // A step that is not positive (bad data) would never use time up.
        let steps = h > 0.0;
        let (bx, by) = (bone.world_x, bone.world_y);
        if self.reset {
            self.reset = false;
            self.ux = bx;
            self.uy = by;
        } else {
            let mix = self.mix;
            let f = ctx.reference_scale;
            let (sx, sy) = (ctx.scale_x, ctx.scale_y);
            let q = data.limit * delta;
            let qy = q * sy.abs();
            let qx = q * sx.abs();
            let mut a = self.remaining;
            let mut damping: Option<f64> = None;
            if x || y {
                if x {
                    self.x_offset += clamp((self.ux - bx) * self.inertia, -qx, qx);
                    self.ux = bx;
                }
                if y {
                    self.y_offset += clamp((self.uy - by) * self.inertia, -qy, qy);
                    self.uy = by;
                }
                if steps && a >= h {
                    let (x0, y0) = (self.x_offset, self.y_offset);
                    let d = self.damping_step.powf(self.damping, 60.0 * h);
                    damping = Some(d);
                    let m = self.mass_inverse * h;
                    let w = self.wind * f * sx;
                    let g = self.gravity * f * sy;
                    let k = self.strength;
                    loop {
                        if x {
                            self.x_velocity += (w - self.x_offset * k) * m;
                            self.x_offset += self.x_velocity * h;
                            self.x_velocity *= d;
                        }
                        if y {
                            self.y_velocity -= (g + self.y_offset * k) * m;
                            self.y_offset += self.y_velocity * h;
                            self.y_velocity *= d;
                        }
                        a -= h;
                        if a < h {
                            break;
                        }
                    }
                    if self.lag.on {
                        self.lag.x = self.x_offset - x0;
                        self.lag.y = self.y_offset - y0;
                    }
                }
                let z = if self.lag.on && steps {
                    (1.0 - a / h).max(0.0)
                } else {
                    0.0
                };
                if x {
                    bone.world_x += (self.x_offset - self.lag.x * z) * mix * data.x;
                }
                if y {
                    bone.world_y += (self.y_offset - self.lag.y * z) * mix * data.y;
                }
            }
            if ch.angle || ch.scale {
                let z0 = if self.lag.on && steps {
                    (1.0 - remaining_before / h).max(0.0)
                } else {
                    0.0
                };
                a = self.angular(data, bone, ctx, ch, (qx, qy), (damping, z0));
            }
            self.remaining = a;
        }
        self.cx = bone.world_x;
        self.cy = bone.world_y;
    }

    /// The rotation, shear and scale springs: feeds in the bone's turn and stretch since the
    /// last update, then steps over the whole remaining time. Returns the time left.
    /// `(qx, qy)` are the limits of this update, `damping` the per-step factor if the
    /// translation already computed it, `z0` the 4.3 lag fraction of the last update.
    fn angular(
        &mut self,
        data: &PhysicsConstraintData,
        bone: &Bone,
        ctx: PhysicsContext,
        ch: Channels,
        (qx, qy): (f64, f64),
        (damping, z0): (Option<f64>, f64),
    ) -> f64 {
        let (rotate_or_shear, scale_x) = (ch.angle, ch.scale);
        let mix = self.mix;
        let h = data.step;
        let l = ctx.bone_length;
        let i = self.inertia;
        let ca = bone.c.atan2(bone.a);
        let dx = clamp(self.cx - bone.world_x, -qx, qx);
        let dy = clamp(self.cy - bone.world_y, -qy, qy);
        let mr = (data.rotate + data.shear_x) * mix;
        // 4.3 measures against the pose it showed (interpolated back by the lag).
        let rz = self.lag.rotate * z0;
        let (mut cos, mut sin);
        if rotate_or_shear {
            let r = (dy + self.ty).atan2(dx + self.tx) - ca - (self.rotate_offset - rz) * mr;
            self.rotate_offset += (r - (r * SPINE_INV_PI2 - 0.5).ceil() * SPINE_PI2) * i;
            let r = (self.rotate_offset - rz) * mr + ca;
            (cos, sin) = (r.cos(), r.sin());
        } else {
            (cos, sin) = (ca.cos(), ca.sin());
        }
        if scale_x {
            // 4.3: only the scale-only branch measures against the lagged length.
            let lagged = if rotate_or_shear {
                0.0
            } else {
                self.lag.scale * z0
            };
            let len = l * (bone.a * bone.a + bone.c * bone.c).sqrt() - lagged;
            if len > 0.0 {
                self.scale_offset += (dx * cos + dy * sin) * i / len;
            }
        }
        // Restart from the full remaining time: the translation steps above do not use it up.
        let mut a = self.remaining;
        if h > 0.0 && a >= h {
            let (r0, s0) = (self.rotate_offset, self.scale_offset);
            let d = match damping {
                Some(d) => d,
                None => self.damping_step.powf(self.damping, 60.0 * h),
            };
            let m = self.mass_inverse * h;
            let (w, g) = (self.wind, self.gravity);
            let k = self.strength;
            let length_meters = l / ctx.reference_scale;
            loop {
                a -= h;
                if scale_x {
                    self.scale_velocity += (w * cos - g * sin - self.scale_offset * k) * m;
                    self.scale_offset += self.scale_velocity * h;
                    self.scale_velocity *= d;
                }
                if rotate_or_shear {
                    self.rotate_velocity -=
                        ((w * sin + g * cos) * length_meters + self.rotate_offset * k) * m;
                    self.rotate_offset += self.rotate_velocity * h;
                    self.rotate_velocity *= d;
                    if a < h {
                        break;
                    }
                    let r = self.rotate_offset * mr + ca;
                    (cos, sin) = (r.cos(), r.sin());
                } else if a < h {
                    break;
                }
            }
            if self.lag.on {
                self.lag.rotate = self.rotate_offset - r0;
                self.lag.scale = self.scale_offset - s0;
            }
        }
        a
    }
}

impl Skeleton {
    /// Runs physics constraint `i` in `mode` (`data` is this skeleton's data).
    pub(crate) fn apply_physics(&mut self, data: &SkeletonData, i: usize, mode: Physics) {
        let c = &mut self.physics[i];
        if !c.active {
            return;
        }
        c.lag.on = data.rules.physics == PhysicsRule::V43;
        let cd = &data.physics_constraints[i];
        let ctx = PhysicsContext {
            time: self.time,
            scale_x: self.frame.scale_x,
            scale_y: self.frame.scale_y,
            reference_scale: data.reference_scale.0,
            bone_length: data.bones[cd.bone].length,
        };
        if c.update(cd, &mut self.bones[cd.bone], ctx, mode) {
            // The constraint edited a world matrix: its applied pose follows it.
            super::defer_applied(&mut self.bones, &mut self.applied_parent, data, cd.bone);
        }
    }

    /// Advances the skeleton time (what physics constraints simulate up to).
    pub fn update(&mut self, delta: f64) {
        self.time += delta;
    }

    /// Resets every physics constraint's simulation at the current skeleton time.
    pub fn reset_physics(&mut self) {
        let time = self.time;
        for c in &mut self.physics {
            c.reset(time);
        }
    }

    /// Tells every physics constraint the skeleton moved by `(x, y)` (so bones lag behind).
    pub fn physics_translate(&mut self, x: f64, y: f64) {
        for c in &mut self.physics {
            c.translate(x, y);
        }
    }

    /// Tells every physics constraint the skeleton turned `degrees` about `(x, y)`.
    pub fn physics_rotate(&mut self, x: f64, y: f64, degrees: f64) {
        for c in &mut self.physics {
            c.rotate(x, y, degrees);
        }
    }
}

#[cfg(test)]
mod tests;
