//! Turning a posed skeleton into line segments for the preview canvas, and measuring poses
//! for "fit to view".
//!
//! Everything here works in world units. Non-finite numbers (NaN or infinite world
//! coordinates from a degenerate file) drop the primitive they belong to; nothing panics.

use crate::core::animation::{MixBlend, MixDirection};
use crate::core::model::{AttachmentKind, PathAttachment};
use crate::core::skeleton::Skeleton;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::widgets::canvas::{Line, Painter, Shape};

/// Number of geometry layers (keys 1-7).
pub const LAYERS: usize = 7;
/// Layer indices.
pub const BONES: usize = 0;
pub const REGIONS: usize = 1;
pub const MESHES: usize = 2;
pub const BOXES: usize = 3;
pub const PATHS: usize = 4;
pub const POINTS: usize = 5;
pub const CLIPPING: usize = 6;

/// Most mesh triangle edges drawn in one frame (the rest of the meshes show hulls only).
pub const MAX_TRIANGLE_EDGES: usize = 6000;
/// Most samples along one bezier curve.
const MAX_CURVE_STEPS: usize = 24;

/// One straight segment (a point when both ends are equal).
#[derive(Clone, Copy, Debug)]
pub struct Seg {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
    pub color: Color,
}

/// The segments of a frame as one canvas shape (one painter for all of them).
pub struct Segs<'a>(pub &'a [Seg]);

impl Shape for Segs<'_> {
    fn draw(&self, painter: &mut Painter) {
        for s in self.0 {
            Line::new(s.x1, s.y1, s.x2, s.y2, s.color).draw(painter);
        }
    }
}

/// How to draw a frame.
pub struct Look {
    /// Which layers are on.
    pub layers: [bool; LAYERS],
    /// Color of each layer.
    pub colors: [Color; LAYERS],
    /// Color of the selected bone.
    pub highlight: Color,
    /// The selected bone, if any.
    pub selected: Option<usize>,
    /// World units per canvas dot (for screen-sized marks such as point crosses).
    pub dot: f64,
    /// Draw mesh triangle edges (zoomed in), within [`MAX_TRIANGLE_EDGES`].
    pub triangles: bool,
}

/// Reusable buffers for building a frame's segments.
#[derive(Debug, Default)]
pub struct Scene {
    pub segs: Vec<Seg>,
    verts: Vec<f64>,
    /// While drawing a nested skeleton: its placement in the outer skeleton's world
    /// (`[a, b, c, d, x, y]`, `x' = a x + b y + x0`), applied to every segment.
    place: Option<[f64; 6]>,
    /// How deep in nested skeletons the drawing is.
    depth: u8,
}

/// Nested skeletons drawn inside each other at most this deep.
const MAX_NESTING: u8 = 3;

#[inline]
fn finite(v: &[f64]) -> bool {
    v.iter().all(|x| x.is_finite())
}

impl Scene {
    #[inline]
    pub(super) fn line(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, color: Color) {
        let (x1, y1, x2, y2) = match self.place {
            None => (x1, y1, x2, y2),
            Some([a, b, c, d, x, y]) => (
                a * x1 + b * y1 + x,
                c * x1 + d * y1 + y,
                a * x2 + b * y2 + x,
                c * x2 + d * y2 + y,
            ),
        };
        if finite(&[x1, y1, x2, y2]) {
            self.segs.push(Seg {
                x1,
                y1,
                x2,
                y2,
                color,
            });
        }
    }

    #[inline]
    pub(super) fn point(&mut self, x: f64, y: f64, color: Color) {
        self.line(x, y, x, y, color);
    }

