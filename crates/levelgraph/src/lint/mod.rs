//! Grammar lint: what `levelgraph check` reports.
//!
//! - `limits`: the rule limits and the start-symbol rules;
//! - `reach`: tags never produced, rules that can never match, recipe
//!   stages that can never run, rules no recipe stage runs;
//! - `duplicates`: rules that are the same up to renaming their vertices;
//! - `symmetry`: rules whose patterns have automorphisms, and a warning
//!   when some renamings are symmetries on some hosts only;
//! - `explosive`: patterns whose matches or search can explode on a large
//!   level (several unconnected parts, a large clique);
//! - `colours`: a tag's colour typed with the wrong number of hex digits,
//!   which the `#` rule reads as a comment;
//! - by deriving sampled seeds (`sampling`): `terminals`, non-terminal
//!   tags that remain in finished levels; `playability`, levels that
//!   cannot be finished (with a `play` block) and tags that look like keys
//!   and locks without one; `failures`, grammars whose every derivation
//!   fails;
//! - `rooms`: tags that can be in a finished level but have no room
//!   templates in the `rooms` block.
//!
//! Errors mean the grammar would break the engine's invariants; warnings
//! point at dead or suspicious parts. Each finding names the rule (and its
//! line, for text grammars).

mod colours;
mod drawable;
mod duplicates;
mod explosive;
mod failures;
mod limits;
mod placement;
mod playability;
mod reach;
mod rooms;
mod sampling;
mod symmetry;

pub use symmetry::{pattern_graph, rule_symmetry, PatternSymmetry};
mod terminals;

use crate::diagnostic::{Diagnostic, Location, Severity, Span};
use crate::grammar::CompiledGrammar;

/// Seeds the checks of sampled levels derive (`1..=TERMINAL_SAMPLES`):
/// non-terminal tags, playability, derivations that all fail; unless
/// [`TERMINAL_SAMPLE_WORK`] stops them sooner.
pub const TERMINAL_SAMPLES: u64 = 200;

/// The sampling stops once its levels' vertices and derivation steps (rule
/// applications and steps skipped by a rule's `probability`; from 16 rules
/// on, a step counts one unit per 8 rules), summed over the
/// seeds so far, reach this (the seed that crosses it is counted). A
/// derivation's time grows with both: 200 levels
/// of 100,000 vertices took `check` 14 s in silence, and 200 of 2 vertices
/// retagged 200,000 times 8 s (release build). Now 21 and 20 seeds are
/// sampled, about 1.5 s and 0.8 s, and a grammar of up to 10,000 vertices
/// from 10,000 steps a level keeps all 200. A count, not a clock, so
/// `check` says the same on every machine; [`LintReport::sampling`] tells
/// when it stopped the sampling. A `geometric` grammar's levels count
/// their force steps too (force steps × vertices ÷ 3, so that a unit costs
/// about as much time as in a plain derivation), all times the attempts
/// made (a level whose drawings all fail reports no force steps: only its
/// vertices and steps count): 200 levels of 608 vertices took 24 s, 8 now
/// take 1 s; levels of about 100 vertices keep all 200 seeds.
pub const TERMINAL_SAMPLE_WORK: usize = 4_000_000;

/// All findings for `grammar`, errors first, otherwise in the order above.
/// [`lint_report`] also tells how the terminal-tag sampling went.
pub fn lint(grammar: &CompiledGrammar) -> Vec<Diagnostic> {
    lint_report(grammar).findings
}

/// What [`lint_report`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct LintReport {
    /// All findings, errors first, otherwise in the order of this module's
    /// list.
    pub findings: Vec<Diagnostic>,
    /// How the checks of sampled levels sampled; `None` when nothing was
    /// derived: the grammar has errors, or no check looks at levels (no
    /// terminal tags, no `play` block, and no way for a derivation to fail).
    pub sampling: Option<Sampling>,
    /// How many sampled levels can be finished; `None` without a `play`
    /// block.
    pub playability: Option<Playability>,
    /// The rules whose patterns have more than one automorphism, or
    /// renamings that are symmetries on some hosts only, in rule order
    /// (grammar language reference, section 9.8).
    pub symmetric: Vec<PatternSymmetry>,
    /// How many of the sampled seeds' levels are distinct up to
    /// isomorphism (by canonical form, [`crate::canon`]); `None` when
    /// nothing was sampled.
    pub distinct_levels: Option<u64>,
}

