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
//! The runtime also keeps, for one update of the skeleton, the map each triangle gave,
//! under a "slot" number, and a later child whose triangle has the same slot gets the
//! cached map instead of its own. The slots collide (probed with DragonBonesJS 5.6.300 on
//! lattices of 1 to 8 columns and rows, all vertices bent; tests/fixtures/dragonbones5):
//! a cell's triangle `t` (0 top-left, 1 bottom-right) of column `c`, row `r` is
//! `2 (r sx + c) + t`; the top band's `sx (sy + 1) + 2 c + t`, which falls on inner cells
//! once there are two rows or more; the left band's `2 r + t` and the bottom band's
//! `2 (sy - sx) + 2 k + t` share a second range, `k` being the point's depth below the
//! lattice in rows (`floor((y - 200) / (400 / sy))`, the row index where the column index
//! belongs), so the bottom band cells of one depth share a slot whatever their column, and
//! some depths share a left band row's; the right band has slots of its own. [`MapCache`] is that cache: the
//! skeleton clears it at each world transform update and children use it in update order.

use super::ParentFrame;
use crate::core::model::Lattice;

/// Half the side of the lattice's square.
const HALF: f64 = 200.0;
/// How far the bands around the lattice reach.
const FAR: f64 = 1000.0;

/// An affine map `[a, b, c, d, x, y]`: (u, v) goes to (a u + b v + x, c u + d v + y).
pub type Affine = [f64; 6];

/// Writes `lattice`'s vertices, moved by `offsets` (x, y per vertex, possibly fewer; empty:
/// none), each put where `place` takes it, into `out` (core y-up coordinates).
///
/// `on_surface`: the lattice's bone lies on another surface. DragonBonesJS 5.6.300 then
/// moves each vertex by its x offset along both axes (x and, in the file's y-down
/// convention, y) and drops the y offset (probed: y offsets alone move nothing, an x
/// offset `d` moves the vertex as `(d, d)` would); reproduced.
pub fn place_vertices(
    lattice: &Lattice,
    offsets: &[f64],
    on_surface: bool,
    out: &mut Vec<f64>,
    mut place: impl FnMut(f64, f64) -> (f64, f64),
) {
    out.clear();
    for (i, v) in lattice.vertices.chunks_exact(2).enumerate() {
        let (dx, dy) = match offsets.get(2 * i..2 * i + 2) {
            Some(&[dx, _]) if on_surface => (dx, -dx),
            Some(&[dx, dy]) => (dx, dy),
            _ => (0.0, 0.0),
        };
        let (x, y) = place(v[0] + dx, v[1] + dy);
        out.extend([x, y]);
    }
}

/// The map through which a lattice whose vertices lie at `placed` (from
/// [`place_vertices`], core y-up) places a point `(x, y)` of its square (y up), from the
/// square to where the vertices lie: the map of the point's triangle, or the one `cache`
/// holds for the triangle's slot (see the module's notes).
pub fn placement(
    lattice: &Lattice,
    placed: &[f64],
    x: f64,
    y: f64,
    cache: &mut MapCache,
) -> Affine {
    // Worked out in the file's y-down convention, where the runtime's rules are simple.
    let grid = Grid::new(lattice, placed);
    let (own, slot) = grid.map_at(x, -y);
    let map = match slot {
        Some(slot) => cache.get_or_insert(slot, own),
        None => own,
    };
    to_core(map)
}

/// Where `m` takes the point (x, y).
pub fn apply([a, b, c, d, tx, ty]: Affine, x: f64, y: f64) -> (f64, f64) {
    (a * x + b * y + tx, c * x + d * y + ty)
}

/// The surface bone's own map (the hull map) for vertices at `placed`, core y-up.
pub fn hull(lattice: &Lattice, placed: &[f64]) -> Affine {
    to_core(Grid::new(lattice, placed).hull)
}

/// An affine map as a world frame.
pub fn frame([a, b, c, d, world_x, world_y]: Affine) -> ParentFrame {
    ParentFrame {
        a,
        b,
        c,
        d,
        world_x,
        world_y,
    }
}

/// Flips a y-down affine map into the core's y-up convention (y negated in and out).
fn to_core([a, b, c, d, x, y]: Affine) -> Affine {
    [a, -b, -c, d, x, -y]
}

/// Which cached map a triangle of the lattice or of a band uses (the runtime's numbering).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Slot {
    /// Cells and the top band.
    Grid(i128),
    /// The left and the bottom band.
    LeftBottom(i128),
    /// The right band.
    Right(i128),
}

/// The triangle maps one surface bone's children got in one update, by slot (y down).
/// Hashed: a file can put many children under a large lattice, and a search per child would
/// make each update quadratic.
#[derive(Clone, Debug, Default)]
pub struct MapCache {
    entries: foldhash::HashMap<Slot, Affine>,
}

impl MapCache {
    /// Forgets every map (a new update).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The map cached for `slot`, or `own`, which it caches.
    fn get_or_insert(&mut self, slot: Slot, own: Affine) -> Affine {
        *self.entries.entry(slot).or_insert(own)
    }
}

