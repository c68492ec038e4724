//! Exhaustive exploration up to isomorphism (`levelgraph::explore`): state
//! counts against known enumerations, the shortest derivation of a level
//! that cannot be finished, recipes, and the limits.

use levelgraph::canon::SearchLimits;
use levelgraph::explore::{explore, ExploreLimits, ExploreStop};
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::lint::rule_symmetry;

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "test").unwrap()
}

/// Growing a tree a leaf at a time reaches, up to isomorphism, every
/// unlabelled tree: their numbers are OEIS A000055 (1, 1, 1, 2, 3, 6, 11,
/// 23, 47, 106 for 1..=10 vertices). Any error in the canonical form
/// (two isomorphic trees told apart, or two different ones merged) shows.
#[test]
fn growing_trees_reaches_each_unlabelled_tree_once() {
    let g = load(
        "grammar \"trees\" { max_vertices 10 max_iterations 100 }\n\
         tags { s room }\n\
         rule start { (a:s) => (a:room) }\n\
         rule leaf { (a:room) => (a) -- (b:room) }",
    );
    let found = explore(&g, &ExploreLimits::new(10));
    let per_depth: Vec<usize> = found.depths.iter().map(|d| d.states).collect();
    // Depth 0 is the start symbol; depth d ≥ 1 holds the trees of d vertices.
    assert_eq!(per_depth, [1, 1, 1, 1, 2, 3, 6, 11, 23, 47, 106]);
    // Trees of 10 vertices: no rule applies (max_vertices), so they are levels.
    assert_eq!(found.depths[10].levels, 106);
    assert_eq!(found.levels, 106);
    assert!(found.stopped.is_none());
}

/// Directed paths grown in the middle: one state per depth, however many
/// matches each step has.
#[test]
fn isomorphic_results_of_different_matches_are_one_state() {
    let g = load(
        "grammar \"paths\" { max_vertices 9 max_iterations 100 }\n\
         tags { s room }\n\
         rule start { (a:s) => (a:room) -> (b:room) }\n\
         rule grow { (x:room) -> (y:room) => (x) -> (z:room) -> (y) }",
    );
    let found = explore(&g, &ExploreLimits::new(12));
    assert!(
        found.depths.iter().all(|d| d.states == 1),
        "{:?}",
        found.depths
    );
    assert_eq!(found.depths.len(), 9);
    assert_eq!(found.levels, 1);
}

#[test]
fn a_key_behind_its_lock_is_found_by_the_shortest_derivation() {
    let src = include_str!("../data/behind-its-lock.lg");
    let found = explore(&load(src), &ExploreLimits::new(8));
    let broken = found
        .broken
        .as_ref()
        .expect("a broken level within 8 steps");
    let rules: Vec<(&str, usize)> = broken
        .steps
        .iter()
        .map(|s| (s.rule.as_str(), s.alternative))
        .collect();
    // Every derivation makes all four steps (the use limits), and the
    // second alternative of key_lock is the bug.
    assert_eq!(
        rules,
        [("start", 1), ("extend", 1), ("extend", 1), ("key_lock", 2)]
    );
    assert!(broken.why.contains("behind"), "{}", broken.why);
    assert!(found.depths[4].unfinishable > 0);
    assert!(found.depths[4].unfinishable < found.depths[4].levels);

    // Without the second alternative nothing breaks.
    let fixed = src.replace(
        "  => (a) -> (l:lock) -> (b), (b) -> (k:key), (k) ~> (l)\n",
        "",
    );
    assert_ne!(fixed, src);
    let found = explore(&load(&fixed), &ExploreLimits::new(8));
    assert!(found.broken.is_none());
    assert!(found.levels > 0 && found.stopped.is_none());
}

#[test]
fn recipe_stages_end_after_any_count_in_their_range() {
    // Stage 2 makes 1 to 3 leaves: trees of 2, 3 and 4 vertices are
    // levels (1 + 1 + 2 of them), reached after 2, 3 and 4 steps.
    let g = load(
        "grammar \"staged\" { max_iterations 100 }\n\
         tags { s room }\n\
         rule start { (a:s) => (a:room) }\n\
         rule leaf { (a:room) => (a) -- (b:room) }\n\
         recipe { start 1  leaf 1..3 }",
    );
    let found = explore(&g, &ExploreLimits::new(10));
    let levels: Vec<usize> = found.depths.iter().map(|d| d.levels).collect();
    assert_eq!(levels, [0, 0, 1, 1, 2]);
    assert_eq!(found.levels, 4);
}

#[test]
fn the_state_limit_stops_the_exploration_and_says_so() {
    let g = load(
        "grammar \"trees\" { max_vertices 30 max_iterations 100 }\n\
         tags { s room }\n\
         rule start { (a:s) => (a:room) }\n\
         rule leaf { (a:room) => (a) -- (b:room) }",
    );
    let limits = ExploreLimits {
        max_states: 50,
        ..ExploreLimits::new(20)
    };
    let found = explore(&g, &limits);
    assert_eq!(found.stopped, Some(ExploreStop::States(50)));
    assert_eq!(found.states, 50);
    let message = found.stopped.unwrap().to_string();
    assert!(message.contains("state limit"), "{message}");
}

#[test]
fn pattern_symmetries_count_matches_per_host_subgraph() {
    let g = grammar::parse(
        "tags { s room hall }\n\
         rule start { (a:s) => (a:room) }\n\
         rule triangle { (a:room) -- (b:room), (b) -- (c:room), (c) -- (a) => (a) -- (b) }\n\
         rule path { (a:room) -- (b:room), (b) -- (c:room) => (a) -- (c) }\n\
         rule arrow { (a:room) -> (b:room) => (a) }\n\
         rule mixed { (a:room) -- (b:room|hall) => (a) }\n\
         rule fixed { (a:room) -- (b:hall) => (a) }",
        "test",
    )
    .unwrap();
    let limits = SearchLimits::default();
    let sym = |name: &str| {
        let rule = g.rules.iter().find(|r| r.name == name).unwrap();
        rule_symmetry(rule, &limits).unwrap()
    };
    assert_eq!(sym("triangle").automorphisms.exact(), Some(6));
    assert_eq!(sym("triangle").orbits, [vec!["a", "b", "c"]]);
    assert_eq!(sym("path").automorphisms.exact(), Some(2));
    assert_eq!(sym("path").orbits, [vec!["a", "c"]]);
    assert_eq!(sym("arrow").automorphisms.exact(), Some(1));
    // Swapping a and b keeps the edge; a room–room corridor takes both.
    let mixed = sym("mixed");
    assert_eq!(mixed.automorphisms.exact(), Some(1));
    assert_eq!(mixed.partial.as_ref().map(|p| p.0), Some(2));
    // room and hall never fit one host vertex: no partial symmetry.
    assert!(sym("fixed").partial.is_none());
    assert!(sym("triangle").partial.is_none());
}
