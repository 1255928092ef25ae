//! DragonBones 5.6 surface bones: where a lattice places its children.
//!
//! Observed with DragonBonesJS 5.6.300 (tests/fixtures/dragonbones5/README.md), in the
//! file's y-down convention: a child's position is a point of the lattice's 400 x 400 square
//! (x and y in [-200, 200)). Inside, the point's cell (left and top edges inclusive) splits
//! along the diagonal from its top-right to its bottom-left vertex; the triangle holding the
//! point (the top-left one when on the diagonal) gives the affine map, through its three
//! vertices, that places the child. Around the lattice, bands out to +-1000 on each side are
//! cut into cells of the same rows or columns whose outer vertices are the "hull" map's
//! images (the same triangle rule); beyond the bands, and in the corners, the hull map
//! itself: the lattice's bilinear patch over its four corner vertices, linearised at the
//! centre. The surface bone's own world transform is that hull map.
//!
//! One divergence, kept on purpose: below a lattice of several columns the runtime takes
//! the first column's band cell whatever the point's column (probed with only the bottom row
//! bent; with inner vertices bent it differs again, not worked out); this places such points
//! by their own column, as the other bands do.

use super::ParentFrame;
use crate::core::model::Lattice;

/// Half the side of the lattice's square.
const HALF: f64 = 200.0;
/// How far the bands around the lattice reach.
const FAR: f64 = 1000.0;

/// An affine map `[a, b, c, d, x, y]`: (u, v) goes to (a u + b v + x, c u + d v + y).
pub type Affine = [f64; 6];

/// The map through which a lattice, its vertices moved by `offsets` (x, y per vertex; empty:
/// none), places a point `(x, y)` of its square (core y-up coordinates in and out), from
/// the square into the surface bone's parent's space.
pub fn placement(lattice: &Lattice, offsets: &[f64], x: f64, y: f64) -> Affine {
    // Worked out in the file's y-down convention, where the runtime's rules are simple.
    let grid = Grid::new(lattice, offsets);
    to_core(grid.map_at(x, -y))
}

/// The surface bone's own map (the hull map), core y-up coordinates.
pub fn hull(lattice: &Lattice, offsets: &[f64]) -> Affine {
    to_core(Grid::new(lattice, offsets).hull)
}

/// `outer` after `inner`: first `inner`, then `outer`.
pub fn compose(outer: ParentFrame, inner: Affine) -> ParentFrame {
    let [a, b, c, d, x, y] = inner;
    ParentFrame {
        a: outer.a * a + outer.b * c,
        b: outer.a * b + outer.b * d,
        c: outer.c * a + outer.d * c,
        d: outer.c * b + outer.d * d,
        world_x: outer.a * x + outer.b * y + outer.world_x,
        world_y: outer.c * x + outer.d * y + outer.world_y,
    }
}

/// Flips a y-down affine map into the core's y-up convention (y negated in and out).
fn to_core([a, b, c, d, x, y]: Affine) -> Affine {
    [a, -b, -c, d, x, -y]
}

/// The lattice in the file's y-down convention.
struct Grid<'a> {
    sx: usize,
    sy: usize,
    /// Core y-up vertex pairs.
    vertices: &'a [f64],
    /// Offsets to add to them (possibly fewer, or none).
    offsets: &'a [f64],
    hull: Affine,
}

