//! The planarity-preserving step bound (after PrEd and ImPrEd): a vertex
//! and a corridor it is not on close at most a share of their distance in
//! a step, so no step makes corridors cross ([`super::RelaxParams::planar`]).

use super::lists::Lists;
use super::Spring;
use crate::graph::Point;
use crate::plane::off_segment;

impl Lists {
    /// Cuts `moves` (one per vertex) down so that no vertex moves toward
    /// a solid spring it is not an end of by more than `share` of its
    /// distance `d` to the spring, and neither of the spring's ends
    /// toward the vertex. "Toward" is along the direction from the
    /// spring's nearest point to the vertex: before the step the spring
    /// lies on one side of the line through that point square to it, the
    /// vertex `d` away on the other; while they move straight to their
    /// new places, the vertex comes at most `share · d` nearer that line
    /// and every point of the spring (between its ends) at most
    /// `share · d` too, so with `share` below one half they stay apart.
    /// A vertex never meeting an edge it is not an end of, no two edges
    /// without a common end come to cross (to cross, an end of one would
    /// first have to touch the other). Moves away from a spring are not
    /// cut. A move is scaled as a whole, by the smallest factor
    /// any of its pairs allows; a vertex on a spring (or at a
    /// zero-length spring's point) stops, with the spring's ends.
    /// Only the pairs in the lists are looked at: a pair `d` apart binds
    /// only when `share · d` is below `max_step`, and the lists hold every
    /// pair within `base / 2` ([`super::RelaxParams::planar`]). O(listed pairs).
    pub(super) fn bound_moves(
        &self,
        pos: &[Point],
        springs: &[Spring],
        share: f64,
        moves: &mut [Point],
        allowed: &mut Vec<f64>,
    ) {
        let n = pos.len();
        allowed.clear();
        allowed.resize(n, 1.0);
        let dot = |m: Point, u: Point| m[0] * u[0] + m[1] * u[1];
        for i in 0..n {
            let p = pos[i];
            let (a, b) = (self.spring_start[i], self.spring_start[i + 1]);
            for &k in &self.springs[a as usize..b as usize] {
                let s = &springs[k as usize];
                // `off` points from the spring's nearest point to `p`.
                let (_, off) = off_segment(p, pos[s.a], pos[s.b]);
                let d2 = dot(off, off);
                if d2 < 1e-24 {
                    allowed[i] = 0.0;
                    allowed[s.a] = 0.0;
                    allowed[s.b] = 0.0;
                    continue;
                }
                // A move `m` comes nearer by `m · off / d`; at most
                // `share · d` means `m · off` at most `share · d²`.
                let limit = share * d2;
                let mut cut = |v: usize, toward: f64| {
                    if toward > limit {
                        allowed[v] = allowed[v].min(limit / toward);
                    }
                };
                cut(i, -dot(moves[i], off));
                cut(s.a, dot(moves[s.a], off));
                cut(s.b, dot(moves[s.b], off));
            }
        }
        for (m, &f) in moves.iter_mut().zip(allowed.iter()) {
            if f < 1.0 {
                *m = [m[0] * f, m[1] * f];
            }
        }
    }
}
