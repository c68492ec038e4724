//! Exhaustive exploration of a grammar's derivations up to isomorphism.
//!
//! Where a derivation draws one rule, match and alternative per step, the
//! exploration takes them all: breadth first from the start host, every
//! state reachable within `depth` steps, each kept once by the canonical
//! form of its graph ([`crate::canon`]). This is the state-space
//! exploration of GROOVE (Rensink, "The GROOVE Simulator: A Tool for State
//! Space Generation", AGTIVE 2003; Ghamarian et al., "Modelling and
//! analysis using GROOVE", STTT 14, 2012) under levelgraph's step
//! semantics (grammar language reference, section 9):
//!
//! - a step's candidates are the rules of the highest priority that has an
//!   applicable match, less those out of uses (`max_uses`, groups), a
//!   `no_repeat` rule that made the last step, and rules whose smallest
//!   right-hand side would pass `max_vertices`; every match of those rules
//!   and every alternative the limits allow at it is a transition;
//! - a recipe stage may end after any count of steps from its `min` to its
//!   `max` (an unbounded stage runs until none applies); a stage that
//!   cannot make its `min` fails the derivation;
//! - a *level* is a state where the derivation stops: no rule applies,
//!   `max_iterations` steps were made, or the recipe is complete; one with
//!   fewer than `min_vertices` vertices is a failed derivation instead.
//!
//! Weights and `probability` only say how likely a transition is, so they
//! are ignored (a skipped step changes nothing but the step count, and is
//! not explored). A geometric grammar is explored as a plain one: flipped
//! matches and plane placements are not followed.
//!
//! A state is its graph's canonical form together with what the step
//! semantics still read: use counts of rules with `max_uses` or a group,
//! the last rule when some rule is `no_repeat`, and the recipe stage.
//! With a `play` block each distinct level is checked ([`crate::play`]);
//! breadth first, the first level that cannot be finished comes from a
//! shortest derivation.
//!
//! Every search has a limit: the number of states, the number of
//! transitions looked at, and the canonical labelling's node budget; the
//! report says which one stopped the exploration.

use std::collections::HashSet;
use std::fmt;
use std::ops::ControlFlow;

use crate::canon::{self, SearchLimits};
use crate::derive::{candidacy, limits_block, start_host, Candidacy, Uses};
use crate::grammar::{CompiledGrammar, Limits};
use crate::graph::{Graph, VertexId};
use crate::matching::Match;
use crate::play::{self, Verdict};
use crate::rewrite::{self, Changes};

/// How far an exploration may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExploreLimits {
    /// Rule applications from the start host (k).
    pub depth: u32,
    /// Distinct states kept, all depths together.
    pub max_states: usize,
    /// Transitions (rule, match, alternative) looked at, duplicates included.
    pub max_transitions: usize,
    /// The canonical labelling's budget per state.
    pub canon: SearchLimits,
    /// A smaller `max_vertices` than the grammar's (and `min_vertices` at
    /// most it), so that derivations end within few steps: a grammar's
    /// mistakes usually show in small levels already (the small-scope
    /// hypothesis of Jackson's Alloy).
    pub max_vertices: Option<u32>,
}

impl ExploreLimits {
    /// `depth` steps, at most 100,000 states and 2,000,000 transitions,
    /// the canonical labelling's default budget, and the grammar's own
    /// `max_vertices`.
    pub fn new(depth: u32) -> Self {
        ExploreLimits {
            depth,
            max_states: 100_000,
            max_transitions: 2_000_000,
            canon: SearchLimits::default(),
            max_vertices: None,
        }
    }
}

/// Which limit ended an exploration before `depth`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExploreStop {
    /// [`ExploreLimits::max_states`] distinct states were kept.
    #[error("the state limit: {0} distinct states were kept")]
    States(usize),
    /// [`ExploreLimits::max_transitions`] transitions were looked at.
    #[error("the transition limit: {0} rule applications were tried")]
    Transitions(usize),
    /// The canonical labelling of a state's graph passed its node budget.
    #[error("the canonical labelling of a state at depth {depth}: {error}")]
    Canon {
        /// The depth of the state.
        depth: u32,
        /// What the labelling reported.
        error: canon::LimitReached,
    },
}

