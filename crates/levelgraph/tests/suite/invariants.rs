//! Invariants of derivations over many seeds of every example grammar.
//!
//! Every `*.lg` file in `examples/` is loaded (new examples are covered
//! automatically) and derived with seeds 1..=1000. Whether a derivation
//! succeeds or ends below `min_vertices`, its graph must respect the
//! grammar's limits (vertex count, valence, iterations), the start symbol
//! must be consumed by the first application, its edges must join live
//! vertices, and its mission JSON must round-trip byte for byte. The default
//! grammar must succeed for at least 95% of seeds, and every output (JSON,
//! DOT, SVG) must be the same bytes when a seed is derived twice.

use std::collections::{BTreeMap, BTreeSet};

use levelgraph::derive::{derive, derive_within, Budget, Derivation, StopReason};
use levelgraph::drawing::{force_layout, ForceConfig};
use levelgraph::formats::{to_dot, to_svg, MissionDoc};
use levelgraph::grammar::{self, CompiledGrammar};

use crate::common;

const SEEDS: std::ops::RangeInclusive<u64> = 1..=1000;
const DETERMINISM_SEEDS: std::ops::RangeInclusive<u64> = 1..=50;

/// Every example grammar, sorted by file name: (file stem, grammar).
fn examples() -> Vec<(String, CompiledGrammar)> {
    common::example_sources()
        .into_iter()
        .map(|(stem, text)| {
            let g = grammar::load(&text, &stem)
                .unwrap_or_else(|e| panic!("examples/{stem}.lg does not load: {e}"));
            (stem, g)
        })
        .collect()
}

/// The derivation, whether it succeeded or ended below `min_vertices`.
fn derivation(g: &CompiledGrammar, seed: u64) -> (Derivation, bool) {
    match derive(g, seed) {
        Ok(d) => (d, true),
        Err(e) => (e.into_derivation(), false),
    }
}

/// The largest valence (non-cosmetic edges) any right-hand side gives one
/// of its vertices: applications may exceed `max_valence` up to that.
fn largest_rhs_valence(g: &CompiledGrammar) -> usize {
    let mut largest = 0;
    for rule in &g.model().rules {
        for alt in &rule.rhs {
            let mut valence: BTreeMap<&str, usize> = BTreeMap::new();
            for e in alt.edges.iter().filter(|e| !e.cosmetic) {
                *valence.entry(e.source.as_str()).or_default() += 1;
                *valence.entry(e.target.as_str()).or_default() += 1;
            }
            largest = largest.max(valence.values().copied().max().unwrap_or(0));
        }
    }
    largest
}

/// Names of the rules whose pattern has a vertex that accepts only the start symbol.
fn start_rules(g: &CompiledGrammar) -> BTreeSet<String> {
    let start = &g.model().start;
    g.model()
        .rules
        .iter()
        .filter(|r| {
            r.lhs
                .vertices
                .iter()
                .any(|v| v.tags.len() == 1 && &v.tags[0] == start)
        })
        .map(|r| r.name.clone())
        .collect()
}

fn check_invariants(name: &str, g: &CompiledGrammar, seed: u64, d: &Derivation) {
    let at = format!("{name} seed {seed}");
    let limits = g.limits();
    let graph = &d.graph;

    // Vertex count.
    assert!(
        graph.vertex_count() <= limits.max_vertices as usize,
        "{at}: {} vertices > max_vertices {}",
        graph.vertex_count(),
        limits.max_vertices
    );

    // Valence.
    if let Some(max_valence) = limits.max_valence {
        let bound = (max_valence as usize).max(largest_rhs_valence(g));
        for v in graph.vertex_ids() {
            assert!(
                graph.valence(v) <= bound,
                "{at}: {v} ({}) has valence {} > {bound}",
                graph.tag_name(v),
                graph.valence(v)
            );
        }
    }

    // The start symbol is consumed by the first application, a start rule
    // (grid mode starts from the grid instead, with every vertex in a cell).
    if g.grid().is_none() {
        let first = d
            .trace
            .first()
            .unwrap_or_else(|| panic!("{at}: empty trace"));
        assert!(
            start_rules(g).contains(first.rule.as_str()),
            "{at}: first application is `{}`, not a start rule {:?}",
            first.rule,
            start_rules(g)
        );
        for v in graph.vertex_ids() {
            assert!(
                graph.tag(v) != g.start(),
                "{at}: {v} still carries the start symbol `{}`",
                g.model().start
            );
        }
    } else {
        let (rows, columns, _) = g.grid().unwrap();
        let cells = graph
            .vertex_ids()
            .filter(|&v| graph.vertex(v).unwrap().cell.is_some())
            .count();
        assert!(
            cells >= (rows * columns) as usize - d.trace.len(),
            "{at}: grid cells lost"
        );
    }

    // Iterations and stop reason.
    let max_iterations = limits.max_iterations as usize;
    assert!(
        d.trace.len() <= max_iterations,
        "{at}: {} applications > max_iterations {max_iterations}",
        d.trace.len()
    );
    // Steps are applications plus steps skipped by rule probability.
    let steps = d.trace.len() + d.skipped as usize;
    match &d.stop {
        StopReason::IterationLimit(n) => {
            assert_eq!(*n, limits.max_iterations, "{at}: iteration limit payload");
            assert_eq!(steps, max_iterations, "{at}: stopped early at the limit");
        }
        StopReason::NoRuleApplies { .. } => assert!(
            steps < max_iterations,
            "{at}: reached max_iterations but stop reason is {}",
            d.stop
        ),
        StopReason::RecipeComplete => {
            assert!(
                g.model().recipe.is_some(),
                "{at}: recipe_complete without a recipe"
            );
            assert!(
                steps <= max_iterations,
                "{at}: more steps than max_iterations"
            );
        }
        other => panic!("{at}: a stop reason this test does not know: {other:?}"),
    }

    // Edges join live vertices and are in both incidence lists.
    for (id, e) in graph.edges() {
        for end in [e.source, e.target] {
            assert!(
                graph.contains_vertex(end),
                "{at}: edge {} names dead {end}",
                id.0
            );
            assert!(
                graph.incident_edges(end).any(|e| e == id),
                "{at}: edge {} missing from the incidence of {end}",
                id.0
            );
        }
    }

    // Mission JSON round trip.
    let doc = MissionDoc::from_derivation(d);
    let text = doc.to_json();
    let back = MissionDoc::from_json(&text).unwrap_or_else(|e| panic!("{at}: {e}"));
    assert_eq!(back, doc, "{at}: from_json(to_json(doc)) != doc");
    assert_eq!(back.to_json(), text, "{at}: second serialization differs");
    let graph_back = back.to_graph().unwrap_or_else(|e| panic!("{at}: {e}"));
    let again = MissionDoc::from_graph(&graph_back, &d.grammar, d.seed);
    assert_eq!(again.nodes, doc.nodes, "{at}: nodes after graph round trip");
    assert_eq!(again.edges, doc.edges, "{at}: edges after graph round trip");
}

