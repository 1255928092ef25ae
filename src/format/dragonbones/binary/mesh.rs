//! Mesh displays of a `.dbbin`: the header names where each starts in the int array; the
//! counts, triangles and bone lists are there, vertex positions, uvs and bound weights in the
//! float array.

use super::super::ctx::{Ctx, join};
use super::super::dto;
use super::super::lenient::{DisplayType, Num};
use super::arrays::Arrays;
use crate::format::LoadError;
use crate::format::json::Seg::{self, Index, Key};

/// Fills `vertices`, `uvs`, `triangles` and (skinned) `bound` of every mesh display of `arm`.
pub fn read_meshes(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    arm: &mut dto::Armature,
    arrays: &Arrays,
) -> Result<(), LoadError> {
    let bones = arm.bone.len();
    for (si, skin) in arm.skin.iter_mut().enumerate() {
        for (ssi, ss) in skin.slot.iter_mut().enumerate() {
            for (di, d) in ss.display.iter_mut().enumerate() {
                if d.kind != DisplayType::Mesh || !d.vertices.is_empty() {
                    continue;
                }
                let dat = join(
                    at,
                    &[
                        Key("skin"),
                        Index(si),
                        Key("slot"),
                        Index(ssi),
                        Key("display"),
                        Index(di),
                        Key("offset"),
                    ],
                );
                let Some(offset) = index(d.offset) else {
                    return Err(cx.err(&dat, "a binary mesh needs an int array offset"));
                };
                read_mesh(cx, &dat, d, offset, bones, arrays)?;
            }
        }
    }
    Ok(())
}

/// A whole, non-negative number as an index.
pub fn index(v: Num) -> Option<usize> {
    v.0.filter(|v| *v >= 0.0 && v.fract() == 0.0 && *v <= u32::MAX as f64)
        .map(|v| v as usize)
}

/// An int16 that counts or indexes something: negative values are errors.
fn count(arrays: &Arrays, i: usize, what: &str) -> Result<usize, LoadError> {
    let v = arrays.int.at(i)?;
    usize::try_from(v).map_err(|_| arrays.int.err(i, format!("{what} {v} is negative")))
}

fn read_mesh(
    cx: &Ctx<'_>,
    at: &[Seg<'_>],
    d: &mut dto::Display,
    offset: usize,
    bones: usize,
    arrays: &Arrays,
) -> Result<(), LoadError> {
    let o = |k: usize| {
        offset
            .checked_add(k)
            .ok_or_else(|| cx.err(at, "offset too large"))
    };
    let n = count(arrays, o(0)?, "vertex count")?;
    let triangles = count(arrays, o(1)?, "triangle count")?;
    let floats = count(arrays, o(2)?, "float offset")?;
    let weights = arrays.int.at(o(3)?)?;
    cx.spend((n * 4 + triangles * 3) * 8, at)?;
    let tri = arrays.int.slice(o(4)?, triangles * 3)?;
    d.triangles = tri.iter().map(|&v| v as u16 as u32).collect();
    let xy = arrays.float.slice(floats, n * 2)?;
    d.vertices = xy.iter().map(|&v| v as f64).collect();
    let uv = arrays.float.slice(floats + n * 2, n * 2)?;
    d.uvs = uv.iter().map(|&v| v as f64).collect();
    if weights < 0 {
        return Ok(());
    }
    // Bone count, float offset of the bound vertices, the mesh's bones (file indices), then per
    // vertex its influence count and indices into the mesh's bones; per influence the floats
    // are weight, x, y in that bone's bind space.
    let w = weights as usize;
    let mesh_bones = count(arrays, w, "bone count")?;
    let mut f = count(arrays, w + 1, "weight float offset")?;
    let mut list = Vec::with_capacity(mesh_bones);
    for k in 0..mesh_bones {
        let b = count(arrays, w + 2 + k, "bone index")?;
        if b >= bones {
            return Err(cx.err(
                at,
                format!("mesh bone {b} is not a bone of the armature ({bones})"),
            ));
        }
        list.push(b);
    }
    let mut i = w + 2 + mesh_bones;
    let mut bound = Vec::with_capacity(n);
    for _ in 0..n {
        let c = count(arrays, i, "influence count")?;
        cx.spend(c * 32, at)?;
        let mut per = Vec::with_capacity(c.min(mesh_bones));
        for k in 0..c {
            let local = count(arrays, i + 1 + k, "influence bone")?;
            let bone = *list.get(local).ok_or_else(|| {
                cx.err(
                    at,
                    format!("influence bone {local} is not one of the mesh's {mesh_bones} bones"),
                )
            })?;
            let v = arrays.float.slice(f, 3)?;
            per.push(dto::Influence {
                bone,
                weight: v[0] as f64,
                x: v[1] as f64,
                y: v[2] as f64,
            });
            f += 3;
        }
        bound.push(per);
        i += 1 + c;
    }
    d.bound = Some(bound);
    Ok(())
}