    /// Lines between the first `n` vertices of `self.verts` (x, y pairs), closed or open.
    fn polyline(&mut self, n: usize, closed: bool, color: Color) {
        let n = n.min(self.verts.len() / 2);
        if n == 0 {
            return;
        }
        if n == 1 {
            let (x, y) = (self.verts[0], self.verts[1]);
            self.point(x, y, color);
            return;
        }
        let last = if closed { n } else { n - 1 };
        for i in 0..last {
            let j = (i + 1) % n;
            let (x1, y1) = (self.verts[i * 2], self.verts[i * 2 + 1]);
            let (x2, y2) = (self.verts[j * 2], self.verts[j * 2 + 1]);
            self.line(x1, y1, x2, y2, color);
        }
    }

    /// Fills `self.verts` with the world positions of the first `count` vertices of what
    /// `slot` shows (a vertex attachment). Returns false if the data is inconsistent.
    fn load_vertices(&mut self, sk: &Skeleton, slot: usize, count: usize) -> bool {
        let Some(att) = sk.slots[slot]
            .attachment
            .and_then(|a| sk.data.attachments.get(a))
        else {
            return false;
        };
        let Some(vd) = att.vertex_data() else {
            return false;
        };
        let floats = (count * 2).min(vd.world_len);
        // Unweighted vertices read `floats` values (from the deform when there is one).
        let deform = &sk.slots[slot].deform;
        if vd.bones.is_none()
            && (vd.vertices.len() < floats || (!deform.is_empty() && deform.len() < floats))
        {
            return false;
        }
        self.verts.clear();
        self.verts.resize(floats, 0.0);
        sk.vertex_world_positions(slot, vd, 0, floats, &mut self.verts, 0, 2);
        true
    }

    /// Builds the segments of `sk` as `look` says: attachments in draw order, then bones,
    /// then the selected bone.
    pub fn build(&mut self, sk: &Skeleton, look: &Look) {
        self.segs.clear();
        let mut tri_budget = if look.triangles {
            MAX_TRIANGLE_EDGES
        } else {
            0
        };
        for k in 0..sk.draw_order.len() {
            let slot = sk.draw_order[k];
            self.slot(sk, slot, look, &mut tri_budget);
        }
        if look.layers[BONES] {
            let color = look.colors[BONES];
            for (i, bone) in sk.bones.iter().enumerate() {
                if !bone.active || Some(i) == look.selected {
                    continue;
                }
                let len = sk.data.bones[i].length;
                let (x, y) = (bone.world_x, bone.world_y);
                if len != 0.0 {
                    self.line(x, y, x + len * bone.a, y + len * bone.c, color);
                }
                self.point(x, y, color);
            }
            if let Some(i) = look.selected {
                self.selected_bone(sk, i, look);
            }
        }
    }

