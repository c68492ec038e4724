//! The forces: inverse-square repulsion with a contact push, the springs,
//! and the short-range push of vertices off edges.

use super::neighbours::Neighbours;
use super::{RelaxParams, Spring};
use crate::graph::Point;
use crate::plane::off_segment;

/// Inverse-square repulsion on each active vertex from every vertex within
/// range, plus a linear push between circles closer than their radii and
/// margin. (When every vertex moves, [`super::lists::Lists::repel`] does this.)
pub(super) fn repel(
    pos: &[Point],
    radius: &[f64],
    active: &[usize],
    params: &RelaxParams,
    near: &Neighbours,
    force: &mut [Point],
) {
    // While rewriting no vertex has a radius: every pair touches at the
    // base length, and the loop need not read radii.
    if radius.iter().all(|&r| r == 0.0) {
        if params.base == 1.0 {
            // The rewriting's unit length as a constant: the compiler then
            // drops the multiplications and divisions by it (exact).
            repel_at(pos, active, params, near, force, |_, _| 1.0);
        } else {
            repel_at(pos, active, params, near, force, |_, _| params.base);
        }
    } else {
        repel_at(pos, active, params, near, force, |i, j| {
            separation(radius, params, i, j)
        });
    }
}

/// [`repel`] with the pair separations given by `separation`.
fn repel_at(
    pos: &[Point],
    active: &[usize],
    params: &RelaxParams,
    near: &Neighbours,
    force: &mut [Point],
    separation: impl Fn(usize, usize) -> f64,
) {
    for &i in active {
        let mut fi = [0.0, 0.0];
        let mut add = |j: usize| {
            if j != i {
                if let Some(f) = push_apart(pos, params, i, j, separation(i, j)) {
                    fi[0] += f[0];
                    fi[1] += f[1];
                }
            }
        };
        if near.all {
            near.vertices.iter().for_each(|&j| add(j as usize));
        } else {
            // The 3 × 3 cells around `i`'s, a row at a time: a row's
            // cells are one run of `members`.
            let (x, y) = near.column_row(pos[i]);
            let (x0, x1) = (x.saturating_sub(1), (x + 1).min(near.columns - 1));
            let (y0, y1) = (y.saturating_sub(1), (y + 1).min(near.rows - 1));
            for r in y0..=y1 {
                let row = r * near.columns;
                let (a, b) = (near.start[row + x0], near.start[row + x1 + 1]);
                near.members[a as usize..b as usize]
                    .iter()
                    .for_each(|&j| add(j as usize));
            }
        }
        force[i][0] += fi[0];
        force[i][1] += fi[1];
    }
}

/// The distance at which vertices `i` and `j` touch: their radii and the
/// margin, or the base length when they have no radii.
#[inline]
pub(super) fn separation(radius: &[f64], params: &RelaxParams, i: usize, j: usize) -> f64 {
    touching(radius[i], radius[j], params)
}

/// [`separation`] of two vertices with radii `ri` and `rj`.
#[inline]
pub(super) fn touching(ri: f64, rj: f64, params: &RelaxParams) -> f64 {
    let contact = ri + rj;
    if contact > 0.0 {
        contact + params.margin
    } else {
        params.base
    }
}

/// The repulsion on vertex `i` from vertex `j` (distinct) that touch at
/// `separation` ([`separation`]), `None` beyond reach.
#[inline]
pub(super) fn push_apart(
    pos: &[Point],
    params: &RelaxParams,
    i: usize,
    j: usize,
    separation: f64,
) -> Option<Point> {
    let dx = pos[i][0] - pos[j][0];
    let dy = pos[i][1] - pos[j][1];
    let d2 = dx * dx + dy * dy;
    let reach = params.range * separation;
    if d2 >= reach * reach {
        return None;
    }
    // One division per pair in reach (this is the innermost loop of
    // every relaxation): the unit vector and the ratio share `1 / d`.
    let (d, inverse, ux, uy) = if d2 > 1e-18 {
        let d = d2.sqrt();
        let inverse = 1.0 / d;
        (d, inverse, dx * inverse, dy * inverse)
    } else {
        // Coincident: part them along a fixed direction by index.
        (1e-9, 1e9, if i < j { 1.0 } else { -1.0 }, 0.0)
    };
    let ratio = if d >= 1e-3 * separation {
        separation * inverse
    } else {
        1e3
    };
    let mut f = params.repulsion * ratio * ratio;
    if d < separation {
        f += (separation - d) / separation * 4.0;
    }
    Some([ux * f, uy * f])
}

/// Spring forces along the edges, on their moving ends.
pub(super) fn pull(
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
pub(super) fn push_off_edges(
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
        near.springs_holding(p, |c| {
            let k = near.springs[c] as usize;
            let s = &springs[k];
            if i == s.a || i == s.b {
                return;
            }
            let Some((t, f)) = off_edge(p, pos[s.a], pos[s.b], range) else {
                return;
            };
            force[i][0] += f[0];
            force[i][1] += f[1];
            if moving[s.a] {
                force[s.a][0] -= f[0] * (1.0 - t);
                force[s.a][1] -= f[1] * (1.0 - t);
            }
            if moving[s.b] {
                force[s.b][0] -= f[0] * t;
                force[s.b][1] -= f[1] * t;
            }
        });
    }
}

/// The push of a vertex at `p` off the segment `a b` when it is closer
/// than `range` (and not on it): where along the segment it is nearest
/// (`t` in [0, 1]) and the force on the vertex; the segment's ends take
/// its opposite in the shares `1 − t` and `t`.
#[inline]
pub(super) fn off_edge(p: Point, a: Point, b: Point, range: f64) -> Option<(f64, Point)> {
    if a == b {
        return None;
    }
    let (t, [dx, dy]) = off_segment(p, a, b);
    let d = (dx * dx + dy * dy).sqrt();
    if d >= range || d < 1e-12 {
        return None;
    }
    let f = (range / d - 1.0).min(4.0) / d;
    Some((t, [dx * f, dy * f]))
}
