//! Path constraints: place and rotate bones along a path attachment's cubic beziers.

use super::Skeleton;
use crate::core::math::DEG_RAD;
use crate::core::model::{
    AttachmentKind, ConstraintRule, PathAttachment, PathConstraintData, PositionMode, RotateMode,
    SkeletonData, SpacingMode,
};
use std::f64::consts::PI;

/// The animatable state of a path constraint, plus scratch buffers reused every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct PathConstraint {
    pub position: f64,
    pub spacing: f64,
    pub mix_rotate: f64,
    pub mix_x: f64,
    pub mix_y: f64,
    pub active: bool,
    scratch: Scratch,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct Scratch {
    spaces: Vec<f64>,
    lengths: Vec<f64>,
    positions: Vec<f64>,
    world: Vec<f64>,
    curves: Vec<f64>,
}

impl PathConstraint {
    /// Heap bytes of the scratch buffers (a clone copies them).
    pub(crate) fn scratch_bytes(&self) -> usize {
        let s = &self.scratch;
        (s.spaces.capacity()
            + s.lengths.capacity()
            + s.positions.capacity()
            + s.world.capacity()
            + s.curves.capacity())
            * std::mem::size_of::<f64>()
    }

    /// The constraint in its setup state.
    pub fn new(data: &PathConstraintData) -> PathConstraint {
        let mut c = PathConstraint {
            position: 0.0,
            spacing: 0.0,
            mix_rotate: 0.0,
            mix_x: 0.0,
            mix_y: 0.0,
            active: true,
            scratch: Scratch::default(),
        };
        c.set_to_setup(data);
        c
    }

    /// Restores the setup values.
    pub fn set_to_setup(&mut self, d: &PathConstraintData) {
        self.position = d.position;
        self.spacing = d.spacing;
        self.mix_rotate = d.mix_rotate;
        self.mix_x = d.mix_x;
        self.mix_y = d.mix_y;
    }
}

const EPSILON: f64 = 0.00001;

/// What the spaces are multiplied by once the path length is known.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SpaceScale {
    None,
    /// Percent spacing: by the path length.
    Path,
    /// Proportional spacing (4.x): by the path length over the number of spaces.
    PathPerSpace,
}

impl SpaceScale {
    fn apply(self, spaces: &mut [f64], path_length: f64) {
        let f = match self {
            SpaceScale::None => return,
            SpaceScale::Path => path_length,
            SpaceScale::PathPerSpace => path_length / spaces.len() as f64,
        };
        for s in spaces.iter_mut().skip(1) {
            *s *= f;
        }
    }
}

/// Which cached curve the world buffer holds while walking a path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cached {
    None,
    Before,
    After,
    Curve(usize),
}

