//! Semantics of rewriting and of the derivation loop: what an application
//! keeps, retags, creates and deletes, and the build parameters
//! (max_iterations, min_vertices, max_vertices, max_valence), max_uses,
//! weights and the uniform choice among matches.

use levelgraph::derive::{derive, derive_from, DeriveError, StopReason};
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::graph::{Edge, Graph, VertexId};

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "test").unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Tag names of the live vertices, sorted.
fn tags(g: &Graph) -> Vec<String> {
    let mut t: Vec<String> = g.vertex_ids().map(|v| g.tag_name(v).to_owned()).collect();
    t.sort();
    t
}

/// A host graph in the grammar's symbol tables: a path of the given tags.
fn path_host(g: &CompiledGrammar, path: &[&str]) -> (Graph, Vec<VertexId>) {
    let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
    let vs: Vec<VertexId> = path
        .iter()
        .map(|t| host.add_vertex(g.tags().get(t).unwrap()))
        .collect();
    for w in vs.windows(2) {
        host.connect(w[0], w[1], false);
    }
    (host, vs)
}

#[test]
fn start_rule_builds_the_right_hand_side() {
    let g = load("tags { s room goal }\nrule start { (a:s) => (a:room) -- (b:goal) }");
    let d = derive(&g, 1).unwrap();
    assert_eq!(tags(&d.graph), ["goal", "room"]);
    assert_eq!(d.graph.edge_count(), 1);
    assert_eq!(d.trace.len(), 1);
    assert_eq!(d.trace.get(0).unwrap().rule, "start");
    assert_eq!(d.trace.get(0).unwrap().matched, [VertexId(0)]);
    assert_eq!(d.trace.get(0).unwrap().created, [VertexId(1)]);
    assert!(matches!(d.stop, StopReason::NoRuleApplies { .. }));
}

#[test]
fn vertex_named_only_on_the_left_is_deleted_with_all_its_edges() {
    let g = load(
        "tags { s room key junk }\n\
         rule start { (a:s) => (a:room) }\n\
         rule drop max_uses 1 { (a:room) -- (j:junk) => (a) }",
    );
    // junk has a second edge (to key) that the pattern does not mention.
    let (mut host, vs) = path_host(&g, &["room", "junk", "key"]);
    host.connect(vs[0], vs[2], true);
    let d = derive_from(&g, host, 3).unwrap();
    assert_eq!(tags(&d.graph), ["key", "room"]);
    assert!(!d.graph.contains_vertex(vs[1]));
    // Only the room -> key edge survives.
    assert_eq!(d.graph.edge_count(), 1);
    let (_, e) = d.graph.edges().next().unwrap();
    assert_eq!((e.source, e.target, e.directed), (vs[0], vs[2], true));
}

#[test]
fn kept_edges_keep_label_and_length_factor_removed_edges_go() {
    let g = load(
        "tags { s room lock }\n\
         rule start { (a:s) => (a:room) }\n\
         rule split max_uses 1 { (a:room) -[door]- (b:room), (a) -- (b) => (a) -[door]- (b), (a) -- (l:lock) -- (b) }",
    );
    let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
    let room = g.tags().get("room").unwrap();
    let (a, b) = (host.add_vertex(room), host.add_vertex(room));
    let door = host.labels().get("door").unwrap();
    let labelled = host.add_edge(Edge {
        source: a,
        target: b,
        directed: false,
        cosmetic: false,
        label: Some(door),
        length_factor: 0.5,
    });
    let plain = host.connect(a, b, false);
    let d = derive_from(&g, host, 0).unwrap();
    let kept = d
        .graph
        .edge(labelled)
        .expect("the labelled edge is kept as it was");
    assert_eq!(kept.length_factor, 0.5);
    assert!(d.graph.edge(plain).is_none(), "the plain a--b is replaced");
    assert_eq!(d.graph.edge_count(), 3);
    assert_eq!(tags(&d.graph), ["lock", "room", "room"]);
}

#[test]
fn right_hand_tag_retags_and_bare_name_keeps_host_tag_and_attributes_are_set() {
    let g = load(
        "tags { s room goal key }\n\
         rule start { (a:s) => (a:room) -- (b:goal) }\n\
         rule mark max_uses 1 { (a:room) -- (b:room|goal) => (a:key {color: red}) -- (b) }",
    );
    let d = derive(&g, 5).unwrap();
    assert_eq!(tags(&d.graph), ["goal", "key"]);
    let key = d
        .graph
        .vertex_ids()
        .find(|&v| d.graph.tag_name(v) == "key")
        .unwrap();
    assert_eq!(d.graph.vertex(key).unwrap().attributes["color"], "red");
}

