//! A DragonBones 5.6 surface bone's lattice: a grid of vertices its children are placed through.

/// The lattice of a DragonBones surface bone: `segments_x` x `segments_y` cells over
/// (`segments_x` + 1) x (`segments_y` + 1) vertices, row by row from the top, in the surface
/// bone's parent's space (y up, as the rest of the core). The grid's own space is a 400 x 400
/// square centred on the origin; a child's position is a point of that square, which the
/// lattice maps into the parent's space (see `core::skeleton::lattice`).
#[derive(Clone, Debug, PartialEq)]
pub struct Lattice {
    pub segments_x: usize,
    pub segments_y: usize,
    /// x, y pairs, `(segments_x + 1) * (segments_y + 1)` of them.
    pub vertices: Vec<f64>,
}

impl Lattice {
    /// The vertex count the segments call for, `None` on overflow.
    pub fn vertex_count(segments_x: usize, segments_y: usize) -> Option<usize> {
        segments_x
            .checked_add(1)?
            .checked_mul(segments_y.checked_add(1)?)
    }
}
