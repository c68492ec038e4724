//! Nested ("stored") vertices: `(i) in (r)` in
//! patterns, right-hand sides and `where not`; moving, taking out, deleting
//! with the parent; no vertex inside itself; every output keeps them.

use levelgraph::derive::{derive, derive_from};
use levelgraph::drawing::{force_layout, ForceConfig};
use levelgraph::formats::{to_dot, to_graphml, to_svg, MissionDoc, MissionError};
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::graph::{Graph, VertexId};

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "test").unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn errors(src: &str) -> Vec<String> {
    grammar::load(src, "test")
        .err()
        .map(|e| e.diagnostics.into_iter().map(|d| d.message).collect())
        .unwrap_or_default()
}

const STASH: &str = "tags { s room key chest }\n\
    rule start { (a:s) => (a:room) -- (b:room) }\n\
    rule stash max_uses 2 { (r:room) -- (o:room) where not (x:key) in (r) => (r) -- (o), (k:key) in (r) }\n";

#[test]
fn a_rule_stores_a_new_vertex_in_a_matched_one() {
    let g = load(STASH);
    for seed in 0..20 {
        let d = derive(&g, seed).unwrap();
        let keys: Vec<VertexId> = d
            .graph
            .vertex_ids()
            .filter(|&v| d.graph.tag_name(v) == "key")
            .collect();
        assert_eq!(
            keys.len(),
            2,
            "seed {seed}: `where not` keeps one key per room"
        );
        let parents: Vec<VertexId> = keys.iter().map(|&k| d.graph.parent(k).unwrap()).collect();
        assert_ne!(parents[0], parents[1], "seed {seed}");
        assert!(d.graph.is_connected(), "stored keys need no corridor");
    }
}

#[test]
fn patterns_match_containment_and_rules_move_or_take_out() {
    let g = load(
        "tags { s room key }\n\
         rule start { (a:s) => (a:room) -- (b:room), (k:key) in (a) }\n\
         rule carry max_uses 1 { (k:key) in (r:room), (r) -- (o:room) => (r) -- (o), (k) in (o) }\n\
         rule drop max_uses 1 { (k:key) in (r:room) => (k) -- (r) }",
    );
    let mut moved = 0;
    for seed in 0..40 {
        let d = derive(&g, seed).unwrap();
        let names: Vec<&str> = d.trace.iter().map(|a| a.rule.as_str()).collect();
        let key = VertexId(2);
        if names == ["start", "carry", "drop"] {
            moved += 1;
            assert_eq!(d.graph.parent(key), None, "dropped to the top level");
            // Dropped beside the room it was carried to.
            assert!(d.graph.incident_edges(key).len() == 1);
        } else {
            assert_eq!(names, ["start", "drop"], "seed {seed}");
            assert_eq!(d.graph.parent(key), None);
        }
    }
    assert!(moved > 0, "carry ran in some seeds");
}

#[test]
fn deleting_a_vertex_deletes_what_it_stores_unless_the_rule_keeps_it() {
    let g = load(
        "tags { s room key gem }\n\
         rule start { (a:s) => (a:room) -- (b:room), (k:key) in (b), (x:gem) in (b) }\n\
         rule collapse max_uses 1 { (a:room) -- (b:room), (k:key) in (b) => (a), (k) -- (a) }",
    );
    let d = derive(&g, 1).unwrap();
    let tags: Vec<&str> = d.graph.vertex_ids().map(|v| d.graph.tag_name(v)).collect();
    assert_eq!(
        tags,
        ["room", "key"],
        "the gem went with its room; the named key stayed"
    );
    assert_eq!(d.graph.parent(VertexId(2)), None);
}

#[test]
fn no_application_puts_a_vertex_inside_itself() {
    let g = load(
        "tags { s box }\n\
         rule start { (a:s) => (a:box) -- (b:box) }\n\
         rule nest max_uses 4 { (a:box) -- (b:box) => (a) -- (b), (a) in (b) }",
    );
    for seed in 0..20 {
        let d = derive(&g, seed).unwrap();
        // Storing a box where it already is changes nothing and may repeat;
        // storing the other box in it would close a cycle and never happens.
        let nests: Vec<&[VertexId]> = d.trace.iter().skip(1).map(|a| a.matched).collect();
        assert_eq!(nests.len(), 4, "seed {seed}");
        assert!(
            nests.iter().all(|m| *m == nests[0]),
            "seed {seed}: {nests:?}"
        );
        let nested = d
            .graph
            .vertex_ids()
            .filter(|&v| d.graph.parent(v).is_some())
            .count();
        assert_eq!(nested, 1);
    }
}