/// What one depth of the exploration found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DepthCount {
    /// Rule applications from the start host.
    pub depth: u32,
    /// Distinct states first reached at this depth.
    pub states: usize,
    /// Of them, levels: the derivation stops there.
    pub levels: usize,
    /// Of the levels, those the play check finds cannot be finished.
    pub unfinishable: usize,
    /// Derivations that fail here (a recipe stage short of its `min`,
    /// fewer than `min_vertices` vertices).
    pub failed: usize,
}

/// One rule application of an explored derivation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExploredStep {
    /// The rule's name.
    pub rule: String,
    /// Which right-hand alternative, from 1 as written.
    pub alternative: usize,
    /// The host vertex of each pattern vertex, in the pattern's order, in
    /// the graph before the step (ids as a derivation from the start host
    /// gives them).
    pub matched: Vec<(String, VertexId)>,
}

impl fmt::Display for ExploredStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rule)?;
        if self.alternative > 1 {
            write!(f, " (alternative {})", self.alternative)?;
        }
        let at: Vec<String> = self
            .matched
            .iter()
            .map(|(name, v)| format!("{name}=v{}", v.0))
            .collect();
        write!(f, " at {}", at.join(", "))
    }
}

/// A shortest derivation to a level that cannot be finished.
#[derive(Clone, Debug)]
pub struct Broken {
    /// The rule applications, in order.
    pub steps: Vec<ExploredStep>,
    /// The level it yields.
    pub graph: Graph,
    /// Why it cannot be finished (the play check's reason).
    pub why: String,
}

/// What [`explore`] found.
#[derive(Clone, Debug)]
pub struct Exploration {
    /// Per depth from 0, as far as the exploration went.
    pub depths: Vec<DepthCount>,
    /// Distinct states in all.
    pub states: usize,
    /// Distinct level graphs (by canonical form; the same level reached
    /// with other use counts counts once).
    pub levels: usize,
    /// Levels whose play check stopped at its search limit.
    pub unknown: usize,
    /// Whether the grammar has a `play` block (else nothing is checked).
    pub checked_play: bool,
    /// The first level that cannot be finished, from a shortest derivation.
    pub broken: Option<Broken>,
    /// The limit that stopped the exploration early; `None` when every
    /// state within the depth was explored.
    pub stopped: Option<ExploreStop>,
}

/// A state waiting at the frontier.
struct Open {
    graph: Graph,
    uses: Vec<u32>,
    group_uses: Vec<u32>,
    last: Option<usize>,
    /// Recipe stage and steps made in it.
    stage: usize,
    done: u32,
    /// Index into `Explorer::paths`.
    path: usize,
    /// The canonical form of `graph`, once `admit` has computed it (kept
    /// so that a level and a stage's end need no second labelling).
    form: Vec<u8>,
}

/// How a state was first reached: its parent's path index and the step.
struct PathLink {
    parent: Option<usize>,
    step: Option<ExploredStep>,
}

/// Explores every derivation of `grammar` of up to `limits.depth` steps,
/// keeping each state once by its canonical form. See the module docs for
/// the semantics and the limits; same grammar and limits, same result.
pub fn explore(grammar: &CompiledGrammar, limits: &ExploreLimits) -> Exploration {
    Explorer::new(grammar, limits).run()
}

struct Explorer<'g> {
    grammar: &'g CompiledGrammar,
    limits: ExploreLimits,
    /// The grammar's limits, with `max_vertices` lowered as asked.
    rules_limits: Limits,
    seen: HashSet<Vec<u8>>,
    level_forms: HashSet<Vec<u8>>,
    paths: Vec<PathLink>,
    transitions: usize,
    out: Exploration,
    /// Rules whose use count is part of a state: `max_uses` or a group.
    counted: Vec<bool>,
    any_no_repeat: bool,
}

