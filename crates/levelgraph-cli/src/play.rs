//! `generate`'s side of playability: the levels that `pipeline::generate`
//! rejected because they cannot be proved completable, and why, told on
//! stderr.

use std::collections::BTreeMap;

use levelgraph::pipeline::Unproved;
use levelgraph::CompiledGrammar;

use crate::output::counted;

/// For the summary line: ` after 2 rejected levels (a key behind its own
/// lock: 2)`, or nothing when none was rejected.
pub(crate) fn rejected_summary(rejected: &[&Unproved]) -> String {
    if rejected.is_empty() {
        return String::new();
    }
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for r in rejected {
        *tally.entry(r.summary()).or_default() += 1;
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
pub(crate) fn note_rejected(rejected: &[&Unproved]) {
    if rejected.is_empty() {
        return;
    }
    eprintln!(
        "note: {} could not be proved completable and {} not handed out:",
        counted(rejected.len() as u64, "level"),
        if rejected.len() == 1 { "was" } else { "were" }
    );
    for r in rejected.iter().take(3) {
        eprintln!("  seed {}: {}", r.seed, r.message());
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
    rejected: &[&Unproved],
) {
    let mut tally: BTreeMap<&str, Vec<&Unproved>> = BTreeMap::new();
    for &r in rejected {
        tally.entry(r.summary()).or_default().push(r);
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
        examples[0].message()
    );
    eprintln!(
        "  hint: {}; `levelgraph check GRAMMAR` reports the share of levels that can be finished; `retries` in the `play` block allows more attempts",
        examples[0].advice()
    );
}
