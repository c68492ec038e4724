//! Grid mode (graph rewriting on a grid): a host that starts as a grid, rules whose vertices
//! are grid offsets, `orient any` and `mirror`, random origins, atomic
//! application, and grid cells kept in the outputs.

use std::collections::BTreeSet;

use levelgraph::derive::{derive, derive_from};
use levelgraph::formats::{to_graph_text, GeometryValue, MissionDoc, MissionError};
use levelgraph::grammar::{self, CompiledGrammar};
use levelgraph::graph::Graph;
use levelgraph::matching::Frame;

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "grid").unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn errors(src: &str) -> Vec<String> {
    grammar::load(src, "grid")
        .err()
        .map(|e| e.diagnostics.into_iter().map(|d| d.message).collect())
        .unwrap_or_default()
}

#[test]
fn frames_turn_and_mirror_offsets_like_seed_003() {
    let at = |transform| {
        Frame {
            origin: [10, 10],
            transform,
        }
        .place([2, 1])
    };
    assert_eq!(
        (0..8).map(at).collect::<Vec<_>>(),
        [
            [12, 11], // as written
            [9, 12],  // 90°
            [8, 9],   // 180°
            [11, 8],  // 270°
            [8, 11],  // mirrored
            [9, 8],   // mirrored, 90°
            [12, 9],  // mirrored, 180°
            [11, 12], // mirrored, 270°
        ]
    );
}

const GRID: &str = "grammar \"g\" { grid 5 x 5 of n max_vertices 25 max_iterations 20 }\n\
    tags { n r x }\n";

#[test]
fn the_host_starts_as_the_grid() {
    let g = load(&format!(
        "{GRID}rule mark max_uses 1 {{ (a:n @0,0) => (a:r) }}"
    ));
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), 25);
    assert_eq!(d.graph.edge_count(), 0);
    for y in 0..5 {
        for x in 0..5 {
            assert!(d.graph.vertex_at([x, y]).is_some());
        }
    }
    // A random origin: over seeds, the marked cell moves around.
    let cells: BTreeSet<[i32; 2]> = (0..100)
        .map(|seed| {
            let d = derive(&g, seed).unwrap();
            let v = d.trace.get(0).unwrap().matched[0];
            d.graph.vertex(v).unwrap().cell.unwrap()
        })
        .collect();
    assert!(cells.len() > 15, "origins: {cells:?}");
}

/// From the centre cell, a one-step rule goes right only as written, and in
/// all four directions with `orient any`.
#[test]
fn orient_any_tries_the_four_directions() {
    let step = |orient: &str| {
        load(&format!(
            "{GRID}rule step {orient} max_uses 1 {{ (a:r @0,0), (b:n @1,0) => (a) -- (b:x) }}"
        ))
    };
    let directions = |g: &CompiledGrammar| {
        let mut seen = BTreeSet::new();
        for seed in 0..200 {
            let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
            host.add_grid(5, 5, g.tags().get("n").unwrap());
            let centre = host.vertex_at([2, 2]).unwrap();
            host.set_tag(centre, g.tags().get("r").unwrap());
            let d = derive_from(g, host, seed).unwrap();
            let b = d.trace.get(0).unwrap().matched[1];
            let [x, y] = d.graph.vertex(b).unwrap().cell.unwrap();
            seen.insert([x - 2, y - 2]);
        }
        seen
    };
    assert_eq!(directions(&step("")), BTreeSet::from([[1, 0]]));
    assert_eq!(
        directions(&step("orient any")),
        BTreeSet::from([[1, 0], [0, 1], [-1, 0], [0, -1]])
    );
}

/// An L is chiral: turning alone never gives its mirror image; `mirror` does.
#[test]
fn mirror_adds_the_reflections() {
    let shapes = |attrs: &str| {
        let g = load(&format!(
            "{GRID}rule ell {attrs} max_uses 1 {{ (a:r @0,0), (b:n @1,0), (c:n @1,1) => (a) -- (b:x) -- (c:x) }}"
        ));
        let mut seen = BTreeSet::new();
        for seed in 0..300 {
            let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
            host.add_grid(5, 5, g.tags().get("n").unwrap());
            let centre = host.vertex_at([2, 2]).unwrap();
            host.set_tag(centre, g.tags().get("r").unwrap());
            let d = derive_from(&g, host, seed).unwrap();
            let cell = |i: usize| {
                d.graph
                    .vertex(d.trace.get(0).unwrap().matched[i])
                    .unwrap()
                    .cell
                    .unwrap()
            };
            let (b, c) = (cell(1), cell(2));
            // The turn from a→b to b→c: +1 left, -1 right (z of the cross product).
            let ab = [b[0] - 2, b[1] - 2];
            let bc = [c[0] - b[0], c[1] - b[1]];
            seen.insert(ab[0] * bc[1] - ab[1] * bc[0]);
        }
        seen
    };
    assert_eq!(shapes("orient any"), BTreeSet::from([1]));
    assert_eq!(shapes("orient any mirror"), BTreeSet::from([-1, 1]));
}

