//! Interchange formats: GraphML (parsed back with quick-xml, and a golden
//! file), the one-line `GRAPH …` text export (golden files), and mission JSON read
//! back as a host graph that a grammar goes on rewriting.
//!
//! Golden files live in `tests/golden/`; after an intended format change,
//! rerun with `UPDATE_GOLDEN=1` and review the diff.

use crate::common;

use std::collections::BTreeMap;

use levelgraph::alphabet::{Alphabet, TagStyle};
use levelgraph::derive::derive_from;
use levelgraph::drawing::{force_layout, ForceConfig};
use levelgraph::formats::{host_for, to_graph_text, to_graphml, MissionDoc, MissionError};
use levelgraph::graph::{Edge, Graph, VertexId};
use proptest::prelude::*;
use quick_xml::events::Event;
use quick_xml::Reader;

// ---------------------------------------------------------------- helpers

/// An XML element read back: name, attributes, text and children.
#[derive(Debug, Default)]
struct Element {
    name: String,
    attributes: BTreeMap<String, String>,
    text: String,
    children: Vec<Element>,
}

impl Element {
    fn children_named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a Element> + 'a {
        self.children.iter().filter(move |c| c.name == name)
    }

    fn attr(&self, key: &str) -> &str {
        self.attributes
            .get(key)
            .unwrap_or_else(|| panic!("<{}> lacks {key}", self.name))
    }

    /// `key → text` of the `<data>` children.
    fn data(&self) -> BTreeMap<String, String> {
        self.children_named("data")
            .map(|d| (d.attr("key").to_owned(), d.text.clone()))
            .collect()
    }
}

/// Parses `text` with quick-xml and checks what makes XML well-formed:
/// only XML 1.0 characters, matching end tags, well-formed attributes
/// without repeats, known entity references, exactly one root element.
/// **Panics** (failing the test) otherwise.
fn parse_xml(text: &str) -> Element {
    for c in text.chars() {
        let ok =
            matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}');
        assert!(ok, "character {c:?} is not allowed in XML 1.0");
    }
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut stack: Vec<Element> = vec![Element::default()]; // the document
    let open = |e: &quick_xml::events::BytesStart<'_>| {
        let mut el = Element {
            name: String::from_utf8(e.name().as_ref().to_vec()).unwrap(),
            ..Element::default()
        };
        for a in e.attributes() {
            let a = a.expect("well-formed attribute");
            let key = String::from_utf8(a.key.as_ref().to_vec()).unwrap();
            let value = a.unescape_value().expect("known references").into_owned();
            assert!(
                el.attributes.insert(key.clone(), value).is_none(),
                "attribute {key} repeated"
            );
        }
        el
    };
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Decl(_) | Event::Comment(_) => {}
            Event::Start(e) => {
                let el = open(&e);
                stack.push(el);
            }
            Event::Empty(e) => {
                let el = open(&e);
                stack.last_mut().unwrap().children.push(el);
            }
            Event::End(_) => {
                let el = stack.pop().unwrap();
                assert!(!stack.is_empty(), "end tag without start");
                stack.last_mut().unwrap().children.push(el);
            }
            Event::Text(t) => stack.last_mut().unwrap().text += &t.decode().unwrap(),
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref().expect("valid character reference") {
                    Some(c) => c.to_string(),
                    None => {
                        let name = r.decode().unwrap();
                        quick_xml::escape::resolve_xml_entity(&name)
                            .unwrap_or_else(|| panic!("unknown entity &{name};"))
                            .to_owned()
                    }
                };
                stack.last_mut().unwrap().text += &resolved;
            }
            Event::Eof => break,
            other => panic!("unexpected XML event {other:?}"),
        }
    }
    assert_eq!(stack.len(), 1, "unclosed elements");
    let mut doc = stack.pop().unwrap();
    assert!(doc.text.trim().is_empty(), "text outside the root element");
    assert_eq!(doc.children.len(), 1, "exactly one root element");
    doc.children.pop().unwrap()
}

fn alphabet() -> Alphabet {
    let style = |name: &str, color: &str| TagStyle {
        name: name.into(),
        description: name.into(),
        color: color.into(),
    };
    Alphabet {
        tags: vec![style("room", "#90a4ae"), style("lock", "#c62828")],
    }
}

