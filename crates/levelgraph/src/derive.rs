//! Derivation: rewriting a host graph from the start symbol until no rule
//! applies or a limit stops it (the build loop under the build parameters,
//! or a recipe's stages).
//!
//! **A step** chooses among a pool of rules (all rules, or one recipe
//! stage's rules with the stage's weights):
//! 1. Rules out of uses (`max_uses`, their group's combined `max_uses`), and
//!    a `no_repeat` rule that made the last application, are left out.
//!    Rules whose smallest right-hand side would exceed `max_vertices` are
//!    held back.
//! 2. Among the rest, only the highest `priority` that has an applicable
//!    match counts; within it a rule is drawn by weight, and drawn again
//!    (without the first) while the drawn rule has no applicable match.
//! 3. One of the rule's matches is drawn uniformly; with it, one of the
//!    rule's right-hand alternatives is drawn by weight among those that
//!    keep `max_vertices` and `max_valence` (see
//!    [`crate::grammar::Limits::max_valence`]). A match with no such
//!    alternative is dropped and another drawn.
//! 4. With probability `1 − probability` the rule is *skipped*: the step
//!    ends without a change. Otherwise it is applied.
//!
//! **Without a recipe** steps repeat until none applies or `max_iterations`
//! steps were made. **With a recipe** each stage draws its step count
//! uniformly from `min..=max` (or runs until none applies) and makes that
//! many steps; skipped steps count. A stage that stops before its `min`
//! fails the derivation ([`DeriveError::StageFailed`]). Either way, ending
//! with fewer than `min_vertices` vertices fails it
//! ([`DeriveError::TooFewVertices`]).
//!
//! All randomness comes from one [`Rng`] seeded with the derivation's seed,
//! and every collection that reaches a choice is ordered, so the same
//! grammar and seed give the same graph, trace and bytes on every machine.

use std::fmt;

use crate::grammar::{CompiledAlternative, CompiledGrammar, CompiledRule, Limits};
use crate::graph::{EdgeId, Graph, VertexId};
use crate::incremental::{self, MatchStore};
use crate::matching::{budget, Match};
use crate::rewrite::{self, Changes};
use crate::rng::Rng;

/// Why a derivation stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// No rule has an applicable match. The counts say how many rules that
    /// still had uses left and had matches were held back, and by what: a
    /// rule counts under `max_vertices` when every application would exceed
    /// that limit, under `max_valence` when `max_valence` blocked at least
    /// one of its matches and nothing else allowed one, and under placement
    /// when only a taken grid cell or a containment cycle blocked them.
    NoRuleApplies {
        /// Rules held back by `max_vertices`.
        blocked_by_max_vertices: u32,
        /// Rules held back by `max_valence`.
        blocked_by_max_valence: u32,
        /// Rules held back because a new grid vertex had no free cell or a
        /// containment would put a vertex inside itself.
        blocked_by_placement: u32,
    },
    /// `max_iterations` steps were made (the payload is the limit).
    IterationLimit(u32),
    /// Every stage of the recipe ran.
    RecipeComplete,
    /// A search for the matches of rule `rule` visited `nodes` search-tree
    /// nodes (host vertices tried for a pattern vertex) without finishing:
    /// the search budget, [`Budget::search_nodes`]. The level is what was
    /// derived until then.
    SearchBudget {
        /// The rule whose search stopped.
        rule: RuleName,
        /// The budget it used up.
        nodes: u64,
    },
    /// Grid rule `rule` has more matches than its store may hold
    /// ([`Budget::stored_match_words`]). The matches of other rules are
    /// then drawn by a randomized search; a grid rule's are not.
    MatchStoreBudget {
        /// The grid rule.
        rule: RuleName,
        /// The budget, in words (vertex and edge ids).
        words: usize,
    },
    /// The host graph, trace and match stores passed the memory budget
    /// ([`Budget::memory_bytes`]); `bytes` is their estimated size.
    MemoryBudget {
        /// The estimate that passed the budget, in bytes.
        bytes: u64,
        /// The budget, in bytes.
        budget: u64,
    },
    /// A replay ([`replay`]) reached the applications it was asked for;
    /// the derivation itself went on from there.
    Replayed {
        /// The applications replayed.
        applications: usize,
    },
}

impl StopReason {
    /// A stable machine-readable name: `no_rule_applies`,
    /// `iteration_limit`, `recipe_complete`, `search_budget`,
    /// `match_store_budget`, `memory_budget` or `replayed`.
    pub fn code(&self) -> &'static str {
        match self {
            StopReason::NoRuleApplies { .. } => "no_rule_applies",
            StopReason::IterationLimit(_) => "iteration_limit",
            StopReason::RecipeComplete => "recipe_complete",
            StopReason::SearchBudget { .. } => "search_budget",
            StopReason::MatchStoreBudget { .. } => "match_store_budget",
            StopReason::MemoryBudget { .. } => "memory_budget",
            StopReason::Replayed { .. } => "replayed",
        }
    }

    /// Whether a budget ([`Budget`]) stopped the derivation: the level is
    /// whatever was derived until then, and a recipe's later stages did
    /// not run.
    pub fn is_budget(&self) -> bool {
        matches!(
            self,
            StopReason::SearchBudget { .. }
                | StopReason::MatchStoreBudget { .. }
                | StopReason::MemoryBudget { .. }
        )
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::NoRuleApplies {
                blocked_by_max_vertices: v,
                blocked_by_max_valence: d,
                blocked_by_placement: p,
            } => {
                f.write_str("no rule applies")?;
                let parts: Vec<String> =
                    [(*v, "max_vertices"), (*d, "max_valence"), (*p, "placement")]
                        .iter()
                        .filter(|(n, _)| *n > 0)
                        .map(|(n, what)| format!("{n} by {what}"))
                        .collect();
                match parts.split_first() {
                    None => Ok(()),
                    Some((first, rest)) => {
                        let first = first.replacen(" by ", " held back by ", 1);
                        let mut all = vec![first];
                        all.extend(rest.iter().cloned());
                        write!(f, " ({})", all.join(", "))
                    }
                }
            }
            StopReason::IterationLimit(n) => write!(f, "iteration limit ({n} steps)"),
            StopReason::RecipeComplete => f.write_str("recipe complete"),
            StopReason::SearchBudget { rule, nodes } => write!(
                f,
                "search budget: the search for matches of rule `{rule}` tried {nodes} host vertices without finishing"
            ),
            StopReason::MatchStoreBudget { rule, words } => write!(
                f,
                "match store budget: grid rule `{rule}` has more matches than {words} words of vertex and edge ids hold"
            ),
            StopReason::MemoryBudget { bytes, budget } => write!(
                f,
                "memory budget: the level, trace and match stores take about {} MiB, more than the budget of {} MiB",
                bytes >> 20,
                budget >> 20
            ),
            StopReason::Replayed { applications } => {
                write!(f, "replayed the first {applications} applications")
            }
        }
    }
}