impl<'a> Grid<'a> {
    fn new(lattice: &'a Lattice, offsets: &'a [f64]) -> Grid<'a> {
        let (sx, sy) = (lattice.segments_x.max(1), lattice.segments_y.max(1));
        let mut g = Grid {
            sx,
            sy,
            vertices: &lattice.vertices,
            offsets,
            hull: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0],
        };
        let (c00, c10, c01, c11) = (
            g.vertex(0, 0),
            g.vertex(sx, 0),
            g.vertex(0, sy),
            g.vertex(sx, sy),
        );
        let across = 4.0 * HALF;
        g.hull = [
            (c10.0 - c00.0 + c11.0 - c01.0) / across,
            (c01.0 - c00.0 + c11.0 - c10.0) / across,
            (c10.1 - c00.1 + c11.1 - c01.1) / across,
            (c01.1 - c00.1 + c11.1 - c10.1) / across,
            (c00.0 + c10.0 + c01.0 + c11.0) / 4.0,
            (c00.1 + c10.1 + c01.1 + c11.1) / 4.0,
        ];
        g
    }

    /// Vertex (column, row), y down; the origin where the data has too few vertices.
    fn vertex(&self, col: usize, row: usize) -> (f64, f64) {
        let i = (row * (self.sx + 1) + col) * 2;
        let (x, y) = match self.vertices.get(i..i + 2) {
            Some(&[x, y]) => (x, y),
            _ => (0.0, 0.0),
        };
        let (dx, dy) = match self.offsets.get(i..i + 2) {
            Some(&[dx, dy]) => (dx, dy),
            _ => (0.0, 0.0),
        };
        (x + dx, -(y + dy))
    }

    fn hull_at(&self, (u, v): (f64, f64)) -> (f64, f64) {
        let [a, b, c, d, x, y] = self.hull;
        (a * u + b * v + x, c * u + d * v + y)
    }

    /// Grid line `i` of `n` across the square.
    fn line(i: usize, n: usize) -> f64 {
        -HALF + 2.0 * HALF * i as f64 / n as f64
    }

    /// The cell (and fraction across it) of `t` on an axis cut into `n`.
    fn cell(t: f64, n: usize) -> (usize, f64) {
        let f = (t + HALF) / (2.0 * HALF) * n as f64;
        let i = (f.floor().max(0.0) as usize).min(n - 1);
        (i, f - i as f64)
    }

    /// The vertex (column, row) with its point of the square.
    fn pair(&self, col: usize, row: usize) -> Pair {
        let at = (Self::line(col, self.sx), Self::line(row, self.sy));
        (at, self.vertex(col, row))
    }

    /// A point of the square with its image under the hull map.
    fn hull_pair(&self, at: (f64, f64)) -> Pair {
        (at, self.hull_at(at))
    }

    fn map_at(&self, u: f64, v: f64) -> Affine {
        let inside = |t: f64| (-HALF..HALF).contains(&t);
        let in_band = |t: f64| (-FAR..=FAR).contains(&t);
        let (sx, sy) = (self.sx, self.sy);
        if inside(u) && inside(v) {
            let (c, fu) = Self::cell(u, sx);
            let (r, fv) = Self::cell(v, sy);
            let (tl, tr) = (self.pair(c, r), self.pair(c + 1, r));
            let (bl, br) = (self.pair(c, r + 1), self.pair(c + 1, r + 1));
            return quad(tl, tr, bl, br, fu, fv);
        }
        if inside(v) && in_band(u) {
            // Left or right band: the row's outer cell reaches out to the hull at +-FAR.
            let (r, fv) = Self::cell(v, sy);
            let (top, bottom) = (Self::line(r, sy), Self::line(r + 1, sy));
            return if u >= HALF {
                let fu = (u - HALF) / (FAR - HALF);
                let (tr, br) = (self.hull_pair((FAR, top)), self.hull_pair((FAR, bottom)));
                quad(self.pair(sx, r), tr, self.pair(sx, r + 1), br, fu, fv)
            } else {
                let fu = (u + FAR) / (FAR - HALF);
                let (tl, bl) = (self.hull_pair((-FAR, top)), self.hull_pair((-FAR, bottom)));
                quad(tl, self.pair(0, r), bl, self.pair(0, r + 1), fu, fv)
            };
        }
        if inside(u) && in_band(v) {
            // Top or bottom band: the column's outer cell.
            let (c, fu) = Self::cell(u, sx);
            let (left, right) = (Self::line(c, sx), Self::line(c + 1, sx));
            return if v >= HALF {
                let fv = (v - HALF) / (FAR - HALF);
                let (bl, br) = (self.hull_pair((left, FAR)), self.hull_pair((right, FAR)));
                quad(self.pair(c, sy), self.pair(c + 1, sy), bl, br, fu, fv)
            } else {
                let fv = (v + FAR) / (FAR - HALF);
                let (tl, tr) = (self.hull_pair((left, -FAR)), self.hull_pair((right, -FAR)));
                quad(tl, tr, self.pair(c, 0), self.pair(c + 1, 0), fu, fv)
            };
        }
        self.hull
    }
}

