//! The CNF whose models are exactly the placements that meet a `place`
//! block and keep the level completable (docs/grammar-language.md,
//! section 20.3).
//!
//! Variables:
//! - `x[c][p]`: place `p` holds content `c` (the placement variables; the
//!   only ones blocking clauses and the analysis look at);
//! - `in[c][z]`: zone `z` holds `c` (`x[c][p]` for some `p` in `z`);
//! - `end[t][z]`: in phase `t` of key pick-ups the player reaches zone
//!   `z`: written from the zone's minimal lock sets (`ways.rs`), true
//!   when every lock of one of them is open, or, as the reference and
//!   where a level has too many sets, unrolled step by step:
//!   `r[t][s][z]`, zone `z` within `s` steps between zones, and
//!   `end[t][z] = r[t][S][z]` with `S` the number of zones less one or
//!   twice the number of locks, whichever is less (enough for any
//!   shortest walk within a phase: a walk between zones crosses a lock at
//!   every step into a locked room or through a door, and at most one
//!   step out of each locked room);
//! - `have[t][k]`: key `k` lies in a zone reached by the end of phase
//!   `t − 1`; `open[t][l]`: a key held in phase `t` opens lock `l`.
//!
//! Every auxiliary variable is defined both ways (Tseitin 1968): it is
//! true exactly when its definition is. Reachability within a phase comes
//! from walks found on the level's graph (or grows one step at a time
//! from the entrance), so no zone is reached on the strength of itself (a
//! cycle of zones cannot support itself), and the models are in
//! one-to-one correspondence with the valid placements. Cardinality
//! (`count`, exactly one key of each kind) uses rustsat's totalizer
//! (Bailleux & Boufkhad 2003). Each constraint's clauses carry a selector
//! literal, assumed true in every solve, so an unsatisfiable problem's
//! core names the constraints in conflict.

use rustsat::encodings::card::{BoundLower, BoundUpper, Totalizer};
use rustsat::instances::{BasicVarManager, Cnf, ManageVars};
use rustsat::types::{Clause, Lit};

use super::problem::{ContentKind, Problem, FAR};
use super::rules::RuleKind;
use super::ways::{minimal_lock_sets, LockSets, TooManyWays};
use super::zones::Zones;
use crate::grammar::place::Anchor;

/// The encoding of one problem.
#[derive(Clone, Debug)]
pub(crate) struct Encoding {
    /// The clauses; [`super::solve::Session`] moves them into its solver.
    pub(crate) cnf: Cnf,
    /// The number of clauses.
    pub(crate) clauses: usize,
    /// Per content, per place: the placement variable.
    pub(crate) x: Vec<Vec<Lit>>,
    /// Per rule of [`Problem::rules`]: its selector.
    pub(crate) selectors: Vec<Lit>,
    /// The number of variables.
    pub(crate) variables: u32,
    /// The number of zones.
    pub(crate) zones: usize,
    /// How each phase's reachability was written.
    pub(crate) reachability: Reachability,
}

/// How the encoding writes the zones reached in each phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reachability {
    /// By each zone's minimal lock sets (`ways.rs`): an OR of ANDs of the
    /// open locks, no step variables.
    Sets,
    /// Step by step between zones: the plain unrolling, used as the
    /// reference and where a level has too many ways round its locks
    /// (the limit that stopped the sets, if any).
    Steps(Option<TooManyWays>),
}

/// A key as reachability sees it: where it lies (per zone) and what it
/// opens.
struct KeyIn {
    in_zone: Vec<Lit>,
    opens: Vec<u32>,
}

/// One unrolling of reachability: per phase, the zones reached at its end
/// and the keys held during it.
struct Reach {
    end: Vec<Vec<Lit>>,
    have: Vec<Vec<Lit>>,
}

struct Builder<'p> {
    problem: &'p Problem,
    zones: Zones,
    cnf: Cnf,
    vars: BasicVarManager,
    truth: Lit,
    /// Per zone the entrance may lie in (its literal): each zone's
    /// minimal lock sets from there; `None` to unroll steps.
    ways: Option<Vec<(Lit, LockSets)>>,
}

