//! Solving: diverse placements for a seed, and the constraints in
//! conflict when there is none.

use batsat::SolverInterface as _;
use rustsat::solvers::{Solve, SolveIncremental, SolverResult};
use rustsat::types::{Lit, TernaryVal};
use rustsat_batsat::BasicSolver;

use super::encode::{encode, Encoding, Reachability};
use super::problem::Problem;
use super::rules::Rule;
use super::{PlaceError, Placement, TooManyWays};
use crate::rng::Rng;

/// A SAT solver loaded with one problem's encoding, counting its calls.
pub(crate) struct Session {
    pub(crate) enc: Encoding,
    solver: BasicSolver,
    /// Solver calls made.
    pub(crate) calls: u64,
    /// The next variable free for activation literals.
    next_var: u32,
    /// Whether the selectors are unit clauses ([`Session::fix_selectors`])
    /// rather than assumptions.
    selectors_fixed: bool,
    /// The activation literal of the last [`Session::solve_some_of`],
    /// switched off before the next one (not at once: adding a clause
    /// would drop the model the caller is about to read).
    stale: Option<Lit>,
}

impl Session {
    /// A session for the analysis and conflicts: it proves placements
    /// impossible, so under `every key needed` its solver branches on
    /// every variable (see [`Session::with_options`]).
    pub(crate) fn new(problem: &Problem, how: Reachability) -> Session {
        let decide_all = problem.spec.every_key_needed;
        Session::with_options(problem, how, batsat::SolverOpts::default(), decide_all)
    }

    /// A session whose solver branches at random, seeded from `rng`: each
    /// decision takes a random polarity, and three in ten a random
    /// variable (MiniSat's `rnd_pol` and `random_var_freq`; clingo's
    /// `--sign-def=rnd --rand-freq=0.3`), with random initial activities.
    /// Successive solves then land on placements far apart, one call
    /// each (random assumptions relaxed by the core took about seven
    /// calls a placement at 100 places and 8 locks, and moved as many
    /// pieces between two placements). It looks for placements, not
    /// proofs, and branches on the placement variables only, also under
    /// `every key needed` (100 placements at 100 places and 8 locks:
    /// 158 -> 127 ms).
    fn branching_at_random(problem: &Problem, rng: &mut Rng) -> Session {
        let opts = batsat::SolverOpts {
            rnd_pol: true,
            rnd_init_act: true,
            random_var_freq: 0.3,
            // MiniSat's generator wants a positive seed below 2^31 - 1.
            random_seed: 1.0 + rng.below(1 << 30) as f64,
            ..batsat::SolverOpts::default()
        };
        Session::with_options(problem, Reachability::Sets, opts, false)
    }

    fn with_options(
        problem: &Problem,
        how: Reachability,
        opts: batsat::SolverOpts,
        decide_all: bool,
    ) -> Session {
        let mut enc = encode(problem, how);
        let mut solver = BasicSolver::default();
        *solver.batsat_mut() = batsat::BasicSolver::new(opts, batsat::BasicCallbacks::default());
        // The solver decides only the placement variables, the selectors
        // and the constant: every other variable is a Tseitin definition
        // or a totalizer output, which unit propagation fixes once the
        // placement is decided, so deciding them would only search in
        // vain (batsat spent a third of its time in its decision heap;
        // the table at 100 places and 8 locks: 600 -> 282 ms). With
        // `decide_all` it branches on every variable: proving a goal out of
        // reach with each lock shut (`every key needed`) needs it to branch
        // on reachability, and restricted, the analysis took 4x longer
        // (100 places, 8 locks: 269 -> 1,040 ms).
        let mut decide = vec![decide_all; enc.variables as usize];
        for lit in enc.x.iter().flatten().chain(&enc.selectors) {
            decide[lit.vidx()] = true;
        }
        decide[0] = true;
        for d in decide {
            solver.batsat_mut().new_var(batsat::lbool::UNDEF, d);
        }
        solver
            .add_cnf(std::mem::take(&mut enc.cnf))
            .expect("batsat accepts every clause");
        let next_var = enc.variables;
        Session {
            enc,
            solver,
            calls: 0,
            next_var,
            stale: None,
            selectors_fixed: false,
        }
    }