/// Atomic application: a rule whose new vertex has no free cell
/// changes nothing; with a free cell, the vertex lands in it.
#[test]
fn new_vertices_need_free_cells() {
    let g = load(&format!(
        "{GRID}rule sprout max_uses 5 {{ (a:r @0,0) => (a) -- (b:x @1,0) }}"
    ));
    let mut full = Graph::with_symbols(g.tags().clone(), g.labels().clone());
    full.add_grid(1, 2, g.tags().get("r").unwrap());
    let d = derive_from(&g, full, 0).unwrap();
    assert_eq!(
        d.trace.len(),
        1,
        "only the right-hand cell's r has a free cell beyond"
    );
    assert_eq!(
        d.graph
            .vertex(d.trace.get(0).unwrap().created[0])
            .unwrap()
            .cell,
        Some([2, 0])
    );
    assert_eq!(d.graph.vertex_count(), 3);
}

#[test]
fn grid_rule_errors() {
    let rule = |body: &str| errors(&format!("{GRID}rule r {body}"));
    assert_eq!(
        rule("{ (a:n @0,0) -- (b:n) => (a) -- (b) }"),
        ["grid rule `r`: pattern vertex `b` has no offset"]
    );
    assert_eq!(
        rule("{ (a:n @0,0), (b:n @0,0) => (a), (b) }"),
        ["grid rule `r`: two pattern vertices share offset @0,0"]
    );
    assert_eq!(
        rule("orient any { (a:n) -- (b:n) => (a) -- (b) }"),
        ["rule `r`: `orient any` and `mirror` need grid offsets"]
    );
    assert_eq!(
        rule("{ (a:n @0,0) => (a) -- (b:r) }"),
        ["new vertex `b` of grid rule `r` needs an offset"]
    );
    assert_eq!(
        rule("{ (a:n @0,0) => (a:r @1,0) }"),
        ["vertex `a` keeps its cell; its offset cannot change"]
    );
    assert_eq!(
        rule("{ (a:n @0,0) => (a) -- (b:r @0,0) }"),
        ["new vertex `b` takes offset @0,0, which another vertex has"]
    );
    assert_eq!(
        errors("grammar \"g\" { grid 9 x 9 of n max_vertices 10 }\ntags { n }\n"),
        ["the grid 9 x 9 has more vertices than max_vertices 10"]
    );
}

#[test]
fn cells_survive_every_output() {
    let g = load(&format!(
        "{GRID}rule step orient any max_uses 3 {{ (a:n @0,0), (b:n @1,0) => (a:r) -- (b:r) }}"
    ));
    let d = derive(&g, 4).unwrap();
    let doc = MissionDoc::from_derivation(&d);
    assert!(doc.nodes.iter().all(|n| n.cell.is_some()));
    let back = MissionDoc::from_json(&doc.to_json())
        .unwrap()
        .to_graph()
        .unwrap();
    for v in d.graph.vertex_ids() {
        assert_eq!(
            back.vertex(v).unwrap().cell,
            d.graph.vertex(v).unwrap().cell
        );
    }
    let text = to_graph_text(&d.graph, &[]);
    // Records in id order, which is the grid's reading order; tiles are the cells.
    assert!(text.starts_with("GRAPH "), "{text}");
    assert!(
        text.contains("(x=1, y=0, tileX=1, tileY=0)")
            && text.contains("(x=4, y=4, tileX=4, tileY=4) edge("),
        "{text}"
    );
    assert_eq!(text.matches("edge(").count(), 3);
    let mut clash = doc.clone();
    clash.nodes[1].cell = clash.nodes[0].cell;
    assert_eq!(
        clash.to_graph().unwrap_err(),
        MissionError::DuplicateCell {
            index: 1,
            cell: [0, 0]
        }
    );
}

/// A host that starts large (here a 100 × 100 grid) under a huge
/// `max_vertices` reserved room for 64 times its size at the first
/// application: a 3000 × 3000 grid asked for one 50 GB allocation and
/// aborted. The room reserved at once is now at most 65,536 vertices.
#[test]
fn a_large_grid_reserves_a_bounded_room() {
    let g = load(
        "grammar \"g\" { grid 100 x 100 of n max_vertices 4000000 max_iterations 1 }\n\
         tags { n r }\n\
         rule a { (a:n @0,0) => (a:r) }\n",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), 10_000);
    assert!(
        d.graph.vertex_capacity() <= 2 * 65_536,
        "{} vertex slots reserved",
        d.graph.vertex_capacity()
    );
}

