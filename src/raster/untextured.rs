//! Attachments that cannot be textured (no atlas, or their region or page is missing) are
//! drawn anyway, so that a picture always shows the pose: their triangles filled with a flat,
//! translucent neutral grey under the slot's colour (through the textured triangle filler,
//! from a one-texel page), then their outline (a region's quad, a mesh's hull) and, fainter,
//! a mesh's inner triangle edges, as thin anti-aliased lines. A region of unknown size (a
//! DragonBones image without its atlas) is a small square where the image is centred, as in
//! the wireframe. When nothing at all could be textured, the bones are drawn over it all.

use super::camera::Camera;
use super::fill::{Target, Tint, fill_triangle};
use super::line::line;
use crate::core::model::BlendMode;
use crate::core::skeleton::Skeleton;
use crate::format::atlas::PageImage;

/// The neutral grey of the fill (an opaque texel, before the slot's colour).
const FILL_GREY: u8 = 0xb4;
/// Opacity of the fill (times the slot's alpha): overlapping parts show through each other.
const FILL_ALPHA: f32 = 0.35;
/// Grey level and opacity of outlines.
const OUTLINE: (f32, f32) = (0.92, 0.9);
/// Opacity of a mesh's inner triangle edges.
const INNER_ALPHA: f32 = 0.25;
/// Half the side, in pixels, of the square drawn for a region of unknown size.
const MARKER_HALF: f64 = 2.5;
/// Bones: the wireframe's (and the SVG's) bone colour, and the radius of joint dots.
const BONE: [f32; 4] = [
    0xd9 as f32 / 255.0,
    0x48 as f32 / 255.0,
    0x0f as f32 / 255.0,
    1.0,
];
const JOINT_HALF: f64 = 1.0;

/// The one-texel page that flat fills sample, made once (not per attachment drawn).
static GREY_PAGE: std::sync::LazyLock<PageImage> = std::sync::LazyLock::new(|| PageImage {
    width: 1,
    height: 1,
    rgba: vec![FILL_GREY, FILL_GREY, FILL_GREY, 255],
});

/// Draws the shape of an attachment: `px` its vertices in pixels, `triangles` indices into
/// them, the first `hull` vertices its outline in order (0: no hull, the triangle edges are
/// the outline); `inner` draws the other triangle edges faintly (a mesh's, not a region's
/// diagonal). `light` is the slot's colour times the attachment's (alpha included); the
/// fill blends with the slot's `mode`, lines normally. Indices out of range are skipped.
pub fn shape(
    target: &mut Target<'_>,
    px: &[(f64, f64)],
    triangles: &[u32],
    hull: usize,
    inner: bool,
    light: [f32; 4],
    mode: BlendMode,
) {
    let n = px.len();
    let page: &PageImage = &GREY_PAGE;
    let tint = Tint {
        light: [light[0], light[1], light[2], light[3] * FILL_ALPHA],
        dark: None,
        offset: None,
    };
    let corner = |i: u32| px.get(i as usize).copied();
    for t in triangles.chunks_exact(3) {
        if let (Some(a), Some(b), Some(c)) = (corner(t[0]), corner(t[1]), corner(t[2])) {
            let uv = [(0.5, 0.5); 3];
            fill_triangle(target, page, [a, b, c], uv, &tint, mode);
        }
    }
    let (grey, alpha) = OUTLINE;
    let color = |a: f32| {
        [
            light[0] * grey,
            light[1] * grey,
            light[2] * grey,
            light[3] * a,
        ]
    };
    let hull = hull.min(n);
    let inner_alpha = if hull >= 2 { INNER_ALPHA } else { alpha };
    for t in triangles.chunks_exact(3).filter(|_| inner || hull < 2) {
        for (i, j) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            let (i, j) = (i as usize, j as usize);
            // Each inner edge once (it is in two triangles, once each way); hull edges are
            // drawn with the hull.
            let on_hull =
                i < hull && j < hull && (i + 1 == j || j + 1 == i || i.abs_diff(j) == hull - 1);
            if i < j && j < n && !on_hull {
                line(target, px[i], px[j], 0.5, color(inner_alpha));
            }
        }
    }
    if hull >= 2 {
        for i in 0..hull {
            line(target, px[i], px[(i + 1) % hull], 0.5, color(alpha));
        }
    }
}

/// A region of unknown size: a small filled and outlined square centred on `at` (pixels).
pub fn marker(target: &mut Target<'_>, at: (f64, f64), light: [f32; 4], mode: BlendMode) {
    let h = MARKER_HALF;
    let (x, y) = at;
    let corners = [
        (x - h, y + h),
        (x - h, y - h),
        (x + h, y - h),
        (x + h, y + h),
    ];
    shape(target, &corners, &[0, 1, 2, 2, 3, 0], 4, false, light, mode);
}

