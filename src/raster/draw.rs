//! One frame: every slot in draw order, its region or mesh textured, tinted, blended and
//! clipped (see the module docs of [`crate::raster`] for the pixel contract).

use super::camera::{Camera, Viewport};
use super::clipping::polygon_mask;
use super::fill::{Target, Tint, fill_triangle};
use super::untextured;
use crate::core::color::Color;
use crate::core::model::{ArmatureAttachment, AttachmentKind, SkeletonData};
use crate::core::skeleton::Skeleton;
use crate::format::atlas::textures::{RegionRef, region_path};
use crate::format::atlas::{AtlasRegion, Textures};
use std::sync::Arc;

/// What is behind the skeleton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Background {
    /// An opaque colour (RGB).
    Opaque([u8; 3]),
    /// Nothing: the image keeps alpha (straight).
    Transparent,
}

impl Background {
    /// The oracle's default, opaque #202020.
    pub const DEFAULT: Background = Background::Opaque([0x20, 0x20, 0x20]);
}

/// Pixel size, camera and background of a frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    pub width: u32,
    pub height: u32,
    pub viewport: Viewport,
    pub background: Background,
    /// Draw the bones when nothing in the frame could be textured, so the pose still shows.
    /// Off when the caller draws its own bones over the picture (the viewer's wireframe).
    pub untextured_bones: bool,
}

/// A rendered frame: straight-alpha RGBA 8-bit, rows top down.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// Atlas paths that attachments shown in the frame needed and the textures lack (or whose
    /// page is missing), sorted, each once: those attachments were drawn untextured (see
    /// [`crate::raster::untextured`]).
    pub missing: Vec<String>,
}

/// Largest frame side in pixels.
pub const MAX_SIDE: u32 = 8192;

/// Renders `skeleton` as posed (world transforms up to date) with `textures`.
pub fn draw(skeleton: &Skeleton, textures: &Textures, options: &RenderOptions) -> Image {
    let (w, h) = (
        options.width.clamp(1, MAX_SIDE) as usize,
        options.height.clamp(1, MAX_SIDE) as usize,
    );
    let camera = Camera::fit(options.viewport, w as u32, h as u32);
    let bg = match options.background {
        Background::Opaque([r, g, b]) => [
            f32::from(r) / 255.0,
            f32::from(g) / 255.0,
            f32::from(b) / 255.0,
            1.0,
        ],
        Background::Transparent => [0.0; 4],
    };
    let mut pixels = vec![bg; w * h];
    let mut frame = Frame {
        textures,
        camera: &camera,
        size: (w, h),
        pixels: &mut pixels,
        missing: Vec::new(),
        textured: 0,
        bones: Vec::new(),
    };
    frame.skeleton(skeleton, &Nest::TOP);
    if options.untextured_bones && frame.textured == 0 && !frame.missing.is_empty() {
        // Nothing could be textured: the bones show the pose over the flat shapes.
        let mut target = Target {
            pixels: &mut *frame.pixels,
            width: w,
            height: h,
            mask: None,
        };
        untextured::bones(&mut target, &frame.bones, &camera);
    }
    let mut missing = frame.missing;
    missing.sort();
    missing.dedup();
    let transparent = options.background == Background::Transparent;
    // `x + 2^23` holds `x` rounded (half to even) in its low mantissa bits for 0 <= x < 2^22:
    // rounding without a library call or a saturating cast, so the loop vectorises.
    let to_u8 = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 8_388_608.0).to_bits() as u8;
    let rgba = if transparent {
        let mut rgba = vec![0u8; w * h * 4];
        for (p, out) in pixels.iter().zip(rgba.chunks_exact_mut(4)) {
            let a = p[3].clamp(0.0, 1.0);
            let un = if a > 0.0 { 1.0 / a } else { 1.0 };
            out.copy_from_slice(&[
                to_u8(p[0] * un),
                to_u8(p[1] * un),
                to_u8(p[2] * un),
                to_u8(a),
            ]);
        }
        rgba
    } else {
        // Premultiplied over an opaque background is the straight colour: one flat pass
        // (which vectorises), then alpha opaque.
        let mut rgba: Vec<u8> = pixels.as_flattened().iter().map(|&v| to_u8(v)).collect();
        for a in rgba.iter_mut().skip(3).step_by(4) {
            *a = 255;
        }
        rgba
    };
    Image {
        width: w as u32,
        height: h as u32,
        rgba,
        missing,
    }
}

