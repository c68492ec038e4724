//! Corridors: each edge whose rooms are placed gets a corridor shape and
//! position, placed greedily, whose doors meet both rooms.

use super::run::{Partial, Run, NONE};
use crate::layout::polygon::GridPoint;
use crate::layout::template::Shape;

impl Run<'_, '_> {
    /// The layout with a corridor placed greedily for every edge whose rooms
    /// are both placed and that has none yet; None when one cannot be
    /// placed. Without corridors, the layout itself.
    pub(super) fn with_corridors(&mut self, layout: &Partial) -> Option<Partial> {
        let prep = self.prep;
        if prep.problem.corridors.is_none() {
            return Some(layout.clone());
        }
        let mut out = layout.clone();
        for (k, &[a, b]) in prep.problem.edges.iter().enumerate() {
            if out.corridor[k].is_some() || out.shape[a] == NONE || out.shape[b] == NONE {
                continue;
            }
            let placed = self.place_corridor(&out, k)?;
            out.corridor[k] = Some(placed);
        }
        Some(out)
    }

    /// A corridor for edge `k`: some corridor shape and position whose two
    /// doors meet the two rooms and that overlaps no room or corridor.
    pub(super) fn place_corridor(&self, layout: &Partial, k: usize) -> Option<(u32, GridPoint)> {
        let prep = self.prep;
        let [a, b] = prep.problem.edges[k];
        let (sa, pa, sb, pb) = (
            layout.shape[a],
            layout.pos[a],
            layout.shape[b],
            layout.pos[b],
        );
        for (ci, &c) in prep.corridor_shapes.iter().enumerate() {
            let cshape = &prep.shapes[c as usize];
            for i in 0..cshape.doors.len() {
                let near = prep.corridor_doors.near(sa as usize, ci, i);
                self.charge(near.boxes.len() as u64);
                let near = near.shifted(pa);
                for j in 0..cshape.doors.len() {
                    if j == i {
                        continue;
                    }
                    // b relative to the corridor by its door j; corridor
                    // positions are then pb − that.
                    let far = prep.corridor_doors.far(ci, j, sb as usize);
                    self.charge(far.boxes.len() as u64);
                    let far = far.negated().shifted(pb);
                    let both = self.intersect(&near, &far);
                    for q in 0..both.weight() {
                        // Positions are not iterations: the work budget
                        // bounds this loop.
                        if self.out_of_work() {
                            return None;
                        }
                        let p = both.nth(q);
                        if self.corridor_fits(layout, cshape, p) {
                            return Some((c, p));
                        }
                    }
                }
            }
        }
        None
    }

    /// Whether corridor shape `cshape` at `p` overlaps no placed room or
    /// corridor.
    pub(super) fn corridor_fits(&self, layout: &Partial, cshape: &Shape, p: GridPoint) -> bool {
        let prep = self.prep;
        let free_of = |other: &Shape, at: GridPoint| {
            self.charge(cshape.rects.len() as u64 * other.rects.len() as u64);
            cshape.overlap(p, other, at) == 0
        };
        for w in 0..layout.shape.len() {
            let sw = layout.shape[w];
            if sw != NONE && !free_of(&prep.shapes[sw as usize], layout.pos[w]) {
                return false;
            }
        }
        layout
            .corridor
            .iter()
            .flatten()
            .all(|&(cs, cp)| free_of(&prep.shapes[cs as usize], cp))
    }
}
