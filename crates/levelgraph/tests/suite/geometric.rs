//! Geometric derivation (issue 4): the self-intersection test on
//! hand-made drawings, flipped matches never applied, every accepted
//! drawing plane and free of overlapping rooms (checked here by an
//! independent test), determinism, and the `geometric` header block.

use crate::common;
#[allow(dead_code)] // the harnesses' helpers; the tests use `grown_grammar`
#[path = "../../benches/support/mod.rs"]
mod support;

use levelgraph::geometric::{self, check_drawing, segments_cross, GeometrySettings, SpringShape};
use levelgraph::graph::Point;
use levelgraph::{grammar, CompiledGrammar, DeriveError, Graph, VertexId};

fn load(src: &str) -> CompiledGrammar {
    grammar::load(src, "geo").unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn errors(src: &str) -> Vec<String> {
    grammar::load(src, "geo")
        .err()
        .map(|e| e.diagnostics.into_iter().map(|d| d.message).collect())
        .unwrap_or_default()
}

/// A graph with the given positions (one `room` per point), edges and radii.
fn drawn(points: &[Point], edges: &[(usize, usize)], radius: f64) -> (Graph, Vec<VertexId>) {
    let mut g = Graph::new();
    let ids: Vec<VertexId> = points.iter().map(|_| g.add_vertex_named("room")).collect();
    for (&v, &p) in ids.iter().zip(points) {
        let x = g.vertex_mut(v).unwrap();
        x.position = Some(p);
        x.radius = Some(radius);
    }
    for &(a, b) in edges {
        g.connect(ids[a], ids[b], false);
    }
    (g, ids)
}

#[test]
fn the_intersection_test_on_hand_made_drawings() {
    // A square with both diagonals: the diagonals cross; the sides do not.
    let square = [[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
    let (g, _) = drawn(
        &square,
        &[(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (1, 3)],
        1.0,
    );
    let c = geometric::check_graph(&g);
    assert_eq!(c.crossings.len(), 1, "{c:?}");
    assert!(c.overlaps.is_empty());
    assert!(!c.passes());
    // The square alone passes.
    let (g, _) = drawn(&square, &[(0, 1), (1, 2), (2, 3), (3, 0)], 1.0);
    assert!(geometric::check_graph(&g).passes());
    // Radii 2.5 on sides of 4: neighbours overlap (diagonal pairs at 5.66 do not).
    let (g, _) = drawn(&square, &[(0, 1), (1, 2), (2, 3), (3, 0)], 2.5);
    assert_eq!(geometric::check_graph(&g).overlaps.len(), 4);
    // Edges sharing a vertex never count, even when collinear.
    let (g, _) = drawn(
        &[[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]],
        &[(0, 1), (1, 2), (0, 2)],
        0.1,
    );
    assert!(geometric::check_graph(&g).crossings.is_empty());
    // A T-junction of two edges without a shared vertex counts.
    let (g, _) = drawn(
        &[[0.0, 0.0], [4.0, 0.0], [2.0, 0.0], [2.0, 3.0]],
        &[(0, 1), (2, 3)],
        0.1,
    );
    assert_eq!(geometric::check_graph(&g).crossings.len(), 1);
    // Cosmetic edges are not corridors.
    let (mut g, ids) = drawn(&square, &[(0, 2)], 1.0);
    g.add_edge(levelgraph::Edge {
        source: ids[1],
        target: ids[3],
        directed: true,
        cosmetic: true,
        label: None,
        length_factor: 1.0,
    });
    assert!(geometric::check_graph(&g).passes());
    // Given positions and radii instead of the stored ones.
    let (g, ids) = drawn(&square, &[(0, 1), (2, 3)], 1.0);
    let mut positions = vec![None; g.vertex_bound()];
    for (&v, p) in ids
        .iter()
        .zip([[0.0, 0.0], [4.0, 4.0], [0.0, 4.0], [4.0, 0.0]])
    {
        positions[v.index()] = Some(p);
    }
    let radii = vec![Some(0.5); g.vertex_bound()];
    assert_eq!(check_drawing(&g, &positions, &radii).crossings.len(), 1);
}

/// An independent test: proper intersection by solving for the two
/// segment parameters, overlaps by distance.
fn plane_and_apart(g: &Graph) -> Result<(), String> {
    let top = |mut v: VertexId| {
        while let Some(p) = g.parent(v) {
            v = p;
        }
        v
    };
    let pos = |v: VertexId| {
        g.vertex(v)
            .and_then(|x| x.position)
            .ok_or(format!("{v:?} has no position"))
    };
    let mut segments = Vec::new();
    for (_, e) in g.edges().filter(|(_, e)| !e.cosmetic) {
        let (a, b) = (top(e.source), top(e.target));
        if a != b {
            segments.push((a, b, pos(a)?, pos(b)?));
        }
    }
    for (i, &(a, b, p, q)) in segments.iter().enumerate() {
        for &(c, d, r, s) in &segments[i + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            let (ux, uy, vx, vy) = (q[0] - p[0], q[1] - p[1], s[0] - r[0], s[1] - r[1]);
            let den = ux * vy - uy * vx;
            if den.abs() < 1e-12 {
                continue; // parallel: the shared test covers collinear overlap
            }
            let t = ((r[0] - p[0]) * vy - (r[1] - p[1]) * vx) / den;
            let u = ((r[0] - p[0]) * uy - (r[1] - p[1]) * ux) / den;
            if (0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u) {
                return Err(format!("{a:?}-{b:?} crosses {c:?}-{d:?}"));
            }
        }
    }
    let rooms: Vec<(VertexId, Point, f64)> = g
        .vertices()
        .filter(|(_, x)| x.parent.is_none())
        .map(|(v, x)| Ok((v, pos(v)?, x.radius.ok_or(format!("{v:?} has no radius"))?)))
        .collect::<Result<_, String>>()?;
    for (i, &(v, p, r)) in rooms.iter().enumerate() {
        for &(w, q, s) in &rooms[i + 1..] {
            let d = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
            if d < r + s {
                return Err(format!("rooms {v:?} and {w:?} overlap: {d} < {r} + {s}"));
            }
        }
    }
    for (v, x) in g.vertices() {
        if x.parent.is_some() && x.position != g.vertex(top(v)).and_then(|t| t.position) {
            return Err(format!("stored {v:?} is not at its room"));
        }
    }
    Ok(())
}

#[test]
fn every_accepted_drawing_is_plane_and_its_rooms_apart() {
    // Seeds 1..=40 of every example that is not a grid grammar, with both
    // springs (BENCHMARKS.md has seeds 1..=1000 in release).
    for (name, text) in common::example_sources() {
        let g = load(&text);
        if g.grid().is_some() {
            continue;
        }
        for spring in [SpringShape::Logarithmic, SpringShape::Sigmoid] {
            let mut settings = g.model().geometry.clone().unwrap_or_default();
            settings.spring = spring;
            let mut passed = 0;
            for seed in 1..=40 {
                match geometric::derive(&g, seed, &settings) {
                    Ok(d) => {
                        passed += 1;
                        assert!(d.attempts >= 1 && d.attempts <= settings.retries + 1);
                        if let Err(e) = plane_and_apart(&d.derivation.graph) {
                            panic!("{name} seed {seed} ({spring:?}): {e}");
                        }
                    }
                    Err(DeriveError::Drawing { .. }) => {
                        panic!("{name} seed {seed} ({spring:?}): no attempt passed")
                    }
                    // The rewriting failed its limits (dormans2010's move
                    // rules rewire paths, which a plane drawing refuses).
                    Err(_) => {}
                }
            }
            if name != "dormans2010" {
                assert!(
                    passed >= 36,
                    "{name} ({spring:?}): only {passed}/40 derived"
                );
            }
        }
    }
}

/// The wheel rule (`examples/wheel.lg`'s `spoke`) on a hand-drawn triangle
/// hub–rim–rim.
fn spoke_grammar() -> CompiledGrammar {
    load(
        r#"
grammar "spoke" { max_iterations 1 geometric { retries 0 } }
tags { s "start" hub "hub" rim "rim" new "new rim" }
rule start { (a:s) => (a:hub) -- (b:rim) -- (c:rim) -- (a) }
rule spoke {
  (a:hub) -- (b:rim), (a) -- (c:rim), (b) -- (c)
  =>
  (a) -- (b), (a) -- (c), (b) -- (c), (a) -- (d:new), (c) -- (d)
}
"#,
    )
}

/// A host triangle: hub at the origin, rims at `p` and `q`.
fn triangle(g: &CompiledGrammar, p: Point, q: Point) -> (Graph, [VertexId; 3]) {
    let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
    let hub = host.add_vertex_named("hub");
    let b1 = host.add_vertex_named("rim");
    let b2 = host.add_vertex_named("rim");
    for (v, at) in [(hub, [0.0, 0.0]), (b1, p), (b2, q)] {
        host.vertex_mut(v).unwrap().position = Some(at);
    }
    host.connect(hub, b1, false);
    host.connect(hub, b2, false);
    host.connect(b1, b2, false);
    (host, [hub, b1, b2])
}

#[test]
fn a_flipped_match_is_never_applied() {
    let g = spoke_grammar();
    let settings = g.model().geometry.clone().unwrap();
    // The triangle and its mirror image. In each, two matches map the
    // pattern onto the same three vertices, one of them flipped; whatever
    // the seed, only the unflipped one is applied, and it is the other
    // ordered pair in the mirror image.
    let mut chosen = Vec::new();
    for (p, q) in [([3.0, 0.0], [0.0, 3.0]), ([0.0, 3.0], [3.0, 0.0])] {
        let mut pairs = Vec::new();
        for seed in 1..=30 {
            let (host, [hub, _, _]) = triangle(&g, p, q);
            let d = geometric::derive_from(&g, host, seed, &settings)
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
                .derivation;
            let a = d.trace.first().expect("one application");
            assert_eq!(a.rule, "spoke");
            assert_eq!(a.matched[0], hub);
            pairs.push((a.matched[1], a.matched[2]));
            assert!(plane_and_apart(&d.graph).is_ok());
        }
        pairs.dedup();
        assert_eq!(pairs.len(), 1, "both matches were applied: {pairs:?}");
        chosen.push(pairs[0]);
    }
    assert_eq!(
        chosen[0],
        (chosen[1].1, chosen[1].0),
        "the mirror image takes the other match"
    );
}

#[test]
fn same_seed_same_drawing() {
    let g = load(grammar::DEFAULT_GRAMMAR);
    let settings = GeometrySettings::default();
    for seed in 1..=5 {
        let a = geometric::derive(&g, seed, &settings).unwrap().derivation;
        let b = geometric::derive(&g, seed, &settings).unwrap().derivation;
        let doc = |d: &levelgraph::Derivation| {
            levelgraph::formats::MissionDoc::from_derivation(d).to_json()
        };
        assert_eq!(doc(&a), doc(&b), "seed {seed}");
        assert!(doc(&a).contains("\"radius\""));
    }
}

#[test]
fn the_header_block_and_its_errors() {
    let g = load(
        r#"grammar "g" {
  geometric {
    spring logarithmic
    steps 20
    finish_steps 100
    room_radius 1.5..2.5
    radius goal 3
    radius key 0.5..0.75
    margin 0.25
    retries 4
  }
}
tags { s "s" goal "goal" key "key" }
rule start { (a:s) => (a:goal) -- (k:key) }
"#,
    );
    let s = g.model().geometry.clone().expect("geometric");
    assert_eq!(s.spring, SpringShape::Logarithmic);
    assert_eq!((s.steps, s.finish_steps, s.retries), (20, 100, 4));
    assert_eq!(s.room_radius, [1.5, 2.5]);
    assert_eq!(s.tag_radius.get("goal"), Some(&[3.0, 3.0]));
    assert_eq!(s.tag_radius.get("key"), Some(&[0.5, 0.75]));
    assert_eq!(s.margin, 0.25);
    // The JSON form keeps it.
    let back = grammar::load_json(&g.model().to_json()).expect("JSON form loads");
    assert_eq!(back.model().geometry, g.model().geometry);
    // A derivation of it: radii from the tag ranges.
    let d = levelgraph::derive(&g, 1).unwrap();
    for (_, v) in d.graph.vertices() {
        let r = v.radius.expect("radius");
        match d.graph.tags().name(v.tag) {
            "goal" => assert_eq!(r, 3.0),
            "key" => assert!((0.5..=0.75).contains(&r)),
            other => panic!("unexpected tag {other}"),
        }
    }

    let tags = r#"tags { s "s" room "room" } rule start { (a:s) => (a:room) -- (b:room) }"#;
    let cases = [
        (
            "geometric { wobble 3 }",
            "unknown geometric setting `wobble`",
        ),
        ("geometric { spring stiff }", "unknown spring `stiff`"),
        (
            "geometric { room_radius 2..1 }",
            "`room_radius` range 2..1 is empty",
        ),
        (
            "geometric { room_radius 0 }",
            "`room_radius` must be a number greater than 0",
        ),
        ("geometric { margin 1 margin 2 }", "`margin` is set twice"),
        ("geometric { radius boss 2 }", "unknown tag `boss`"),
        (
            "geometric grid 2 x 2 of room",
            "a grid grammar cannot be `geometric`",
        ),
    ];
    for (header, message) in cases {
        let src = format!("grammar \"g\" {{ {header} }}\n{tags}");
        let found = errors(&src);
        assert!(found.iter().any(|m| m == message), "{header}: {found:?}");
    }
}

#[test]
fn segments_cross_is_symmetric_and_exact_on_touching() {
    let cases = [
        ([0.0, 0.0], [2.0, 2.0], [0.0, 2.0], [2.0, 0.0], true),
        ([0.0, 0.0], [1.0, 0.0], [1.0, 0.0], [2.0, 5.0], true),
        ([0.0, 0.0], [1.0, 0.0], [1.0 + 1e-9, 0.0], [2.0, 5.0], false),
    ];
    for (a, b, c, d, want) in cases {
        for (p, q, r, s) in [(a, b, c, d), (c, d, a, b), (b, a, d, c)] {
            assert_eq!(segments_cross(p, q, r, s), want, "{p:?}{q:?} {r:?}{s:?}");
        }
    }
}

#[test]
fn subdivided_edges_take_the_mean_factor_of_what_they_replace() {
    let g = load(
        r#"
grammar "split" { max_iterations 3 }
tags { s "s" room "room" }
rule start { (a:s) => (a:room) -- (b:room) }
rule split {
  (a:room) -- (b:room)
  =>
  (a) -- {length: 0.5} (x:room) -- (b)
}
"#,
    );
    let d = levelgraph::derive(&g, 1).unwrap();
    // Three applications: start (factor 1), then two splits. The edge with
    // `{length: 0.5}` gets half the replaced edge's factor; the other new
    // edge gets 1.
    let mut factors: Vec<f64> = d.graph.edges().map(|(_, e)| e.length_factor).collect();
    factors.sort_by(f64::total_cmp);
    let halves = factors.iter().filter(|&&f| f == 0.5 || f == 0.25).count();
    assert_eq!(factors.len(), 3, "{factors:?}");
    assert!(halves >= 1, "{factors:?}");
    assert!(
        factors.iter().all(|&f| [0.25, 0.5, 1.0].contains(&f)),
        "{factors:?}"
    );
    // Split the 0.5 edge and its new half is 0.25: seed over seeds until it happens.
    let quarter = (1..=40).any(|seed| {
        levelgraph::derive(&g, seed)
            .unwrap()
            .graph
            .edges()
            .any(|(_, e)| e.length_factor == 0.25)
    });
    assert!(quarter, "no seed split a subdivided edge again");

    let rules = r#"tags { s "s" room "room" } rule start { (a:s) => (a:room) -- (b:room) }"#;
    let cases = [
        (
            "rule r { (a:room) -- {length: 2} (b:room) => (a) -- (b) -- (x:room) }",
            "an edge of a pattern cannot have a length",
        ),
        (
            "rule r { (a:room) -- (b:room) where not (b) -- {length: 2} (c:room) => (a) -- (b) -- (x:room) }",
            "an edge of a `where not` condition cannot have a length",
        ),
        (
            "rule r { (a:room) -- (b:room) => (a) -- {length: 2} (b) -- (x:room) }",
            "edge between `a` and `b` is kept from the pattern, so it keeps its length factor",
        ),
    ];
    for (rule, message) in cases {
        let found = errors(&format!("{rules}\n{rule}"));
        assert!(found.iter().any(|m| m == message), "{rule}: {found:?}");
    }
    let found = errors(&format!(
        "{rules}\nrule r {{ (a:room) -- (b:room) => (a) -- {{length: 0}} (x:room) -- (b) }}"
    ));
    assert!(
        found
            .iter()
            .any(|m| m == "`length` must be a number greater than 0"),
        "{found:?}"
    );
}

#[test]
fn offsets_give_a_rule_its_own_drawing() {
    // In a geometric grammar `@dx,dy` is where a vertex sits in the rule's
    // drawing (not a grid cell): `x` goes on the side of a→b its offset
    // says, in the host's frame, whatever the host edge's direction.
    let g = load(
        r#"
grammar "at" { max_iterations 1 geometric { steps 0 finish_steps 0 retries 0 } }
tags { s "s" room "room" peak "peak" }
rule bump {
  (a:room @0,0) -- (b:room @2,0)
  =>
  (a) -- (x:peak @1,-1) -- (b), (a) -- (b)
}
"#,
    );
    let settings = g.model().geometry.clone().unwrap();
    for (pa, pb) in [
        ([0.0, 0.0], [4.0, 0.0]),
        ([1.0, 1.0], [1.0, 5.0]),
        ([0.0, 0.0], [-3.0, -3.0]),
    ] {
        let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
        let a = host.add_vertex_named("room");
        let b = host.add_vertex_named("room");
        host.vertex_mut(a).unwrap().position = Some(pa);
        host.vertex_mut(b).unwrap().position = Some(pb);
        host.connect(a, b, false);
        let d = geometric::derive_from(&g, host, 1, &settings)
            .unwrap()
            .derivation;
        let a_to_b = d
            .trace
            .first()
            .map(|x| (x.matched[0], x.matched[1]))
            .unwrap();
        let pos = |v: VertexId| d.graph.vertex(v).unwrap().position.unwrap();
        let x = d
            .graph
            .vertex_ids()
            .find(|&v| d.graph.tags().name(d.graph.tag(v)) == "peak")
            .unwrap();
        let (p, q, r) = (pos(a_to_b.0), pos(a_to_b.1), pos(x));
        // The drawing's coordinates are the picture's (y down), the same
        // as the offsets': @1,-1 is on the side where the cross product
        // (a→b) × (a→x) is negative, as (2,0) × (1,-1) = -2.
        let cross = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
        assert!(cross < 0.0, "{pa:?}->{pb:?}: x at {r:?}, cross {cross}");
        // Halfway along a→b, at half its length from it.
        let mid = [(p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0];
        let ab = ((q[0] - p[0]).powi(2) + (q[1] - p[1]).powi(2)).sqrt();
        let off = ((r[0] - mid[0]).powi(2) + (r[1] - mid[1]).powi(2)).sqrt();
        assert!((off / ab - 0.5).abs() < 1e-9, "{off} vs {ab}");
    }
    let found = errors(
        r#"grammar "g" { geometric } tags { s "s" room "room" }
rule r orient any { (a:room @0,0) -- (b:room @1,0) => (a) -- (x:room @0,1) -- (b) }"#,
    );
    assert!(
        found.iter().any(|m| m == "rule `r`: `orient any` and `mirror` belong to grid rules, not to a geometric grammar"),
        "{found:?}"
    );
}

#[test]
fn every_rule_a_plain_derivation_uses_is_placed_plane_somewhere() {
    // A rule whose own drawing crossed itself could never be placed, and
    // would silently vanish from geometric levels (as `cycle` of the
    // default grammar once did). dormans2010 is left out: its path
    // reordering rules really cannot be drawn plane (language reference,
    // section 17.3).
    for (name, text) in common::example_sources() {
        let g = load(&text);
        if g.grid().is_some() || name == "dormans2010" {
            continue;
        }
        let rules_of = |geometric_run: bool| {
            let mut used = std::collections::BTreeSet::new();
            for seed in 1..=25 {
                let mut settings = g.model().geometry.clone().unwrap_or_default();
                settings.retries = 2;
                let d = if geometric_run {
                    geometric::derive(&g, seed, &settings).map(|d| d.derivation)
                } else {
                    // The grammar without its geometry: a plain derivation.
                    let mut model = g.model().clone();
                    model.geometry = None;
                    let plain = grammar::compile(&model).expect("compiles");
                    levelgraph::derive(&plain, seed)
                };
                if let Ok(d) = d {
                    used.extend(d.trace.iter().map(|a| a.rule.as_str().to_owned()));
                }
            }
            used
        };
        let (plain, drawn) = (rules_of(false), rules_of(true));
        let missing: Vec<_> = plain.difference(&drawn).collect();
        assert!(
            missing.is_empty(),
            "{name}: never applied geometrically: {missing:?}"
        );
    }
}

#[test]
fn containment_keeps_the_drawing_plane() {
    // A kept room stored in the hall takes its corridors to the hall: they
    // are checked as new corridors, so every result is still plane.
    let stow = load(
        r#"
grammar "stow" { max_iterations 6 geometric { retries 0 } }
tags { s "s" hall "hall" room "room" key "key" }
rule start { (a:s) => (a:hall) -- (b:room) -- (c:room) -- (a), (b) -- (d:room) }
rule grow { (r:room) -- (x:*) => (r) -- (n:room) -- (x) }
rule stow { (h:hall) -- (k:room) => (h) -- (k), (k) in (h) }
rule stash { (r:room) -- (x:*) => (r) -- (x), (k:key) in (r) }
"#,
    );
    let settings = stow.model().geometry.clone().unwrap();
    let mut used = std::collections::BTreeSet::new();
    for seed in 1..=40 {
        let d = geometric::derive(&stow, seed, &settings)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"))
            .derivation;
        plane_and_apart(&d.graph).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        used.extend(d.trace.iter().map(|a| a.rule.as_str().to_owned()));
    }
    // A start rule with a room hanging off a new room, a new key stored in
    // a room, and a kept room stored in the hall are all placed.
    for rule in ["start", "stow", "stash"] {
        assert!(used.contains(rule), "{rule} never applied: {used:?}");
    }
    // Taking a vertex out of its room would put it on top of the room: not
    // applied geometrically (it is applied in a plain derivation).
    let text = r#"
grammar "unstash" { max_iterations 4 min_vertices 1 }
tags { s "s" room "room" key "key" }
rule start { (a:s) => (a:room) -- (b:room), (k:key) in (a) }
rule drop { (k:key) in (r:room) => (k), (r) -- (k) }
"#;
    let plain = load(text);
    assert!(levelgraph::derive(&plain, 1)
        .unwrap()
        .trace
        .iter()
        .any(|a| a.rule == "drop"));
    let geo = load(&text.replace("min_vertices 1 }", "min_vertices 1 geometric }"));
    let d = levelgraph::derive(&geo, 1).unwrap();
    assert!(
        d.trace.iter().all(|a| a.rule != "drop"),
        "a lifted key was placed"
    );
}

#[test]
fn odd_host_positions_neither_panic_nor_hang() {
    let g = load(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/wheel.lg"
        ))
        .unwrap(),
    );
    let settings = g.model().geometry.clone().unwrap();
    for far in [1e10, 1e150, f64::NAN, f64::INFINITY] {
        let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
        let a = host.add_vertex_named("hub");
        let b = host.add_vertex_named("rim");
        let c = host.add_vertex_named("rim");
        host.vertex_mut(a).unwrap().position = Some([0.0, 0.0]);
        host.vertex_mut(b).unwrap().position = Some([1.0, 0.0]);
        host.vertex_mut(c).unwrap().position = Some([far, far]);
        host.connect(a, b, false);
        host.connect(a, c, false);
        host.connect(b, c, false);
        // Whatever the outcome, it comes back, and every position is a number.
        if let Ok(d) = geometric::derive_from(&g, host, 1, &settings) {
            for (_, v) in d.derivation.graph.vertices() {
                let p = v.position.expect("position");
                assert!(!p[0].is_nan() && !p[1].is_nan(), "{far}: {p:?}");
            }
        }
    }
    let found = errors(
        r#"grammar "g" { geometric { radius room 1 radius room 2 } } tags { s "s" room "room" }
rule start { (a:s) => (a:room) -- (b:room) }"#,
    );
    assert!(
        found.iter().any(|m| m == "`radius room` is set twice"),
        "{found:?}"
    );
    let found = errors(
        r#"grammar "g" { geometric { room_radius 1..10000000 } } tags { s "s" room "room" }
rule start { (a:s) => (a:room) -- (b:room) }"#,
    );
    assert!(
        found.iter().any(|m| m.starts_with("room_radius 1..")),
        "{found:?}"
    );
}

#[test]
fn a_blocked_placement_falls_back_to_the_mirror_image() {
    // `x` is drawn above a→b (@1,-1); a corridor c–d through that spot
    // forces the mirror image (the pattern, one edge, has no angle to keep).
    let g = load(
        r#"
grammar "side" { max_iterations 1 geometric { steps 0 finish_steps 0 retries 0 } }
tags { s "s" room "room" peak "peak" wall "wall" }
rule bump {
  (a:room @0,0) -- (b:room @2,0)
  =>
  (a) -- (x:peak @1,-1) -- (b), (a) -- (b)
}
"#,
    );
    let settings = g.model().geometry.clone().unwrap();
    let side_of_x = |blocked: bool| {
        let mut host = Graph::with_symbols(g.tags().clone(), g.labels().clone());
        let a = host.add_vertex_named("room");
        let b = host.add_vertex_named("room");
        host.vertex_mut(a).unwrap().position = Some([0.0, 0.0]);
        host.vertex_mut(b).unwrap().position = Some([2.0, 0.0]);
        host.connect(a, b, false);
        if blocked {
            let c = host.add_vertex_named("wall");
            let d = host.add_vertex_named("wall");
            host.vertex_mut(c).unwrap().position = Some([0.2, -1.0]);
            host.vertex_mut(d).unwrap().position = Some([1.8, -1.0]);
            host.connect(c, d, false);
        }
        let d = geometric::derive_from(&g, host, 1, &settings)
            .unwrap()
            .derivation;
        assert_eq!(d.trace.len(), 1, "the rule is applied");
        let (p, q) = {
            let a = d.trace.first().unwrap();
            let at = |v: VertexId| d.graph.vertex(v).unwrap().position.unwrap();
            (at(a.matched[0]), at(a.matched[1]))
        };
        let x = d
            .graph
            .vertex_ids()
            .find(|&v| d.graph.tags().name(d.graph.tag(v)) == "peak")
            .unwrap();
        let r = d.graph.vertex(x).unwrap().position.unwrap();
        ((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])).signum()
    };
    let free = side_of_x(false);
    assert_eq!(side_of_x(true), -free, "the blocked side is avoided");
}

#[test]
fn attempts_have_their_own_seeds() {
    assert_eq!(geometric::attempt_seed(42, 0), 42);
    let seeds: std::collections::BTreeSet<u64> =
        (0..50).map(|k| geometric::attempt_seed(42, k)).collect();
    assert_eq!(seeds.len(), 50);
    assert_ne!(
        geometric::attempt_seed(42, 1),
        geometric::attempt_seed(43, 1)
    );
}

/// The default grammar grown to about `cap` rooms the way the benchmarks
/// grow it (`support::grown_grammar`: `settle` removed, the limits
/// raised).
/// The default grammar as it stood until its mission edges were directed
/// (its rules are those of `tests/data/undirected-dungeon-rooms.lg`), grown
/// to `cap` vertices: the levels the finishing tests below are about.
fn grown_default(cap: usize) -> CompiledGrammar {
    let text = include_str!("../data/undirected-dungeon-rooms.lg");
    load(&support::grown_grammar(text, cap, true))
}

/// Mean |length / ideal − 1| over the corridors between rooms with radii.
fn corridors_off_ideal(graph: &Graph, margin: f64) -> f64 {
    let (mut off, mut corridors) = (0.0, 0);
    for (_, e) in graph.edges().filter(|(_, e)| !e.cosmetic) {
        let (a, b) = (
            graph.vertex(e.source).unwrap(),
            graph.vertex(e.target).unwrap(),
        );
        let (Some(r), Some(s)) = (a.radius, b.radius) else {
            continue;
        };
        let (p, q) = (a.position.unwrap(), b.position.unwrap());
        let length = ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt();
        off += (length / (r + s + margin) - 1.0).abs();
        corridors += 1;
    }
    off / f64::from(corridors.max(1))
}

#[test]
fn squeezed_large_levels_are_evened_out_before_the_scale() {
    // The default grammar grown to ~100 rooms. Before the finishing evened
    // out squeezed drawings (finish.rs, `even_out`), one corridor squeezed
    // to a tenth of its length set the scale of the whole level: seeds 3
    // and 4 ended with corridors 726 % and 133 % off their ideal length on
    // average; evened out, 35 % each.
    let g = grown_default(100);
    let settings = GeometrySettings::default();
    for (seed, bound) in [(3, 0.6), (4, 0.6)] {
        let d = geometric::derive(&g, seed, &settings).unwrap();
        assert!(
            d.derivation.graph.vertex_count() >= 90,
            "seed {seed}: a small level"
        );
        let off = corridors_off_ideal(&d.derivation.graph, settings.margin);
        assert!(
            off < bound,
            "seed {seed}: corridors {:.0} % off their ideal length",
            100.0 * off
        );
    }
}

#[test]
fn the_evening_out_keeps_every_step_on_the_worst_levels() {
    // Levels whose 10 evening-out steps make corridors cross and are
    // undone. Tried again with 2 steps, then 1, they kept 2, 1 or none,
    // and were the worst finished of seeds 1..=60 grown to ~100 rooms
    // (12: 151 %, 38: 189 % off their ideal length) and to ~125 rooms
    // (19: 328 %, 28: 310 %). Tried again with 10 steps each bounded so
    // that none makes corridors cross (finish.rs, `EVEN_OUT_SHARE`): 25 %,
    // 32 %, 26 % and 23 %.
    let settings = GeometrySettings::default();
    for (cap, seeds) in [(100, [12, 38]), (200, [19, 28])] {
        let g = grown_default(cap);
        for seed in seeds {
            let d = geometric::derive(&g, seed, &settings).unwrap();
            assert_eq!(d.attempts, 1, "seed {seed}: passes at its first try");
            // One relaxation per application, the evening-out's two tries
            // (its first was undone) and the last relaxation.
            assert_eq!(
                d.relax.relaxations as usize,
                d.derivation.trace.len() + 3,
                "seed {seed}: the evening-out is tried twice"
            );
            assert!(
                d.derivation.graph.vertex_count() >= 100,
                "seed {seed}: a small level"
            );
            let off = corridors_off_ideal(&d.derivation.graph, settings.margin);
            assert!(
                off < 0.5,
                "grown to {cap}, seed {seed}: corridors {:.0} % off their ideal length",
                100.0 * off
            );
        }
    }
}

/// A geometric grammar whose start rule can never be drawn plane (its
/// right-hand side is K5) used to make one-vertex levels and exit 0: the
/// lint's error checks, which `generate` runs, now refuse it at the rule.
/// So is a planar wheel of three rooms around a hub, which the forces
/// draw with the hub outside (the derivation held it back too); drawn by
/// offsets it passes, as does a triangle and every example.
#[test]
fn a_start_rule_that_cannot_be_drawn_is_an_error() {
    let k5 = "grammar \"k5\" { geometric }\ntags { s room }\n\
              rule start { (a:s) => (a:room) -- (b:room) -- (c:room) -- (d:room) -- (e:room) -- (a), \
              (a) -- (c), (a) -- (d), (b) -- (d), (b) -- (e), (c) -- (e) }\n";
    let g = load(k5);
    let errors = levelgraph::lint::errors(&g);
    assert_eq!(errors.len(), 1, "{errors:?}");
    let line = errors[0].render_plain("k5.lg", k5);
    assert!(
        line.starts_with("k5.lg:3:6: error: rule `start`: no right-hand side can be drawn"),
        "{line}"
    );
    let d = levelgraph::derive(&g, 1).unwrap();
    assert_eq!(d.graph.vertex_count(), 1, "the derivation holds it back");
    // The same rule without `geometric` is fine: nothing is drawn.
    let plain = load(&k5.replace(" geometric ", " "));
    assert!(levelgraph::lint::errors(&plain).is_empty());
    let wheel = "grammar \"w\" { geometric }\ntags { s room }\n\
                 rule start { (h:s) => (h:room) -- (a:room) -- (b:room) -- (c:room) -- (a), (h) -- (b), (h) -- (c) }\n";
    assert_eq!(levelgraph::lint::errors(&load(wheel)).len(), 1);
    let drawn = "grammar \"w\" { geometric }\ntags { s room }\n\
                 rule start { (h:s @0,0) => (h:room @0,0) -- (a:room @0,2) -- (b:room @2,-1) -- (c:room @-2,-1) -- (a), (h) -- (b), (h) -- (c) }\n";
    let g = load(drawn);
    assert!(levelgraph::lint::errors(&g).is_empty());
    assert_eq!(levelgraph::derive(&g, 1).unwrap().graph.vertex_count(), 4);
    let triangle = "grammar \"t\" { geometric }\ntags { s room }\n\
                    rule start { (h:s) => (h:room) -- (a:room) -- (b:room) -- (h) }\n";
    assert!(levelgraph::lint::errors(&load(triangle)).is_empty());
    for (name, text) in common::example_sources() {
        let g = grammar::load(&text, &name).unwrap();
        assert!(levelgraph::lint::errors(&g).is_empty(), "{name}");
    }
}
