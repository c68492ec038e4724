//! The run ([`Prepared::run`]): a stack of partial layouts, each step adding
//! the next chain, backtracking and restarting, within the run's limits.

use super::error::LimitKind;
use super::{LayoutError, LayoutSettings, LayoutStats, Prepared};
use crate::layout::config_space::ConfigSpace;
use crate::layout::polygon::GridPoint;
use crate::layout::Layout;
use crate::rng::Rng;
use std::cell::Cell;
use std::time::Instant;

/// The shape of a room not placed yet ([`Partial::shape`]).
pub(super) const NONE: u32 = u32::MAX;

/// A partial layout: rooms placed so far (shape NONE: not yet), corridors
/// of the edges whose rooms are both placed, and how many chains it has.
#[derive(Clone, Debug)]
pub(super) struct Partial {
    pub(super) shape: Vec<u32>,
    pub(super) pos: Vec<GridPoint>,
    pub(super) corridor: Vec<Option<(u32, GridPoint)>>,
    pub(super) chains_done: usize,
}

/// One run of [`Prepared::run`]: its generator, counts, limits and the
/// state of the exact fill under way.
pub(super) struct Run<'a, 'p> {
    pub(super) prep: &'a Prepared<'p>,
    pub(super) settings: &'a LayoutSettings,
    pub(super) rng: Rng,
    pub(super) iterations: u64,
    pub(super) backtracks: u64,
    pub(super) restarts: u64,
    pub(super) failures: Vec<u64>,
    pub(super) compact: bool,
    pub(super) best_score: Option<i64>,
    pub(super) started: Instant,
    /// The limit that stopped the run, once one has.
    pub(super) stopped: Option<LimitKind>,
    /// The iteration count at which the current wrapping fill stops
    /// (`u64::MAX`: none).
    pub(super) fill_cap: u64,
    /// Work units so far, the preparation's included (see
    /// [`LayoutSettings::max_work`]); a `Cell` because the energy terms,
    /// which do most of the work, are computed through shared references.
    pub(super) work: Cell<u64>,
}

impl<'a, 'p> Run<'a, 'p> {
    pub(super) fn new(prep: &'a Prepared<'p>, seed: u64, settings: &'a LayoutSettings) -> Self {
        Self {
            prep,
            settings,
            rng: Rng::seeded(seed),
            iterations: 0,
            backtracks: 0,
            restarts: 0,
            failures: vec![0; prep.chains.len()],
            compact: false,
            best_score: None,
            started: Instant::now(),
            stopped: None,
            fill_cap: u64::MAX,
            work: Cell::new(prep.work),
        }
    }

    /// The search: pop a partial layout, add the next chain, push what was
    /// found; a fresh start when the stack runs empty or too many chains
    /// failed since the last one.
    pub(super) fn search(mut self) -> Result<(Layout, LayoutStats), LayoutError> {
        let n = self.prep.problem.rooms.len();
        let empty = Partial {
            shape: vec![NONE; n],
            pos: vec![GridPoint::default(); n],
            corridor: vec![None; self.prep.problem.edges.len()],
            chains_done: 0,
        };
        let mut stack = vec![empty.clone()];
        // Failed chains since the last start, and how many are allowed
        // before the next (see `LayoutSettings::backtracks_per_start`).
        let mut failed_since_start = 0u64;
        let mut allowed = u64::from(self.settings.backtracks_per_start);
        loop {
            if self.stopped.is_some() {
                break;
            }
            if allowed > 0 && failed_since_start >= allowed {
                stack.clear();
                allowed += allowed / 2;
            }
            // Nothing left to backtrack to: start again from nothing (the
            // generator has moved on, so the next try differs).
            let partial = match stack.pop() {
                Some(p) => p,
                None => {
                    self.restarts += 1;
                    failed_since_start = 0;
                    empty.clone()
                }
            };
            let chain = partial.chains_done;
            let mut found = self.add_chain(&partial, chain);
            if found.is_empty() {
                self.failures[chain] += 1;
                self.backtracks += 1;
                failed_since_start += 1;
                continue;
            }
            if chain + 1 == self.prep.chains.len() {
                let best = found.swap_remove(0);
                let stats = LayoutStats {
                    iterations: self.iterations,
                    backtracks: self.backtracks,
                    restarts: self.restarts,
                    chains: self.prep.chains.len(),
                    shapes: self.prep.shapes.len(),
                    work: self.work.get(),
                };
                return Ok((self.finish(&best), stats));
            }
            // The first found is tried first.
            found.reverse();
            stack.extend(found);
        }
        Err(self.failure())
    }

