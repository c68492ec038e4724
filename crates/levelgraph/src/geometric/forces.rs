//! Force-directed relaxation of a drawing in progress (seed 000): springs
//! toward each edge's desired length, inverse-square repulsion between
//! vertices that counts their room radii, a short-range push of vertices
//! off edges they are not part of, and a cap on each vertex's move per
//! step. Stops when the drawing's energy stops changing, or at a step limit.
//!
//! The spring is Eades' logarithmic one ("A heuristic for graph drawing",
//! 1984), which seed 000 uses, or an algebraic sigmoid, which seed 000
//! proposes because a logarithmic spring pulls long edges in only weakly
//! (BENCHMARKS.md compares the two).

use super::geometry::{ln, off_segment, segments_cross, sigmoid};
use crate::graph::Point;

/// The shape of the spring force along an edge of current length `d` and
/// desired length `L`. Both have slope 1 at `d = L` in units of `d/L`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpringShape {
    /// `ln(d / L)`: very strong on short edges, weak on long ones (Eades 1984,
    /// seed 000).
    Logarithmic,
    /// `s((d − L) / L)` with `s(x) = x / √(1 + x²)`: bounded both ways.
    Sigmoid,
}

impl SpringShape {
    /// The force pulling the ends of an edge together (negative: pushing
    /// apart), in units of the spring's strength.
    pub(crate) fn force(self, d: f64, length: f64) -> f64 {
        match self {
            SpringShape::Logarithmic => ln(d / length),
            SpringShape::Sigmoid => sigmoid((d - length) / length),
        }
    }
}

/// An edge of the drawing: its two ends (indices into the positions), its
/// desired length, and its strength (cosmetic edges pull more weakly).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Spring {
    pub(crate) a: usize,
    pub(crate) b: usize,
    pub(crate) length: f64,
    pub(crate) strength: f64,
    /// Whether the edge pushes vertices off itself (corridors do; cosmetic
    /// edges do not).
    pub(crate) solid: bool,
}

/// Tuning of [`relax`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct RelaxParams {
    pub(crate) shape: SpringShape,
    /// Spring strength, per unit of base length.
    pub(crate) spring: f64,
    /// Repulsion strength: a pair at distance equal to its separation is
    /// pushed apart with this force.
    pub(crate) repulsion: f64,
    /// The separation of two vertices without radii, and the range of the
    /// vertex–edge push; also the unit of forces.
    pub(crate) base: f64,
    /// Extra room between two circles (added to the sum of radii).
    pub(crate) margin: f64,
    /// Largest move of one vertex in one step.
    pub(crate) max_step: f64,
    /// Stop when the energy changes by less than this fraction in a step.
    pub(crate) tolerance: f64,
    /// Most steps.
    pub(crate) max_steps: u32,
}

/// How a relaxation ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RelaxOutcome {
    pub(crate) steps: u32,
    /// Whether the energy settled (else the step limit stopped it).
    pub(crate) converged: bool,
    /// Whether the result was thrown away because it made corridors cross.
    pub(crate) reverted: bool,
}

/// The fraction of the force a vertex moves by in a step (stable for a
/// vertex held by up to about ten unit-slope springs).
const GAIN: f64 = 0.2;

/// Root-mean-square force below which a drawing counts as settled: a step
/// then moves a vertex by at most about `GAIN × SETTLED` = 0.2 % of the
/// base length.
const SETTLED: f64 = 0.01;

/// Repulsion range, in separations: pairs farther apart than this do not
/// interact (their inverse-square force is below a quarter of the force at
/// one separation, itself a twentieth of a spring's pull at twice its
/// length). Measured: 2 instead of 3 separations ends as near the ideal
/// lengths or nearer, on fewer candidate vertices.
const RANGE: f64 = 2.0;

