//! Spine 4.3: a bone's local values recovered from its world transform (per inherit mode;
//! reflections come out as a negative scaleY).

use super::{Local, ParentFrame, SkeletonFrame};
use crate::core::model::Inherit;

/// ε² of the 4.3 runtime's degenerate-axis tests.
const EPS2: f64 = 1e-10;

/// World matrix and position of the bone whose local values are wanted.
#[derive(Clone, Copy)]
pub(crate) struct World {
    pub a: f64,
    pub b: f64,
    pub c: f64,
    pub d: f64,
    pub x: f64,
    pub y: f64,
}

/// Wraps degrees into (-180, 180] with one step.
fn wrap180(mut v: f64) -> f64 {
    if v > 180.0 {
        v -= 360.0;
    } else if v <= -180.0 {
        v += 360.0;
    }
    v
}

/// The local pose that gives world transform `w` under `parent` with `inherit`.
pub(crate) fn local_from_world(
    w: World,
    inherit: Inherit,
    parent: Option<ParentFrame>,
    sk: SkeletonFrame,
) -> Local {
    let rad = 1.0 / sk.deg_rad;
    let (sx, sy) = (sk.scale_x, sk.scale_y);
    // W with its rows divided by the skeleton scale.
    let (wa, wb, wc, wd) = (w.a / sx, w.b / sx, w.c / sy, w.d / sy);
    let Some(p) = parent else {
        return decompose(
            (w.x - sk.x) / sx,
            (w.y - sk.y) / sy,
            [wa, wb, wc, wd],
            0.0,
            rad,
        );
    };
    let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
    let det = pa * pd - pb * pc;
    let pid = 1.0 / det;
    let (ia, ib, ic, id) = (pd * pid, pb * pid, pc * pid, pa * pid);
    let (dx, dy) = (w.x - p.world_x, w.y - p.world_y);
    let x = dx * ia - dy * ib;
    let y = dy * id - dx * ic;
    match inherit {
        Inherit::Normal | Inherit::DragonBones { .. } => {
            let r = [
                ia * w.a - ib * w.c,
                ia * w.b - ib * w.d,
                id * w.c - ic * w.a,
                id * w.d - ic * w.b,
            ];
            decompose(x, y, r, 0.0, rad)
        }
        Inherit::OnlyTranslation => decompose(x, y, [wa, wb, wc, wd], 0.0, rad),
        Inherit::NoRotationOrReflection => {
            let (qa, qc) = (pa / sx, pc / sy);
            let s = 1.0 / (qa * qa + qc * qc);
            let k = 1.0 / (det / (sx * sy)).abs();
            let r = [
                (qa * wa + qc * wc) * s,
                (qa * wb + qc * wd) * s,
                (qa * wc - qc * wa) * k,
                (qa * wd - qc * wb) * k,
            ];
            decompose(x, y, r, qc.atan2(qa) * rad, rad)
        }
        Inherit::NoScale | Inherit::NoScaleOrReflection => {
            let (mut tx, mut ty) = (pd * w.a - pb * w.c, pa * w.c - pc * w.a);
            if det < 0.0 {
                tx = -tx;
                ty = -ty;
            }
            let rotation = ty.atan2(tx) * rad;
            let (sin, cos) = (rotation * sk.deg_rad).sin_cos();
            let mut za = (pa * cos + pb * sin) / sx;
            let mut zc = (pc * cos + pd * sin) / sy;
            let l = 1.0 / (za * za + zc * zc).sqrt();
            za *= l;
            zc *= l;
            let si = if inherit == Inherit::NoScale && (det < 0.0) != ((sx < 0.0) != (sy < 0.0)) {
                -1.0
            } else {
                1.0
            };
            let (ra, rb) = (za * wa + zc * wc, za * wb + zc * wd);
            let (rc, rd) = ((za * wc - zc * wa) * si, (za * wd - zc * wb) * si);
            let x2 = ra * ra + rc * rc;
            let y2 = rb * rb + rd * rd;
            let (shear_x, scale_x) = if x2 > EPS2 {
                (rc.atan2(ra) * rad, x2.sqrt())
            } else {
                (0.0, 0.0)
            };
            let mut scale_y = y2.sqrt();
            let shear_y = if y2 > EPS2 {
                let mut s = rd.atan2(rb) * rad;
                if ra * rd - rb * rc < 0.0 {
                    scale_y = -scale_y;
                    s += 90.0;
                } else {
                    s -= 90.0;
                }
                wrap180(s)
            } else {
                0.0
            };
            Local {
                x,
                y,
                rotation,
                scale_x,
                scale_y,
                shear_x,
                shear_y,
            }
        }
    }
}

/// Splits the local matrix `[ra, rb, rc, rd]` into rotation, scale and shearY (shearX 0).
fn decompose(x: f64, y: f64, [ra, rb, rc, rd]: [f64; 4], extra: f64, rad: f64) -> Local {
    let x2 = ra * ra + rc * rc;
    let y2 = rb * rb + rd * rd;
    let (rotation, scale_x, mut scale_y, shear_y);
    if x2 > EPS2 {
        let r0 = rc.atan2(ra) * rad;
        rotation = r0 + extra;
        scale_x = x2.sqrt();
        scale_y = y2.sqrt();
        shear_y = if y2 > EPS2 {
            let mut s = rd.atan2(rb) * rad;
            if ra * rd - rb * rc < 0.0 {
                scale_y = -scale_y;
                s += 90.0 - r0;
            } else {
                s -= 90.0 + r0;
            }
            wrap180(s)
        } else {
            0.0
        };
    } else {
        scale_x = 0.0;
        scale_y = y2.sqrt();
        shear_y = 0.0;
        rotation = if y2 > EPS2 {
            rd.atan2(rb) * rad - 90.0
        } else {
            0.0
        } + extra;
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