pub use crate::trace::{Application, RuleName, Trace};

/// A finished derivation.
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The grammar's name.
    pub grammar: String,
    /// The seed it ran with.
    pub seed: u64,
    /// The mission graph.
    pub graph: Graph,
    /// Every application, in order.
    pub trace: Trace,
    /// Steps skipped by rule `probability` (they count toward
    /// `max_iterations` and stage counts, but change nothing).
    pub skipped: u32,
    /// Why it stopped.
    pub stop: StopReason,
}

impl Derivation {
    /// `(rule, applications)` in order of each rule's first application.
    pub fn rule_counts(&self) -> Vec<(&str, usize)> {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for a in &self.trace {
            match counts.iter_mut().find(|(r, _)| *r == a.rule.as_str()) {
                Some((_, n)) => *n += 1,
                None => counts.push((a.rule.as_str(), 1)),
            }
        }
        counts
    }

    /// "N vertices, M edges; rules applied: a×2, b×1" — what the graph
    /// looked like, for failure messages.
    pub fn summary(&self) -> String {
        let counts = self.rule_counts();
        let rules = if counts.is_empty() {
            "none".to_owned()
        } else {
            counts
                .iter()
                .map(|(r, n)| format!("{r}×{n}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "{} vertices, {} edges; rules applied: {rules}",
            self.graph.vertex_count(),
            self.graph.edge_count()
        )
    }
}

/// What one derivation may spend beyond the grammar's limits: work for a
/// search, words for a rule's stored matches, and memory in all. The
/// grammar's limits (`max_iterations`, `max_vertices`) say what a level may
/// be; these say what the machine gives a derivation, so that no grammar
/// can make one hang or run out of memory. [`Budget::default`] is what
/// [`derive()`] and `levelgraph generate` use; none of the examples comes
/// near it.
///
/// When a budget is hit the derivation ends with a [`StopReason`] naming it
/// ([`StopReason::is_budget`]) — except `stored_match_words`, past which a
/// rule's matches are drawn by a randomized search instead of from a
/// store (see the field).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Budget {
    /// The search-tree nodes (host vertices considered as candidates for a
    /// pattern vertex — every vertex of a tag list or incidence list a
    /// search step walks — in the searches of negative application
    /// conditions too) one search
    /// may visit, beyond `search_nodes_per_element` per host vertex and
    /// edge: a search is a rule's first search, the update of every
    /// store after an application, or one randomized draw. Default
    /// 4,000,000. Hit: [`StopReason::SearchBudget`].
    ///
    /// The part that grows with the host lets a level of millions of
    /// vertices be searched in full (a pattern of three vertices on a
    /// path visits about seven nodes per host vertex); the fixed part
    /// bounds the searches that are exponential in the pattern instead
    /// (measured 2026-11-28, `bench/budgets.sh`: a 12-clique pattern on
    /// the complete 11-partite graph of 44 vertices, which has no
    /// 12-clique, is stopped by the default after 1.4 s).
    pub search_nodes: u64,
    /// Nodes a search may visit per host vertex and per host edge, on top
    /// of `search_nodes`. Default 64.
    pub search_nodes_per_element: u64,
    /// The words (vertex and edge ids; a match of a pattern with `v`
    /// vertices and `e` edges takes `v + e`) one rule's match store may
    /// hold, beyond `stored_match_words_per_element` per host vertex and
    /// edge. Default 2²⁰ (1,048,576 words, 4 MiB of ids: filled in about
    /// 20 ms). Past it the store is dropped and the rule's match is drawn
    /// by a randomized search each time it is tried (module
    /// `matching::random`): every match can still be drawn, but no longer
    /// with equal probability. A grid rule's cannot be drawn that way:
    /// [`StopReason::MatchStoreBudget`].
    pub stored_match_words: usize,
    /// Words a store may hold per host vertex and per host edge, on top of
    /// `stored_match_words`. Default 16: a level of a million rooms keeps
    /// every store of a pattern of a few vertices along its corridors,
    /// which has a few matches per room.
    pub stored_match_words_per_element: usize,
    /// The most bytes the host graph, the trace and the match stores may
    /// take, estimated from their sizes with fixed per-element costs (the
    /// same on every platform, so the stop is too). Checked before every
    /// 64th step. Default 2 GiB. Hit: [`StopReason::MemoryBudget`].
    pub memory_bytes: u64,
}

impl Budget {
    /// The default budget.
    pub const DEFAULT: Budget = Budget {
        search_nodes: 4_000_000,
        search_nodes_per_element: 64,
        stored_match_words: 1 << 20,
        stored_match_words_per_element: 16,
        memory_bytes: 2 << 30,
    };

    /// This budget with `search_nodes` set.
    pub fn with_search_nodes(mut self, nodes: u64) -> Self {
        self.search_nodes = nodes;
        self
    }

    /// This budget with `search_nodes_per_element` set.
    pub fn with_search_nodes_per_element(mut self, nodes: u64) -> Self {
        self.search_nodes_per_element = nodes;
        self
    }

    /// This budget with `stored_match_words` set.
    pub fn with_stored_match_words(mut self, words: usize) -> Self {
        self.stored_match_words = words;
        self
    }

    /// This budget with `stored_match_words_per_element` set.
    pub fn with_stored_match_words_per_element(mut self, words: usize) -> Self {
        self.stored_match_words_per_element = words;
        self
    }

    /// This budget with `memory_bytes` set.
    pub fn with_memory_bytes(mut self, bytes: u64) -> Self {
        self.memory_bytes = bytes;
        self
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget::DEFAULT
    }
}

/// A derivation that failed within its limits.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DeriveError {
    /// The derivation ended or stalled with fewer than `min_vertices` vertices.
    #[error(
        "derivation failed: {} vertices, fewer than min_vertices {min_vertices}, when it stopped: {} after {} applications ({})",
        derivation.graph.vertex_count(),
        derivation.stop,
        derivation.trace.len(),
        derivation.summary()
    )]
    TooFewVertices {
        /// The limit.
        min_vertices: u32,
        /// What was derived before it stopped.
        derivation: Box<Derivation>,
    },
    /// A recipe stage stopped before making its minimum number of steps.
    #[error(
        "derivation failed: recipe {stage} (rules {}) made {steps} of its minimum {min} steps: {} ({})",
        rules.join(" | "),
        derivation.stop,
        derivation.summary()
    )]
    StageFailed {
        /// The stage's label (`name` or `stage N`).
        stage: String,
        /// The stage's rules.
        rules: Vec<String>,
        /// Steps it made.
        steps: u32,
        /// Steps it had to make.
        min: u32,
        /// What was derived before it stopped; `stop` says why the stage stopped.
        derivation: Box<Derivation>,
    },
    /// Geometric derivation: the drawing of every attempt failed the
    /// self-intersection test.
    #[error(
        "geometric derivation failed: the drawings of all {attempts} attempts (seed {seed} and {} retries) have crossing corridors or overlapping rooms; the last has {crossings} crossings and {overlaps} overlaps ({})",
        attempts - 1,
        derivation.summary()
    )]
    Drawing {
        /// The seed asked for.
        seed: u64,
        /// Attempts made (1 + retries).
        attempts: u32,
        /// Pairs of crossing corridors in the last attempt's drawing.
        crossings: usize,
        /// Pairs of overlapping rooms in the last attempt's drawing.
        overlaps: usize,
        /// The last attempt.
        derivation: Box<Derivation>,
    },
}