/// Relaxes `pos` in place, moving only the vertices listed in `active`
/// (each once; the others stay where they are but still push and pull).
/// `radius[i]` is vertex `i`'s room radius (0 during the derivation).
/// Deterministic: the same input gives the same bits. One step costs
/// O(a·(n + m)) for `a` active vertices.
pub(crate) fn relax(
    pos: &mut [Point],
    radius: &[f64],
    active: &[usize],
    springs: &[Spring],
    params: &RelaxParams,
    scratch: &mut RelaxScratch,
) -> RelaxOutcome {
    let n = pos.len();
    scratch.moving.clear();
    scratch.moving.resize(n, false);
    for &i in active {
        scratch.moving[i] = true;
    }
    let moving = &scratch.moving;
    // The springs and solid edges that can move something.
    scratch.springs.clear();
    scratch.springs.extend(
        springs
            .iter()
            .filter(|s| moving[s.a] || moving[s.b])
            .copied(),
    );
    scratch.near.choose(pos, radius, active, springs, params);
    let free = active.len().max(1) as f64;
    let mut previous = f64::INFINITY;
    let mut outcome = RelaxOutcome::default();
    while outcome.steps < params.max_steps {
        outcome.steps += 1;
        let force = &mut scratch.force;
        force.clear();
        force.resize(n, [0.0, 0.0]);
        scratch.near.build(pos, springs, active.len(), params);
        repel(pos, radius, active, params, &scratch.near, force);
        pull(pos, &scratch.springs, moving, params, force);
        push_off_edges(pos, springs, active, moving, params, &scratch.near, force);
        let mut energy = 0.0;
        for &i in active {
            let f = force[i];
            let len2 = f[0] * f[0] + f[1] * f[1];
            energy += len2;
            let len = len2.sqrt();
            // Step = a fraction of the force (in base units), capped at
            // `max_step`: with the whole force, an edge's two ends would
            // overshoot its length and oscillate for ever.
            let step = GAIN * params.base * len;
            if step > 0.0 {
                let scale = step.min(params.max_step) / len;
                pos[i][0] += f[0] * scale;
                pos[i][1] += f[1] * scale;
            }
        }
        // Energy: the sum of squared forces on the moving vertices. Settled
        // when it is small (the mean force below `SETTLED`, so no vertex
        // moves visibly) or stops changing.
        let settled = energy <= SETTLED * SETTLED * free
            || (previous.is_finite() && (previous - energy).abs() <= params.tolerance * previous);
        if settled {
            outcome.converged = true;
            break;
        }
        previous = energy;
    }
    outcome
}

/// Pairs of solid springs that share no end, at least one of which has a
/// `moving` end, and whose segments meet (a touch counts). O(k·m) for `k`
/// springs at moving vertices.
pub(crate) fn crossings(pos: &[Point], springs: &[Spring], moving: &[bool]) -> usize {
    let mut count = 0;
    for (i, s) in springs.iter().enumerate() {
        if !s.solid || !(moving[s.a] || moving[s.b]) {
            continue;
        }
        for (j, t) in springs.iter().enumerate() {
            if !t.solid || s.a == t.a || s.a == t.b || s.b == t.a || s.b == t.b {
                continue;
            }
            // A pair with both moving is seen twice: count it once.
            if (moving[t.a] || moving[t.b]) && j < i {
                continue;
            }
            if segments_cross(pos[s.a], pos[s.b], pos[t.a], pos[t.b]) {
                count += 1;
            }
        }
    }
    count
}

/// Buffers of [`relax`], reused between calls.
#[derive(Debug, Default)]
pub(crate) struct RelaxScratch {
    force: Vec<Point>,
    moving: Vec<bool>,
    springs: Vec<Spring>,
    near: Neighbours,
}

/// First and last cell (column, row) of a box.
type CellRange = ((usize, usize), (usize, usize));

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
    vertices: Vec<u32>,
    springs: Vec<u32>,
    cell: f64,
    origin: Point,
    columns: usize,
    rows: usize,
    /// `start[c]..start[c + 1]`: the slice of `members` in cell `c`.
    start: Vec<u32>,
    members: Vec<u32>,
    /// Per cell, the candidate springs whose box (grown by the
    /// vertex–edge push's range) meets it.
    spring_start: Vec<u32>,
    spring_members: Vec<u32>,
    ranges: Vec<CellRange>,
    /// Per spring (candidates only): its box grown by the push's range,
    /// `[lo_x, lo_y, hi_x, hi_y]`, at this step's positions.
    boxes: Vec<[f64; 4]>,
    /// Every candidate, when there are few or cells would outnumber them.
    all: bool,
}