/// A small graph with everything the formats must carry: a hole in the
/// ids, a position, attributes (one called `color`, one full of characters
/// XML must escape or cannot carry), a tag the alphabet lacks, a label, a
/// length factor, directed and cosmetic edges and a self-loop.
fn small_graph() -> Graph {
    let mut g = Graph::new();
    let room = g.add_vertex_named("room");
    let gone = g.add_vertex_named("room");
    let lock = g.add_vertex_named("lock");
    let key = g.add_vertex_named("key");
    g.remove_vertex(gone);
    let v = g.vertex_mut(room).unwrap();
    v.position = Some([1.5, -2.0]);
    v.attributes.insert("color".into(), "red".into());
    v.attributes.insert(
        "note".into(),
        "a <b> & \"c\" 'd'\r\nline\ttab\u{1}end".into(),
    );
    g.vertex_mut(lock)
        .unwrap()
        .attributes
        .insert("color".into(), "red".into());
    let locked = g.labels_mut().intern("locked");
    g.add_edge(Edge {
        source: room,
        target: lock,
        directed: false,
        cosmetic: false,
        label: Some(locked),
        length_factor: 1.5,
    });
    g.connect(room, key, true);
    g.add_edge(Edge {
        source: key,
        target: lock,
        directed: true,
        cosmetic: true,
        label: None,
        length_factor: 1.0,
    });
    g.connect(lock, lock, false);
    g
}

// ---------------------------------------------------------------- GraphML

#[test]
fn graphml_of_a_small_graph_is_golden() {
    common::assert_golden(
        "small.graphml",
        to_graphml(&small_graph(), &alphabet(), "small <graph> & co").as_bytes(),
    );
}

#[test]
fn graphml_parses_back_with_every_value() {
    let g = small_graph();
    let text = to_graphml(&g, &alphabet(), "small <graph> & co");
    let root = parse_xml(&text);
    assert_eq!(root.name, "graphml");
    assert_eq!(root.attr("xmlns"), "http://graphml.graphdrawing.org/xmlns");

    // Keys: fixed ones, then one per attribute name in sorted order.
    let keys: Vec<(String, String, String)> = root
        .children_named("key")
        .map(|k| {
            (
                k.attr("id").to_owned(),
                k.attr("for").to_owned(),
                k.attr("attr.name").to_owned(),
            )
        })
        .collect();
    let key = |id: &str, domain: &str, name: &str| (id.into(), domain.into(), name.into());
    assert_eq!(
        keys,
        [
            key("title", "graph", "title"),
            key("tag", "node", "tag"),
            key("color", "node", "color"),
            key("x", "node", "x"),
            key("y", "node", "y"),
            key("a0", "node", "attribute.color"),
            key("a1", "node", "attribute.note"),
            key("directed", "edge", "directed"),
            key("cosmetic", "edge", "cosmetic"),
            key("label", "edge", "label"),
            key("length_factor", "edge", "length_factor"),
        ]
    );

    let graph = root.children_named("graph").next().unwrap();
    assert_eq!(graph.attr("edgedefault"), "directed");
    assert_eq!(graph.data()["title"], "small <graph> & co");

    let nodes: Vec<&Element> = graph.children_named("node").collect();
    let ids: Vec<&str> = nodes.iter().map(|n| n.attr("id")).collect();
    assert_eq!(ids, ["v0", "v2", "v3"], "stable ids, hole kept");
    let room = nodes[0].data();
    assert_eq!(room["tag"], "room");
    assert_eq!(room["color"], "#90a4ae", "the tag's colour");
    assert_eq!(room["a0"], "red", "the attribute `color`");
    assert_eq!(room["x"], "1.5");
    assert_eq!(room["y"], "-2");
    // Escaped characters and line breaks come back exactly; the control
    // character XML cannot carry becomes U+FFFD.
    assert_eq!(room["a1"], "a <b> & \"c\" 'd'\r\nline\ttab\u{FFFD}end");
    let key_node = nodes[2].data();
    assert_eq!(key_node["color"], "#bdbdbd", "grey for an unknown tag");
    assert!(!key_node.contains_key("x"), "no position, no x");

    let edges: Vec<&Element> = graph.children_named("edge").collect();
    let ends: Vec<(&str, &str, &str)> = edges
        .iter()
        .map(|e| (e.attr("id"), e.attr("source"), e.attr("target")))
        .collect();
    assert_eq!(
        ends,
        [
            ("e0", "v0", "v2"),
            ("e1", "v0", "v3"),
            ("e2", "v3", "v2"),
            ("e3", "v2", "v2"),
        ]
    );
    let d: Vec<BTreeMap<String, String>> = edges.iter().map(|e| e.data()).collect();
    assert_eq!(d[0]["directed"], "false");
    assert_eq!(d[0]["label"], "locked");
    assert_eq!(d[0]["length_factor"], "1.5");
    assert_eq!(d[1]["directed"], "true");
    assert_eq!(d[1]["cosmetic"], "false");
    assert!(!d[1].contains_key("label"));
    assert_eq!(d[2]["cosmetic"], "true");
    assert_eq!(d[2]["length_factor"], "1");
    for e in &edges {
        assert!(
            !e.attributes.contains_key("directed"),
            "no per-edge directed attribute (networkx refuses mixed ones)"
        );
    }
}