impl DeriveError {
    /// What was derived before the derivation failed.
    pub fn derivation(&self) -> &Derivation {
        match self {
            DeriveError::TooFewVertices { derivation, .. }
            | DeriveError::StageFailed { derivation, .. }
            | DeriveError::Drawing { derivation, .. } => derivation,
        }
    }

    /// [`DeriveError::derivation`], by value.
    pub fn into_derivation(self) -> Derivation {
        match self {
            DeriveError::TooFewVertices { derivation, .. }
            | DeriveError::StageFailed { derivation, .. }
            | DeriveError::Drawing { derivation, .. } => *derivation,
        }
    }
}

/// Derives a mission graph with `seed`, from one vertex with the start
/// symbol, or in grid mode from the grammar's grid. This is the
/// rewriting alone: a grammar whose header says `geometric` is drawn by
/// [`crate::geometric::derive`], and [`crate::derive()`] (the crate's
/// `levelgraph::derive`) chooses between the two by the header.
///
/// # Errors
/// [`DeriveError::TooFewVertices`] when it ends below `min_vertices`;
/// [`DeriveError::StageFailed`] when a recipe stage cannot make its minimum.
pub fn derive(grammar: &CompiledGrammar, seed: u64) -> Result<Derivation, DeriveError> {
    plain(grammar, start_host(grammar), seed, &Budget::DEFAULT)
}

/// [`derive()`] within `budget` instead of [`Budget::DEFAULT`].
///
/// # Errors
/// As [`derive()`].
pub fn derive_within(
    grammar: &CompiledGrammar,
    seed: u64,
    budget: &Budget,
) -> Result<Derivation, DeriveError> {
    plain(grammar, start_host(grammar), seed, budget)
}

fn plain(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
    budget: &Budget,
) -> Result<Derivation, DeriveError> {
    run_derivation(grammar, host, seed, budget, false, None, None).0
}

/// The derivation of `grammar` with `seed` from the start symbol (or the
/// grid) — [`derive()`]'s — as it was after its first `applications`
/// applications: the graph the step-by-step view of a derivation shows.
///
/// The trace alone cannot be re-applied exactly: it records each
/// application's matched vertices but not its matched edges (parallel
/// edges of fitting kinds make those ambiguous) nor a grid rule's frame.
/// So this runs the derivation again, with the same seed and budget, and
/// stops it before application `applications + 1`: everything up to
/// there is the same run, so the graph and trace are exactly the first
/// `applications` of the full derivation's (a test holds every example
/// grammar to it over many seeds). The stop is
/// [`StopReason::Replayed`] when it cut the derivation short, else the
/// derivation's own. A derivation that fails (too few vertices, a recipe
/// stage) is returned all the same: the step view shows it. The rewriting
/// alone: a geometric derivation, which draws while it rewrites and whose
/// choices depend on the drawing, is replayed by
/// [`crate::geometric::replay`].
pub fn replay(grammar: &CompiledGrammar, seed: u64, applications: usize) -> Derivation {
    replay_from(grammar, start_host(grammar), seed, applications)
}

/// [`replay`] of the derivation [`derive_from`] makes from `host`.
pub fn replay_from(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
    applications: usize,
) -> Derivation {
    replay_with_hook(grammar, host, seed, None, applications)
}

/// [`replay_from`], of a derivation that keeps a drawing beside it when
/// `hook` is given ([`derive_with_hook`]'s: the geometric derivation's
/// replay).
pub(crate) fn replay_with_hook(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
    hook: Option<&mut dyn StepHook>,
    applications: usize,
) -> Derivation {
    let budget = &Budget::DEFAULT;
    let (result, _) = run_derivation(grammar, host, seed, budget, false, hook, Some(applications));
    result.unwrap_or_else(DeriveError::into_derivation)
}

/// The host a derivation starts from: one start-symbol vertex, or in grid
/// mode the grammar's grid; in the grammar's tag and label tables.
pub(crate) fn start_host(grammar: &CompiledGrammar) -> Graph {
    let mut host = Graph::with_symbols(grammar.tags().clone(), grammar.labels().clone());
    // Room for a small level at once: growing every vector step by step
    // costs small derivations more than the rewriting.
    let room = (grammar.limits().max_vertices as usize).min(RESERVED_VERTICES);
    host.reserve(room, 2 * room);
    match grammar.grid() {
        Some((rows, columns, tag)) => host.add_grid(rows, columns, tag),
        None => {
            host.add_vertex(grammar.start());
        }
    }
    host
}

/// Derives from a given host graph. The host's tag and label tables must
/// be the grammar's or extend them (`Graph::with_symbols`). The rewriting
/// alone, as [`derive()`]: [`crate::derive_from`] draws a `geometric`
/// grammar.
///
/// # Errors
/// As [`derive()`].
pub fn derive_from(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
) -> Result<Derivation, DeriveError> {
    plain(grammar, host, seed, &Budget::DEFAULT)
}

/// What a derivation asks of a drawing kept beside it while it rewrites
/// (the geometric derivation, [`crate::geometric`], implements it): the
/// derivation owns the questions, the drawing answers them.
pub(crate) trait StepHook {
    /// Whether rule `rule` may not be applied at `m` because the match is
    /// a mirror image of the rule's drawing.
    fn is_flipped(&self, rule: usize, host: &Graph, m: &Match) -> bool;
    /// Whether alternative `alt` of rule `rule` has a plane placement at
    /// `m`.
    fn has_placement(&self, rule: usize, alt: usize, host: &Graph, m: &Match) -> bool;
    /// Called right before alternative `alt` of rule `rule` is applied at
    /// `m`.
    fn before_apply(&mut self, rule: usize, alt: usize, m: &Match, host: &Graph);
    /// Called right after the application at `m` made `created`.
    fn after_apply(&mut self, m: &Match, created: &[VertexId], host: &mut Graph);
}

