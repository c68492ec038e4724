//! Non-terminal tags that remain in finished levels.
//!
//! When the `tags` block declares any tag `terminal`, every other tag is a
//! non-terminal: something rules are meant to rewrite away. Whether one can
//! remain is undecidable in general, so this samples: it derives seeds
//! `1..=samples` (fewer once the levels' work, see [`sample`], reaches
//! `work_budget` in all) and reports each non-terminal tag found in a
//! final graph, with the first seed that shows it, how many seeds did and
//! how many were sampled.

use super::{location, Sampling};
use crate::derive::{derive, Derivation, DeriveError};
use crate::diagnostic::{Diagnostic, Severity};
use crate::geometric;
use crate::grammar::CompiledGrammar;
use crate::graph::Symbol;

pub(super) fn check(
    grammar: &CompiledGrammar,
    samples: u64,
    work_budget: usize,
    out: &mut Vec<Diagnostic>,
) -> Option<Sampling> {
    let model = grammar.model();
    if !model.tags.iter().any(|t| t.terminal) {
        return None;
    }
    // (first seed, seeds) per declared tag.
    let mut seen: Vec<Option<(u64, u64)>> = vec![None; model.tags.len()];
    let mut sampled = 0;
    let mut work = 0usize;
    for seed in 1..=samples {
        if work >= work_budget {
            break;
        }
        let (derivation, cost) = sample(grammar, seed);
        let graph = derivation.graph;
        sampled += 1;
        work = work.saturating_add(cost);
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
    Some(Sampling {
        sampled,
        wanted: samples,
        work,
        budget: work_budget,
        stopped_by_budget: sampled < samples,
    })
}

/// The level of `seed` (of a failed derivation, its partial graph) and its
/// cost in units of work: its vertices plus its derivation steps (as
/// `max_iterations` counts them: a step skipped by a rule's `probability`
/// searched for its match as an applied one did), and for a `geometric`
/// grammar also its force work, each of them times the attempts made.
fn sample(grammar: &CompiledGrammar, seed: u64) -> (Derivation, usize) {
    let Some(settings) = &grammar.model().geometry else {
        let derivation = derive(grammar, seed).unwrap_or_else(|e| e.into_derivation());
        let cost = plain_cost(&derivation);
        return (derivation, cost);
    };
    let (derivation, attempts, force_steps) = match geometric::derive(grammar, seed, settings) {
        Ok(g) => (g.derivation, g.attempts, g.relax.steps),
        // A failed drawing's steps are not reported: those of the plain
        // part only. A rewriting that fails its limits reports no
        // attempts: it counts as one, even after failed drawings.
        Err(e) => {
            let attempts = match &e {
                DeriveError::Drawing { attempts, .. } => *attempts,
                _ => 1,
            };
            (e.into_derivation(), attempts, 0)
        }
    };
    let cost = geometric_cost(
        plain_cost(&derivation),
        force_steps,
        derivation.graph.vertex_count(),
        attempts,
    );
    (derivation, cost)
}

/// A geometric level's cost: `(plain + force_steps × vertices ÷ 3) ×
/// attempts`, saturating. Apart from [`sample`] so that a test can reach
/// attempts above 1, which no example's levels need.
fn geometric_cost(plain: usize, force_steps: u64, vertices: usize, attempts: u32) -> usize {
    let force = usize::try_from(force_steps)
        .unwrap_or(usize::MAX)
        .saturating_mul(vertices)
        / VERTEX_STEPS_PER_UNIT;
    plain
        .saturating_add(force)
        .saturating_mul(usize::try_from(attempts).unwrap_or(usize::MAX))
}

fn plain_cost(derivation: &Derivation) -> usize {
    derivation.graph.vertex_count() + derivation.trace.len() + derivation.skipped as usize
}

/// Force steps times vertices that cost about as much as one unit of a
/// plain derivation's work.
const VERTEX_STEPS_PER_UNIT: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every level of this grammar has 3 vertices, one of them `todo`, from
    /// 1 application: 4 units of work.
    const LEFT_BEHIND: &str = "tags { s room terminal todo }\n\
        rule start { (a:s) => (a:room) -- (b:todo) -- (c:room) }\n";

    fn sampled_message(work_budget: usize) -> String {
        let grammar = crate::grammar::load(LEFT_BEHIND, "t").unwrap();
        let mut out = Vec::new();
        let sampling = check(&grammar, 200, work_budget, &mut out).unwrap();
        assert_eq!(out.len(), 1, "{out:?}");
        // Every level is 4 units of work.
        assert_eq!(sampling.work, 4 * sampling.sampled as usize);
        assert_eq!(sampling.wanted, 200);
        out.remove(0).message
    }

    #[test]
    fn the_sampling_says_whether_the_budget_stopped_it() {
        let grammar = crate::grammar::load(LEFT_BEHIND, "t").unwrap();
        let sampling = |budget| check(&grammar, 200, budget, &mut Vec::new()).unwrap();
        assert_eq!(
            sampling(13),
            Sampling {
                sampled: 4,
                wanted: 200,
                work: 16,
                budget: 13,
                stopped_by_budget: true
            }
        );
        assert_eq!(
            sampling(13).budget_note().unwrap(),
            "the non-terminal tag check sampled 4 of 200 seeds: their levels reached its work budget of 13 (vertices and derivation steps, and force steps in geometric grammars)"
        );
        // The 200th seed crossing the budget stops nothing.
        assert!(!sampling(199 * 4 + 1).stopped_by_budget);
        assert_eq!(sampling(199 * 4 + 1).budget_note(), None);
        assert_eq!(sampling(199 * 4 + 1).sampled, 200);
        assert!(!sampling(usize::MAX).stopped_by_budget);
    }

    #[test]
    fn steps_skipped_by_probability_count_as_work() {
        // Every level has 2 vertices and ends at the iteration limit, 10
        // steps: `start`, then `flip` applied or skipped 9 times.
        let grammar = crate::grammar::load(
            "grammar \"g\" {\n start s\n max_iterations 10\n}\n\
             tags { s a terminal b }\n\
             rule start { (x:s) => (x:a) -- (y:b) }\n\
             rule flip probability 0.5 { (x:a) -- (y:b) => (x:b) -- (y:a) }\n",
            "t",
        )
        .unwrap();
        let skipped: u32 = (1..=200)
            .map(|seed| derive(&grammar, seed).unwrap().skipped)
            .sum();
        assert!(skipped > 0);
        let sampling = check(&grammar, 200, usize::MAX, &mut Vec::new()).unwrap();
        assert_eq!(sampling.work, 200 * (2 + 10));
    }

    #[test]
    fn a_geometric_level_costs_its_force_steps_too() {
        let text = include_str!("../../../../../examples/quads.lg");
        assert!(text.contains("\n  geometric"), "quads.lg is geometric");
        let grammar = crate::grammar::load(text, "quads").unwrap();
        let settings = grammar.model().geometry.clone().unwrap();
        for seed in 1..=5 {
            let g = geometric::derive(&grammar, seed, &settings).unwrap();
            let (derivation, cost) = sample(&grammar, seed);
            assert_eq!(
                derivation.graph.vertex_count(),
                g.derivation.graph.vertex_count()
            );
            let plain = plain_cost(&derivation);
            let force = g.relax.steps as usize * derivation.graph.vertex_count() / 3;
            assert!(force > 0, "seed {seed}: no force steps");
            assert_eq!(cost, (plain + force) * g.attempts as usize, "seed {seed}");
        }
    }

    /// Every quads level above passes its first drawing, so the attempts
    /// factor is tested here.
    #[test]
    fn a_geometric_level_costs_every_attempt_and_saturates() {
        assert_eq!(geometric_cost(10, 0, 7, 1), 10);
        assert_eq!(geometric_cost(10, 6, 7, 1), 10 + 6 * 7 / 3);
        assert_eq!(geometric_cost(10, 6, 7, 3), 3 * (10 + 6 * 7 / 3));
        assert_eq!(geometric_cost(10, 6, 7, 0), 0);
        assert_eq!(geometric_cost(10, u64::MAX, 7, 1), usize::MAX / 3 + 10);
        assert_eq!(geometric_cost(10, u64::MAX, 7, 4), usize::MAX);
        assert_eq!(geometric_cost(usize::MAX, 1, 1, 2), usize::MAX);
    }

    #[test]
    fn no_terminal_tag_no_sampling() {
        let grammar = crate::grammar::load(&LEFT_BEHIND.replace(" terminal", ""), "t").unwrap();
        let mut out = Vec::new();
        assert_eq!(check(&grammar, 200, usize::MAX, &mut out), None);
        assert_eq!(out, []);
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
        assert!(sampled_message(crate::grammar::lint::TERMINAL_SAMPLE_WORK)
            .ends_with("(200 of 200 seeds, first seed 1)"));
    }
}