#[test]
fn graphml_without_directed_edges_is_undirected_and_keyless_for_positions() {
    let mut g = Graph::new();
    let a = g.add_vertex_named("room");
    let b = g.add_vertex_named("room");
    g.connect(a, b, false);
    let root = parse_xml(&to_graphml(&g, &Alphabet::default(), "plain"));
    let graph = root.children_named("graph").next().unwrap();
    assert_eq!(graph.attr("edgedefault"), "undirected");
    assert!(root.children_named("key").all(|k| k.attr("id") != "x"));
    let empty = parse_xml(&to_graphml(&Graph::new(), &Alphabet::default(), ""));
    assert_eq!(empty.children_named("graph").count(), 1);
}

#[test]
fn graphml_of_every_example_parses_and_is_deterministic() {
    for (name, text) in common::example_sources() {
        let grammar = levelgraph::grammar::load(&text, &name).unwrap();
        for seed in 0..5 {
            let Ok(d) = levelgraph::derive(&grammar, seed) else {
                continue;
            };
            let xml = to_graphml(&d.graph, &grammar.alphabet(), &name);
            assert_eq!(xml, to_graphml(&d.graph, &grammar.alphabet(), &name));
            let root = parse_xml(&xml);
            let graph = root.children_named("graph").next().unwrap();
            assert_eq!(
                graph.children_named("node").count(),
                d.graph.vertex_count(),
                "{name} seed {seed}"
            );
            assert_eq!(graph.children_named("edge").count(), d.graph.edge_count());
        }
    }
}

// ---------------------------------------------------------------- GRAPH text

/// Every integer following `prefix` in `text`.
fn tiles(text: &str, prefix: &str) -> Vec<i64> {
    text.split(prefix)
        .skip(1)
        .map(|rest| {
            let end = rest
                .find(|c: char| c != '-' && !c.is_ascii_digit())
                .unwrap();
            rest[..end].parse().unwrap()
        })
        .collect()
}

/// A 3 × 2 grid as graph rewriting on a grid makes it: tags `u` and `Path`,
/// grid cells in the attributes, neighbours joined by undirected edges, and one directed one.
fn grid_graph() -> Graph {
    let mut g = Graph::new();
    let tags = ["u", "Path", "Path", "Path", "u", "Water"];
    let mut ids = Vec::new();
    for (i, tag) in tags.iter().enumerate() {
        let v = g.add_vertex_named(tag);
        let attrs = &mut g.vertex_mut(v).unwrap().attributes;
        attrs.insert("grid_x".into(), (i / 2).to_string());
        attrs.insert("grid_y".into(), (i % 2).to_string());
        ids.push(v);
    }
    for i in 0..6 {
        if i % 2 == 0 {
            g.connect(ids[i], ids[i + 1], false);
        }
        if i + 2 < 6 {
            g.connect(ids[i], ids[i + 2], false);
        }
    }
    g.connect(ids[5], ids[3], true);
    g
}

