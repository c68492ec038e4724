//! Sampled derivations: what the lint learns by deriving seeds `1..=N`
//! and looking at the levels. Whether a non-terminal tag can remain,
//! whether levels can be finished, whether every derivation fails — none
//! of these can be decided from the rules alone, so `check` derives up to
//! [`super::TERMINAL_SAMPLES`] seeds (fewer once their work, see
//! [`sample`], reaches the budget) and hands each level to the checks that
//! want it.

use super::Sampling;
use crate::derive::{derive, Derivation, DeriveError};
use crate::geometric;
use crate::grammar::CompiledGrammar;

/// Derives seeds `1..=samples` (fewer once the levels' work reaches
/// `work_budget`; the seed that crosses it is counted) and calls `each`
/// with every seed and its outcome (a failed derivation carries what was
/// derived before it failed); `each` returns the units of work it did
/// itself, which count toward the budget too.
pub(super) fn run(
    grammar: &CompiledGrammar,
    samples: u64,
    work_budget: usize,
    mut each: impl FnMut(u64, &Result<Derivation, DeriveError>) -> usize,
) -> Sampling {
    let mut sampled = 0;
    let mut work = 0usize;
    for seed in 1..=samples {
        if work >= work_budget {
            break;
        }
        let (outcome, cost) = sample(grammar, seed);
        sampled += 1;
        work = work.saturating_add(cost);
        work = work.saturating_add(each(seed, &outcome));
    }
    Sampling {
        sampled,
        wanted: samples,
        work,
        budget: work_budget,
        stopped_by_budget: sampled < samples,
    }
}

/// The outcome of `seed` and its cost in units of work: its vertices
/// plus its derivation steps (as `max_iterations` counts them: a step
/// skipped by a rule's `probability` searched for its match as an applied
/// one did) times [`step_units`], and for a `geometric` grammar also its
/// force work, each of them times the attempts made.
pub(super) fn sample(
    grammar: &CompiledGrammar,
    seed: u64,
) -> (Result<Derivation, DeriveError>, usize) {
    let Some(settings) = &grammar.model().geometry else {
        let outcome = derive(grammar, seed);
        let cost = plain_cost(grammar, outcome.as_ref().unwrap_or_else(|e| e.derivation()));
        return (outcome, cost);
    };
    match geometric::derive(grammar, seed, settings) {
        Ok(g) => {
            let cost = geometric_cost(
                plain_cost(grammar, &g.derivation),
                g.relax.steps,
                g.derivation.graph.vertex_count(),
                g.attempts,
            );
            (Ok(g.derivation), cost)
        }
        // A failed drawing's steps are not reported: those of the plain
        // part only. A rewriting that fails its limits reports no
        // attempts: it counts as one, even after failed drawings.
        Err(e) => {
            let attempts = match &e {
                DeriveError::Drawing { attempts, .. } => *attempts,
                _ => 1,
            };
            let d = e.derivation();
            let cost = geometric_cost(plain_cost(grammar, d), 0, d.graph.vertex_count(), attempts);
            (Err(e), cost)
        }
    }
}

/// A geometric level's cost: `(plain + force_steps × vertices ÷ 3) ×
/// attempts`, saturating. Apart from [`sample`] so that a test can reach
/// attempts above 1, which no example's levels need.
pub(super) fn geometric_cost(
    plain: usize,
    force_steps: u64,
    vertices: usize,
    attempts: u32,
) -> usize {
    let force = usize::try_from(force_steps)
        .unwrap_or(usize::MAX)
        .saturating_mul(vertices)
        / VERTEX_STEPS_PER_UNIT;
    plain
        .saturating_add(force)
        .saturating_mul(usize::try_from(attempts).unwrap_or(usize::MAX))
}