impl Builder<'_> {
    fn fresh(&mut self) -> Lit {
        self.vars.new_var().pos_lit()
    }

    fn clause(&mut self, lits: &[Lit]) {
        self.cnf.add_clause(Clause::from(lits));
    }

    /// A literal true exactly when some of `inputs` is.
    fn or_of(&mut self, inputs: &[Lit]) -> Lit {
        let inputs: Vec<Lit> = inputs
            .iter()
            .copied()
            .filter(|&l| l != !self.truth)
            .collect();
        if inputs.contains(&self.truth) {
            return self.truth;
        }
        match inputs.as_slice() {
            [] => !self.truth,
            [one] => *one,
            _ => {
                let out = self.fresh();
                let mut long = vec![!out];
                long.extend_from_slice(&inputs);
                self.clause(&long);
                for &i in &inputs {
                    self.clause(&[!i, out]);
                }
                out
            }
        }
    }

    /// A literal true exactly when all of `inputs` are.
    fn and_of(&mut self, inputs: &[Lit]) -> Lit {
        let inputs: Vec<Lit> = inputs
            .iter()
            .copied()
            .filter(|&l| l != self.truth)
            .collect();
        if inputs.contains(&!self.truth) {
            return !self.truth;
        }
        match inputs.as_slice() {
            [] => self.truth,
            [one] => *one,
            _ => {
                let out = self.fresh();
                let mut long = vec![out];
                long.extend(inputs.iter().map(|&i| !i));
                self.clause(&long);
                for &i in &inputs {
                    self.clause(&[!out, i]);
                }
                out
            }
        }
    }

    /// Between `min` and `max` of `lits` true, under `guard` (hard when
    /// `None`), by a totalizer.
    fn count(&mut self, lits: &[Lit], min: u32, max: u32, guard: Option<Lit>) {
        let (min, max) = (min as usize, max as usize);
        if min > lits.len() {
            let g: Vec<Lit> = guard.map(|g| !g).into_iter().collect();
            self.clause(&g);
            return;
        }
        let mut tot: Totalizer = lits.iter().copied().collect();
        let mut units = Vec::new();
        if max < lits.len() {
            tot.encode_ub(max..=max, &mut self.cnf, &mut self.vars)
                .expect("memory");
            units.extend(tot.enforce_ub(max).expect("encoded"));
        }
        if min > 0 {
            tot.encode_lb(min..=min, &mut self.cnf, &mut self.vars)
                .expect("memory");
            units.extend(tot.enforce_lb(min).expect("encoded"));
        }
        for u in units {
            match guard {
                Some(g) => self.clause(&[!g, u]),
                None => self.clause(&[u]),
            }
        }
    }

    /// `in[c][z]` for every zone.
    fn in_zones(&mut self, x: &[Lit]) -> Vec<Lit> {
        (0..self.zones.len())
            .map(|z| {
                let lits: Vec<Lit> = self.zones.places[z]
                    .iter()
                    .map(|&p| x[p as usize])
                    .collect();
                self.or_of(&lits)
            })
            .collect()
    }

    /// Reachability by phases of key pick-ups from the zones `start`
    /// (each true exactly when the entrance lies there), with lock `shut`
    /// never opened.
    fn reach(&mut self, start: &[Lit], keys: &[KeyIn], shut: Option<u32>) -> Reach {
        let z_count = self.zones.len();
        let locks = self.problem.locks.len();
        let mut end: Vec<Vec<Lit>> = Vec::new();
        let mut have: Vec<Vec<Lit>> = vec![vec![!self.truth; keys.len()]];
        // Out of `self` while the phases borrow it mutably; put back after.
        let ways = self.ways.take();
        for t in 0..=keys.len() {
            if t > 0 {
                let held: Vec<Lit> = keys
                    .iter()
                    .map(|k| {
                        let found: Vec<Lit> = (0..z_count)
                            .map(|z| self.and_of(&[k.in_zone[z], end[t - 1][z]]))
                            .collect();
                        self.or_of(&found)
                    })
                    .collect();
                have.push(held);
            }
            let mut open = vec![!self.truth; locks];
            for (l, slot) in open.iter_mut().enumerate() {
                if shut == Some(l as u32) || t == 0 {
                    continue;
                }
                let by: Vec<Lit> = keys
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| k.opens.contains(&(l as u32)))
                    .map(|(i, _)| have[t][i])
                    .collect();
                *slot = self.or_of(&by);
            }
            let reached = match &ways {
                Some(ways) => self.phase_by_sets(ways, &open),
                None => {
                    let from = match t {
                        0 => start.to_vec(),
                        _ => end[t - 1].clone(),
                    };
                    self.phase_by_steps(from, &open)
                }
            };
            end.push(reached);
        }
        self.ways = ways;
        let last = end.last().expect("phase 0").clone();
        let held: Vec<Lit> = keys
            .iter()
            .map(|k| {
                let found: Vec<Lit> = (0..z_count)
                    .map(|z| self.and_of(&[k.in_zone[z], last[z]]))
                    .collect();
                self.or_of(&found)
            })
            .collect();
        have.push(held);
        Reach { end, have }
    }

    /// Whether every way to the goal, from every zone the entrance may
    /// lie in, needs lock `l` (known from the minimal lock sets; false
    /// when reachability is unrolled by steps). For a placed goal, every
    /// zone counts as one it may lie in; for fixed goals, one goal behind
    /// `l` is enough, as `every key needed` asks of fixed goals.
    fn cuts_every_goal_way(&self, l: u32, goal_placed: bool) -> bool {
        let Some(ways) = &self.ways else {
            return false;
        };
        let behind = |z: usize| {
            ways.iter()
                .all(|(_, sets)| sets[z].iter().all(|set| set.contains(&l)))
        };
        if goal_placed {
            (0..self.zones.len()).all(behind)
        } else {
            self.problem
                .goals
                .iter()
                .any(|&p| behind(self.zones.of_place[p as usize] as usize))
        }
    }

    /// The zones reached in a phase whose open locks are `open`: a zone
    /// is reached when the entrance lies in some start zone and every
    /// lock of one of the zone's minimal sets from there is open.
    fn phase_by_sets(&mut self, ways: &[(Lit, LockSets)], open: &[Lit]) -> Vec<Lit> {
        (0..self.zones.len())
            .map(|z| {
                let from_starts: Vec<Lit> = ways
                    .iter()
                    .map(|(at_start, sets)| {
                        let by_sets: Vec<Lit> = sets[z]
                            .iter()
                            .map(|set| {
                                let need: Vec<Lit> =
                                    set.iter().map(|&l| open[l as usize]).collect();
                                self.and_of(&need)
                            })
                            .collect();
                        let opened = self.or_of(&by_sets);
                        self.and_of(&[*at_start, opened])
                    })
                    .collect();
                self.or_of(&from_starts)
            })
            .collect()
    }

    /// The zones reached in a phase whose open locks are `open`, from the
    /// zones `from` reached before it, one step between zones at a time:
    /// the plain unrolling. A shortest walk within a phase crosses each
    /// lock at most once and takes at most two steps per lock (into a
    /// locked room and out of it; through a door), and visits each zone
    /// once, so it takes at most `S` steps.
    fn phase_by_steps(&mut self, from: Vec<Lit>, open: &[Lit]) -> Vec<Lit> {
        let z_count = self.zones.len();
        let steps = z_count.saturating_sub(1).min(2 * self.problem.locks.len());
        let enter: Vec<Lit> = (0..z_count)
            .map(|z| {
                let need: Vec<Lit> = self.zones.enter_locks[z]
                    .iter()
                    .map(|&l| open[l as usize])
                    .collect();
                self.and_of(&need)
            })
            .collect();
        // Per zone: the zones a door-less link leads in from (entered
        // when the zone's own locks are open: one gate for all of them),
        // and the links through a locked door.
        let links = self.zones.links.clone();
        let mut plain_from: Vec<Vec<u32>> = vec![Vec::new(); z_count];
        let mut doors_in: Vec<Vec<(u32, Lit)>> = vec![Vec::new(); z_count];
        for link in &links {
            match link.door {
                None => plain_from[link.to as usize].push(link.from),
                Some(d) => doors_in[link.to as usize].push((link.from, open[d as usize])),
            }
        }
        let mut r = from;
        for _ in 0..steps {
            let mut next = Vec::with_capacity(z_count);
            for z in 0..z_count {
                let near: Vec<Lit> = plain_from[z].iter().map(|&u| r[u as usize]).collect();
                let near = self.or_of(&near);
                let mut ways = vec![r[z], self.and_of(&[near, enter[z]])];
                for &(u, door) in &doors_in[z] {
                    ways.push(self.and_of(&[r[u as usize], door, enter[z]]));
                }
                next.push(self.or_of(&ways));
            }
            if next == r {
                break;
            }
            r = next;
        }
        r
    }
}