#[test]
fn graph_text_of_a_grid_has_cells_as_tiles() {
    let text = to_graph_text(&grid_graph(), &[]);
    assert_eq!(
        text,
        "GRAPH u(x=0, y=0, tileX=0, tileY=0) Path(x=0, y=1, tileX=0, tileY=1) \
         Path(x=1, y=0, tileX=1, tileY=0) Path(x=1, y=1, tileX=1, tileY=1) \
         u(x=2, y=0, tileX=2, tileY=0) Water(x=2, y=1, tileX=2, tileY=1) \
         edge(0, 1, d=false) edge(0, 2, d=false) edge(1, 3, d=false) \
         edge(2, 3, d=false) edge(2, 4, d=false) edge(3, 5, d=false) \
         edge(4, 5, d=false) edge(5, 3, d=true)\n"
    );
    common::assert_golden("grid.txt", text.as_bytes());
}

#[test]
fn graph_text_of_a_small_graph_is_golden() {
    let g = small_graph();
    let layout = force_layout(&g, &ForceConfig::for_picture(1));
    let text = to_graph_text(&g, &layout);
    // Indexes, not ids: v0, v2, v3 are 0, 1, 2; the cosmetic edge is left out.
    assert!(
        text.ends_with(" edge(0, 1, d=false) edge(0, 2, d=true) edge(1, 1, d=false)\n"),
        "{text}"
    );
    assert!(text.starts_with("GRAPH room(x="), "{text}");
    assert_eq!(text.lines().count(), 1);
    // Shifted by whole tiles so that the smallest tiles are 0; the room's
    // own position (1.5, -2) keeps its fractions.
    assert_eq!(tiles(&text, "tileX=").into_iter().min(), Some(0));
    assert_eq!(tiles(&text, "tileY=").into_iter().min(), Some(0));
    let room = text.split(") ").next().unwrap();
    assert!(room.contains(".5, y="), "{room}");
    common::assert_golden("small.txt", text.as_bytes());
}

#[test]
fn graph_text_falls_back_from_position_to_grid_to_layout_to_origin() {
    let mut g = Graph::new();
    let a = g.add_vertex_named("a");
    let b = g.add_vertex_named("b");
    let c = g.add_vertex_named("c");
    let d = g.add_vertex_named("d");
    g.vertex_mut(a).unwrap().position = Some([0.456, 7.0]);
    for (k, val) in [("grid_x", "4"), ("grid_y", " -3 ")] {
        g.vertex_mut(a)
            .unwrap()
            .attributes
            .insert(k.into(), val.into());
        g.vertex_mut(b)
            .unwrap()
            .attributes
            .insert(k.into(), val.into());
    }
    // Not integers: no grid cell.
    g.vertex_mut(c)
        .unwrap()
        .attributes
        .insert("grid_x".into(), "east".into());
    let layout = vec![None, Some([9.0, 9.0]), Some([2.5, -0.25]), None];
    let weird = g.add_vertex_named("boss room(1)");
    g.vertex_mut(weird).unwrap().position = Some([f64::NAN, 1.0]);
    // Before the shift the tiles are (4, -3), (4, -3), (3, 0), (0, 0),
    // (0, 0); everything moves down by 3 so that the smallest tileY is 0.
    assert_eq!(
        to_graph_text(&g, &layout),
        "GRAPH a(x=0.46, y=10, tileX=4, tileY=0) b(x=4, y=0, tileX=4, tileY=0) \
         c(x=2.5, y=2.75, tileX=3, tileY=3) d(x=0, y=3, tileX=0, tileY=3) \
         boss_room_1_(x=0, y=3, tileX=0, tileY=3)\n"
    );
    let _ = d;
    assert_eq!(to_graph_text(&Graph::new(), &[]), "GRAPH\n");
}

/// The old name still builds and gives the same text.
#[test]
#[allow(deprecated)]
fn graph_text_keeps_its_old_name() {
    let g = grid_graph();
    assert_eq!(
        levelgraph::formats::to_seed003_text(&g, &[]),
        to_graph_text(&g, &[])
    );
}

// ---------------------------------------------------------------- host import

const HOST_GRAMMAR: &str = r#"
    grammar "host-test" { min_vertices 1 max_vertices 30 }
    tags { s room key lock }
    rule start { (a:s) => (a:room) }
    rule grow max_uses 3 { (a:room) -- (b:room) => (a) -- (x:room) -- (b) }
"#;