    fn slot(&mut self, sk: &Skeleton, slot: usize, look: &Look, tri_budget: &mut usize) {
        let Some(sd) = sk.data.slots.get(slot) else {
            return;
        };
        if !sk.bones.get(sd.bone).is_some_and(|b| b.active) {
            return;
        }
        let Some(att) = sk.slots[slot]
            .attachment
            .and_then(|a| sk.data.attachments.get(a))
        else {
            return;
        };
        match &att.kind {
            AttachmentKind::Region(r) => {
                if look.layers[REGIONS] {
                    sk.region_world_vertices(slot, r, &mut self.verts);
                    if r.width == 0.0 && r.height == 0.0 {
                        // No size known (the file has no atlas): a small square where the
                        // image is centred, so the image is still there to see.
                        let (x, y) = (self.verts[0], self.verts[1]);
                        let h = look.dot * 2.0;
                        let corners = [(-h, -h), (h, -h), (h, h), (-h, h), (-h, -h)];
                        for w in corners.windows(2) {
                            let color = look.colors[REGIONS];
                            self.line(x + w[0].0, y + w[0].1, x + w[1].0, y + w[1].1, color);
                        }
                    } else {
                        self.polyline(4, true, look.colors[REGIONS]);
                    }
                }
            }
            AttachmentKind::Mesh(m) => {
                if !look.layers[MESHES] {
                    return;
                }
                let color = look.colors[MESHES];
                let n = m.vertices.vertex_count();
                let want_tris = *tri_budget >= m.triangles.len() && !m.triangles.is_empty();
                let count = if want_tris { n } else { m.hull.min(n) };
                if !self.load_vertices(sk, slot, count) {
                    return;
                }
                self.polyline(m.hull.min(n), true, color);
                if want_tris {
                    for t in m.triangles.chunks_exact(3) {
                        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                            let (a, b) = (a as usize, b as usize);
                            // Interior edges appear once each way; the outline is the hull.
                            if a < b && b < n {
                                let (x1, y1) = (self.verts[a * 2], self.verts[a * 2 + 1]);
                                let (x2, y2) = (self.verts[b * 2], self.verts[b * 2 + 1]);
                                self.line(x1, y1, x2, y2, color);
                            }
                        }
                    }
                    *tri_budget -= m.triangles.len();
                }
            }
            AttachmentKind::BoundingBox { vertices, .. } => {
                if look.layers[BOXES] && self.load_vertices(sk, slot, vertices.vertex_count()) {
                    self.polyline(vertices.vertex_count(), true, look.colors[BOXES]);
                }
            }
            AttachmentKind::Clipping { vertices, .. } => {
                if look.layers[CLIPPING] && self.load_vertices(sk, slot, vertices.vertex_count()) {
                    self.polyline(vertices.vertex_count(), true, look.colors[CLIPPING]);
                }
            }
            AttachmentKind::Path(p) => {
                if look.layers[PATHS] && self.load_vertices(sk, slot, p.vertices.vertex_count()) {
                    self.path(p, look);
                }
            }
            AttachmentKind::Point(p) => {
                if !look.layers[POINTS] {
                    return;
                }
                let (x, y, rot) = sk.point_world(slot, p);
                let color = look.colors[POINTS];
                let arm = look.dot * 2.0;
                self.line(x - arm, y, x + arm, y, color);
                self.line(x, y - arm, x, y + arm, color);
                let (s, c) = rot.to_radians().sin_cos();
                let tick = look.dot * 6.0;
                self.line(x, y, x + c * tick, y + s * tick, color);
            }
            AttachmentKind::Armature(a) => {
                if !look.layers[POINTS] {
                    return;
                }
                // A nested skeleton: a small diamond at its origin, turned with it.
                let (x, y, rot) = sk.point_world(slot, &a.as_point());
                let color = look.colors[POINTS];
                let r = look.dot * 4.0;
                let (s, c) = rot.to_radians().sin_cos();
                let corners = [(r, 0.0), (0.0, r), (-r, 0.0), (0.0, -r), (r, 0.0)];
                for w in corners.windows(2) {
                    let (ax, ay) = (x + w[0].0 * c - w[0].1 * s, y + w[0].0 * s + w[0].1 * c);
                    let (bx, by) = (x + w[1].0 * c - w[1].1 * s, y + w[1].0 * s + w[1].1 * c);
                    self.line(ax, ay, bx, by, color);
                }
                if let Some(child) = &a.skeleton {
                    self.nested(sk, sd.bone, a, child, look, tri_budget);
                }
            }
        }
    }

    /// Draws a nested skeleton in its setup pose where `a` places it on `bone`: its
    /// attachments in its draw order, then its bones.
    fn nested(
        &mut self,
        sk: &Skeleton,
        bone: usize,
        a: &crate::core::model::ArmatureAttachment,
        child: &std::sync::Arc<crate::core::model::SkeletonData>,
        look: &Look,
        tri_budget: &mut usize,
    ) {
        if self.depth >= MAX_NESTING {
            return;
        }
        let place = sk.bones[bone].placement(a.x, a.y, a.rotation, self.place);
        let mut inner = Skeleton::new(child.clone());
        inner.set_to_setup_pose();
        inner.update_world_transform();
        let saved = (self.place, self.depth);
        (self.place, self.depth) = (Some(place), self.depth + 1);
        for k in 0..inner.draw_order.len() {
            let slot = inner.draw_order[k];
            self.slot(&inner, slot, look, tri_budget);
        }
        if look.layers[BONES] {
            for (i, bone) in inner.bones.iter().enumerate() {
                let len = inner.data.bones[i].length;
                let (x, y) = (bone.world_x, bone.world_y);
                if bone.active && len != 0.0 {
                    self.line(x, y, x + len * bone.a, y + len * bone.c, look.colors[BONES]);
                }
            }
        }
        (self.place, self.depth) = saved;
    }

    /// A path's cubic curves (sampled) and its handles (dotted), from `self.verts`.
    ///
    /// Vertices come in threes per control point: in-handle, point, out-handle. Curve `k`
    /// runs from point `k` (vertex `3k+1`) through handles `3k+2`, `3k+3` to vertex `3k+4`;
    /// a closed path's last curve wraps to the start.
    fn path(&mut self, p: &PathAttachment, look: &Look) {
        let color = look.colors[PATHS];
        let nv = self.verts.len() / 2;
        let points = nv / 3;
        if points == 0 {
            return;
        }
        let curves = if p.closed {
            points
        } else {
            points.saturating_sub(1)
        };
        let v = |s: &Scene, i: usize| (s.verts[(i % nv) * 2], s.verts[(i % nv) * 2 + 1]);
        let dot = if look.dot > 0.0 { look.dot } else { 1.0 };
        for k in 0..curves {
            let p0 = v(self, 3 * k + 1);
            let c1 = v(self, 3 * k + 2);
            let c2 = v(self, 3 * k + 3);
            let p1 = v(self, 3 * k + 4);
            if !finite(&[p0.0, p0.1, c1.0, c1.1, c2.0, c2.1, p1.0, p1.1]) {
                continue;
            }
            let hull = dist(p0, c1) + dist(c1, c2) + dist(c2, p1);
            let steps = ((hull / dot / 3.0).ceil() as usize).clamp(2, MAX_CURVE_STEPS);
            let mut prev = p0;
            for s in 1..=steps {
                let t = s as f64 / steps as f64;
                let next = bezier(p0, c1, c2, p1, t);
                self.line(prev.0, prev.1, next.0, next.1, color);
                prev = next;
            }
        }
        // Handles: dotted, so they read fainter than the curve.
        for j in 0..points {
            let (px, py) = v(self, 3 * j + 1);
            for h in [3 * j, 3 * j + 2] {
                let (hx, hy) = v(self, h);
                self.dotted(px, py, hx, hy, dot * 3.0, color);
            }
        }
    }

    /// Points every `spacing` world units from one end to the other (at most 16).
    fn dotted(&mut self, x1: f64, y1: f64, x2: f64, y2: f64, spacing: f64, color: Color) {
        if !finite(&[x1, y1, x2, y2]) {
            return;
        }
        let len = dist((x1, y1), (x2, y2));
        let n = ((len / spacing).floor() as usize).min(16);
        for i in 1..=n {
            let t = i as f64 / n as f64;
            self.point(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, color);
        }
    }

    /// The selected bone, drawn last: its line thickened by two offset copies, a ring
    /// around its joint and a dot at its tip.
    fn selected_bone(&mut self, sk: &Skeleton, i: usize, look: &Look) {
        let Some(bone) = sk.bones.get(i) else {
            return;
        };
        if !bone.active {
            return;
        }
        let color = look.highlight;
        let len = sk.data.bones[i].length;
        let (x, y) = (bone.world_x, bone.world_y);
        let (tx, ty) = (x + len * bone.a, y + len * bone.c);
        let (dx, dy) = (tx - x, ty - y);
        let l = (dx * dx + dy * dy).sqrt();
        if l > 0.0 && l.is_finite() {
            let (nx, ny) = (-dy / l * look.dot * 0.7, dx / l * look.dot * 0.7);
            self.line(x + nx, y + ny, tx + nx, ty + ny, color);
            self.line(x - nx, y - ny, tx - nx, ty - ny, color);
            self.line(x, y, tx, ty, color);
            self.point(tx, ty, color);
        }
        let r = look.dot * 2.0;
        for k in 0..8 {
            let (s, c) = (k as f64 * std::f64::consts::FRAC_PI_4).sin_cos();
            self.point(x + c * r, y + s * r, color);
        }
        self.point(x, y, color);
    }
}