/// The most variables an encoding may have: about 1 GB of clauses and
/// solver state. [`super::Problem::new`] refuses a larger problem.
pub const MAX_VARIABLES: u64 = 8_000_000;

/// An upper bound on the variables of `problem`'s encoding, without
/// building it: placement variables, zone memberships, and per
/// reachability unrolling (one, plus one per lock with `every key
/// needed`) the phases × (steps × (zones + 2 × links) + keys × zones).
pub(crate) fn estimated_variables(problem: &Problem) -> u64 {
    let zones = Zones::new(&problem.level, |p| problem.passage_ends(p));
    let z = zones.len() as u64;
    let links = zones.links.len() as u64;
    let locks = problem.locks.len() as u64;
    let keys = problem
        .contents
        .iter()
        .filter(|c| matches!(c.kind, ContentKind::Key { .. }))
        .count() as u64
        + problem.fixed.iter().filter(|f| f.opens.is_some()).count() as u64;
    let contents = problem.contents.len() as u64;
    let places = problem.place_count() as u64;
    let steps = z.saturating_sub(1).min(2 * locks);
    let phases = keys + 2;
    let unrolling = phases * (steps * (z + 2 * links) + keys * z + locks);
    let copies = if problem.spec.every_key_needed {
        1 + locks
    } else {
        1
    };
    // Totalizers: about places × log2(places) per content.
    let counting = contents * places * (64 - places.leading_zeros() as u64 + 1);
    contents * (places + z) + counting + copies * unrolling
}