    /// Makes every selector a unit clause: once the problem is known to
    /// have a placement, no later core is read, and the solver simplifies
    /// the constraints' clauses once instead of propagating the
    /// selectors again at every call (100 placements at 200 places and 2
    /// locks: 19 -> 10 ms). Like any added clause, it ends the last
    /// model: read it first.
    pub(crate) fn fix_selectors(&mut self) {
        for &s in &self.enc.selectors {
            self.solver
                .add_clause([s].as_slice().into())
                .expect("batsat accepts every clause");
        }
        self.selectors_fixed = true;
    }

    /// Adds `lit` as a unit clause: a fact every model already has. Like
    /// any added clause, it ends the last model.
    pub(crate) fn add_fact(&mut self, lit: Lit) {
        self.solver
            .add_clause([lit].as_slice().into())
            .expect("batsat accepts every clause");
    }

    /// Solves with every selector (unless fixed) and `extra` assumed;
    /// true when a model was found.
    pub(crate) fn solve(&mut self, extra: &[Lit]) -> bool {
        let mut assumptions = Vec::new();
        if !self.selectors_fixed {
            assumptions.extend_from_slice(&self.enc.selectors);
        }
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

    /// Rules out `placement` (the last model's) for good: some content
    /// lies elsewhere. A content of one exact count is elsewhere when one
    /// of its places is empty (its other places need not be listed: the
    /// count keeps it from growing), which keeps the clause short; a
    /// content with a count range also when it takes a place it did not.
    fn block(&mut self, problem: &Problem, placement: &Placement) {
        let mut clause = Vec::new();
        for ((row, at), content) in self.enc.x.iter().zip(&placement.at).zip(&problem.contents) {
            let exact = content.count.0 == content.count.1;
            for (p, &l) in row.iter().enumerate() {
                if at.binary_search(&(p as u32)).is_ok() {
                    clause.push(!l);
                } else if !exact {
                    clause.push(l);
                }
            }
        }
        self.solver
            .add_clause(clause.as_slice().into())
            .expect("batsat accepts every clause");
    }

    /// A minimal set of rules in conflict, after an unsatisfiable call
    /// with only the selectors assumed: the core, shrunk by dropping each
    /// rule in turn and keeping it out when the rest still conflict.
    fn conflict(&mut self, problem: &Problem) -> Vec<Rule> {
        debug_assert!(!self.selectors_fixed, "a fixed selector is in no core");
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
/// Diversity: the solver branches at random (each decision a random
/// polarity, three in ten a random variable, as clingo's `--sign-def=rnd
/// --rand-freq=0.3`), its generator seeded from the seeded ChaCha RNG, so
/// each call lands somewhere new; one call per placement. A found
/// placement is blocked by a clause over the placement variables only.
/// Same problem and seed, same placements, byte for byte (the solver's
/// generator is MiniSat's, in floating point arithmetic that IEEE 754
/// fixes).
pub struct Placer<'p> {
    problem: &'p Problem,
    session: Session,
    found: u64,
}

impl<'p> Placer<'p> {
    /// Encodes `problem` and seeds the solver's branching with `seed`.
    pub fn new(problem: &'p Problem, seed: u64) -> Placer<'p> {
        Placer {
            problem,
            session: Session::branching_at_random(problem, &mut Rng::seeded(seed)),
            found: 0,
        }
    }

    /// The next placement; `Ok(None)` once every placement has been given.
    ///
    /// # Errors
    /// [`PlaceError::NoPlacement`], with the rules in conflict, when the
    /// problem has no placement at all.
    pub fn next_placement(&mut self) -> Result<Option<Placement>, PlaceError> {
        if self.session.solve(&[]) {
            let placement = self.session.placement();
            self.session.block(self.problem, &placement);
            if self.found == 0 {
                self.session.fix_selectors();
            }
            self.found += 1;
            return Ok(Some(placement));
        }
        // After the blocking clauses: no placement is left.
        if self.found > 0 {
            return Ok(None);
        }
        let rules = self.session.conflict(self.problem);
        Err(PlaceError::NoPlacement { rules })
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
            self.session.enc.clauses,
            self.session.enc.zones,
        )
    }

    /// Whether reachability was written by each zone's minimal lock sets
    /// (false: unrolled step by step, the level having too many ways
    /// round its locks).
    pub fn by_lock_sets(&self) -> bool {
        self.session.enc.reachability == Reachability::Sets
    }

    /// The limit that made the encoding unroll reachability step by step
    /// (`None`: written by the minimal lock sets).
    pub fn unrolled_by(&self) -> Option<TooManyWays> {
        match self.session.enc.reachability {
            Reachability::Sets => None,
            Reachability::Steps(limit) => limit,
        }
    }
}
