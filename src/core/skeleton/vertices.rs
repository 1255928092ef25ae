//! World-space geometry of attachments.

use super::Skeleton;
use crate::core::model::{
    AttachmentKind, PointAttachment, PointRotationRule, RegionAttachment, VertexData,
};

impl Skeleton {
    /// World positions of a region's four corners (bottom-left, top-left, top-right,
    /// bottom-right) on `slot`'s bone.
    pub fn region_world_vertices(
        &self,
        slot: usize,
        region: &RegionAttachment,
        out: &mut Vec<f64>,
    ) {
        let bone = &self.bones[self.data.slots[slot].bone];
        out.clear();
        for i in 0..4 {
            let (ox, oy) = (region.offset[i * 2] as f64, region.offset[i * 2 + 1] as f64);
            out.push(ox * bone.a + oy * bone.b + bone.world_x);
            out.push(ox * bone.c + oy * bone.d + bone.world_y);
        }
    }

    /// World positions of the vertices `start / 2 ..` (`count` floats) of a vertex attachment
    /// shown on `slot`, with the slot's deform applied, into `out[offset..]` with `stride`.
    #[allow(clippy::too_many_arguments)]
    pub fn vertex_world_positions(
        &self,
        slot: usize,
        vd: &VertexData,
        start: usize,
        count: usize,
        out: &mut [f64],
        offset: usize,
        stride: usize,
    ) {
        let end = offset + (count >> 1) * stride;
        let deform = &self.slots[slot].deform;
        let Some(bones) = &vd.bones else {
            let bone = &self.bones[self.data.slots[slot].bone];
            let (a, b, c, d, x, y) = (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y);
            let (mut v, mut w) = (start, offset);
            while w < end {
                let (vx, vy) = if deform.is_empty() {
                    (vd.vertices[v] as f64, vd.vertices[v + 1] as f64)
                } else {
                    (deform[v], deform[v + 1])
                };
                out[w] = vx * a + vy * b + x;
                out[w + 1] = vx * c + vy * d + y;
                v += 2;
                w += stride;
            }
            return;
        };
        // Skip the influences of the vertices before `start`.
        let (mut v, mut skip) = (0usize, 0usize);
        let mut i = 0;
        while i < start {
            let n = bones[v] as usize;
            v += n + 1;
            skip += n;
            i += 2;
        }
        let mut b = skip * 3;
        let mut f = skip << 1;
        let mut w = offset;
        while w < end {
            let (mut wx, mut wy) = (0.0, 0.0);
            let n = bones[v] as usize;
            v += 1;
            for _ in 0..n {
                let bone = &self.bones[bones[v] as usize];
                let (mut vx, mut vy) = (vd.vertices[b] as f64, vd.vertices[b + 1] as f64);
                if !deform.is_empty() {
                    vx += deform[f];
                    vy += deform[f + 1];
                    f += 2;
                }
                let weight = vd.vertices[b + 2] as f64;
                wx += (vx * bone.a + vy * bone.b + bone.world_x) * weight;
                wy += (vx * bone.c + vy * bone.d + bone.world_y) * weight;
                v += 1;
                b += 3;
            }
            out[w] = wx;
            out[w + 1] = wy;
            w += stride;
        }
    }

    /// World position and rotation (degrees) of a point attachment on `slot`'s bone: where
    /// the point is and where it faces (what the views draw).
    pub fn point_world(&self, slot: usize, p: &PointAttachment) -> (f64, f64, f64) {
        let (x, y, angle) = self.point_world_radians(slot, p);
        (x, y, angle / self.data.rules.deg_rad())
    }

    /// [`Self::point_world`] with the rotation as the runtime of the skeleton's version
    /// reports it (`Rules::point_rotation`): the number a game reads, which the poses show.
    pub fn point_world_reported(&self, slot: usize, p: &PointAttachment) -> (f64, f64, f64) {
        let (x, y, angle) = self.point_world_radians(slot, p);
        let deg_rad = self.data.rules.deg_rad();
        let r = match self.data.rules.point_rotation {
            PointRotationRule::Degrees => angle / deg_rad,
            PointRotationRule::DegRadSquared => angle * deg_rad,
        };
        (x, y, r)
    }

    /// World position and angle (radians, from `atan2`) of a point attachment, turned by
    /// the runtime's degRad (4.x: its rounded pi, which decides the sign at exactly 180°).
    fn point_world_radians(&self, slot: usize, p: &PointAttachment) -> (f64, f64, f64) {
        let bone = &self.bones[self.data.slots[slot].bone];
        let (x, y) = bone.local_to_world(p.x, p.y);
        let r = p.rotation * self.data.rules.deg_rad();
        let (cos, sin) = (r.cos(), r.sin());
        let rx = cos * bone.a + sin * bone.b;
        let ry = cos * bone.c + sin * bone.d;
        (x, y, ry.atan2(rx))
    }

    /// The world vertices of whatever `slot` shows (region corners, every vertex of a vertex
    /// attachment), or `None` for no attachment or a point.
    pub fn slot_world_vertices(&self, slot: usize) -> Option<Vec<f64>> {
        let att = &self.data.attachments[self.slots[slot].attachment?];
        match &att.kind {
            AttachmentKind::Region(r) => {
                let mut out = Vec::with_capacity(8);
                self.region_world_vertices(slot, r, &mut out);
                Some(out)
            }
            AttachmentKind::Point(_) => None,
            _ => {
                let vd = att.vertex_data()?;
                let mut out = vec![0.0; vd.world_len];
                self.vertex_world_positions(slot, vd, 0, vd.world_len, &mut out, 0, 2);
                Some(out)
            }
        }
    }
}