/// Builds the encoding of `problem`.
///
/// # Size
/// O(contents × places) placement variables; reachability has (keys + 1)
/// phases × (lock sets of all zones + keys × zones) auxiliary variables
/// (unrolled by steps: phases × steps × (zones + links)), once for the
/// level and once more per lock under `every key needed` that does not
/// cut every way to the goal.
pub(crate) fn encode(problem: &Problem, how: Reachability) -> Encoding {
    let zones = Zones::new(&problem.level, |p| problem.passage_ends(p));
    let mut b = Builder {
        problem,
        zones,
        cnf: Cnf::new(),
        vars: BasicVarManager::default(),
        truth: Lit::positive(0),
        ways: None,
    };
    b.truth = b.fresh();
    let t = b.truth;
    b.clause(&[t]);
    let n = problem.place_count();
    let x: Vec<Vec<Lit>> = problem
        .contents
        .iter()
        .map(|_| (0..n).map(|_| b.fresh()).collect())
        .collect();
    let selectors: Vec<Lit> = problem.rules.iter().map(|_| b.fresh()).collect();
    let selector = |kind: RuleKind| {
        problem
            .rules
            .iter()
            .position(|r| r.kind == kind)
            .map(|i| selectors[i])
    };

    // Counts, and where each content may go.
    for (c, content) in problem.contents.iter().enumerate() {
        let guard = selector(RuleKind::Count(content.statement));
        b.count(&x[c], content.count.0, content.count.1, guard);
        if let Some(g) = selector(RuleKind::In(content.statement)) {
            for p in 0..n as u32 {
                if content.candidates.binary_search(&p).is_err() {
                    b.clause(&[!g, !x[c][p as usize]]);
                }
            }
        }
        if content.kind == ContentKind::Entrance {
            for (p, &lit) in x[c].iter().enumerate() {
                if !problem.level.place_locks[p].is_empty() {
                    b.clause(&[!lit]);
                }
            }
        }
    }
    distances(&mut b, &x, &selector);
    sharing(&mut b, &x, &selector);

    // Reachability.
    let in_zone: Vec<Vec<Lit>> = x.iter().map(|row| b.in_zones(row)).collect();
    let z_count = b.zones.len();
    let zone_of = |p: u32, b: &Builder<'_>| b.zones.of_place[p as usize] as usize;
    let start: Vec<Lit> = match problem
        .contents
        .iter()
        .position(|c| c.kind == ContentKind::Entrance)
    {
        Some(e) => in_zone[e].clone(),
        None => {
            let e = problem.entrance.expect("checked: a fixed entrance");
            let ze = zone_of(e, &b);
            (0..z_count).map(|z| if z == ze { t } else { !t }).collect()
        }
    };
    let mut reachability = how;
    if how == Reachability::Sets {
        let starts = (0..z_count as u32).filter(|&z| start[z as usize] != !t);
        let ways: Result<Vec<_>, TooManyWays> = starts
            .map(|z| {
                minimal_lock_sets(&b.zones, problem.locks.len(), z)
                    .map(|sets| (start[z as usize], sets))
            })
            .collect();
        match ways {
            Ok(ways) => b.ways = Some(ways),
            Err(limit) => reachability = Reachability::Steps(Some(limit)),
        }
    }
    let mut keys: Vec<KeyIn> = Vec::new();
    let mut key_content: Vec<Option<usize>> = Vec::new();
    for (c, content) in problem.contents.iter().enumerate() {
        if let ContentKind::Key { opens } = &content.kind {
            keys.push(KeyIn {
                in_zone: in_zone[c].clone(),
                opens: opens.clone(),
            });
            key_content.push(Some(c));
        }
    }
    for fixed in &problem.fixed {
        if let Some(opens) = &fixed.opens {
            let zf = zone_of(fixed.place, &b);
            keys.push(KeyIn {
                in_zone: (0..z_count).map(|z| if z == zf { t } else { !t }).collect(),
                opens: opens.clone(),
            });
            key_content.push(None);
        }
    }
    let reach = b.reach(&start, &keys, None);
    let last = reach.end.last().expect("phase 0").clone();
    let goal_content = problem
        .contents
        .iter()
        .position(|c| c.kind == ContentKind::Goal);
    if let Some(g) = selector(RuleKind::Completable) {
        match goal_content {
            Some(gc) => {
                for z in 0..z_count {
                    b.clause(&[!g, !in_zone[gc][z], last[z]]);
                }
            }
            None => {
                for &p in &problem.goals {
                    let z = zone_of(p, &b);
                    b.clause(&[!g, last[z]]);
                }
            }
        }
    }
    if let Some(g) = selector(RuleKind::Reachable) {
        for (c, content) in problem.contents.iter().enumerate() {
            if matches!(content.kind, ContentKind::Key { .. } | ContentKind::Item) {
                for z in 0..z_count {
                    b.clause(&[!g, !in_zone[c][z], last[z]]);
                }
            }
        }
    }
    lock_first(&mut b, &reach, &key_content, &selector);
    if let Some(g) = selector(RuleKind::EveryKeyNeeded) {
        for l in 0..problem.locks.len() as u32 {
            if b.cuts_every_goal_way(l, goal_content.is_some()) {
                // The goal lies behind the lock wherever content goes:
                // the copy's clauses would all be satisfied.
                continue;
            }
            let shut = b.reach(&start, &keys, Some(l));
            let last = shut.end.last().expect("phase 0").clone();
            match goal_content {
                Some(gc) => {
                    for z in 0..z_count {
                        b.clause(&[!g, !in_zone[gc][z], !last[z]]);
                    }
                }
                None => {
                    let mut some_goal_out = vec![!g];
                    for &p in &problem.goals {
                        some_goal_out.push(!last[zone_of(p, &b)]);
                    }
                    b.clause(&some_goal_out);
                }
            }
        }
    }
    let variables = b.vars.max_var().map_or(0, |v| v.idx32() + 1);
    Encoding {
        clauses: b.cnf.len(),
        cnf: b.cnf,
        x,
        selectors,
        variables,
        zones: z_count,
        reachability,
    }
}