fn host_doc() -> MissionDoc {
    let mut g = Graph::new();
    let a = g.add_vertex_named("room");
    let gone = g.add_vertex_named("room");
    let b = g.add_vertex_named("room");
    let k = g.add_vertex_named("key");
    g.remove_vertex(gone);
    g.vertex_mut(a).unwrap().position = Some([0.5, 1.0]);
    g.vertex_mut(k)
        .unwrap()
        .attributes
        .insert("color".into(), "blue".into());
    let e = g.connect(a, b, false);
    g.set_length_factor(e, 2.0);
    // A label the grammar never mentions.
    let secret = g.labels_mut().intern("secret");
    g.add_edge(Edge {
        source: b,
        target: k,
        directed: true,
        cosmetic: false,
        label: Some(secret),
        length_factor: 1.0,
    });
    MissionDoc::from_graph(&g, "hand-made", 0)
}

#[test]
fn host_keeps_ids_attributes_positions_and_length_factors() {
    let grammar = levelgraph::grammar::load(HOST_GRAMMAR, "h").unwrap();
    let doc = host_doc();
    let host = host_for(&doc, &grammar).unwrap();
    // The grammar's tables come first, unchanged.
    assert_eq!(host.tags(), grammar.tags());
    assert_eq!(
        host.labels().get("secret").map(|s| s.0),
        Some(grammar.labels().len() as u32)
    );
    let back = MissionDoc::from_graph(&host, "hand-made", 0);
    assert_eq!(back, doc, "nothing lost on the way in");

    let d = derive_from(&grammar, host, 5).unwrap();
    // `grow` matched the host's corridor room 0 – room 2 (the only room–room
    // edge at first) and the ids of the host survive.
    assert_eq!(d.trace.len(), 3);
    assert_eq!(d.trace.get(0).unwrap().rule, "grow");
    let g = &d.graph;
    assert!(!g.contains_vertex(VertexId(1)), "the hole stays a hole");
    assert_eq!(g.tag_name(VertexId(0)), "room");
    assert_eq!(g.tag_name(VertexId(3)), "key");
    assert_eq!(g.vertex(VertexId(0)).unwrap().position, Some([0.5, 1.0]));
    assert_eq!(g.vertex(VertexId(3)).unwrap().attributes["color"], "blue");
    assert_eq!(
        d.trace.get(0).unwrap().created,
        [VertexId(4)],
        "new ids above the host's"
    );
    // The labelled edge the grammar does not know is still there.
    let secret = g.labels().get("secret").unwrap();
    assert!(g.edges().any(|(_, e)| e.label == Some(secret)));
}

#[test]
fn host_with_an_undeclared_tag_names_the_node() {
    let grammar = levelgraph::grammar::load(HOST_GRAMMAR, "h").unwrap();
    let mut doc = host_doc();
    doc.nodes[2].tag = "dragon".into();
    let err = host_for(&doc, &grammar).unwrap_err();
    assert_eq!(
        err,
        MissionError::UndeclaredTag {
            index: 2,
            id: 3,
            tag: "dragon".into()
        }
    );
    assert_eq!(
        err.to_string(),
        "nodes[2] (id 3): tag `dragon` is not declared by the grammar"
    );
    // The other checks still hold.
    let mut doc = host_doc();
    doc.nodes[1].id = u32::MAX;
    assert_eq!(
        host_for(&doc, &grammar).unwrap_err(),
        MissionError::IdTooLarge {
            index: 1,
            id: u32::MAX
        }
    );
    assert!(doc.to_graph().is_err(), "no slot per id up to 4 billion");
    let mut doc = host_doc();
    doc.edges[0].target = 9;
    assert_eq!(
        host_for(&doc, &grammar).unwrap_err(),
        MissionError::MissingNode { index: 0, id: 9 }
    );
}

#[test]
fn a_derived_mission_feeds_back_as_a_host() {
    let grammar = levelgraph::grammar::default_grammar();
    let first = levelgraph::derive(&grammar, 7).unwrap();
    let doc = MissionDoc::from_json(&MissionDoc::from_derivation(&first).to_json()).unwrap();
    let host = host_for(&doc, &grammar).unwrap();
    assert_eq!(
        MissionDoc::from_graph(&host, "x", 0),
        MissionDoc::from_graph(&first.graph, "x", 0)
    );
    // A new derivation starts with fresh `max_uses`, so rules with uses
    // left go on (here `key_lock`, `cycle`, `side_room`); the start rule
    // never matches, and every vertex of the host keeps its id.
    let bound = host.vertex_bound() as u32;
    let again = derive_from(&grammar, host, 7).unwrap();
    assert!(again.trace.iter().all(|a| a.rule != "start"));
    for (id, _) in first.graph.vertices() {
        assert!(again.graph.contains_vertex(id), "{id} lost");
    }
    for a in &again.trace {
        assert!(a.created.iter().all(|v| v.0 >= bound));
    }
}