impl Skeleton {
    /// Runs path constraint `i` (`data` is this skeleton's data).
    pub(crate) fn apply_path(&mut self, data: &SkeletonData, i: usize) {
        let cd = &data.path_constraints[i];
        let Some(att) = self.slots[cd.target].attachment else {
            return;
        };
        let AttachmentKind::Path(path) = &data.attachments[att].kind else {
            return;
        };
        let c = &self.paths[i];
        let (rotate_mix, mix_x, mix_y) = (c.mix_rotate, c.mix_x, c.mix_y);
        let v4 = data.rules.constraints != ConstraintRule::V38;
        let rotate = rotate_mix > 0.0;
        if v4 {
            if rotate_mix == 0.0 && mix_x == 0.0 && mix_y == 0.0 {
                return;
            }
        } else if mix_x <= 0.0 && !rotate {
            return;
        }
        let mut sc = std::mem::take(&mut self.paths[i].scratch);
        let percent_spacing = cd.spacing_mode == SpacingMode::Percent;
        let proportional = cd.spacing_mode == SpacingMode::Proportional;
        let tangents = cd.rotate_mode == RotateMode::Tangent;
        let scale = cd.rotate_mode == RotateMode::ChainScale;
        let bone_count = cd.bones.len();
        let spaces_count = if tangents { bone_count } else { bone_count + 1 };
        sc.spaces.clear();
        sc.spaces.resize(spaces_count, 0.0);
        sc.lengths.clear();
        if scale {
            sc.lengths.resize(bone_count, 0.0);
        }
        let spacing = self.paths[i].spacing;
        if v4 {
            self.path_spaces_4x(data, cd, spacing, spaces_count, scale, &mut sc);
        } else if scale || !percent_spacing {
            let length_spacing = cd.spacing_mode == SpacingMode::Length;
            for k in 0..spaces_count - 1 {
                let bi = cd.bones[k];
                let setup_length = data.bones[bi].length;
                let bone = &self.bones[bi];
                if setup_length < EPSILON {
                    sc.spaces[k + 1] = 0.0;
                } else if percent_spacing {
                    if scale {
                        let (x, y) = (setup_length * bone.a, setup_length * bone.c);
                        sc.lengths[k] = (x * x + y * y).sqrt();
                    }
                    sc.spaces[k + 1] = spacing;
                } else {
                    let (x, y) = (setup_length * bone.a, setup_length * bone.c);
                    let length = (x * x + y * y).sqrt();
                    if scale {
                        sc.lengths[k] = length;
                    }
                    let base = if length_spacing {
                        setup_length + spacing
                    } else {
                        spacing
                    };
                    sc.spaces[k + 1] = base * length / setup_length;
                }
            }
        } else {
            for s in sc.spaces.iter_mut().skip(1) {
                *s = spacing;
            }
        }
        let position = self.paths[i].position;
        self.path_positions(
            cd.target,
            path,
            position,
            spaces_count,
            tangents,
            cd.position_mode == PositionMode::Percent,
            if proportional {
                SpaceScale::PathPerSpace
            } else if percent_spacing {
                SpaceScale::Path
            } else {
                SpaceScale::None
            },
            &mut sc,
        );
        let positions = &sc.positions;
        let (mut bone_x, mut bone_y) = (positions[0], positions[1]);
        let mut offset_rotation = cd.offset_rotation;
        let tip;
        if offset_rotation == 0.0 {
            tip = cd.rotate_mode == RotateMode::Chain;
        } else {
            tip = false;
            let p = &self.bones[data.slots[cd.target].bone];
            offset_rotation *= if p.a * p.d - p.b * p.c > 0.0 {
                DEG_RAD
            } else {
                -DEG_RAD
            };
        }
        for k in 0..bone_count {
            let p = 3 + k * 3;
            let bi = cd.bones[k];
            let bone_len = data.bones[bi].length;
            let bone = &mut self.bones[bi];
            let memo = &mut self.memos.paths[i][k];
            bone.world_x += (bone_x - bone.world_x) * mix_x;
            bone.world_y += (bone_y - bone.world_y) * mix_y;
            let (x, y) = (positions[p], positions[p + 1]);
            let (dx, dy) = (x - bone_x, y - bone_y);
            if scale {
                let length = sc.lengths[k];
                if length != 0.0 {
                    let s = ((dx * dx + dy * dy).sqrt() / length - 1.0) * rotate_mix + 1.0;
                    bone.a *= s;
                    bone.c *= s;
                }
            }
            bone_x = x;
            bone_y = y;
            if rotate {
                let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
                let mut r = if tangents {
                    positions[p - 1]
                } else if sc.spaces[k + 1] == 0.0 {
                    positions[p + 2]
                } else {
                    memo.direction.atan2(dy, dx)
                };
                r -= if a == 0.0 && c == 0.0 {
                    std::f64::consts::PI
                } else {
                    memo.bone.atan2(c, a)
                };
                if tip {
                    let (sin, cos) = memo.turn.sin_cos(r);
                    bone_x += (bone_len * (cos * a - sin * c) - dx) * rotate_mix;
                    bone_y += (bone_len * (sin * a + cos * c) - dy) * rotate_mix;
                } else {
                    r += offset_rotation;
                }
                if r > PI {
                    r -= PI * 2.0;
                } else if r < -PI {
                    r += PI * 2.0;
                }
                r *= rotate_mix;
                let (sin, cos) = memo.turn.sin_cos(r);
                bone.a = cos * a - sin * c;
                bone.b = cos * b - sin * d;
                bone.c = sin * a + cos * c;
                bone.d = sin * b + cos * d;
            }
            super::defer_applied(&mut self.bones, &mut self.applied_parent, data, bi);
        }
        self.paths[i].scratch = sc;
    }