/// The playability of the sampled levels of a grammar with a `play`
/// block ([`crate::play::check`] on each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Playability {
    /// Sampled seeds whose derivation succeeded.
    pub derived: u64,
    /// Of those, the levels proved completable.
    pub completable: u64,
    /// Levels proved impossible to finish.
    pub unfinishable: u64,
    /// Levels the bounded search could not decide within its limit.
    pub unknown: u64,
    /// Levels with a lock that gates nothing.
    pub with_idle_lock: u64,
    /// Levels that can be finished but have rooms no play reaches.
    pub with_unreachable: u64,
}

impl Playability {
    /// "199 derived, 195 can be finished (98 %), 3 cannot, 1 undecided; 45
    /// with a lock that gates nothing, 2 with rooms no play reaches" (the
    /// zero parts left out), for `check`'s report.
    pub fn summary(&self) -> String {
        let share = |n: u64| {
            if self.derived == 0 {
                String::new()
            } else {
                format!(" ({})", playability::percent(n, self.derived))
            }
        };
        let mut s = format!(
            "{} derived, {} can be finished{}",
            self.derived,
            self.completable,
            share(self.completable)
        );
        if self.unfinishable > 0 {
            s.push_str(&format!(", {} cannot", self.unfinishable));
        }
        if self.unknown > 0 {
            s.push_str(&format!(", {} undecided", self.unknown));
        }
        let mut rest = Vec::new();
        if self.with_idle_lock > 0 {
            rest.push(format!(
                "{} with a lock that gates nothing",
                self.with_idle_lock
            ));
        }
        if self.with_unreachable > 0 {
            rest.push(format!(
                "{} with rooms no play reaches",
                self.with_unreachable
            ));
        }
        if !rest.is_empty() {
            s.push_str("; ");
            s.push_str(&rest.join(", "));
        }
        s
    }
}

/// How many seeds the checks of sampled levels derived, and why they
/// stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sampling {
    /// Seeds `1..=sampled` were derived.
    pub sampled: u64,
    /// The seeds it would have derived without the budget
    /// ([`TERMINAL_SAMPLES`]).
    pub wanted: u64,
    /// The sampled levels' units of work, summed: vertices and derivation
    /// steps (rule applications and steps skipped by a rule's
    /// `probability`, as `max_iterations` counts them), and for a
    /// `geometric` grammar force steps × vertices ÷ 3, times the attempts.
    pub work: usize,
    /// The budget of `work` ([`TERMINAL_SAMPLE_WORK`] for [`lint_report`]).
    pub budget: usize,
    /// Whether the budget stopped the sampling before `wanted` seeds.
    pub stopped_by_budget: bool,
}

impl Sampling {
    /// One sentence for the user when the budget stopped the sampling (a
    /// search stopped by a limit names the limit), else `None`.
    pub fn budget_note(&self) -> Option<String> {
        self.stopped_by_budget.then(|| {
            format!(
                "the checks of sampled levels derived {} of {} seeds: their levels reached the work budget of {} (vertices and derivation steps, force steps in geometric grammars, and the canonical labelling that counts distinct levels)",
                self.sampled, self.wanted, self.budget
            )
        })
    }
}

