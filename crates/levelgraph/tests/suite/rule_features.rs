//! The rule features beyond the first level: negative
//! application conditions, exact valence, induced matching, weighted
//! right-hand alternatives, probability, no_repeat, priority, groups and
//! recipes — each through a grammar, as a designer writes it.

use levelgraph::derive::{derive, derive_from, DeriveError, StopReason};
use levelgraph::grammar::{self, CompiledGrammar, Grammar};
use levelgraph::graph::{Graph, VertexId};

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "test").unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn host(g: &CompiledGrammar, tags: &[&str], edges: &[(usize, usize)]) -> Graph {
    let mut h = Graph::with_symbols(g.tags().clone(), g.labels().clone());
    let vs: Vec<VertexId> = tags
        .iter()
        .map(|t| h.add_vertex(g.tags().get(t).unwrap()))
        .collect();
    for &(a, b) in edges {
        h.connect(vs[a], vs[b], false);
    }
    h
}

fn rules_applied(g: &CompiledGrammar, h: Graph, seed: u64) -> Vec<String> {
    derive_from(g, h, seed)
        .unwrap()
        .trace
        .into_iter()
        .map(|a| a.rule.to_string())
        .collect()
}

#[test]
fn where_not_rejects_a_match_with_the_forbidden_neighbourhood() {
    let g = load(
        "tags { s room lock mark }\n\
         rule start { (a:s) => (a:room) }\n\
         rule mark max_uses 9 { (a:room) -- (b:room) where not (b) -- (l:lock) => (a) -- (b:mark) }",
    );
    // room0 -- room1 -- lock, and room3 -- room4: no match may take room1 as `b`.
    let h = host(
        &g,
        &["room", "room", "lock", "room", "room"],
        &[(0, 1), (1, 2), (3, 4)],
    );
    let d = derive_from(&g, h, 1).unwrap();
    for a in &d.trace {
        assert_ne!(a.matched[1], VertexId(1), "b = room1 has a lock neighbour");
    }
    assert!(!d.trace.is_empty());
}

/// A blocked neighbour `!b` must not be confused with the pattern's
/// own `b` of the same tag. The pattern is a triangle a, b1, b2; the
/// condition forbids another `b` next to b2. On a bare triangle the rule
/// must apply (b1 is part of the match, not a blocked neighbour); with a
/// fourth `b` hanging off b2 it must not.
#[test]
fn where_not_vertices_are_distinct_from_matched_vertices() {
    let g = load(
        "tags { s a b c }\n\
         rule start { (x:s) => (x:a) }\n\
         rule grow max_uses 1 {\n\
           (x:a) -- (b1:b), (x) -- (b2:b), (b1) -- (b2)\n\
           where not (b2) -- (other:b)\n\
           => (x) -- (b1) -- (b2) -- (x), (b2) -- (n:c)\n\
         }",
    );
    let triangle = host(&g, &["a", "b", "b"], &[(0, 1), (0, 2), (1, 2)]);
    assert_eq!(rules_applied(&g, triangle, 1), ["grow"]);
    // Every choice of b2 now has a b neighbour outside the match.
    let tassel = host(
        &g,
        &["a", "b", "b", "b"],
        &[(0, 1), (0, 2), (1, 2), (2, 3), (1, 3)],
    );
    assert!(rules_applied(&g, tassel, 1).is_empty());
}

#[test]
fn where_not_can_forbid_an_edge_between_pattern_vertices() {
    let g = load(
        "tags { s room }\n\
         rule start { (a:s) => (a:room) }\n\
         rule chord max_uses 5 { (a:room) -- (m:room) -- (b:room) where not (a) -- (b) => (a) -- (m) -- (b), (a) -- (b) }",
    );
    let path = host(&g, &["room", "room", "room"], &[(0, 1), (1, 2)]);
    let d = derive_from(&g, path, 3).unwrap();
    assert_eq!(d.trace.len(), 1, "after one chord every path is closed");
    assert_eq!(d.graph.edge_count(), 3);
}

#[test]
fn exact_valence_matches_only_vertices_of_that_valence() {
    let g = load(
        "tags { s room leaf }\n\
         rule start { (a:s) => (a:room) }\n\
         rule tip max_uses 9 { (a:room valence 1) -- (b:room) => (a:leaf) -- (b) }",
    );
    // A star: hub 0 with leaves 1, 2, 3.
    let star = host(
        &g,
        &["room", "room", "room", "room"],
        &[(0, 1), (0, 2), (0, 3)],
    );
    let d = derive_from(&g, star, 2).unwrap();
    assert_eq!(d.trace.len(), 3);
    assert_eq!(
        d.graph.tag_name(VertexId(0)),
        "room",
        "the hub has valence 3"
    );
}