/// A derivation that a budget stopped (`derive::Budget`) counts half the
/// sampling's work: its searches, which the units do not see, ran to a
/// budget, about a second (a 12-clique pattern on a dense level stopped
/// by the search budget at every seed kept `check` busy for minutes).
pub(super) fn plain_cost(grammar: &CompiledGrammar, derivation: &Derivation) -> usize {
    if derivation.stop.is_budget() {
        return super::TERMINAL_SAMPLE_WORK / 2;
    }
    let steps = derivation.trace.len() + derivation.skipped as usize;
    derivation
        .graph
        .vertex_count()
        .saturating_add(steps.saturating_mul(step_units(grammar.rule_count())))
}

/// Units of work of one derivation step of a grammar of `rules` rules: 1
/// up to 15 rules, then one per 8. A step weighs every rule of its pool
/// and updates every rule's store of matches, so its time grows with the
/// rules (measured per vertex-or-step: 0.9 µs with 9 rules, 7.4 µs with
/// 101, 52 µs with 1,001, 275 µs with 8,001); a grammar of 8,001 rules
/// costs about a thousand units a step and is sampled a few seeds, not
/// 200 for minutes.
pub(super) fn step_units(rules: usize) -> usize {
    (rules / 8).max(1)
}

/// Force steps times vertices that cost about as much as one unit of a
/// plain derivation's work.
const VERTEX_STEPS_PER_UNIT: usize = 3;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sampling_says_whether_the_budget_stopped_it() {
        // Every level has 3 vertices from 1 application: 4 units of work.
        let grammar = crate::grammar::load(
            "tags { s room todo }\nrule start { (a:s) => (a:room) -- (b:todo) -- (c:room) }\n",
            "t",
        )
        .unwrap();
        let sampling = |budget| run(&grammar, 200, budget, |_, _| 0);
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
            "the checks of sampled levels derived 4 of 200 seeds: their levels reached the work budget of 13 (vertices and derivation steps, force steps in geometric grammars, and the canonical labelling that counts distinct levels)"
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
        let sampling = run(&grammar, 200, usize::MAX, |_, _| 0);
        assert_eq!(sampling.work, 200 * (2 + 10));
    }

    #[test]
    fn a_geometric_level_costs_its_force_steps_too() {
        let text = include_str!("../../../../examples/quads.lg");
        assert!(text.contains("\n  geometric"), "quads.lg is geometric");
        let grammar = crate::grammar::load(text, "quads").unwrap();
        let settings = grammar.model().geometry.clone().unwrap();
        for seed in 1..=5 {
            let g = geometric::derive(&grammar, seed, &settings).unwrap();
            let (outcome, cost) = sample(&grammar, seed);
            let derivation = outcome.unwrap();
            assert_eq!(
                derivation.graph.vertex_count(),
                g.derivation.graph.vertex_count()
            );
            let plain = plain_cost(&grammar, &derivation);
            let force = g.relax.steps as usize * derivation.graph.vertex_count() / 3;
            assert!(force > 0, "seed {seed}: no force steps");
            assert_eq!(cost, (plain + force) * g.attempts as usize, "seed {seed}");
        }
    }

    #[test]
    fn a_step_costs_more_units_in_a_grammar_of_many_rules() {
        assert_eq!(step_units(1), 1);
        assert_eq!(step_units(15), 1);
        assert_eq!(step_units(16), 2);
        assert_eq!(step_units(8001), 1000);
        // A level of 3 vertices from 1 step, in grammars of 2 and of 40
        // rules (the 38 more never match).
        let mut text = String::from(
            "tags { s room todo }\nrule start { (a:s) => (a:room) -- (b:todo) -- (c:room) }\n",
        );
        let small = crate::grammar::load(&text, "t").unwrap();
        for i in 0..39 {
            text.push_str(&format!(
                "rule r{i} {{ (a:todo) -- (b:todo) => (a) -- (b) }}\n"
            ));
        }
        let large = crate::grammar::load(&text, "t").unwrap();
        assert_eq!(sample(&small, 1).1, 3 + 1);
        assert_eq!(sample(&large, 1).1, 3 + 5);
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
}
