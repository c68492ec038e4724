//! What can and cannot be where: every (content, place) pair classified as
//! possible, impossible or necessary over all valid placements.
//!
//! Two methods, for both polarities of every placement variable (`x`
//! possible: some valid placement puts the content there; `¬x` possible:
//! some does not):
//!
//! - [`analyze_per_literal`], the loop of the possibility analysis for
//!   pattern puzzles: every literal starts not found; each model found
//!   marks at once every literal true in it; each literal still not found
//!   is decided by one call under its assumption, and a model found on
//!   the way marks more. Kept as the plain reference.
//! - [`analyze`], the same loop asking for many literals per call: rounds
//!   that assume one place not yet seen for every content at once (cheap
//!   calls: a model marks a new place for each, a core rules out a place
//!   alone in it), then, per content, the clause "some place not yet
//!   found holds" for one call only, whose unsatisfiability decides every
//!   such place at once (the way answer-set solvers compute brave and
//!   cautious consequences). A property test holds the two to the same
//!   table, and both to a brute force.

use serde::Serialize;

use rustsat::types::Lit;

use super::encode::Reachability;
use super::problem::Problem;
use super::solve::Session;
use super::PlaceError;
use crate::rng::Rng;

/// Whether a content can be in a place, over all valid placements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// No valid placement puts it there.
    Impossible,
    /// Some valid placements put it there and some do not.
    Possible,
    /// Every valid placement puts it there.
    Necessary,
}

impl Status {
    /// The word tables print: `impossible`, `possible`, `necessary`.
    pub fn word(self) -> &'static str {
        match self {
            Status::Impossible => "impossible",
            Status::Possible => "possible",
            Status::Necessary => "necessary",
        }
    }
}

/// The classification of every (content, place) pair of a problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// Per content, per place.
    pub status: Vec<Vec<Status>>,
    /// Solver calls made.
    pub solver_calls: u64,
    /// The calls of the naive method: one per (content, candidate place)
    /// and polarity.
    pub naive_calls: u64,
}

/// Classifies every (content, place) pair of `problem`, asking each solver
/// call for a model with some literal not yet found. Places outside a
/// content's candidates (`in`) are impossible without a call.
///
/// # Errors
/// [`PlaceError::NoPlacement`] when no placement exists, with the rules in
/// conflict.
pub fn analyze(problem: &Problem) -> Result<Analysis, PlaceError> {
    let mut table = Table::new(problem, Reachability::Sets)?;
    let mut rng = Rng::seeded(0);
    // Rounds of wishes: per content still in the rounds, one place it was
    // not yet seen in. When a round's wishes conflict, the wish in the
    // core of the content seen in the fewest places is dropped (and ruled
    // out when it is the core's only wish) and the rest solved again. A
    // content whose wishes failed `STRIKES` times running leaves the rounds
    // for calls of its own. A wish is cheap (an assumption: the solver
    // checks it or finds the core at once); a call of its own asks for a
    // model with the content in any of its places left, a search, and
    // proving there is none is the dearest call of all. So a content stays
    // long in the rounds, where most impossible places fall one cheap call
    // each (the table at 200 places and 4 locks: 3 strikes 204 ms, 16:
    // about 45 ms).
    const STRIKES: u32 = 16;
    let mut strikes = vec![0u32; problem.contents.len()];
    loop {
        let mut wishes: Vec<(usize, Lit)> = (0..problem.contents.len())
            .filter(|&c| strikes[c] < STRIKES)
            .filter_map(|c| {
                let open = table.open_of(c);
                (!open.is_empty()).then(|| (c, open[rng.below(open.len())]))
            })
            .collect();
        if wishes.is_empty() {
            break;
        }
        while !wishes.is_empty() {
            let lits: Vec<Lit> = wishes.iter().map(|&(_, l)| l).collect();
            if table.session.solve(&lits) {
                table.mark();
                for &(c, _) in &wishes {
                    strikes[c] = 0;
                }
                break;
            }
            let failed = table.session.failed();
            let in_core: Vec<(usize, Lit)> = wishes
                .iter()
                .copied()
                .filter(|(_, l)| failed.contains(l))
                .collect();
            let &(c, l) = in_core
                .iter()
                .min_by_key(|&&(c, _)| table.seen_in(c))
                .expect("the constraints alone have a model: a wish is in the core");
            if in_core.len() == 1 {
                table.rule_out(&[l], true);
            }
            strikes[c] += 1;
            wishes.retain(|&(o, _)| o != c);
        }
    }
    // The contents sent out of the rounds: a model with the content in
    // some place not yet seen, until there is none, and then every such
    // place is impossible.
    for c in 0..problem.contents.len() {
        loop {
            let open = table.open_of(c);
            if open.is_empty() {
                break;
            }
            if table.session.solve_some_of(&open) {
                table.mark();
            } else {
                table.rule_out(&open, true);
                break;
            }
        }
    }
    // Necessary: places some content was never seen out of. One call asks
    // for a model without one of them; none means all are necessary.
    loop {
        let open: Vec<Lit> = table.open(false);
        if open.is_empty() {
            break;
        }
        if table.session.solve_some_of(&open) {
            table.mark();
        } else {
            table.decide_open(false);
            break;
        }
    }
    Ok(table.finish())
}