impl<'g> Explorer<'g> {
    fn new(grammar: &'g CompiledGrammar, limits: &ExploreLimits) -> Self {
        let rules = grammar.rules();
        let mut rules_limits = *grammar.limits();
        if let Some(max) = limits.max_vertices {
            rules_limits.max_vertices = rules_limits.max_vertices.min(max);
            rules_limits.min_vertices = rules_limits.min_vertices.min(rules_limits.max_vertices);
        }
        Explorer {
            grammar,
            limits: *limits,
            rules_limits,
            seen: HashSet::new(),
            level_forms: HashSet::new(),
            paths: Vec::new(),
            transitions: 0,
            out: Exploration {
                depths: Vec::new(),
                states: 0,
                levels: 0,
                unknown: 0,
                checked_play: grammar.play().is_some(),
                broken: None,
                stopped: None,
            },
            counted: rules
                .iter()
                .map(|r| r.max_uses.is_some() || r.group.is_some())
                .collect(),
            any_no_repeat: rules.iter().any(|r| r.no_repeat),
        }
    }

    fn run(mut self) -> Exploration {
        let rules = self.grammar.rules();
        let start = Open {
            graph: start_host(self.grammar),
            uses: vec![0; rules.len()],
            group_uses: vec![0; self.grammar.group_limits().len()],
            last: None,
            stage: 0,
            done: 0,
            path: 0,
            form: Vec::new(),
        };
        self.paths.push(PathLink {
            parent: None,
            step: None,
        });
        let mut level: Vec<Open> = Vec::new();
        match self.admit(start, 0) {
            Ok(Some(open)) => level.push(open),
            Ok(None) => {}
            Err(stop) => {
                self.out.stopped = Some(stop);
                return self.out;
            }
        }
        let mut depth = 0u32;
        while !level.is_empty() {
            let mut next_level = Vec::new();
            // Ends of recipe stages reach new states at the same depth:
            // they are appended to `level` as it is walked.
            let mut i = 0;
            while i < level.len() {
                if let Err(stop) = self.expand(&mut level, i, depth, &mut next_level) {
                    self.out.stopped = Some(stop);
                    return self.out;
                }
                i += 1;
            }
            if depth == self.limits.depth {
                break;
            }
            level = next_level;
            depth += 1;
        }
        self.out
    }

    fn count_at(&mut self, depth: u32) -> &mut DepthCount {
        let d = depth as usize;
        while self.out.depths.len() <= d {
            let depth = self.out.depths.len() as u32;
            self.out.depths.push(DepthCount {
                depth,
                ..DepthCount::default()
            });
        }
        &mut self.out.depths[d]
    }

    /// The state's identity: the canonical form of its graph (computed
    /// into `open.form` unless it is there) and what the step semantics
    /// read besides.
    fn key(&self, open: &mut Open) -> Result<Vec<u8>, canon::LimitReached> {
        if open.form.is_empty() {
            open.form = graph_form(&open.graph, &self.limits.canon)?;
        }
        let mut key = open.form.clone();
        for (r, &used) in open.uses.iter().enumerate() {
            if self.counted[r] {
                key.extend_from_slice(&used.to_le_bytes());
            }
        }
        for &used in &open.group_uses {
            key.extend_from_slice(&used.to_le_bytes());
        }
        if self.any_no_repeat {
            let last = open.last.map_or(u32::MAX, |r| r as u32);
            key.extend_from_slice(&last.to_le_bytes());
        }
        key.extend_from_slice(&(open.stage as u32).to_le_bytes());
        key.extend_from_slice(&open.done.to_le_bytes());
        Ok(key)
    }

    /// `Some(open)` when the state is new (counted at `depth`), `None` when
    /// it was seen before.
    fn admit(&mut self, mut open: Open, depth: u32) -> Result<Option<Open>, ExploreStop> {
        let key = self
            .key(&mut open)
            .map_err(|error| ExploreStop::Canon { depth, error })?;
        if !self.seen.insert(key) {
            return Ok(None);
        }
        if self.seen.len() > self.limits.max_states {
            return Err(ExploreStop::States(self.limits.max_states));
        }
        self.out.states += 1;
        self.count_at(depth).states += 1;
        Ok(Some(open))
    }