impl Neighbours {
    /// Chooses the candidates for a relaxation of `active` by at most
    /// `steps` steps.
    fn choose(
        &mut self,
        pos: &[Point],
        radius: &[f64],
        active: &[usize],
        springs: &[Spring],
        params: &RelaxParams,
    ) {
        let n = pos.len();
        let widest = radius.iter().fold(0.0f64, |w, &r| w.max(r));
        let separation = if widest > 0.0 {
            2.0 * widest + params.margin
        } else {
            params.base
        };
        self.cell = RANGE * separation;
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
        let grow = self.cell + travel + 0.5 * params.base;
        let mut lo = [f64::INFINITY; 2];
        let mut hi = [f64::NEG_INFINITY; 2];
        for &i in active {
            for k in 0..2 {
                lo[k] = lo[k].min(pos[i][k] - grow);
                hi[k] = hi[k].max(pos[i][k] + grow);
            }
        }
        let inside = |p: Point| p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1];
        self.vertices
            .extend((0..n).filter(|&i| inside(pos[i])).map(|i| i as u32));
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
    }

    /// Puts the candidates into cells at their current positions (or
    /// leaves them in one list when the `active` vertices times the
    /// candidates is small: a scan is then cheaper than the cells).
    fn build(&mut self, pos: &[Point], springs: &[Spring], active: usize, params: &RelaxParams) {
        let c = self.vertices.len();
        let range = 0.5 * params.base;
        self.boxes.resize(springs.len(), [0.0; 4]);
        for &k in &self.springs {
            let s = &springs[k as usize];
            let (a, b) = (pos[s.a], pos[s.b]);
            self.boxes[k as usize] = [
                a[0].min(b[0]) - range,
                a[1].min(b[1]) - range,
                a[0].max(b[0]) + range,
                a[1].max(b[1]) + range,
            ];
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
        let span = |k: usize| ((hi[k] - lo[k]) / self.cell).floor() + 1.0;
        let cells = span(0) * span(1);
        self.all = active * c < 4096 || cells.is_nan() || cells > (4 * c) as f64;
        if self.all {
            return;
        }
        self.origin = lo;
        self.columns = span(0) as usize;
        self.rows = span(1) as usize;
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
        ranges.extend(self.springs.iter().map(|&k| {
            let [lo_x, lo_y, hi_x, hi_y] = self.boxes[k as usize];
            (self.column_row([lo_x, lo_y]), self.column_row([hi_x, hi_y]))
        }));
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
        for (&k, &(lo, hi)) in self.springs.iter().zip(&ranges) {
            for y in lo.1..=hi.1 {
                for x in lo.0..=hi.0 {
                    let cell = y * self.columns + x;
                    self.spring_members[fill[cell] as usize] = k;
                    fill[cell] += 1;
                }
            }
        }
        self.ranges = ranges;
    }

    /// The springs that may pass within the push's range of `p`: every
    /// candidate, or those registered in `p`'s cell.
    fn springs_at(&self, p: Point) -> impl Iterator<Item = usize> + '_ {
        let slice: &[u32] = if self.all {
            &self.springs
        } else {
            let c = self.index(p);
            &self.spring_members[self.spring_start[c] as usize..self.spring_start[c + 1] as usize]
        };
        slice.iter().map(|&k| k as usize)
    }

    fn column_row(&self, p: Point) -> (usize, usize) {
        let x = ((p[0] - self.origin[0]) / self.cell).floor().max(0.0) as usize;
        let y = ((p[1] - self.origin[1]) / self.cell).floor().max(0.0) as usize;
        (x.min(self.columns - 1), y.min(self.rows - 1))
    }

    fn index(&self, p: Point) -> usize {
        let (x, y) = self.column_row(p);
        y * self.columns + x
    }

    /// The vertices that may be within reach of `p`: every candidate, or
    /// those in the 3 × 3 cells around `p`'s.
    fn around(&self, p: Point) -> impl Iterator<Item = usize> + '_ {
        let everything: &[u32] = if self.all { &self.vertices } else { &[] };
        let cells = (!self.all)
            .then(|| {
                let (x, y) = self.column_row(p);
                let (x0, x1) = (x.saturating_sub(1), (x + 1).min(self.columns - 1));
                let (y0, y1) = (y.saturating_sub(1), (y + 1).min(self.rows - 1));
                (y0..=y1).flat_map(move |r| (x0..=x1).map(move |c| r * self.columns + c))
            })
            .into_iter()
            .flatten()
            .flat_map(move |c| {
                self.members[self.start[c] as usize..self.start[c + 1] as usize].iter()
            });
        everything.iter().chain(cells).map(|&j| j as usize)
    }
}