    /// The spaces between bones (and chain-scale lengths) by the 4.x rules: a bone without a
    /// setup length gets the plain spacing, proportional spacing divides the path by the
    /// bones' lengths.
    fn path_spaces_4x(
        &self,
        data: &SkeletonData,
        cd: &PathConstraintData,
        spacing: f64,
        spaces_count: usize,
        scale: bool,
        sc: &mut Scratch,
    ) {
        let zero_lengths_measured = data.rules.constraints == ConstraintRule::V42;
        let world_length = |bi: usize, setup_length: f64| {
            let bone = &self.bones[bi];
            let (x, y) = (setup_length * bone.a, setup_length * bone.c);
            (x * x + y * y).sqrt()
        };
        match cd.spacing_mode {
            SpacingMode::Percent => {
                if scale {
                    for k in 0..spaces_count - 1 {
                        let bi = cd.bones[k];
                        let setup_length = data.bones[bi].length;
                        sc.lengths[k] = if setup_length < EPSILON && !zero_lengths_measured {
                            0.0
                        } else {
                            world_length(bi, setup_length)
                        };
                    }
                }
                for s in sc.spaces.iter_mut().skip(1) {
                    *s = spacing;
                }
            }
            SpacingMode::Proportional => {
                let mut sum = 0.0;
                for k in 0..spaces_count - 1 {
                    let bi = cd.bones[k];
                    let setup_length = data.bones[bi].length;
                    if setup_length < EPSILON {
                        if scale {
                            sc.lengths[k] = 0.0;
                        }
                        sc.spaces[k + 1] = spacing;
                    } else {
                        let length = world_length(bi, setup_length);
                        if scale {
                            sc.lengths[k] = length;
                        }
                        sc.spaces[k + 1] = length;
                        sum += length;
                    }
                }
                if sum > 0.0 {
                    let f = spaces_count as f64 / sum * spacing;
                    for s in sc.spaces.iter_mut().skip(1) {
                        *s *= f;
                    }
                }
            }
            SpacingMode::Length | SpacingMode::Fixed => {
                let length_spacing = cd.spacing_mode == SpacingMode::Length;
                for k in 0..spaces_count - 1 {
                    let bi = cd.bones[k];
                    let setup_length = data.bones[bi].length;
                    if setup_length < EPSILON {
                        if scale {
                            sc.lengths[k] = 0.0;
                        }
                        sc.spaces[k + 1] = spacing;
                    } else {
                        let length = world_length(bi, setup_length);
                        if scale {
                            sc.lengths[k] = length;
                        }
                        let base = if length_spacing {
                            setup_length + spacing
                        } else {
                            spacing
                        };
                        sc.spaces[k + 1] = base * length / setup_length;
                    }
                }
            }
        }
    }