/// [`derive_from`] keeping a drawing: the geometric derivation's loop.
pub(crate) fn derive_with_hook(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
    hook: &mut dyn StepHook,
) -> Result<Derivation, DeriveError> {
    run_derivation(
        grammar,
        host,
        seed,
        &Budget::DEFAULT,
        false,
        Some(hook),
        None,
    )
    .0
}

/// What a derivation has used so far, as step 1 of a step reads it
/// (section 9 of the grammar language reference).
pub(crate) struct Uses<'a> {
    /// Applications per rule.
    pub(crate) rules: &'a [u32],
    /// Applications per rule group, and each group's `max_uses`.
    pub(crate) groups: &'a [u32],
    pub(crate) group_limits: &'a [u32],
    /// The rule of the last application.
    pub(crate) last_applied: Option<usize>,
}

/// Whether rule `r` is a candidate of the next step (step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Candidacy {
    /// Out of uses (`max_uses`, its group's), or `no_repeat` after itself.
    OutOfUses,
    /// Its smallest right-hand side would pass `max_vertices`.
    HeldBack,
    /// Neither: it may be drawn if it has an allowed match.
    Candidate,
}

/// Step 1 for rule `r` of `rules` on `host`.
pub(crate) fn candidacy(
    rules: &[CompiledRule],
    r: usize,
    uses: &Uses<'_>,
    host: &Graph,
    limits: &Limits,
) -> Candidacy {
    let rule = &rules[r];
    let out_of_uses = rule.max_uses.is_some_and(|n| uses.rules[r] >= n)
        || rule
            .group
            .is_some_and(|g| uses.groups[g] >= uses.group_limits[g])
        || (rule.no_repeat && uses.last_applied == Some(r));
    if out_of_uses {
        Candidacy::OutOfUses
    } else if host.vertex_count() as i64 + rule.min_vertex_delta > i64::from(limits.max_vertices) {
        Candidacy::HeldBack
    } else {
        Candidacy::Candidate
    }
}

/// Why the grammar's limits forbid applying `alt` at `m` on `host`
/// (`BLOCKED_BY_*` bits), or `0` when they allow it: the vertex count
/// (`max_vertices`), free grid cells for new vertices, containment
/// without cycles, and `max_valence`. Section 9 of the grammar language
/// reference, step 4.
pub(crate) fn limits_block(
    host: &Graph,
    limits: &Limits,
    alt: &CompiledAlternative,
    m: &Match,
) -> u8 {
    let room = i64::from(limits.max_vertices) - host.vertex_count() as i64;
    if alt.vertex_delta > room {
        return BLOCKED_BY_VERTICES;
    }
    if (!alt.fresh_offsets.is_empty() && !rewrite::grid_allows(host, alt, m))
        || (!alt.added_inside.is_empty() && !rewrite::inside_allows(host, alt, m))
    {
        return BLOCKED_BY_PLACEMENT;
    }
    if let Some(max_valence) = limits.max_valence {
        if !rewrite::valence_allows(host, alt, m, max_valence as usize) {
            return BLOCKED_BY_VALENCE;
        }
    }
    0
}

/// Runs a derivation; with `verify`, compares every built match store with
/// a full search after each step and reports the first difference (also
/// when the derivation fails); with `stop_after`, stops once it has made
/// that many applications ([`replay`]).
fn run_derivation(
    grammar: &CompiledGrammar,
    host: Graph,
    seed: u64,
    budget: &Budget,
    verify: bool,
    geometry: Option<&mut dyn StepHook>,
    stop_after: Option<usize>,
) -> (Result<Derivation, DeriveError>, Option<String>) {
    let limits = *grammar.limits();
    let rules = grammar.rules();
    let mut run = Run {
        rules,
        geometry,
        group_limits: grammar.group_limits(),
        limits,
        host,
        rng: Rng::seeded(seed),
        uses: vec![0; rules.len()],
        group_uses: vec![0; grammar.group_limits().len()],
        last_applied: None,
        trace: {
            let mut trace = Trace::new(rules.iter().map(|r| r.name.clone()).collect());
            trace.reserve(expected_applications(grammar));
            trace
        },
        expected_applications: expected_applications(grammar),
        steps: 0,
        skipped: 0,
        stores: incremental::stores_for(rules.iter().map(|r| &r.pattern)),
        budget: *budget,
        sampled: vec![false; rules.len()],
        budget_stop: None,
        retired: vec![false; rules.len()],
        changes: Changes::default(),
        verify,
        mismatch: None,
        eligible: Vec::with_capacity(rules.len()),
        held_back: Vec::new(),
        drawn: Match::default(),
        alternatives: Vec::new(),
        reserved_large: false,
        stop_after,
    };
    let mut failed_stage = None;
    let stop = match grammar.recipe() {
        None => {
            let pool: Vec<(usize, f64)> = rules
                .iter()
                .enumerate()
                .map(|(r, rule)| (r, rule.weight))
                .collect();
            loop {
                if run.steps >= limits.max_iterations {
                    break StopReason::IterationLimit(limits.max_iterations);
                }
                if let Some(stop) = run.step(&pool) {
                    break stop;
                }
            }
        }
        Some(stages) => 'recipe: {
            for (si, stage) in stages.iter().enumerate() {
                // Rules of no stage from here on never run again.
                for r in 0..rules.len() {
                    if !stages[si..]
                        .iter()
                        .any(|s| s.rules.iter().any(|&(x, _)| x == r))
                    {
                        run.retire(r);
                    }
                }
                let target = match stage.max {
                    Some(max) if max > stage.min => {
                        // In 64 bits: `0..4294967295` holds 2^32 counts.
                        let counts = u64::from(max - stage.min) + 1;
                        let counts = usize::try_from(counts).unwrap_or(usize::MAX);
                        Some(stage.min + run.rng.below(counts) as u32)
                    }
                    Some(_) => Some(stage.min),
                    None => None,
                };
                let mut done = 0u32;
                let stopped = loop {
                    if target.is_some_and(|t| done >= t) {
                        break None;
                    }
                    if run.steps >= limits.max_iterations {
                        break Some(StopReason::IterationLimit(limits.max_iterations));
                    }
                    match run.step(&stage.rules) {
                        None => done += 1,
                        Some(stop) => break Some(stop),
                    }
                };
                if done < stage.min {
                    failed_stage = Some((stage, done));
                    break 'recipe stopped.unwrap_or(StopReason::RecipeComplete);
                }
                if let Some(stop) = stopped.filter(|s| {
                    matches!(
                        s,
                        StopReason::IterationLimit(_) | StopReason::Replayed { .. }
                    ) || s.is_budget()
                }) {
                    // Stages still to come get no steps: the first of them
                    // with a minimum fails the derivation.
                    if let Some(later) = stages[si + 1..].iter().find(|s| s.min > 0) {
                        failed_stage = Some((later, 0));
                    }
                    break 'recipe stop;
                }
            }
            StopReason::RecipeComplete
        }
    };
    incremental::keep_stores(std::mem::take(&mut run.stores));
    let derivation = Derivation {
        grammar: grammar.name().to_owned(),
        seed,
        graph: run.host,
        trace: run.trace,
        skipped: run.skipped,
        stop,
    };
    let mismatch = run.mismatch;
    if let Some((stage, steps)) = failed_stage {
        let failed = DeriveError::StageFailed {
            stage: stage.label.clone(),
            rules: stage
                .rules
                .iter()
                .map(|&(r, _)| rules[r].name.to_string())
                .collect(),
            steps,
            min: stage.min,
            derivation: Box::new(derivation),
        };
        return (Err(failed), mismatch);
    }
    if derivation.graph.vertex_count() < limits.min_vertices as usize {
        let failed = DeriveError::TooFewVertices {
            min_vertices: limits.min_vertices,
            derivation: Box::new(derivation),
        };
        return (Err(failed), mismatch);
    }
    (Ok(derivation), mismatch)
}