/// The lattice in the file's y-down convention.
struct Grid<'a> {
    sx: usize,
    sy: usize,
    /// Core y-up vertex pairs, where they lie.
    vertices: &'a [f64],
    hull: Affine,
}

impl<'a> Grid<'a> {
    fn new(lattice: &Lattice, vertices: &'a [f64]) -> Grid<'a> {
        let (sx, sy) = (lattice.segments_x.max(1), lattice.segments_y.max(1));
        let mut g = Grid {
            sx,
            sy,
            vertices,
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
        match self.vertices.get(i..i + 2) {
            Some(&[x, y]) => (x, -y),
            _ => (0.0, 0.0),
        }
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

    /// The map of the triangle holding (u, v) (y down), with its cache slot; the hull map,
    /// with none, in the corners and beyond the bands.
    fn map_at(&self, u: f64, v: f64) -> (Affine, Option<Slot>) {
        let inside = |t: f64| (-HALF..HALF).contains(&t);
        let in_band = |t: f64| (-FAR..=FAR).contains(&t);
        let (sx, sy) = (self.sx, self.sy);
        let (isx, isy) = (sx as i128, sy as i128);
        if inside(u) && inside(v) {
            let (c, fu) = Self::cell(u, sx);
            let (r, fv) = Self::cell(v, sy);
            let (tl, tr) = (self.pair(c, r), self.pair(c + 1, r));
            let (bl, br) = (self.pair(c, r + 1), self.pair(c + 1, r + 1));
            let cell = (r as i128).saturating_mul(isx).saturating_add(c as i128);
            let slot = Slot::Grid(cell.saturating_mul(2).saturating_add(half(fu, fv)));
            return (quad(tl, tr, bl, br, fu, fv), Some(slot));
        }
        if inside(v) && in_band(u) {
            // Left or right band: the row's outer cell reaches out to the hull at +-FAR.
            let (r, fv) = Self::cell(v, sy);
            let (top, bottom) = (Self::line(r, sy), Self::line(r + 1, sy));
            let row = (r as i128).saturating_mul(2);
            return if u >= HALF {
                let fu = (u - HALF) / (FAR - HALF);
                let (tr, br) = (self.hull_pair((FAR, top)), self.hull_pair((FAR, bottom)));
                let map = quad(self.pair(sx, r), tr, self.pair(sx, r + 1), br, fu, fv);
                (map, Some(Slot::Right(row + half(fu, fv))))
            } else {
                let fu = (u + FAR) / (FAR - HALF);
                let (tl, bl) = (self.hull_pair((-FAR, top)), self.hull_pair((-FAR, bottom)));
                let map = quad(tl, self.pair(0, r), bl, self.pair(0, r + 1), fu, fv);
                (map, Some(Slot::LeftBottom(row + half(fu, fv))))
            };
        }
        if inside(u) && in_band(v) {
            // Top or bottom band: the column's outer cell.
            let (c, fu) = Self::cell(u, sx);
            let (left, right) = (Self::line(c, sx), Self::line(c + 1, sx));
            return if v >= HALF {
                let fv = (v - HALF) / (FAR - HALF);
                let (bl, br) = (self.hull_pair((left, FAR)), self.hull_pair((right, FAR)));
                let map = quad(self.pair(c, sy), self.pair(c + 1, sy), bl, br, fu, fv);
                // The runtime's slip: the depth in rows where the column belongs.
                let depth = ((v - HALF) / (2.0 * HALF / sy as f64)).floor() as i128;
                let slot = isy
                    .saturating_sub(isx)
                    .saturating_add(depth)
                    .saturating_mul(2)
                    .saturating_add(half(fu, fv));
                (map, Some(Slot::LeftBottom(slot)))
            } else {
                let fv = (v + FAR) / (FAR - HALF);
                let (tl, tr) = (self.hull_pair((left, -FAR)), self.hull_pair((right, -FAR)));
                let map = quad(tl, tr, self.pair(c, 0), self.pair(c + 1, 0), fu, fv);
                let base = isx.saturating_mul(isy.saturating_add(1));
                let column = (c as i128).saturating_mul(2).saturating_add(half(fu, fv));
                (map, Some(Slot::Grid(base.saturating_add(column))))
            };
        }
        (self.hull, None)
    }
}

/// A point of the square and where the lattice puts it.
type Pair = ((f64, f64), (f64, f64));

/// Which triangle of a cell holds the point at fractions (`fu`, `fv`) across it: 0 the
/// top-left one (up to the diagonal), 1 the bottom-right one.
fn half(fu: f64, fv: f64) -> i128 {
    if fu + fv <= 1.0 { 0 } else { 1 }
}

/// The map of a cell's triangle that holds the point at fractions (`fu`, `fv`) across it:
/// top-left (`tl`, `tr`, `bl`) up to the diagonal, else bottom-right (`br`, `bl`, `tr`).
fn quad(tl: Pair, tr: Pair, bl: Pair, br: Pair, fu: f64, fv: f64) -> Affine {
    if half(fu, fv) == 0 {
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
            placement(&l, &l.vertices, at.0, at.1, &mut MapCache::default()),
            at,
            [0.35, -0.05, -0.075, 0.275, 37.5, -37.5],
        );
        // On the diagonal: the top-left triangle.
        check(
            placement(&l, &l.vertices, 0.0, 0.0, &mut MapCache::default()),
            (0.0, 0.0),
            [0.25, -0.025, 0.025, 0.25, -5.0, -5.0],
        );
    }

    #[test]
    fn bands_reach_the_hull_and_corners_take_it() {
        let l = bent();
        let at = (300.0, 0.0);
        check(
            placement(&l, &l.vertices, at.0, at.1, &mut MapCache::default()),
            at,
            [0.3125, -0.040625, -0.075, 0.275, 96.25, -19.0625],
        );
        let at = (-250.0, 250.0);
        let [x, y] = [[0.3, -0.0375], [-0.025, 0.2625]];
        let corner = placement(&l, &l.vertices, at.0, at.1, &mut MapCache::default());
        check(corner, at, [x[0], x[1], y[0], y[1], -76.25, 67.5]);
        check(
            hull(&l, &l.vertices),
            (0.0, 0.0),
            [x[0], x[1], y[0], y[1], 5.0, -7.5],
        );
    }

    /// A generic 3 x 2 lattice (every vertex off the regular grid).
    fn bent_3x2() -> Lattice {
        let mut vertices = Vec::new();
        for r in 0..=2 {
            for c in 0..=3 {
                let (x, y) = (-100.0 + 200.0 * c as f64 / 3.0, 100.0 - 100.0 * r as f64);
                let (i, j) = ((c * c * 7 + r * 5) % 13, (r * r * 11 + c * c * c) % 17);
                vertices.extend([x + i as f64, y - j as f64]);
            }
        }
        Lattice {
            segments_x: 3,
            segments_y: 2,
            vertices,
        }
    }

    fn same(a: Affine, b: Affine) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
    }

    /// Core y-up coordinates of a point given y down.
    fn place(l: &Lattice, (x, y): (f64, f64), cache: &mut MapCache) -> Affine {
        placement(l, &l.vertices, x, -y, cache)
    }

    #[test]
    fn the_first_child_of_a_slot_sets_its_map_for_the_update() {
        let l = bent_3x2();
        let fresh = |p| place(&l, p, &mut MapCache::default());
        // The top band's first column, top-left triangle, has the slot of cell (1, 1)'s
        // bottom-right triangle: 3 * (2 + 1) = 9 = 2 * (1 * 3 + 1) + 1.
        let (top, inner) = ((-180.0, -900.0), (-10.0, 150.0));
        assert!(!same(fresh(top), fresh(inner)));
        let mut cache = MapCache::default();
        let first = place(&l, top, &mut cache);
        assert!(same(first, fresh(top)));
        assert!(same(place(&l, inner, &mut cache), first));
        // Cleared, the cell's own map again.
        cache.clear();
        assert!(same(place(&l, inner, &mut cache), fresh(inner)));
    }

    #[test]
    fn the_bottom_band_keys_its_cells_by_depth_not_column() {
        let l = bent_3x2();
        let fresh = |p| place(&l, p, &mut MapCache::default());
        let mut cache = MapCache::default();
        // Rows are 200 deep: y 200..400 is depth 0, whatever the column.
        let first = place(&l, (-180.0, 250.0), &mut cache);
        assert!(same(place(&l, (150.0, 300.0), &mut cache), first));
        assert!(!same(fresh((150.0, 300.0)), first));
        // Depth 1 (y 400..600) is another slot: its own map.
        let deeper = (150.0, 450.0);
        assert!(same(place(&l, deeper, &mut cache), fresh(deeper)));
        // ... which the left band's row 0 top-left triangle shares (2 (2 - 3) + 2 = 0).
        assert!(same(place(&l, (-900.0, -150.0), &mut cache), fresh(deeper)));
        // The right band has slots of its own.
        let right = (300.0, -190.0);
        assert!(same(place(&l, right, &mut cache), fresh(right)));
    }

    #[test]
    fn a_lattice_on_a_surface_moves_by_its_x_offsets_along_both_axes() {
        let l = bent();
        let offsets = [10.0, 4.0, 0.0, -7.0];
        let mut out = Vec::new();
        place_vertices(&l, &offsets, false, &mut out, |x, y| (x, y));
        assert_eq!(out[..4], [-40.0, 54.0, 50.0, 33.0]);
        // On a surface (core y up: the file's y down + 10 is core y - 10).
        place_vertices(&l, &offsets, true, &mut out, |x, y| (x, y));
        assert_eq!(out[..4], [-40.0, 40.0, 50.0, 40.0]);
        assert_eq!(out[4..], l.vertices[4..]);
    }
}
