//! Spine 4.3 transform constraints: each mapped source property drives target properties
//! (`offset + (source - from offset) * scale`, optionally clamped), in world or local space.

use super::{Bone, Skeleton, SkeletonFrame};
use crate::core::model::{BoneProperty43, SkeletonData, TransformMapping};
use std::f64::consts::{FRAC_PI_2, PI};

/// The source offsets of a 4.3 transform constraint (added to the value read).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SourceOffsets {
    pub rotation: f64,
    pub x: f64,
    pub y: f64,
    pub scale_x: f64,
    pub scale_y: f64,
    pub shear_y: f64,
}

/// Reads property `p` of `bone` (its applied pose when `local`, which must be up to date;
/// else its world transform), plus the offsets.
pub(crate) fn read_property(
    bone: &Bone,
    p: BoneProperty43,
    local: bool,
    o: SourceOffsets,
    frame: SkeletonFrame,
) -> f64 {
    let rad = 1.0 / frame.deg_rad;
    if local {
        let l = &bone.applied;
        return match p {
            BoneProperty43::Rotate => l.rotation + o.rotation,
            BoneProperty43::X => l.x + o.x,
            BoneProperty43::Y => l.y + o.y,
            BoneProperty43::ScaleX => l.scale_x + o.scale_x,
            BoneProperty43::ScaleY => l.scale_y + o.scale_y,
            BoneProperty43::ShearY => l.shear_y + o.shear_y,
        };
    }
    let (sx, sy) = (frame.scale_x, frame.scale_y);
    let (a, b, c, d) = (bone.a / sx, bone.b / sx, bone.c / sy, bone.d / sy);
    match p {
        BoneProperty43::Rotate => {
            let det = bone.a * bone.d - bone.b * bone.c;
            let offset = if det * sx * sy > 0.0 {
                o.rotation
            } else {
                -o.rotation
            };
            let r = c.atan2(a) * rad + offset;
            if r < 0.0 { r + 360.0 } else { r }
        }
        BoneProperty43::X => (o.x * bone.a + o.y * bone.b + bone.world_x) / sx,
        BoneProperty43::Y => (o.x * bone.c + o.y * bone.d + bone.world_y) / sy,
        BoneProperty43::ScaleX => (a * a + c * c).sqrt() + o.scale_x,
        BoneProperty43::ScaleY => (b * b + d * d).sqrt() + o.scale_y,
        BoneProperty43::ShearY => (d.atan2(b) - c.atan2(a)) * rad - 90.0 + o.shear_y,
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
    /// Runs 4.3 transform constraint `i` (`data` is this skeleton's data).
    pub(crate) fn apply_transform43(&mut self, data: &SkeletonData, i: usize) {
        let cd = &data.transform_constraints[i];
        let Some(map) = &cd.mapping else {
            return;
        };
        let c = &self.transforms[i];
        let mixes = [
            c.mix_rotate,
            c.mix_x,
            c.mix_y,
            c.mix_scale_x,
            c.mix_scale_y,
            c.mix_shear_y,
        ];
        if mixes.iter().all(|&m| m == 0.0) {
            return;
        }
        let mix_of = |p: BoneProperty43| match p {
            BoneProperty43::Rotate => mixes[0],
            BoneProperty43::X => mixes[1],
            BoneProperty43::Y => mixes[2],
            BoneProperty43::ScaleX => mixes[3],
            BoneProperty43::ScaleY => mixes[4],
            BoneProperty43::ShearY => mixes[5],
        };
        let offsets = SourceOffsets {
            rotation: cd.offset_rotation,
            x: cd.offset_x,
            y: cd.offset_y,
            scale_x: cd.offset_scale_x,
            scale_y: cd.offset_scale_y,
            shear_y: cd.offset_shear_y,
        };
        if map.local_source {
            self.ensure_applied(cd.target);
        }
        let frame = self.frame;
        for &bi in &cd.bones {
            if map.local_target {
                self.ensure_applied(bi);
            }
            let mut local = self.bones[bi].applied;
            let mut modified = false;
            for from in &map.from {
                let source = &self.bones[cd.target];
                let value = read_property(source, from.property, map.local_source, offsets, frame)
                    - from.offset;
                for to in &from.to {
                    let mix = mix_of(to.property);
                    if mix == 0.0 {
                        continue;
                    }
                    let mut u = to.offset + value * to.scale;
                    if map.clamp {
                        let (lo, hi) = if to.offset < to.max {
                            (to.offset, to.max)
                        } else {
                            (to.max, to.offset)
                        };
                        u = u.clamp(lo, hi);
                    }
                    if map.local_target {
                        apply_local(&mut local, to.property, u, mix, map);
                    } else {
                        apply_world(&mut self.bones[bi], to.property, u, mix, map, frame);
                    }
                    modified = true;
                }
            }
            if !modified {
                continue;
            }
            if map.local_target {
                self.update_bone_world(bi, local);
            } else {
                super::defer_applied(&mut self.bones, &mut self.applied_parent, data, bi);
            }
        }
    }
}

/// Applies `u` to a local (applied) pose property.
fn apply_local(l: &mut super::Local, p: BoneProperty43, u: f64, mix: f64, map: &TransformMapping) {
    let add = map.additive;
    let toward = |v: &mut f64| *v += (if add { u } else { u - *v }) * mix;
    match p {
        BoneProperty43::Rotate => toward(&mut l.rotation),
        BoneProperty43::X => toward(&mut l.x),
        BoneProperty43::Y => toward(&mut l.y),
        BoneProperty43::ShearY => toward(&mut l.shear_y),
        BoneProperty43::ScaleX | BoneProperty43::ScaleY => {
            let s = if p == BoneProperty43::ScaleX {
                &mut l.scale_x
            } else {
                &mut l.scale_y
            };
            if add {
                *s *= 1.0 + (u - 1.0) * mix;
            } else if *s != 0.0 {
                *s += (u - *s) * mix;
            }
        }
    }
}

/// Applies `u` to a bone's world transform.
fn apply_world(
    bone: &mut Bone,
    p: BoneProperty43,
    u: f64,
    mix: f64,
    map: &TransformMapping,
    frame: SkeletonFrame,
) {
    let add = map.additive;
    let (sx, sy) = (frame.scale_x, frame.scale_y);
    match p {
        BoneProperty43::Rotate => {
            let (a, b, c, d) = (bone.a / sx, bone.b / sx, bone.c / sy, bone.d / sy);
            let mut r = u * frame.deg_rad;
            if !add {
                r -= c.atan2(a);
            }
            let r = wrap_rad(r) * mix;
            let (sin, cos) = r.sin_cos();
            bone.a = (cos * a - sin * c) * sx;
            bone.b = (cos * b - sin * d) * sx;
            bone.c = (sin * a + cos * c) * sy;
            bone.d = (sin * b + cos * d) * sy;
        }
        BoneProperty43::X => {
            let v = if add { u } else { u - bone.world_x / sx };
            bone.world_x += v * mix * sx;
        }
        BoneProperty43::Y => {
            let v = if add { u } else { u - bone.world_y / sy };
            bone.world_y += v * mix * sy;
        }
        BoneProperty43::ScaleX => {
            let k = if add {
                1.0 + (u - 1.0) * mix
            } else {
                let s = ((bone.a / sx).powi(2) + (bone.c / sy).powi(2)).sqrt();
                if s == 0.0 {
                    return;
                }
                1.0 + (u - s) * mix / s
            };
            bone.a *= k;
            bone.c *= k;
        }
        BoneProperty43::ScaleY => {
            let k = if add {
                1.0 + (u - 1.0) * mix
            } else {
                let s = ((bone.b / sx).powi(2) + (bone.d / sy).powi(2)).sqrt();
                if s == 0.0 {
                    return;
                }
                1.0 + (u - s) * mix / s
            };
            bone.b *= k;
            bone.d *= k;
        }
        BoneProperty43::ShearY => {
            let (a, b, c, d) = (bone.a / sx, bone.b / sx, bone.c / sy, bone.d / sy);
            let by = d.atan2(b);
            let mut r = (u + 90.0) * frame.deg_rad;
            if add {
                r -= FRAC_PI_2;
            } else {
                r = wrap_rad(r - (by - c.atan2(a)));
            }
            let r = by + r * mix;
            let s = (b * b + d * d).sqrt();
            bone.b = r.cos() * s * sx;
            bone.d = r.sin() * s * sy;
        }
    }
}
