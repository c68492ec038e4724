//! Non-terminal tags that remain in finished levels.
//!
//! When the `tags` block declares any tag `terminal`, every other tag is a
//! non-terminal: something rules are meant to rewrite away. Whether one can
//! remain is undecidable in general, so this samples: it derives seeds
//! `1..=samples` and reports each non-terminal tag found in a final graph,
//! with the first seed that shows it and how many seeds did.

use super::location;
use crate::derive::derive;
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::CompiledGrammar;

pub(super) fn check(grammar: &CompiledGrammar, samples: u64, out: &mut Vec<Diagnostic>) {
    let model = grammar.model();
    if !model.tags.iter().any(|t| t.terminal) {
        return;
    }
    // (first seed, seeds) per declared tag.
    let mut seen: Vec<Option<(u64, u64)>> = vec![None; model.tags.len()];
    for seed in 1..=samples {
        let graph = match derive(grammar, seed) {
            Ok(d) => d.graph,
            Err(e) => e.into_derivation().graph,
        };
        let mut present = vec![false; model.tags.len()];
        for (_, v) in graph.vertices() {
            if let Some(i) = model
                .tags
                .iter()
                .position(|t| t.name == graph.tags().name(v.tag))
            {
                present[i] = true;
            }
        }
        for (i, here) in present.into_iter().enumerate() {
            if here && !model.tags[i].terminal {
                let entry = seen[i].get_or_insert((seed, 0));
                entry.1 += 1;
            }
        }
    }
    for (i, found) in seen.into_iter().enumerate() {
        let Some((first, count)) = found else {
            continue;
        };
        let decl = &model.tags[i];
        out.push(
            Diagnostic::new(
                Severity::Warning,
                format!(
                    "non-terminal tag `{}` remains in finished levels ({count} of {samples} seeds, first seed {first})",
                    decl.name
                ),
                location(decl.span, format!("tags[{i}]")),
            )
            .with_hint(format!(
                                "run `levelgraph generate GRAMMAR --seed {first}` to see one; add a rule that rewrites `{}`, or mark it `terminal`",
                decl.name
            )),
        );
    }
}