/// A point of the square and where the lattice puts it.
type Pair = ((f64, f64), (f64, f64));

/// The map of a cell's triangle that holds the point at fractions (`fu`, `fv`) across it:
/// top-left (`tl`, `tr`, `bl`) up to the diagonal, else bottom-right (`br`, `bl`, `tr`).
fn quad(tl: Pair, tr: Pair, bl: Pair, br: Pair, fu: f64, fv: f64) -> Affine {
    if fu + fv <= 1.0 {
        triangle(tl, tr, bl)
    } else {
        triangle(br, bl, tr)
    }
}

/// The affine map taking each triangle corner's square point to its lattice point.
fn triangle((p0, q0): Pair, (p1, q1): Pair, (p2, q2): Pair) -> Affine {
    let (ux, uy, vx, vy) = (p1.0 - p0.0, p1.1 - p0.1, p2.0 - p0.0, p2.1 - p0.1);
    let det = ux * vy - vx * uy;
    if det == 0.0 {
        return [1.0, 0.0, 0.0, 1.0, q0.0 - p0.0, q0.1 - p0.1];
    }
    let (i00, i01, i10, i11) = (vy / det, -vx / det, -uy / det, ux / det);
    let (qux, quy, qvx, qvy) = (q1.0 - q0.0, q1.1 - q0.1, q2.0 - q0.0, q2.1 - q0.1);
    let a = qux * i00 + qvx * i10;
    let b = qux * i01 + qvx * i11;
    let c = quy * i00 + qvy * i10;
    let d = quy * i01 + qvy * i11;
    [
        a,
        b,
        c,
        d,
        q0.0 - a * p0.0 - b * p0.1,
        q0.1 - c * p0.0 - d * p0.1,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bent 1 x 1 lattice; the expected values are DragonBonesJS 5.6.300's (y flipped).
    fn bent() -> Lattice {
        Lattice {
            segments_x: 1,
            segments_y: 1,
            vertices: vec![-50.0, 50.0, 50.0, 40.0, -60.0, -50.0, 80.0, -70.0],
        }
    }

    /// Where `m` puts (x, y) and its x and y axes.
    fn check(m: Affine, (x, y): (f64, f64), want: [f64; 6]) {
        let [a, b, c, d, tx, ty] = m;
        let got = [a, c, b, d, a * x + b * y + tx, c * x + d * y + ty];
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{got:?} vs {want:?}");
        }
    }

    #[test]
    fn a_cell_splits_along_its_rising_diagonal() {
        let l = bent();
        // Bottom-right triangle (file y down: (100, 100)).
        let at = (100.0, -100.0);
        check(
            placement(&l, &[], at.0, at.1),
            at,
            [0.35, -0.05, -0.075, 0.275, 37.5, -37.5],
        );
        // On the diagonal: the top-left triangle.
        check(
            placement(&l, &[], 0.0, 0.0),
            (0.0, 0.0),
            [0.25, -0.025, 0.025, 0.25, -5.0, -5.0],
        );
    }

    #[test]
    fn bands_reach_the_hull_and_corners_take_it() {
        let l = bent();
        let at = (300.0, 0.0);
        check(
            placement(&l, &[], at.0, at.1),
            at,
            [0.3125, -0.040625, -0.075, 0.275, 96.25, -19.0625],
        );
        let at = (-250.0, 250.0);
        let [x, y] = [[0.3, -0.0375], [-0.025, 0.2625]];
        let corner = placement(&l, &[], at.0, at.1);
        check(corner, at, [x[0], x[1], y[0], y[1], -76.25, 67.5]);
        check(
            hull(&l, &[]),
            (0.0, 0.0),
            [x[0], x[1], y[0], y[1], 5.0, -7.5],
        );
    }
}