#[inline]
fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt()
}

#[inline]
fn bezier(p0: (f64, f64), c1: (f64, f64), c2: (f64, f64), p1: (f64, f64), t: f64) -> (f64, f64) {
    let u = 1.0 - t;
    let (a, b, c, d) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
    (
        a * p0.0 + b * c1.0 + c * c2.0 + d * p1.0,
        a * p0.1 + b * c1.1 + c * c2.1 + d * p1.1,
    )
}

/// Axis-aligned bounds being grown point by point (non-finite points ignored).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    pub min_x: f64,
    pub min_y: f64,
    pub max_x: f64,
    pub max_y: f64,
}

impl Bounds {
    pub const EMPTY: Bounds = Bounds {
        min_x: f64::INFINITY,
        min_y: f64::INFINITY,
        max_x: f64::NEG_INFINITY,
        max_y: f64::NEG_INFINITY,
    };

    #[inline]
    pub fn add(&mut self, x: f64, y: f64) {
        if x.is_finite() && y.is_finite() {
            self.min_x = self.min_x.min(x);
            self.min_y = self.min_y.min(y);
            self.max_x = self.max_x.max(x);
            self.max_y = self.max_y.max(y);
        }
    }

    pub fn is_empty(&self) -> bool {
        !(self.min_x <= self.max_x && self.min_y <= self.max_y)
    }

