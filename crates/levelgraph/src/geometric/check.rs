//! The self-intersection test of geometric derivation: a finished drawing can become
//! level geometry only when no two corridors cross and no two rooms
//! overlap.

use std::cmp::Ordering;

use crate::drawing::top_level;
use crate::graph::{EdgeId, Graph, Point, VertexId};
use crate::plane::{distance, segments_cross};

/// What the self-intersection test found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawingCheck {
    /// Pairs of corridors (non-cosmetic edges) that share no end and whose
    /// segments meet (a touch counts), in increasing id order.
    pub crossings: Vec<(EdgeId, EdgeId)>,
    /// Pairs of top-level vertices whose circles overlap (distance below
    /// the sum of their radii), in increasing id order.
    pub overlaps: Vec<(VertexId, VertexId)>,
}

impl DrawingCheck {
    /// Whether the drawing passes: no crossing and no overlap.
    pub fn passes(&self) -> bool {
        self.crossings.is_empty() && self.overlaps.is_empty()
    }
}

/// The self-intersection test of `g` drawn with `positions` and `radii`
/// (both indexed by vertex id; a vertex without a position is skipped, a
/// missing radius is 0).
///
/// Only top-level vertices take part: a stored vertex sits inside its
/// room, and its edges count as edges of that room (an edge between a
/// room and what it stores is no corridor and is skipped). Cosmetic
/// edges are not corridors and are not tested. Edges that share an end
/// (or join the same two rooms) never count as crossing. O(m² + n²) at
/// worst, O((m + n) log(m + n) + k) for `k` pairs whose x ranges meet.
pub fn check_drawing(
    g: &Graph,
    positions: &[Option<Point>],
    radii: &[Option<f64>],
) -> DrawingCheck {
    let at = |v: VertexId| positions.get(v.index()).copied().flatten();
    let mut segments: Vec<(EdgeId, VertexId, VertexId, Point, Point)> = Vec::new();
    for (id, e) in g.edges() {
        if e.cosmetic {
            continue;
        }
        let (a, b) = (top_level(g, e.source), top_level(g, e.target));
        if a == b {
            continue;
        }
        if let (Some(pa), Some(pb)) = (at(a), at(b)) {
            segments.push((id, a, b, pa, pb));
        }
    }
    let mut check = DrawingCheck::default();
    // A sweep along x: segments in order of their left end, each tested
    // against those that start before it ends (segments whose x ranges
    // are apart have no point in common), so the pairs found are those of
    // testing every pair.
    let left = |s: &(EdgeId, VertexId, VertexId, Point, Point)| s.3[0].min(s.4[0]);
    segments.sort_by(|s, t| left(s).total_cmp(&left(t)));
    for (i, &(e, a, b, pa, pb)) in segments.iter().enumerate() {
        let right = pa[0].max(pb[0]);
        let (low, high) = (pa[1].min(pb[1]), pa[1].max(pb[1]));
        for t in &segments[i + 1..] {
            let &(f, c, d, pc, pd) = t;
            // Past the end of `i`'s range (or not comparable: a NaN end,
            // which crosses nothing).
            if !matches!(
                left(t).partial_cmp(&right),
                Some(Ordering::Less | Ordering::Equal)
            ) {
                break;
            }
            if pc[1].max(pd[1]) < low || pc[1].min(pd[1]) > high {
                continue;
            }
            let shares = a == c || a == d || b == c || b == d;
            if !shares && segments_cross(pa, pb, pc, pd) {
                check.crossings.push((e.min(f), e.max(f)));
            }
        }
    }
    check.crossings.sort_unstable();
    let rooms: Vec<(VertexId, Point, f64)> = g
        .vertex_ids()
        .filter(|&v| g.parent(v).is_none())
        .filter_map(|v| {
            let r = radii.get(v.index()).copied().flatten().unwrap_or(0.0);
            at(v).map(|p| (v, p, r))
        })
        .collect();
    // The same sweep: rooms in order of their circle's left edge; two
    // circles overlap only if their x ranges do.
    let mut rooms = rooms;
    rooms.sort_by(|p, q| (p.1[0] - p.2).total_cmp(&(q.1[0] - q.2)));
    for (i, &(v, pv, rv)) in rooms.iter().enumerate() {
        for &(w, pw, rw) in &rooms[i + 1..] {
            if !matches!(
                (pw[0] - rw).partial_cmp(&(pv[0] + rv)),
                Some(Ordering::Less)
            ) {
                break;
            }
            if distance(pv, pw) < rv + rw {
                check.overlaps.push((v.min(w), v.max(w)));
            }
        }
    }
    check.overlaps.sort_unstable();
    check
}

/// [`check_drawing`] with the positions and radii stored in `g`'s vertices.
pub fn check_graph(g: &Graph) -> DrawingCheck {
    let mut positions = vec![None; g.vertex_bound()];
    let mut radii = vec![None; g.vertex_bound()];
    for v in g.vertex_ids() {
        if let Some(x) = g.vertex(v) {
            positions[v.index()] = x.position;
            radii[v.index()] = x.radius;
        }
    }
    check_drawing(g, &positions, &radii)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The sweep finds exactly the pairs a test of every pair finds, on
    /// random drawings whose points lie on a small integer grid (so that
    /// touching, collinear and equal x ranges are common).
    #[test]
    fn the_sweep_finds_what_testing_every_pair_finds() {
        let mut rng = Rng::seeded(3);
        for round in 0..200 {
            let mut g = Graph::new();
            let n = 2 + rng.below(25);
            let side = 2 + rng.below(8);
            let ids: Vec<VertexId> = (0..n).map(|_| g.add_vertex_named("room")).collect();
            for &v in &ids {
                let x = g.vertex_mut(v).unwrap();
                x.position = Some([rng.below(side) as f64, rng.below(side) as f64]);
                x.radius = Some(0.25 * (1 + rng.below(4)) as f64);
            }
            for _ in 0..2 * n {
                let (a, b) = (ids[rng.below(n)], ids[rng.below(n)]);
                if a != b {
                    g.connect(a, b, false);
                }
            }
            let check = check_graph(&g);
            let at = |v: VertexId| g.vertex(v).unwrap().position.unwrap();
            let edges: Vec<_> = g.edges().map(|(id, e)| (id, e.source, e.target)).collect();
            let mut crossings = Vec::new();
            for (i, &(e, a, b)) in edges.iter().enumerate() {
                for &(f, c, d) in &edges[i + 1..] {
                    let shares = a == c || a == d || b == c || b == d;
                    if !shares && segments_cross(at(a), at(b), at(c), at(d)) {
                        crossings.push((e.min(f), e.max(f)));
                    }
                }
            }
            crossings.sort_unstable();
            let mut overlaps = Vec::new();
            for (i, &v) in ids.iter().enumerate() {
                for &w in &ids[i + 1..] {
                    let (rv, rw) = (g.vertex(v).unwrap().radius, g.vertex(w).unwrap().radius);
                    if distance(at(v), at(w)) < rv.unwrap() + rw.unwrap() {
                        overlaps.push((v, w));
                    }
                }
            }
            assert_eq!(check.crossings, crossings, "round {round}");
            assert_eq!(check.overlaps, overlaps, "round {round}");
        }
    }
}