    /// Expands `level[i]`: its rule applications go to `next_level`, the
    /// end of its recipe stage (a state at the same depth) to `level`.
    fn expand(
        &mut self,
        level: &mut Vec<Open>,
        i: usize,
        depth: u32,
        next_level: &mut Vec<Open>,
    ) -> Result<(), ExploreStop> {
        let grammar = self.grammar;
        let limits = self.rules_limits;
        let open = &level[i];
        let stage = grammar.recipe().map(|stages| (stages, open.stage));
        if let Some((stages, s)) = stage {
            if s == stages.len() {
                return self.stopped(level, i, depth);
            }
        }
        if depth >= limits.max_iterations {
            // The iteration limit ends the derivation; with a recipe, a
            // stage short of its minimum (this one or a later one) fails it.
            let fails = stage.is_some_and(|(stages, s)| {
                open.done < stages[s].min || stages[s + 1..].iter().any(|later| later.min > 0)
            });
            if fails {
                self.count_at(depth).failed += 1;
                return Ok(());
            }
            return self.stopped(level, i, depth);
        }
        let (pool, room): (Vec<usize>, bool) = match stage {
            None => ((0..grammar.rules().len()).collect(), true),
            Some((stages, s)) => (
                stages[s].rules.iter().map(|&(r, _)| r).collect(),
                stages[s].max.is_none_or(|max| open.done < max),
            ),
        };
        let steps = if room {
            self.applications(&level[i], &pool)?
        } else {
            Vec::new()
        };
        match stage {
            None if steps.is_empty() => return self.stopped(level, i, depth),
            None => {}
            Some((stages, s)) => {
                let open = &level[i];
                let bounded = stages[s].max.is_some();
                if open.done < stages[s].min && steps.is_empty() {
                    self.count_at(depth).failed += 1;
                    return Ok(());
                }
                // A bounded stage may end after any count from its `min`;
                // an unbounded one when no rule applies.
                if open.done >= stages[s].min && (bounded || steps.is_empty()) {
                    let ended = end_stage(open);
                    if let Some(ended) = self.admit(ended, depth)? {
                        level.push(ended);
                    }
                }
            }
        }
        if depth == self.limits.depth {
            return Ok(());
        }
        let rules = grammar.rules();
        for (r, a, m) in steps {
            let open = &level[i];
            let mut graph = open.graph.clone();
            let mut changes = Changes::default();
            rewrite::apply(&mut graph, &rules[r].alternatives[a], &m, &mut changes);
            let mut uses = open.uses.clone();
            uses[r] += 1;
            let mut group_uses = open.group_uses.clone();
            if let Some(g) = rules[r].group {
                group_uses[g] += 1;
            }
            let names = &grammar.model().rules[r].lhs.vertices;
            let step = ExploredStep {
                rule: rules[r].name.to_string(),
                alternative: a + 1,
                matched: names
                    .iter()
                    .zip(&m.vertices)
                    .map(|(v, &host)| (v.name.clone(), host))
                    .collect(),
            };
            let child = Open {
                graph,
                uses,
                group_uses,
                last: Some(r),
                stage: open.stage,
                done: open.done + 1,
                path: self.paths.len(),
                form: Vec::new(),
            };
            let parent = open.path;
            if let Some(child) = self.admit(child, depth + 1)? {
                self.paths.push(PathLink {
                    parent: Some(parent),
                    step: Some(step),
                });
                next_level.push(child);
            }
        }
        Ok(())
    }

    /// The derivation stops at `level[i]`: a level, or a failed derivation
    /// when it has fewer than `min_vertices` vertices.
    fn stopped(&mut self, level: &[Open], i: usize, depth: u32) -> Result<(), ExploreStop> {
        if level[i].graph.vertex_count() < self.rules_limits.min_vertices as usize {
            self.count_at(depth).failed += 1;
            Ok(())
        } else {
            self.level_reached(&level[i], depth)
        }
    }

