//! A simple force-directed drawing of a finished graph, for pictures.
//!
//! Fruchterman and Reingold, "Graph Drawing by Force-directed Placement"
//! (1991): repulsion `k²/d` between every pair of vertices, attraction
//! `d²/k` along edges (cosmetic edges at a quarter strength: they shape the
//! drawing without dragging a key onto its lock's corridor), a temperature that caps each step's displacement and cools
//! linearly. `k` is the ideal edge length times the edge's length factor.
//! Vertices are also pushed off edges they are not part of (short-range
//! vertex–edge repulsion, after Bertault's PrEd).
//! Start positions are a grid in breadth-first order with a seeded jitter,
//! so the same graph and seed give the same drawing. O(n² + n·m) per
//! iteration, which is fine for mission graphs (tens to a few hundred
//! vertices); a work budget ([`ForceConfig::work`]) cuts the iterations of
//! larger graphs, so that even a picture of a huge level takes seconds,
//! not hours.
//! The geometric derivation (positions kept while rewriting,
//! [`crate::geometric`]) is a separate, later stage; this drawing only serves `mission.svg`.

use std::collections::VecDeque;

use crate::graph::{Graph, Point, VertexId};
use crate::plane::off_segment;
use crate::rng::Rng;

/// Parameters of [`force_layout`]. Start from [`ForceConfig::for_picture`]
/// and change fields (more may be added).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ForceConfig {
    /// Ideal edge length, in drawing units.
    pub edge_length: f64,
    /// Number of iterations (the only loop; it always ends), at most: see
    /// `work`.
    pub iterations: u32,
    /// Seed of the start jitter.
    pub seed: u64,
    /// Most interactions the drawing may compute, counted as iterations ×
    /// (n²/2 vertex pairs + n·m vertex–edge pairs) for n top-level vertices
    /// and m edges between them: a large graph gets fewer iterations (none
    /// past the budget: its start layout), instead of running for hours.
    pub work: u64,
}

/// [`ForceConfig::work`] of a picture: 3 × 10⁸ interactions, about a
/// second at the 3.4 ns per interaction measured on the machine of
/// BENCHMARKS.md; every graph up to about 600 vertices (and as many edges
/// again) gets all 400 iterations.
pub const PICTURE_WORK: u64 = 300_000_000;

impl ForceConfig {
    /// Defaults for a picture: edge length 1, 400 iterations within
    /// [`PICTURE_WORK`].
    pub fn for_picture(seed: u64) -> Self {
        ForceConfig {
            edge_length: 1.0,
            iterations: 400,
            seed,
            work: PICTURE_WORK,
        }
    }

    /// The iterations a drawing of `vertices` top-level vertices and `edges`
    /// edges between them makes: `iterations`, cut to what `work` allows.
    pub fn iterations_for(&self, vertices: usize, edges: usize) -> u32 {
        let n = vertices as u64;
        let pairs = n.saturating_mul(n.saturating_sub(1)) / 2;
        let per_iteration = pairs.saturating_add(n.saturating_mul(edges as u64)).max(1);
        let allowed = self.work / per_iteration;
        u32::try_from(allowed).map_or(self.iterations, |a| a.min(self.iterations))
    }
}

/// Positions for every live vertex, indexed by vertex id (`None` for ids of
/// removed vertices). Vertices that already have a position start there.
/// Vertices with a grid cell keep their start position (their cell in grid
/// mode). Only top-level vertices are laid out; a stored (nested) vertex gets the
/// position of the top-level vertex it is stored in, and its edges act on
/// that vertex.
pub fn force_layout(g: &Graph, config: &ForceConfig) -> Vec<Option<Point>> {
    draw(g, config).positions
}

/// A drawing: the positions [`force_layout`] returns, and how many
/// iterations made them (fewer than asked when [`ForceConfig::work`] cut
/// them) for how many top-level vertices.
#[derive(Clone, Debug)]
pub struct Drawing {
    /// Per vertex id, as [`force_layout`] returns them.
    pub positions: Vec<Option<Point>>,
    /// Iterations made.
    pub iterations: u32,
    /// Top-level vertices laid out (stored vertices follow theirs).
    pub vertices: usize,
}

