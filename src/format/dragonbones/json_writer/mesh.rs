//! Mesh displays of a `.dbbin` as JSON: a `.dbbin` keeps a skinned vertex in the bind space
//! of each bone holding it, JSON keeps it once (in armature space, through `slotPose`) with
//! each bone's bind matrix (`bonePose`) to reach those spaces. The bind matrices written are
//! the bones' setup world matrices, which is what the editor binds to; the vertex is the
//! weighted mean of its bone-space positions taken back to armature space (they agree when
//! the binary came from such a bind).

use super::super::dto;
use super::num;
use serde_json::{Map, Value};

/// The JSON fields of mesh display `d` (read from a `.dbbin`) written into `out`; `bind` is
/// each file bone's setup world matrix `[a, b, c, d, tx, ty]` (y-down).
pub fn write(d: &dto::Display, bind: &[[f64; 6]], out: &mut Map<String, Value>) {
    out.remove("offset");
    let nums = |v: &[f64]| Value::Array(v.iter().map(|&x| num(x)).collect());
    out.insert("uvs".into(), nums(&d.uvs));
    out.insert(
        "triangles".into(),
        Value::Array(d.triangles.iter().map(|&t| Value::from(t)).collect()),
    );
    let Some(bound) = &d.bound else {
        out.insert("vertices".into(), nums(&d.vertices));
        return;
    };
    let mut vertices = Vec::with_capacity(bound.len() * 2);
    let mut weights = Vec::new();
    let mut used: Vec<usize> = Vec::new();
    for per in bound {
        let (mut x, mut y, mut total) = (0.0, 0.0, 0.0);
        weights.push(per.len() as f64);
        for i in per {
            let [a, b, c, dd, tx, ty] = bind.get(i.bone).copied().unwrap_or(IDENTITY);
            x += i.weight * (a * i.x + c * i.y + tx);
            y += i.weight * (b * i.x + dd * i.y + ty);
            total += i.weight;
            weights.extend_from_slice(&[i.bone as f64, i.weight]);
            if !used.contains(&i.bone) {
                used.push(i.bone);
            }
        }
        if total != 0.0 && total != 1.0 {
            x /= total;
            y /= total;
        }
        vertices.extend_from_slice(&[x, y]);
    }
    used.sort_unstable();
    let mut bone_pose = Vec::with_capacity(used.len() * 7);
    for b in used {
        bone_pose.push(b as f64);
        bone_pose.extend_from_slice(&bind.get(b).copied().unwrap_or(IDENTITY));
    }
    out.insert("vertices".into(), nums(&vertices));
    out.insert("weights".into(), nums(&weights));
    out.insert("slotPose".into(), nums(&IDENTITY));
    out.insert("bonePose".into(), nums(&bone_pose));
}

const IDENTITY: [f64; 6] = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];