#[test]
fn every_example_respects_its_limits() {
    for (name, g) in examples() {
        for seed in SEEDS {
            let (d, _) = derivation(&g, seed);
            check_invariants(&name, &g, seed, &d);
        }
    }
}

/// With room for one word of matches per store, every rule with more
/// than one match has its matches drawn by randomized search instead of
/// from its store (`derive::Budget::stored_match_words`): the levels
/// differ, the invariants do not. Grid grammars stop at their first grid
/// rule instead (tests/suite/budgets.rs).
#[test]
fn every_example_respects_its_limits_when_matches_are_drawn_at_random() {
    let budget = Budget::default()
        .with_stored_match_words(1)
        .with_stored_match_words_per_element(0);
    for (name, g) in examples().into_iter().filter(|(_, g)| g.grid().is_none()) {
        let mut differ = 0;
        for seed in 1..=100 {
            let d = match derive_within(&g, seed, &budget) {
                Ok(d) => d,
                Err(e) => e.into_derivation(),
            };
            check_invariants(&name, &g, seed, &d);
            differ += usize::from(d.trace != derivation(&g, seed).0.trace);
        }
        // The draws are not the stores' draws.
        assert!(
            differ > 0,
            "{name}: randomized draws gave the stored draws' levels"
        );
    }
}

#[test]
fn default_grammar_mostly_succeeds() {
    let g = grammar::default_grammar();
    let limits = *g.limits();
    let mut ok = 0;
    let mut histogram: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for seed in SEEDS {
        let result = derive(&g, seed);
        let (count, success) = match &result {
            Ok(d) => {
                let n = d.graph.vertex_count();
                (
                    n,
                    (limits.min_vertices as usize..=limits.max_vertices as usize).contains(&n),
                )
            }
            Err(e) => (e.derivation().graph.vertex_count(), false),
        };
        let slot = histogram.entry(count).or_default();
        if success {
            ok += 1;
            slot.0 += 1;
        } else {
            slot.1 += 1;
        }
    }
    let total = SEEDS.count();
    let table: String = histogram
        .iter()
        .map(|(n, (good, bad))| format!("\n  {n:>4} vertices: {good:>4} ok, {bad:>4} failed"))
        .collect();
    assert!(
        ok * 100 >= total * 95,
        "default grammar: {ok}/{total} seeds succeeded (min_vertices {}, max_vertices {}); vertex counts:{table}",
        limits.min_vertices,
        limits.max_vertices
    );
}

/// JSON, DOT and SVG of one derivation.
fn outputs(g: &CompiledGrammar, seed: u64) -> [String; 3] {
    let (d, _) = derivation(g, seed);
    let alphabet = g.alphabet();
    let title = format!("{} (seed {seed})", d.grammar);
    let json = MissionDoc::from_derivation(&d).to_json();
    let dot = to_dot(&d.graph, &alphabet, &title);
    let positions = force_layout(&d.graph, &ForceConfig::for_picture(seed));
    let svg = to_svg(&d.graph, &positions, &alphabet, &title);
    [json, dot, svg]
}

#[test]
fn same_seed_same_bytes() {
    for (name, g) in examples() {
        let mut distinct = BTreeSet::new();
        for seed in DETERMINISM_SEEDS {
            let first = outputs(&g, seed);
            let second = outputs(&g, seed);
            for (kind, (a, b)) in ["JSON", "DOT", "SVG"].iter().zip(first.iter().zip(&second)) {
                assert!(
                    a == b,
                    "{name} seed {seed}: {kind} differs between two runs"
                );
            }
            // The seed is part of the document; compare the graphs alone.
            let doc = MissionDoc::from_json(&first[0]).unwrap();
            distinct.insert(serde_json::to_string(&(&doc.nodes, &doc.edges)).unwrap());
        }
        assert!(
            distinct.len() >= 2,
            "{name}: seeds {DETERMINISM_SEEDS:?} all derive the same graph"
        );
    }
}