#[test]
fn containment_errors() {
    assert_eq!(
        errors("tags { s room }\nrule r { (a:room) => (a) in (a) }"),
        ["vertex `a` cannot be stored in itself"]
    );
    assert_eq!(
        errors("tags { s room key }\nrule r { (a:room) -- (b:room) => (a) -- (b), (k:key) in (a), (k) in (b) }"),
        ["vertex `k` is stored in two vertices on one side"]
    );
    assert_eq!(
        errors("tags { s room key }\nrule r { (a:room) -- (b:room) => (a) in (b), (b) in (a) }"),
        ["containment on this side puts a vertex inside itself"]
    );
}

#[test]
fn every_output_keeps_stored_vertices() {
    let g = load(STASH);
    let d = derive(&g, 3).unwrap();
    let doc = MissionDoc::from_derivation(&d);
    assert!(doc.nodes.iter().filter(|n| n.parent.is_some()).count() == 2);
    let json = doc.to_json();
    let back = MissionDoc::from_json(&json).unwrap().to_graph().unwrap();
    for v in d.graph.vertex_ids() {
        assert_eq!(back.parent(v), d.graph.parent(v));
    }
    assert_eq!(
        MissionDoc::from_graph(&back, &d.grammar, 3).nodes,
        doc.nodes
    );

    let alphabet = g.alphabet();
    let dot = to_dot(&d.graph, &alphabet, "t");
    assert_eq!(dot.matches("label=\"in\"").count(), 2, "{dot}");
    let graphml = to_graphml(&d.graph, &alphabet, "t");
    assert_eq!(graphml.matches("<data key=\"parent\">").count(), 2);
    let positions = force_layout(&d.graph, &ForceConfig::for_picture(3));
    let key = d
        .graph
        .vertex_ids()
        .find(|&v| d.graph.tag_name(v) == "key")
        .unwrap();
    let room = d.graph.parent(key).unwrap();
    assert_eq!(
        positions[key.index()],
        positions[room.index()],
        "stored with its room"
    );
    let svg = to_svg(&d.graph, &positions, &alphabet, "t");
    assert_eq!(
        svg.matches(" (in v").count(),
        2,
        "two stored vertices drawn"
    );
    assert!(svg.contains(&format!("{key} key (in {room})")));
}

#[test]
fn mission_documents_with_bad_parents_are_rejected() {
    let mut g = Graph::new();
    let a = g.add_vertex_named("room");
    let b = g.add_vertex_named("key");
    g.set_parent(b, Some(a));
    let doc = MissionDoc::from_graph(&g, "t", 0);
    let mut missing = doc.clone();
    missing.nodes[1].parent = Some(9);
    assert_eq!(
        missing.to_graph().unwrap_err(),
        MissionError::MissingParent {
            index: 1,
            parent: 9
        }
    );
    let mut cycle = doc;
    cycle.nodes[0].parent = Some(1);
    assert_eq!(
        cycle.to_graph().unwrap_err(),
        MissionError::ParentCycle { index: 1, id: 1 }
    );
}

#[test]
fn where_not_with_containment_refers_to_the_host() {
    let g = load(STASH);
    let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
    let room = g.tags().get("room").unwrap();
    let key = g.tags().get("key").unwrap();
    let (a, b) = (host.add_vertex(room), host.add_vertex(room));
    host.connect(a, b, false);
    let k = host.add_vertex(key);
    host.set_parent(k, Some(a));
    let d = derive_from(&g, host, 0).unwrap();
    assert_eq!(d.trace.len(), 1, "only room b lacks a key");
    assert_eq!(d.trace.get(0).unwrap().matched[0], b);
}

/// A kept vertex stored in a vertex the rule deletes survives (it is named
/// on the right), even when the pattern does not name the containment.
#[test]
fn a_kept_vertex_survives_the_deletion_of_its_container() {
    let g = load(
        "tags { s room key }\n\
         rule start { (a:s) => (a:room) -- (b:room), (k:key) in (b) }\n\
         rule collapse max_uses 1 { (a:room) -- (b:room), (k:key) => (a), (k) -- (a) }",
    );
    for seed in 0..10 {
        let d = derive(&g, seed).unwrap();
        let key = VertexId(2);
        assert!(d.graph.contains_vertex(key), "seed {seed}");
        // Out to the top level when its room went; still stored when the
        // other room went.
        if let Some(p) = d.graph.parent(key) {
            assert_eq!(d.graph.tag_name(p), "room", "seed {seed}");
        }
        assert_eq!(d.graph.edge_count(), 1);
    }
}