    /// Fills `sc.positions` with (x, y, rotation) for every space along the path.
    #[allow(clippy::too_many_arguments)]
    fn path_positions(
        &self,
        slot: usize,
        path: &PathAttachment,
        mut position: f64,
        spaces_count: usize,
        tangents: bool,
        percent_position: bool,
        space_scale: SpaceScale,
        sc: &mut Scratch,
    ) {
        let vd = &path.vertices;
        let closed = path.closed;
        // Loaders reject paths this short; keep the runtime total anyway.
        let min_len = if closed { 6 } else { 12 };
        if vd.world_len < min_len || path.lengths.len() < vd.world_len / 6 {
            sc.positions.clear();
            sc.positions.resize(spaces_count * 3 + 2, 0.0);
            return;
        }
        let mut vertices_length = vd.world_len;
        let mut curve_count = vertices_length / 6;
        sc.positions.clear();
        sc.positions.resize(spaces_count * 3 + 2, 0.0);
        let mut cached = Cached::None;
        if !path.constant_speed {
            let lengths = &path.lengths;
            curve_count -= if closed { 1 } else { 2 };
            let path_length = lengths[curve_count] as f64;
            if percent_position {
                position *= path_length;
            }
            space_scale.apply(&mut sc.spaces, path_length);
            let mut world = [0.0f64; 8];
            let mut curve = 0usize;
            for i in 0..spaces_count {
                let o = i * 3;
                let space = sc.spaces[i];
                position += space;
                let mut p = position;
                if closed {
                    p %= path_length;
                    if p < 0.0 {
                        p += path_length;
                    }
                    curve = 0;
                } else if p < 0.0 {
                    if cached != Cached::Before {
                        cached = Cached::Before;
                        self.vertex_world_positions(slot, vd, 2, 4, &mut world, 0, 2);
                    }
                    add_before(p, &world, 0, &mut sc.positions, o);
                    continue;
                } else if p > path_length {
                    if cached != Cached::After {
                        cached = Cached::After;
                        self.vertex_world_positions(
                            slot,
                            vd,
                            vertices_length - 6,
                            4,
                            &mut world,
                            0,
                            2,
                        );
                    }
                    add_after(p - path_length, &world, 0, &mut sc.positions, o);
                    continue;
                }
                loop {
                    let length = lengths[curve] as f64;
                    if p > length {
                        curve += 1;
                        continue;
                    }
                    if curve == 0 {
                        p /= length;
                    } else {
                        let prev = lengths[curve - 1] as f64;
                        p = (p - prev) / (length - prev);
                    }
                    break;
                }
                if cached != Cached::Curve(curve) {
                    cached = Cached::Curve(curve);
                    if closed && curve == curve_count {
                        self.vertex_world_positions(
                            slot,
                            vd,
                            vertices_length - 4,
                            4,
                            &mut world,
                            0,
                            2,
                        );
                        self.vertex_world_positions(slot, vd, 0, 4, &mut world, 4, 2);
                    } else {
                        self.vertex_world_positions(slot, vd, curve * 6 + 2, 8, &mut world, 0, 2);
                    }
                }
                add_curve(
                    p,
                    &world,
                    &mut sc.positions,
                    o,
                    tangents || (i > 0 && space == 0.0),
                );
            }
            return;
        }

        // Constant speed: measure the path in world space.
        let world = &mut sc.world;
        if closed {
            vertices_length += 2;
            world.clear();
            world.resize(vertices_length, 0.0);
            self.vertex_world_positions(slot, vd, 2, vertices_length - 4, world, 0, 2);
            self.vertex_world_positions(slot, vd, 0, 2, world, vertices_length - 4, 2);
            world[vertices_length - 2] = world[0];
            world[vertices_length - 1] = world[1];
        } else {
            curve_count -= 1;
            vertices_length -= 4;
            world.clear();
            world.resize(vertices_length, 0.0);
            self.vertex_world_positions(slot, vd, 2, vertices_length, world, 0, 2);
        }
        let curves = &mut sc.curves;
        curves.clear();
        curves.resize(curve_count, 0.0);
        let mut path_length = 0.0;
        let (mut x1, mut y1) = (world[0], world[1]);
        for (i, c) in curves.iter_mut().enumerate() {
            let w = 2 + i * 6;
            let seg = [
                x1,
                y1,
                world[w],
                world[w + 1],
                world[w + 2],
                world[w + 3],
                world[w + 4],
                world[w + 5],
            ];
            path_length += coarse_length(&seg);
            *c = path_length;
            x1 = seg[6];
            y1 = seg[7];
        }
        if percent_position {
            position *= path_length;
        } else if self.data.rules.constraints == ConstraintRule::V38 {
            // 3.8 rescales a fixed position by the measured over the stored length; 4.x
            // measures it along the world path as is (pinned by `spec/path-add-43`).
            position *= path_length / path.lengths[curve_count - 1] as f64;
        }
        space_scale.apply(&mut sc.spaces, path_length);
        let mut segments = [0.0f64; 10];
        let mut curve_length = 0.0;
        let mut seg = [0.0f64; 8];
        let (mut curve, mut segment) = (0usize, 0usize);
        for i in 0..spaces_count {
            let o = i * 3;
            let space = sc.spaces[i];
            position += space;
            let mut p = position;
            if closed {
                p %= path_length;
                if p < 0.0 {
                    p += path_length;
                }
                curve = 0;
            } else if p < 0.0 {
                add_before(p, world, 0, &mut sc.positions, o);
                continue;
            } else if p > path_length {
                add_after(
                    p - path_length,
                    world,
                    vertices_length - 4,
                    &mut sc.positions,
                    o,
                );
                continue;
            }
            loop {
                let length = curves[curve];
                if p > length {
                    curve += 1;
                    continue;
                }
                if curve == 0 {
                    p /= length;
                } else {
                    let prev = curves[curve - 1];
                    p = (p - prev) / (length - prev);
                }
                break;
            }
            if cached != Cached::Curve(curve) {
                cached = Cached::Curve(curve);
                let ii = curve * 6;
                seg.copy_from_slice(&world[ii..ii + 8]);
                curve_length = fine_lengths(&seg, &mut segments);
                segment = 0;
            }
            // Re-parameterise by arc length using the 10 segment lengths.
            p *= curve_length;
            loop {
                let length = segments[segment];
                if p > length {
                    segment += 1;
                    continue;
                }
                if segment == 0 {
                    p /= length;
                } else {
                    let prev = segments[segment - 1];
                    p = segment as f64 + (p - prev) / (length - prev);
                }
                break;
            }
            add_curve(
                p * 0.1,
                &seg,
                &mut sc.positions,
                o,
                tangents || (i > 0 && space == 0.0),
            );
        }
    }
}