/// Child armatures nest at most this deep (the loader already refuses cycles).
const MAX_NESTING: u8 = 3;

/// Where a skeleton is drawn: at the top, or nested in a slot of another (a DragonBones
/// child armature, drawn in its setup pose like the wireframe does).
struct Nest<'a> {
    /// Affine map `[a, b, c, d, x, y]` from the skeleton's world to the top's world.
    place: Option<[f64; 6]>,
    /// The clip mask of the parent's slot, if a clip was active there.
    mask: Option<&'a [bool]>,
    /// The parent slot's colour, multiplied into every colour of the nested skeleton.
    tint: [f64; 4],
    depth: u8,
}

impl Nest<'_> {
    const TOP: Nest<'static> = Nest {
        place: None,
        mask: None,
        tint: [1.0; 4],
        depth: 0,
    };

    fn to_top(&self, x: f64, y: f64) -> (f64, f64) {
        match self.place {
            None => (x, y),
            Some([a, b, c, d, px, py]) => (a * x + b * y + px, c * x + d * y + py),
        }
    }
}

/// One frame being drawn.
struct Frame<'a> {
    textures: &'a Textures,
    camera: &'a Camera,
    size: (usize, usize),
    pixels: &'a mut [[f32; 4]],
    missing: Vec<String>,
    /// How many attachments were drawn with a texture.
    textured: usize,
    /// The bones of every skeleton drawn, nested ones included, drawn over the frame when
    /// nothing could be textured.
    bones: Vec<untextured::BoneLine>,
}

/// A clip in progress: its end slot and mask.
type Clip = Option<(Option<usize>, Vec<bool>)>;

