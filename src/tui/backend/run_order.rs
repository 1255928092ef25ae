//! The order a frame's runs of cells are printed in: a few greedy orders and orders found by
//! local search (Or-opt) over what going from each run to each other costs; each is tried and
//! rolled back, and the cheapest printed.

use super::escapes::pen_bytes;
use super::glyphs::{Glyph, blank_alike, runs};
use super::{LeanBackend, Pen};
use std::io::Write;

/// The orders a frame's runs can be printed in (none wins every frame: attribute-heavy
/// frames favour sticking to attributes, scattered ones the nearest run).
#[derive(Clone, Copy, Debug)]
pub(super) enum Order {
    /// Always the run that costs least to reach; attribute bytes weigh `pen_weight` times.
    Greedy { pen_weight: usize },
    /// Row-major, as the cells come.
    Rows,
    /// An order improved by moving runs elsewhere where that costs fewer bytes
    /// (`LeanBackend::optimised_orders`): from the start [`STARTS`]`[k]`, or, for
    /// `k == STARTS.len()`, the cheapest of those improved further by kicks.
    Optimised(usize),
}

/// Where [`Order::Optimised`] starts from (local search finds different orders from
/// different starts).
#[derive(Clone, Copy, Debug)]
pub(super) enum Start {
    /// The nearest run first.
    Nearest,
    /// Row-major.
    Rows,
}

/// (Greedy by cursor moves alone, `pen_weight: 0`, was dropped: on spineboy-pro playing at
/// 120x40 it won too rarely to pay for its search, 0.07 % of the bytes without colour and
/// none with colour, for 8 % of the viewer's instructions. Greedy sticking to attributes,
/// `pen_weight: 3`, went too: it saved 0.6 % of the bytes with colour and 0.2 % without,
/// for 0.9 M of 5.9 M instructions a frame with colour and 0.4 M of 4.9 M without.)
pub(super) const ORDERS: [Order; 5] = [
    Order::Greedy { pen_weight: 1 },
    Order::Rows,
    Order::Optimised(0),
    Order::Optimised(1),
    Order::Optimised(2),
];

/// The starts of [`Order::Optimised`], in the order it indexes them.
pub(super) const STARTS: [Start; 2] = [Start::Nearest, Start::Rows];

/// More runs than this are not ordered by [`Order::Optimised`] (its cost table grows with
/// the square of the runs).
pub(super) const MAX_OPTIMISED_RUNS: usize = 160;
/// Passes of [`or_opt`] over the route, at most (it stops when a pass finds nothing).
pub(super) const MAX_PASSES: usize = 20;
/// Runs moved together by one step of [`or_opt`], at most (the dopesheet's playhead column
/// is a dozen runs that move as one).
pub(super) const MAX_SEGMENT: usize = 16;
/// Runs after which [`or_opt`] tries to insert a segment: the ones cheapest to come from.
pub(super) const NEAR: usize = 8;
/// Kicks of the iterated local search in `LeanBackend::optimised_orders`.
pub(super) const KICKS: usize = 20;

/// More runs than this in one frame (a full repaint) are printed in row order: the greedy
/// ordering costs a number of steps that grows with the square of the runs.
pub(super) const MAX_ORDERED_RUNS: usize = 400;

impl<W: Write> LeanBackend<W> {
    /// Prints a frame's changed cells. Cells are independent, so the runs go out in the
    /// cheapest of [`ORDERS`]: each is tried and rolled back, then the best one printed.
    pub(super) fn put_frame(&mut self, glyphs: Vec<Glyph>) {
        let runs = runs(glyphs);
        if runs.len() > MAX_ORDERED_RUNS {
            self.put_runs(&runs, Order::Rows, &[]);
            self.undo.clear();
            return;
        }
        let planned = if self.order_search {
            self.optimised_orders(&runs)
        } else {
            Vec::new()
        };
        // (bytes, order, the runs in the order a greedy one printed them).
        let mut best: (usize, Order, Vec<usize>) = (usize::MAX, Order::Rows, Vec::new());
        for order in ORDERS {
            // An optimised order missing, or the same as one tried before (the kicks found
            // nothing cheaper), would print the same bytes again.
            if let Order::Optimised(k) = order
                && planned.get(k).is_none_or(|p| planned[..k].contains(p))
            {
                continue;
            }
            let start = self.checkpoint();
            let sequence = self.put_runs(&runs, order, &planned);
            let cost = self.queue.len() - start.queue;
            self.rollback(&start);
            if cost < best.0 {
                best = (cost, order, sequence);
            }
        }
        match best.1 {
            // Printing a greedy order's runs in the sequence it chose prints the same bytes,
            // without searching again.
            Order::Greedy { .. } => {
                for &i in &best.2 {
                    self.put_run(&runs[i]);
                }
            }
            order => {
                self.put_runs(&runs, order, &planned);
            }
        }
        self.undo.clear();
    }