    /// Every (rule, alternative, match) a step at `open` may take among
    /// `pool`: the highest priority that has one.
    fn applications(
        &mut self,
        open: &Open,
        pool: &[usize],
    ) -> Result<Vec<(usize, usize, Match)>, ExploreStop> {
        let grammar = self.grammar;
        let rules = grammar.rules();
        let limits = &self.rules_limits;
        let uses = Uses {
            rules: &open.uses,
            groups: &open.group_uses,
            group_limits: grammar.group_limits(),
            last_applied: open.last,
        };
        let mut eligible: Vec<usize> = pool
            .iter()
            .copied()
            .filter(|&r| candidacy(rules, r, &uses, &open.graph, limits) == Candidacy::Candidate)
            .collect();
        eligible.sort_by_key(|&r| std::cmp::Reverse(rules[r].priority));
        let mut steps = Vec::new();
        let mut at = 0;
        while at < eligible.len() && steps.is_empty() {
            let priority = rules[eligible[at]].priority;
            while at < eligible.len() && rules[eligible[at]].priority == priority {
                let r = eligible[at];
                at += 1;
                let mut over = false;
                let _ = rules[r].pattern.for_each_match(&open.graph, &mut |m| {
                    for (a, alt) in rules[r].alternatives.iter().enumerate() {
                        if limits_block(&open.graph, limits, alt, m) == 0 {
                            steps.push((r, a, m.clone()));
                        }
                    }
                    self.transitions += 1;
                    if self.transitions > self.limits.max_transitions {
                        over = true;
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                });
                if over {
                    return Err(ExploreStop::Transitions(self.limits.max_transitions));
                }
            }
        }
        Ok(steps)
    }

    fn level_reached(&mut self, open: &Open, depth: u32) -> Result<(), ExploreStop> {
        self.count_at(depth).levels += 1;
        if !self.level_forms.insert(open.form.clone()) {
            return Ok(());
        }
        self.out.levels += 1;
        let Some(spec) = self.grammar.play() else {
            return Ok(());
        };
        let report = play::check(&open.graph, spec);
        match report.verdict {
            Verdict::Completable => {}
            Verdict::Unknown { .. } => self.out.unknown += 1,
            Verdict::Unfinishable(_) => {
                self.count_at(depth).unfinishable += 1;
                if self.out.broken.is_none() {
                    self.out.broken = Some(Broken {
                        steps: self.steps_to(open.path),
                        graph: open.graph.clone(),
                        why: report.verdict.why(&open.graph),
                    });
                }
            }
        }
        Ok(())
    }

    /// The rule applications from the start host to the state at `path`.
    fn steps_to(&self, mut path: usize) -> Vec<ExploredStep> {
        let mut steps = Vec::new();
        loop {
            let link = &self.paths[path];
            if let Some(step) = &link.step {
                steps.push(step.clone());
            }
            match link.parent {
                Some(parent) => path = parent,
                None => break,
            }
        }
        steps.reverse();
        steps
    }
}

/// The canonical form of a level's graph.
fn graph_form(graph: &Graph, limits: &SearchLimits) -> Result<Vec<u8>, canon::LimitReached> {
    let (coloured, _) = canon::of_graph(graph);
    Ok(canon::canonical(&coloured, limits)?.form)
}

/// The state after its recipe stage ends (no rule applied): the next
/// stage, on the same graph.
fn end_stage(open: &Open) -> Open {
    Open {
        graph: open.graph.clone(),
        uses: open.uses.clone(),
        group_uses: open.group_uses.clone(),
        last: open.last,
        stage: open.stage + 1,
        done: 0,
        path: open.path,
        form: open.form.clone(),
    }
}

impl Exploration {
    /// `check --explore`'s finding: a warning at the rule that made the
    /// last step of the shortest derivation to a level that cannot be
    /// finished, or `None` when there is none within the depth.
    pub fn finding(&self, grammar: &CompiledGrammar) -> Option<crate::diagnostic::Diagnostic> {
        use crate::diagnostic::{Diagnostic, Location, Severity};
        let broken = self.broken.as_ref()?;
        let rules = &grammar.model().rules;
        let last = broken.steps.last()?;
        let (i, rule) = rules
            .iter()
            .enumerate()
            .find(|(_, r)| r.name == last.rule)?;
        let location = match rule.span {
            Some(span) => Location::Span(span),
            None => Location::Field(format!("rules[{i}]")),
        };
        let steps: Vec<&str> = broken.steps.iter().map(|s| s.rule.as_str()).collect();
        Some(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "a level that cannot be finished is derived in {} {}: {}; {}",
                    broken.steps.len(),
                    if broken.steps.len() == 1 {
                        "step"
                    } else {
                        "steps"
                    },
                    steps.join(", "),
                    broken.why
                ),
                location,
            )
            .with_hint("`levelgraph explore` prints the derivation with its matches"),
        )
    }
}
