//! Free runs of rows, in time near-linear in the rectangle pairs of two
//! shapes rather than in their product with every position asked about.
//!
//! The translations at which a moving shape overlaps a fixed one are the
//! union of one box per pair of their rectangles (the Minkowski difference
//! of their interiors, as in [`ConfigSpace::without_overlaps`]). A door
//! pair's positions are a run of one row (or one column), and so is a row
//! of a corridor space's box: what is wanted of each run is the maximal
//! runs of it that no box covers. The rows are answered in order of `y` by
//! a plane sweep over the boxes with a segment tree of cover counts over
//! the columns, the sweep Bentley (1977) gave for the area of a union of
//! rectangles: a box enters the tree at its lowest row and leaves after
//! its highest, and a row's free runs are read off the tree in
//! `O((runs + 1) · log n)`. For `b` boxes and `q` rows that is
//! `O((b + q) · log(b + q))` in all, against `O(q · b)` for testing each
//! point of each run against every rectangle pair, which made a layout of
//! three 302-corner rooms take 16.5 s (issue 23).
//!
//! [`ConfigSpace::without_overlaps`]: super::ConfigSpace::without_overlaps

use super::PointBox;
use crate::layout::template::Shape;

/// A run of integer points asked about: row `y`, columns `x0..=x1`
/// (`x0 <= x1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Row {
    pub(super) y: i32,
    pub(super) x0: i32,
    pub(super) x1: i32,
}

impl Row {
    /// This run with x and y swapped: a column asked about as a row of
    /// the transposed plane.
    pub(super) fn column(x: i32, y0: i32, y1: i32) -> Self {
        Row {
            y: x,
            x0: y0,
            x1: y1,
        }
    }
}

/// The box with x and y swapped (a reflection in the diagonal), so that
/// columns can be swept as rows.
pub(super) fn transposed(b: PointBox) -> PointBox {
    PointBox {
        x0: b.y0,
        y0: b.x0,
        x1: b.y1,
        y1: b.x1,
    }
}

/// The translations `t` of `moving` at which it overlaps `fixed` (at the
/// origin), as one inclusive box per pair of their rectangles: rectangle
/// `a` of `moving` moved by `t` meets rectangle `b` of `fixed` in an open
/// area exactly when `b.x0 − a.x1 < t.x < b.x1 − a.x0` and the same in y.
/// The boxes are never empty (every rectangle is at least one unit wide),
/// and there are `fixed.rects.len() × moving.rects.len()` of them.
pub(super) fn overlap_boxes(fixed: &Shape, moving: &Shape) -> Vec<PointBox> {
    let mut boxes = Vec::with_capacity(fixed.rects.len() * moving.rects.len());
    for b in &fixed.rects {
        for a in &moving.rects {
            boxes.push(PointBox {
                x0: b.x0 - a.x1 + 1,
                y0: b.y0 - a.y1 + 1,
                x1: b.x1 - a.x0 - 1,
                y1: b.y1 - a.y0 - 1,
            });
        }
    }
    boxes
}

/// The work of [`free_runs`] over `boxes` boxes and `rows` rows (see
/// [`LayoutSettings::max_work`](crate::layout::LayoutSettings::max_work)):
/// every box enters and leaves the tree and every row is read from it,
/// each touching a few nodes per level of the tree and sorted first, so
/// `(2 · boxes + rows) · (levels + 1)` steps for a tree of `levels =
/// ⌈log₂ (2 · (boxes + rows))⌉` levels, [`STEP_UNITS`] units each.
pub(super) fn sweep_work(boxes: u64, rows: u64) -> u64 {
    let steps = 2 * boxes + rows;
    let levels = u64::from((2 * (boxes + rows)).max(1).ilog2()) + 1;
    let steps = steps
        .saturating_mul(levels + 1)
        .saturating_add(SET_UP_STEPS);
    steps.saturating_mul(STEP_UNITS)
}

/// Steps of a sweep before its first box: its lists and tree allocated
/// and sorted. Small shapes are then tested the plain way, which has
/// none (Edgar's maps build their spaces as fast as before the sweep).
const SET_UP_STEPS: u64 = 100;