    /// Prints `runs` in `order` (`planned`: the orders of [`Order::Optimised`]). Greedy
    /// orders keep the cursor in one panel and the attributes unchanged as long as they can;
    /// they return the indexes of the runs in the order printed (other orders: none).
    pub(super) fn put_runs(
        &mut self,
        runs: &[Vec<Glyph>],
        order: Order,
        planned: &[Vec<usize>],
    ) -> Vec<usize> {
        let pen_weight = match order {
            Order::Greedy { pen_weight } => pen_weight,
            Order::Rows => {
                runs.iter().for_each(|run| self.put_run(run));
                return Vec::new();
            }
            Order::Optimised(k) => {
                for &i in planned.get(k).into_iter().flatten() {
                    self.put_run(&runs[i]);
                }
                return Vec::new();
            }
        };
        let mut sequence = Vec::with_capacity(runs.len());
        // Attributes by number: 0 is the current one (perhaps unknown), then each run's own,
        // so that what switching costs is a table look-up (comparing attributes is most of
        // what a candidate costs otherwise).
        let mut pens: Vec<Option<Pen>> = vec![self.pen];
        let own: Vec<usize> = runs
            .iter()
            .map(|r| {
                let p = Some(r.first().map_or(Pen::DEFAULT, |g| g.pen));
                pens.iter().position(|&q| q == p).unwrap_or_else(|| {
                    pens.push(p);
                    pens.len() - 1
                })
            })
            .collect();
        let m = pens.len();
        // Filled in when first needed: SGR bytes from a to b, and whether a blank cell
        // looks the same in a as in b (`UNSET`: not worked out yet).
        const UNSET: u8 = u8::MAX;
        let mut sgr = vec![UNSET; m * m];
        let mut alike = vec![UNSET; m * m];
        let mut current = 0;
        // Each run with its index and whether it is all blank (what `run_pen` asks), worked
        // out once.
        let mut pending: Vec<(usize, &Vec<Glyph>, bool)> = runs
            .iter()
            .enumerate()
            .map(|(i, r)| (i, r, r.iter().all(Glyph::blank)))
            .collect();
        while !pending.is_empty() {
            let mut best = 0;
            let mut best_cost = usize::MAX;
            let mut best_pen = current;
            for (i, &(index, run, blank)) in pending.iter().enumerate() {
                let Some(g) = run.first() else { continue };
                // `run_pen`, with the blank test done.
                let own = own[index];
                let to = if blank && {
                    let a = &mut alike[current * m + own];
                    if *a == UNSET {
                        *a = u8::from(
                            pens[current]
                                .is_some_and(|p| pens[own].is_some_and(|o| blank_alike(p, o))),
                        );
                    }
                    *a == 1
                } {
                    current
                } else {
                    own
                };
                let mut cost = 0;
                if pen_weight > 0 {
                    let len = &mut sgr[current * m + to];
                    if *len == UNSET {
                        *len = match pens[to] {
                            Some(p) => pen_bytes(pens[current], p)
                                .len()
                                .min(usize::from(UNSET - 1))
                                as u8,
                            None => 0,
                        };
                    }
                    cost = pen_weight * usize::from(*len);
                }
                // A move that cannot beat the best candidate, even at its cheapest
                // conceivable, rules this one out (the exact move looks at bridges).
                if cost + self.move_len_at_least(self.cursor, g.x, g.y) >= best_cost {
                    continue;
                }
                cost += self.move_len(self.cursor, self.pen, g.x, g.y);
                if cost < best_cost {
                    best = i;
                    best_cost = cost;
                    best_pen = to;
                    if cost == 0 {
                        break;
                    }
                }
            }
            current = best_pen;
            let (index, run, _) = pending.swap_remove(best);
            sequence.push(index);
            self.put_run(run);
            debug_assert_eq!(self.pen, pens[current], "the attributes followed by number");
        }
        sequence
    }