/// Forward-difference steps of a cubic bezier (x1 y1 cx1 cy1 cx2 cy2 x2 y2) with `n` steps:
/// returns (first difference, second, third) for x and y.
fn bezier_steps(s: &[f64; 8], n: f64) -> ([f64; 2], [f64; 2], [f64; 2]) {
    let h = 1.0 / n;
    let mut d1 = [0.0; 2];
    let mut d2 = [0.0; 2];
    let mut d3 = [0.0; 2];
    for k in 0..2 {
        let (p0, c1, c2, p1) = (s[k], s[2 + k], s[4 + k], s[6 + k]);
        let tmp = (p0 - c1 * 2.0 + c2) * 3.0 * h * h;
        let ddd = ((c1 - c2) * 3.0 - p0 + p1) * 6.0 * h * h * h;
        d3[k] = ddd;
        d2[k] = tmp * 2.0 + ddd;
        d1[k] = (c1 - p0) * 3.0 * h + tmp + ddd / 6.0;
    }
    (d1, d2, d3)
}

/// Length of a bezier measured with 4 chords (for the whole-path lengths).
fn coarse_length(s: &[f64; 8]) -> f64 {
    let (mut d1, mut d2, d3) = bezier_steps(s, 4.0);
    let mut len = (d1[0] * d1[0] + d1[1] * d1[1]).sqrt();
    for _ in 1..4 {
        step(&mut d1, &mut d2, &d3);
        len += (d1[0] * d1[0] + d1[1] * d1[1]).sqrt();
    }
    len
}

/// Cumulative lengths of 10 chords along a bezier; returns the total.
fn fine_lengths(s: &[f64; 8], segments: &mut [f64; 10]) -> f64 {
    let (mut d1, mut d2, d3) = bezier_steps(s, 10.0);
    let mut len = (d1[0] * d1[0] + d1[1] * d1[1]).sqrt();
    segments[0] = len;
    for seg in segments.iter_mut().skip(1) {
        step(&mut d1, &mut d2, &d3);
        len += (d1[0] * d1[0] + d1[1] * d1[1]).sqrt();
        *seg = len;
    }
    len
}

/// One forward-difference step.
#[inline]
fn step(d1: &mut [f64; 2], d2: &mut [f64; 2], d3: &[f64; 2]) {
    for k in 0..2 {
        d1[k] += d2[k];
        d2[k] += d3[k];
    }
}

/// A position `p` (negative) before the path start, along the first control direction.
fn add_before(p: f64, w: &[f64], i: usize, out: &mut [f64], o: usize) {
    let (x1, y1) = (w[i], w[i + 1]);
    let r = (w[i + 3] - y1).atan2(w[i + 2] - x1);
    out[o] = x1 + p * r.cos();
    out[o + 1] = y1 + p * r.sin();
    out[o + 2] = r;
}

/// A position `p` past the path end, along the last control direction.
fn add_after(p: f64, w: &[f64], i: usize, out: &mut [f64], o: usize) {
    let (x1, y1) = (w[i + 2], w[i + 3]);
    let r = (y1 - w[i + 1]).atan2(x1 - w[i]);
    out[o] = x1 + p * r.cos();
    out[o + 1] = y1 + p * r.sin();
    out[o + 2] = r;
}

/// The point at parameter `p` of a bezier, with its tangent angle when `tangents`.
fn add_curve(p: f64, s: &[f64], out: &mut [f64], o: usize, tangents: bool) {
    let (x1, y1, cx1, cy1, cx2, cy2, x2, y2) = (s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    if p == 0.0 || p.is_nan() {
        out[o] = x1;
        out[o + 1] = y1;
        out[o + 2] = (cy1 - y1).atan2(cx1 - x1);
        return;
    }
    let (tt, u) = (p * p, 1.0 - p);
    let ttt = tt * p;
    let uu = u * u;
    let uuu = uu * u;
    let ut = u * p;
    let ut3 = ut * 3.0;
    let uut3 = u * ut3;
    let utt3 = ut3 * p;
    let x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    let y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[o] = x;
    out[o + 1] = y;
    if tangents {
        out[o + 2] = if p < 0.001 {
            (cy1 - y1).atan2(cx1 - x1)
        } else {
            (y - (y1 * uu + cy1 * ut * 2.0 + cy2 * tt))
                .atan2(x - (x1 * uu + cx1 * ut * 2.0 + cx2 * tt))
        };
    }
}