// ---------------------------------------------------------------- bad input

#[test]
fn every_prefix_of_a_mission_document_reads_or_errs_as_a_host() {
    let grammar = levelgraph::grammar::default_grammar();
    let level = levelgraph::derive(&grammar, 3).unwrap();
    let text = MissionDoc::from_derivation(&level).to_json();
    let mut read = 0;
    for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        if let Ok(doc) = MissionDoc::from_json(&text[..end]) {
            host_for(&doc, &grammar).unwrap();
            read += 1;
        }
    }
    assert!(read >= 1, "the whole document reads");
}

/// A graph built from arbitrary parts: tags, attribute keys and values and
/// labels of any characters (control characters included), positions and
/// length factors of any float (NaN and infinities included), removed
/// vertices, self-loops and parallel edges of different kinds.
fn arbitrary_graph() -> impl Strategy<Value = Graph> {
    let text = || proptest::collection::vec(any::<char>(), 0..6).prop_map(String::from_iter);
    let vertex = (
        text(),
        proptest::collection::vec((text(), text()), 0..3),
        proptest::option::of((any::<f64>(), any::<f64>())),
        any::<bool>(),
    );
    let edge = (
        0usize..8,
        0usize..8,
        any::<bool>(),
        any::<bool>(),
        proptest::option::of(text()),
        any::<f64>(),
    );
    (
        proptest::collection::vec(vertex, 1..8),
        proptest::collection::vec(edge, 0..12),
    )
        .prop_map(|(vertices, edges)| {
            let mut g = Graph::new();
            let ids: Vec<VertexId> = vertices
                .iter()
                .map(|(tag, attributes, position, _)| {
                    let v = g.add_vertex_named(tag);
                    let vertex = g.vertex_mut(v).unwrap();
                    vertex.attributes = attributes.iter().cloned().collect();
                    vertex.position = position.map(|(x, y)| [x, y]);
                    v
                })
                .collect();
            for (a, b, directed, cosmetic, label, length_factor) in edges {
                let label = label.map(|l| g.labels_mut().intern(&l));
                g.add_edge(Edge {
                    source: ids[a % ids.len()],
                    target: ids[b % ids.len()],
                    directed,
                    cosmetic,
                    label,
                    length_factor,
                });
            }
            for (v, (_, _, _, remove)) in ids.iter().zip(&vertices) {
                if *remove {
                    g.remove_vertex(*v);
                }
            }
            g
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_graphs_export_cleanly(g in arbitrary_graph()) {
        let xml = to_graphml(&g, &alphabet(), "fuzz\u{0}title");
        let root = parse_xml(&xml);
        let graph = root.children_named("graph").next().unwrap();
        prop_assert_eq!(graph.children_named("node").count(), g.vertex_count());
        prop_assert_eq!(graph.children_named("edge").count(), g.edge_count());

        let layout = force_layout(&g, &ForceConfig::for_picture(0));
        let text = to_graph_text(&g, &layout);
        prop_assert!(text.starts_with("GRAPH") && text.ends_with('\n'));
        prop_assert_eq!(text.lines().count(), 1);
        let solid = g.edges().filter(|(_, e)| !e.cosmetic).count();
        prop_assert_eq!(text.matches(" edge(").count(), solid);
        if g.vertex_count() > 0 {
            prop_assert_eq!(tiles(&text, "tileX=").into_iter().min(), Some(0));
            prop_assert_eq!(tiles(&text, "tileY=").into_iter().min(), Some(0));
        }

        // Through JSON and back as a host: an error at most, never a panic.
        let grammar = levelgraph::grammar::default_grammar();
        let json = MissionDoc::from_graph(&g, "fuzz", 0).to_json();
        if let Ok(doc) = MissionDoc::from_json(&json) {
            let _ = host_for(&doc, &grammar);
        }
    }
}