/// Host cells near `i32::MAX` are refused: a grid rule's new vertex one
/// million cells to the right of [2147483647, 2147483647] was placed at
/// [-2146483649, 2147483647] (wrapped around; a panic in a debug build).
#[test]
fn host_cells_beyond_a_billion_are_rejected() {
    let text = |x: i64| {
        format!(
            r#"{{"format": "levelgraph.mission/1", "grammar": "g", "seed": 0,
                "stop_reason": "no_rule_applies", "stop_detail": "", "applications": 0,
                "nodes": [{{"id": 0, "tag": "n", "cell": [{x}, 0]}}], "edges": []}}"#
        )
    };
    for x in [2_147_483_647, -2_147_483_648, 1_000_000_001] {
        let doc = MissionDoc::from_json(&text(x)).unwrap();
        let err = doc.to_graph().unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "nodes[0] (id 0): cell [{x}, 0] is outside the drawing: \
                 cell coordinates are whole numbers from -1000000000 to 1000000000"
            )
        );
        assert!(matches!(
            err,
            MissionError::BadGeometry {
                value: GeometryValue::Cell(_),
                ..
            }
        ));
    }
    let g = load(
        "grammar \"g\" { grid 2 x 2 of n max_vertices 100 }\ntags { n r }\n\
         rule dig orient any { (a:n @0,0) => (a:r) -- (b:r @1000000,0) }\n",
    );
    let doc = MissionDoc::from_json(&text(1_000_000_000)).unwrap();
    let host = levelgraph::formats::host_for(&doc, &g).unwrap();
    let d = derive_from(&g, host, 1).unwrap();
    for v in d.graph.vertex_ids() {
        let c = d.graph.vertex(v).unwrap().cell.unwrap();
        assert!(c[0] >= 0 && c[0] <= 1_001_000_000, "{c:?}");
    }
}

/// A grid rule that walks a million cells a step used to wrap around at
/// `i32::MAX` (cells from -2146967296 to 2147000000 after 5,000 steps; a
/// panic in a debug build). Cells now stay within ±10⁹: the walk is held
/// back by placement there, and the level reads back as a host.
#[test]
fn grid_rules_stay_within_a_billion_cells() {
    let g = load(
        "grammar \"gw\" { grid 1 x 1 of n max_vertices 100000 max_iterations 5000 }\n\
         tags { n r }\n\
         rule first { (a:n @0,0) => (a:r) }\n\
         rule walk { (a:r @0,0) where not (a) -> (x:r) => (a) -> (b:r @1000000,0) }\n",
    );
    let d = derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), 1001);
    let xs: Vec<i32> = d
        .graph
        .vertex_ids()
        .map(|v| d.graph.vertex(v).unwrap().cell.unwrap()[0])
        .collect();
    assert_eq!(
        (xs.iter().min(), xs.iter().max()),
        (Some(&0), Some(&1_000_000_000))
    );
    assert!(
        d.stop.to_string().contains("held back by placement"),
        "{}",
        d.stop
    );
    let doc = MissionDoc::from_derivation(&d);
    assert!(levelgraph::formats::host_for(&doc, &g).is_ok());
}

/// Grid offsets beyond ±`MAX_OFFSET` are refused in JSON grammars as the
/// text parser refuses them, with the vertex's field path: an offset of
/// `i32::MIN` used to overflow when a rule was turned.
#[test]
fn json_grid_offsets_beyond_a_million_are_refused() {
    let g = load(
        "grammar \"g\" { grid 3 x 3 of u }\n\
         tags { u room }\n\
         rule r orient any { (a:u @0,0) -- (b:u @1,0) => (a:room @0,0) -- (b:room @1,0) }",
    );
    let json = g.model().to_json();
    let mut doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    doc["rules"][0]["lhs"]["vertices"][0]["offset"] = serde_json::json!([i32::MIN, 0]);
    let far = doc.to_string();
    let err = match grammar::load_json(&far) {
        Ok(_) => panic!("loaded:\n{far}"),
        Err(e) => e.to_string(),
    };
    assert!(err.contains("beyond ±1000000"), "{err}");
    assert!(err.contains("rules[0].lhs.vertices[0]"), "{err}");
    // In range, the same document loads.
    assert!(grammar::load_json(&json).is_ok());
}