    pub fn width(&self) -> f64 {
        self.max_x - self.min_x
    }

    pub fn height(&self) -> f64 {
        self.max_y - self.min_y
    }

    pub fn center(&self) -> (f64, f64) {
        (
            (self.min_x + self.max_x) / 2.0,
            (self.min_y + self.max_y) / 2.0,
        )
    }
}

impl Bounds {
    /// The smallest bounds holding both.
    pub fn union(&self, o: &Bounds) -> Bounds {
        Bounds {
            min_x: self.min_x.min(o.min_x),
            min_y: self.min_y.min(o.min_y),
            max_x: self.max_x.max(o.max_x),
            max_y: self.max_y.max(o.max_y),
        }
    }
}

impl Scene {
    /// Grows `bones` by the bones (joints and tips) and `b` by every shown attachment of
    /// `sk`.
    pub fn measure(&mut self, sk: &Skeleton, bones: &mut Bounds, b: &mut Bounds) {
        self.measure_each(sk, bones, |one| *b = b.union(&one));
    }

    /// Grows `bones` by the bones (joints and tips) and calls `each` with the bounds of
    /// every shown attachment of `sk` (one call per attachment, none for an attachment
    /// without a finite point).
    pub fn measure_each(
        &mut self,
        sk: &Skeleton,
        bones: &mut Bounds,
        mut each: impl FnMut(Bounds),
    ) {
        for (i, bone) in sk.bones.iter().enumerate() {
            if !bone.active {
                continue;
            }
            let len = sk.data.bones[i].length;
            bones.add(bone.world_x, bone.world_y);
            bones.add(bone.world_x + len * bone.a, bone.world_y + len * bone.c);
        }
        for slot in 0..sk.slots.len() {
            let sd = &sk.data.slots[slot];
            if !sk.bones.get(sd.bone).is_some_and(|b| b.active) {
                continue;
            }
            let Some(att) = sk.slots[slot]
                .attachment
                .and_then(|a| sk.data.attachments.get(a))
            else {
                continue;
            };
            let mut b = Bounds::EMPTY;
            match &att.kind {
                AttachmentKind::Point(p) => {
                    let (x, y, _) = sk.point_world(slot, p);
                    b.add(x, y);
                }
                AttachmentKind::Armature(a) => {
                    let (x, y, _) = sk.point_world(slot, &a.as_point());
                    b.add(x, y);
                }
                AttachmentKind::Region(r) => {
                    sk.region_world_vertices(slot, r, &mut self.verts);
                    add_points(&mut b, &self.verts);
                }
                _ => {
                    let n = att.vertex_data().map_or(0, |v| v.vertex_count());
                    if self.load_vertices(sk, slot, n) {
                        add_points(&mut b, &self.verts);
                    }
                }
            }
            if !b.is_empty() {
                each(b);
            }
        }
    }
}