#[test]
fn pattern_attributes_must_match() {
    let g = load(
        "tags { s key lock }\n\
         rule start { (a:s) => (a:key {color: red}) -- (b:key {color: blue}) }\n\
         rule lock_red max_uses 5 { (k:key {color: red}) -- (o:key) => (k) -- (o), (k) -- (l:lock) }",
    );
    let d = derive(&g, 2).unwrap();
    // Only the red key matches, so the rule applies... as long as it has uses.
    assert_eq!(d.trace.iter().filter(|a| a.rule == "lock_red").count(), 5);
    for a in d.trace.iter().filter(|a| a.rule == "lock_red") {
        assert_eq!(a.matched[0], VertexId(0));
    }
}

#[test]
fn identical_edge_is_not_added_twice() {
    let g = load(
        "tags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) -- (c:room) }\n\
         rule chord max_uses 3 { (a:room) -- (b:room) -- (c:room) => (a) -- (b) -- (c), (a) -- (c) }",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.trace.len(), 4);
    assert_eq!(d.graph.edge_count(), 3, "a triangle, whatever the repeats");
}

#[test]
fn max_uses_caps_a_rule_and_iteration_limit_stops() {
    let g = load(
        "tags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule grow max_uses 7 { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), 9);
    assert_eq!(d.stop.code(), "no_rule_applies");

    let g = load(
        "grammar \"g\" { max_iterations 4 }\ntags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule grow { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.trace.len(), 4);
    assert_eq!(d.stop, StopReason::IterationLimit(4));
}

#[test]
fn max_vertices_is_never_exceeded_but_smaller_rules_still_apply() {
    let g = load(
        "grammar \"g\" { max_vertices 6 }\ntags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule big weight 100 { (a:room) -- (b:room) => (a) -- (x:room) -- (y:room) -- (z:room) -- (b) }\n\
         rule small { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }",
    );
    for seed in 0..50 {
        let d = derive(&g, seed).unwrap();
        // 2 + 3 = 5, then big (+3) would exceed 6 but small (+1) fits.
        assert_eq!(d.graph.vertex_count(), 6, "seed {seed}");
        assert_eq!(
            d.stop,
            StopReason::NoRuleApplies {
                blocked_by_max_vertices: 2,
                blocked_by_max_valence: 0,
                blocked_by_placement: 0,
            },
            "seed {seed}"
        );
    }
}

#[test]
fn max_valence_blocks_unless_the_right_hand_side_has_that_valence() {
    // A hub may take three spokes (max_valence 3): the fourth is blocked.
    let g = load(
        "grammar \"g\" { max_valence 3 }\ntags { s hub spoke }\n\
         rule start { (a:s) => (a:hub) -- (b:spoke) }\n\
         rule more { (h:hub) -- (s:spoke) => (h) -- (s), (h) -- (t:spoke) }",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), 4);
    assert_eq!(
        d.stop,
        StopReason::NoRuleApplies {
            blocked_by_max_vertices: 0,
            blocked_by_max_valence: 1,
            blocked_by_placement: 0,
        }
    );
    // A start rule whose right-hand side gives the hub valence 5 is allowed.
    let g = load(
        "grammar \"g\" { max_valence 3 }\ntags { s hub spoke }\n\
         rule start { (a:s) => (a:hub) -- (b:spoke), (a) -- (c:spoke), (a) -- (d:spoke), (a) -- (e:spoke), (a) -- (f:spoke) }\n\
         rule more { (h:hub) -- (s:spoke) => (h) -- (s), (h) -- (t:spoke) }",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.graph.valence(VertexId(0)), 5);
    assert_eq!(d.trace.len(), 1, "`more` would raise 5 to 6 > max(3, 2)");
}

#[test]
fn ending_below_min_vertices_is_a_failure_with_the_partial_derivation() {
    let g = load(
        "grammar \"g\" { min_vertices 5 }\ntags { s room }\n\
         rule start { (a:s) => (a:room) -- (b:room) }\n\
         rule grow max_uses 1 { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }",
    );
    let err = derive(&g, 9).unwrap_err();
    let DeriveError::TooFewVertices {
        min_vertices,
        derivation,
    } = &err
    else {
        panic!("expected TooFewVertices, got {err}");
    };
    assert_eq!(*min_vertices, 5);
    assert_eq!(derivation.graph.vertex_count(), 3);
    assert_eq!(derivation.trace.len(), 2);
    assert_eq!(
        err.to_string(),
        "derivation failed: 3 vertices, fewer than min_vertices 5, when it stopped: no rule applies after 2 applications (3 vertices, 2 edges; rules applied: start×1, grow×1)"
    );
}

/// A "tassel" of keys: without `!key` the same room collects keys; with it,
/// a room that already has a key neighbour is not matched again.
#[test]
fn forbidden_tags_stop_tassels() {
    let grammar = |forbid: &str| {
        load(&format!(
            "tags {{ s room key }}\n\
             rule start {{ (a:s) => (a:room) -- (b:room) -- (c:room) }}\n\
             rule hang max_uses 10 {{ (a:room) -- (b:room {forbid}) => (a) -- (b), (b) -- (k:key) }}"
        ))
    };
    let keys_per_room = |g: &Graph| -> Vec<usize> {
        g.vertex_ids()
            .filter(|&v| g.tag_name(v) == "room")
            .map(|v| {
                g.incident_edges(v)
                    .filter(|&e| g.tag_name(g.edge(e).unwrap().other(v)) == "key")
                    .count()
            })
            .collect()
    };
    let guarded = grammar("!key");
    let free = grammar("");
    let mut tassels = 0;
    for seed in 0..100 {
        let d = derive(&guarded, seed).unwrap();
        assert_eq!(keys_per_room(&d.graph), [1, 1, 1], "seed {seed}");
        let d = derive(&free, seed).unwrap();
        tassels += usize::from(keys_per_room(&d.graph).iter().any(|&k| k > 1));
    }
    assert_eq!(tassels, 100, "without `!key` every run grows a tassel");
}

#[test]
fn weights_set_the_odds_between_rules() {
    let g = load(
        "tags { s room a b }\n\
         rule start { (x:s) => (x:room) -- (y:room) }\n\
         rule to_a weight 3 max_uses 1 { (x:room) -- (y:room) => (x:a) -- (y) }\n\
         rule to_b weight 1 max_uses 1 { (x:room) -- (y:room) => (x:b) -- (y) }",
    );
    let first_a = (0..4000)
        .filter(|&seed| derive(&g, seed).unwrap().trace.get(1).unwrap().rule == "to_a")
        .count();
    assert!(
        (2850..3150).contains(&first_a),
        "to_a first in {first_a} of 4000"
    );
}

#[test]
fn matches_are_chosen_uniformly() {
    // A star of 4 spokes: `pick` matches each of the 4 hub--spoke edges.
    let g = load(
        "tags { s hub spoke picked }\n\
         rule start { (a:s) => (a:hub) -- (b:spoke), (a) -- (c:spoke), (a) -- (d:spoke), (a) -- (e:spoke) }\n\
         rule pick max_uses 1 { (h:hub) -- (s:spoke) => (h) -- (s:picked) }",
    );
    let mut counts = [0u32; 4];
    for seed in 0..4000 {
        let d = derive(&g, seed).unwrap();
        counts[d.trace.get(1).unwrap().matched[1].index() - 1] += 1;
    }
    for c in counts {
        assert!((900..1100).contains(&c), "{counts:?}");
    }
}

/// A stage count `0..4294967295` holds 2^32 counts: the draw computed the
/// count in 32 bits, got 0 and panicked (`below(0)`, exit 101).
#[test]
fn a_stage_range_up_to_u32_max_is_drawn() {
    let g = load(
        "grammar \"x\" { max_iterations 50 }\n\
         tags { s room }\n\
         rule start { (a:s) => (a:room) }\n\
         rule grow { (a:room) => (a:room) -- (b:room) }\n\
         recipe { start 1 grow 0..4294967295 }\n",
    );
    for seed in 0..20 {
        let d = derive(&g, seed).unwrap();
        // The drawn count is almost surely far above what 49 steps reach.
        assert!(d.graph.vertex_count() <= 50, "seed {seed}");
    }
    let g = load(
        "grammar \"x\" { max_iterations 50 }\n\
         tags { s room }\n\
         rule start { (a:s) => (a:room) }\n\
         rule grow { (a:room) => (a:room) -- (b:room) }\n\
         recipe { start 1 grow 4294967294..4294967295 }\n",
    );
    let err = derive(&g, 3).unwrap_err();
    assert!(
        err.to_string()
            .contains("made 49 of its minimum 4294967294 steps"),
        "{err}"
    );
}