/// [`force_layout`], also saying how many iterations it made.
pub fn draw(g: &Graph, config: &ForceConfig) -> Drawing {
    let ids: Vec<VertexId> = g.vertex_ids().filter(|&v| g.parent(v).is_none()).collect();
    let n = ids.len();
    let mut slot = vec![usize::MAX; g.vertex_bound()];
    for (i, v) in ids.iter().enumerate() {
        slot[v.index()] = i;
    }
    let tops = top_levels(g);
    for v in g.vertex_ids() {
        slot[v.index()] = slot[tops[v.index()].index()];
    }
    // Grid vertices (grid mode) stay in their cells; the rest move around them.
    let pinned: Vec<bool> = ids
        .iter()
        .map(|&v| g.vertex(v).is_some_and(|x| x.cell.is_some()))
        .collect();
    let mut rng = Rng::seeded(config.seed);
    let mut pos = initial_positions(g, &ids, &slot, &mut rng, config.edge_length);
    // (a, b, desired length factor, attraction strength). Cosmetic edges
    // pull at a quarter strength: they should keep a key near its lock, not
    // drag the key onto the corridor between the lock and the key's room.
    let edges: Vec<(usize, usize, f64, f64)> = g
        .edges()
        .filter(|(_, e)| slot[e.source.index()] != slot[e.target.index()])
        .map(|(_, e)| {
            let strength = if e.cosmetic { 0.25 } else { 1.0 };
            let factor = e.length_factor.max(0.05);
            (
                slot[e.source.index()],
                slot[e.target.index()],
                factor,
                strength,
            )
        })
        .collect();
    let k = config.edge_length;
    let iterations = config.iterations_for(n, edges.len());
    let mut temperature = k * (n as f64).sqrt().max(1.0);
    let cooling = temperature / f64::from(iterations.max(1));
    let mut disp = vec![[0.0f64; 2]; n];
    for _ in 0..iterations {
        disp.iter_mut().for_each(|d| *d = [0.0, 0.0]);
        for i in 0..n {
            for j in (i + 1)..n {
                let dx = pos[i][0] - pos[j][0];
                let dy = pos[i][1] - pos[j][1];
                let d2 = (dx * dx + dy * dy).max(1e-6);
                let f = k * k / d2; // (k²/d) / d: force along the unit vector
                disp[i][0] += dx * f;
                disp[i][1] += dy * f;
                disp[j][0] -= dx * f;
                disp[j][1] -= dy * f;
            }
        }
        for &(a, b, factor, strength) in &edges {
            let dx = pos[a][0] - pos[b][0];
            let dy = pos[a][1] - pos[b][1];
            let d = (dx * dx + dy * dy).sqrt().max(1e-6);
            let f = strength * d / (k * factor); // (d²/k) / d
            disp[a][0] -= dx * f;
            disp[a][1] -= dy * f;
            disp[b][0] += dx * f;
            disp[b][1] += dy * f;
        }
        edge_repulsion(&pos, &edges, k, &mut disp);
        for i in 0..n {
            let len = (disp[i][0] * disp[i][0] + disp[i][1] * disp[i][1]).sqrt();
            if len > 0.0 && !pinned[i] {
                let step = len.min(temperature) / len;
                pos[i][0] += disp[i][0] * step;
                pos[i][1] += disp[i][1] * step;
            }
        }
        temperature = (temperature - cooling).max(k * 0.01);
    }
    let mut out = vec![None; g.vertex_bound()];
    for v in g.vertex_ids() {
        out[v.index()] = Some(pos[slot[v.index()]]);
    }
    Drawing {
        positions: out,
        iterations,
        vertices: n,
    }
}

/// The top-level vertex `v` is stored in (at any depth), or `v` itself.
pub fn top_level(g: &Graph, v: VertexId) -> VertexId {
    let mut at = v;
    while let Some(p) = g.parent(at) {
        at = p;
    }
    at
}

/// [`top_level`] of every vertex, indexed by vertex id (a removed id maps
/// to itself): each vertex's chain of parents is walked once in all, not
/// once per vertex stored below it, so a deep chain of stored vertices
/// costs linear time.
pub fn top_levels(g: &Graph) -> Vec<VertexId> {
    const UNKNOWN: VertexId = VertexId(u32::MAX);
    let mut top = vec![UNKNOWN; g.vertex_bound()];
    let mut path = Vec::new();
    for v in (0..g.vertex_bound()).map(|i| VertexId(i as u32)) {
        let mut at = v;
        // Up to a vertex whose top is known, or to the top level.
        while top[at.index()] == UNKNOWN {
            path.push(at);
            match g.parent(at) {
                Some(p) => at = p,
                None => {
                    top[at.index()] = at;
                    break;
                }
            }
        }
        let t = top[at.index()];
        for w in path.drain(..) {
            top[w.index()] = t;
        }
    }
    top
}