/// Work units per step of the sweep: a step (a node of the tree visited,
/// or its share of a sort) took about four times as long as testing one
/// pair of rectangles, the unit of the plain way (3.6 ns against 0.9 ns
/// on the EPYC of BENCHMARKS.md, three 500-corner rooms and four 302-corner
/// ones), so that [`door_space_within`](super::door_space_within) picks the faster way
/// and a unit is about the same time either way.
const STEP_UNITS: u64 = 4;

/// Of each row of `rows`, the maximal runs of it that no box of `boxes`
/// covers, each as a box one point high; rows in order of `(y, x0, x1)`,
/// the runs of a row from left to right.
pub(super) fn free_runs(boxes: &[PointBox], rows: &[Row]) -> Vec<PointBox> {
    let mut out = Vec::new();
    if rows.is_empty() {
        return out;
    }
    // Every column where coverage may change: the ends of boxes and rows
    // (an inclusive end `x1` changes it at `x1 + 1`).
    let mut xs: Vec<i32> = Vec::with_capacity(2 * (boxes.len() + rows.len()));
    for b in boxes {
        xs.extend([b.x0, b.x1 + 1]);
    }
    for r in rows {
        xs.extend([r.x0, r.x1 + 1]);
    }
    xs.sort_unstable();
    xs.dedup();
    let mut tree = CoverTree::new(xs);
    // A box is in the tree from its lowest row to its highest: it enters
    // at `y0` and leaves at `y1 + 1`.
    let mut events: Vec<(i32, bool, &PointBox)> = Vec::with_capacity(2 * boxes.len());
    for b in boxes {
        events.push((b.y0, true, b));
        events.push((b.y1 + 1, false, b));
    }
    events.sort_unstable_by_key(|&(y, enters, b)| (y, enters, *b));
    let mut sorted: Vec<Row> = rows.to_vec();
    sorted.sort_unstable_by_key(|r| (r.y, r.x0, r.x1));
    let mut next = 0;
    let mut runs = Vec::new();
    for row in sorted {
        while let Some(&(y, enters, b)) = events.get(next) {
            if y > row.y {
                break;
            }
            tree.add(b.x0, b.x1, if enters { 1 } else { -1 });
            next += 1;
        }
        runs.clear();
        tree.free_runs(row.x0, row.x1, &mut runs);
        out.extend(runs.iter().map(|&(x0, x1)| PointBox {
            x0,
            y0: row.y,
            x1,
            y1: row.y,
        }));
    }
    out
}

/// A segment tree over the elementary column ranges `[xs[i], xs[i + 1])`
/// that counts, per node, the boxes covering the node's whole range and
/// not its parent's (so no count is ever pushed down), and keeps whether
/// some, or every, column below is covered by no box at or below the node.
struct CoverTree {
    /// The column boundaries, sorted and distinct; leaf `i` is
    /// `xs[i]..xs[i + 1]`.
    xs: Vec<i32>,
    /// Per node (root 1, children `2k` and `2k + 1`): boxes covering the
    /// node's whole range but not its parent's.
    cover: Vec<i32>,
    /// Per node: some column of its range is free of the boxes at or
    /// below it.
    some_free: Vec<bool>,
    /// Per node: every column of its range is free of the boxes at or
    /// below it.
    all_free: Vec<bool>,
}

impl CoverTree {
    fn new(xs: Vec<i32>) -> Self {
        let nodes = 4 * xs.len().max(2);
        Self {
            xs,
            cover: vec![0; nodes],
            some_free: vec![true; nodes],
            all_free: vec![true; nodes],
        }
    }

    /// The number of leaves.
    fn leaves(&self) -> usize {
        self.xs.len() - 1
    }

    /// The leaf that starts at column `x` (a boundary of `xs`).
    fn leaf(&self, x: i32) -> usize {
        self.xs.partition_point(|&c| c < x)
    }

    /// Adds `delta` boxes over columns `x0..=x1` (both ends among the
    /// boundaries: `x0` and `x1 + 1` are in `xs`).
    fn add(&mut self, x0: i32, x1: i32, delta: i32) {
        let (lo, hi) = (self.leaf(x0), self.leaf(x1 + 1));
        self.update(1, 0, self.leaves(), lo, hi, delta);
    }

