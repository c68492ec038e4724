//! The relaxation loop: forces on the moving vertices each step, the
//! energy and the stops (settled, unchanged, plateau, step limit), and
//! each vertex's capped move (cut down by the step bound where asked).

use super::kernels::{pull, push_off_edges, repel};
use super::lists::{Lists, LIST_SKIN};
use super::neighbours::Neighbours;
use super::{RelaxOutcome, RelaxParams, Spring, GAIN};
use crate::graph::Point;

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
    // When every vertex moves (the finishing relaxation, a rule's
    // drawing), many steps look at the whole drawing: neighbour lists
    // (Verlet's, from molecular dynamics) are made once with a skin and
    // remade only when vertices have moved as much as the skin, so a step
    // costs what is within reach, not a scan. A list holds everything
    // within reach plus the skin, in index order, so the forces are the
    // sums a scan of every candidate would make, in the same order.
    let listed = n > 0 && active.len() == n;
    let planar = params.planar.filter(|_| listed);
    debug_assert!(
        planar.is_none_or(
            |share| (0.0..0.5).contains(&share) && params.max_step <= share * 0.5 * params.base
        ),
        "the step bound needs a share in [0, 1/2) and max_step within its reach"
    );
    let skin = if listed {
        LIST_SKIN * params.max_step
    } else {
        0.0
    };
    scratch
        .near
        .choose(pos, radius, active, springs, params, skin);
    let free = active.len().max(1) as f64;
    let mut previous = f64::INFINITY;
    let mut outcome = RelaxOutcome::default();
    let mut stale = true;
    scratch.energies.clear();
    while outcome.steps < params.max_steps {
        outcome.steps += 1;
        let force = &mut scratch.force;
        force.clear();
        force.resize(n, [0.0, 0.0]);
        if listed {
            if stale {
                scratch.near.build(pos, springs, moving, n, params);
                scratch
                    .lists
                    .make(pos, radius, springs, params, &scratch.near);
                stale = false;
            }
            scratch.lists.repel(pos, params, force);
            pull(pos, &scratch.springs, moving, params, force);
            scratch.lists.push_off_edges(pos, springs, params, force);
        } else {
            scratch
                .near
                .build(pos, springs, moving, active.len(), params);
            repel(pos, radius, active, params, &scratch.near, force);
            pull(pos, &scratch.springs, moving, params, force);
            push_off_edges(pos, springs, active, moving, params, &scratch.near, force);
        }
        // Energy: the sum of squared forces on the moving vertices. Settled
        // when it is small (the mean force below `settled`, so no vertex
        // moves visibly), stops changing, or has reached its plateau; a
        // settled drawing is left as it is, without this step's move (a
        // relaxation that is settled at its first step moves nothing, and
        // its caller need not look for crossings).
        let energy: f64 = active
            .iter()
            .map(|&i| force[i][0] * force[i][0] + force[i][1] * force[i][1])
            .sum();
        let mut settled = energy <= params.settled * params.settled * free
            || (previous.is_finite() && (previous - energy).abs() <= params.tolerance * previous);
        if let Some(plateau) = params.plateau {
            let window = plateau.window.max(1) as usize;
            let energies = &mut scratch.energies;
            energies.push(energy);
            let k = energies.len();
            if k >= 2 * window {
                let recent: f64 = energies[k - window..].iter().sum();
                let before: f64 = energies[k - 2 * window..k - window].iter().sum();
                settled |= recent >= (1.0 - plateau.drop) * before
                    && recent <= plateau.calm * plateau.calm * free * window as f64;
            }
        }
        if settled {
            outcome.converged = true;
            break;
        }
        if let Some(share) = planar {
            // The same moves, cut down where they would take a vertex and
            // an edge too near each other; an uncut move (not multiplied
            // by 1) is added with the same bits as below.
            let moves = &mut scratch.moves;
            moves.clear();
            moves.resize(n, [0.0, 0.0]);
            for &i in active {
                if let Some(m) = capped_move(force[i], params) {
                    moves[i] = m;
                }
            }
            scratch
                .lists
                .bound_moves(pos, springs, share, moves, &mut scratch.allowed);
            for &i in active {
                let m = moves[i];
                if m != [0.0, 0.0] {
                    pos[i][0] += m[0];
                    pos[i][1] += m[1];
                    outcome.moved = true;
                }
            }
        } else {
            for &i in active {
                if let Some(m) = capped_move(force[i], params) {
                    pos[i][0] += m[0];
                    pos[i][1] += m[1];
                    outcome.moved = true;
                }
            }
        }
        if listed {
            stale = scratch.lists.moved_past(pos, skin);
        }
        previous = energy;
    }
    outcome
}

/// The move of a vertex under the force `f` in one step: a fraction
/// ([`GAIN`]) of the force, in base units, capped at `max_step` (with the
/// whole force, an edge's two ends would overshoot its length and
/// oscillate for ever); `None` under no force. The same bits whether it is
/// added at once or first cut down by the step bound
/// ([`RelaxParams::planar`]).
#[inline]
fn capped_move(f: Point, params: &RelaxParams) -> Option<Point> {
    let len = (f[0] * f[0] + f[1] * f[1]).sqrt();
    let step = GAIN * params.base * len;
    if step > 0.0 {
        let scale = step.min(params.max_step) / len;
        Some([f[0] * scale, f[1] * scale])
    } else {
        None
    }
}

/// Buffers of [`relax`], reused between calls.
#[derive(Debug, Default)]
pub(crate) struct RelaxScratch {
    /// The energy of every step so far, for the plateau stop.
    energies: Vec<f64>,
    force: Vec<Point>,
    moving: Vec<bool>,
    springs: Vec<Spring>,
    pub(super) near: Neighbours,
    lists: Lists,
    /// The moves of a bounded step ([`RelaxParams::planar`]), and the
    /// share of each that is allowed.
    moves: Vec<Point>,
    allowed: Vec<f64>,
}
