//! Force-directed relaxation of a drawing in progress (geometric derivation; a
//! spring embedder after Eades 1984): springs toward each edge's desired
//! length, inverse-square repulsion between vertices that counts their room
//! radii, a short-range push of vertices off edges they are not part of, and a
//! cap on each vertex's move per step (and, where asked, a bound that keeps
//! every step from making edges cross: [`RelaxParams::planar`]). Stops when the
//! drawing's energy stops changing, or at a step limit.
//!
//! The spring is Eades' logarithmic one ("A heuristic for graph drawing",
//! 1984), or an algebraic sigmoid, which pulls long edges in more strongly
//! than the logarithmic spring does (BENCHMARKS.md compares the two).

use crate::graph::Point;
use crate::plane::{ln, norm, off_segment, segments_cross, sigmoid};
use crate::settings::SpringShape;

impl SpringShape {
    /// The force pulling the ends of an edge together (negative: pushing
    /// apart), in units of the spring's strength.
    pub(crate) fn force(self, d: f64, length: f64) -> f64 {
        match self {
            SpringShape::Logarithmic => ln(d / length),
            // Dividing by a length of 1 (most springs while rewriting)
            // changes nothing: skip the division, which is on the
            // critical path of every spring.
            SpringShape::Sigmoid if length == 1.0 => sigmoid(d - 1.0),
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
    /// Repulsion range, in separations: pairs farther apart than `range`
    /// times their separation do not interact ([`RANGE`] while rewriting
    /// and in rule drawings, `FINISH_RANGE` in `finish`).
    pub(crate) range: f64,
    /// Largest move of one vertex in one step.
    pub(crate) max_step: f64,
    /// Stop when the energy changes by less than this fraction in a step.
    pub(crate) tolerance: f64,
    /// Stop when the root-mean-square force on the moving vertices is
    /// below this (in the units of the spring's strength).
    pub(crate) settled: f64,
    /// Most steps.
    pub(crate) max_steps: u32,
    /// The plateau stop, if any (see [`Plateau`]).
    pub(crate) plateau: Option<Plateau>,
    /// The planarity-preserving step bound, if any (after Bertault's
    /// PrEd, 1999): in a step, a vertex moves toward a solid edge it is
    /// not an end of by at most this share of its distance to the edge,
    /// and the edge's ends toward the vertex likewise
    /// ([`Lists::bound_moves`]). Below one half, no step can bring a
    /// vertex onto such an edge, so no step makes two corridors cross (a
    /// negative share would turn moves around: not allowed).
    /// Only where every vertex moves (the neighbour lists hold the pairs
    /// it looks at; ignored otherwise), and only with `max_step` at most
    /// this share of `base / 2`: the pairs it can bind are then among
    /// those the vertex–edge push lists.
    pub(crate) planar: Option<f64>,
}

/// A relaxation's plateau stop: it also stops when the energy summed over
/// the last `window` steps is at most `drop` (a fraction) below its sum
/// over the `window` steps before, provided the root-mean-square force
/// over those last `window` steps is at most `calm`. The energy of the
/// finishing relaxation, seen step by step, falls fast and then jitters
/// around a floor (vertices held by several springs overshoot back and
/// forth); the step-to-step `tolerance` never fires on that jitter, the
/// sums over windows do. The `calm` bound keeps the stop from firing while
/// the drawing is still contracting at full speed, where springs far
/// beyond their length pull with a nearly constant force and the energy
/// stays level too.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plateau {
    /// Steps per window (at least 1).
    pub(crate) window: u32,
    /// Largest fall of the energy between the two windows, as a fraction,
    /// that still counts as a plateau.
    pub(crate) drop: f64,
    /// Largest root-mean-square force over the last window.
    pub(crate) calm: f64,
}

/// How a relaxation ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct RelaxOutcome {
    pub(crate) steps: u32,
    /// Whether the energy settled (else the step limit stopped it).
    pub(crate) converged: bool,
    /// Whether the result was thrown away because it made corridors cross.
    pub(crate) reverted: bool,
    /// Whether any vertex moved (a relaxation settled at its first step
    /// leaves the drawing as it was).
    pub(crate) moved: bool,
}

/// The fraction of the force a vertex moves by in a step (stable for a
/// vertex held by up to about ten unit-slope springs).
const GAIN: f64 = 0.2;

/// Root-mean-square force below which a rule's drawing counts as settled:
/// a step then moves a vertex by at most about `GAIN × SETTLED` = 0.2 % of
/// the base length. (The relaxations of a derivation stop at looser
/// bounds: `REWRITE_SETTLED` in `geometric`, `FINISH_SETTLED` in
/// `finish`.)
pub(crate) const SETTLED: f64 = 0.01;