/// Runs the derivation of `grammar` with `seed`, checking after every step
/// that each rule's incremental match store holds exactly the matches a
/// full search finds (as sets). `Ok(())` when they always agree, else the
/// first difference. For tests; slow.
#[doc(hidden)]
pub fn verify_incremental(grammar: &CompiledGrammar, seed: u64) -> Result<(), String> {
    let (_, mismatch) = run_derivation(
        grammar,
        start_host(grammar),
        seed,
        &Budget::DEFAULT,
        true,
        None,
        None,
    );
    mismatch.map_or(Ok(()), Err)
}

/// How many applications a derivation of `grammar` will make, when a
/// recipe of bounded stages says so (at most `max_iterations`), so the
/// trace is allocated once; when unknown, room for a small level. Capped,
/// since it only reserves.
fn expected_applications(grammar: &CompiledGrammar) -> usize {
    const CAP: u64 = 1 << 20;
    let unknown = (grammar.limits().max_iterations as usize).min(RESERVED_VERTICES);
    let Some(stages) = grammar.recipe() else {
        return unknown;
    };
    let bounded: Option<u64> = stages.iter().map(|s| s.max.map(u64::from)).sum();
    bounded.map_or(unknown, |n| {
        n.min(u64::from(grammar.limits().max_iterations)).min(CAP) as usize
    })
}

/// Host size (vertices) from which a derivation counts as large: the
/// host gets room to grow `LARGE_GROWTH` times (at most to `max_vertices`)
/// at once.
const LARGE_FROM: usize = 1024;
/// How many times its size a large level gets room for.
const LARGE_GROWTH: usize = 64;
/// The most vertices (and half the most edges) a large level gets room
/// for at once: a host that starts large (a big grid, a `--host` graph)
/// under a high `max_vertices` would otherwise reserve 64 times its size
/// up front (a 3000 × 3000 grid asked for 50 GB). Beyond it the tables
/// grow by doubling.
const LARGE_ROOM: usize = LARGE_GROWTH * LARGE_FROM;

/// Vertices (and twice as many edges, and as many trace entries) reserved
/// when a derivation starts, at most `max_vertices`.
const RESERVED_VERTICES: usize = 64;

/// Matches drawn and set aside (no alternative allowed) before a draw
/// turns to checking the rest in order (stored matches) or gives up for
/// the step (randomized draws).
const REJECTIONS: usize = 8;

/// Steps between two checks of the memory budget.
const MEMORY_CHECK_STEPS: u32 = 64;

/// Estimated bytes per stored word of a match store: the id itself and its
/// links in the store's index of matches by vertex.
const STORE_BYTES_PER_WORD: u64 = 12;

/// What drawing a match of a rule gave.
enum Drawn {
    /// A match (in `Run::drawn`) and the alternative to apply there.
    Alternative(usize),
    /// Matches, none of which the limits allow (`BLOCKED_BY_*` bits).
    Blocked(u8),
    /// No match.
    NoMatch,
    /// A budget ran out.
    Stop(StopReason),
}

const BLOCKED_BY_VERTICES: u8 = 1;
const BLOCKED_BY_VALENCE: u8 = 2;
const BLOCKED_BY_PLACEMENT: u8 = 4;

/// Host size (vertices) from which match stores are maintained
/// incrementally instead of searched again after each change. Below it a
/// fresh search of the chosen rule is cheaper (BENCHMARKS.md, mutex STS).
pub const INCREMENTAL_FROM: usize = 64;

/// The state of one derivation.
struct Run<'g, 'h> {
    rules: &'g [CompiledRule],
    /// The geometric derivation's drawing, when there is one.
    geometry: Option<&'h mut dyn StepHook>,
    group_limits: &'g [u32],
    limits: Limits,
    host: Graph,
    rng: Rng,
    uses: Vec<u32>,
    group_uses: Vec<u32>,
    last_applied: Option<usize>,
    trace: Trace,
    /// Applications plus skips.
    steps: u32,
    skipped: u32,
    /// Each rule's current matches, kept up to date incrementally.
    stores: Vec<MatchStore>,
    budget: Budget,
    /// Rules whose matches overflowed their store: drawn by randomized
    /// search from then on, their stores dropped.
    sampled: Vec<bool>,
    /// A budget that ran out while the stores were updated, for the next
    /// step to stop with.
    budget_stop: Option<StopReason>,
    /// Rules that can never run again (out of uses, or in no remaining
    /// recipe stage): their stores are dropped and no longer updated.
    retired: Vec<bool>,
    changes: Changes,
    verify: bool,
    mismatch: Option<String>,
    // Scratch buffers reused by every step.
    eligible: Vec<(usize, f64)>,
    held_back: Vec<usize>,
    /// The match drawn for the step, and its allowed alternatives.
    drawn: Match,
    alternatives: Vec<usize>,
    /// Whether the host got its room as a large level.
    reserved_large: bool,
    /// [`expected_applications`] of the grammar.
    expected_applications: usize,
    /// A replay's applications: the run stops once it has made them.
    stop_after: Option<usize>,
}