/// `distance from ANCHOR MIN..MAX`: a fixed anchor forbids the places out
/// of range; a placed one (the entrance or goal) asks, per place, for the
/// anchor in some place in range of it.
fn distances(b: &mut Builder<'_>, x: &[Vec<Lit>], selector: &dyn Fn(RuleKind) -> Option<Lit>) {
    let problem = b.problem;
    let n = problem.place_count();
    let statements = problem.spec.statements();
    for (c, content) in problem.contents.iter().enumerate() {
        let placed = statements[content.statement].2;
        for (i, d) in placed.distance.iter().enumerate() {
            let Some(g) = selector(RuleKind::Distance(content.statement, i)) else {
                continue;
            };
            let ok = |dist: u32| dist != FAR && dist >= d.min && d.max.is_none_or(|m| dist <= m);
            if let Some(dist) = problem.anchor_distances(c, d.from) {
                for p in 0..n {
                    if !ok(dist[p]) {
                        b.clause(&[!g, !x[c][p]]);
                    }
                }
                continue;
            }
            let kind = match d.from {
                Anchor::Entrance => ContentKind::Entrance,
                _ => ContentKind::Goal,
            };
            let Some(a) = problem.contents.iter().position(|o| o.kind == kind) else {
                continue;
            };
            for p in 0..n {
                let dist = problem.distances_from(&[p as u32]);
                let mut clause = vec![!g, !x[c][p]];
                clause.extend((0..n).filter(|&q| ok(dist[q])).map(|q| x[a][q]));
                b.clause(&clause);
            }
        }
    }
}