    /// Orders of `runs` costing few bytes of cursor moves and attribute changes (one for
    /// each of [`STARTS`], then the cheapest of them improved by kicks; none when there are
    /// too many runs): from the start, segments of up to [`MAX_SEGMENT`] runs moved to
    /// wherever they cost less ([`or_opt`]), from a table of what going from each run's end
    /// to each run's start costs. The table takes the screen as it is before the frame (re-printed cells may
    /// differ by then): it guides the search, the bytes are measured by printing.
    pub(super) fn optimised_orders(&self, runs: &[Vec<Glyph>]) -> Vec<Vec<usize>> {
        let n = runs.len();
        if n > MAX_OPTIMISED_RUNS || runs.iter().any(Vec::is_empty) {
            return Vec::new();
        }
        // A blank run is printed in the current attributes when they look the same on it
        // (`run_pen`): count it in those of the nearest run it can join, as it will most
        // often be printed next to that one.
        let model: Vec<Pen> = runs
            .iter()
            .map(|r| {
                let own = r[0].pen;
                if !r.iter().all(Glyph::blank) {
                    return own;
                }
                runs.iter()
                    .filter(|o| !o.iter().all(Glyph::blank) && blank_alike(o[0].pen, own))
                    .min_by_key(|o| {
                        usize::from(o[0].x.abs_diff(r[0].x))
                            + 4 * usize::from(o[0].y.abs_diff(r[0].y))
                    })
                    .map_or(own, |o| o[0].pen)
            })
            .collect();
        // The distinct attributes and what switching between them costs.
        let mut pens: Vec<Pen> = Vec::new();
        let pen_of: Vec<usize> = model
            .iter()
            .map(|&p| {
                pens.iter().position(|&q| q == p).unwrap_or_else(|| {
                    pens.push(p);
                    pens.len() - 1
                })
            })
            .collect();
        let m = pens.len();
        let mut sgr = vec![0usize; m * m];
        for (a, &pa) in pens.iter().enumerate() {
            for (b, &pb) in pens.iter().enumerate() {
                sgr[a * m + b] = pen_bytes(Some(pa), pb).len();
            }
        }
        let first_sgr: Vec<usize> = pens.iter().map(|&p| pen_bytes(self.pen, p).len()).collect();
        // cost[i * n + j]: from the end of run i (i == n: from where the cursor is) to run j.
        let mut cost = vec![0usize; (n + 1) * n];
        for i in 0..=n {
            let (from, pen) = match runs.get(i) {
                Some(r) => (r.last().and_then(|g| self.cursor_after(g)), Some(model[i])),
                None => (self.cursor, self.pen),
            };
            for (j, run) in runs.iter().enumerate() {
                let switch = match runs.get(i) {
                    Some(_) => sgr[pen_of[i] * m + pen_of[j]],
                    None => first_sgr[pen_of[j]],
                };
                cost[i * n + j] = self.move_len(from, pen, run[0].x, run[0].y) + switch;
            }
        }
        // near[j]: the runs (or the cursor, n) cheapest to come to run j from.
        let near: Vec<Vec<usize>> = (0..n)
            .map(|j| {
                let mut from: Vec<usize> = (0..=n).filter(|&i| i != j).collect();
                from.sort_by_key(|&i| cost[i * n + j]);
                from.truncate(NEAR);
                from
            })
            .collect();
        let mut routes: Vec<Vec<usize>> = STARTS
            .iter()
            .map(|&start| {
                let mut route = vec![n];
                match start {
                    Start::Nearest => {
                        let mut left: Vec<usize> = (0..n).collect();
                        while !left.is_empty() {
                            let a = route[route.len() - 1];
                            let k = (0..left.len())
                                .min_by_key(|&k| cost[a * n + left[k]])
                                .unwrap_or(0);
                            route.push(left.swap_remove(k));
                        }
                    }
                    Start::Rows => route.extend(0..n),
                }
                or_opt(&mut route, &cost, &near, &mut vec![true; n + 1]);
                route
            })
            .collect();
        // Kicks: the cheapest route, two of its pieces swapped (a double bridge), improved
        // again, kept when cheaper (iterated local search, seeded: the output is the same
        // every time).
        let total = |r: &[usize]| -> usize { r.windows(2).map(|w| cost[w[0] * n + w[1]]).sum() };
        let mut best = routes
            .iter()
            .min_by_key(|r| total(r))
            .cloned()
            .unwrap_or_default();
        let mut best_cost = total(&best);
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        if n >= 8 {
            for _ in 0..KICKS {
                let mut cuts = [0usize; 3];
                for c in &mut cuts {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    *c = 1 + (seed % n as u64) as usize;
                }
                cuts.sort_unstable();
                let [p, q, r] = cuts;
                if p == q || q == r {
                    continue;
                }
                let mut next = best[..p].to_vec();
                next.extend_from_slice(&best[q..r]);
                next.extend_from_slice(&best[p..q]);
                next.extend_from_slice(&best[r..]);
                let mut active = vec![false; n + 1];
                for k in [p - 1, p, q - 1, q, r - 1, r] {
                    if let Some(&x) = next.get(k) {
                        active[x] = true;
                    }
                }
                or_opt(&mut next, &cost, &near, &mut active);
                let c = total(&next);
                if c < best_cost {
                    best = next;
                    best_cost = c;
                }
            }
        }
        routes.push(best);
        routes.iter_mut().for_each(|r| {
            r.remove(0);
        });
        routes
    }
}