/// [`analyze`] by one call per literal not yet found, on the plain
/// step-by-step unrolling of reachability (the reference).
///
/// # Errors
/// As [`analyze`].
pub fn analyze_per_literal(problem: &Problem) -> Result<Analysis, PlaceError> {
    let mut table = Table::new(problem, Reachability::Steps(None))?;
    for i in 0..table.pairs.len() {
        let x = table.literal(i);
        if !table.seen[i][1] {
            if table.session.solve(&[x]) {
                table.mark();
            } else {
                table.cannot[i][1] = true;
            }
        }
        if !table.seen[i][0] && !table.cannot[i][1] {
            if table.session.solve(&[!x]) {
                table.mark();
            } else {
                table.cannot[i][0] = true;
            }
        }
    }
    Ok(table.finish())
}

/// The literals of the analysis and what the models so far showed.
struct Table<'p> {
    problem: &'p Problem,
    session: Session,
    /// Per literal: (content, candidate place).
    pairs: Vec<(usize, u32)>,
    /// Per literal: seen false in some model, seen true in some model.
    seen: Vec<[bool; 2]>,
    /// Per literal: proved never false, never true.
    cannot: Vec<[bool; 2]>,
}

impl<'p> Table<'p> {
    /// The session, after a first model (marked).
    fn new(problem: &'p Problem, how: Reachability) -> Result<Table<'p>, PlaceError> {
        let mut session = Session::new(problem, how);
        if !session.solve(&[]) {
            let mut placer = super::Placer::new(problem, 0);
            return Err(placer
                .next_placement()
                .expect_err("the same encoding is unsatisfiable"));
        }
        let pairs: Vec<(usize, u32)> = problem
            .contents
            .iter()
            .enumerate()
            .flat_map(|(c, content)| content.candidates.iter().map(move |&p| (c, p)))
            .collect();
        let n = pairs.len();
        let mut table = Table {
            problem,
            session,
            pairs,
            seen: vec![[false; 2]; n],
            cannot: vec![[false; 2]; n],
        };
        table.mark();
        // A model exists: no later core will name a rule, only wishes.
        table.session.fix_selectors();
        Ok(table)
    }

    fn literal(&self, i: usize) -> Lit {
        let (c, p) = self.pairs[i];
        self.session.enc.x[c][p as usize]
    }

    /// Marks what the last model shows.
    fn mark(&mut self) {
        for i in 0..self.pairs.len() {
            let truth = self.session.value(self.literal(i));
            self.seen[i][usize::from(truth)] = true;
        }
    }

    /// In how many places content `c` was seen so far.
    fn seen_in(&self, c: usize) -> usize {
        (0..self.pairs.len())
            .filter(|&i| self.pairs[i].0 == c && self.seen[i][1])
            .count()
    }

    /// Content `c`'s positive literals not yet seen true nor ruled out.
    fn open_of(&self, c: usize) -> Vec<Lit> {
        (0..self.pairs.len())
            .filter(|&i| self.pairs[i].0 == c && !self.seen[i][1] && !self.cannot[i][1])
            .map(|i| self.literal(i))
            .collect()
    }

    /// Rules out `lits` (of polarity `truth`): no model has any of them.
    /// The solver learns each as a unit clause (`¬x`), which no model
    /// had anyway, so later calls need not prove it again.
    fn rule_out(&mut self, lits: &[Lit], truth: bool) {
        let k = usize::from(truth);
        for i in 0..self.pairs.len() {
            let l = self.literal(i);
            if lits.contains(&if truth { l } else { !l }) {
                self.cannot[i][k] = true;
            }
        }
        for &l in lits {
            self.session.add_fact(!l);
        }
    }

    /// The literals of polarity `truth` not yet seen nor ruled out.
    fn open(&self, truth: bool) -> Vec<Lit> {
        let k = usize::from(truth);
        (0..self.pairs.len())
            .filter(|&i| !self.seen[i][k] && !self.cannot[i][k])
            .map(|i| {
                if truth {
                    self.literal(i)
                } else {
                    !self.literal(i)
                }
            })
            .collect()
    }

    /// No model has any open literal of polarity `truth`: each is ruled out.
    fn decide_open(&mut self, truth: bool) {
        let k = usize::from(truth);
        for i in 0..self.pairs.len() {
            if !self.seen[i][k] {
                self.cannot[i][k] = true;
            }
        }
    }

    fn finish(self) -> Analysis {
        let n = self.problem.place_count();
        let mut status = vec![vec![Status::Impossible; n]; self.problem.contents.len()];
        for (i, &(c, p)) in self.pairs.iter().enumerate() {
            status[c][p as usize] = if self.cannot[i][1] {
                Status::Impossible
            } else if self.cannot[i][0] {
                Status::Necessary
            } else {
                Status::Possible
            };
        }
        Analysis {
            status,
            solver_calls: self.session.calls,
            naive_calls: 2 * self.pairs.len() as u64,
        }
    }
}
