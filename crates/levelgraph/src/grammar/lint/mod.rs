//! Grammar lint: what `levelgraph check` reports.
//!
//! - `limits`: seed 000's rule limits and the start-symbol rules;
//! - `reach`: tags never produced, rules that can never match, recipe
//!   stages that can never run, rules no recipe stage runs;
//! - `duplicates`: rules that are the same up to renaming their vertices;
//! - `colours`: a tag's colour typed with the wrong number of hex digits,
//!   which the `#` rule reads as a comment;
//! - `terminals`: non-terminal tags that remain in finished levels, found
//!   by sampling derivations;
//! - `rooms`: tags that can be in a finished level but have no room
//!   templates in the `rooms` block.
//!
//! Errors mean the grammar would break the engine's invariants; warnings
//! point at dead or suspicious parts. Each finding names the rule (and its
//! line, for text grammars).

mod colours;
mod duplicates;
mod limits;
mod reach;
mod rooms;
mod terminals;

use super::CompiledGrammar;
use crate::diagnostic::{Diagnostic, Location, Span};

/// Seeds sampled by the terminal-tag check (`1..=TERMINAL_SAMPLES`), unless
/// [`TERMINAL_SAMPLE_WORK`] stops it sooner.
pub const TERMINAL_SAMPLES: u64 = 200;

/// The terminal-tag check stops sampling once its levels' vertices and
/// derivation steps (rule applications and steps skipped by a rule's
/// `probability`), summed over the seeds so far, reach this (the seed that
/// crosses it is counted). A derivation's time grows with both: 200 levels
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
    /// How the terminal-tag check sampled; `None` when the grammar marks no
    /// tag `terminal`, so that check did not run.
    pub sampling: Option<Sampling>,
}

/// How many seeds the terminal-tag check derived, and why it stopped.
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
                "the non-terminal tag check sampled {} of {} seeds: their levels reached its work budget of {} (vertices and derivation steps, and force steps in geometric grammars)",
                self.sampled, self.wanted, self.budget
            )
        })
    }
}

/// All findings for `grammar` (as [`lint`]) and how the terminal-tag
/// sampling went.
pub fn lint_report(grammar: &CompiledGrammar) -> LintReport {
    let model = grammar.model();
    let mut out = Vec::new();
    limits::check(model, &mut out);
    reach::check(model, &mut out);
    duplicates::check(model, &mut out);
    colours::check(model, &mut out);
    let sampling = terminals::check(grammar, TERMINAL_SAMPLES, TERMINAL_SAMPLE_WORK, &mut out);
    rooms::check(model, &mut out);
    out.sort_by_key(|d| std::cmp::Reverse(d.severity));
    LintReport {
        findings: out,
        sampling,
    }
}

/// Only the errors: the cheap checks that can find them (limits, start
/// rules, recipes), without sampling derivations. `generate` uses this to
/// refuse unusable grammars quickly.
pub fn errors(grammar: &CompiledGrammar) -> Vec<Diagnostic> {
    let model = grammar.model();
    let mut out = Vec::new();
    limits::check(model, &mut out);
    reach::check(model, &mut out);
    out.retain(|d| d.severity == crate::diagnostic::Severity::Error);
    out
}

/// A span when the grammar came from text, else a JSON field path.
fn location(span: Option<Span>, path: String) -> Location {
    match span {
        Some(s) => Location::Span(s),
        None => Location::Field(path),
    }
}
