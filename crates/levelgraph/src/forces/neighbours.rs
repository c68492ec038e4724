//! The vertices and solid springs within reach of a relaxation's moving
//! vertices, and the square cells they are put in.

use super::{RelaxParams, Spring, ALL_BELOW};
use crate::graph::Point;

/// First and last cell (column, row) of a box.
type CellRange = ((usize, usize), (usize, usize));

/// An axis-aligned box, corners included.
#[derive(Clone, Copy, Debug)]
pub(super) struct Box2 {
    pub(super) lo: Point,
    pub(super) hi: Point,
}

impl Box2 {
    /// Whether the two boxes have a point in common (edges included).
    #[inline]
    pub(super) fn meets(&self, other: &Box2) -> bool {
        !((self.hi[0] < other.lo[0])
            | (other.hi[0] < self.lo[0])
            | (self.hi[1] < other.lo[1])
            | (other.hi[1] < self.lo[1]))
    }

    /// Whether `p` is in the box (its edges included). Without
    /// short-circuits: the four tests are cheaper than the branches
    /// between them.
    #[inline]
    pub(super) fn holds(&self, p: Point) -> bool {
        !((p[0] < self.lo[0]) | (p[0] > self.hi[0]) | (p[1] < self.lo[1]) | (p[1] > self.hi[1]))
    }
}

/// The vertices and solid springs a relaxation's forces can involve, in
/// square cells as wide as the longest repulsion reach. The candidates are
/// chosen once per relaxation: for a relaxation of a few vertices (the
/// neighbourhood of an application), only what lies within reach of
/// where they can move; else everything. The cells are rebuilt every
/// step over the candidates only, so a step costs O(c + a · k) for `c`
/// candidates, `a` active vertices and `k` vertices nearby. Cells and the
/// vertices in a cell come in a fixed order, so the sums of forces are the
/// same bits every run.
#[derive(Debug, Default)]
pub(crate) struct Neighbours {
    /// Candidate vertices and solid springs, in increasing index order.
    pub(super) vertices: Vec<u32>,
    pub(super) springs: Vec<u32>,
    /// The reach (plus the lists' skin): the narrowest a cell may be.
    pub(super) cell: f64,
    /// How much farther than the reach the neighbour lists look (0
    /// without lists).
    pub(super) skin: f64,
    /// This step's cell width (at least `cell`).
    pub(super) step_cell: f64,
    pub(super) origin: Point,
    pub(super) columns: usize,
    pub(super) rows: usize,
    /// `start[c]..start[c + 1]`: the slice of `members` in cell `c`.
    pub(super) start: Vec<u32>,
    pub(super) members: Vec<u32>,
    /// Per cell, the candidate springs whose box (grown by the
    /// vertex–edge push's range) meets it.
    pub(super) spring_start: Vec<u32>,
    pub(super) spring_members: Vec<u32>,
    pub(super) ranges: Vec<CellRange>,
    /// Per candidate spring (in the order of `springs`): its box grown by
    /// the push's range, at this step's positions.
    pub(super) boxes: Vec<Box2>,
    /// Whether `boxes` were made in this relaxation; after that, only the
    /// boxes of springs with a moving end change.
    pub(super) boxed: bool,
    /// Positions in `springs` of the candidate springs with a moving end.
    pub(super) shifting: Vec<u32>,
    /// Every candidate, when there are few or cells would outnumber them.
    pub(super) all: bool,
}