impl Run<'_, '_> {
    /// One step among `pool` (rule index, weight). `None` when a rule was
    /// applied or skipped; the stop reason when none applies.
    fn step(&mut self, pool: &[(usize, f64)]) -> Option<StopReason> {
        // First, before anything draws from the generator: the replay is
        // the full run up to here.
        if let Some(applications) = self.stop_after.filter(|&k| self.trace.len() >= k) {
            return Some(StopReason::Replayed { applications });
        }
        if let Some(stop) = self.budget_stop.take() {
            return Some(stop);
        }
        // Every `MEMORY_CHECK_STEPS` steps: a step adds at most a
        // right-hand side's worth, so the stop comes that many steps late
        // at most.
        if self.steps % MEMORY_CHECK_STEPS == 0 {
            if let Some(stop) = self.memory_stop() {
                return Some(stop);
            }
        }
        let rules = self.rules;
        self.eligible.clear();
        self.held_back.clear();
        for &(r, w) in pool {
            let uses = Uses {
                rules: &self.uses,
                groups: &self.group_uses,
                group_limits: self.group_limits,
                last_applied: self.last_applied,
            };
            match candidacy(rules, r, &uses, &self.host, &self.limits) {
                Candidacy::OutOfUses => {}
                Candidacy::HeldBack => self.held_back.push(r),
                Candidacy::Candidate => self.eligible.push((r, w)),
            }
        }
        // Highest priority first; the sort is stable, so within a priority
        // the pool's order stays (with one priority there is nothing to sort).
        let first_priority = self.eligible.first().map(|&(r, _)| rules[r].priority);
        if self
            .eligible
            .iter()
            .any(|&(r, _)| Some(rules[r].priority) != first_priority)
        {
            self.eligible
                .sort_by_key(|&(r, _)| std::cmp::Reverse(rules[r].priority));
        }
        let mut blocked_by_max_valence = 0;
        let mut blocked_by_placement = 0;
        let mut blocked_at_apply_by_vertices = 0;
        let mut start = 0;
        while start < self.eligible.len() {
            let priority = rules[self.eligible[start].0].priority;
            let end = start
                + self.eligible[start..]
                    .iter()
                    .take_while(|&&(r, _)| rules[r].priority == priority)
                    .count();
            // The rules of this priority still to try are
            // `eligible[start..left]`; a rule with no usable match is
            // swapped to the end of that range and the range shortened.
            let mut left = end;
            while left > start {
                let level = &self.eligible[start..left];
                let pick = self.rng.weighted_by(level.len(), |i| level[i].1);
                let r = level[pick].0;
                let drawn = if self.sampled[r] {
                    self.draw_sampled(r)
                } else {
                    self.draw_stored(r)
                };
                match drawn {
                    Drawn::Alternative(alt) => {
                        let rule = &rules[r];
                        if rule.probability < 1.0 && self.rng.unit() >= rule.probability {
                            self.steps += 1;
                            self.skipped += 1;
                            return None;
                        }
                        self.apply(r, alt);
                        return None;
                    }
                    Drawn::Stop(stop) => return Some(stop),
                    Drawn::Blocked(reasons) => {
                        if reasons & BLOCKED_BY_VALENCE != 0 {
                            blocked_by_max_valence += 1;
                        } else if reasons & BLOCKED_BY_VERTICES != 0 {
                            blocked_at_apply_by_vertices += 1;
                        } else {
                            blocked_by_placement += 1;
                        }
                    }
                    Drawn::NoMatch => {}
                }
                self.eligible.swap(start + pick, left - 1);
                left -= 1;
            }
            start = end;
        }
        // Counted only here: matching the held-back rules costs a search each.
        let mut blocked_by_max_vertices = blocked_at_apply_by_vertices;
        for i in 0..self.held_back.len() {
            let r = self.held_back[i];
            match self.has_match(r) {
                Ok(any) => blocked_by_max_vertices += u32::from(any),
                Err(stop) => return Some(stop),
            }
        }
        Some(StopReason::NoRuleApplies {
            blocked_by_max_vertices,
            blocked_by_max_valence,
            blocked_by_placement,
        })
    }

    /// Builds rule `r`'s store if needed, within the search budget. On an
    /// overflow the rule turns to randomized draws (`sampled`), or for a
    /// grid rule the derivation stops. `Err`: the stop.
    #[inline]
    fn ensure_store(&mut self, r: usize) -> Result<(), StopReason> {
        let indexed = self.incremental();
        // Built already on almost every call: nothing to budget then.
        if !self.stores[r].needs_build(indexed) {
            return Ok(());
        }
        let nodes = self.search_budget();
        let cap = self.word_cap();
        self.stores[r].set_word_cap(cap);
        let (store, pattern, host) = (&mut self.stores[r], &self.rules[r].pattern, &self.host);
        let ((), out) = budget::within(nodes, || store.ensure(pattern, host, indexed));
        if out {
            return Err(self.search_stop(r));
        }
        match self.stores[r].overflowed() {
            true => self.overflow(r).map_or(Ok(()), Err),
            false => Ok(()),
        }
    }

    /// Rule `r`'s store passed [`Budget::stored_match_words`]: it is
    /// dropped and the rule drawn by randomized search from now on; a
    /// grid rule cannot be, and stops the derivation.
    fn overflow(&mut self, r: usize) -> Option<StopReason> {
        self.stores[r].discard();
        if self.rules[r].pattern.is_grid() {
            return Some(StopReason::MatchStoreBudget {
                rule: self.rules[r].name.clone(),
                words: self.word_cap(),
            });
        }
        self.sampled[r] = true;
        None
    }

    /// The words a store may hold on the host as it is now
    /// ([`Budget::stored_match_words`]).
    fn word_cap(&self) -> usize {
        let elements = self.host.vertex_count() + self.host.edge_count();
        self.budget.stored_match_words.saturating_add(
            self.budget
                .stored_match_words_per_element
                .saturating_mul(elements),
        )
    }

    /// The nodes a search of the host as it is now may visit
    /// ([`Budget::search_nodes`]).
    fn search_budget(&self) -> u64 {
        let elements = (self.host.vertex_count() + self.host.edge_count()) as u64;
        self.budget.search_nodes.saturating_add(
            self.budget
                .search_nodes_per_element
                .saturating_mul(elements),
        )
    }

    /// The stop when a search for rule `r`'s matches used up the budget.
    fn search_stop(&self, r: usize) -> StopReason {
        StopReason::SearchBudget {
            rule: self.rules[r].name.clone(),
            nodes: self.search_budget(),
        }
    }

    /// The memory-budget stop, when the host, trace and stores take more
    /// than the budget (see [`Budget::memory_bytes`]).
    fn memory_stop(&self) -> Option<StopReason> {
        let stores: usize = self.stores.iter().map(MatchStore::words).sum();
        let bytes = self.host.estimated_bytes()
            + self.trace.estimated_bytes()
            + STORE_BYTES_PER_WORD * stores as u64;
        (bytes > self.budget.memory_bytes).then_some(StopReason::MemoryBudget {
            bytes,
            budget: self.budget.memory_bytes,
        })
    }