    /// [`CoverTree::add`] for leaves `lo..hi` below `node`, which spans
    /// leaves `l..r`.
    fn update(&mut self, node: usize, l: usize, r: usize, lo: usize, hi: usize, delta: i32) {
        if hi <= l || r <= lo {
            return;
        }
        if lo <= l && r <= hi {
            self.cover[node] += delta;
        } else {
            let mid = (l + r) / 2;
            self.update(2 * node, l, mid, lo, hi, delta);
            self.update(2 * node + 1, mid, r, lo, hi, delta);
        }
        self.pull(node, l, r);
    }

    /// Recomputes `node`'s flags from its count and its children's flags.
    fn pull(&mut self, node: usize, l: usize, r: usize) {
        let (some, all) = if self.cover[node] > 0 {
            (false, false)
        } else if r - l == 1 {
            (true, true)
        } else {
            let (a, b) = (2 * node, 2 * node + 1);
            (
                self.some_free[a] || self.some_free[b],
                self.all_free[a] && self.all_free[b],
            )
        };
        self.some_free[node] = some;
        self.all_free[node] = all;
    }

    /// Appends to `out` the maximal free runs of columns `x0..=x1` (both
    /// ends among the boundaries), left to right, as inclusive pairs.
    fn free_runs(&self, x0: i32, x1: i32, out: &mut Vec<(i32, i32)>) {
        let (lo, hi) = (self.leaf(x0), self.leaf(x1 + 1));
        self.collect(1, 0, self.leaves(), lo, hi, out);
    }

    /// [`CoverTree::free_runs`] below `node`, which spans leaves `l..r`.
    /// A node whose whole range is free is taken at once, so a run costs
    /// the `O(log n)` nodes it decomposes into, not its leaves.
    fn collect(
        &self,
        node: usize,
        l: usize,
        r: usize,
        lo: usize,
        hi: usize,
        out: &mut Vec<(i32, i32)>,
    ) {
        if hi <= l || r <= lo || !self.some_free[node] {
            return;
        }
        if lo <= l && r <= hi && self.all_free[node] {
            let (start, end) = (self.xs[l], self.xs[r] - 1);
            match out.last_mut() {
                // Touching the run before it: the same run goes on.
                Some(last) if last.1 + 1 == start => last.1 = end,
                _ => out.push((start, end)),
            }
            return;
        }
        // Not wholly free, so not a leaf (a free leaf is wholly free).
        let mid = (l + r) / 2;
        self.collect(2 * node, l, mid, lo, hi, out);
        self.collect(2 * node + 1, mid, r, lo, hi, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxed(x0: i32, y0: i32, x1: i32, y1: i32) -> PointBox {
        PointBox { x0, y0, x1, y1 }
    }

    #[test]
    fn a_row_loses_exactly_the_columns_of_the_boxes_across_it() {
        // Two boxes over row 0 (one of them reaching row 2), one only
        // over rows 1..=3, one below.
        let boxes = [
            boxed(2, -1, 3, 0),
            boxed(5, 0, 6, 2),
            boxed(0, 1, 9, 3),
            boxed(-5, -9, 20, -2),
        ];
        let rows = [
            Row { y: 0, x0: 0, x1: 9 },
            Row { y: 2, x0: 0, x1: 9 },
            Row { y: 4, x0: 1, x1: 1 },
            Row { y: 0, x0: 4, x1: 4 },
        ];
        let got = free_runs(&boxes, &rows);
        assert_eq!(
            got,
            vec![
                boxed(0, 0, 1, 0),
                boxed(4, 0, 4, 0),
                boxed(7, 0, 9, 0),
                boxed(4, 0, 4, 0),
                boxed(1, 4, 1, 4),
            ]
        );
    }

    #[test]
    fn columns_are_rows_of_the_transposed_plane() {
        let boxes = [boxed(0, 3, 0, 4)];
        let got = free_runs(
            &boxes.map(transposed),
            &[Row::column(0, 0, 6), Row::column(1, 0, 6)],
        );
        let back: Vec<PointBox> = got.into_iter().map(transposed).collect();
        assert_eq!(
            back,
            vec![boxed(0, 0, 0, 2), boxed(0, 5, 0, 6), boxed(1, 0, 1, 6)]
        );
    }
}