impl Frame<'_> {
    /// Every slot of `sk` in draw order.
    fn skeleton(&mut self, sk: &Skeleton, nest: &Nest<'_>) {
        untextured::bone_lines(sk, |x, y| nest.to_top(x, y), &mut self.bones);
        let mut clip: Clip = None;
        let mut scratch = (Vec::new(), Vec::new(), Vec::new());
        for &slot_index in &sk.draw_order {
            // A clip ends after its end slot, but not at the clipping slot itself (an export
            // whose clip ends on its own slot clips everything after it, as the runtimes do).
            let clipping_before = clip.is_some();
            self.slot(sk, slot_index, nest, &mut clip, &mut scratch);
            if clipping_before
                && clip
                    .as_ref()
                    .is_some_and(|(end, _)| *end == Some(slot_index))
            {
                clip = None;
            }
        }
    }

    /// Draws one slot (or starts a clip, or draws a child armature).
    fn slot(
        &mut self,
        sk: &Skeleton,
        slot_index: usize,
        nest: &Nest<'_>,
        clip: &mut Clip,
        (world, uvs, tri): &mut (Vec<f64>, Vec<f64>, Vec<u32>),
    ) {
        let (w, h) = self.size;
        let camera = self.camera;
        let textures = self.textures;
        let slot = &sk.slots[slot_index];
        let slot_data = &sk.data.slots[slot_index];
        let Some(id) = slot.attachment else {
            return;
        };
        let bone = &sk.bones[slot_data.bone];
        if !bone.active {
            return;
        }
        let att = &sk.data.attachments[id];
        let (sc, tc, nt) = (sk.color, slot.color, nest.tint);
        let slot_tint = [
            sc.r * tc.r * nt[0],
            sc.g * tc.g * nt[1],
            sc.b * tc.b * nt[2],
            sc.a * tc.a * nt[3],
        ];
        let attachment_color = match &att.kind {
            AttachmentKind::Region(r) => r.color,
            AttachmentKind::Mesh(m) => m.color,
            AttachmentKind::Clipping { end_slot, .. } => {
                if clip.is_none() {
                    let Some(v) = sk.slot_world_vertices(slot_index) else {
                        return;
                    };
                    let pts: Vec<(f64, f64)> = v
                        .chunks_exact(2)
                        .map(|p| {
                            let (x, y) = nest.to_top(p[0], p[1]);
                            camera.to_pixel(x, y)
                        })
                        .collect();
                    *clip = Some((*end_slot, polygon_mask(w, h, &pts)));
                }
                return;
            }
            AttachmentKind::Armature(a) => {
                if let Some(child) = &a.skeleton
                    && nest.depth < MAX_NESTING
                {
                    let mask = clip.as_ref().map(|(_, m)| m.as_slice()).or(nest.mask);
                    self.child(sk, slot_data.bone, a, child, nest, mask, slot_tint);
                }
                return;
            }
            _ => return,
        };
        let Some(path) = region_path(att, slot.sequence_index) else {
            return;
        };
        let rr = textures.region(&path);
        if rr.is_some() {
            self.textured += 1;
        } else {
            self.missing.push(path.into_owned());
        }
        world.clear();
        uvs.clear();
        tri.clear();
        // Without a texture: the attachment's own geometry, drawn flat (`untextured`).
        let mut hull = 0;
        match (&att.kind, &rr) {
            (AttachmentKind::Region(r), None) => {
                sk.region_world_vertices(slot_index, r, world);
                tri.extend_from_slice(&[0, 1, 2, 2, 3, 0]);
                hull = 4;
            }
            (AttachmentKind::Region(r), Some(rr)) => {
                let reg = rr.region;
                let (ow, oh) = (
                    f64::from(reg.original_width.max(1)),
                    f64::from(reg.original_height.max(1)),
                );
                // DragonBones images carry no size: they show at the texture's size.
                let (rw, rh) = if r.width == 0.0 && r.height == 0.0 {
                    (ow, oh)
                } else {
                    (r.width, r.height)
                };
                let (pw, ph) = (f64::from(reg.width), f64::from(reg.height));
                let (sx, sy) = (rw / ow * r.scale_x, rh / oh * r.scale_y);
                let lx = -rw / 2.0 * r.scale_x + reg.offset_x * sx;
                let ly = -rh / 2.0 * r.scale_y + reg.offset_y * sy;
                let (lx2, ly2) = (lx + pw * sx, ly + ph * sy);
                let (sin, cos) = (r.rotation * crate::core::math::DEG_RAD).sin_cos();
                // Corners bottom-left, top-left, top-right, bottom-right; image coordinates y down.
                let corners = [
                    (lx, ly, 0.0, ph),
                    (lx, ly2, 0.0, 0.0),
                    (lx2, ly2, pw, 0.0),
                    (lx2, ly, pw, ph),
                ];
                for (x, y, qx, qy) in corners {
                    let (bx, by) = (x * cos - y * sin + r.x, x * sin + y * cos + r.y);
                    world.push(bx * bone.a + by * bone.b + bone.world_x);
                    world.push(bx * bone.c + by * bone.d + bone.world_y);
                    let (u, v) = packed_to_uv(rr, qx, qy);
                    uvs.push(u);
                    uvs.push(v);
                }
                tri.extend_from_slice(&[0, 1, 2, 2, 3, 0]);
            }
            (AttachmentKind::Mesh(m), rr) => {
                let vd = &m.vertices;
                world.resize(vd.world_len, 0.0);
                sk.vertex_world_positions(slot_index, vd, 0, vd.world_len, world, 0, 2);
                if let Some(rr) = rr {
                    let reg = rr.region;
                    let (ow, oh) = (
                        f64::from(reg.original_width),
                        f64::from(reg.original_height),
                    );
                    let top = oh - reg.offset_y - f64::from(reg.height);
                    for p in m.uvs.chunks_exact(2) {
                        let qx = f64::from(p[0]) * ow - reg.offset_x;
                        let qy = f64::from(p[1]) * oh - top;
                        let (u, v) = packed_to_uv(rr, qx, qy);
                        uvs.push(u);
                        uvs.push(v);
                    }
                } else {
                    hull = m.hull;
                }
                tri.extend_from_slice(&m.triangles);
            }
            _ => return,
        }
        let q = |v: f64| ((v.clamp(0.0, 1.0) * 255.0).trunc() / 255.0) as f32;
        let ac = attachment_color;
        let light = [
            q(slot_tint[0] * ac.r),
            q(slot_tint[1] * ac.g),
            q(slot_tint[2] * ac.b),
            q(slot_tint[3] * ac.a),
        ];
        if light[3] == 0.0 {
            return;
        }
        let dark = slot.dark.map(|d| [q(d.r), q(d.g), q(d.b)]);
        let offset = slot.offset;
        let mode = slot_data.blend;
        let n = world.len() / 2;
        let px: Vec<(f64, f64)> = world
            .chunks_exact(2)
            .map(|p| {
                let (x, y) = nest.to_top(p[0], p[1]);
                camera.to_pixel(x, y)
            })
            .collect();
        let mut target = Target {
            pixels: &mut *self.pixels,
            width: w,
            height: h,
            mask: clip.as_ref().map(|(_, m)| m.as_slice()).or(nest.mask),
        };
        let Some(rr) = rr else {
            match (&att.kind, px.first()) {
                // A DragonBones image without its atlas has no size.
                (AttachmentKind::Region(r), Some(&at)) if r.width == 0.0 && r.height == 0.0 => {
                    untextured::marker(&mut target, at, light, mode);
                }
                (kind, _) => {
                    let mesh = matches!(kind, AttachmentKind::Mesh(_));
                    untextured::shape(&mut target, &px, tri, hull, mesh, light, mode);
                }
            }
            return;
        };
        let tint = Tint {
            light,
            dark,
            offset,
        };
        if uvs.len() < n * 2 {
            return;
        }
        for t in tri.chunks_exact(3) {
            let (i0, i1, i2) = (t[0] as usize, t[1] as usize, t[2] as usize);
            if i0 >= n || i1 >= n || i2 >= n {
                continue;
            }
            let uv = [
                (uvs[i0 * 2], uvs[i0 * 2 + 1]),
                (uvs[i1 * 2], uvs[i1 * 2 + 1]),
                (uvs[i2 * 2], uvs[i2 * 2 + 1]),
            ];
            fill_triangle(
                &mut target,
                rr.image,
                [px[i0], px[i1], px[i2]],
                uv,
                &tint,
                mode,
            );
        }
    }

    /// Draws `child`, in its setup pose, where the armature attachment `a` places it on
    /// `bone` of `sk`.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        sk: &Skeleton,
        bone: usize,
        a: &ArmatureAttachment,
        child: &Arc<SkeletonData>,
        nest: &Nest<'_>,
        mask: Option<&[bool]>,
        tint: [f64; 4],
    ) {
        let place = sk.bones[bone].placement(a.x, a.y, a.rotation, nest.place);
        let mut inner = Skeleton::new(Arc::clone(child));
        inner.set_to_setup_pose();
        inner.update_world_transform();
        let nested = Nest {
            place: Some(place),
            mask,
            tint,
            depth: nest.depth + 1,
        };
        self.skeleton(&inner, &nested);
    }
}