/// Inverse-square repulsion on each active vertex from every vertex within
/// range, plus a linear push between circles closer than their radii and
/// margin.
fn repel(
    pos: &[Point],
    radius: &[f64],
    active: &[usize],
    params: &RelaxParams,
    near: &Neighbours,
    force: &mut [Point],
) {
    for &i in active {
        let mut fi = [0.0, 0.0];
        for j in near.around(pos[i]) {
            if j == i {
                continue;
            }
            let dx = pos[i][0] - pos[j][0];
            let dy = pos[i][1] - pos[j][1];
            let contact = radius[i] + radius[j];
            let separation = if contact > 0.0 {
                contact + params.margin
            } else {
                params.base
            };
            let d2 = dx * dx + dy * dy;
            let reach = RANGE * separation;
            if d2 >= reach * reach {
                continue;
            }
            let (d, ux, uy) = if d2 > 1e-18 {
                let d = d2.sqrt();
                (d, dx / d, dy / d)
            } else {
                // Coincident: part them along a fixed direction by index.
                (1e-9, if i < j { 1.0 } else { -1.0 }, 0.0)
            };
            let ratio = separation / d.max(1e-3 * separation);
            let mut f = params.repulsion * ratio * ratio;
            if d < separation {
                f += (separation - d) / separation * 4.0;
            }
            fi[0] += ux * f;
            fi[1] += uy * f;
        }
        force[i][0] += fi[0];
        force[i][1] += fi[1];
    }
}

/// Spring forces along the edges, on their moving ends.
fn pull(
    pos: &[Point],
    springs: &[Spring],
    moving: &[bool],
    params: &RelaxParams,
    force: &mut [Point],
) {
    for s in springs {
        let dx = pos[s.b][0] - pos[s.a][0];
        let dy = pos[s.b][1] - pos[s.a][1];
        let d = (dx * dx + dy * dy).sqrt();
        if d <= 1e-12 {
            continue;
        }
        let f = params.spring * s.strength * params.shape.force(d, s.length);
        let (fx, fy) = (dx / d * f, dy / d * f);
        if moving[s.a] {
            force[s.a][0] += fx;
            force[s.a][1] += fy;
        }
        if moving[s.b] {
            force[s.b][0] -= fx;
            force[s.b][1] -= fy;
        }
    }
}

