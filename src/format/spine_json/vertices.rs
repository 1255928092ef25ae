//! Vertex lists: plain x, y pairs or weighted influences.

use crate::core::model::VertexData;

/// What is wrong with a vertex list: the index of the offending value (`None`: the list as a
/// whole) and a message.
#[derive(Debug, PartialEq)]
pub struct VertexError {
    pub index: Option<usize>,
    pub message: String,
}

fn fail<T>(index: Option<usize>, message: String) -> Result<T, VertexError> {
    Err(VertexError { index, message })
}

/// A non-negative integer stored in a vertex list (an influence count or a bone index).
fn as_index(v: f32) -> Option<usize> {
    (v >= 0.0 && v.fract() == 0.0 && v <= u32::MAX as f32).then_some(v as usize)
}

/// Reads `vertex_count` vertices from `raw`.
///
/// With exactly 2 values per vertex the list is x, y pairs. With more it is weighted: per
/// vertex the influence count, then per influence the bone index, bind x, bind y and weight.
/// Never allocates more than the data present, whatever `vertex_count` claims.
pub fn vertex_data(
    raw: Vec<f32>,
    vertex_count: usize,
    bone_count: usize,
) -> Result<VertexData, VertexError> {
    let world_len = vertex_count.saturating_mul(2);
    if raw.len() == world_len {
        return Ok(VertexData {
            bones: None,
            vertices: raw,
            world_len,
        });
    }
    if raw.len() < world_len {
        return fail(
            None,
            format!(
                "{} vertex values are too few for {vertex_count} vertices (need {world_len}, or more when weighted)",
                raw.len()
            ),
        );
    }
    let mut bones = Vec::with_capacity(vertex_count + raw.len() / 4);
    let mut vertices = Vec::with_capacity(raw.len() / 4 * 3);
    let mut i = 0;
    for v in 0..vertex_count {
        let Some(&count) = raw.get(i) else {
            return fail(
                None,
                format!("weighted vertex data ends after {v} of {vertex_count} vertices"),
            );
        };
        let Some(n) = as_index(count) else {
            return fail(
                Some(i),
                format!("vertex {v}: the bone count must be a whole number >= 0, not {count}"),
            );
        };
        let remaining = raw.len() - i - 1;
        if n > remaining / 4 {
            return fail(
                Some(i),
                format!(
                    "vertex {v}: {n} bones need {} values but only {remaining} remain",
                    n.saturating_mul(4)
                ),
            );
        }
        bones.push(n as u32);
        i += 1;
        for _ in 0..n {
            let b = raw[i];
            match as_index(b) {
                Some(b) if b < bone_count => bones.push(b as u32),
                _ => {
                    return fail(
                        Some(i),
                        format!(
                            "vertex {v}: bone index {b} is out of range (the skeleton has {bone_count} bones)"
                        ),
                    );
                }
            }
            vertices.extend_from_slice(&raw[i + 1..i + 4]);
            i += 4;
        }
    }
    if i != raw.len() {
        return fail(
            Some(i),
            format!(
                "{} values left over after the {vertex_count} weighted vertices",
                raw.len() - i
            ),
        );
    }
    Ok(VertexData {
        bones: Some(bones),
        vertices,
        world_len,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_pairs() {
        let vd = vertex_data(vec![1.0, 2.0, 3.0, 4.0], 2, 0).unwrap();
        assert_eq!(
            vd,
            VertexData {
                bones: None,
                vertices: vec![1.0, 2.0, 3.0, 4.0],
                world_len: 4
            }
        );
    }

    #[test]
    fn weighted() {
        // v0: 1 bone (1: 5, 6, w 1); v1: 2 bones (0: 7, 8, w .5) (1: 9, 10, w .5).
        let raw = vec![
            1.0, 1.0, 5.0, 6.0, 1.0, 2.0, 0.0, 7.0, 8.0, 0.5, 1.0, 9.0, 10.0, 0.5,
        ];
        let vd = vertex_data(raw, 2, 2).unwrap();
        assert_eq!(vd.bones, Some(vec![1, 1, 2, 0, 1]));
        assert_eq!(vd.vertices, [5.0, 6.0, 1.0, 7.0, 8.0, 0.5, 9.0, 10.0, 0.5]);
        assert_eq!(vd.world_len, 4);
        assert_eq!(vd.vertex_count(), 2);
    }

    #[test]
    fn bad_weighted_data() {
        let err = |raw: Vec<f32>, n, bones| vertex_data(raw, n, bones).unwrap_err();
        // Runs past the end.
        assert_eq!(err(vec![3.0, 0.0, 1.0, 2.0, 1.0], 1, 1).index, Some(0));
        // Bone index out of range.
        assert_eq!(err(vec![1.0, 5.0, 1.0, 2.0, 1.0], 1, 2).index, Some(1));
        // Negative and fractional counts.
        assert_eq!(err(vec![-1.0, 0.0, 1.0, 2.0, 1.0], 1, 1).index, Some(0));
        assert_eq!(err(vec![1.5, 0.0, 1.0, 2.0, 1.0], 1, 1).index, Some(0));
        // Left-over values.
        assert_eq!(err(vec![1.0, 0.0, 1.0, 2.0, 1.0, 9.0], 1, 1).index, Some(5));
        // Ends before all vertices are read.
        assert_eq!(err(vec![1.0, 0.0, 1.0, 2.0, 1.0], 2, 1).index, None);
        // Too few values.
        assert_eq!(err(vec![1.0, 2.0], 2, 1).index, None);
    }

    #[test]
    fn absurd_counts_do_not_allocate() {
        let e = vertex_data(vec![0.0; 8], 1_000_000_000, 1).unwrap_err();
        assert_eq!(e.index, None);
        assert!(e.message.contains("too few"));
        let e = vertex_data(vec![0.0; 8], usize::MAX, 1).unwrap_err();
        assert_eq!(e.index, None);
    }
}
