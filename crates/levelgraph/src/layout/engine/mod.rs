//! The incremental layout (Ma et al. 2014; Nepožitek's Edgar):
//! a stack of partial layouts; each step pops one and adds the next chain
//! by simulated annealing, pushing every sufficiently different valid
//! extension found; when a chain cannot be added the search backtracks to
//! the next layout on the stack.
//!
//! Energy of a layout (Ma et al. 2014): `E = exp(A / ω) · exp(D / ω) − 1` with
//! `A` the total overlap area of all pairs of parts (plus, beyond Ma et al., a
//! penalty for unjoined rooms nearer than the minimum distance and one room
//! area for each pair that breaks the repeat mode), `D` the sum of squared
//! centre distances of graph neighbours that are not in contact (their relative
//! position is outside their configuration space; at least 1 each, so a room in
//! another's notch with the same centre still counts), and `ω` the average room
//! area. A layout is valid when `E = 0` and every corridor could be placed.
//!
//! Annealing follows Edgar's schedule: the chance of accepting a worse
//! layout falls from 0.2 to 0.01 over the cycles, scaled by the mean
//! worsening accepted so far. The trials per cycle, the extensions kept per
//! chain and the early stop after the last new extension were set by
//! measurement on Edgar's example maps (BENCHMARKS.md).
//!
//! The parts: [`Prepared`] ([`prepared`]: shapes, configuration spaces,
//! chains and the checks of a problem, built once) and [`Prepared::run`]
//! ([`run`]: the stack of partial layouts), which adds a chain by
//! annealing ([`anneal`], with the energy of [`energy`]) or, for a bare
//! detour, by an exact fill ([`fill`], over the free positions of
//! [`positions`]); the chain order's detours ([`detours`], [`paths`]),
//! corridors ([`corridors`]), the output form ([`finish`]), and what a
//! failed run says ([`failure`], [`error`]).

mod anneal;
mod corridors;
mod detours;
mod energy;
mod error;
mod failure;
mod fill;
mod finish;
mod paths;
mod positions;
mod prepared;
mod run;
mod settings;

pub use error::{Hint, LayoutError, LimitKind, ProblemError};
pub use prepared::Prepared;
pub use settings::{LayoutSettings, LayoutStats};

use super::{Layout, LayoutProblem};

/// Lays out `problem` with `seed`: [`Prepared::within`] then
/// [`Prepared::run`], one work budget over both.
///
/// # Errors
/// As those two.
pub fn layout(
    problem: &LayoutProblem,
    seed: u64,
    settings: &LayoutSettings,
) -> Result<(Layout, LayoutStats), LayoutError> {
    Prepared::within(problem, settings)?.run(seed, settings)
}

#[cfg(test)]
mod tests;
