//! Non-terminal tags that remain in finished levels.
//!
//! When the `tags` block declares any tag `terminal`, every other tag is a
//! non-terminal: something rules are meant to rewrite away. Whether one can
//! remain is undecidable in general, so this looks at sampled levels
//! (`sampling.rs`) and reports each non-terminal tag found in a final
//! graph, with the first seed that shows it, how many seeds did and how
//! many were sampled.

use super::location;
use crate::diagnostic::{Diagnostic, Severity};
use crate::grammar::CompiledGrammar;
use crate::graph::{Graph, Symbol};

/// The non-terminal tags seen in sampled levels.
pub(super) struct Terminals<'g> {
    grammar: &'g CompiledGrammar,
    /// (first seed, seeds) per declared tag.
    seen: Vec<Option<(u64, u64)>>,
}

impl<'g> Terminals<'g> {
    /// The check, when the grammar marks any tag `terminal`.
    pub(super) fn new(grammar: &'g CompiledGrammar) -> Option<Self> {
        let model = grammar.model();
        model.tags.iter().any(|t| t.terminal).then(|| Terminals {
            grammar,
            seen: vec![None; model.tags.len()],
        })
    }

    /// Notes the non-terminal tags of `graph`, the level of `seed` (or
    /// what a failed derivation left).
    pub(super) fn observe(&mut self, seed: u64, graph: &Graph) {
        let model = self.grammar.model();
        // The graph's symbol table, not the declaration order, numbers its
        // tags: map each symbol to its declaration once, not per vertex.
        let declared: Vec<Option<usize>> = (0..graph.tags().len())
            .map(|sym| {
                let name = graph.tags().name(Symbol(sym as u32));
                model.tags.iter().position(|t| t.name == name)
            })
            .collect();
        let mut present = vec![false; model.tags.len()];
        for (_, v) in graph.vertices() {
            if let Some(i) = declared[v.tag.index()] {
                present[i] = true;
            }
        }
        for (i, here) in present.into_iter().enumerate() {
            if here && !model.tags[i].terminal {
                let entry = self.seen[i].get_or_insert((seed, 0));
                entry.1 += 1;
            }
        }
    }

    /// A warning per non-terminal tag seen, of `sampled` seeds.
    pub(super) fn finish(self, sampled: u64, out: &mut Vec<Diagnostic>) {
        let model = self.grammar.model();
        for (i, found) in self.seen.into_iter().enumerate() {
            let Some((first, count)) = found else {
                continue;
            };
            let decl = &model.tags[i];
            out.push(
                Diagnostic::new(
                    Severity::Warning,
                    format!(
                        "non-terminal tag `{}` remains in finished levels ({count} of {sampled} seeds, first seed {first})",
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::{sampling, TERMINAL_SAMPLE_WORK};

    /// Every level of this grammar has 3 vertices, one of them `todo`, from
    /// 1 application: 4 units of work.
    const LEFT_BEHIND: &str = "tags { s room terminal todo }\n\
        rule start { (a:s) => (a:room) -- (b:todo) -- (c:room) }\n";

    fn sampled_message(work_budget: usize) -> String {
        let grammar = crate::grammar::load(LEFT_BEHIND, "t").unwrap();
        let mut check = Terminals::new(&grammar).unwrap();
        let sampling = sampling::run(&grammar, 200, work_budget, |seed, outcome| {
            let d = outcome.as_ref().unwrap_or_else(|e| e.derivation());
            check.observe(seed, &d.graph);
            0
        });
        let mut out = Vec::new();
        check.finish(sampling.sampled, &mut out);
        assert_eq!(out.len(), 1, "{out:?}");
        // Every level is 4 units of work.
        assert_eq!(sampling.work, 4 * sampling.sampled as usize);
        assert_eq!(sampling.wanted, 200);
        out.remove(0).message
    }

    #[test]
    fn no_terminal_tag_no_check() {
        let grammar = crate::grammar::load(&LEFT_BEHIND.replace(" terminal", ""), "t").unwrap();
        assert!(Terminals::new(&grammar).is_none());
    }

    #[test]
    fn sampling_stops_at_the_seed_that_reaches_the_work_budget() {
        // 4 + 4 + 4 < 13 <= 16: the fourth level crosses the budget (with
        // vertices alone it would be the fifth).
        assert!(
            sampled_message(13).ends_with("(4 of 4 seeds, first seed 1)"),
            "{}",
            sampled_message(13)
        );
        assert!(sampled_message(12).ends_with("(3 of 3 seeds, first seed 1)"));
        assert!(sampled_message(usize::MAX).ends_with("(200 of 200 seeds, first seed 1)"));
        // The library's budget leaves small grammars all their seeds.
        assert!(sampled_message(TERMINAL_SAMPLE_WORK).ends_with("(200 of 200 seeds, first seed 1)"));
    }
}