#[test]
fn induced_rules_reject_extra_edges_between_matched_vertices() {
    let src = |induced: &str| {
        format!(
            "tags {{ s room x }}\n\
             rule start {{ (a:s) => (a:room) }}\n\
             rule path max_uses 1 {induced} {{ (a:room) -- (b:room) -- (c:room) => (a) -- (b:x) -- (c) }}"
        )
    };
    let triangle =
        |g: &CompiledGrammar| host(g, &["room", "room", "room"], &[(0, 1), (1, 2), (0, 2)]);
    let plain = load(&src(""));
    assert_eq!(rules_applied(&plain, triangle(&plain), 1), ["path"]);
    let induced = load(&src("induced"));
    assert!(rules_applied(&induced, triangle(&induced), 1).is_empty());
    let path = host(&induced, &["room", "room", "room"], &[(0, 1), (1, 2)]);
    assert_eq!(rules_applied(&induced, path, 1), ["path"]);
}

#[test]
fn alternatives_are_chosen_by_weight_and_recorded() {
    let g = load(
        "tags { s room a b }\n\
         rule start { (x:s) => (x:room) -- (y:room) }\n\
         rule pick max_uses 1 { (x:room) -- (y:room)\n\
           => 3: (x:a) -- (y)\n\
           => 1: (x:b) -- (y)\n\
         }",
    );
    let mut first = [0u32; 2];
    for seed in 0..4000 {
        let d = derive(&g, seed).unwrap();
        let alt = d.trace.get(1).unwrap().alternative;
        let tag = d
            .graph
            .tag_name(d.trace.get(1).unwrap().matched[0])
            .to_owned();
        assert_eq!(
            tag,
            ["a", "b"][alt],
            "alternative {alt} retags to its own tag"
        );
        first[alt] += 1;
    }
    assert!((2850..3150).contains(&first[0]), "{first:?}");
}

#[test]
fn alternatives_that_would_exceed_max_vertices_are_not_chosen() {
    let g = load(
        "grammar \"g\" { max_vertices 3 }\ntags { s room }\n\
         rule start { (x:s) => (x:room) -- (y:room) }\n\
         rule grow max_uses 1 { (x:room) -- (y:room)\n\
           => 100: (x) -- (a:room) -- (b:room) -- (y)\n\
           => 1: (x) -- (a:room) -- (y)\n\
         }",
    );
    for seed in 0..50 {
        let d = derive(&g, seed).unwrap();
        assert_eq!(d.graph.vertex_count(), 3);
        assert_eq!(d.trace.get(1).unwrap().alternative, 1, "seed {seed}");
    }
}

#[test]
fn probability_skips_steps_which_count_as_iterations() {
    let g = load(
        "grammar \"g\" { max_iterations 40 }\ntags { s room }\n\
         rule start { (x:s) => (x:room) -- (y:room) }\n\
         rule grow probability 0.25 { (x:room) -- (y:room) => (x) -- (z:room) -- (y) }",
    );
    let (mut applied, mut skipped) = (0, 0);
    for seed in 0..200 {
        let d = derive(&g, seed).unwrap();
        assert_eq!(d.stop, StopReason::IterationLimit(40));
        assert_eq!(d.trace.len() + d.skipped as usize, 40);
        applied += d.trace.len() - 1;
        skipped += d.skipped as usize;
    }
    let share = applied as f64 / (applied + skipped) as f64;
    assert!(
        (0.22..0.28).contains(&share),
        "grow ran in {share} of its steps"
    );
}

#[test]
fn no_repeat_rules_never_run_twice_in_a_row() {
    let g = load(
        "grammar \"g\" { max_iterations 60 }\ntags { s room }\n\
         rule start { (x:s) => (x:room) -- (y:room) }\n\
         rule often weight 50 no_repeat { (x:room) -- (y:room) => (x) -- (z:room) -- (y) }\n\
         rule rare { (x:room) -- (y:room) => (x) -- (y), (x) -- (z:room) }",
    );
    let mut often = 0;
    for seed in 0..50 {
        let d = derive(&g, seed).unwrap();
        let rules: Vec<&str> = d.trace.iter().map(|a| a.rule.as_str()).collect();
        for w in rules.windows(2) {
            assert!(!(w[0] == "often" && w[1] == "often"), "seed {seed}");
        }
        often += d.trace.iter().filter(|a| a.rule == "often").count();
    }
    assert!(
        often > 50 * 25,
        "`often` still runs every other step ({often})"
    );
}