    /// Whether rule `r` has a match (its store, or a randomized draw).
    fn has_match(&mut self, r: usize) -> Result<bool, StopReason> {
        if !self.sampled[r] {
            self.ensure_store(r)?;
        }
        if !self.sampled[r] {
            return Ok(self.stores[r].len() > 0);
        }
        self.draw_at_random(r)
    }

    /// One randomized draw of a match of rule `r` into `drawn`, within the
    /// search budget: whether there is a match, or the budget's stop.
    fn draw_at_random(&mut self, r: usize) -> Result<bool, StopReason> {
        let nodes = self.search_budget();
        let (pattern, host, rng, drawn) = (
            &self.rules[r].pattern,
            &self.host,
            &mut self.rng,
            &mut self.drawn,
        );
        match budget::within(nodes, || pattern.draw_match(host, rng, drawn)) {
            (_, true) => Err(self.search_stop(r)),
            (found, false) => Ok(found),
        }
    }

    /// A match of rule `r` from its store ([`Run::draw_match`]).
    fn draw_stored(&mut self, r: usize) -> Drawn {
        if let Err(stop) = self.ensure_store(r) {
            return Drawn::Stop(stop);
        }
        if self.sampled[r] {
            // It overflowed just now.
            return self.draw_sampled(r);
        }
        if self.stores[r].len() == 0 {
            return Drawn::NoMatch;
        }
        let drawn = if self.rules[r].count_once {
            self.draw_subgraph(r)
        } else {
            self.draw_match(r)
        };
        match drawn {
            Ok(alt) => Drawn::Alternative(alt),
            Err(reasons) => Drawn::Blocked(reasons),
        }
    }

    /// A match of rule `r` by randomized search (its matches overflowed
    /// its store), and an alternative by weight among those the limits
    /// allow for it. A match no alternative allows is set aside and
    /// another drawn, up to `REJECTIONS` draws; then the rule counts as
    /// blocked this step (there may be an allowed match it did not draw).
    fn draw_sampled(&mut self, r: usize) -> Drawn {
        let mut reasons = 0u8;
        let mut alts = std::mem::take(&mut self.alternatives);
        let mut drawn = Drawn::NoMatch;
        for _ in 0..REJECTIONS {
            match self.draw_at_random(r) {
                Err(stop) => {
                    drawn = Drawn::Stop(stop);
                    break;
                }
                // The randomized search is complete: no match at all.
                Ok(false) => break,
                Ok(true) => {}
            }
            match self.allowed_alternatives(r, &self.drawn, &mut alts) {
                0 => {
                    drawn = Drawn::Alternative(self.pick_alternative(r, &alts));
                    break;
                }
                why => {
                    reasons |= why;
                    drawn = Drawn::Blocked(reasons);
                }
            }
        }
        self.alternatives = alts;
        drawn
    }

    /// Draws a match of rule `r` uniformly from its store, and an
    /// alternative by weight among those the limits allow for it. A match
    /// no alternative allows is set aside and another drawn (rejection
    /// sampling, uniform over the allowed matches); after a few rejections
    /// the rest are checked in store order and one allowed match is drawn
    /// among them, so the loop always ends.
    /// `Err` carries why the matches were blocked (`BLOCKED_BY_*` bits).
    fn draw_match(&mut self, r: usize) -> Result<usize, u8> {
        let n = self.stores[r].len();
        if n == 0 {
            return Err(0);
        }
        let mut rejected = [0usize; REJECTIONS];
        let mut rejections = 0;
        let mut reasons = 0u8;
        let mut alts = std::mem::take(&mut self.alternatives);
        let mut found = None;
        while rejections < REJECTIONS.min(n) {
            let i = self.rng.below(n);
            if rejected[..rejections].contains(&i) {
                continue;
            }
            self.stores[r].get_into(i, &mut self.drawn);
            match self.allowed_alternatives(r, &self.drawn, &mut alts) {
                0 => {
                    found = Some(self.pick_alternative(r, &alts));
                    break;
                }
                why => {
                    reasons |= why;
                    rejected[rejections] = i;
                    rejections += 1;
                }
            }
        }
        if found.is_none() {
            // Past the rejections: every other match, in store order.
            let rest = (0..n).filter(|i| !rejected[..rejections].contains(i));
            found = self.draw_allowed(r, rest, &mut alts, &mut reasons);
        }
        self.alternatives = alts;
        found.ok_or(reasons)
    }

    /// Draws uniformly among the matches `indices` of rule `r`'s store
    /// that some alternative allows, then an alternative by weight; `None`
    /// when none is allowed (why is or-ed into `reasons`). The drawn match
    /// is left in `self.drawn`.
    fn draw_allowed(
        &mut self,
        r: usize,
        indices: impl Iterator<Item = usize>,
        alts: &mut Vec<usize>,
        reasons: &mut u8,
    ) -> Option<usize> {
        let mut allowed: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in indices {
            self.stores[r].get_into(i, &mut self.drawn);
            match self.allowed_alternatives(r, &self.drawn, alts) {
                0 => allowed.push((i, alts.clone())),
                why => *reasons |= why,
            }
        }
        if allowed.is_empty() {
            return None;
        }
        let (i, a) = &allowed[self.rng.below(allowed.len())];
        self.stores[r].get_into(*i, &mut self.drawn);
        Some(self.pick_alternative(r, a))
    }

    /// For a `count_once` rule: draws a host subgraph (the set of host
    /// vertices and edges a match covers) uniformly among those with a
    /// match some alternative allows, then one of its allowed matches
    /// uniformly, and an alternative by weight. A symmetric pattern's
    /// matches come in groups, one match per symmetry the subgraph
    /// satisfies, so a plain uniform draw over matches favours subgraphs
    /// with more of them. One pass over the store per step; `Err` as for
    /// [`Run::draw_match`].
    fn draw_subgraph(&mut self, r: usize) -> Result<usize, u8> {
        let store = &self.stores[r];
        let mut by_image: std::collections::BTreeMap<(Vec<VertexId>, Vec<EdgeId>), Vec<usize>> =
            std::collections::BTreeMap::new();
        for i in 0..store.len() {
            let mut vertices = store.vertices_of(i).to_vec();
            let mut edges = store.edges_of(i).to_vec();
            vertices.sort_unstable();
            edges.sort_unstable();
            by_image.entry((vertices, edges)).or_default().push(i);
        }
        // Ordered by image, so the draws below depend only on the host.
        let mut subgraphs: Vec<Vec<usize>> = by_image.into_values().collect();
        let mut reasons = 0u8;
        let mut alts = std::mem::take(&mut self.alternatives);
        let mut found = None;
        while found.is_none() && !subgraphs.is_empty() {
            let members = subgraphs.swap_remove(self.rng.below(subgraphs.len()));
            found = self.draw_allowed(r, members.into_iter(), &mut alts, &mut reasons);
        }
        self.alternatives = alts;
        found.ok_or(reasons)
    }

