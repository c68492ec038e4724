//! The budgets of a derivation (`derive::Budget`): patterns with more
//! matches than a store may hold are drawn by randomized search instead of
//! aborting; a search that visits too many nodes, a grid rule with too
//! many matches and a derivation that takes too much memory each end with
//! a stop reason naming the budget; a rule that changes nothing does not
//! grow the trace. Budgets here are small, so that each case runs in
//! milliseconds in a debug build; the defaults behave the same at scale
//! (the adversarial corpus of the CLI runs them there).

use levelgraph::derive::{derive, derive_within, Budget, StopReason};
use levelgraph::grammar::{self, CompiledGrammar};

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "test").unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// A chain of 40 rooms, then a rule whose pattern is six unconnected rooms
/// (legal: a pattern need not be connected). Its matches are the ordered
/// 6-tuples of distinct rooms: 40·39·38·37·36·35 ≈ 2.8·10⁹ at first.
const SIX_ROOMS: &str = "
grammar \"six\" { start s max_iterations 200 max_vertices 100 }
tags { s room mark }
rule start { (a:s) => (a:room) }
rule grow max_uses 39 { (a:room) => (a:room) -- (b:room) }
rule six priority -1 {
  (a:room) (b:room) (c:room) (d:room) (e:room) (f:room)
  =>
  (a:mark) (b:room) (c:room) (d:room) (e:room) (f:room)
}
";

#[test]
fn too_many_matches_to_store_are_drawn_by_randomized_search() {
    let g = load(SIX_ROOMS);
    // Room for 100 matches of six vertices: `six` overflows at once.
    let budget = Budget::default()
        .with_stored_match_words(600)
        .with_stored_match_words_per_element(0);
    for seed in 1..=5 {
        let d = derive_within(&g, seed, &budget).unwrap();
        // Every room but five gets marked: six distinct rooms per match.
        let marks = d
            .graph
            .vertex_ids()
            .filter(|&v| d.graph.tag_name(v) == "mark")
            .count();
        assert_eq!(marks, 35, "seed {seed}");
        assert!(
            matches!(d.stop, StopReason::NoRuleApplies { .. }),
            "{}",
            d.stop
        );
        for a in d.trace.iter().filter(|a| a.rule.as_str() == "six") {
            let mut distinct = a.matched.to_vec();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 6, "seed {seed}: {:?}", a.matched);
        }
    }
    // The same seed, the same level.
    let a = derive_within(&g, 3, &budget).unwrap();
    let b = derive_within(&g, 3, &budget).unwrap();
    assert_eq!(a.trace, b.trace);
}

#[test]
fn a_search_past_its_budget_stops_the_derivation_and_names_the_rule() {
    let g = load(SIX_ROOMS);
    // Enough nodes to grow the chain, too few to list six rooms out of 40.
    let budget = Budget::default()
        .with_search_nodes(5_000)
        .with_search_nodes_per_element(0);
    let d = derive_within(&g, 1, &budget).unwrap();
    assert_eq!(
        d.stop,
        StopReason::SearchBudget {
            rule: "six".into(),
            nodes: 5_000
        }
    );
    assert_eq!(d.stop.code(), "search_budget");
    assert!(d.stop.is_budget());
    let text = d.stop.to_string();
    assert!(
        text.contains("rule `six`") && text.contains("5000"),
        "{text}"
    );
    // The chain was grown before the search that stopped.
    assert_eq!(d.graph.vertex_count(), 40);
}

#[test]
fn a_recipe_stage_stopped_by_a_budget_ends_the_recipe() {
    let recipe = |six: &str| {
        load(&format!(
            "grammar \"r\" {{ start s max_iterations 500 max_vertices 100 }}
             tags {{ s room mark done }}
             rule start {{ (a:s) => (a:room) }}
             rule grow {{ (a:room) => (a:room) -- (b:room) }}
             rule six {{
               (a:room) (b:room) (c:room) (d:room) (e:room) (f:room)
               =>
               (a:mark) (b:room) (c:room) (d:room) (e:room) (f:room)
             }}
             rule finish {{ (a:room) => (a:done) }}
             recipe {{ start 1  grow 39  six {six}  finish * }}"
        ))
    };
    let budget = Budget::default()
        .with_search_nodes(5_000)
        .with_search_nodes_per_element(0);
    // The stage may make no step: the recipe ends there all the same.
    let d = derive_within(&recipe("0..3"), 1, &budget).unwrap();
    assert!(
        matches!(d.stop, StopReason::SearchBudget { .. }),
        "{}",
        d.stop
    );
    assert!(d.trace.iter().all(|a| a.rule.as_str() != "finish"));
    // The stage must make a step: it fails, and says why it stopped.
    let e = derive_within(&recipe("1..3"), 1, &budget).unwrap_err();
    assert!(e.derivation().stop.is_budget());
    assert!(e.to_string().contains("search budget"), "{e}");
}

#[test]
fn a_grid_rule_with_too_many_matches_stops_with_the_store_budget() {
    let g = load(
        "grammar \"grid\" { grid 10 x 10 of floor max_iterations 50 }
         tags { floor wall }
         rule wall { (a:floor @0,0), (b:floor @1,0) => (a:wall) -- (b) }",
    );
    let budget = Budget::default()
        .with_stored_match_words(10)
        .with_stored_match_words_per_element(0);
    let d = derive_within(&g, 1, &budget).unwrap();
    assert_eq!(
        d.stop,
        StopReason::MatchStoreBudget {
            rule: "wall".into(),
            words: 10
        }
    );
    assert!(d.trace.is_empty());
    assert_eq!(d.stop.code(), "match_store_budget");
}

#[test]
fn a_derivation_past_its_memory_budget_stops_with_the_estimate() {
    // A chain that would grow to 100,000 rooms.
    let g = load(
        "grammar \"long\" { start s max_iterations 200000 max_vertices 100000 }
         tags { s room end }
         rule start { (a:s) => (a:room) -- (b:end) }
         rule grow { (a:room) -- (b:end) => (a:room) -- (c:room) -- (b:end) }",
    );
    let budget = Budget::default().with_memory_bytes(1 << 20);
    let d = derive_within(&g, 1, &budget).unwrap();
    let StopReason::MemoryBudget { bytes, budget } = d.stop else {
        panic!("{}", d.stop);
    };
    assert_eq!(budget, 1 << 20);
    assert!(bytes > budget, "{bytes}");
    // Checked every 64 steps: stopped at most 64 applications past it
    // (each adds a room, a corridor and a trace entry: under 400 bytes).
    assert!(bytes < budget + 64 * 400, "{bytes}");
    assert!(d.graph.estimated_bytes() <= bytes);
    assert!(d.stop.to_string().contains("memory budget"), "{}", d.stop);
    // Without the budget the same grammar runs to the end.
    let full = derive(&g, 1).unwrap();
    assert_eq!(full.graph.vertex_count(), 100_000);
}

#[test]
fn a_rule_that_changes_nothing_does_not_grow_the_trace() {
    let g = load(
        "grammar \"idle\" { start s max_iterations 200000 }
         tags { s room }
         rule start { (a:s) => (a:room) }
         rule idle { (a:room) => (a:room) }
         recipe { start 1  idle 100000 }",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.trace.len(), 100_001);
    assert!(
        d.trace.estimated_bytes() < 200,
        "{}",
        d.trace.estimated_bytes()
    );
    // Read back in full.
    assert_eq!(
        d.trace.iter().filter(|a| a.rule.as_str() == "idle").count(),
        100_000
    );
    assert_eq!(d.trace.get(100_000).unwrap().rule.as_str(), "idle");
}