/// Which corridor of `room – room – hall` the one `door` rule took: the
/// room–room one satisfies both orderings of the pattern `(a:room) --
/// (b:room|hall)` (2 matches), the room–hall one only one (1 match).
fn room_room_share(count_once: bool) -> f64 {
    let attribute = if count_once { "count_once" } else { "" };
    let g = load(&format!(
        "tags {{ s room hall door }}\n\
         rule start {{ (x:s) => (x:room) -- (y:room) -- (z:hall) }}\n\
         rule door max_uses 1 {attribute} {{ (a:room) -- (b:room|hall) => (a) -- (d:door) -- (b) }}"
    ));
    let seeds = 4000;
    let mut room_room = 0;
    for seed in 0..seeds {
        let d = derive(&g, seed).unwrap();
        let door = d
            .graph
            .vertex_ids()
            .find(|&v| d.graph.tag_name(v) == "door")
            .unwrap();
        let mut ends: Vec<&str> = d
            .graph
            .incidences(door)
            .iter()
            .map(|i| d.graph.tag_name(i.other))
            .collect();
        ends.sort_unstable();
        if ends == ["room", "room"] {
            room_room += 1;
        }
    }
    room_room as f64 / seeds as f64
}

#[test]
fn count_once_draws_each_host_subgraph_equally_often() {
    // Uniform over matches: the room–room corridor has 2 of the 3 matches.
    let by_match = room_room_share(false);
    assert!((0.63..0.70).contains(&by_match), "{by_match}");
    // Uniform over subgraphs: each corridor half of the time.
    let by_subgraph = room_room_share(true);
    assert!((0.47..0.53).contains(&by_subgraph), "{by_subgraph}");
}

#[test]
fn higher_priority_wins_whenever_it_has_a_match() {
    let g = load(
        "tags { s room key done }\n\
         rule start { (x:s) => (x:room) -- (y:room) -- (z:room) }\n\
         rule urgent priority 5 max_uses 2 { (x:room) -- (y:room) => (x:key) -- (y) }\n\
         rule casual weight 1000 max_uses 4 { (x:room|key) -- (y:room|key) => (x:done) -- (y) }",
    );
    for seed in 0..50 {
        let names: Vec<String> = derive(&g, seed)
            .unwrap()
            .trace
            .into_iter()
            .map(|a| a.rule.to_string())
            .collect();
        // `urgent` runs while room--room edges exist, before any `casual`.
        let first_casual = names
            .iter()
            .position(|r| r == "casual")
            .unwrap_or(names.len());
        let last_urgent = names.iter().rposition(|r| r == "urgent").unwrap_or(0);
        assert!(last_urgent < first_casual, "seed {seed}: {names:?}");
    }
}

#[test]
fn a_group_shares_one_max_uses_budget() {
    let g = load(
        "tags { s room gold gem }\n\
         group treasure max_uses 3\n\
         rule start { (x:s) => (x:room) -- (y:room) }\n\
         rule grow max_uses 10 { (x:room) -- (y:room) => (x) -- (z:room) -- (y) }\n\
         rule gold group treasure { (x:room) -- (y:room) => (x) -- (y), (x) -- (t:gold) }\n\
         rule gem group treasure { (x:room) -- (y:room) => (x) -- (y), (x) -- (t:gem) }",
    );
    for seed in 0..100 {
        let d = derive(&g, seed).unwrap();
        let treasure = d
            .trace
            .iter()
            .filter(|a| a.rule == "gold" || a.rule == "gem")
            .count();
        assert_eq!(treasure, 3, "seed {seed}");
    }
}

const RECIPE: &str = "grammar \"r\" { max_iterations 500 }\n\
    tags { s room key lock x }\n\
    rule start { (a:s) => (a:room) -- (b:room) }\n\
    rule grow { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }\n\
    rule keyed { (a:room) -- (b:room) => (a) -- (b), (a) -- (k:key) }\n\
    rule locked { (a:room) -- (b:room) => (a) -- (l:lock) -- (b) }\n\
    rule mark { (a:room) -- (b:*) => (a:x) -- (b) }\n\
    recipe {\n\
      start 1\n\
      growth: grow 3..6\n\
      keyed | locked:3 2\n\
      mark *\n\
    }\n";

#[test]
fn recipe_stages_run_in_order_with_their_counts() {
    let g = load(RECIPE);
    let mut grown = std::collections::BTreeSet::new();
    for seed in 0..200 {
        let d = derive(&g, seed).unwrap();
        assert_eq!(d.stop, StopReason::RecipeComplete);
        let names: Vec<&str> = d.trace.iter().map(|a| a.rule.as_str()).collect();
        assert_eq!(names[0], "start");
        let grows = names
            .iter()
            .take_while(|&&r| r != "keyed" && r != "locked")
            .filter(|&&r| r == "grow")
            .count();
        assert!((3..=6).contains(&grows), "seed {seed}: {names:?}");
        grown.insert(grows);
        let decorations = &names[1 + grows..1 + grows + 2];
        assert!(
            decorations.iter().all(|&r| r == "keyed" || r == "locked"),
            "{names:?}"
        );
        // `mark *` runs until no room is left next to anything.
        assert!(names[3 + grows..].iter().all(|&r| r == "mark"));
        assert!(
            d.graph.vertex_ids().all(|v| d.graph.tag_name(v) != "room"),
            "seed {seed}"
        );
    }
    assert_eq!(grown.len(), 4, "all of 3..6 occur: {grown:?}");
}

