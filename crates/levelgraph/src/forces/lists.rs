//! Verlet neighbour lists, for a relaxation that moves every vertex: made
//! once with a skin and remade only when vertices have moved as much.

use super::kernels::{off_edge, push_apart, separation, touching};
use super::neighbours::Neighbours;
use super::{RelaxParams, Spring};
use crate::graph::Point;
use crate::plane::{norm, off_segment};

/// The skin of the neighbour lists, in maximum steps: lists are remade
/// when the two vertices that moved most have moved this much together
/// (eight full steps at least). A thicker skin means longer lists; a
/// thinner one, more remaking (4 and 16 measured within a few per cent
/// of 8).
pub(super) const LIST_SKIN: f64 = 8.0;

/// Neighbour lists of a relaxation that moves every vertex: per vertex
/// `i`, the vertices `j > i` and the solid springs not at `i` that were
/// within reach plus the skin when the lists were made. Until two
/// vertices have moved the skin together, no other pair or vertex–spring
/// pair can have come within reach (a distance changes by at most the
/// moves of its two ends, and a segment moves no farther than its
/// ends), so the lists hold every interaction.
#[derive(Debug, Default)]
pub(super) struct Lists {
    pub(super) pair_start: Vec<u32>,
    pub(super) pairs: Vec<u32>,
    /// Per pair, the distance at which its two vertices touch
    /// ([`separation`]), worked out once per list instead of every step.
    pub(super) separations: Vec<f64>,
    pub(super) spring_start: Vec<u32>,
    pub(super) springs: Vec<u32>,
    /// Positions when the lists were made.
    pub(super) anchor: Vec<Point>,
    pub(super) gather: Vec<u32>,
}

impl Lists {
    /// Makes the lists at `pos`, finding candidates through `near` (built
    /// with the skin).
    pub(super) fn make(
        &mut self,
        pos: &[Point],
        radius: &[f64],
        springs: &[Spring],
        params: &RelaxParams,
        near: &Neighbours,
    ) {
        let n = pos.len();
        let skin = near.skin;
        let range = 0.5 * params.base + skin;
        self.pair_start.clear();
        self.pairs.clear();
        self.separations.clear();
        self.spring_start.clear();
        self.springs.clear();
        self.pair_start.push(0);
        self.spring_start.push(0);
        for i in 0..n {
            let p = pos[i];
            self.gather.clear();
            if near.all {
                // Every later vertex, 64 at a time into a mask without a
                // branch per pair (most are beyond reach), in index order.
                let ri = radius[i];
                for start in (i + 1..n).step_by(64) {
                    let end = (start + 64).min(n);
                    let mut mask = 0u64;
                    for (b, (q, &rj)) in pos[start..end].iter().zip(&radius[start..end]).enumerate()
                    {
                        let (dx, dy) = (p[0] - q[0], p[1] - q[1]);
                        let reach = params.range * touching(ri, rj, params) + skin;
                        mask |= u64::from(dx * dx + dy * dy < reach * reach) << b;
                    }
                    while mask != 0 {
                        let j = start + mask.trailing_zeros() as usize;
                        self.pairs.push(j as u32);
                        self.separations.push(touching(ri, radius[j], params));
                        mask &= mask - 1;
                    }
                }
            } else {
                let (x, y) = near.column_row(p);
                let (x0, x1) = (x.saturating_sub(1), (x + 1).min(near.columns - 1));
                let (y0, y1) = (y.saturating_sub(1), (y + 1).min(near.rows - 1));
                for r in y0..=y1 {
                    let row = r * near.columns;
                    let (a, b) = (near.start[row + x0], near.start[row + x1 + 1]);
                    self.gather.extend(
                        near.members[a as usize..b as usize]
                            .iter()
                            .filter(|&&j| j as usize > i),
                    );
                }
                self.gather.sort_unstable();
                for &j in &self.gather {
                    let q = pos[j as usize];
                    let (dx, dy) = (p[0] - q[0], p[1] - q[1]);
                    let touch = separation(radius, params, i, j as usize);
                    let reach = params.range * touch + skin;
                    if dx * dx + dy * dy < reach * reach {
                        self.pairs.push(j);
                        self.separations.push(touch);
                    }
                }
            }
            self.pair_start.push(self.pairs.len() as u32);
            near.springs_holding(p, |c| {
                let k = near.springs[c] as usize;
                let s = &springs[k];
                if i != s.a && i != s.b && norm(off_segment(p, pos[s.a], pos[s.b]).1) < range {
                    self.springs.push(k as u32);
                }
            });
            self.spring_start.push(self.springs.len() as u32);
        }
        self.anchor.clear();
        self.anchor.extend_from_slice(pos);
    }

    /// Whether two vertices may together have moved `skin` or more since
    /// the lists were made (the two largest moves add up to it): only then
    /// can a pair, or a vertex and a spring, have come from beyond reach
    /// plus the skin to within reach.
    pub(super) fn moved_past(&self, pos: &[Point], skin: f64) -> bool {
        let (mut first, mut second) = (0.0f64, 0.0f64);
        for (p, a) in pos.iter().zip(&self.anchor) {
            let (dx, dy) = (p[0] - a[0], p[1] - a[1]);
            let d2 = dx * dx + dy * dy;
            if d2 > second {
                if d2 > first {
                    second = first;
                    first = d2;
                } else {
                    second = d2;
                }
            }
        }
        first.sqrt() + second.sqrt() >= skin
    }

    /// [`super::kernels::repel`] over the lists: each pair once, acting on both ends.
    pub(super) fn repel(&self, pos: &[Point], params: &RelaxParams, force: &mut [Point]) {
        for i in 0..pos.len() {
            let mut fi = [0.0, 0.0];
            let (a, b) = (self.pair_start[i], self.pair_start[i + 1]);
            let (a, b) = (a as usize, b as usize);
            for (&j, &touch) in self.pairs[a..b].iter().zip(&self.separations[a..b]) {
                let j = j as usize;
                if let Some(f) = push_apart(pos, params, i, j, touch) {
                    fi[0] += f[0];
                    fi[1] += f[1];
                    force[j][0] -= f[0];
                    force[j][1] -= f[1];
                }
            }
            force[i][0] += fi[0];
            force[i][1] += fi[1];
        }
    }

    /// [`super::kernels::push_off_edges`] over the lists (every vertex moving).
    pub(super) fn push_off_edges(
        &self,
        pos: &[Point],
        springs: &[Spring],
        params: &RelaxParams,
        force: &mut [Point],
    ) {
        let range = 0.5 * params.base;
        for i in 0..pos.len() {
            let p = pos[i];
            let (a, b) = (self.spring_start[i], self.spring_start[i + 1]);
            for &k in &self.springs[a as usize..b as usize] {
                let s = &springs[k as usize];
                if let Some((t, f)) = off_edge(p, pos[s.a], pos[s.b], range) {
                    force[i][0] += f[0];
                    force[i][1] += f[1];
                    force[s.a][0] -= f[0] * (1.0 - t);
                    force[s.a][1] -= f[1] * (1.0 - t);
                    force[s.b][0] -= f[0] * t;
                    force[s.b][1] -= f[1] * t;
                }
            }
        }
    }
}