/// A bone as drawn: its joint and its tip (the joint for a bone of no length), in the top
/// skeleton's world.
pub type BoneLine = [(f64, f64); 2];

/// The active bones of `sk` (as posed), mapped to the top skeleton's world by `to_top`.
pub fn bone_lines(sk: &Skeleton, to_top: impl Fn(f64, f64) -> (f64, f64), out: &mut Vec<BoneLine>) {
    for (bone, data) in sk.bones.iter().zip(&sk.data.bones) {
        if bone.active {
            let (x, y) = (bone.world_x, bone.world_y);
            let tip = (x + data.length * bone.a, y + data.length * bone.c);
            out.push([to_top(x, y), to_top(tip.0, tip.1)]);
        }
    }
}

/// Bones as lines from joint to tip, with a dot at each joint, in the wireframe's bone
/// colour.
pub fn bones(target: &mut Target<'_>, bones: &[BoneLine], camera: &Camera) {
    for &[joint, tip] in bones {
        let joint_px = camera.to_pixel(joint.0, joint.1);
        if tip != joint {
            line(target, joint_px, camera.to_pixel(tip.0, tip.1), 0.5, BONE);
        }
        line(target, joint_px, joint_px, JOINT_HALF, BONE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BG: [f32; 4] = [0.0, 0.0, 0.0, 1.0];

    fn target(px: &mut [[f32; 4]], w: usize) -> Target<'_> {
        let h = px.len() / w;
        Target {
            pixels: px,
            width: w,
            height: h,
            mask: None,
        }
    }

    #[test]
    fn a_quad_is_filled_translucent_and_outlined() {
        let w = 20;
        let mut px = vec![BG; w * w];
        let quad = [(4.5, 15.5), (4.5, 4.5), (15.5, 4.5), (15.5, 15.5)];
        shape(
            &mut target(&mut px, w),
            &quad,
            &[0, 1, 2, 2, 3, 0],
            4,
            false,
            [1.0; 4],
            BlendMode::Normal,
        );
        let at = |x: usize, y: usize| px[y * w + x];
        let inside = at(10, 10);
        let fill = f32::from(FILL_GREY) / 255.0 * FILL_ALPHA;
        assert!((inside[0] - fill).abs() < 1e-3, "{inside:?}");
        // The diagonal between the two triangles is not an edge of the outline.
        assert!((at(8, 8)[0] - fill).abs() < 1e-3, "{:?}", at(8, 8));
        // The outline is brighter than the fill, on all four sides.
        for (x, y) in [(4, 10), (15, 10), (10, 4), (10, 15)] {
            assert!(at(x, y)[0] > inside[0] + 0.3, "{x},{y}: {:?}", at(x, y));
        }
        assert_eq!(at(1, 1), BG);
        assert_eq!(at(18, 18), BG);
    }

    #[test]
    fn slot_colour_tints_and_alpha_fades() {
        let w = 12;
        let mut px = vec![BG; w * w];
        marker(
            &mut target(&mut px, w),
            (6.0, 6.0),
            [1.0, 0.0, 0.0, 1.0],
            BlendMode::Normal,
        );
        let centre = px[6 * w + 6];
        assert!(
            centre[0] > 0.0 && centre[1] == 0.0 && centre[2] == 0.0,
            "{centre:?}"
        );
        let mut px = vec![BG; w * w];
        marker(
            &mut target(&mut px, w),
            (6.0, 6.0),
            [1.0, 1.0, 1.0, 0.0],
            BlendMode::Normal,
        );
        assert!(px.iter().all(|p| *p == BG), "fully transparent slot");
    }

    #[test]
    fn mesh_inner_edges_are_fainter_than_its_hull_and_bad_indices_are_skipped() {
        let w = 20;
        let mut px = vec![BG; w * w];
        // A square hull (0..4) around a centre vertex 4: four triangles.
        let pts = [
            (2.5, 17.5),
            (2.5, 2.5),
            (17.5, 2.5),
            (17.5, 17.5),
            (10.0, 10.0),
        ];
        let tris = [0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4, 0, 1, 99];
        shape(
            &mut target(&mut px, w),
            &pts,
            &tris,
            4,
            true,
            [1.0; 4],
            BlendMode::Normal,
        );
        let at = |x: usize, y: usize| px[y * w + x][0];
        let (hull, inner, fill) = (at(2, 10), at(6, 6), at(10, 5));
        assert!(
            hull > inner && inner > fill && fill > 0.0,
            "{hull} {inner} {fill}"
        );
    }
}
