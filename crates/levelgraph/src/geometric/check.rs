//! The self-intersection test of seed 000: a finished drawing can become
//! level geometry only when no two corridors cross and no two rooms
//! overlap.

use super::geometry::{distance, segments_cross};
use crate::drawing::top_level;
use crate::graph::{EdgeId, Graph, Point, VertexId};

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
/// (or join the same two rooms) never count as crossing. O(m² + n²).
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
    for (i, &(e, a, b, pa, pb)) in segments.iter().enumerate() {
        for &(f, c, d, pc, pd) in &segments[i + 1..] {
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
    for (i, &(v, pv, rv)) in rooms.iter().enumerate() {
        for &(w, pw, rw) in &rooms[i + 1..] {
            if distance(pv, pw) < rv + rw {
                check.overlaps.push((v, w));
            }
        }
    }
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