/// Page UV of a point of the packed image (pixels from its top-left, unrotated), through the
/// region's counter-clockwise rotation on the page.
fn packed_to_uv(rr: &RegionRef<'_>, qx: f64, qy: f64) -> (f64, f64) {
    let r: &AtlasRegion = rr.region;
    let (pw, ph) = (f64::from(r.width), f64::from(r.height));
    let (x, y) = match r.degrees {
        90 => (qy, pw - qx),
        180 => (pw - qx, ph - qy),
        270 => (ph - qy, qx),
        _ => (qx, qy),
    };
    (
        (f64::from(r.x) + x) / rr.page_width,
        (f64::from(r.y) + y) / rr.page_height,
    )
}

/// The premultiplied source colour of a texel under the slot's tint: light (and dark) colour
/// as the two-colour shader, a DragonBones colour offset added to the straight colour.
#[inline]
pub fn shade(
    texel: [f32; 4],
    light: [f32; 4],
    dark: Option<[f32; 3]>,
    offset: Option<Color>,
) -> [f32; 4] {
    if dark.is_none() && offset.is_none() {
        let la = light[3];
        return [
            texel[0] * light[0] * la,
            texel[1] * light[1] * la,
            texel[2] * light[2] * la,
            texel[3] * la,
        ];
    }
    let ta = texel[3];
    if ta <= 0.0 {
        return [0.0; 4];
    }
    let mut c = [texel[0] / ta, texel[1] / ta, texel[2] / ta];
    let mut a = ta * light[3];
    for k in 0..3 {
        c[k] *= light[k];
        if let Some(d) = dark {
            c[k] += (1.0 - texel[k] / ta) * d[k];
        }
    }
    if let Some(o) = offset {
        let o = [o.r as f32, o.g as f32, o.b as f32];
        for k in 0..3 {
            c[k] += o[k];
        }
        a = (a + offset.map_or(0.0, |o| o.a as f32)).clamp(0.0, 1.0);
    }
    [
        c[0].clamp(0.0, 1.0) * a,
        c[1].clamp(0.0, 1.0) * a,
        c[2].clamp(0.0, 1.0) * a,
        a,
    ]
}