/// Repulsion range of the rewriting and of rule drawings, in separations
/// ([`RelaxParams::range`]): pairs farther apart than this do not
/// interact (their inverse-square force is below a quarter of the force at
/// one separation, itself a twentieth of a spring's pull at twice its
/// length). Measured: 2 instead of 3 separations ends as near the ideal
/// lengths or nearer, on fewer candidate vertices.
pub(crate) const RANGE: f64 = 2.0;

/// Below this many (active vertex, candidate) pairs a step scans every
/// candidate instead of putting them in cells.
const ALL_BELOW: usize = 4096;

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

/// Pairs of solid springs that share no end, at least one of which has a
/// `moving` end, and whose segments meet (a touch counts). Only springs
/// whose box meets the box of the moving ones are tested, and a pair only
/// when their boxes meet (segments whose boxes are apart have no point in
/// common), so the count is that of testing every pair. O(m + k·m') for
/// `k` springs at moving vertices and `m'` springs near them. `movers`:
/// a buffer.
pub(crate) fn crossings(
    pos: &[Point],
    springs: &[Spring],
    moving: &[bool],
    movers: &mut Vec<Mover>,
) -> usize {
    let bounds = |s: &Spring| {
        let (a, b) = (pos[s.a], pos[s.b]);
        Box2 {
            lo: [a[0].min(b[0]), a[1].min(b[1])],
            hi: [a[0].max(b[0]), a[1].max(b[1])],
        }
    };
    let mut area = Box2 {
        lo: [f64::INFINITY; 2],
        hi: [f64::NEG_INFINITY; 2],
    };
    movers.clear();
    for (i, s) in springs.iter().enumerate() {
        if s.solid && (moving[s.a] || moving[s.b]) {
            let b = bounds(s);
            area = Box2 {
                lo: [area.lo[0].min(b.lo[0]), area.lo[1].min(b.lo[1])],
                hi: [area.hi[0].max(b.hi[0]), area.hi[1].max(b.hi[1])],
            };
            movers.push(Mover {
                index: i,
                bounds: b,
            });
        }
    }
    let mut count = 0;
    for (j, t) in springs.iter().enumerate() {
        if !t.solid {
            continue;
        }
        let bt = bounds(t);
        if !bt.meets(&area) {
            continue;
        }
        let t_moves = moving[t.a] || moving[t.b];
        // The movers whose box meets `t`'s, 64 at a time into a mask
        // without a branch per mover (most are apart); the count does
        // not depend on the order pairs are looked at.
        for movers in movers.chunks(64) {
            let mut mask = 0u64;
            for (b, m) in movers.iter().enumerate() {
                mask |= u64::from(m.bounds.meets(&bt)) << b;
            }
            while mask != 0 {
                let i = movers[mask.trailing_zeros() as usize].index;
                mask &= mask - 1;
                let s = &springs[i];
                // A pair with both moving is seen twice: count it once.
                if (t_moves && j < i) || s.a == t.a || s.a == t.b || s.b == t.a || s.b == t.b {
                    continue;
                }
                if segments_cross(pos[s.a], pos[s.b], pos[t.a], pos[t.b]) {
                    count += 1;
                }
            }
        }
    }
    count
}

/// A spring with a moving end, and its box, for [`crossings`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mover {
    index: usize,
    bounds: Box2,
}

/// Buffers of [`relax`], reused between calls.
#[derive(Debug, Default)]
pub(crate) struct RelaxScratch {
    /// The energy of every step so far, for the plateau stop.
    energies: Vec<f64>,
    force: Vec<Point>,
    moving: Vec<bool>,
    springs: Vec<Spring>,
    near: Neighbours,
    lists: Lists,
    /// The moves of a bounded step ([`RelaxParams::planar`]), and the
    /// share of each that is allowed.
    moves: Vec<Point>,
    allowed: Vec<f64>,
}

/// The skin of the neighbour lists, in maximum steps: lists are remade
/// when the two vertices that moved most have moved this much together
/// (eight full steps at least). A thicker skin means longer lists; a
/// thinner one, more remaking (4 and 16 measured within a few per cent
/// of 8).
const LIST_SKIN: f64 = 8.0;

/// Neighbour lists of a relaxation that moves every vertex: per vertex
/// `i`, the vertices `j > i` and the solid springs not at `i` that were
/// within reach plus the skin when the lists were made. Until two
/// vertices have moved the skin together, no other pair or vertex–spring
/// pair can have come within reach (a distance changes by at most the
/// moves of its two ends, and a segment moves no farther than its
/// ends), so the lists hold every interaction.
#[derive(Debug, Default)]
struct Lists {
    pair_start: Vec<u32>,
    pairs: Vec<u32>,
    /// Per pair, the distance at which its two vertices touch
    /// ([`separation`]), worked out once per list instead of every step.
    separations: Vec<f64>,
    spring_start: Vec<u32>,
    springs: Vec<u32>,
    /// Positions when the lists were made.
    anchor: Vec<Point>,
    gather: Vec<u32>,
}

