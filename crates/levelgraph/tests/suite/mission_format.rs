//! The mission JSON format read back: ids with holes survive, and malformed
//! documents are rejected with the offending field named, never merged.

use levelgraph::formats::{GeometryValue, MissionDoc, MissionError};
use levelgraph::graph::{Graph, VertexId};

fn doc_with_hole() -> MissionDoc {
    let mut g = Graph::new();
    let a = g.add_vertex_named("room");
    let b = g.add_vertex_named("junk");
    let c = g.add_vertex_named("key");
    g.connect(a, c, true);
    g.remove_vertex(b);
    g.vertex_mut(a)
        .unwrap()
        .attributes
        .insert("color".into(), "red".into());
    MissionDoc::from_graph(&g, "hand-made", 5)
}

#[test]
fn ids_with_holes_round_trip() {
    let doc = doc_with_hole();
    let ids: Vec<u32> = doc.nodes.iter().map(|n| n.id).collect();
    assert_eq!(ids, [0, 2]);
    let text = doc.to_json();
    let back = MissionDoc::from_json(&text).unwrap();
    assert_eq!(back, doc);
    let g = back.to_graph().unwrap();
    assert!(g.contains_vertex(VertexId(2)) && !g.contains_vertex(VertexId(1)));
    assert_eq!(MissionDoc::from_graph(&g, "hand-made", 5).to_json(), text);
}

#[test]
fn malformed_documents_are_rejected() {
    let mut doc = doc_with_hole();
    doc.edges.push(doc.edges[0].clone());
    assert_eq!(
        doc.to_graph().unwrap_err(),
        MissionError::DuplicateEdge { index: 1, first: 0 }
    );

    let mut doc = doc_with_hole();
    doc.nodes[1].id = 0;
    assert_eq!(
        doc.to_graph().unwrap_err(),
        MissionError::DuplicateId { index: 1, id: 0 }
    );

    let mut doc = doc_with_hole();
    doc.edges[0].target = 7;
    assert_eq!(
        doc.to_graph().unwrap_err(),
        MissionError::MissingNode { index: 0, id: 7 }
    );

    let mut doc = doc_with_hole();
    doc.format = "other/2".into();
    let err = MissionDoc::from_json(&doc.to_json()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "unsupported format `other/2` (expected `levelgraph.mission/1`)"
    );

    let err = MissionDoc::from_json("{\"format\": 3}").unwrap_err();
    assert!(err.to_string().contains("line 1 column"), "{err}");
}

/// Positions and radii far outside any drawing are refused: a host node at
/// [1e308, -1e308] was read and `mission.svg` came out `width="inf"`.
#[test]
fn positions_and_radii_beyond_the_drawing_are_rejected() {
    let mut doc = doc_with_hole();
    doc.nodes[1].position = Some([1e308, -1e308]);
    let err = doc.to_graph().unwrap_err();
    assert_eq!(
        err.to_string(),
        "nodes[1] (id 2): position [1e308, -1e308] is outside the drawing: \
         coordinates are numbers from -1e15 to 1e15"
    );
    for r in [0.0, -5.0, 1e16] {
        let mut doc = doc_with_hole();
        doc.nodes[0].radius = Some(r);
        let err = doc.to_graph().unwrap_err();
        assert!(
            matches!(
                err,
                MissionError::BadGeometry {
                    index: 0,
                    id: 0,
                    value: GeometryValue::Radius(_),
                }
            ),
            "{err}"
        );
    }
    // The largest accepted, and the ordinary ones, still round trip.
    let mut doc = doc_with_hole();
    doc.nodes[0].position = Some([1e15, -1e15]);
    doc.nodes[0].radius = Some(1e15);
    doc.nodes[1].position = Some([0.25, 3.0]);
    doc.nodes[1].radius = Some(0.5);
    let text = doc.to_json();
    let g = MissionDoc::from_json(&text).unwrap().to_graph().unwrap();
    assert_eq!(MissionDoc::from_graph(&g, "hand-made", 5).to_json(), text);
}

/// A byte-order mark before the JSON (some Windows editors write one) is
/// skipped; serde_json alone refuses it.
#[test]
fn a_leading_byte_order_mark_is_skipped() {
    let text = doc_with_hole().to_json();
    assert!(serde_json::from_str::<serde_json::Value>(&format!("\u{feff}{text}")).is_err());
    let back = MissionDoc::from_json(&format!("\u{feff}{text}")).unwrap();
    assert_eq!(back, doc_with_hole());
}