/// All findings for `grammar` (as [`lint`]), how the sampling went and
/// how many sampled levels can be finished.
pub fn lint_report(grammar: &CompiledGrammar) -> LintReport {
    let model = grammar.model();
    let mut out = Vec::new();
    limits::check(model, &mut out);
    reach::check(model, &mut out);
    duplicates::check(model, &mut out);
    let symmetric = symmetry::check(model);
    explosive::check(model, &mut out);
    colours::check(model, &mut out);
    playability::check_declared(grammar, &mut out);
    drawable::check(grammar, &mut out);
    // Deriving a grammar the checks above found broken would only repeat
    // their errors.
    let broken = out.iter().any(|d| d.severity == Severity::Error);
    // Sampled levels matter only to a check that looks at them: terminal
    // tags, a `play` block, or a way a derivation can fail (min_vertices, a
    // recipe stage, a drawing).
    let limits = grammar.limits();
    let worth_sampling = model.tags.iter().any(|t| t.terminal)
        || model.play.is_some()
        || limits.min_vertices > 0
        || model.recipe.is_some()
        || model.geometry.is_some();
    let (mut sampling, mut playability, mut distinct_levels) = (None, None, None);
    if worth_sampling && !broken {
        let mut terminals = terminals::Terminals::new(grammar);
        let mut play = playability::PlayCheck::new(grammar);
        let mut placing = placement::PlaceCheck::new(grammar);
        let mut failures = failures::Failures::new(grammar);
        let mut forms = std::collections::HashSet::new();
        let sampled = sampling::run(
            grammar,
            TERMINAL_SAMPLES,
            TERMINAL_SAMPLE_WORK,
            |seed, outcome| {
                if let Some(t) = &mut terminals {
                    t.observe(
                        seed,
                        &outcome.as_ref().unwrap_or_else(|e| e.derivation()).graph,
                    );
                }
                // With a `place` block the play check sees the level as
                // `generate` hands it out: with its content placed.
                let placed = match (&mut placing, outcome) {
                    (Some(pc), Ok(d)) => pc.observe(seed, d).map(Ok),
                    _ => None,
                };
                if let Some(p) = &mut play {
                    p.observe(seed, placed.as_ref().unwrap_or(outcome));
                }
                failures.observe(seed, outcome);
                // The canonical labelling's work: its search-tree nodes
                // times the graph's size, one unit per 256 of them (about
                // the time of a derivation's unit: 3.7 ms for 1.26 million
                // on a 40-clique with 50 pendant halls, release build).
                let Ok(d) = outcome else { return 0 };
                let (coloured, _) = crate::canon::of_graph(&d.graph);
                let size = coloured.vertex_count() + coloured.arcs().len();
                let limits = crate::canon::SearchLimits::default();
                match crate::canon::canonical(&coloured, &limits) {
                    Ok(c) => {
                        forms.insert(c.form);
                        (c.nodes as usize).saturating_mul(size) / 32
                    }
                    Err(_) => (limits.max_nodes as usize).saturating_mul(size) / 32,
                }
            },
        );
        distinct_levels = Some(forms.len() as u64);
        if let Some(t) = terminals {
            t.finish(sampled.sampled, &mut out);
        }
        playability = play.map(|p| p.finish(&mut out));
        if let Some(pc) = placing {
            pc.finish(&mut out);
        }
        failures.finish(&mut out);
        sampling = Some(sampled);
    }
    rooms::check(model, &mut out);
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    LintReport {
        findings: out,
        sampling,
        playability,
        distinct_levels,
        symmetric,
    }
}

/// The duplicate rules of `model` as `(first, later)` rule indices: by
/// canonical forms, or with `by_search` by the backtracking search the
/// lint used before. For `benches/duplicates.rs` only.
#[doc(hidden)]
pub fn duplicate_pairs(model: &crate::grammar::Grammar, by_search: bool) -> Vec<(usize, usize)> {
    duplicates::duplicate_pairs(model, by_search)
}

/// Only the errors: the cheap checks that can find them (limits, start
/// rules, recipes), without sampling derivations. `generate` uses this to
/// refuse unusable grammars quickly.
pub fn errors(grammar: &CompiledGrammar) -> Vec<Diagnostic> {
    let model = grammar.model();
    let mut out = Vec::new();
    limits::check(model, &mut out);
    reach::check(model, &mut out);
    drawable::check(grammar, &mut out);
    out.retain(|d| d.severity == crate::diagnostic::Severity::Error);
    out
}

/// Whether `rule` is a start rule: its pattern is one vertex with the start
/// symbol `start` alone, and nothing else.
fn is_start_rule(rule: &crate::grammar::Rule, start: &str) -> bool {
    rule.lhs.vertices.len() == 1
        && rule.lhs.edges.is_empty()
        && rule.lhs.vertices[0].tags == [start]
}

/// A span when the grammar came from text, else a JSON field path.
fn location(span: Option<Span>, path: String) -> Location {
    match span {
        Some(s) => Location::Span(s),
        None => Location::Field(path),
    }
}