impl Lists {
    /// Makes the lists at `pos`, finding candidates through `near` (built
    /// with the skin).
    fn make(
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
    fn moved_past(&self, pos: &[Point], skin: f64) -> bool {
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

    /// [`repel`] over the lists: each pair once, acting on both ends.
    fn repel(&self, pos: &[Point], params: &RelaxParams, force: &mut [Point]) {
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
    /// pair within `base / 2` ([`RelaxParams::planar`]). O(listed pairs).
    fn bound_moves(
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

    /// [`push_off_edges`] over the lists (every vertex moving).
    fn push_off_edges(
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

/// First and last cell (column, row) of a box.
type CellRange = ((usize, usize), (usize, usize));

/// An axis-aligned box, corners included.
#[derive(Clone, Copy, Debug)]
struct Box2 {
    lo: Point,
    hi: Point,
}

impl Box2 {
    /// Whether the two boxes have a point in common (edges included).
    #[inline]
    fn meets(&self, other: &Box2) -> bool {
        !((self.hi[0] < other.lo[0])
            | (other.hi[0] < self.lo[0])
            | (self.hi[1] < other.lo[1])
            | (other.hi[1] < self.lo[1]))
    }

    /// Whether `p` is in the box (its edges included). Without
    /// short-circuits: the four tests are cheaper than the branches
    /// between them.
    #[inline]
    fn holds(&self, p: Point) -> bool {
        !((p[0] < self.lo[0]) | (p[0] > self.hi[0]) | (p[1] < self.lo[1]) | (p[1] > self.hi[1]))
    }
}

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
    /// The reach (plus the lists' skin): the narrowest a cell may be.
    cell: f64,
    /// How much farther than the reach the neighbour lists look (0
    /// without lists).
    skin: f64,
    /// This step's cell width (at least `cell`).
    step_cell: f64,
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
    /// Per candidate spring (in the order of `springs`): its box grown by
    /// the push's range, at this step's positions.
    boxes: Vec<Box2>,
    /// Whether `boxes` were made in this relaxation; after that, only the
    /// boxes of springs with a moving end change.
    boxed: bool,
    /// Positions in `springs` of the candidate springs with a moving end.
    shifting: Vec<u32>,
    /// Every candidate, when there are few or cells would outnumber them.
    all: bool,
}

impl Neighbours {
    /// Chooses the candidates for a relaxation of `active` by at most
    /// `params.max_steps` steps.
    fn choose(
        &mut self,
        pos: &[Point],
        radius: &[f64],
        active: &[usize],
        springs: &[Spring],
        params: &RelaxParams,
        skin: f64,
    ) {
        let n = pos.len();
        let widest = radius.iter().fold(0.0f64, |w, &r| w.max(r));
        // Two vertices without radii touch at the base length
        // ([`touching`]), which may be the farther, when some have radii.
        let separation = if widest > 0.0 {
            let with_radii = 2.0 * widest + params.margin;
            if radius.iter().any(|&r| r <= 0.0) {
                with_radii.max(params.base)
            } else {
                with_radii
            }
        } else {
            params.base
        };
        self.cell = params.range * separation + skin;
        self.skin = skin;
        self.boxed = false;
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
        // The box of the active vertices grown by `by`.
        let grown = |by: f64| {
            let mut lo = [f64::INFINITY; 2];
            let mut hi = [f64::NEG_INFINITY; 2];
            for &i in active {
                for k in 0..2 {
                    lo[k] = lo[k].min(pos[i][k] - by);
                    hi[k] = hi[k].max(pos[i][k] + by);
                }
            }
            (lo, hi)
        };
        let (lo, hi) = grown(self.cell + travel + 0.5 * params.base);
        let inside = |p: Point| p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1];
        self.vertices
            .extend((0..n).filter(|&i| inside(pos[i])).map(|i| i as u32));
        // A hair more, so that rounding cannot leave out what is exactly
        // at the edge; and a step's move is rounded to the coordinates'
        // spacing, which far from the origin (a host file's positions)
        // exceeds `max_step`'s share: at most half of `EPSILON` times the
        // coordinate per step, allowed for twice over.
        let extent = active
            .iter()
            .fold(0.0f64, |e, &i| e.max(pos[i][0].abs()).max(pos[i][1].abs()))
            + travel;
        let rounding = f64::from(params.max_steps) * extent * f64::EPSILON;
        let around = |by: f64| grown(by * (1.0 + 1e-9) + rounding);
        // A spring pushes an active vertex off itself only when its box,
        // grown by the push's range, holds the vertex; by then the vertex
        // and the spring's ends have each moved at most `travel`.
        let (lo, hi) = around(0.5 * params.base + 2.0 * travel);
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
        // Without cells (see `build`) every candidate is scanned at every
        // step, in index order: only those that can come within reach of
        // an active vertex need be (a vertex that stays, within the reach
        // of where an active vertex can get to). With cells the
        // candidates set the cells, and so the order of the sums: kept.
        if active.len() * self.vertices.len() < ALL_BELOW {
            let (lo, hi) = around(self.cell + travel);
            self.vertices.retain(|&i| {
                let p = pos[i as usize];
                p[0] >= lo[0] && p[0] <= hi[0] && p[1] >= lo[1] && p[1] <= hi[1]
            });
        }
    }

    /// Puts the candidates into cells at their current positions (or
    /// leaves them in one list when the `active` vertices times the
    /// candidates is small: a scan is then cheaper than the cells), with
    /// the candidate springs' boxes. After the first step of a relaxation
    /// only the boxes of springs with a `moving` end are made again (in a
    /// relaxation of an application's neighbourhood, most springs stay).
    fn build(
        &mut self,
        pos: &[Point],
        springs: &[Spring],
        moving: &[bool],
        active: usize,
        params: &RelaxParams,
    ) {
        let c = self.vertices.len();
        let range = 0.5 * params.base + self.skin;
        let grown = |k: u32| {
            let s = &springs[k as usize];
            let (a, b) = (pos[s.a], pos[s.b]);
            Box2 {
                lo: [a[0].min(b[0]) - range, a[1].min(b[1]) - range],
                hi: [a[0].max(b[0]) + range, a[1].max(b[1]) + range],
            }
        };
        if self.boxed {
            // A spring whose ends stay keeps its box, to the bit.
            for &slot in &self.shifting {
                self.boxes[slot as usize] = grown(self.springs[slot as usize]);
            }
        } else {
            self.boxes.clear();
            self.boxes.extend(self.springs.iter().map(|&k| grown(k)));
            let candidates = &self.springs;
            self.shifting.clear();
            self.shifting
                .extend((0..candidates.len() as u32).filter(|&slot| {
                    let s = &springs[candidates[slot as usize] as usize];
                    moving[s.a] || moving[s.b]
                }));
            self.boxed = true;
        }
        self.all = active * c < ALL_BELOW;
        if self.all {
            return;
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
        let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
        self.all = !(w.is_finite() && h.is_finite());
        if self.all {
            return;
        }
        // Cells at least as wide as the reach, and no more of them than
        // about twice the candidates: a spread-out drawing (the finishing
        // scale can make it tens of reaches wide) gets wider cells instead
        // of a scan of every pair. Any width at least the reach finds
        // every pair within reach.
        let target = (2 * c) as f64;
        self.step_cell = self
            .cell
            .max((w * h / target).sqrt())
            .max(w.max(h) / target);
        let span = |k: usize| ((hi[k] - lo[k]) / self.step_cell) as usize + 1;
        self.origin = lo;
        self.columns = span(0);
        self.rows = span(1);
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
        ranges.extend(
            self.boxes
                .iter()
                .map(|b| (self.column_row(b.lo), self.column_row(b.hi))),
        );
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
        for (c, &(lo, hi)) in ranges.iter().enumerate() {
            for y in lo.1..=hi.1 {
                for x in lo.0..=hi.0 {
                    let cell = y * self.columns + x;
                    self.spring_members[fill[cell] as usize] = c as u32;
                    fill[cell] += 1;
                }
            }
        }
        self.ranges = ranges;
    }

    /// Calls `f` with the position (in `springs` and `boxes`) of every
    /// candidate spring whose box holds `p`, in increasing order: the
    /// (solid) springs that may pass within the push's range of `p`.
    #[inline]
    fn springs_holding(&self, p: Point, mut f: impl FnMut(usize)) {
        if self.all {
            // 64 boxes at a time into a mask, without a branch per box
            // (almost every box is rejected), then the few that hold `p`.
            // Each test goes to a byte first (the compiler tests boxes in
            // pairs that way, not with a shift per box); eight 0/1 bytes
            // become eight bits with one multiplication, which moves byte
            // `k` to bit `56 + k` without carries.
            for (chunk, boxes) in self.boxes.chunks(64).enumerate() {
                let mut held = [0u8; 64];
                for (h, b) in held.iter_mut().zip(boxes) {
                    *h = u8::from(b.holds(p));
                }
                let mut mask = 0u64;
                for (k, bytes) in held.chunks_exact(8).enumerate() {
                    let word = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
                    let bits = word.wrapping_mul(0x0102_0408_1020_4080) >> 56;
                    mask |= bits << (8 * k);
                }
                while mask != 0 {
                    f(chunk * 64 + mask.trailing_zeros() as usize);
                    mask &= mask - 1;
                }
            }
        } else {
            // Those registered in `p`'s cell.
            let cell = self.index(p);
            let (a, b) = (self.spring_start[cell], self.spring_start[cell + 1]);
            for &c in &self.spring_members[a as usize..b as usize] {
                if self.boxes[c as usize].holds(p) {
                    f(c as usize);
                }
            }
        }
    }

    fn column_row(&self, p: Point) -> (usize, usize) {
        // `as` truncates toward 0 and saturates (negative and NaN to 0):
        // the floor, clamped at 0, without a libm `floor` call.
        let x = ((p[0] - self.origin[0]) / self.step_cell) as usize;
        let y = ((p[1] - self.origin[1]) / self.step_cell) as usize;
        (x.min(self.columns - 1), y.min(self.rows - 1))
    }

    fn index(&self, p: Point) -> usize {
        let (x, y) = self.column_row(p);
        y * self.columns + x
    }
}

/// Inverse-square repulsion on each active vertex from every vertex within
/// range, plus a linear push between circles closer than their radii and
/// margin. (When every vertex moves, [`Lists::repel`] does this.)
fn repel(
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
fn separation(radius: &[f64], params: &RelaxParams, i: usize, j: usize) -> f64 {
    touching(radius[i], radius[j], params)
}

/// [`separation`] of two vertices with radii `ri` and `rj`.
#[inline]
fn touching(ri: f64, rj: f64, params: &RelaxParams) -> f64 {
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
fn push_apart(
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
fn off_edge(p: Point, a: Point, b: Point, range: f64) -> Option<(f64, Point)> {
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
            near.choose(&pos, &radius, &active, &[], &p, 0.0);
            near.build(&pos, &[], &vec![true; n], active.len(), &p);
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
    use crate::plane::distance;

    fn params(shape: SpringShape) -> RelaxParams {
        RelaxParams {
            shape,
            spring: 1.0,
            repulsion: 0.05,
            base: 1.0,
            margin: 0.0,
            range: RANGE,
            max_step: 0.1,
            tolerance: 1e-4,
            settled: SETTLED,
            max_steps: 2_000,
            plateau: None,
            planar: None,
        }
    }

    /// One solid spring of length 1 between vertices 0 and 1.
    fn unit_edge() -> [Spring; 1] {
        [Spring {
            a: 0,
            b: 1,
            length: 1.0,
            strength: 1.0,
            solid: true,
        }]
    }

    /// A relaxation of some vertices takes as candidates only what can
    /// come within reach of them; it must move them exactly as when every
    /// vertex is a candidate (found in review: vertices without radii
    /// among vertices with radii, whose reach is the base length; and
    /// positions far from the origin, where a capped step is rounded to
    /// more than `max_step`).
    #[test]
    fn a_partial_relaxation_sees_everything_within_reach() {
        // Vertex 0 relaxed alone, with two far vertices (so that only the
        // candidates within reach are taken), against the same without
        // them (three vertices: every one is a candidate).
        fn check(pos: &[Point], radius: &[f64], springs: &[Spring], p: &RelaxParams) {
            let far = |x: Point| [x[0] + 1e3, x[1] + 1e3];
            let mut chosen = pos.to_vec();
            chosen.extend([far(pos[0]), far(far(pos[0]))]);
            let mut radii = radius.to_vec();
            radii.extend([0.0, 0.0]);
            relax(
                &mut chosen,
                &radii,
                &[0],
                springs,
                p,
                &mut RelaxScratch::default(),
            );
            let mut every = pos.to_vec();
            relax(
                &mut every,
                radius,
                &[0],
                springs,
                p,
                &mut RelaxScratch::default(),
            );
            assert_ne!(every[0], pos[0], "vertex 0 is moved");
            assert_eq!(chosen[0].map(f64::to_bits), every[0].map(f64::to_bits));
        }
        // Two vertices without radii among one with: they touch at the
        // base length, beyond the cell made for the radii.
        let mut p = params(SpringShape::Sigmoid);
        p.base = 2.5;
        p.max_step = 0.05;
        p.max_steps = 1;
        check(
            &[[0.0, 0.0], [3.0, 0.0], [50.0, 50.0]],
            &[0.0, 0.0, 0.5],
            &[],
            &p,
        );
        // Far from the origin a step of at most 0.1 is rounded to 0.125:
        // over 20 steps vertex 0 comes within reach of the third vertex.
        let x0 = 2f64.powi(49) + 1024.0;
        let mut p = params(SpringShape::Sigmoid);
        p.tolerance = 1e-3;
        p.settled = 0.1;
        p.max_steps = 20;
        let spring = [Spring {
            a: 0,
            b: 1,
            length: 1.0,
            strength: 1.0,
            solid: true,
        }];
        check(
            &[[x0, 0.0], [x0 + 6.0, 0.0], [x0 + 4.125, 0.25]],
            &[0.0; 3],
            &spring,
            &p,
        );
    }

    /// A relaxation that moves every vertex (the finishing's: neighbour
    /// lists over cells, remade when the skin is used up) ends at the same
    /// bits as a plain reference that looks at every pair and every
    /// vertex–spring pair at every step, in index order: the lists, cells
    /// and boxes only skip what is out of reach.
    #[test]
    fn a_relaxation_of_every_vertex_equals_a_plain_reference() {
        /// One step of the reference: the forces on every vertex, summed
        /// in the order `relax` sums them (pairs `i < j` in index order,
        /// then springs, then vertex–spring pushes per vertex in spring
        /// order), then every vertex moved. Indices, as `push_apart`
        /// takes them.
        #[allow(clippy::needless_range_loop)]
        fn reference_step(pos: &mut [Point], radius: &[f64], springs: &[Spring], p: &RelaxParams) {
            let n = pos.len();
            let mut force = vec![[0.0, 0.0]; n];
            for i in 0..n {
                let mut fi = [0.0, 0.0];
                for j in i + 1..n {
                    if let Some(f) = push_apart(pos, p, i, j, separation(radius, p, i, j)) {
                        fi[0] += f[0];
                        fi[1] += f[1];
                        force[j][0] -= f[0];
                        force[j][1] -= f[1];
                    }
                }
                force[i][0] += fi[0];
                force[i][1] += fi[1];
            }
            pull(pos, springs, &vec![true; n], p, &mut force);
            let range = 0.5 * p.base;
            for i in 0..n {
                for s in springs.iter().filter(|s| s.solid && i != s.a && i != s.b) {
                    if let Some((t, f)) = off_edge(pos[i], pos[s.a], pos[s.b], range) {
                        force[i][0] += f[0];
                        force[i][1] += f[1];
                        force[s.a][0] -= f[0] * (1.0 - t);
                        force[s.a][1] -= f[1] * (1.0 - t);
                        force[s.b][0] -= f[0] * t;
                        force[s.b][1] -= f[1] * t;
                    }
                }
            }
            for i in 0..n {
                let f = force[i];
                let len = (f[0] * f[0] + f[1] * f[1]).sqrt();
                let step = GAIN * p.base * len;
                if step > 0.0 {
                    let scale = step.min(p.max_step) / len;
                    pos[i][0] += f[0] * scale;
                    pos[i][1] += f[1] * scale;
                }
            }
        }
        let mut rng = crate::rng::Rng::seeded(11);
        for round in 0..6 {
            // Enough vertices that the lists are made through cells.
            let n = 120 + rng.below(120);
            let side = 6.0 + 20.0 * rng.unit();
            let start: Vec<Point> = (0..n)
                .map(|_| [side * rng.unit(), side * rng.unit()])
                .collect();
            let finishing = round % 2 == 1;
            let radius: Vec<f64> = if finishing {
                (0..n).map(|_| 0.2 + 0.4 * rng.unit()).collect()
            } else {
                vec![0.0; n]
            };
            // A path through every vertex, and some chords, a few cosmetic.
            let mut springs: Vec<Spring> = (1..n)
                .map(|b| Spring {
                    a: b - 1,
                    b,
                    length: 1.0,
                    strength: 1.0,
                    solid: true,
                })
                .collect();
            for _ in 0..n / 4 {
                let (a, b) = (rng.below(n), rng.below(n));
                if a != b {
                    let solid = rng.below(4) != 0;
                    springs.push(Spring {
                        a,
                        b,
                        length: 0.5 + rng.unit(),
                        strength: if solid { 1.0 } else { 0.5 },
                        solid,
                    });
                }
            }
            let mut p = params(SpringShape::Sigmoid);
            if finishing {
                p.margin = 0.1;
                p.range = 1.0;
                p.max_step = 0.05;
            }
            // No early stop: every one of the steps is made.
            p.settled = 0.0;
            p.tolerance = -1.0;
            p.max_steps = 40;
            let active: Vec<usize> = (0..n).collect();
            let mut fast = start.clone();
            let mut scratch = RelaxScratch::default();
            let out = relax(&mut fast, &radius, &active, &springs, &p, &mut scratch);
            assert_eq!(out.steps, 40, "round {round}");
            assert!(!scratch.near.all, "round {round}: the cells are in use");
            let mut plain = start.clone();
            for _ in 0..40 {
                reference_step(&mut plain, &radius, &springs, &p);
            }
            assert_ne!(plain, start, "round {round}: the drawing moves");
            for i in 0..n {
                assert_eq!(
                    fast[i].map(f64::to_bits),
                    plain[i].map(f64::to_bits),
                    "round {round} vertex {i}"
                );
            }
        }
    }

    /// The repulsion reaches `range` separations and no farther: with
    /// the finishing's range of 1, circles push only when closer than
    /// touching (their radii plus the margin).
    #[test]
    fn repulsion_reaches_its_range_and_no_farther() {
        let mut p = params(SpringShape::Sigmoid);
        p.margin = 0.5;
        let radius = [1.0, 1.0];
        // Touching at 1 + 1 + 0.5.
        let touch = separation(&radius, &p, 0, 1);
        assert_eq!(touch, 2.5);
        let push = |range: f64, d: f64| {
            let mut p = p;
            p.range = range;
            push_apart(&[[0.0, 0.0], [d, 0.0]], &p, 0, 1, touch)
        };
        for d in [2.6, 4.0, 4.9] {
            assert!(push(1.0, d).is_none(), "range 1 at {d}");
            let f = push(2.0, d).expect("range 2 reaches 5");
            assert!(f[0] < 0.0 && f[1] == 0.0, "vertex 0 pushed away: {f:?}");
        }
        assert!(push(2.0, 5.0).is_none());
        // Closer than touching: the inverse square and the contact push.
        let f = push(1.0, 2.0).expect("overlapping circles push");
        assert!(f[0] < -0.05 * (2.5f64 / 2.0).powi(2), "{f:?}");
    }

    /// [`relax`] of two free vertices of radius 0, both moving.
    fn relax_pair(pos: &mut [Point], springs: &[Spring], p: &RelaxParams) -> RelaxOutcome {
        relax(
            pos,
            &[0.0; 2],
            &[0, 1],
            springs,
            p,
            &mut RelaxScratch::default(),
        )
    }

    #[test]
    fn an_edge_settles_near_its_length_with_either_spring() {
        for shape in [SpringShape::Logarithmic, SpringShape::Sigmoid] {
            for start in [0.2, 3.0] {
                let mut pos = vec![[0.0, 0.0], [start, 0.0]];
                let springs = unit_edge();
                let out = relax_pair(&mut pos, &springs, &params(shape));
                assert!(out.converged, "{shape:?} from {start}: {out:?}");
                let d = distance(pos[0], pos[1]);
                assert!((d - 1.0).abs() < 0.15, "{shape:?} from {start}: length {d}");
            }
        }
    }

    #[test]
    fn a_settled_drawing_is_left_as_it_is() {
        // One edge at its length: no spring force, and the pair's
        // repulsion (0.05 at one base length) is below the bound.
        let mut pos = vec![[0.0, 0.0], [1.0, 0.0]];
        let springs = unit_edge();
        let mut p = params(SpringShape::Sigmoid);
        p.settled = 0.1;
        let out = relax_pair(&mut pos, &springs, &p);
        assert!(out.converged && !out.moved, "{out:?}");
        assert_eq!(out.steps, 1);
        assert_eq!(pos, vec![[0.0, 0.0], [1.0, 0.0]]);
    }

    #[test]
    fn the_plateau_stop_needs_a_calm_drawing() {
        // Two vertices far apart on a short spring: the sigmoid pulls with
        // a nearly constant force while they close in, so the energy is
        // level; that is not a plateau while the force is above `calm`.
        let springs = unit_edge();
        let mut p = params(SpringShape::Sigmoid);
        p.max_steps = 30;
        p.tolerance = 0.0;
        p.plateau = Some(Plateau {
            window: 5,
            drop: 0.05,
            calm: 0.2,
        });
        let mut pos = vec![[0.0, 0.0], [100.0, 0.0]];
        let out = relax_pair(&mut pos, &springs, &p);
        assert_eq!(out.steps, 30, "{out:?}");
        assert!(!out.converged);
        // Without the bound the level energy counts as a plateau at once.
        p.plateau = Some(Plateau {
            calm: f64::INFINITY,
            ..p.plateau.expect("set above")
        });
        let mut pos = vec![[0.0, 0.0], [100.0, 0.0]];
        let out = relax_pair(&mut pos, &springs, &p);
        assert!(out.converged && out.steps == 10, "{out:?}");
    }

    /// A plane drawing of `n` vertices squeezed into a square of side
    /// `side` (edges of length 1 want to be several times longer): the
    /// greedy triangulation, shortest pairs first, each edge kept when it
    /// crosses none kept before.
    fn squeezed_triangulation(
        rng: &mut crate::rng::Rng,
        n: usize,
        side: f64,
    ) -> (Vec<Point>, Vec<Spring>) {
        let pos: Vec<Point> = (0..n)
            .map(|_| [side * rng.unit(), side * rng.unit()])
            .collect();
        let mut pairs: Vec<(f64, usize, usize)> = (0..n)
            .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
            .map(|(a, b)| (distance(pos[a], pos[b]), a, b))
            .collect();
        pairs.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut springs: Vec<Spring> = Vec::new();
        for (_, a, b) in pairs {
            let crosses = springs.iter().any(|s| {
                s.a != a
                    && s.a != b
                    && s.b != a
                    && s.b != b
                    && segments_cross(pos[a], pos[b], pos[s.a], pos[s.b])
            });
            if !crosses {
                springs.push(Spring {
                    a,
                    b,
                    length: 1.0,
                    strength: 1.0,
                    solid: true,
                });
            }
        }
        (pos, springs)
    }

    /// The step bound ([`RelaxParams::planar`]) keeps a squeezed plane
    /// drawing plane at every step, and over a relaxation of many steps
    /// (neighbour lists kept between steps), where the same relaxation
    /// without it makes edges cross.
    #[test]
    fn the_bounded_step_never_makes_edges_cross() {
        let mut rng = crate::rng::Rng::seeded(3);
        // The evening-out's relaxation, every step made.
        let mut free = params(SpringShape::Sigmoid);
        free.settled = 0.0;
        free.tolerance = -1.0;
        free.max_steps = 1;
        let bounded = RelaxParams {
            planar: Some(1.0 / 3.0),
            ..free
        };
        let mut crossed_without = 0;
        for round in 0..12 {
            let n = 20 + rng.below(60);
            let side = 0.5 + 2.0 * rng.unit();
            let (start, springs) = squeezed_triangulation(&mut rng, n, side);
            let radius = vec![0.0; n];
            let all = vec![true; n];
            let active: Vec<usize> = (0..n).collect();
            let mut movers = Vec::new();
            let mut scratch = RelaxScratch::default();
            assert_eq!(crossings(&start, &springs, &all, &mut movers), 0);
            let (mut a, mut b) = (start.clone(), start.clone());
            let mut crossed = false;
            for step in 0..30 {
                relax(&mut a, &radius, &active, &springs, &free, &mut scratch);
                crossed |= crossings(&a, &springs, &all, &mut movers) > 0;
                relax(&mut b, &radius, &active, &springs, &bounded, &mut scratch);
                let after = crossings(&b, &springs, &all, &mut movers);
                assert_eq!(after, 0, "round {round} step {step}");
            }
            crossed_without += usize::from(crossed);
            // The same 30 steps in one relaxation.
            let mut long = start.clone();
            let p = RelaxParams {
                max_steps: 30,
                ..bounded
            };
            let out = relax(&mut long, &radius, &active, &springs, &p, &mut scratch);
            assert_eq!(out.steps, 30);
            assert!(
                out.moved && long != start,
                "round {round}: the drawing moves"
            );
            assert_eq!(long, b, "round {round}: as step by step");
            let after = crossings(&long, &springs, &all, &mut movers);
            assert_eq!(after, 0, "round {round}: 30 steps at once");
        }
        // Without the bound, these drawings cross.
        assert!(crossed_without >= 6, "{crossed_without} of 12 crossed");
    }

    /// Odd input to the bounded step: coincident vertices, zero-length
    /// edges, a vertex on an edge it is not an end of. Nothing panics,
    /// positions stay finite and no crossing is added (a vertex on an
    /// edge stops, and the edge's ends with it).
    #[test]
    fn the_bounded_step_takes_odd_drawings() {
        let spring = |a: usize, b: usize| Spring {
            a,
            b,
            length: 1.0,
            strength: 1.0,
            solid: true,
        };
        let start = vec![
            [0.0, 0.0],
            [0.0, 0.0],
            [0.5, 0.0],
            [0.25, 0.0],
            [0.3, 0.2],
            [0.3, 0.2],
            [0.1, 0.1],
        ];
        let springs = [
            spring(0, 1),
            spring(0, 2),
            spring(1, 4),
            spring(3, 4),
            spring(4, 5),
            spring(2, 5),
            spring(6, 6),
        ];
        let n = start.len();
        let all = vec![true; n];
        let mut movers = Vec::new();
        let before = crossings(&start, &springs, &all, &mut movers);
        let mut p = params(SpringShape::Sigmoid);
        p.settled = 0.0;
        p.tolerance = -1.0;
        p.max_steps = 20;
        p.planar = Some(1.0 / 3.0);
        let mut pos = start.clone();
        let active: Vec<usize> = (0..n).collect();
        relax(
            &mut pos,
            &[0.0; 7],
            &active,
            &springs,
            &p,
            &mut RelaxScratch::default(),
        );
        assert!(pos.iter().all(|q| q[0].is_finite() && q[1].is_finite()));
        assert!(crossings(&pos, &springs, &all, &mut movers) <= before);
        // Vertex 3 lies on edge 0–2: the three stay.
        for i in [0, 2, 3] {
            assert_eq!(pos[i], start[i], "vertex {i}");
        }
        assert_ne!(pos[6], start[6], "vertex 6 is free to move");
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