    /// Counts one iteration; false when a limit says stop. The work budget
    /// is asked first: work done beyond it stops the run before another
    /// iteration.
    pub(super) fn tick(&mut self) -> bool {
        if self.stopped.is_some() {
            return false;
        }
        if self.out_of_work() {
            self.stopped = Some(LimitKind::MaxWork(self.settings.max_work));
            return false;
        }
        self.iterations += 1;
        if self.iterations > self.settings.max_iterations {
            self.stopped = Some(LimitKind::MaxIterations(self.settings.max_iterations));
            return false;
        }
        if let Some(limit) = self.settings.time_limit {
            if self.iterations % 1024 == 0 && self.started.elapsed() > limit {
                self.stopped = Some(LimitKind::TimeLimit(limit));
                return false;
            }
        }
        true
    }

    /// Counts `units` of work (see [`LayoutSettings::max_work`]); the next
    /// [`Run::tick`] stops the run once they are beyond the budget.
    #[inline]
    pub(super) fn charge(&self, units: u64) {
        self.work.set(self.work.get().saturating_add(units));
    }

    /// Whether the work so far is beyond [`LayoutSettings::max_work`]:
    /// then loops that do not tick stop too.
    #[inline]
    pub(super) fn out_of_work(&self) -> bool {
        self.work.get() > self.settings.max_work
    }

    /// The configuration space of `fixed` at `at` for `moving` (see
    /// [`Prepared::space`]), as a copy moved there: a unit per box.
    #[inline]
    pub(super) fn space_at(&self, fixed: u32, at: GridPoint, moving: u32) -> ConfigSpace {
        let space = self.prep.space(fixed, moving);
        self.charge(space.boxes.len() as u64);
        space.shifted(at)
    }

    /// `a ∩ b`, a unit per pair of boxes compared.
    #[inline]
    pub(super) fn intersect(&self, a: &ConfigSpace, b: &ConfigSpace) -> ConfigSpace {
        let (both, compared) = a.intersect_counted(b);
        self.charge(compared);
        both
    }

    /// [`Run::tick`] for a candidate of an exact fill, which also stops
    /// (without stopping the run) at a wrapping fill's cap, `fill_cap`.
    pub(super) fn fill_tick(&mut self) -> bool {
        self.tick() && self.iterations <= self.fill_cap
    }

    /// Valid extensions of `partial` by chain `c`, most found first: by an
    /// exact fill ([`Run::exact_fill`]) when the chain is a bare detour,
    /// else by annealing ([`Run::anneal`]).
    pub(super) fn add_chain(&mut self, partial: &Partial, c: usize) -> Vec<Partial> {
        let prep = self.prep;
        let chain = &prep.chains[c];
        let mut current = partial.clone();
        current.chains_done = c + 1;
        if self.settings.exact_detours {
            let wraps = self.settings.compact_detours && prep.wraps[c];
            if let Some(order) = self.bare_detour(partial, chain, prep.nested[c], wraps) {
                // One extension: a bare detour's rooms have no neighbours
                // beyond it, so other placements of them matter to later
                // chains only as room taken, and the stack would otherwise
                // retry them all before going back to the chains that box
                // the detour in (grown level 82: 11 % -> 26 % of 300 layout
                // seeds laid out, against 4 kept). A chain that wraps has
                // dead ends in later chains, which its placement does
                // matter to; a failed later chain backtracks to a fill
                // drawn afresh.
                self.compact = self.settings.compact_detours && prep.nested[c];
                self.best_score = None;
                if wraps {
                    // Not a proof wanted here, a placement: a fill of three
                    // rooms can take far longer than annealing the chain,
                    // so it gets the iterations annealing would have.
                    let budget = u64::from(self.settings.cycles.max(1))
                        * u64::from(self.settings.trials_per_cycle);
                    self.fill_cap = self.iterations.saturating_add(budget);
                }
                let out = self.exact_fill(current, chain, &order, 1);
                self.fill_cap = u64::MAX;
                self.compact = false;
                return out;
            }
        }
        self.anneal(current, chain)
    }
}