    /// The alternatives of rule `r` that the limits allow at `m`, written
    /// to `allowed`; `0` when there is one, else why none is
    /// (`BLOCKED_BY_*` bits).
    #[inline(always)]
    fn allowed_alternatives(&self, r: usize, m: &Match, allowed: &mut Vec<usize>) -> u8 {
        let rule = &self.rules[r];
        if self
            .geometry
            .as_ref()
            .is_some_and(|g| g.is_flipped(r, &self.host, m))
        {
            return BLOCKED_BY_PLACEMENT;
        }
        let blocked = |a: usize, alt: &CompiledAlternative| -> u8 {
            let why = limits_block(&self.host, &self.limits, alt, m);
            if why != 0 {
                return why;
            }
            if self
                .geometry
                .as_ref()
                .is_some_and(|g| !g.has_placement(r, a, &self.host, m))
            {
                return BLOCKED_BY_PLACEMENT;
            }
            0
        };
        let mut reasons = 0;
        allowed.clear();
        for (a, alt) in rule.alternatives.iter().enumerate() {
            match blocked(a, alt) {
                0 => allowed.push(a),
                why => reasons |= why,
            }
        }
        if allowed.is_empty() {
            reasons
        } else {
            0
        }
    }

    /// One of `allowed` alternatives of rule `r`, by weight (no draw when
    /// there is one).
    #[inline(always)]
    fn pick_alternative(&mut self, r: usize, allowed: &[usize]) -> usize {
        if allowed.len() == 1 {
            return allowed[0];
        }
        let weights: Vec<f64> = allowed
            .iter()
            .map(|&a| self.rules[r].alternatives[a].weight)
            .collect();
        allowed[self.rng.weighted(&weights)]
    }

    /// Edges to make room for when the level turns large and gets room
    /// for `vertices` more vertices: twice as many, or, when a recipe says
    /// how many applications are still to come, what they can add at most
    /// (edge ids are never reused, so the edge table grows with the
    /// applications, not with the level), at most `LARGE_GROWTH` times the
    /// table so far. Only reserves: a wrong guess costs a copy, not a
    /// result.
    fn edge_room(&self, vertices: usize) -> usize {
        let most_added = self
            .rules
            .iter()
            .flat_map(|r| &r.alternatives)
            .map(|a| a.added_edges.len())
            .max()
            .unwrap_or(0);
        let still_to_come = self
            .expected_applications
            .saturating_sub(self.steps as usize);
        let by_rules = (still_to_come * most_added).min(LARGE_GROWTH * self.host.edge_bound());
        by_rules.max(2 * vertices).min(2 * LARGE_ROOM)
    }

    /// Marks rule `r` as never running again and drops its store.
    fn retire(&mut self, r: usize) {
        if !self.retired[r] {
            self.retired[r] = true;
            self.stores[r].discard();
        }
    }

    /// Whether stores are maintained incrementally now: on large hosts, and
    /// always when verifying.
    fn incremental(&self) -> bool {
        self.verify || self.host.vertex_count() >= INCREMENTAL_FROM
    }

    /// The first store that differs from a full search, described.
    fn check_stores(&mut self) -> Option<String> {
        let key = |m: &Match| {
            (
                m.vertices.clone(),
                m.edges.clone(),
                m.frame.map(|f| (f.origin, f.transform)),
            )
        };
        for (r, rule) in self.rules.iter().enumerate() {
            if self.sampled[r] {
                continue;
            }
            // Build every store, so unbuilt ones are checked from now on too.
            self.stores[r].ensure(&rule.pattern, &self.host, true);
            let mut have: Vec<_> = self.stores[r].matches().iter().map(key).collect();
            let mut want: Vec<_> = rule.pattern.find_all(&self.host).iter().map(key).collect();
            have.sort();
            want.sort();
            if have != want {
                return Some(format!(
                    "after step {} ({}): rule `{}` store has {} matches, a full search {}",
                    self.steps,
                    self.trace.last().map_or("", |a| a.rule.as_str()),
                    rule.name,
                    have.len(),
                    want.len()
                ));
            }
        }
        None
    }

    /// Applies alternative `alt` of rule `r` at the drawn match.
    fn apply(&mut self, r: usize, alt: usize) {
        let rule = &self.rules[r];
        let m = &self.drawn;
        if let Some(g) = self.geometry.as_mut() {
            g.before_apply(r, alt, m, &self.host);
        }
        rewrite::apply(
            &mut self.host,
            &rule.alternatives[alt],
            m,
            &mut self.changes,
        );
        if let Some(g) = self.geometry.as_mut() {
            g.after_apply(m, &self.changes.created, &mut self.host);
        }
        if self.host.vertex_count() >= LARGE_FROM && !self.reserved_large {
            // A large level: room for it to grow a long way at once,
            // instead of one copying doubling at a time.
            self.reserved_large = true;
            let room = (self.limits.max_vertices as usize)
                .min(LARGE_GROWTH * self.host.vertex_count())
                .min(LARGE_ROOM);
            let more = room.saturating_sub(self.host.vertex_count());
            self.host.reserve(more, self.edge_room(more));
        }
        if rule.max_uses.is_some_and(|n| self.uses[r] + 1 >= n) {
            // This application spends the last use.
            self.retired[r] = true;
        }
        // One budget for the update of every store after the application;
        // `at` names the rule whose update used it up.
        let mut at = 0;
        let cap = self.word_cap();
        let outer = budget::enter(self.search_budget());
        for (i, ((store, rule), &retired)) in self
            .stores
            .iter_mut()
            .zip(self.rules)
            .zip(&self.retired)
            .enumerate()
        {
            if retired {
                store.discard();
            } else {
                at = i;
                store.set_word_cap(cap);
                store.update(&rule.pattern, &self.host, &self.changes);
            }
        }
        if budget::leave(outer) {
            self.budget_stop = Some(self.search_stop(at));
        }
        for i in 0..self.stores.len() {
            if self.stores[i].overflowed() && self.budget_stop.is_none() {
                self.budget_stop = self.overflow(i);
            }
        }
        self.uses[r] += 1;
        if let Some(g) = rule.group {
            self.group_uses[g] += 1;
        }
        self.last_applied = Some(r);
        self.steps += 1;
        self.trace
            .push(r, alt, &self.drawn.vertices, &self.changes.created);
        if self.verify && self.mismatch.is_none() {
            self.mismatch = self.check_stores();
        }
    }
}
