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
//!
//! The parts: `relax.rs` (the relaxation loop: forces, energy, stops,
//! capped moves); `kernels.rs` (the forces themselves: repulsion, springs,
//! the vertex–edge push); `neighbours.rs` (the candidates of a relaxation
//! and their cells); `lists.rs` (Verlet neighbour lists when every vertex
//! moves); `planar.rs` (the step bound that keeps a drawing plane);
//! `crossings.rs` (the count of crossing springs).

use crate::plane::{ln, sigmoid};
use crate::settings::SpringShape;

mod crossings;
mod kernels;
mod lists;
mod neighbours;
mod planar;
mod relax;
#[cfg(test)]
mod tests;

pub(crate) use crossings::{crossings, Mover};
pub(crate) use relax::{relax, RelaxScratch};

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

/// Tuning of [`relax()`].
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
    /// ([`lists::Lists::bound_moves`]). Below one half, no step can bring a
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