impl Neighbours {
    /// Chooses the candidates for a relaxation of `active` by at most
    /// `params.max_steps` steps.
    pub(super) fn choose(
        &mut self,
        pos: &[Point],
        radius: &[f64],
        active: &[usize],
        springs: &[Spring],
        params: &RelaxParams,
        skin: f64,
    ) {
        let n = pos.len();
        let widest = radius.iter().fold(0.0f64, |w, &r| w.max(r));
        // Two vertices without radii touch at the base length
        // ([`touching`]), which may be the farther, when some have radii.
        let separation = if widest > 0.0 {
            let with_radii = 2.0 * widest + params.margin;
            if radius.iter().any(|&r| r <= 0.0) {
                with_radii.max(params.base)
            } else {
                with_radii
            }
        } else {
            params.base
        };
        self.cell = params.range * separation + skin;
        self.skin = skin;
        self.boxed = false;
        self.vertices.clear();
        self.springs.clear();
        let solid = springs.iter().enumerate().filter(|(_, s)| s.solid);
        if active.len() * 3 >= n {
            self.vertices.extend(0..n as u32);
            self.springs.extend(solid.map(|(k, _)| k as u32));
            return;
        }
        // Where the active vertices can get to (each moves at most
        // `max_step` a step; the others stay), grown by the reach.
        let travel = f64::from(params.max_steps) * params.max_step;
        // The box of the active vertices grown by `by`.
        let grown = |by: f64| {
            let mut lo = [f64::INFINITY; 2];
            let mut hi = [f64::NEG_INFINITY; 2];
            for &i in active {
                for k in 0..2 {
                    lo[k] = lo[k].min(pos[i][k] - by);
                    hi[k] = hi[k].max(pos[i][k] + by);
                }
            }
            (lo, hi)
        };
        let (lo, hi) = grown(self.cell + travel + 0.5 * params.base);
        let inside = |p: Point| p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1];
        self.vertices
            .extend((0..n).filter(|&i| inside(pos[i])).map(|i| i as u32));
        // A hair more, so that rounding cannot leave out what is exactly
        // at the edge; and a step's move is rounded to the coordinates'
        // spacing, which far from the origin (a host file's positions)
        // exceeds `max_step`'s share: at most half of `EPSILON` times the
        // coordinate per step, allowed for twice over.
        let extent = active
            .iter()
            .fold(0.0f64, |e, &i| e.max(pos[i][0].abs()).max(pos[i][1].abs()))
            + travel;
        let rounding = f64::from(params.max_steps) * extent * f64::EPSILON;
        let around = |by: f64| grown(by * (1.0 + 1e-9) + rounding);
        // A spring pushes an active vertex off itself only when its box,
        // grown by the push's range, holds the vertex; by then the vertex
        // and the spring's ends have each moved at most `travel`.
        let (lo, hi) = around(0.5 * params.base + 2.0 * travel);
        self.springs.extend(
            solid
                .filter(|(_, s)| {
                    let (a, b) = (pos[s.a], pos[s.b]);
                    a[0].max(b[0]) >= lo[0]
                        && a[0].min(b[0]) <= hi[0]
                        && a[1].max(b[1]) >= lo[1]
                        && a[1].min(b[1]) <= hi[1]
                })
                .map(|(k, _)| k as u32),
        );
        // Without cells (see `build`) every candidate is scanned at every
        // step, in index order: only those that can come within reach of
        // an active vertex need be (a vertex that stays, within the reach
        // of where an active vertex can get to). With cells the
        // candidates set the cells, and so the order of the sums: kept.
        if active.len() * self.vertices.len() < ALL_BELOW {
            let (lo, hi) = around(self.cell + travel);
            self.vertices.retain(|&i| {
                let p = pos[i as usize];
                p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1]
            });
        }
    }

    /// Puts the candidates into cells at their current positions (or
    /// leaves them in one list when the `active` vertices times the
    /// candidates is small: a scan is then cheaper than the cells), with
    /// the candidate springs' boxes. After the first step of a relaxation
    /// only the boxes of springs with a `moving` end are made again (in a
    /// relaxation of an application's neighbourhood, most springs stay).
    pub(super) fn build(
        &mut self,
        pos: &[Point],
        springs: &[Spring],
        moving: &[bool],
        active: usize,
        params: &RelaxParams,
    ) {
        let c = self.vertices.len();
        let range = 0.5 * params.base + self.skin;
        let grown = |k: u32| {
            let s = &springs[k as usize];
            let (a, b) = (pos[s.a], pos[s.b]);
            Box2 {
                lo: [a[0].min(b[0]) - range, a[1].min(b[1]) - range],
                hi: [a[0].max(b[0]) + range, a[1].max(b[1]) + range],
            }
        };
        if self.boxed {
            // A spring whose ends stay keeps its box, to the bit.
            for &slot in &self.shifting {
                self.boxes[slot as usize] = grown(self.springs[slot as usize]);
            }
        } else {
            self.boxes.clear();
            self.boxes.extend(self.springs.iter().map(|&k| grown(k)));
            let candidates = &self.springs;
            self.shifting.clear();
            self.shifting
                .extend((0..candidates.len() as u32).filter(|&slot| {
                    let s = &springs[candidates[slot as usize] as usize];
                    moving[s.a] || moving[s.b]
                }));
            self.boxed = true;
        }
        self.all = active * c < ALL_BELOW;
        if self.all {
            return;
        }
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for &i in &self.vertices {
            let p = pos[i as usize];
            for k in 0..2 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
        self.all = !(w.is_finite() && h.is_finite());
        if self.all {
            return;
        }
        // Cells at least as wide as the reach, and no more of them than
        // about twice the candidates: a spread-out drawing (the finishing
        // scale can make it tens of reaches wide) gets wider cells instead
        // of a scan of every pair. Any width at least the reach finds
        // every pair within reach.
        let target = (2 * c) as f64;
        self.step_cell = self
            .cell
            .max((w * h / target).sqrt())
            .max(w.max(h) / target);
        let span = |k: usize| ((hi[k] - lo[k]) / self.step_cell) as usize + 1;
        self.origin = lo;
        self.columns = span(0);
        self.rows = span(1);
        let cells = self.columns * self.rows;
        self.start.clear();
        self.start.resize(cells + 1, 0);
        for &i in &self.vertices {
            let cell = self.index(pos[i as usize]);
            self.start[cell + 1] += 1;
        }
        for cell in 0..cells {
            self.start[cell + 1] += self.start[cell];
        }
        self.members.clear();
        self.members.resize(c, 0);
        let mut fill: Vec<u32> = self.start[..cells].to_vec();
        for &i in &self.vertices {
            let cell = self.index(pos[i as usize]);
            self.members[fill[cell] as usize] = i;
            fill[cell] += 1;
        }
        // Springs: counted, then placed, in every cell their grown box meets.
        let mut ranges = std::mem::take(&mut self.ranges);
        ranges.clear();
        ranges.extend(
            self.boxes
                .iter()
                .map(|b| (self.column_row(b.lo), self.column_row(b.hi))),
        );
        self.spring_start.clear();
        self.spring_start.resize(cells + 1, 0);
        for &(lo, hi) in &ranges {
            for y in lo.1..=hi.1 {
                for x in lo.0..=hi.0 {
                    self.spring_start[y * self.columns + x + 1] += 1;
                }
            }
        }
        for cell in 0..cells {
            self.spring_start[cell + 1] += self.spring_start[cell];
        }
        self.spring_members.clear();
        self.spring_members
            .resize(self.spring_start[cells] as usize, 0);
        let mut fill: Vec<u32> = self.spring_start[..cells].to_vec();
        for (c, &(lo, hi)) in ranges.iter().enumerate() {
            for y in lo.1..=hi.1 {
                for x in lo.0..=hi.0 {
                    let cell = y * self.columns + x;
                    self.spring_members[fill[cell] as usize] = c as u32;
                    fill[cell] += 1;
                }
            }
        }
        self.ranges = ranges;
    }

    /// Calls `f` with the position (in `springs` and `boxes`) of every
    /// candidate spring whose box holds `p`, in increasing order: the
    /// (solid) springs that may pass within the push's range of `p`.
    #[inline]
    pub(super) fn springs_holding(&self, p: Point, mut f: impl FnMut(usize)) {
        if self.all {
            // Every candidate, in order. (Testing 64 boxes at a time into
            // a mask, eight bytes per multiplication, measured no faster
            // on the geometric benchmark, 2026-11-28.)
            for (c, b) in self.boxes.iter().enumerate() {
                if b.holds(p) {
                    f(c);
                }
            }
        } else {
            // Those registered in `p`'s cell.
            let cell = self.index(p);
            let (a, b) = (self.spring_start[cell], self.spring_start[cell + 1]);
            for &c in &self.spring_members[a as usize..b as usize] {
                if self.boxes[c as usize].holds(p) {
                    f(c as usize);
                }
            }
        }
    }

    pub(super) fn column_row(&self, p: Point) -> (usize, usize) {
        // `as` truncates toward 0 and saturates (negative and NaN to 0):
        // the floor, clamped at 0, without a libm `floor` call.
        let x = ((p[0] - self.origin[0]) / self.step_cell) as usize;
        let y = ((p[1] - self.origin[1]) / self.step_cell) as usize;
        (x.min(self.columns - 1), y.min(self.rows - 1))
    }

    pub(super) fn index(&self, p: Point) -> usize {
        let (x, y) = self.column_row(p);
        y * self.columns + x
    }
}