#[test]
fn rules_outside_the_recipe_never_run() {
    let src = format!("{RECIPE}rule stray {{ (a:room) -- (b:room) => (a:key) -- (b) }}\n");
    let g = load(&src);
    for seed in 0..20 {
        assert!(derive(&g, seed)
            .unwrap()
            .trace
            .iter()
            .all(|a| a.rule != "stray"));
    }
}

#[test]
fn a_stage_below_its_minimum_fails_naming_stage_and_rules() {
    let g = load(
        "tags { s room key }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule keyed max_uses 2 { (a:room) -- (b:room) => (a) -- (b), (a) -- (k:key) }\n\
         recipe { start 1  keys: keyed 3..4 }",
    );
    let err = derive(&g, 1).unwrap_err();
    let DeriveError::StageFailed {
        stage,
        rules,
        steps,
        min,
        derivation,
    } = &err
    else {
        panic!("expected StageFailed, got {err}");
    };
    assert_eq!(
        (stage.as_str(), rules.as_slice(), *steps, *min),
        ("keys", &["keyed".to_owned()][..], 2, 3)
    );
    assert_eq!(
        err.to_string(),
        format!(
            "derivation failed: recipe keys (rules keyed) made 2 of its minimum 3 steps: no rule applies ({})",
            derivation.summary()
        )
    );
}

#[test]
fn every_new_construct_survives_the_json_form() {
    let src = "grammar \"all\" { max_iterations 50 }\n\
        tags { s \"start\" room \"room\" #90a4ae terminal key }\n\
        group loot max_uses 2\n\
        rule start { (a:s) => (a:room) -- (b:room) }\n\
        rule grow weight 2 probability 0.5 no_repeat count_once priority -1 group loot induced {\n\
          (a:room valence 1) -- (b:room)\n\
          where not (b) -- (k:key)\n\
          => 2: (a) -- (c:room) -- (b)\n\
          => 1: (a) -- (b), (a) -- (k:key)\n\
        }\n\
        recipe { start 1  g: grow:2 1..* }\n";
    let model = grammar::parse(src, "all").unwrap();
    let json = model.to_json();
    let back = Grammar::from_json(&json).unwrap();
    assert_eq!(back.to_json(), json);
    let rule = &back.rules[1];
    assert_eq!(
        (
            rule.probability,
            rule.no_repeat,
            rule.priority,
            rule.group.as_deref(),
            rule.induced,
            rule.count_once
        ),
        (0.5, true, -1, Some("loot"), true, true)
    );
    assert_eq!(rule.lhs.vertices[0].valence, Some(1));
    assert_eq!(rule.where_not.len(), 1);
    assert_eq!(
        rule.rhs.iter().map(|a| a.weight).collect::<Vec<_>>(),
        [2.0, 1.0]
    );
    assert!(back.tags[1].terminal && !back.tags[2].terminal);
    let recipe = back.recipe.as_ref().unwrap();
    assert_eq!((recipe.stages[1].min, recipe.stages[1].max), (1, None));
    assert_eq!(recipe.stages[1].rules[0].weight, 2.0);
    let from_text = grammar::load(src, "all").unwrap();
    let from_json = grammar::load_json(&json).unwrap();
    for seed in 0..20 {
        let a = derive(&from_text, seed).map(|d| d.trace);
        let b = derive(&from_json, seed).map(|d| d.trace);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "seed {seed}");
    }
}

#[test]
fn an_iteration_limit_inside_a_recipe_fails_a_later_stage_with_a_minimum() {
    let g = load(
        "grammar \"g\" { max_iterations 5 }\ntags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule grow { (a:room) -- (b:room) => (a) -- (c:room) -- (b) }\n\
         recipe { start 1  grow 2..10  last: grow 1 }",
    );
    for seed in 0..30 {
        match derive(&g, seed) {
            // Made its 1 + 2..4 steps and then `last`'s one, within 5 steps.
            Ok(d) => assert_eq!(d.stop, StopReason::RecipeComplete, "seed {seed}"),
            Err(DeriveError::StageFailed { stage, steps, .. }) => {
                assert_eq!((stage.as_str(), steps), ("last", 0), "seed {seed}");
            }
            Err(e) => panic!("seed {seed}: {e}"),
        }
    }
}
