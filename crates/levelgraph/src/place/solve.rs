//! Solving: diverse placements for a seed, and the constraints in
//! conflict when there is none.

use batsat::SolverInterface as _;
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit, TernaryVal};
use rustsat_batsat::BasicSolver;

use super::encode::{encode, Encoding};
use super::problem::Problem;
use super::rules::Rule;
use super::{PlaceError, Placement};
use crate::rng::Rng;

/// A SAT solver loaded with one problem's encoding, counting its calls.
pub(crate) struct Session {
    pub(crate) enc: Encoding,
    solver: BasicSolver,
    /// Solver calls made.
    pub(crate) calls: u64,
    /// The next variable free for activation literals.
    next_var: u32,
    /// The activation literal of the last [`Session::solve_some_of`],
    /// switched off before the next one (not at once: adding a clause
    /// would drop the model the caller is about to read).
    stale: Option<Lit>,
}

impl Session {
    pub(crate) fn new(problem: &Problem) -> Session {
        let enc = encode(problem);
        let mut solver = BasicSolver::default();
        // The solver decides only the placement variables, the selectors
        // and the constant: every other variable is a Tseitin definition
        // or a totalizer output, which unit propagation fixes once the
        // placement is decided, so deciding them would only search in
        // vain (batsat spent a third of its time in its decision heap).
        let mut decide = vec![false; enc.variables as usize];
        for lit in enc.x.iter().flatten().chain(&enc.selectors) {
            decide[lit.vidx()] = true;
        }
        decide[0] = true;
        for d in decide {
            solver.batsat_mut().new_var(batsat::lbool::UNDEF, d);
        }
        solver
            .add_cnf(enc.cnf.clone())
            .expect("batsat accepts every clause");
        let next_var = enc.variables;
        Session {
            enc,
            solver,
            calls: 0,
            next_var,
            stale: None,
        }
    }

    /// Solves with every selector and `extra` assumed; true when a model
    /// was found.
    pub(crate) fn solve(&mut self, extra: &[Lit]) -> bool {
        let mut assumptions = self.enc.selectors.clone();
        assumptions.extend_from_slice(extra);
        self.solve_exactly(&assumptions)
    }

    /// Solves with every selector assumed and `clause` added for this call
    /// only (under a fresh activation literal, switched off after): a
    /// model in which some literal of `clause` holds.
    pub(crate) fn solve_some_of(&mut self, clause: &[Lit]) -> bool {
        if let Some(old) = self.stale.take() {
            self.solver
                .add_clause([!old].as_slice().into())
                .expect("batsat accepts every clause");
        }
        let active = Lit::positive(self.next_var);
        self.next_var += 1;
        let mut guarded = vec![!active];
        guarded.extend_from_slice(clause);
        self.solver
            .add_clause(guarded.as_slice().into())
            .expect("batsat accepts every clause");
        self.stale = Some(active);
        self.solve(&[active])
    }

    fn solve_exactly(&mut self, assumptions: &[Lit]) -> bool {
        self.calls += 1;
        matches!(
            self.solver
                .solve_assumps(assumptions)
                .expect("batsat solves without limits"),
            SolverResult::Sat
        )
    }

    /// The assumptions in the last unsatisfiable call's core.
    pub(crate) fn failed(&mut self) -> Vec<Lit> {
        self.solver
            .core()
            .expect("after an unsatisfiable call")
            .into_iter()
            .map(|l| !l)
            .collect()
    }

    /// Whether `lit` is true in the last model.
    pub(crate) fn value(&self, lit: Lit) -> bool {
        matches!(self.solver.lit_val(lit), Ok(TernaryVal::True))
    }

    /// The placement of the last model.
    pub(crate) fn placement(&self) -> Placement {
        Placement {
            at: self
                .enc
                .x
                .iter()
                .map(|row| {
                    (0..row.len() as u32)
                        .filter(|&p| self.value(row[p as usize]))
                        .collect()
                })
                .collect(),
        }
    }

    /// Rules out the last model's placement for good.
    fn block(&mut self) {
        let clause: Vec<Lit> = self
            .enc
            .x
            .iter()
            .flatten()
            .map(|&l| if self.value(l) { !l } else { l })
            .collect();
        self.solver
            .add_clause(clause.as_slice().into())
            .expect("batsat accepts every clause");
    }

