//! The energy of a partial layout (Ma et al. 2014, see the [engine's
//! docs](super)): integer overlap and distance terms per pair of rooms, and
//! the repeat mode's rule for two shapes.

use super::run::{Partial, Run, NONE};
use crate::exact::exp;
use crate::layout::template::RepeatMode;

/// The energy terms of Ma et al. 2014: overlap area `A` and four times the
/// squared distance `D` (centres are kept doubled, as integers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Terms {
    pub(super) area: i64,
    pub(super) distance4: i64,
}

impl Terms {
    pub(super) fn add(&mut self, o: Terms) {
        self.area += o.area;
        self.distance4 += o.distance4;
    }

    pub(super) fn sub(&mut self, o: Terms) {
        self.area -= o.area;
        self.distance4 -= o.distance4;
    }
}

impl Run<'_, '_> {
    /// Whether shapes `a` and `b` of two rooms (joined by an edge or not)
    /// break the repeat mode.
    pub(super) fn repeats(&self, a: u32, b: u32, joined: bool) -> bool {
        let prep = self.prep;
        let same = prep.shapes[a as usize].template == prep.shapes[b as usize].template;
        match prep.problem.repeat {
            RepeatMode::Allow => false,
            RepeatMode::NoImmediate => same && joined,
            RepeatMode::NoRepeat => same,
        }
    }

    pub(super) fn repeat_allows(&self, layout: &Partial, r: usize, s: u32) -> bool {
        let prep = self.prep;
        let template = prep.shapes[s as usize].template;
        let same = |w: usize| {
            layout.shape[w] != NONE && prep.shapes[layout.shape[w] as usize].template == template
        };
        match prep.problem.repeat {
            RepeatMode::Allow => true,
            RepeatMode::NoImmediate => !prep.neighbours[r].iter().any(|&(w, _)| same(w)),
            RepeatMode::NoRepeat => !(0..layout.shape.len()).any(|w| w != r && same(w)),
        }
    }

    /// `exp(A / ω) · exp(D / ω) − 1`, exactly 0 when both terms are.
    pub(super) fn energy_of(&self, t: Terms) -> f64 {
        if t.area == 0 && t.distance4 == 0 {
            return 0.0;
        }
        // exp(A/ω)·exp(D/ω) as one exponential.
        let omega = self.prep.omega;
        exp((t.area as f64 + t.distance4 as f64 / 4.0) / omega) - 1.0
    }

    /// The energy of room `r` against every other placed part.
    pub(super) fn room_energy(&self, layout: &Partial, r: usize) -> f64 {
        self.energy_of(self.room_terms(layout, r))
    }

    /// The terms of room `r` against every other placed room and against
    /// placed corridors of edges not at `r` (see [`Run::pair_term`] and
    /// [`Run::corridor_term`]). Integers, so that adding and taking away a
    /// room's terms is exact.
    pub(super) fn room_terms(&self, layout: &Partial, r: usize) -> Terms {
        let mut t = self.corridor_term(layout, r);
        for w in 0..layout.shape.len() {
            if layout.shape[w] != NONE && w != r {
                t.add(self.pair_term(layout, r, w));
            }
        }
        t
    }

    /// The terms of placed rooms `r` and `w` (symmetric): overlap area,
    /// plus for unjoined rooms nearer than the minimum distance the
    /// shortfall times a room side, plus a room's area for a template the
    /// repeat mode forbids; and for joined rooms not in contact four times
    /// their squared centre distance (plus 4).
    pub(super) fn pair_term(&self, layout: &Partial, r: usize, w: usize) -> Terms {
        let prep = self.prep;
        let (sr, pr) = (layout.shape[r], layout.pos[r]);
        let (sw, pw) = (layout.shape[w], layout.pos[w]);
        let (shape, other_shape) = (&prep.shapes[sr as usize], &prep.shapes[sw as usize]);
        let min = prep.min_distance;
        let joined = prep.joined(r, w);
        let rect_pairs = shape.rects.len() as u64 * other_shape.rects.len() as u64;
        let overlap = shape.overlap(pr, other_shape, pw);
        let mut t = Terms {
            area: overlap,
            distance4: 0,
        };
        if self.repeats(sr, sw, joined) {
            // Not a term of Ma et al. 2014: makes the annealing change the
            // shape of a room that repeats a template where the repeat mode
            // forbids it.
            t.area += prep.side * prep.side;
        }
        // A unit per pair of rectangles; the membership test of joined
        // rooms' space beside it looks at fewer boxes than the shapes
        // have pairs of door lines, and is not counted.
        self.charge(rect_pairs);
        if joined {
            if !prep.space(sw, sr).contains(pr - pw) {
                let c1 = shape.centre2 + pr + pr;
                let c2 = other_shape.centre2 + pw + pw;
                let (dx, dy) = (i64::from(c1.x - c2.x), i64::from(c1.y - c2.y));
                // +4 (one unit of D): two rooms out of contact with the same
                // centre (one in the other's notch) still count.
                t.distance4 = dx * dx + dy * dy + 4;
            }
        } else if min > 0 && overlap == 0 {
            self.charge(rect_pairs);
            let gap = shape.gap(pr, other_shape, pw);
            if gap < min {
                t.area += i64::from(min - gap) * prep.side;
            }
        }
        t
    }

    /// The overlap of room `r` with the placed corridors of edges not at
    /// `r`.
    pub(super) fn corridor_term(&self, layout: &Partial, r: usize) -> Terms {
        let prep = self.prep;
        let shape = &prep.shapes[layout.shape[r] as usize];
        let mut t = Terms::default();
        for (k, c) in layout.corridor.iter().enumerate() {
            let Some((cs, cp)) = *c else { continue };
            let [a, b] = prep.problem.edges[k];
            if a != r && b != r {
                let corridor = &prep.shapes[cs as usize];
                self.charge(shape.rects.len() as u64 * corridor.rects.len() as u64);
                t.area += shape.overlap(layout.pos[r], corridor, cp);
            }
        }
        t
    }
}