/// Improves `route` (the cursor `n` first, then runs `0..n`) by moving segments of up to
/// [`MAX_SEGMENT`] runs, forwards or backwards, to wherever they cost fewer bytes (Or-opt):
/// `cost[i * n + j]` is what going from the end of run `i` (or the cursor) to run `j`
/// costs, the path ends anywhere. A segment is only tried after one of the [`NEAR`] runs
/// cheapest to come to its first (or last, backwards) run: far moves rarely pay. Only
/// segments starting or ending at an `active` run are tried; a run whose segments all
/// failed rests until a move changes its neighbourhood ("don't look" bits).
pub(super) fn or_opt(
    route: &mut [usize],
    cost: &[usize],
    near: &[Vec<usize>],
    active: &mut [bool],
) {
    let n = route.len() - 1;
    let c = |a: usize, b: Option<usize>| b.map_or(0, |b| cost[a * n + b] as isize);
    let place = |route: &[usize], pos: &mut [usize]| {
        for (k, &r) in route.iter().enumerate() {
            pos[r] = k;
        }
    };
    let mut pos = vec![0usize; n + 1];
    place(route, &mut pos);
    let mut ks: Vec<usize> = Vec::with_capacity(2 * NEAR + 1);
    for _ in 0..MAX_PASSES {
        let mut improved = false;
        let mut x = 1;
        while x < route.len() {
            if !active[route[x]] {
                x += 1;
                continue;
            }
            let mut moved = false;
            'segments: for len in 1..=MAX_SEGMENT.min(route.len() - 1) {
                // The segments starting and ending at x.
                for i in [x, (x + 1).saturating_sub(len)] {
                    if i < 1 || i + len > route.len() || (len == 1 && i != x) {
                        continue;
                    }
                    let (a, s, e) = (route[i - 1], route[i], route[i + len - 1]);
                    let b = route.get(i + len).copied();
                    let saved = c(a, Some(s)) + c(e, b) - c(a, b);
                    // What the segment costs more inside when turned backwards.
                    let turned: isize = (i..i + len - 1)
                        .map(|t| c(route[t + 1], Some(route[t])) - c(route[t], Some(route[t + 1])))
                        .sum();
                    // Insertion points: after a near run of either end, or at the end
                    // (edges touching the segment excluded: inserting there changes
                    // nothing).
                    ks.clear();
                    ks.extend(near[s].iter().chain(&near[e]).map(|&p| pos[p] + 1));
                    ks.push(route.len());
                    let mut best: Option<(isize, usize, bool)> = None;
                    for &k in ks.iter().filter(|&&k| k < i || k > i + len) {
                        let (p, q) = (route[k - 1], route.get(k).copied());
                        let added = c(p, Some(s)) + c(e, q) - c(p, q);
                        if added < saved && best.is_none_or(|(d, _, _)| added < d) {
                            best = Some((added, k, false));
                        }
                        let added = c(p, Some(e)) + c(s, q) - c(p, q) + turned;
                        if added < saved && best.is_none_or(|(d, _, _)| added < d) {
                            best = Some((added, k, true));
                        }
                    }
                    if let Some((_, k, backwards)) = best {
                        let (p, q) = (route[k - 1], route.get(k).copied());
                        for r in [Some(a), Some(s), Some(e), b, Some(p), q]
                            .into_iter()
                            .flatten()
                        {
                            active[r] = true;
                        }
                        if backwards {
                            route[i..i + len].reverse();
                        }
                        if k < i {
                            route[k..i + len].rotate_right(len);
                        } else {
                            route[i..k].rotate_left(len);
                        }
                        place(route, &mut pos);
                        moved = true;
                        break 'segments;
                    }
                }
            }
            if moved {
                improved = true;
            } else {
                active[route[x]] = false;
                x += 1;
            }
        }
        if !improved {
            break;
        }
    }
}