/// Short-range repulsion between each vertex and each edge not incident
/// to it (as in Bertault's PrEd, 1999): within distance `k`, a vertex is
/// pushed away from the nearest point of the segment with magnitude
/// `k²/d − k` (zero at `d = k`), and the segment's ends are pushed back in
/// proportion to how near each is. Keeps a vertex from resting on a
/// corridor it is not part of, e.g. a key on its lock's corridor.
fn edge_repulsion(pos: &[Point], edges: &[(usize, usize, f64, f64)], k: f64, disp: &mut [Point]) {
    for i in 0..pos.len() {
        for &(a, b, _, _) in edges {
            if i == a || i == b {
                continue;
            }
            let (ex, ey) = (pos[b][0] - pos[a][0], pos[b][1] - pos[a][1]);
            if ex * ex + ey * ey < 1e-12 {
                continue;
            }
            // The nearest point of the segment: the geometric derivation's
            // vertex–edge push (`forces`) finds it with the same function,
            // operation for operation as this drawing always did.
            let (t, [dx, dy]) = off_segment(pos[i], pos[a], pos[b]);
            let d = (dx * dx + dy * dy).sqrt();
            if d >= k || d < 1e-9 {
                continue;
            }
            let f = (k * k / d - k) / d;
            disp[i][0] += dx * f;
            disp[i][1] += dy * f;
            disp[a][0] -= dx * f * (1.0 - t);
            disp[a][1] -= dy * f * (1.0 - t);
            disp[b][0] -= dx * f * t;
            disp[b][1] -= dy * f * t;
        }
    }
}

/// A grid in breadth-first order (so neighbours start close), plus jitter.
fn initial_positions(
    g: &Graph,
    ids: &[VertexId],
    slot: &[usize],
    rng: &mut Rng,
    k: f64,
) -> Vec<Point> {
    let n = ids.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(i) = queue.pop_front() {
            order.push(i);
            for link in g.incidences(ids[i]) {
                let j = slot[link.other.index()];
                if !seen[j] {
                    seen[j] = true;
                    queue.push_back(j);
                }
            }
        }
    }
    // A square grid in breadth-first order with a jitter of up to ±0.4 of a
    // cell: neighbours start close, and no three consecutive vertices start
    // on one line (a collinear start can freeze a path across an edge).
    // Only +, *, / and sqrt, which IEEE 754 rounds exactly, reach the
    // positions: no libm trigonometry, whose last bits differ by platform.
    let side = (n as f64).sqrt().ceil().max(1.0) as usize;
    let mut pos = vec![[0.0; 2]; n];
    for (rank, &i) in order.iter().enumerate() {
        pos[i] = match g.vertex(ids[i]).and_then(|v| v.position) {
            Some(p) => p,
            None => {
                // Boustrophedon rows keep consecutive vertices adjacent.
                let (row, col) = (rank / side, rank % side);
                let col = if row % 2 == 0 { col } else { side - 1 - col };
                let jitter = 0.8 * k;
                [
                    k * col as f64 + jitter * (rng.unit() - 0.5),
                    k * row as f64 + jitter * (rng.unit() - 0.5),
                ]
            }
        };
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_work_budget_cuts_iterations_of_large_graphs_only() {
        let config = ForceConfig::for_picture(1);
        // Mission graphs and anything up to about 1,000 vertices: all of them.
        assert_eq!(config.iterations_for(0, 0), 400);
        assert_eq!(config.iterations_for(40, 45), 400);
        assert_eq!(config.iterations_for(600, 900), 400);
        // Larger: as many as the budget allows, down to none.
        assert_eq!(config.iterations_for(1_000, 1_500), 150);
        assert_eq!(config.iterations_for(20_000, 20_000), 0);
        assert_eq!(config.iterations_for(usize::MAX / 2, usize::MAX / 2), 0);
    }

    #[test]
    fn a_drawing_reports_the_iterations_it_made() {
        let mut g = Graph::new();
        let a = g.add_vertex_named("room");
        let b = g.add_vertex_named("room");
        g.connect(a, b, false);
        let mut config = ForceConfig::for_picture(3);
        assert_eq!(draw(&g, &config).iterations, 400);
        config.work = 3;
        let cut = draw(&g, &config);
        assert_eq!(cut.iterations, 1);
        assert!(cut.positions[a.index()].is_some() && cut.positions[b.index()].is_some());
    }
}
