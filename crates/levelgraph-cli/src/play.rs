//! `generate`'s side of playability: levels that cannot be proved
//! completable are rejected and the next attempt seed's level is derived;
//! what was rejected, and why, is told on stderr.

use std::collections::BTreeMap;

use levelgraph::play::{maker, PlayReport, Verdict};
use levelgraph::{CompiledGrammar, Derivation};

use crate::output::counted;

/// A level that was not handed out because it cannot be proved
/// completable.
pub(crate) struct Rejected {
    pub(crate) seed: u64,
    /// The reason's few words, for the tally ("a key behind its own lock").
    pub(crate) summary: &'static str,
    /// The verdict in a sentence, with the rule at fault when one is known.
    pub(crate) message: String,
    /// What to do about it.
    pub(crate) advice: &'static str,
}

impl Rejected {
    /// The rejection of `derivation`'s level, whose `report` is not
    /// completable.
    pub(crate) fn new(
        grammar: &CompiledGrammar,
        derivation: &Derivation,
        report: &PlayReport,
    ) -> Self {
        let graph = &derivation.graph;
        let (summary, advice) = match &report.verdict {
            Verdict::Unfinishable(reason) => (reason.summary(), reason.advice()),
            Verdict::Unknown { .. } => (
                "the search reached its limit",
                "raise `search_limit` in the `play` block, or use fewer small keys and one-way corridors",
            ),
            Verdict::Completable => ("completable", ""),
        };
        let mut message = report.verdict.why(graph);
        if let Some(rule) = blamed_rule(grammar, derivation, report) {
            message.push_str(&format!(
                "; rule `{rule}` made {}",
                rule_target(derivation, report)
            ));
        }
        Rejected {
            seed: derivation.seed,
            summary,
            message,
            advice,
        }
    }
}

/// The rule that made the first vertex the reason is about.
fn blamed_rule(
    grammar: &CompiledGrammar,
    derivation: &Derivation,
    report: &PlayReport,
) -> Option<String> {
    let Verdict::Unfinishable(reason) = &report.verdict else {
        return None;
    };
    let v = *reason.culprits().first()?;
    maker(grammar, &derivation.trace, v).map(str::to_owned)
}

fn rule_target(derivation: &Derivation, report: &PlayReport) -> String {
    match &report.verdict {
        Verdict::Unfinishable(reason) => reason
            .culprits()
            .first()
            .map(|&v| levelgraph::play::vertex_name(&derivation.graph, v))
            .unwrap_or_default(),
        _ => String::new(),
    }
}

/// For the summary line: ` after 2 rejected levels (a key behind its own
/// lock: 2)`, or nothing when none was rejected.
pub(crate) fn rejected_summary(rejected: &[Rejected]) -> String {
    if rejected.is_empty() {
        return String::new();
    }
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rejected {
        *tally.entry(r.summary).or_default() += 1;
    }
    let mut tally: Vec<(&str, usize)> = tally.into_iter().collect();
    tally.sort_by_key(|t| std::cmp::Reverse(t.1));
    let why: Vec<String> = tally.iter().map(|(r, n)| format!("{r}: {n}")).collect();
    format!(
        " after {} ({})",
        crate::output::counted_as(rejected.len() as u64, "rejected level", "rejected levels"),
        why.join(", ")
    )
}

/// Notes on stderr which levels were rejected before the one handed out.
pub(crate) fn note_rejected(rejected: &[Rejected]) {
    if rejected.is_empty() {
        return;
    }
    eprintln!(
        "note: {} could not be proved completable and {} not handed out:",
        counted(rejected.len() as u64, "level"),
        if rejected.len() == 1 { "was" } else { "were" }
    );
    for r in rejected.iter().take(3) {
        eprintln!("  seed {}: {}", r.seed, r.message);
    }
    if rejected.len() > 3 {
        eprintln!("  and {} more", rejected.len() - 3);
    }
}

/// The error when every attempt was rejected: how many, the commonest
/// reason with an example, and what to do.
pub(crate) fn report_exhausted(
    grammar: &CompiledGrammar,
    seed: u64,
    attempts: usize,
    rejected: &[Rejected],
) {
    let mut tally: BTreeMap<&str, Vec<&Rejected>> = BTreeMap::new();
    for r in rejected {
        tally.entry(r.summary).or_default().push(r);
    }
    // The commonest; among equals the first in the tally's (name) order.
    let (summary, examples) = tally
        .iter()
        .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))
        .expect("some level was rejected");
    eprintln!(
        "error: no level of grammar `{}` could be proved completable: {} derived (seed {seed} and {}), none passed",
        grammar.name(),
        counted(attempts as u64, "level"),
        crate::output::counted_as(attempts as u64 - 1, "retry", "retries"),
    );
    eprintln!(
        "  commonest reason ({} of {}): {summary}; seed {}: {}",
        examples.len(),
        rejected.len(),
        examples[0].seed,
        examples[0].message
    );
    eprintln!(
        "  hint: {}; `levelgraph check GRAMMAR` reports the share of levels that can be finished; `retries` in the `play` block allows more attempts",
        examples[0].advice
    );
}