/// `not with` and `alone`: pairs of contents that never share a place,
/// and places that fixed content already holds.
fn sharing(b: &mut Builder<'_>, x: &[Vec<Lit>], selector: &dyn Fn(RuleKind) -> Option<Lit>) {
    let problem = b.problem;

    let statements = problem.spec.statements();
    for (c, content) in problem.contents.iter().enumerate() {
        let placed = statements[content.statement].2;
        let rules = [
            (selector(RuleKind::NotWith(content.statement)), false),
            (selector(RuleKind::Alone(content.statement)), true),
        ];
        for (guard, alone) in rules {
            let Some(g) = guard else { continue };
            let apart = |tag: &str| alone || placed.not_with.iter().any(|t| t == tag);
            for (o, other) in problem.contents.iter().enumerate() {
                if o != c && apart(&other.tag) {
                    for (&mine, &theirs) in x[c].iter().zip(&x[o]) {
                        b.clause(&[!g, !mine, !theirs]);
                    }
                }
            }
            // `alone` counts the level's own keys, not its own entrance
            // and goal vertices (`not with entrance` names those).
            for fixed in &problem.fixed {
                let counts = if alone {
                    fixed.opens.is_some()
                } else {
                    apart(&fixed.tag)
                };
                if counts {
                    b.clause(&[!g, !x[c][fixed.place as usize]]);
                }
            }
        }
    }
}

/// `lock first`: in the phase a key is first within reach, one of the
/// locks it opens is seen — a zone reached holds it or lies next to it.
fn lock_first(
    b: &mut Builder<'_>,
    reach: &Reach,
    key_content: &[Option<usize>],
    selector: &dyn Fn(RuleKind) -> Option<Lit>,
) {
    let problem = b.problem;
    for (k, c) in key_content.iter().enumerate() {
        let Some(c) = *c else { continue };
        let Some(g) = selector(RuleKind::LockFirst(problem.contents[c].statement)) else {
            continue;
        };
        let ContentKind::Key { opens } = &problem.contents[c].kind else {
            continue;
        };
        let mut near: Vec<u32> = Vec::new();
        for &l in opens {
            for p in problem.lock_places(l) {
                near.push(b.zones.of_place[p as usize]);
                if problem.level.locks[l as usize].place.is_some() {
                    for &q in &problem.neighbours[p as usize] {
                        near.push(b.zones.of_place[q as usize]);
                    }
                }
            }
        }
        near.sort_unstable();
        near.dedup();
        for t in 0..reach.end.len() {
            let seen_lits: Vec<Lit> = near.iter().map(|&z| reach.end[t][z as usize]).collect();
            let seen = b.or_of(&seen_lits);
            b.clause(&[!g, !reach.have[t + 1][k], reach.have[t][k], seen]);
        }
    }
}
