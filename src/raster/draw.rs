//! One frame: every slot in draw order, its region or mesh textured, tinted, blended and
//! clipped (see the module docs of [`crate::raster`] for the pixel contract).

use super::blend::blend;
use super::camera::{Camera, Viewport};
use super::clipping::polygon_mask;
use super::sample::bilinear;
use super::triangle::cover;
use crate::core::color::Color;
use crate::core::model::AttachmentKind;
use crate::core::skeleton::Skeleton;
use crate::format::atlas::textures::{RegionRef, region_path};
use crate::format::atlas::{AtlasRegion, Textures};

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
}

/// A rendered frame: straight-alpha RGBA 8-bit, rows top down.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    /// Atlas paths that attachments shown in the frame needed and the textures lack (or whose
    /// page is missing), sorted, each once: those attachments were skipped.
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
    let mut missing = Vec::new();
    let mut clip: Option<(Option<usize>, Vec<bool>)> = None;
    let mut world = Vec::new();
    let mut tri: Vec<u32> = Vec::new();
    let mut uvs: Vec<f64> = Vec::new();
    for &slot_index in &skeleton.draw_order {
        draw_slot(
            skeleton,
            textures,
            slot_index,
            &camera,
            (w, h),
            &mut pixels,
            &mut clip,
            &mut missing,
            (&mut world, &mut uvs, &mut tri),
        );
        if clip
            .as_ref()
            .is_some_and(|(end, _)| *end == Some(slot_index))
        {
            clip = None;
        }
    }
    missing.sort();
    missing.dedup();
    let transparent = options.background == Background::Transparent;
    let mut rgba = Vec::with_capacity(w * h * 4);
    for p in &pixels {
        let a = p[3].clamp(0.0, 1.0);
        let un = if transparent && a > 0.0 { 1.0 / a } else { 1.0 };
        for &c in &p[..3] {
            rgba.push(((c * un).clamp(0.0, 1.0) * 255.0).round() as u8);
        }
        rgba.push(if transparent {
            (a * 255.0).round() as u8
        } else {
            255
        });
    }
    Image {
        width: w as u32,
        height: h as u32,
        rgba,
        missing,
    }
}

/// Draws one slot (or starts a clip).
#[allow(clippy::too_many_arguments)]
fn draw_slot(
    sk: &Skeleton,
    textures: &Textures,
    slot_index: usize,
    camera: &Camera,
    (w, h): (usize, usize),
    pixels: &mut [[f32; 4]],
    clip: &mut Option<(Option<usize>, Vec<bool>)>,
    missing: &mut Vec<String>,
    (world, uvs, tri): (&mut Vec<f64>, &mut Vec<f64>, &mut Vec<u32>),
) {
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
                    .map(|p| camera.to_pixel(p[0], p[1]))
                    .collect();
                *clip = Some((*end_slot, polygon_mask(w, h, &pts)));
            }
            return;
        }
        _ => return,
    };
    let Some(path) = region_path(att, slot.sequence_index) else {
        return;
    };
    let Some(rr) = textures.region(&path) else {
        missing.push(path.into_owned());
        return;
    };
    world.clear();
    uvs.clear();
    tri.clear();
    match &att.kind {
        AttachmentKind::Region(r) => {
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
                let (u, v) = packed_to_uv(&rr, qx, qy);
                uvs.push(u);
                uvs.push(v);
            }
            tri.extend_from_slice(&[0, 1, 2, 2, 3, 0]);
        }
        AttachmentKind::Mesh(m) => {
            let vd = &m.vertices;
            world.resize(vd.world_len, 0.0);
            sk.vertex_world_positions(slot_index, vd, 0, vd.world_len, world, 0, 2);
            let reg = rr.region;
            let (ow, oh) = (
                f64::from(reg.original_width),
                f64::from(reg.original_height),
            );
            let top = oh - reg.offset_y - f64::from(reg.height);
            for p in m.uvs.chunks_exact(2) {
                let qx = f64::from(p[0]) * ow - reg.offset_x;
                let qy = f64::from(p[1]) * oh - top;
                let (u, v) = packed_to_uv(&rr, qx, qy);
                uvs.push(u);
                uvs.push(v);
            }
            tri.extend_from_slice(&m.triangles);
        }
        _ => return,
    }
    let q = |v: f64| ((v.clamp(0.0, 1.0) * 255.0).trunc() / 255.0) as f32;
    let (sc, tc, ac) = (sk.color, slot.color, attachment_color);
    let light = [
        q(sc.r * tc.r * ac.r),
        q(sc.g * tc.g * ac.g),
        q(sc.b * tc.b * ac.b),
        q(sc.a * tc.a * ac.a),
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
        .map(|p| camera.to_pixel(p[0], p[1]))
        .collect();
    let mask = clip.as_ref().map(|(_, m)| m.as_slice());
    for t in tri.chunks_exact(3) {
        let (i0, i1, i2) = (t[0] as usize, t[1] as usize, t[2] as usize);
        if i0 >= n || i1 >= n || i2 >= n || uvs.len() < n * 2 {
            continue;
        }
        let uv = [
            (uvs[i0 * 2], uvs[i0 * 2 + 1]),
            (uvs[i1 * 2], uvs[i1 * 2 + 1]),
            (uvs[i2 * 2], uvs[i2 * 2 + 1]),
        ];
        cover(w, h, [px[i0], px[i1], px[i2]], |x, y, b| {
            let i = y * w + x;
            if mask.is_some_and(|m| !m[i]) {
                return;
            }
            let u = b[0] * uv[0].0 + b[1] * uv[1].0 + b[2] * uv[2].0;
            let v = b[0] * uv[0].1 + b[1] * uv[1].1 + b[2] * uv[2].1;
            let texel = bilinear(rr.image, u, v);
            let src = shade(texel, light, dark, offset);
            blend(&mut pixels[i], src, mode);
        });
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