/// Grows `b` by flat `x, y` pairs.
fn add_points(b: &mut Bounds, xy: &[f64]) {
    for p in xy.chunks_exact(2) {
        b.add(p[0], p[1]);
    }
}

/// Poses `probe` at `samples + 1` evenly spaced times of `anim` (setup pose, apply, world
/// transforms) and calls `f` on each: what fitting the view to a whole animation measures.
pub fn sampled_poses(
    probe: &mut Skeleton,
    anim: &crate::core::animation::Animation,
    samples: usize,
    mut f: impl FnMut(&Skeleton),
) {
    if !anim.duration.is_finite() || anim.duration <= 0.0 {
        return;
    }
    for s in 0..=samples {
        let t = anim.duration * s as f64 / samples.max(1) as f64;
        probe.set_to_setup_pose();
        anim.apply(
            probe,
            t,
            t,
            false,
            None,
            1.0,
            MixBlend::Setup,
            MixDirection::In,
        );
        probe.update_world_transform();
        f(probe);
    }
}

/// Applies `style` to the cells of `area` that the world segment (x1, y1)-(x2, y2) crosses,
/// on a canvas over `area` with bounds `xb`, `yb` and `dots` dots per cell.
#[allow(clippy::too_many_arguments)]
pub fn style_segment_cells(
    buf: &mut Buffer,
    area: Rect,
    xb: [f64; 2],
    yb: [f64; 2],
    dots: (u16, u16),
    (x1, y1, x2, y2): (f64, f64, f64, f64),
    style: Style,
) {
    if area.is_empty() || !finite(&[x1, y1, x2, y2]) {
        return;
    }
    let (w, h) = (xb[1] - xb[0], yb[1] - yb[0]);
    if !(w > 0.0 && h > 0.0) {
        return;
    }
    let res_x = f64::from(area.width) * f64::from(dots.0);
    let res_y = f64::from(area.height) * f64::from(dots.1);
    let to_dot = |x: f64, y: f64| {
        (
            (x - xb[0]) * (res_x - 1.0) / w,
            (yb[1] - y) * (res_y - 1.0) / h,
        )
    };
    let (a, b) = (to_dot(x1, y1), to_dot(x2, y2));
    let steps = ((b.0 - a.0).abs().max((b.1 - a.1).abs()).ceil() as usize).min(4096) + 1;
    for s in 0..=steps {
        let t = s as f64 / steps as f64;
        let (dx, dy) = (
            (a.0 + (b.0 - a.0) * t).round(),
            (a.1 + (b.1 - a.1) * t).round(),
        );
        if dx < 0.0 || dy < 0.0 || dx > res_x - 1.0 || dy > res_y - 1.0 {
            continue;
        }
        let cx = (dx as u32 / u32::from(dots.0)) as u16;
        let cy = (dy as u32 / u32::from(dots.1)) as u16;
        if cx < area.width && cy < area.height {
            let cell = &mut buf[(area.x + cx, area.y + cy)];
            cell.set_style(style);
        }
    }
}