    /// A minimal set of rules in conflict, after an unsatisfiable call
    /// with only the selectors assumed: the core, shrunk by dropping each
    /// rule in turn and keeping it out when the rest still conflict.
    fn conflict(&mut self, problem: &Problem) -> Vec<Rule> {
        let mut core: Vec<Lit> = self.failed();
        let mut i = 0;
        while i < core.len() {
            let mut without = core.clone();
            without.remove(i);
            if self.solve_exactly(&without) {
                i += 1;
            } else {
                let failed = self.failed();
                core.retain(|l| failed.contains(l));
                // `core` lost at least the rule dropped; `i` now names the
                // next one.
            }
        }
        self.enc
            .selectors
            .iter()
            .zip(&problem.rules)
            .filter(|(s, _)| core.contains(s))
            .map(|(_, r)| r.clone())
            .collect()
    }
}

/// Draws placements of one problem, each different from the ones before.
///
/// Diversity: before each call, every content draws a random count in its
/// range and that many random places among its candidates from the seeded
/// RNG; the solver gets these as assumptions, and where they conflict
/// with the constraints, the assumptions in the solver's core are dropped
/// and it solves again. A found placement is blocked by a clause over the
/// placement variables only. Same problem and seed, same placements.
pub struct Placer<'p> {
    problem: &'p Problem,
    session: Session,
    rng: Rng,
    found: u64,
}

impl<'p> Placer<'p> {
    /// Encodes `problem` and seeds the draws with `seed`.
    pub fn new(problem: &'p Problem, seed: u64) -> Placer<'p> {
        Placer {
            problem,
            session: Session::new(problem),
            rng: Rng::seeded(seed),
            found: 0,
        }
    }

    /// The next placement; `Ok(None)` once every placement has been given.
    ///
    /// # Errors
    /// [`PlaceError::NoPlacement`], with the rules in conflict, when the
    /// problem has no placement at all.
    pub fn next_placement(&mut self) -> Result<Option<Placement>, PlaceError> {
        let mut wishes = self.wishes();
        loop {
            if self.session.solve(&wishes) {
                let placement = self.session.placement();
                self.session.block();
                self.found += 1;
                return Ok(Some(placement));
            }
            let failed = self.session.failed();
            let before = wishes.len();
            wishes.retain(|w| !failed.contains(w));
            if wishes.len() == before {
                // The constraints alone conflict (after the blocking
                // clauses: no placement is left).
                if self.found > 0 {
                    return Ok(None);
                }
                let rules = self.session.conflict(self.problem);
                return Err(PlaceError::NoPlacement { rules });
            }
        }
    }

    /// Up to `n` placements.
    ///
    /// # Errors
    /// As [`Placer::next_placement`].
    pub fn placements(&mut self, n: usize) -> Result<Vec<Placement>, PlaceError> {
        let mut out = Vec::new();
        while out.len() < n {
            match self.next_placement()? {
                Some(p) => out.push(p),
                None => break,
            }
        }
        Ok(out)
    }

    /// Solver calls made so far.
    pub fn solver_calls(&self) -> u64 {
        self.session.calls
    }

    /// The encoding's size: variables, clauses and zones.
    pub fn size(&self) -> (u32, usize, usize) {
        (
            self.session.enc.variables,
            self.session.enc.cnf.len(),
            self.session.enc.zones,
        )
    }

    /// The random places each content would like, as assumptions.
    fn wishes(&mut self) -> Vec<Lit> {
        let mut out = Vec::new();
        for (c, content) in self.problem.contents.iter().enumerate() {
            let mut places = content.candidates.clone();
            let (lo, hi) = content.count;
            let hi = (hi as usize).min(places.len());
            let lo = (lo as usize).min(hi);
            let m = lo + self.rng.below(hi - lo + 1);
            for i in 0..m {
                let j = i + self.rng.below(places.len() - i);
                places.swap(i, j);
                out.push(self.session.enc.x[c][places[i] as usize]);
            }
        }
        out
    }
}