/// Short-range vertex–edge repulsion (after Bertault's PrEd, 1999): an
/// active vertex within `base / 2` of a solid edge it is not part of is
/// pushed off it, and the edge's moving ends are pushed back, so that a
/// vertex does not drift across a corridor.
fn push_off_edges(
    pos: &[Point],
    springs: &[Spring],
    active: &[usize],
    moving: &[bool],
    params: &RelaxParams,
    near: &Neighbours,
    force: &mut [Point],
) {
    let range = 0.5 * params.base;
    for &i in active {
        let p = pos[i];
        for k in near.springs_at(p) {
            let s = &springs[k];
            if !s.solid || i == s.a || i == s.b {
                continue;
            }
            let [lo_x, lo_y, hi_x, hi_y] = near.boxes[k];
            if p[0] < lo_x || p[0] > hi_x || p[1] < lo_y || p[1] > hi_y {
                continue;
            }
            let (a, b) = (pos[s.a], pos[s.b]);
            if a == b {
                continue;
            }
            let (t, [dx, dy]) = off_segment(p, a, b);
            let d = (dx * dx + dy * dy).sqrt();
            if d >= range || d < 1e-12 {
                continue;
            }
            let f = (range / d - 1.0).min(4.0) / d;
            force[i][0] += dx * f;
            force[i][1] += dy * f;
            if moving[s.a] {
                force[s.a][0] -= dx * f * (1.0 - t);
                force[s.a][1] -= dy * f * (1.0 - t);
            }
            if moving[s.b] {
                force[s.b][0] -= dx * f * t;
                force[s.b][1] -= dy * f * t;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The cells give every vertex the same repulsion as a scan of all
    /// vertices (up to rounding: the sums run in another order).
    #[test]
    fn repulsion_through_cells_equals_a_full_scan() {
        let mut rng = crate::rng::Rng::seeded(5);
        for round in 0..20 {
            let n = 80 + rng.below(220);
            let side = 4.0 + 30.0 * rng.unit();
            let pos: Vec<Point> = (0..n)
                .map(|_| [side * rng.unit(), side * rng.unit()])
                .collect();
            let radius: Vec<f64> = if round % 2 == 0 {
                vec![0.0; n]
            } else {
                (0..n).map(|_| 0.1 + 0.4 * rng.unit()).collect()
            };
            let p = params(SpringShape::Sigmoid);
            let active: Vec<usize> = (0..n).collect();
            let mut near = Neighbours::default();
            near.choose(&pos, &radius, &active, &[], &p);
            near.build(&pos, &[], active.len(), &p);
            assert!(!near.all, "round {round}: the cells are in use");
            let mut cells = vec![[0.0; 2]; n];
            repel(&pos, &radius, &active, &p, &near, &mut cells);
            near.all = true;
            let mut scan = vec![[0.0; 2]; n];
            repel(&pos, &radius, &active, &p, &near, &mut scan);
            for i in 0..n {
                for k in 0..2 {
                    let (a, b) = (cells[i][k], scan[i][k]);
                    assert!(
                        (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                        "round {round} vertex {i}: {a} vs {b}"
                    );
                }
            }
        }
    }

    use super::*;
    use crate::geometric::geometry::distance;

    fn params(shape: SpringShape) -> RelaxParams {
        RelaxParams {
            shape,
            spring: 1.0,
            repulsion: 0.05,
            base: 1.0,
            margin: 0.0,
            max_step: 0.1,
            tolerance: 1e-4,
            max_steps: 2_000,
        }
    }

    #[test]
    fn an_edge_settles_near_its_length_with_either_spring() {
        for shape in [SpringShape::Logarithmic, SpringShape::Sigmoid] {
            for start in [0.2, 3.0] {
                let mut pos = vec![[0.0, 0.0], [start, 0.0]];
                let springs = [Spring {
                    a: 0,
                    b: 1,
                    length: 1.0,
                    strength: 1.0,
                    solid: true,
                }];
                let out = relax(
                    &mut pos,
                    &[0.0; 2],
                    &[0, 1],
                    &springs,
                    &params(shape),
                    &mut RelaxScratch::default(),
                );
                assert!(out.converged, "{shape:?} from {start}: {out:?}");
                let d = distance(pos[0], pos[1]);
                assert!((d - 1.0).abs() < 0.15, "{shape:?} from {start}: length {d}");
            }
        }
    }

    #[test]
    fn circles_are_pushed_apart_and_pinned_vertices_stay() {
        let mut pos = vec![[0.0, 0.0], [0.5, 0.0]];
        let mut p = params(SpringShape::Sigmoid);
        p.margin = 0.1;
        relax(
            &mut pos,
            &[1.0, 1.0],
            &[1],
            &[],
            &p,
            &mut RelaxScratch::default(),
        );
        assert_eq!(pos[0], [0.0, 0.0]);
        assert!(distance(pos[0], pos[1]) >= 2.0, "{pos:?}");
    }
}