/// Containment changes are checked together: a swap is fine, two links
/// that close a cycle together are not.
#[test]
fn containment_changes_are_checked_as_a_whole() {
    let swap = load(
        "tags { s box }\n\
         rule start { (a:s) => (a:box) -- (b:box), (b) in (a) }\n\
         rule swap max_uses 1 { (c:box) in (a:box) => (a) in (c), (c) -- (a) }",
    );
    let d = derive(&swap, 1).unwrap();
    assert_eq!(d.trace.len(), 2, "the swap applies");
    assert_eq!(d.graph.parent(VertexId(0)), Some(VertexId(1)));
    assert_eq!(d.graph.parent(VertexId(1)), None);

    // The host stores b in c; each new link alone is fine, but a in b and
    // c in a together close b → c → a → b.
    let ring = load(
        "tags { s x }\n\
         rule start { (a:s) => (a:x) -- (b:x) -- (c:x), (b) in (c) }\n\
         rule twist max_uses 1 { (a:x) -- (b:x) -- (c:x) => (a) -- (b) -- (c), (a) in (b), (c) in (a) }",
    );
    let d = derive(&ring, 1).unwrap();
    assert_eq!(d.trace.len(), 1, "every orientation would close a cycle");
    assert_eq!(
        d.stop,
        levelgraph::derive::StopReason::NoRuleApplies {
            blocked_by_max_vertices: 0,
            blocked_by_max_valence: 0,
            blocked_by_placement: 1,
        }
    );
}

#[test]
fn where_not_vertices_cannot_have_offsets() {
    assert_eq!(
        errors("grammar \"g\" { grid 3 x 3 of n }\ntags { n r }\nrule r { (a:n @0,0) where not (a) -- (b:r @1,0) => (a:r) }"),
        ["`where not` vertex `b` cannot have a grid offset"]
    );
}

/// Removing a vertex that stores a chain 200,000 deep: the removal used to
/// recurse once per level and overflow the stack; storing the chain in
/// order used to walk it for every link.
#[test]
fn a_chain_of_stored_vertices_200000_deep_is_stored_and_removed() {
    let mut g = Graph::new();
    let tag = g.tags_mut().intern("room");
    let ids: Vec<VertexId> = (0..200_000).map(|_| g.add_vertex(tag)).collect();
    for w in ids.windows(2) {
        assert!(g.set_parent(w[1], Some(w[0])));
    }
    assert!(!g.set_parent(ids[0], Some(ids[199_999])), "a cycle");
    assert_eq!(levelgraph::drawing::top_level(&g, ids[199_999]), ids[0]);
    assert!(levelgraph::drawing::top_levels(&g)
        .iter()
        .all(|&t| t == ids[0]));
    assert!(g.remove_vertex(ids[0]).is_some());
    assert_eq!(g.vertex_count(), 0);
}

/// A new vertex that would take in a vertex of the host storing it closes
/// a cycle and is refused; new vertices stored one inside the other, one
/// level deeper each step, are all allowed (the check stops at the first
/// host vertex when only new vertices move, instead of walking the chain).
#[test]
fn new_stored_vertices_are_checked_for_cycles_without_walking_the_chain() {
    // The host stores a in b; `wrap` at (a, b) would store b in c in a.
    let wrap = load(
        "tags { s box }\n\
         rule start { (a:s) => (a:box) -- (b:box), (a) in (b) }\n\
         rule wrap max_uses 1 { (a:box) -- (b:box) => (a) -- (b), (c:box) in (a), (b) in (c) }",
    );
    for seed in 0..20 {
        let d = derive(&wrap, seed).unwrap();
        assert_eq!(d.trace.len(), 2, "seed {seed}");
        assert_eq!(
            d.trace.get(1).unwrap().matched,
            &[VertexId(1), VertexId(0)][..],
            "seed {seed}: only the orientation without a cycle applies"
        );
    }

    let deep = load(
        "grammar \"deep\" { max_iterations 3000 max_vertices 4000 min_vertices 1 }\n\
         tags { s room key }\n\
         rule start { (a:s) => (a:room) }\n\
         rule grow { (r:room) where not (x:key) in (r) => (r), (k:key) in (r), (n:room) in (k) }",
    );
    let d = derive(&deep, 1).unwrap();
    assert_eq!(d.trace.len(), 1 + 1999, "one level deeper each step");
    // Every vertex but the first is stored in the one made before it.
    let ids: Vec<VertexId> = d.graph.vertex_ids().collect();
    assert_eq!(ids.len(), 3999);
    assert_eq!(d.graph.parent(ids[0]), None);
    for w in ids.windows(2) {
        assert_eq!(d.graph.parent(w[1]), Some(w[0]));
    }
}
